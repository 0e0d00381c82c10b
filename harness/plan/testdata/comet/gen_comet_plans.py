"""Regenerates the Comet plan texts in this folder from a real run of
Apache DataFusion Comet 1.2.0 on the pinned Spark.

Run from the repository root with the pinned pyspark and the Comet jar in
the local Maven repository (udfx's tests fetch it; or
mvn dependency:get -Dartifact=org.apache.datafusion:comet-spark-spark4.1_2.13:1.2.0):

    .venv/bin/python harness/plan/testdata/comet/gen_comet_plans.py

It starts one local Spark session with the Comet plugin and the settings
udfx uses (harness/spark.CometSettings), with the JVM's log sent to a file,
runs each query of gen/gen_spark_plans.py's per-city job once, and writes

  NAME.txt         the fallback report Comet logged for the query
                   (spark.comet.explain.fallback.enabled; nothing when all
                   of it ran natively), then df.explain() after the run;
  NAME.report.txt  org.apache.comet.ExtendedExplainInfo's report on the
                   executed plan: what udfx reads per job (SideResult.NativeReport).
"""

import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(os.path.dirname(HERE), "gen")
sys.path.insert(0, GEN)
import gen_spark_plans as gen  # noqa: E402  (the job, its input and the helpers)
JAR = os.path.expanduser(
    "~/.m2/repository/org/apache/datafusion/comet-spark-spark4.1_2.13/1.2.0/comet-spark-spark4.1_2.13-1.2.0.jar"
)

# harness/spark/comet.go's CometSettings.
COMET = {
    "spark.plugins": "org.apache.spark.CometPlugin",
    "spark.shuffle.manager": "org.apache.spark.sql.comet.execution.shuffle.CometShuffleManager",
    "spark.comet.enabled": "true",
    "spark.comet.exec.enabled": "true",
    "spark.comet.shuffle.enabled": "true",
    "spark.memory.offHeap.enabled": "true",
    "spark.memory.offHeap.size": "2g",
    "spark.comet.explain.fallback.enabled": "true",
    "spark.comet.explain.codegen.enabled": "true",
}


# The fallback reports in the log (one per planning: AQE plans each stage):
# the WARN line, the annotated tree and the summary line.
WARN = re.compile(r"^.*WARN CometExecRule: Comet cannot execute some parts of this plan natively")


def fallback_report(log_text):
    lines = log_text.splitlines()
    out, on = [], False
    for ln in lines:
        if WARN.match(ln):
            out, on = out + [ln], True
            continue
        if on:
            out.append(ln)
            if ln.startswith("Comet accelerated "):
                on = False
    return "\n".join(out) + "\n" if out else ""


def main():
    if not os.path.isfile(JAR):
        sys.exit("no Comet jar at %s" % JAR)
    work = tempfile.mkdtemp(prefix="udfx-comet-gen-")
    log = os.path.join(work, "spark.log")
    # The JVM inherits fd 2: its log4j output (Comet's WARN) goes to log.
    fd = os.open(log, os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o644)
    saved = os.dup(2)
    os.dup2(fd, 2)
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F
    from pyspark.sql.functions import udf
    from pyspark.sql.types import DoubleType

    jar = gen.build_jar(work, names=("ToFahrenheit.java",))
    b = (
        SparkSession.builder.master("local[2]")
        .appName("udfx-comet-plan-gen")
        .config("spark.jars", jar)
        .config("spark.driver.extraClassPath", os.pathsep.join([JAR, jar]))
        .config("spark.executor.extraClassPath", JAR)
        .config("spark.sql.adaptive.enabled", "true")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
    )
    for k, v in COMET.items():
        b = b.config(k, v)
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    version = spark.conf.get("spark.comet.version")
    df = gen.readings(spark)

    @udf(DoubleType())
    def to_fahrenheit(c):
        return None if c is None else c * 9.0 / 5.0 + 32.0

    spark.udf.registerJavaFunction("java_to_fahrenheit", "ToFahrenheit", DoubleType())
    per_city = gen.per_city

    queries = {
        "python-udf": per_city(df.select("city", to_fahrenheit("celsius").alias("f"))),
        "java-udf": per_city(spark.sql("SELECT city, java_to_fahrenheit(celsius) AS f FROM readings")),
        "sql-rewrite": per_city(df.select("city", ((F.col("celsius") * 9 / 5) + 32).alias("f"))),
        # A rewrite Comet 1.2.0 runs in its operators but not natively:
        # bround goes through the JVM codegen dispatcher.
        "sql-dispatch": per_city(df.select("city", F.expr("bround(celsius * 9 / 5 + 32, 1)").alias("f"))),
    }
    comet_info = spark.sparkContext._jvm.org.apache.comet.ExtendedExplainInfo()
    for name, q in queries.items():
        start = os.path.getsize(log)
        q.collect()
        with open(log) as f:
            f.seek(start)
            logged = f.read()
        gen.write(name + ".txt", fallback_report(logged) + gen.explain(q), out=HERE)
        gen.write(name + ".report.txt", str(comet_info.generateExtendedInfo(q._jdf.queryExecution().executedPlan())), out=HERE)
    gen.write("VERSION", "Comet %s on Spark %s" % (version, spark.version), out=HERE)
    spark.stop()
    os.dup2(saved, 2)


if __name__ == "__main__":
    sys.exit(main())
