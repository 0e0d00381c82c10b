package com.acme.udf;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import org.apache.spark.sql.api.java.UDF1;

/** Day bucket of a session start; registered as session_day. */
public class SessionDay implements UDF1<Long, String> {
    private static final DateTimeFormatter DAY =
            DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);

    @Override
    public String call(Long startedAtMillis) throws Exception {
        if (startedAtMillis == null) {
            return null;
        }
        return DAY.format(Instant.ofEpochMilli(startedAtMillis));
    }
}
