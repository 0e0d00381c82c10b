package udfx.cuda.testdata;

import org.apache.spark.sql.api.java.UDF2;

// int wrapping, division and remainder by constants (-1 included: the JVM
// gives MIN_VALUE / -1 == MIN_VALUE where C++ traps), unary minus, max/min.
public class IntOps implements UDF2<Integer, Integer, Integer> {
  @Override
  public Integer call(Integer a, Integer b) {
    if (a == null || b == null) {
      return null;
    }
    int s = a * b + a - b * 31;
    int q = a / -1 + b % -1 - a / 7 + b % 5;
    return Math.max(s, -q) - Math.min(a, b);
  }
}
