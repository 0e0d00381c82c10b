package udfx.testdata;

import org.apache.spark.sql.api.java.UDF1;

/** Starts `setsid sleep n`, then never returns: the run times out, and the kill must reach the sleep. */
public class EscapeSpin implements UDF1<Long, Long> {
  @Override
  public Long call(Long n) throws Exception {
    new ProcessBuilder("setsid", "sleep", Long.toString(n)).inheritIO().start();
    while (true) {
      Thread.onSpinWait();
    }
  }
}
