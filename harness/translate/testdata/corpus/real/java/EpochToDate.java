package com.acme.udf;

import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.TimeZone;

import org.apache.spark.sql.api.java.UDF1;

public class EpochToDate implements UDF1<Long, String> {
    @Override
    public String call(Long millis) {
        if (millis == null) {
            return null;
        }
        SimpleDateFormat fmt = new SimpleDateFormat("yyyy-MM-dd");
        fmt.setTimeZone(TimeZone.getTimeZone("UTC"));
        return fmt.format(new Date(millis));
    }
}
