package udfx.cuda.testdata;

import org.apache.spark.sql.api.java.UDF2;

// long wrapping, division and remainder by constants, max/min.
public class LongOps implements UDF2<Long, Long, Long> {
  @Override
  public Long call(Long a, Long b) {
    if (a == null || b == null) {
      return null;
    }
    return Math.max(a * b + a - b * 1000003L, a / -1L) - Math.min(a % 9L, b / 3L);
  }
}
