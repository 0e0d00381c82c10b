package com.acme.hive.udf;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;

public class ZeroPad extends UDF {
    public Text evaluate(IntWritable n, IntWritable width) {
        if (n == null || width == null) {
            return null;
        }
        String s = Integer.toString(n.get());
        StringBuilder sb = new StringBuilder();
        for (int i = s.length(); i < width.get(); i++) {
            sb.append('0');
        }
        return new Text(sb.append(s).toString());
    }
}
