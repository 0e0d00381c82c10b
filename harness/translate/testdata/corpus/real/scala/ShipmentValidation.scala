package com.acme.logistics

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.{col, udf}

object ShipmentValidation {
  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().appName("shipment-validation").getOrCreate()
    import spark.implicits._

    val shipments = Seq(("TRK-00123", "94105", "ACME"), ("bad id", "9410", null))
      .toDF("tracking_id", "postcode", "carrier")

    val validTracking = udf((id: String) => id != null && id.matches("[A-Z]{3}-[0-9]{5}$"))
    val validPostcode = udf { (pc: String) =>
      if (pc == null) false
      else pc.matches("\\d{5}(-\\d{4})?")
    }

    shipments
      .withColumn("tracking_ok", validTracking(col("tracking_id")))
      .withColumn("postcode_ok", validPostcode($"postcode"))
      .show()
  }
}
