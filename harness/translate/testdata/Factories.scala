package jobs.factories

import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.expressions.UserDefinedFunction
import org.apache.spark.sql.functions.{col, udf}

// UDFs that defs of an object make from their parameters, called by the
// job below with literals.
object Factories {
  val factor = 9.0

  // An Int literal passed to a Double parameter widens: factor is 2.0.
  def scaleBy(factor: Double): UserDefinedFunction = udf((x: Double) => x * factor)

  def prefixer(prefix: String) = udf { (s: String) =>
    if (s == null) null else prefix + s
  }

  def offsetBy(n: Long = 10L) = udf((x: Long) => x + n)

  def tagger(tag: String) = udf((s: String) => tag + s)
}

object Job {
  def run(df: DataFrame): DataFrame =
    df.withColumn("scaled", Factories.scaleBy(2)(col("amount")))
      .withColumn("account", Factories.prefixer("ACC-")(col("account")))
      .withColumn("next", Factories.offsetBy()(col("seq")))
      .withColumn("a", Factories.tagger("a:")(col("name")))
      .withColumn("b", Factories.tagger("b:")(col("name")))
}
