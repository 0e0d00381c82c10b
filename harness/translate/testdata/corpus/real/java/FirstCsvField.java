package com.acme.udf;

import org.apache.spark.sql.api.java.UDF1;

public class FirstCsvField implements UDF1<String, String> {
    @Override
    public String call(String line) {
        if (line == null || line.isEmpty()) {
            return "";
        }
        String[] parts = line.split(",");
        return parts[0];
    }
}
