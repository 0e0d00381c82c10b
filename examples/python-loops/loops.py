"""Plain PySpark UDFs that loop over a number, row by row in the Python
worker: the steps of the Collatz sequence and the sum of the digits."""
from pyspark.sql import SparkSession
from pyspark.sql.functions import udf


@udf("int")
def collatz_steps(n: int) -> int:
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@udf("int")
def digit_sum(n: int) -> int:
    s = 0
    n = abs(n)
    while n > 0:
        s += n % 10
        n = n // 10
    return s


def main():
    spark = SparkSession.builder.appName("loops").getOrCreate()
    df = spark.range(1, 1_000_001).withColumnRenamed("id", "n")
    df.select(collatz_steps("n").alias("steps"), digit_sum("n").alias("digits")).show()


if __name__ == "__main__":
    main()
