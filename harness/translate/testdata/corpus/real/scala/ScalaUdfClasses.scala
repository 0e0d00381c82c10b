package com.acme.spark.udfs

import org.apache.spark.sql.api.java.UDF1

class NormalizeSku extends UDF1[String, String] {
  override def call(sku: String): String =
    Option(sku).map(_.trim.toUpperCase).orNull
}

class ParsePort extends UDF1[String, Integer] {
  override def call(hostPort: String): Integer = {
    if (hostPort == null) return null
    val idx = hostPort.lastIndexOf(':')
    if (idx < 0) null
    else try { Integer.valueOf(hostPort.substring(idx + 1)) } catch { case _: NumberFormatException => null }
  }
}

class TemperatureBand extends UDF1[java.lang.Double, String] {
  override def call(t: java.lang.Double): String = {
    if (t == null) "n/a"
    else if (t < 0) "freezing"
    else if (t < 15) "cold"
    else if (t < 25) "mild"
    else "hot"
  }
}

class Utf8Length extends UDF1[String, Int] {
  override def call(s: String): Int = if (s == null) 0 else s.getBytes("UTF-8").length
}
