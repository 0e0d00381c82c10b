package udfx.testdata;

import org.apache.spark.sql.api.java.UDF1;

/** Starts `setsid sleep n` with the JVM's stdio and returns n: a process that tries to outlive the run. */
public class Escape implements UDF1<Long, Long> {
  @Override
  public Long call(Long n) throws Exception {
    new ProcessBuilder("setsid", "sleep", Long.toString(n)).inheritIO().start();
    return n;
  }
}
