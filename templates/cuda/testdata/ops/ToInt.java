package udfx.cuda.testdata;

import org.apache.spark.sql.api.java.UDF1;

// Java's (int) of a double: NaN is 0, out-of-range values clamp.
public class ToInt implements UDF1<Double, Integer> {
  @Override
  public Integer call(Double x) {
    if (x == null) {
      return null;
    }
    return (int) (x * 3.0);
  }
}
