import org.apache.spark.sql.api.java.UDF1;

// A Java UDF registered with spark.udf.registerJavaFunction: Spark plans it
// as a ScalaUDF expression.
public class ToFahrenheit implements UDF1<Double, Double> {
  @Override
  public Double call(Double celsius) {
    return celsius == null ? null : celsius * 9.0 / 5.0 + 32.0;
  }
}
