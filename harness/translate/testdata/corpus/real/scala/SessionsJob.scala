package com.acme.analytics

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.{col, udf}
import org.apache.spark.sql.types._

object SessionsJob {
  val SessionTimeoutSecs = 1800

  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().appName("sessions").getOrCreate()

    val schema = StructType(Seq(
      StructField("user_id", StringType),
      StructField("duration_secs", IntegerType),
      StructField("device", StringType),
      StructField("pages", IntegerType)
    ))

    val isTimedOut = udf((secs: Int) => secs > SessionTimeoutSecs)
    val deviceClass = udf((device: String) => device match {
      case null                                 => "unknown"
      case d if d.startsWith("iPhone")          => "mobile"
      case d if d.startsWith("Android")         => "mobile"
      case d if d.contains("iPad")              => "tablet"
      case _                                    => "desktop"
    })
    val minutes = udf((secs: Int) => secs / 60)
    val pagesPerMinute = udf((pages: Int, secs: Int) => if (secs == 0) 0.0 else pages * 60.0 / secs)

    val sessions = spark.read.schema(schema).json(args(0))
    sessions
      .withColumn("timed_out", isTimedOut(col("duration_secs")))
      .withColumn("device_class", deviceClass(col("device")))
      .withColumn("minutes", minutes(col("duration_secs")))
      .withColumn("ppm", pagesPerMinute(col("pages"), col("duration_secs")))
      .write.mode("overwrite").parquet(args(1))
  }
}
