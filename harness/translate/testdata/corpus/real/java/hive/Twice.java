package com.acme.hive.udf;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

public class Twice extends UDF {
    public IntWritable evaluate(IntWritable x) {
        if (x == null) {
            return null;
        }
        return new IntWritable(x.get() * 2);
    }

    public LongWritable evaluate(LongWritable x) {
        if (x == null) {
            return null;
        }
        return new LongWritable(x.get() * 2);
    }

    public Text evaluate(Text x) {
        if (x == null) {
            return null;
        }
        return new Text(x.toString() + x.toString());
    }
}
