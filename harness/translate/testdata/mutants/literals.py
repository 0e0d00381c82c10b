"""UDFs whose meaning sits in a literal: a near miss of it (one character
shorter, another case) is what random inputs never hold, so these seed the
mutation test beside the corpus."""
from pyspark.sql.functions import udf
from pyspark.sql.types import BooleanType, StringType


@udf(BooleanType())
def is_temp(table_name: str):
    if table_name is None:
        return None
    return table_name.startswith("tmp_")


@udf(BooleanType())
def is_csv(path: str):
    if path is None:
        return None
    return path.endswith(".csv")


@udf(BooleanType())
def is_us(country: str):
    if country is None:
        return None
    return country == "US"


@udf(StringType())
def tier(amount: float):
    if amount is None:
        return None
    if amount > 100.0:
        return "high"
    return "low"
