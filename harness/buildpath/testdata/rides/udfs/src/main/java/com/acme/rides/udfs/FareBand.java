package com.acme.rides.udfs;

import com.acme.rides.common.Fares;
import org.apache.spark.sql.api.java.UDF1;

public class FareBand implements UDF1<Double, String> {
    @Override
    public String call(Double fare) {
        return Fares.band(fare);
    }
}
