package udfx.cuda.testdata;

import org.apache.spark.sql.api.java.UDF1;

// sqrt, abs, floor, ceil, remainder and negation on every special double.
public class MathOps implements UDF1<Double, Double> {
  @Override
  public Double call(Double x) {
    if (x == null) {
      return null;
    }
    return Math.sqrt(Math.abs(x)) + Math.floor(x) * 0.5 - Math.ceil(-x) + x % 2.5;
  }
}
