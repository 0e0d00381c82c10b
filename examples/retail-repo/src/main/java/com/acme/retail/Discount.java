package com.acme.retail;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;

/** The loyalty discount in percent for a customer's yearly spend. */
public class Discount implements UDF1<Double, Integer> {
  @Override
  public Integer call(Double spend) {
    if (spend == null) {
      return null;
    }
    if (spend >= 5000.0) {
      return 10;
    }
    if (spend >= 1000.0) {
      return 5;
    }
    return 0;
  }

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().appName("discount").getOrCreate();
    spark.udf().register("loyalty_discount", new Discount(), DataTypes.IntegerType);
    spark.read().parquet(args[0]).createOrReplaceTempView("customers");
    spark.sql("SELECT id, loyalty_discount(yearly_spend) AS discount FROM customers")
        .write()
        .parquet(args[1]);
  }
}
