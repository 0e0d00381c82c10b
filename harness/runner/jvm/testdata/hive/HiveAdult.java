package udfs;

import org.apache.hadoop.hive.ql.exec.UDF;

public class HiveAdult extends UDF {
  public boolean evaluate(int age) {
    return age >= 18;
  }
}
