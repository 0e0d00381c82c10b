package com.acme.udf;

import java.io.UnsupportedEncodingException;
import java.net.URLDecoder;

import org.apache.spark.sql.api.java.UDF1;

public class SafeUrlDecode implements UDF1<String, String> {
    @Override
    public String call(String s) {
        if (s == null) {
            return null;
        }
        try {
            return URLDecoder.decode(s, "UTF-8");
        } catch (UnsupportedEncodingException | IllegalArgumentException e) {
            return s;
        }
    }
}
