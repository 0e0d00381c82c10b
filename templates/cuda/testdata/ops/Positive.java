package udfx.cuda.testdata;

import org.apache.spark.sql.api.java.UDF2;

// Short-circuit logic over a NULL: false && NULL is false, true || NULL
// is true, as Spark's AND and OR give.
public class Positive implements UDF2<Long, Long, Boolean> {
  @Override
  public Boolean call(Long v, Long w) {
    return v != null && v > 0 || w == null || w < -5;
  }
}
