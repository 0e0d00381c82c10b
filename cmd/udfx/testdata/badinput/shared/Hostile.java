package badinput;

import org.apache.spark.sql.api.java.UDF1;

/**
 * Java UDFs that attack the run instead of computing (udfx's bad-input
 * corpus, cmd/udfx/badinput_test.go). One file, so that javac compiles
 * them once for every case that uses one.
 */
public class Hostile implements UDF1<Long, Long> {
  @Override
  public Long call(Long n) {
    return n;
  }
}

/** Ends the whole JVM with status 0 on its first row: not a result. */
class Exits implements UDF1<Long, Long> {
  @Override
  public Long call(Long n) {
    System.exit(0);
    return n;
  }
}

/** Never returns for a positive input. */
class Spins implements UDF1<Long, Long> {
  @Override
  public Long call(Long n) {
    long spins = 0;
    while (n != null && n > 0) {
      spins++;
    }
    return n;
  }
}
