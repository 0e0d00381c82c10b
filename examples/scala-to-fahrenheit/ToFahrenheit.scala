package examples.temperature

import org.apache.spark.sql.SparkSession

/** Converts a Celsius reading to Fahrenheit; a missing reading stays missing. */
class ToFahrenheit extends Function1[java.lang.Double, java.lang.Double] with Serializable {
  override def apply(celsius: java.lang.Double): java.lang.Double = {
    if (celsius == null) null
    else celsius * 9.0 / 5.0 + 32.0
  }
}

object ToFahrenheitJob {
  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().appName("to-fahrenheit").getOrCreate()
    spark.udf.register("to_fahrenheit", new ToFahrenheit())
    spark.read.parquet(args(0)).createOrReplaceTempView("readings")
    val out = spark.sql("SELECT station, to_fahrenheit(temperature) AS fahrenheit FROM readings")
    out.write.parquet(args(1))
  }
}
