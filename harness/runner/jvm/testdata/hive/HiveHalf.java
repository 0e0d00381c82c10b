package udfs;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.BooleanWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

public class HiveHalf extends UDF {
  public org.apache.hadoop.hive.serde2.io.DoubleWritable evaluate(org.apache.hadoop.hive.serde2.io.DoubleWritable d) {
    if (d == null) {
      return null;
    }
    return new org.apache.hadoop.hive.serde2.io.DoubleWritable(d.get() / 2.0);
  }
}
