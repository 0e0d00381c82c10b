package udfs;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.BooleanWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

public class HiveNot extends UDF {
  public BooleanWritable evaluate(BooleanWritable b) {
    return b == null ? null : new BooleanWritable(!b.get());
  }
}
