package examples.temperature

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.col

/** A plain DataFrame job: no UDF, nothing for udfx to rewrite. */
object WarmReadings {
  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().appName("warm-readings").getOrCreate()
    spark.read
      .parquet(args(0))
      .filter(col("temperature") > 3)
      .select("station", "temperature")
      .write
      .parquet(args(1))
  }
}
