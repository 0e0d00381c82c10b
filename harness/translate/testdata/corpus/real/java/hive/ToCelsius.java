package com.acme.hive.udf;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.hive.serde2.io.DoubleWritable;

public class ToCelsius extends UDF {
    public DoubleWritable evaluate(DoubleWritable f) {
        if (f == null) {
            return null;
        }
        return new DoubleWritable((f.get() - 32.0) * 5.0 / 9.0);
    }
}
