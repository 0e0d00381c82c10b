package com.acme.parse

import scala.util.Try

import org.apache.spark.sql.functions.udf

object ParseUdfs {
  val toIntOrZero = udf((s: String) => try { s.trim.toInt } catch { case _: NumberFormatException => 0 })

  val toIntOption = udf((s: String) => Try(s.toInt).toOption)

  val parseAmount = udf((s: String) =>
    try {
      s.toDouble
    } catch {
      case _: Exception => 0.0
    })

  val firstField = udf((line: String) => if (line == null) null else line.split(",")(0))

  val afterColon = udf((s: String) => {
    val i = s.indexOf(':')
    if (i < 0) s else s.substring(i + 1)
  })
}
