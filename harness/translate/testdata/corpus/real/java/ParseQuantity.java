package com.acme.udf;

import org.apache.spark.sql.api.java.UDF1;

public class ParseQuantity implements UDF1<String, Integer> {
    @Override
    public Integer call(String raw) {
        if (raw == null) {
            return 0;
        }
        try {
            return Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
