package com.acme.retail

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.{col, udf}

object Weights {
  // Kilograms on the manifest, pounds on the US labels.
  val kgToLb = udf((kg: Double) => kg * 2.20462)

  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().appName("weights").getOrCreate()
    spark.read.parquet(args(0))
      .withColumn("weight_lb", kgToLb(col("weight_kg")))
      .write
      .parquet(args(1))
  }
}
