package com.acme.events

import java.text.SimpleDateFormat
import java.time.{Instant, ZoneOffset}
import java.time.format.DateTimeFormatter
import java.util.{Date, TimeZone}

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.{col, udf}

object EventDates {
  // Partition key of an event: the UTC day of its timestamp in millis.
  val eventDay = udf((tsMillis: Long) => {
    val fmt = new SimpleDateFormat("yyyy-MM-dd")
    fmt.setTimeZone(TimeZone.getTimeZone("UTC"))
    fmt.format(new Date(tsMillis))
  })

  // Hourly bucket for the dashboards; the feed sends epoch seconds.
  val hourBucket = udf((epochSeconds: Long) => {
    val fmt = new SimpleDateFormat("yyyyMMdd'-'HH")
    fmt.setTimeZone(TimeZone.getTimeZone("GMT"))
    fmt.format(new Date(epochSeconds * 1000L))
  })

  private val IsoMinute = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm").withZone(ZoneOffset.UTC)

  // Minute of the event, for the late-data report.
  val eventMinute = udf((tsMillis: Long) => IsoMinute.format(Instant.ofEpochMilli(tsMillis)))

  // Label shown to the operators, in the cluster's own time zone.
  val localLabel = udf((tsMillis: Long) => new SimpleDateFormat("EEE dd MMM HH:mm").format(new Date(tsMillis)))

  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().appName("event-dates").getOrCreate()
    val events = spark.read.parquet(args(0))
    events
      .withColumn("day", eventDay(col("ts_millis")))
      .withColumn("bucket", hourBucket(col("epoch_seconds")))
      .withColumn("minute", eventMinute(col("ts_millis")))
      .withColumn("label", localLabel(col("ts_millis")))
      .write
      .partitionBy("day")
      .parquet(args(1))
    spark.stop()
  }
}
