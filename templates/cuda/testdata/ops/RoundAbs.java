package udfx.cuda.testdata;

import org.apache.spark.sql.api.java.UDF1;

// Math.round(double), ties toward positive infinity and out-of-range
// values clamped, and Math.abs on longs, which keeps MIN_VALUE.
public class RoundAbs implements UDF1<Double, Long> {
  @Override
  public Long call(Double x) {
    if (x == null) {
      return null;
    }
    return Math.abs(Math.round(x)) - Math.round(x * 2.5);
  }
}
