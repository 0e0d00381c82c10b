package jobs

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.{col, udf}

// UDFs defined inside main, as Spark jobs write them: one that reads only
// its parameter and a member of its object, one that reads a local of
// main.
object LocalUdfs {
  val Offset = 32.0

  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().getOrCreate()
    import spark.implicits._
    val toF = udf((c: Double) => c * 9.0 / 5.0 + Offset)
    val factor = args(0).toDouble
    val scaled = udf((c: Double) => c * factor)
    spark.range(3).select(toF(col("id")), scaled(col("id"))).show()
  }
}
