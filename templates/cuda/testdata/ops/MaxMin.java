package udfx.cuda.testdata;

import org.apache.spark.sql.api.java.UDF2;

// Math.max and Math.min on doubles: NaN operands, the two zeros.
public class MaxMin implements UDF2<Double, Double, Double> {
  @Override
  public Double call(Double a, Double b) {
    if (a == null || b == null) {
      return null;
    }
    return Math.max(a, b) * 3.0 - Math.min(a, -b);
  }
}
