import org.apache.spark.sql.api.java.UDF1;

public class Unterminated implements UDF1<Double, Double> {
  /* the comment never ends
  public Double call(Double x) { return x; }
}
