package udfs;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.BooleanWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

public class HiveShout extends UDF {
  public Text evaluate(Text s) {
    return new Text(s.toString().toUpperCase() + "!");
  }
}
