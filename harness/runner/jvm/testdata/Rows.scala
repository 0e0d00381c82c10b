package udfx.testdata

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.udf

/** Throws on a negative reading: each such row must come back as its own exception. */
class RejectNegative extends Function1[java.lang.Double, java.lang.Double] with Serializable {
  override def apply(x: java.lang.Double): java.lang.Double = {
    if (x < 0) throw new IllegalArgumentException("negative reading: " + x)
    x * 2.0
  }
}

/** Loops forever on readings above 100, to exercise the timeout. */
class SpinAbove100 extends Function1[Double, Double] with Serializable {
  override def apply(x: Double): Double = {
    while (x > 100) {}
    x + 1.0
  }
}

/** Returns its argument: strings must cross the process boundary exactly. */
class Identity extends Function1[String, String] with Serializable {
  override def apply(s: String): String = s
}

/** Allocates n longs: with a small heap, a large n runs out of memory. */
class Hog extends Function1[Int, Int] with Serializable {
  override def apply(n: Int): Int = new Array[Long](n).length
}

object Lambdas {
  // A primitive Int parameter: Spark returns null for null without a call.
  val plusOne = udf((x: Int) => x + 1)
  // A method reference.
  def half(x: Double): Double = x / 2
  val halfUdf = udf(half _)

  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().getOrCreate()
    // Registered inside main: lifted into an object of its own.
    spark.udf.register("triple", (x: Int) => x * 3)
    // Reads a local of main that is no constant: nothing outside the job
    // holds it.
    val factor = args(0).toInt
    spark.udf.register("scaledBy", (x: Int) => x * factor)
    spark.sql("SELECT triple(1), scaledBy(2)").show()
  }
}

object BrokenInit {
  val boom: Int = 1 / (System.currentTimeMillis() - System.currentTimeMillis()).toInt
  val f = udf((x: Int) => x + boom)
}
