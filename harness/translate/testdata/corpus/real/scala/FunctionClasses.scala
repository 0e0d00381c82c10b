package com.acme.udfs

import org.apache.spark.sql.api.java.UDF1
import org.apache.spark.sql.api.java.UDF2

class MaskEmail extends UDF1[String, String] {
  override def call(email: String): String = {
    if (email == null) return null
    val at = email.indexOf('@')
    if (at <= 1) email else email.charAt(0) + "***" + email.substring(at)
  }
}

class DomainOf extends UDF1[String, String] {
  override def call(email: String): String =
    if (email == null || !email.contains("@")) null
    else email.substring(email.indexOf("@") + 1)
}

class ScoreBucket extends UDF1[Integer, String] {
  override def call(score: Integer): String =
    if (score == null) "none"
    else if (score >= 90) "A"
    else if (score >= 75) "B"
    else "C"
}

class SafeDivide extends UDF2[java.lang.Double, java.lang.Double, java.lang.Double] {
  override def call(a: java.lang.Double, b: java.lang.Double): java.lang.Double =
    if (a == null || b == null || b == 0.0) null else a / b
}

class StripPrefix extends Function1[String, String] with Serializable {
  private val Prefix = "urn:"
  override def apply(s: String): String =
    if (s != null && s.startsWith(Prefix)) s.substring(Prefix.length) else s
}

object IsWeekendDay extends (Int => Boolean) with Serializable {
  override def apply(dow: Int): Boolean = dow == 6 || dow == 7
}
