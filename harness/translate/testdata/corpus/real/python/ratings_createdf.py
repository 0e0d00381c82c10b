from pyspark.sql import SparkSession
import pyspark.sql.functions as F
from pyspark.sql.types import StringType, IntegerType

spark = SparkSession.builder.getOrCreate()

data = [
    ("alice", 4.5, 12),
    ("bob", 3.0, 3),
    ("carol", None, 0),
    ("dave", 5.0, 41),
]
df = spark.createDataFrame(data, ["user", "rating", "num_reviews"])


def stars(rating):
    if rating is None:
        return "no rating"
    return "*" * int(round(rating))


def rating_band(rating):
    if rating is None:
        return None
    if rating >= 4.0:
        return "high"
    if rating >= 2.5:
        return "mid"
    return "low"


def reviewer_level(n):
    if n is None:
        return 0
    if n > 20:
        return 3
    if n > 5:
        return 2
    return 1


stars_udf = F.udf(stars, StringType())
band_udf = F.udf(rating_band, StringType())
level_udf = F.udf(lambda n: reviewer_level(n), IntegerType())

df.withColumn("stars", stars_udf("rating")) \
  .withColumn("band", band_udf("rating")) \
  .withColumn("level", level_udf("num_reviews")) \
  .show()
