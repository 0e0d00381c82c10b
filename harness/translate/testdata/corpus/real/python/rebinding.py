from pyspark.sql import SparkSession
from pyspark.sql.functions import udf, col
from pyspark.sql.types import StringType, IntegerType

spark = SparkSession.builder.appName("rebinding").getOrCreate()

df = spark.read.schema("ticket_id string, priority int, assignee string").parquet("/data/tickets")


def priority_name(priority):
    names = {1: "critical", 2: "high", 3: "normal"}
    return names.get(priority, "low")


def assignee_or_queue(assignee):
    if assignee is None or assignee == "":
        return "unassigned-queue"
    return assignee


def ticket_number(ticket_id):
    try:
        return int(ticket_id.split("-")[1])
    except (IndexError, ValueError, AttributeError):
        return -1


priority_name = udf(priority_name, StringType())
assignee_or_queue = udf(assignee_or_queue, StringType())
ticket_number = udf(ticket_number, IntegerType())

df.select(
    priority_name(col("priority")),
    assignee_or_queue(col("assignee")),
    ticket_number(col("ticket_id")),
).show()
