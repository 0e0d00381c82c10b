package udfx.cuda.testdata;

import org.apache.spark.sql.api.java.UDF2;

// Comparisons with NaN and -0.0, boolean logic and a conditional. The
// values are unboxed first: == on two Double objects compares references.
public class Compare implements UDF2<Double, Double, Boolean> {
  @Override
  public Boolean call(Double x, Double y) {
    if (x == null || y == null) {
      return null;
    }
    double a = x;
    double b = y;
    boolean lt = a < b || a <= b && !(a >= b);
    return a == b ? !(a != b) : lt || a > b;
  }
}
