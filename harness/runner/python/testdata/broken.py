"""A module with a syntax error on line 7 (runner compile-error test)."""
from pyspark.sql.functions import udf


@udf("double")
def f(x):
    return x +* 2
