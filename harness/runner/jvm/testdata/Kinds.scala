package udfx.testdata

import org.apache.spark.sql.functions.udf

/** Typed Scala functions: Spark builds their arguments with encoders. */
object ScalaKinds {
  def cls(x: Any): String = if (x == null) "null" else x.getClass.getName + "=" + x.toString
  val sbd = udf((x: BigDecimal) => cls(x))
  val jbd = udf((x: java.math.BigDecimal) => cls(x))
  val sseq = udf((x: Seq[Int]) => cls(x))
  val smap = udf((x: Map[String, Int]) => cls(x))
  val sld = udf((x: java.time.LocalDate) => cls(x))
  val sdate = udf((x: java.sql.Date) => cls(x))
}

/** Results of several types, converted by the driver. */
object Results {
  val dateOf = udf((days: Int) => java.sql.Date.valueOf(java.time.LocalDate.ofEpochDay(days.toLong)))
  val decimal = udf((s: String) => BigDecimal(s))
  val pair = udf((x: Int) => (x, "n" + x))
  val list = udf((n: Int) => Seq.tabulate(n)(i => i.toLong))
  val opt = udf((x: Int) => if (x > 0) Some(x.toFloat) else None)
}
