package com.acme.forms

import org.apache.spark.sql.functions.udf

object Forms {
  def ageCheck(age: Int): String = if (age >= 18) "adult" else "minor"

  val stripDashes = udf[String, String](_.replaceAll("-", ""))

  val ageGroup = udf(ageCheck(_: Int): String)

  val doubleIt: Int => Int = (x: Int) => x * 2
  val doubled = udf(doubleIt)

  val total = udf[Long, Long, Long](_ + _)

  val shout = udf((_: String) + "!")
}

class URLDecodeFn extends Function[String, String] with Serializable {
  override def apply(s: String): String = if (s == null) null else s + "?"
}
