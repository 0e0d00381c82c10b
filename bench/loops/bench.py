"""task bench-loops: times, in one Spark session, the plain @udfs of
examples/python-loops against udfx's vectorized-python rewrites of them
(rendered here by harness/internal/vectorize/render.py, as udfx rewrite
renders them: numba kernels inside plain @udfs of the same type), over
spark.range(1, ROWS + 1). Each timing selects the UDF over the range and
writes to Spark's noop sink; after one warm-up of each side (numba
compiles then) the timed runs alternate, and the medians and the ratio
come from the same run.

Usage: bench.py [--rows 1000000] [--runs 5] [--master local[2]]
"""
import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXAMPLE = os.path.join(ROOT, "examples", "python-loops", "loops.py")
RENDER = os.path.join(ROOT, "harness", "internal", "vectorize", "render.py")
FUNCS = ["collatz_steps", "digit_sum"]


def render(out_dir):
    names = {}
    for name in FUNCS:
        req = {"file": EXAMPLE, "rel_file": "examples/python-loops/loops.py", "name": name, "kind": "python-udf",
               "return_type": "int", "param_types": ["bigint"], "marker": "# rendered by bench/loops/bench.py"}
        res = json.loads(subprocess.run([sys.executable, RENDER], input=json.dumps(req), capture_output=True,
                                        text=True, check=True).stdout)
        if "source" not in res:
            sys.exit("udfx declined %s: %s" % (name, res.get("decline")))
        mod = "udfx_loops_" + name
        with open(os.path.join(out_dir, mod + ".py"), "w") as f:
            f.write(res["source"])
        names[name] = mod
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--master", default="local[2]")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="udfx-bench-loops-")
    os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(work, "numba-cache"))
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master(args.master).appName("udfx-bench-loops")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    rewrites = render(work)
    sys.path[:0] = [os.path.dirname(EXAMPLE), work]
    # The functions travel by value, as from a notebook: the workers never
    # import these modules.
    from pyspark import cloudpickle

    plain = importlib.import_module("loops")
    udfx = {n: importlib.import_module(m) for n, m in rewrites.items()}
    for m in [plain] + list(udfx.values()):
        cloudpickle.register_pickle_by_value(m)
    df = spark.range(1, args.rows + 1).withColumnRenamed("id", "n")

    def timed(f):
        t0 = time.perf_counter()
        df.select(f("n")).write.format("noop").mode("overwrite").save()
        return time.perf_counter() - t0

    print("Spark %s, %s, Python %s, %d CPUs; spark.range(1, %d + 1)" % (
        spark.version, args.master, sys.version.split()[0], os.cpu_count(), args.rows))
    for name in FUNCS:
        sides = [("plain @udf original", getattr(plain, name)), ("udfx vectorized-python", getattr(udfx[name], name))]
        for _, f in sides:
            timed(f)
        times = {label: [] for label, _ in sides}
        for i in range(args.runs):
            for label, f in (sides if i % 2 == 0 else sides[::-1]):
                times[label].append(timed(f))
        med = {label: statistics.median(ts) for label, ts in times.items()}
        print("\n%s, %d rows (%d timed runs each, alternating; medians)" % (name, args.rows, args.runs))
        for label in times:
            print("  %-24s %8.3f s  (spread %.3f s)" % (label, med[label], max(times[label]) - min(times[label])))
        print("  speedup %.2fx (original median / rewrite median)" % (med["plain @udf original"] / med["udfx vectorized-python"]))
    spark.stop()


if __name__ == "__main__":
    main()
