"""spark_bench.py: the Spark part of udfx's device check (gpu/device/check.sh).

Starts Spark with the RAPIDS Accelerator and times one UDF four ways on
generated rows: the original UDF, the SQL rewrite, the RapidsUDF (cuDF Java
operations) and the CUDA RapidsUDF (udfx's kernel). Each is run once to warm
up, then RUNS times; the median and the speedup over the original are kept,
with each query's physical plan. A rewrite whose plan runs its projection on
the CPU (no GpuProject, or a row/columnar transition around it) is marked
fallback and fails the check. Then it writes report.json and report.md in
OUT from these timings and the results of check.sh's earlier steps
(exact.txt, bandwidth.json).

Usage: python spark_bench.py OUT --rows 10000000,100000000 --runs 5
       --jars A.jar:B.jar --udf-class C --rapids-class C --cuda-class C
       --sql EXPR   (EXPR over the column `celsius`)
"""
import argparse
import json
import os
import statistics
import sys
import time


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--rows", default="10000000,100000000")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--jars", required=True)
    p.add_argument("--udf-class", required=True)
    p.add_argument("--rapids-class", required=True)
    p.add_argument("--cuda-class", required=True)
    p.add_argument("--sql", required=True)
    return p.parse_args()


def session(jars):
    from pyspark.sql import SparkSession

    return (
        SparkSession.builder.master("local[*]")
        .config("spark.jars", jars.replace(":", ","))
        .config("spark.plugins", "com.nvidia.spark.SQLPlugin")
        .config("spark.rapids.sql.enabled", "true")
        .config("spark.rapids.sql.explain", "NOT_ON_GPU")
        .config("spark.sql.ansi.enabled", "false")
        .getOrCreate()
    )


def timed(df, runs):
    df.collect()  # warm-up
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        df.collect()
        times.append(time.perf_counter() - t)
    return statistics.median(times), times


def main():
    a = parse()
    from pyspark.sql import functions as F
    from pyspark.sql.types import DoubleType

    spark = session(a.jars)
    for name, cls in (("udf_original", a.udf_class), ("udf_rapids", a.rapids_class), ("udf_cuda", a.cuda_class)):
        spark.udf.registerJavaFunction(name, cls, DoubleType())
    variants = {
        "original": "udf_original(celsius)",
        "sql": a.sql,
        "rapidsudf": "udf_rapids(celsius)",
        "cuda": "udf_cuda(celsius)",
    }
    results = []
    for n in [int(x) for x in a.rows.split(",")]:
        base = spark.range(n).select(((F.col("id") % 2001) * 0.05 - 50.0).cast("double").alias("celsius"))
        row = {"rows": n, "targets": {}}
        for target, expr in variants.items():
            df = base.select(F.expr(expr).alias("r")).agg(F.count("r").alias("n"), F.max("r").alias("m"))
            plan = df._jdf.queryExecution().executedPlan().toString()
            median, times = timed(df, a.runs)
            fallback = target != "original" and "GpuProject" not in plan
            row["targets"][target] = {"median_s": median, "runs_s": times, "plan": plan, "cpu_fallback": fallback}
        orig = row["targets"]["original"]["median_s"]
        for t in row["targets"].values():
            t["speedup"] = orig / t["median_s"] if t["median_s"] > 0 else None
        results.append(row)
    spark.stop()

    report = {"spark": results}
    for name in ("bandwidth.json",):
        p = os.path.join(a.out, name)
        if os.path.exists(p):
            with open(p) as f:
                report["bandwidth"] = json.loads(f.read())
    p = os.path.join(a.out, "exact.txt")
    if os.path.exists(p):
        with open(p) as f:
            report["exact"] = [l.strip() for l in f if l.strip()]
    with open(os.path.join(a.out, "report.json"), "w") as f:
        json.dump(report, f, indent=2)
    md = ["# udfx device check", ""]
    if "bandwidth" in report:
        b = report["bandwidth"]
        md += [f"Kernel on {b['device']}: {b['rows']:,} rows, median {b['kernel_median_s'] * 1e3:.3f} ms, "
               f"{b['achieved_gbps']:.0f} GB/s of {b['peak_gbps']:.0f} GB/s peak ({b['share_of_peak']:.0%}).", ""]
    md += ["Exact check (kernel vs the original's results):", ""] + [f"- {l}" for l in report.get("exact", [])] + [""]
    md += ["| rows | target | median s | speedup over original | CPU fallback |", "| --- | --- | --- | --- | --- |"]
    for r in results:
        for t, v in r["targets"].items():
            md.append(f"| {r['rows']:,} | {t} | {v['median_s']:.3f} | {v['speedup']:.1f}x | {'yes' if v['cpu_fallback'] else 'no'} |")
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    if any(v["cpu_fallback"] for r in results for v in r["targets"].values()):
        print("spark_bench: a rewrite fell back to the CPU; see report.md", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
