package com.acme.etl.orders

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions._

object OrdersJob {
  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder
      .appName("orders")
      .config("spark.sql.adaptive.enabled", "true")
      .getOrCreate()
    import spark.implicits._

    val TaxRate = 0.08
    val withTax = udf((amount: Double) => amount * (1 + TaxRate))
    val statusCode = udf((status: String) => status match {
      case "shipped"   => 2
      case "delivered" => 3
      case "cancelled" => -1
      case _           => 0
    })
    val shortId = udf((id: String) => if (id == null) null else id.take(8))

    val orders = spark.read.option("header", "true").csv(args(0))
      .withColumn("amount", $"amount".cast("double"))
    orders
      .withColumn("amount_with_tax", withTax($"amount"))
      .withColumn("status_code", statusCode($"status"))
      .withColumn("short_id", shortId($"order_id"))
      .show(20, false)
  }
}
