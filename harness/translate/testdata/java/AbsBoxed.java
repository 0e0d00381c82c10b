package udfx.translate.testdata;

import org.apache.spark.sql.api.java.UDF1;

// A null reaching a method argument is declined, not raised: whether the
// method unboxes it (Math.abs) or takes it boxed (String.valueOf) is the
// method's business.
public class AbsBoxed implements UDF1<Double, Double> {
  @Override
  public Double call(Double x) {
    return Math.abs(x);
  }
}
