from pyspark.sql import SparkSession
from pyspark.sql.functions import udf
from pyspark.sql.types import StringType, BooleanType

spark = (SparkSession.builder
         .appName("dim-employee")
         .enableHiveSupport()
         .getOrCreate())

employees = spark.table("hr.employees")
departments = spark.sql("SELECT dept_id, dept_name FROM hr.departments")


def initials(first, last):
    if not first or not last:
        return None
    return first[0] + last[0]


def is_manager(title):
    return title is not None and "manager" in title


initials_udf = udf(initials, StringType())
is_manager_udf = udf(is_manager, BooleanType())

result = (employees.join(departments, "dept_id")
          .withColumn("initials", initials_udf("first_name", "last_name"))
          .withColumn("manager", is_manager_udf("title")))
result.write.insertInto("mart.dim_employee", overwrite=True)
