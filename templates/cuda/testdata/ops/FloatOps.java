package udfx.cuda.testdata;

import org.apache.spark.sql.api.java.UDF2;

// float parameters widened to double (exact), then double arithmetic.
public class FloatOps implements UDF2<Float, Integer, Double> {
  @Override
  public Double call(Float f, Integer n) {
    if (f == null || n == null) {
      return null;
    }
    return f * 3.0 + n;
  }
}
