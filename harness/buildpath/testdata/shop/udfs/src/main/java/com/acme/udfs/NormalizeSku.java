package com.acme.udfs;

import com.acme.common.UdfName;
import org.apache.spark.sql.api.java.UDF1;
import org.jspecify.annotations.Nullable;

@UdfName("normalize_sku")
public class NormalizeSku implements UDF1<String, String> {
    @Override
    public @Nullable String call(@Nullable String sku) {
        if (sku == null) {
            return null;
        }
        return "SKU-" + sku.replace(" ", "");
    }
}
