package com.acme.text

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.udf

object TextFix {
  def clean(s: String): String =
    if (s == null) "" else s.trim.replaceAll("\\s+", " ")

  def initials(first: String, last: String): String =
    s"${first.head}${last.head}".toUpperCase
}

object TextUdfs {
  val cleanUdf = udf((s: String) => TextFix.clean(s))
  val initialsUdf = udf((f: String, l: String) => TextFix.initials(f, l))
  val upperUdf = udf((s: String) => if (s == null) null else s.toUpperCase)
  val lowerTrim = udf((s: String) => Option(s).map(_.trim.toLowerCase).orNull)

  def register(spark: SparkSession): Unit = {
    spark.udf.register("clean_text", cleanUdf)
    spark.udf.register("initials", initialsUdf)
  }
}
