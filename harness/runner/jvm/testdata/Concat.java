package udfx.testdata;

import org.apache.spark.sql.api.java.UDF2;

/** Joins two strings; a null joins as "null", as Java's + does. */
public class Concat implements UDF2<String, String, String> {
  @Override
  public String call(String a, String b) {
    return a + "|" + b;
  }
}
