package com.acme.udf;

import java.util.HashMap;
import java.util.Map;

import org.apache.spark.sql.api.java.UDF1;

public class CountryCode implements UDF1<String, String> {
    private static final Map<String, String> CODES = new HashMap<>();

    static {
        CODES.put("germany", "DE");
        CODES.put("france", "FR");
        CODES.put("spain", "ES");
    }

    @Override
    public String call(String country) {
        if (country == null) {
            return null;
        }
        return CODES.getOrDefault(country.trim().toLowerCase(), "??");
    }
}
