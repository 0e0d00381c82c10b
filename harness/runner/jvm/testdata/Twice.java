package udfx.testdata;

import org.apache.spark.sql.api.java.UDF1;

/** Doubles its argument; unboxing a null Double throws NullPointerException. */
public class Twice implements UDF1<Double, Double> {
  @Override
  public Double call(Double x) {
    return x * 2;
  }
}
