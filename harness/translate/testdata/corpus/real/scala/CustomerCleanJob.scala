package com.acme.etl.customers

import org.apache.spark.sql.{DataFrame, SparkSession}
import org.apache.spark.sql.functions.{col, udf}

object CustomerCleanJob {

  val normalizePhone = udf((phone: String) => {
    if (phone == null) null
    else phone.replaceAll("[^0-9+]", "")
  })

  val isVip = udf((spend: Double) => spend > 5000.0)

  val countryOrUnknown = udf((code: String) => Option(code).map(_.trim).filter(_.nonEmpty).getOrElse("UNKNOWN"))

  val segment = udf((orders: Int) => orders match {
    case n if n <= 0 => "none"
    case n if n < 5  => "occasional"
    case n if n < 20 => "regular"
    case _           => "frequent"
  })

  def clean(df: DataFrame): DataFrame =
    df.withColumn("phone", normalizePhone(col("phone")))
      .withColumn("vip", isVip(col("total_spend")))
      .withColumn("country", countryOrUnknown(col("country")))
      .withColumn("segment", segment(col("order_count")))

  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().appName("customer-clean").getOrCreate()
    val customers = spark.read.parquet(args(0))
    clean(customers).write.mode("overwrite").parquet(args(1))
    spark.stop()
  }
}
