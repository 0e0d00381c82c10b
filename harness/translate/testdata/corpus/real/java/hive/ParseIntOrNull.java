package com.acme.hive.udf;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;

public class ParseIntOrNull extends UDF {
    public IntWritable evaluate(Text s) {
        if (s == null) {
            return null;
        }
        try {
            return new IntWritable(Integer.parseInt(s.toString().trim()));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
