"""A PySpark script as they are written: the session and the job at the
top level, a __main__ guard at the end."""
import re

from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import StringType

spark = SparkSession.builder.appName("clean-names").getOrCreate()
PREFIX = "name:"
SPACES = re.compile(r"\s+")
people = spark.read.schema("name string, city string").csv("data/people.csv")
CITIES = {r.city for r in people.select("city").distinct().collect()}


def squash(s):
    return SPACES.sub(" ", s.strip())


@F.udf(returnType=StringType())
def clean_name(name):
    if name is None:
        return None
    return PREFIX + squash(name).title()


@F.udf(returnType=StringType())
def known_city(city):
    return city if city in CITIES else "other"


def report(df):
    df.groupBy("city").count().show()


cleaned = people.withColumn("name", clean_name(F.col("name")))
report(cleaned)
cleaned.write.mode("overwrite").parquet("out/people")
ALIASES = {}
ALIASES.update({r.name: r.alias for r in spark.table("aliases").collect()})


def load_more():
    global ALIASES
    ALIASES = dict(spark.table("more").collect())


@F.udf(returnType=StringType())
def alias_of(name):
    return ALIASES.get(name, name)


# A file's read and write are not the job's: kept.
import io  # noqa: E402

CODES = dict(line.split("=", 1) for line in io.StringIO("a=alpha\nb=beta").read().splitlines())
io.StringIO().write("kept")


@F.udf(returnType=StringType())
def code_name(code):
    return CODES.get(code)


if __name__ == "__main__":
    LIMIT = 3
    cleaned.show()


@F.udf(returnType=StringType())
def limited(name):
    return name[:LIMIT]
