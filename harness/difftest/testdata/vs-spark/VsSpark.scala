package udfx.vsspark

import org.apache.spark.sql.functions.udf
import org.apache.spark.sql.types.IntegerType

// Scala UDFs for udfx's runners-versus-Spark test
// (harness/difftest/runners_vs_spark_test.go).

/** A primitive Double: Spark returns NULL for a NULL input without calling it. */
class SeesDouble extends Function1[Double, String] with Serializable {
  def apply(x: Double): String = "v:" + x
}

/**
 * A primitive Int beside a boxed Integer: a NULL in the Int skips the
 * call, a NULL in the Integer reaches apply as null.
 */
class SeesIntBoxed extends Function2[Int, java.lang.Integer, String] with Serializable {
  def apply(i: Int, j: java.lang.Integer): String = "v:" + i + "/" + (if (j == null) "null" else "v:" + j)
}

/**
 * A decimal per Int, encoded by Spark as DECIMAL(38,18): values that round
 * HALF_UP at scale 18 and values with more than 20 integer digits.
 */
class ScalaDecimalTable extends Function1[Int, java.math.BigDecimal] with Serializable {
  private val table = Array(
    "1.0000000000000000005", "-1.0000000000000000005", "0.0000000000000000015", "-0.0000000000000000025",
    "0.00000000000000000049999", "12345678901234567890.1234567890123456785",
    "99999999999999999999.9999999999999999995", "-99999999999999999999.9999999999999999995",
    "100000000000000000000", "1E+25", "1E-40", "0.5", "-7")

  def apply(i: Int): java.math.BigDecimal = new java.math.BigDecimal(table(Math.floorMod(i, table.length)))
}

object Untyped {
  // The untyped udf(f, dataType): Spark 3+ refuses it unless
  // spark.sql.legacy.allowUntypedScalaUDF is set.
  val plusOne = udf((x: Int) => x + 1, IntegerType)
}
