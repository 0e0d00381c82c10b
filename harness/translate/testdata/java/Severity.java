package com.acme.udf;

import org.apache.spark.sql.api.java.UDF1;

// A log level read case-insensitively: a switch on the lower-cased text
// (on null, NullPointerException from toLowerCase).
public class Severity implements UDF1<String, Integer> {
    @Override
    public Integer call(String level) {
        switch (level.trim().toLowerCase()) {
            case "error":
            case "fatal":
                return 3;
            case "warn":
                return 2;
            default:
                return level.toLowerCase().startsWith("debug") ? 0 : 1;
        }
    }
}
