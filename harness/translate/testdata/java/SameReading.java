package udfx.translate.testdata;

import org.apache.spark.sql.api.java.UDF2;

// After the null check both are still Double objects: == compares
// references, so equal readings usually give false.
public class SameReading implements UDF2<Double, Double, Boolean> {
  @Override
  public Boolean call(Double x, Double y) {
    if (x == null || y == null) {
      return null;
    }
    return x == y;
  }
}
