package com.acme.catalog;

import org.apache.spark.sql.api.java.UDF1;

/** Registered as valid_sku: SKUs look like AB-1234 or AB-1234-X. */
public class ValidSku implements UDF1<String, Boolean> {
    private static final String SKU_PATTERN = "[A-Z]{2}-\\d{4}(-[A-Z])?";

    @Override
    public Boolean call(String sku) throws Exception {
        if (sku == null) {
            return false;
        }
        return sku.trim().matches(SKU_PATTERN);
    }
}
