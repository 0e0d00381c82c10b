package com.acme.pricing

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.expressions.UserDefinedFunction
import org.apache.spark.sql.functions._

// UDF builders: each def takes the job's setting and returns the UDF.
object PricingUdfs {
  def addTax(rate: Double): UserDefinedFunction = udf((amount: Double) => amount * (1 + rate))

  def maskAfter(keep: Int) = udf { (card: String) =>
    if (card == null) null
    else if (card.length <= keep) card
    else card.take(keep) + "****"
  }

  def bucketOf(width: Long) = udf((n: Long) => n / width * width)
}

object PricingJob {
  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder.appName("pricing").getOrCreate()
    val orders = spark.read.parquet(args(0))
    val bucket = PricingUdfs.bucketOf(100)
    orders
      .withColumn("gross", PricingUdfs.addTax(0.2)(col("net")))
      .withColumn("card", PricingUdfs.maskAfter(4)(col("card_number")))
      .withColumn("bucket", bucket(col("qty")))
      .write
      .parquet(args(1))
    spark.stop()
  }
}
