package udfx.testdata

class Broken extends Function1[Double, Double] {
  override def apply(x: Double): Double = {
    val y: String = x
    y
  }
}
