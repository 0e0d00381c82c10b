package com.acme.finance

import scala.math.BigDecimal.RoundingMode

import org.apache.spark.sql.functions.udf

object MoneyUdfs {
  val Scale = 2

  def roundMoney(x: Double): Double = BigDecimal(x).setScale(Scale, RoundingMode.HALF_UP).toDouble

  val roundMoneyUdf = udf(roundMoney _)

  val centsToDollars = udf((cents: Long) => cents / 100.0)

  val nullableCents = udf((cents: java.lang.Long) => if (cents == null) null else java.lang.Double.valueOf(cents / 100.0))

  val feeFor = udf((amount: Double, premium: Boolean) => if (premium) 0.0 else math.max(1.0, amount * 0.015))

  val absDiff = udf((a: Int, b: Int) => math.abs(a - b))
}
