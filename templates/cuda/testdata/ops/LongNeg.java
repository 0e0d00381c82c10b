package udfx.cuda.testdata;

import org.apache.spark.sql.api.java.UDF1;

// long negation, which wraps at MIN_VALUE, inside wrapping arithmetic.
public class LongNeg implements UDF1<Long, Long> {
  @Override
  public Long call(Long a) {
    if (a == null) {
      return null;
    }
    return -a - (-(a * 3L));
  }
}
