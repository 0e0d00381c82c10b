"""task bench-vectors: times, in one Spark session, the plain-Python
pandas_udfs of examples/python-vectors, the published write-up's numba
versions (reference_numba.py) and udfx's vectorized-python rewrites, the
exact one and the fast one proved within a declared tolerance (both
rendered here by harness/internal/vectorize/render.py, as udfx rewrite
renders them), on the write-up's data: rows of 1,536 float32 values from
np.random.seed(42) and np.random.rand(1536).astype(np.float32), 1,000 rows
and ten times that.

Each timing is sdf.withColumn("func", f("vector")) written to Spark's noop
sink over the cached DataFrame. After one warm-up of each side (numba
compiles then), the timed runs alternate the sides; the medians and the
ratios come from the same run. The plain originals take minutes a run, so
they run --plain-runs times on the first --plain-rows rows only and their
time is scaled to the full row count, which the output says.

Usage: bench.py [--rows 1000,10000] [--runs 5] [--plain-rows 1000,50]
                [--plain-runs 1] [--master local[2]]
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
EXAMPLE = os.path.join(ROOT, "examples", "python-vectors", "vectors.py")
RENDER = os.path.join(ROOT, "harness", "internal", "vectorize", "render.py")
FUNCS = [("moving_average", "array<float>"), ("mean_pairwise_abs_diff", "float")]


def render(out_dir, fast):
    """udfx's rewrites, rendered as udfx rewrite renders them: the exact
    form, or with fast the stated-tolerance one (--target
    vectorized-python-fast)."""
    names = {}
    for name, ret in FUNCS:
        req = {"file": EXAMPLE, "rel_file": "examples/python-vectors/vectors.py", "name": name,
               "kind": "pandas-udf", "flavor": "series-to-series", "return_type": ret,
               "param_types": ["array<float>"], "marker": "# rendered by bench/vectors/bench.py", "fast": fast}
        res = json.loads(subprocess.run([sys.executable, RENDER], input=json.dumps(req), capture_output=True,
                                        text=True, check=True).stdout)
        if "source" not in res:
            sys.exit("udfx declined %s: %s" % (name, res.get("decline")))
        mod = ("udfx_fast_" if fast else "udfx_vectorized_") + name
        with open(os.path.join(out_dir, mod + ".py"), "w") as f:
            f.write(res["source"])
        names[name] = mod
    return names


def timed(sdf, f):
    start = time.perf_counter()
    sdf.withColumn("func", f("vector")).write.format("noop").mode("overwrite").save()
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", default="1000,10000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--plain-rows", default="1000,50",
                    help="rows the plain originals run on, per function in the order moving_average, mean_pairwise_abs_diff")
    ap.add_argument("--plain-runs", type=int, default=1)
    ap.add_argument("--master", default="local[2]")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="udfx-bench-vectors-")
    rewrites = render(work, False)
    fasts = render(work, True)
    paths = [os.path.dirname(EXAMPLE), HERE, work]
    # The Python workers import the UDFs' modules by name.
    os.environ["PYTHONPATH"] = os.pathsep.join(paths + [os.environ.get("PYTHONPATH", "")])
    os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(work, "numba-cache"))
    os.environ["PYSPARK_PYTHON"] = sys.executable
    sys.path[:0] = paths

    import numpy as np
    import pandas as pd
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master(args.master).appName("udfx-bench-vectors")
             .config("spark.sql.shuffle.partitions", "2").config("spark.ui.enabled", "false")
             .config("spark.sql.execution.arrow.pyspark.enabled", "true").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    plain = importlib.import_module("vectors")
    ref = importlib.import_module("reference_numba")
    udfx = {n: importlib.import_module(m) for n, m in rewrites.items()}
    fast = {n: importlib.import_module(m) for n, m in fasts.items()}
    # As from a notebook (the write-up's setting): the functions travel by
    # value, so the workers never import these modules, whose
    # @pandas_udf("...") lines need a SparkContext to parse their types.
    from pyspark import cloudpickle

    for m in [plain, ref] + list(udfx.values()) + list(fast.values()):
        cloudpickle.register_pickle_by_value(m)
    # The write-up defines its njit functions in the notebook, __main__,
    # which numba looks up when it compiles them in a worker.
    for d in (ref._mean_pairwise_abs_diff, ref._moving_average):
        d.py_func.__module__ = "__main__"

    import platform
    print("Spark %s, %s, Python %s, numpy %s, numba %s, %s, %d CPUs" % (
        spark.version, args.master, platform.python_version(), np.__version__,
        importlib.import_module("numba").__version__, platform.processor() or platform.machine(), os.cpu_count()))
    plain_rows = [int(x) for x in args.plain_rows.split(",")]
    # Spark's floor for each function: a pandas_udf of the same type that
    # does no work but return a result of the same shape (each vector cut
    # to the moving average's length; its first element). Moving the
    # vectors through Arrow and back costs this much whatever the
    # function does, so no pandas_udf rewrite runs in less: the best
    # ratio any rewrite can reach over the reference is its time over
    # this one's.
    from pyspark.sql.functions import pandas_udf

    @pandas_udf("array<float>")
    def floor_array(v: pd.Series) -> pd.Series:
        return v.apply(lambda x: x[:len(x) - 127])

    @pandas_udf("float")
    def floor_scalar(v: pd.Series) -> pd.Series:
        return v.apply(lambda x: np.float32(x[0]))

    floors = {"moving_average": floor_array, "mean_pairwise_abs_diff": floor_scalar}
    for rows in [int(r) for r in args.rows.split(",")]:
        np.random.seed(42)
        base = [np.random.rand(1536).astype(np.float32) for _ in range(1000)]
        data = [base[i % 1000] for i in range(rows)]
        sdf = spark.createDataFrame(pd.DataFrame({"vector": data}), schema="vector array<float>").cache()
        sdf.count()
        for k, (name, _) in enumerate(FUNCS):
            sides = [("reference numba", getattr(ref, name), sdf, 1.0),
                     ("udfx exact rewrite", getattr(udfx[name], name), sdf, 1.0),
                     ("udfx fast (tolerance)", getattr(fast[name], name), sdf, 1.0),
                     ("Spark floor (no work)", floors[name], sdf, 1.0)]
            pr = min(plain_rows[k], rows)
            psdf = sdf.limit(pr).cache() if pr < rows else sdf
            psdf.count()
            for label, f, d, _ in sides:
                timed(d, f)  # warm-up: numba compiles in the workers
            times = {label: [] for label, _, _, _ in sides}
            for _ in range(args.runs):
                for label, f, d, _ in sides:
                    times[label].append(timed(d, f))
            ptimes = [timed(psdf, getattr(plain, name)) * rows / pr for _ in range(args.plain_runs)]
            med = {label: statistics.median(ts) for label, ts in times.items()}
            pmed = statistics.median(ptimes)
            print("\n%s, %d rows x 1536 float32 (%d timed runs each, alternating; medians)" % (name, rows, args.runs))
            note = "" if pr == rows else " (ran on %d rows, scaled x%g)" % (pr, rows / pr)
            print("  plain Python original  %9.3f s%s" % (pmed, note))
            for label in times:
                print("  %-22s %9.3f s  (spread %.3f s)  plain/this %.1fx" % (
                    label, med[label], max(times[label]) - min(times[label]), pmed / med[label]))
            print("  udfx exact vs reference numba: %.2fx (reference time / udfx time)" % (
                med["reference numba"] / med["udfx exact rewrite"]))
            print("  udfx fast (stated tolerance) vs reference numba: %.2fx" % (
                med["reference numba"] / med["udfx fast (tolerance)"]))
            print("  the most any pandas_udf could gain over the reference here: %.2fx (reference time / floor time)" % (
                med["reference numba"] / med["Spark floor (no work)"]))
            if psdf is not sdf:
                psdf.unpersist()
        sdf.unpersist()
    spark.stop()


if __name__ == "__main__":
    main()
