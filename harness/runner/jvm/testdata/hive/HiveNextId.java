package udfs;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.BooleanWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

public class HiveNextId extends UDF {
  public LongWritable evaluate(LongWritable n) {
    return n == null ? new LongWritable(-1L) : new LongWritable(n.get() + 1L);
  }
}
