"""Small UDFs the translator's tests run in CPython against their rewrites."""
import math

from pyspark.sql.functions import udf


@udf("double")
def scale(x: float) -> float:
    if x is None:
        return None
    y = -x * 2 + 0.5
    return y / 3.0 if y > 1.0 and not x == 7.0 else abs(y) - x / 4


@udf("double")
def ratio(a: float, b: float) -> float:
    if a is None or b is None:
        return None
    return a / b


@udf("boolean")
def positive(x: float) -> bool:
    if x is not None:
        return x > 0.0
    return None


@udf("double")
def raw(x: float) -> float:
    return x + 1.0


@udf("double")
def pymod(x: float) -> float:
    if x is None:
        return None
    return x % 2.0


@udf("double")
def root(x: float) -> float:
    if x is None:
        return None
    return math.sqrt(x)


@udf("double")
def whole(x: float) -> float:
    """Returns an int for a double column: PySpark makes that NULL."""
    if x is None:
        return None
    return int(x)


@udf("boolean")
def is_one(x: float) -> bool:
    # None == 1.0 is False in CPython, not an error: not a raise.
    return x == 1.0


@udf("boolean")
def above_one(x: float) -> bool:
    # None > 1.0 raises TypeError.
    return x > 1.0
