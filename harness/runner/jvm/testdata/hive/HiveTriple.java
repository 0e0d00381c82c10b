package udfs;

import org.apache.hadoop.hive.ql.exec.UDF;

public class HiveTriple extends UDF {
  public double evaluate(double x) {
    return x * 3;
  }
}
