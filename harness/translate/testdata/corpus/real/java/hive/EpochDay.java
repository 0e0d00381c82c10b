package com.acme.hive.udf;

import java.text.DateFormat;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.Locale;
import java.util.TimeZone;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;

/** epoch_day(ms): the UTC calendar day of a millisecond timestamp, e.g. "Tue 2024-01-02". */
public class EpochDay extends UDF {
    public Text evaluate(LongWritable millis) {
        if (millis == null) {
            return null;
        }
        DateFormat fmt = new SimpleDateFormat("EEE yyyy-MM-dd", Locale.US);
        fmt.setTimeZone(TimeZone.getTimeZone("UTC"));
        return new Text(fmt.format(new Date(millis.get())));
    }
}
