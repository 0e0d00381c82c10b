import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.{udf, expr, col}
import org.apache.spark.sql.api.java.UDF1
import org.apache.spark.sql.types.DataTypes

object Check {
  def cls(x: Any): String = if (x == null) "null" else x.getClass.getName + "=" + x.toString
  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    val javaUdf = new UDF1[Object, String] { def call(x: Object): String = cls(x) }
    spark.udf.register("jcls", javaUdf, DataTypes.StringType)
    spark.udf.register("sbd", (x: BigDecimal) => cls(x))
    spark.udf.register("jbd", (x: java.math.BigDecimal) => cls(x))
    spark.udf.register("sseq", (x: Seq[Int]) => cls(x))
    spark.udf.register("smap", (x: Map[String, Int]) => cls(x))
    spark.udf.register("sdate", (x: java.sql.Date) => cls(x))
    spark.udf.register("sld", (x: java.time.LocalDate) => cls(x))
    spark.udf.register("sany", (x: org.apache.spark.sql.Row) => cls(x))
    spark.udf.register("jlist", (x: Seq[String]) => cls(x))
    val q = Seq(
      "jcls(CAST(1.5 AS DECIMAL(10,2)))", "jcls(DATE'2020-01-02')", "jcls(TIMESTAMP'2020-01-02 03:04:05')",
      "jcls(array(1,2))", "jcls(map('a',1))", "jcls(named_struct('a',1,'b','x'))", "jcls(CAST(1 AS TINYINT))", "jcls(X'0102')",
      "jcls(array(array(1)))", "jcls(array(named_struct('a',1)))",
      "sbd(CAST(1.5 AS DECIMAL(10,2)))", "jbd(CAST(1.5 AS DECIMAL(10,2)))", "sseq(array(1,2))", "smap(map('a',1))",
      "sdate(DATE'2020-01-02')", "sld(DATE'2020-01-02')", "sany(named_struct('a',1))", "jlist(array('x'))",
      "jcls(DATE'1582-10-10')", "sdate(DATE'0001-01-01')")
    for (e <- q) println("CHECK " + e + " -> " + spark.sql("SELECT " + e).collect()(0).getString(0))
    spark.stop()
  }
}
