package udfx.translate.testdata;

import org.apache.spark.sql.api.java.UDF1;

public class Unbox implements UDF1<Double, Double> {
  @Override
  public Double call(Double x) {
    return x + 1.0;
  }
}
