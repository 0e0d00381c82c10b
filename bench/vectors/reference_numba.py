"""The published write-up's own fast versions of examples/python-vectors:
the same loops under @numba.njit, called through v.apply inside the
pandas_udf. task bench-vectors times them beside the plain originals and
udfx's rewrites. Kept out of examples/ so that scanning the examples finds
only the originals.

Not bit-identical to the originals: with numpy 2 (NEP 50) the originals'
`tot = 0.0; tot += x[i] ...` accumulate in float32 once the first float32
element is added, while numba types the accumulator float64."""
import numba
import pandas as pd
import numpy as np
from pyspark.sql.functions import pandas_udf


@numba.njit
def _mean_pairwise_abs_diff(x):
    n = len(x)
    tot = 0.0
    cnt = 0
    for i in range(n):
        for j in range(i + 1, n):
            tot += abs(x[i] - x[j])
            cnt += 1
    return tot / cnt


@pandas_udf("float")
def mean_pairwise_abs_diff(v: pd.Series) -> pd.Series:
    return v.apply(_mean_pairwise_abs_diff)


@numba.njit
def _moving_average(x):
    w = 128
    n = len(x)
    y = np.empty(n - w + 1, dtype=x.dtype)
    for i in range(n - w + 1):
        s = 0.0
        for j in range(i, i + w):
            s += x[j]
        y[i] = s / w
    return y


@pandas_udf("array<float>")
def moving_average(v: pd.Series) -> pd.Series:
    return v.apply(_moving_average)
