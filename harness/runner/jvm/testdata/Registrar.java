package com.acme.jobs;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;

// UDFs registered inside methods, as jobs write them.
public final class Registrar {
    private static final int OFFSET = 1;
    private final int scale = 3;

    private static int bump(int n) {
        return n + OFFSET;
    }

    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().getOrCreate();
        int factor = Integer.parseInt(args[0]);
        // Reads only its parameter and the class's private members: lifted.
        spark.udf().register("str_len", (UDF1<String, Integer>) s -> s == null ? -1 : bump(s.length()), DataTypes.IntegerType);
        // Reads main's local factor.
        spark.udf().register("scaled", (UDF1<Integer, Integer>) v -> v * factor, DataTypes.IntegerType);
        UDF1<Long, Boolean> positive = v -> {
            if (v == null) {
                return false;
            }
            return v > 0L;
        };
        spark.udf().register("is_positive", positive, DataTypes.BooleanType);
    }

    void register(SparkSession spark) {
        // Reads the instance's field.
        spark.udf().register("times_scale", (UDF1<Integer, Integer>) v -> v * scale, DataTypes.IntegerType);
    }
}
