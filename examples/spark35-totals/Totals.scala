package shop

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.udf

/** Units on hand after returns. An Int sum wraps on overflow on the JVM;
  * which Spark SQL does the same depends on the Spark the job runs on
  * (requirements.txt: 3.5, where ANSI mode is off).
  */
object Totals {
  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().appName("totals").getOrCreate()
    val addQty = udf((shipped: Int, returned: Int) => shipped + returned)
    spark.udf.register("add_qty", addQty)
    spark.sql("SELECT add_qty(shipped, returned) AS qty FROM orders").show()
  }
}
