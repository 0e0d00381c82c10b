import org.apache.spark.sql.functions.udf

object O {
  val f = udf((x: String) => x + """never closed)
}
