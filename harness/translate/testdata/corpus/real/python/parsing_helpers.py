from pyspark.sql import SparkSession
from pyspark.sql.functions import udf, col
from pyspark.sql.types import IntegerType, DoubleType, StringType

spark = SparkSession.builder.appName("survey").getOrCreate()

survey = spark.read.option("header", "true").option("delimiter", ";").csv("/data/survey.csv")


def safe_int(s):
    if s is None:
        return None
    try:
        return int(s)
    except ValueError:
        return None


def safe_float(s, default=0.0):
    try:
        return float(s)
    except (TypeError, ValueError):
        return default


def yes_no(s):
    if s is None:
        return None
    return s.strip() in ("y", "yes", "Y", "YES", "1", "true")


def first_token(s):
    if s is None:
        return None
    return s.split(",")[0]


survey = survey.withColumn("age", udf(safe_int, IntegerType())(col("age")))
survey = survey.withColumn("income", udf(safe_float, DoubleType())(col("income")))
survey = survey.withColumn("consent", udf(yes_no, "boolean")(col("consent")))
survey = survey.withColumn("first_lang", udf(first_token, StringType())(col("languages")))
survey.write.csv("/out/survey_clean", header=True)
