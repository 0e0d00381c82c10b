from pyspark.sql import SparkSession
from pyspark.sql.functions import udf, col
from pyspark.sql.types import StringType, DoubleType

spark = SparkSession.builder.appName("loans").getOrCreate()

loans = spark.read.csv("s3a://bucket/loans.csv", header=True, inferSchema=True)


def grade_letter(score):
    if score is None:
        return None
    if score >= 750:
        return "A"
    if score >= 650:
        return "B"
    return "C"


def monthly_rate(apr):
    if apr is None:
        return None
    return apr / 12.0


loans = loans.withColumn("grade", udf(grade_letter, StringType())(col("fico")))
loans = loans.withColumn("monthly", udf(monthly_rate, DoubleType())(col("apr")))
loans.show()
