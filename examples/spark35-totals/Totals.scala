package shop

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.udf

/** Units on hand after returns, and units per box. An Int sum wraps on
  * overflow on the JVM and an Int division throws on a zero divisor;
  * which Spark SQL does the same depends on the Spark the job runs on
  * (requirements.txt: 3.5, where ANSI mode is off).
  */
object Totals {
  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().appName("totals").getOrCreate()
    val addQty = udf((shipped: Int, returned: Int) => shipped + returned)
    val perBox = udf((units: Int, boxes: Int) => units / boxes)
    spark.udf.register("add_qty", addQty)
    spark.udf.register("per_box", perBox)
    spark.sql("SELECT add_qty(shipped, returned) AS qty, per_box(shipped, boxes) AS per_box FROM orders").show()
  }
}
