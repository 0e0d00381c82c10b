package com.acme.udf;

import org.apache.spark.sql.api.java.UDF1;

public class UrlPath implements UDF1<String, String> {
    @Override
    public String call(String url) {
        if (url == null) {
            return null;
        }
        int q = url.indexOf('?');
        String noQuery = q >= 0 ? url.substring(0, q) : url;
        int scheme = noQuery.indexOf("://");
        if (scheme < 0) {
            return noQuery;
        }
        int slash = noQuery.indexOf('/', scheme + 3);
        return slash < 0 ? "/" : noQuery.substring(slash);
    }
}
