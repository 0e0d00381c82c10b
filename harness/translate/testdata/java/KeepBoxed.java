package udfx.translate.testdata;

import org.apache.spark.sql.api.java.UDF1;

// var keeps the box: no NullPointerException at the declaration.
public class KeepBoxed implements UDF1<Double, Double> {
  @Override
  public Double call(Double x) {
    var y = x;
    return y;
  }
}
