import pandas as pd
from pyspark.sql import SparkSession
from pyspark.sql.functions import pandas_udf, col

spark = SparkSession.builder.appName("pandas-scores").getOrCreate()

scores = spark.createDataFrame([(1, 55.0), (2, 91.5), (3, None)], ["student_id", "score"])


@pandas_udf("double")
def scaled_score(s: pd.Series) -> pd.Series:
    return s / 100.0


@pandas_udf("boolean")
def passed(s: pd.Series) -> pd.Series:
    return s >= 60.0


scores.withColumn("scaled", scaled_score(col("score"))).withColumn("passed", passed(col("score"))).show()
