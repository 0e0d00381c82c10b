package com.acme.udf;

import org.apache.spark.sql.api.java.UDF2;

public class FullName implements UDF2<String, String, String> {
    @Override
    public String call(String first, String last) {
        if (first == null && last == null) {
            return null;
        }
        if (first == null) {
            return last;
        }
        if (last == null) {
            return first;
        }
        return first + " " + last;
    }
}
