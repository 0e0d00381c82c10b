package com.acme.udf;

import org.apache.spark.sql.api.java.UDF2;

public class Discount implements UDF2<Double, Integer, Double> {
    private static final double BULK_DISCOUNT = 0.1;
    private static final int BULK_QTY = 100;

    @Override
    public Double call(Double price, Integer qty) {
        if (price == null || qty == null) {
            return null;
        }
        double total = price * qty;
        if (qty >= BULK_QTY) {
            total = total * (1 - BULK_DISCOUNT);
        }
        return total;
    }
}
