package com.acme.flags

import org.apache.spark.sql.functions.udf

// Flags and codes as operators type them into the source systems.
object StatusFlags {
  val isTruthy = udf((v: String) => v != null && (v.trim.toLowerCase match {
    case "y" | "yes" | "true" | "1" => true
    case _ => false
  }))

  val countryUpper = udf((c: String) => if (c == null) null else c.trim.toUpperCase)

  val normalizedTag = udf((t: String) => if (t == null) "" else t.trim.toLowerCase)
}
