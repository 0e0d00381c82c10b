package examples.temperature

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.{col, udf}

object FahrenheitLambda {
  // A primitive Double parameter: Spark returns null for a null reading
  // without calling the lambda.
  val toFahrenheit = udf((celsius: Double) => celsius * 9.0 / 5.0 + 32.0)

  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().appName("fahrenheit-lambda").getOrCreate()
    val readings = spark.read.parquet(args(0))
    readings
      .withColumn("fahrenheit", toFahrenheit(col("temperature")))
      .write
      .parquet(args(1))
  }
}
