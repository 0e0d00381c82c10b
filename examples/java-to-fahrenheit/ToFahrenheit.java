package examples.temperature;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;

/** Converts a Celsius reading to Fahrenheit; a missing reading stays missing. */
public class ToFahrenheit implements UDF1<Double, Double> {
  @Override
  public Double call(Double celsius) {
    if (celsius == null) {
      return null;
    }
    return celsius * 9.0 / 5.0 + 32.0;
  }

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().appName("to-fahrenheit").getOrCreate();
    spark.udf().register("to_fahrenheit", new ToFahrenheit(), DataTypes.DoubleType);
    spark.read().parquet(args[0]).createOrReplaceTempView("readings");
    Dataset<Row> out =
        spark.sql("SELECT station, to_fahrenheit(temperature) AS fahrenheit FROM readings");
    out.write().parquet(args[1]);
  }
}
