package com.acme.hive.udf;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.Text;

public class Coalesce2 extends UDF {
    public String evaluate(String a, String b) {
        return a != null ? a : b;
    }
}
