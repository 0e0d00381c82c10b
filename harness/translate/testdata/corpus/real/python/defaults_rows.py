from pyspark.sql import Row, SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import DoubleType, StringType

spark = SparkSession.builder.appName("defaults").getOrCreate()

rows = [
    Row(city="Lisbon", temp="21.5", population=545000),
    Row(city="Oslo", temp="n/a", population=709000),
]
cities = spark.createDataFrame(rows)

pairs = spark.sparkContext.parallelize([("a", 1), ("b", 2)]).toDF(["letter", "n"])


def parse_temp(s, fallback=-273.15):
    try:
        return float(s)
    except (TypeError, ValueError):
        return fallback


def city_label(name, sep=" / "):
    if name is None:
        return None
    return name + sep + name.upper()


def big_city(population):
    return population is not None and population > 600000


def letter_or_dash(letter):
    return letter if letter else "-"


parse_temp_udf = udf(parse_temp, DoubleType())
city_label_udf = udf(city_label, StringType())
big_city_udf = udf(big_city, "boolean")
letter_udf = udf(letter_or_dash, StringType())

cities = cities.withColumn("temp_c", parse_temp_udf(col("temp")))
cities = cities.withColumn("label", city_label_udf(col("city")))
cities = cities.withColumn("big", big_city_udf(col("population")))
pairs = pairs.withColumn("letter", letter_udf(col("letter")))
cities.show()
pairs.show()
