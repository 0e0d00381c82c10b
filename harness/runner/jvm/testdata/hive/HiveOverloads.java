package udfs;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

// Hive picks the evaluate by the argument's type: an int doubles with
// 32-bit wrapping, a bigint with 64-bit, a string repeats.
public class HiveOverloads extends UDF {
  public IntWritable evaluate(IntWritable n) {
    if (n == null) {
      return null;
    }
    return new IntWritable(n.get() * 2);
  }

  public LongWritable evaluate(LongWritable n) {
    if (n == null) {
      return null;
    }
    return new LongWritable(n.get() * 2);
  }

  public Text evaluate(Text s) {
    if (s == null) {
      return null;
    }
    return new Text(s.toString() + s.toString());
  }
}
