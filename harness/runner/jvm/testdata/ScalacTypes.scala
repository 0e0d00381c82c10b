package jobs.scores

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.udf

object ScalacTypes {
  // Result types udfx's own reading of the source does not infer.
  val band = udf((x: Double) => x match {
    case v if v < 0.0 => -1.0
    case v if v > 100.0 => 100.0
    case v => v
  })

  val cents = udf((amount: Double) => BigDecimal(amount).setScale(2, BigDecimal.RoundingMode.HALF_UP).toDouble)

  val firstField = udf((line: String) => Option(line).map(_.split(",")).map(_.head).orNull)

  def bucket(score: Int) = math.min(score / 10, 9).toString.padTo(2, '0')
  val bucketUdf = udf(bucket _)

  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().getOrCreate()
    val halve = udf((n: Long) => Option(n).map(_ / 2).getOrElse(0L))
    spark.range(10).select(halve(org.apache.spark.sql.functions.col("id"))).show()
  }
}
