package com.acme.jobs;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;

import static org.apache.spark.sql.functions.callUDF;
import static org.apache.spark.sql.functions.col;

public final class UdfRegistrar {
    private UdfRegistrar() {}

    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().appName("registrar").getOrCreate();

        spark.udf().register("to_upper_safe", (UDF1<String, String>) s -> s == null ? null : s.toUpperCase(), DataTypes.StringType);
        spark.udf().register("str_len", (UDF1<String, Integer>) s -> s == null ? -1 : s.length(), DataTypes.IntegerType);
        spark.udf().register("is_positive", (UDF1<Long, Boolean>) v -> v != null && v > 0L, DataTypes.BooleanType);

        Dataset<Row> df = spark.read().parquet(args[0]);
        df.withColumn("n", callUDF("str_len", col("name"))).show();
    }
}
