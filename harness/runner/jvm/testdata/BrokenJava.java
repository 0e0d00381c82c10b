package udfx.testdata;

import org.apache.spark.sql.api.java.UDF1;

public class BrokenJava implements UDF1<Double, Double> {
  @Override
  public Double call(Double x) {
    String y = x;
    return x;
  }
}
