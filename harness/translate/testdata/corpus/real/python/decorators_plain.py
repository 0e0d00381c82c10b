from pyspark.sql import SparkSession
from pyspark.sql.functions import udf, col

spark = SparkSession.builder.appName("decorators").getOrCreate()

people = spark.createDataFrame(
    [("Ada Lovelace", 36, "London"), ("Alan Turing", 41, None), ("Grace Hopper", 85, "New York")],
    ["full_name", "age", "city"],
)


@udf
def first_name(full_name):
    if full_name is None:
        return None
    return full_name.split(" ")[0]


@udf()
def city_or_unknown(city):
    return city if city else "unknown"


@udf("int")
def decade(age):
    if age is None:
        return None
    return (age // 10) * 10


@udf(returnType="boolean")
def is_senior(age):
    return age is not None and age >= 65


people.select(
    first_name(col("full_name")).alias("first"),
    city_or_unknown(col("city")).alias("city"),
    decade(col("age")).alias("decade"),
    is_senior(col("age")).alias("senior"),
).show()
