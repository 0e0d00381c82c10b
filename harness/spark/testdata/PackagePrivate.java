package udfx.sparktest;

import org.apache.spark.sql.api.java.UDF1;

// UDF classes with Java's default access, as a file that holds several
// usually declares them: only code in udfx.sparktest can construct them.
class Twice implements UDF1<Double, Double> {
  @Override
  public Double call(Double x) {
    return x == null ? null : 2 * x;
  }
}

class Positive implements UDF1<Double, Boolean> {
  @Override
  public Boolean call(Double x) {
    return x != null && x > 0;
  }
}
