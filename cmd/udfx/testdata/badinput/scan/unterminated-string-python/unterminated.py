from pyspark.sql.functions import udf


@udf("string")
def f(x):
    # the closing quote is missing
    return "abc
