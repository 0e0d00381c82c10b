package com.acme.forms

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.udf

object TypedUdfForms {
  val slugify = udf[String, String](_.toLowerCase.replaceAll("[^a-z0-9]+", "-"))

  def squareOf(n: Int): Long = n.toLong * n

  val square = udf(squareOf(_: Int): Long)

  val isEven: Int => Boolean = (n: Int) => n % 2 == 0
  val isEvenUdf = udf(isEven)

  def register(spark: SparkSession): Unit = {
    spark.udf.register("len_or_zero", (s: String) => if (s == null) 0 else s.length)
    spark.udf.register("pct", (part: Double, whole: Double) => if (whole == 0) 0.0 else part / whole * 100)
  }
}
