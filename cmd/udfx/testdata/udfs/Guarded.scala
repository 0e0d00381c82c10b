package udfx.clitest

// Throws on some rows, loops forever on others: the harness must report
// both as results of their own, never crash or hang.
class SqrtOrThrow extends Function1[java.lang.Double, java.lang.Double] {
  def apply(x: java.lang.Double): java.lang.Double =
    if (x == null) null
    else if (x < 0) throw new IllegalArgumentException("negative: " + x)
    else math.sqrt(x)
}

class SpinsAboveAHundred extends Function1[java.lang.Double, java.lang.Double] {
  def apply(x: java.lang.Double): java.lang.Double = {
    var spins = 0L
    while (x != null && x > 100.0) { spins += 1 }
    x
  }
}
