package com.acme.hive.udf;

import org.apache.hadoop.hive.ql.exec.UDF;

public class IsAdult extends UDF {
    public boolean evaluate(int age) {
        return age >= 18;
    }
}
