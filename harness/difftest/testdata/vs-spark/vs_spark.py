"""Python UDFs for udfx's runners-versus-Spark test
(harness/difftest/runners_vs_spark_test.go): each returns values that
PySpark must convert to the declared type."""
from decimal import Decimal

from pyspark.sql.functions import udf


@udf("int")
def triple_as_int(x: int) -> int:
    # BIGINT inputs tripled: past INT's range, and past BIGINT's.
    if x is None:
        return None
    return x * 3


@udf("bigint")
def half_as_long(x: int) -> int:
    # A float where BIGINT is declared.
    if x is None:
        return None
    return x / 2


@udf("double")
def int_as_double(x: int) -> float:
    # An int where DOUBLE is declared.
    if x is None:
        return None
    return x // 7


@udf("string")
def float_as_string(x: float) -> str:
    # A float where STRING is declared.
    return x


@udf("string")
def lone_surrogate(s: str) -> str:
    # An unpaired high surrogate appended to the input.
    if s is None:
        return "\ud800"
    return s + "\ud800"


_DECIMALS = [
    "1.005", "-1.005", "1.015", "-1.015", "0.005", "-0.005", "0.0049999999999", "2.675", "0.125", "-0.125",
    "999.994", "999.995", "-999.995", "1000", "99999.99", "1E+2", "1E+3", "12345678901234567890.5", "1E-100", "0",
]


@udf("decimal(5,2)")
def decimal_table(i: int) -> Decimal:
    # A decimal.Decimal per input: halves to round at scale 2 and values
    # DECIMAL(5,2) cannot hold.
    if i is None:
        return None
    return Decimal(_DECIMALS[i % len(_DECIMALS)])
