public class Broken implements UDF1<Double, Double> {
  public Double call(Double x) {
    return x * 2.0
  }
}
