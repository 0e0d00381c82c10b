package com.acme.udf;

import org.apache.spark.sql.api.java.UDF1;

public class AgeGroup implements UDF1<Integer, String> {
    @Override
    public String call(Integer age) {
        if (age == null || age < 0) {
            return "unknown";
        } else if (age < 18) {
            return "minor";
        } else if (age < 65) {
            return "adult";
        }
        return "senior";
    }
}
