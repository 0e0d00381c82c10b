package udfs;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.BooleanWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

public class HiveTwice extends UDF {
  public IntWritable evaluate(IntWritable n) {
    if (n == null) {
      return null;
    }
    return new IntWritable(n.get() * 2);
  }
}
