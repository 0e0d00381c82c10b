package udfx.testdata;

import org.apache.spark.sql.api.java.UDF1;

/**
 * Names the class and value of what Spark passes: the Java-style path
 * (CatalystTypeConverters), as spark-check/Check.scala's jcls does.
 */
public class Kinds implements UDF1<Object, String> {
  @Override
  public String call(Object x) {
    return x == null ? "null" : x.getClass().getName() + "=" + x;
  }
}
