package com.acme.udf;

import org.apache.spark.sql.api.java.UDF1;

/**
 * Classifies a landed file by its extension, whatever its case.
 * Registered as: spark.udf().register("file_kind", new FileKind(), DataTypes.StringType);
 */
public class FileKind implements UDF1<String, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String call(String path) throws Exception {
        if (path == null) {
            return "unknown";
        }
        String lower = path.toLowerCase();
        if (lower.endsWith(".csv") || lower.endsWith(".tsv")) {
            return "delimited";
        } else if (lower.endsWith(".parquet")) {
            return "parquet";
        } else if (lower.endsWith(".json") || lower.contains(".json.")) {
            return "json";
        }
        return "other";
    }
}
