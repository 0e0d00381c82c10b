"""Vectorized UDFs over array<float> sensor vectors."""
import numpy as np
import pandas as pd
from pyspark.sql import SparkSession
from pyspark.sql.functions import pandas_udf


@pandas_udf("float")
def mean_pairwise_abs_diff(vectors: pd.Series) -> float:
    """Mean of |a - b| over all pairs of values in all vectors of the group."""
    values = np.concatenate([np.asarray(v, dtype=np.float32) for v in vectors])
    if values.size < 2:
        return float("nan")
    diffs = np.abs(values[:, None] - values[None, :])
    n = values.size
    return float(diffs.sum() / (n * (n - 1)))


@pandas_udf("array<float>")
def moving_average(vectors: pd.Series) -> pd.Series:
    """Moving average with a window of 128 samples over each vector."""
    window = 128
    kernel = np.ones(window, dtype=np.float32) / window

    def smooth(v):
        arr = np.asarray(v, dtype=np.float32)
        if arr.size < window:
            return arr
        return np.convolve(arr, kernel, mode="valid")

    return vectors.apply(smooth)


def main(src):
    spark = SparkSession.builder.appName("vectors").getOrCreate()
    df = spark.read.parquet(src)
    df.groupBy("sensor").agg(mean_pairwise_abs_diff("samples").alias("spread")).show()
    df.select("sensor", moving_average("samples").alias("smoothed")).show()


if __name__ == "__main__":
    import sys

    main(sys.argv[1])
