package udfx.cuda.testdata;

import org.apache.spark.sql.api.java.UDF1;

// Java's (long) of a double: NaN is 0, out-of-range values clamp.
public class ToLong implements UDF1<Double, Long> {
  @Override
  public Long call(Double x) {
    if (x == null) {
      return null;
    }
    double d = x;
    return (long) (d * 1e10);
  }
}
