"""Vectorized sensor metrics, as a streaming job's notebook cell writes them."""
import pandas as pd
from pyspark.sql import SparkSession
from pyspark.sql.functions import pandas_udf, col
from pyspark.sql.types import BooleanType, DoubleType

spark = SparkSession.builder.appName("sensor-metrics").getOrCreate()

COMFORT_MAX_HUMIDITY = 0.6

readings = spark.createDataFrame(
    [(1, 21.5, 0.4), (2, None, 0.9), (3, 38.2, None)],
    "sensor_id int, temp_c double, humidity double",
)


@pandas_udf(DoubleType())
def celsius_to_fahrenheit(temp: pd.Series) -> pd.Series:
    return temp * 9 / 5 + 32


@pandas_udf("double")
def humidity_pct(h: pd.Series) -> pd.Series:
    """Fraction to percent; a missing reading counts as dry."""
    return h.fillna(0.0) * 100


@pandas_udf(BooleanType())
def is_comfortable(temp: pd.Series, humidity: pd.Series) -> pd.Series:
    return (temp >= 18.0) & (temp <= 26.0) & (humidity < COMFORT_MAX_HUMIDITY)


@pandas_udf("double")
def humidity_unit(h: pd.Series) -> pd.Series:
    return h.clip(lower=0.0, upper=1.0)


@pandas_udf("double")
def drift(temp: pd.Series, humidity: pd.Series) -> pd.Series:
    delta = temp - 20.0
    return delta.abs() * humidity


@pandas_udf("boolean")
def missing_reading(temp: pd.Series) -> pd.Series:
    return temp.isna()


@pandas_udf("double")
def temp_zscore(temp: pd.Series) -> pd.Series:
    # The batch's own mean: Spark cuts the batches, so this is not per row.
    return (temp - temp.mean()) / temp.std()


metrics = (
    readings.withColumn("temp_f", celsius_to_fahrenheit(col("temp_c")))
    .withColumn("humidity_pct", humidity_pct(col("humidity")))
    .withColumn("comfortable", is_comfortable(col("temp_c"), col("humidity")))
    .withColumn("humidity_unit", humidity_unit(col("humidity")))
    .withColumn("drift", drift(col("temp_c"), col("humidity")))
    .withColumn("missing", missing_reading(col("temp_c")))
    .withColumn("z", temp_zscore(col("temp_c")))
)
metrics.show()
