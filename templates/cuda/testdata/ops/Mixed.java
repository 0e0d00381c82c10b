package udfx.cuda.testdata;

import org.apache.spark.sql.api.java.UDF2;

// The translator's own test shape: doubles and ints mixed, widening.
public class Mixed implements UDF2<Double, Integer, Double> {
  @Override
  public Double call(Double x, Integer n) {
    if (x == null || n == null) {
      return null;
    }
    double y = x * 2.0 - n;
    if (y > 10.0) return 10.0;
    int k = n * 7 + n / 2 - n % 3;
    return k > 0 ? y + (double) k : (double) (int) y;
  }
}
