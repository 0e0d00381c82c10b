"""Vectorized UDFs over array<float> embedding vectors, written as the
published PySpark write-up udfx benchmarks against writes them first: plain
Python loops inside a pandas_udf, applied to each row's vector."""
import numpy as np
import pandas as pd
from pyspark.sql import SparkSession
from pyspark.sql.functions import pandas_udf


@pandas_udf("float")
def mean_pairwise_abs_diff(v: pd.Series) -> pd.Series:
    def f(x):
        n = len(x)
        tot = 0.0
        cnt = 0
        for i in range(n):
            for j in range(i + 1, n):
                tot += abs(x[i] - x[j])
                cnt += 1
        return tot / cnt

    return v.apply(f)


@pandas_udf("array<float>")
def moving_average(v: pd.Series) -> pd.Series:
    def f(x):
        w = 128
        n = len(x)
        y = np.empty(n - w + 1, dtype=x.dtype)
        for i in range(n - w + 1):
            s = 0.0
            for j in range(i, i + w):
                s += x[j]
            y[i] = s / w
        return y

    return v.apply(f)


def main(src):
    spark = SparkSession.builder.appName("vectors").getOrCreate()
    sdf = spark.read.schema("vector array<float>").parquet(src)
    sdf.withColumn("func", mean_pairwise_abs_diff("vector")).show()
    sdf.withColumn("func", moving_average("vector")).show()


if __name__ == "__main__":
    import sys

    main(sys.argv[1])
