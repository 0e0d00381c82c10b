from pyspark.sql.functions import udf
from pyspark.sql.types import DoubleType


@udf(returnType=DoubleType())
def per_unit(total: float, units: float) -> float:
    if total is None or units is None:
        return None
    return total / units
