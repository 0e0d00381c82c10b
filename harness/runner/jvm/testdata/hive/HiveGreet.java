package udfs;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.BooleanWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

public class HiveGreet extends UDF {
  private final Text result = new Text();

  public Text evaluate(Text name) {
    if (name == null) {
      return null;
    }
    result.set("Hello, " + name.toString().trim());
    return result;
  }
}
