package com.acme.flags

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions._

object FlagsJob {
  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder.getOrCreate()

    val yesNo = udf((b: Boolean) => if (b) "Y" else "N")
    val nullToEmpty = udf((s: String) => if (s == null) "" else s)
    val statusLabel = udf((code: Int) => code match {
      case 0 => "ok"
      case 1 => "warn"
      case 2 => "error"
      case _ => "unknown"
    })

    spark.udf.register("yes_no", yesNo)
    spark.udf.register("null_to_empty", nullToEmpty)

    val flags = spark.table("ops.flags")
    flags.select(yesNo(col("enabled")), nullToEmpty(col("note")), statusLabel(col("code"))).show()
  }
}
