package udfx.translate.testdata;

import org.apache.spark.sql.api.java.UDF1;

// No null check: s.strip() on null throws NullPointerException.
public class Strip implements UDF1<String, String> {
  @Override
  public String call(String s) {
    return s.strip() + "|" + s.trim() + "|" + s.stripLeading() + "|" + s.stripTrailing();
  }
}
