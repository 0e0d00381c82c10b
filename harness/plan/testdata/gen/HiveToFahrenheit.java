import org.apache.hadoop.hive.ql.exec.UDF;

// A Hive simple UDF registered with CREATE TEMPORARY FUNCTION: Spark plans
// it as a HiveSimpleUDF expression.
public class HiveToFahrenheit extends UDF {
  public Double evaluate(Double celsius) {
    return celsius == null ? null : celsius * 9.0 / 5.0 + 32.0;
  }
}
