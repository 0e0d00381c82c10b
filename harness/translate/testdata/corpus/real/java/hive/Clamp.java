package com.acme.hive.udf;

import org.apache.hadoop.hive.ql.exec.UDF;

public class Clamp extends UDF {
    public Integer evaluate(Integer v, Integer lo, Integer hi) {
        if (v == null || lo == null || hi == null) {
            return null;
        }
        return Math.max(lo, Math.min(hi, v));
    }
}
