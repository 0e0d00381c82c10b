package udfx.vsspark;

import java.math.BigDecimal;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.types.DataTypes;

/**
 * Java UDFs for udfx's runners-versus-Spark test
 * (harness/difftest/runners_vs_spark_test.go). Each reveals in its result
 * how Spark called it: whether a NULL input reached call() as null, how a
 * returned BigDecimal is stored, what becomes of a lone surrogate.
 */
public class VsSpark {
  /** "null" when Spark hands it null for a NULL DOUBLE, else the value. */
  public static class SeesNullDouble implements UDF1<Double, String> {
    @Override
    public String call(Double x) {
      return x == null ? "null" : "v:" + x;
    }
  }

  /** The same over INT and BOOLEAN, two parameters at once. */
  public static class SeesNullIntBool implements UDF2<Integer, Boolean, String> {
    @Override
    public String call(Integer i, Boolean b) {
      return (i == null ? "null" : "v:" + i) + "/" + (b == null ? "null" : "v:" + b);
    }
  }

  /** Unboxes its argument: a NULL input throws NullPointerException. */
  public static class Unboxes implements UDF1<Long, Long> {
    @Override
    public Long call(Long x) {
      return x + 1;
    }
  }

  /** Appends an unpaired high surrogate to the input. */
  public static class LoneSurrogate implements UDF1<String, String> {
    @Override
    public String call(String s) {
      return s == null ? "\uD800" : s + "\uD800";
    }
  }

  /**
   * Picks one of a table of decimals by its argument: halves to round at
   * scale 2 (both signs, and with more digits beyond), values that fit
   * DECIMAL(5,2) only before rounding, values that never fit, a negative
   * scale and a tiny one. Registered as DECIMAL(5,2) below.
   */
  public static class DecimalTable implements UDF1<Integer, BigDecimal> {
    static final String[] TABLE = {
      "1.005", "-1.005", "1.015", "-1.015", "0.005", "-0.005", "0.0049999999999", "-0.0049999999999",
      "2.675", "0.125", "-0.125", "1.0050000000000000000000000000001", "999.994", "999.995", "-999.995",
      "1000", "-1000.00", "99999.99", "1E+2", "1E+3", "12345678901234567890.5", "1E-100", "-1E-100", "0",
      "0.00", "123.456789",
    };

    @Override
    public BigDecimal call(Integer i) {
      if (i == null) {
        return null;
      }
      return new BigDecimal(TABLE[Math.floorMod(i, TABLE.length)]);
    }
  }

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().getOrCreate();
    spark.udf().register("seesNullDouble", new SeesNullDouble(), DataTypes.StringType);
    spark.udf().register("seesNullIntBool", new SeesNullIntBool(), DataTypes.StringType);
    spark.udf().register("unboxes", new Unboxes(), DataTypes.LongType);
    spark.udf().register("loneSurrogate", new LoneSurrogate(), DataTypes.StringType);
    spark.udf().register("decimalTable", new DecimalTable(), DataTypes.createDecimalType(5, 2));
  }
}
