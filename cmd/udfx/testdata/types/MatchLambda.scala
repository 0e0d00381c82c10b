package fixtures

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.{col, udf}

// A Scala lambda whose return type scalac infers from a match.
object MatchLambda {
  val code = udf((s: String) => s match { case "a" => "x"; case _ => "y" })

  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().getOrCreate()
    spark.read.schema("s string").parquet(args(0)).select(code(col("s"))).show()
  }
}
