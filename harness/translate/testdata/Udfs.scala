package udfx.translate.testdata

// Small UDFs the translator's tests run for real (scalac + JVM) against
// their SQL rewrites. Each class is one construct.

class Fahrenheit extends Function1[java.lang.Double, java.lang.Double] with Serializable {
  override def apply(celsius: java.lang.Double): java.lang.Double = {
    if (celsius == null) null
    else celsius * 9.0 / 5.0 + 32.0
  }
}

class PrimFahrenheit extends Function1[Double, Double] with Serializable {
  override def apply(c: Double): Double = c * 9.0 / 5.0 + 32.0
}

class BoxedNoCheck extends Function1[java.lang.Double, java.lang.Double] with Serializable {
  // Scala unboxes null to 0.0 here: the result is 32.0 for NULL.
  override def apply(c: java.lang.Double): java.lang.Double = c * 9.0 / 5.0 + 32.0
}

class Clamp extends Function1[Double, Double] with Serializable {
  override def apply(x: Double): Double = {
    if (x > 100.0) return 100.0
    val y = -x
    if (y >= 0.0 && x != 0.0) y * 2.0 else if (!(x < 50.0)) x % 7.0 else math.abs(x) - 1.5
  }
}

class IntOps extends Function2[Int, Int, Int] with Serializable {
  override def apply(a: Int, b: Int): Int = a * 31 + b - (a / 3) + b % 5 + math.max(a, b)
}

class IntDiv extends Function2[Int, Int, Int] with Serializable {
  override def apply(a: Int, b: Int): Int = a / b + a % b
}

class Convert extends Function1[Double, Int] with Serializable {
  override def apply(x: Double): Int = x.toInt + (x * 2.0).toInt
}

class ConvertLong extends Function1[Double, Long] with Serializable {
  override def apply(x: Double): Long = x.toLong
}

class FloorCeil extends Function1[Double, Double] with Serializable {
  override def apply(x: Double): Double = math.floor(x) + math.ceil(x) * 0.5 + math.sqrt(x)
}

class Grade extends Function1[Int, String] with Serializable {
  override def apply(n: Int): String = n match {
    case 1 => "one"
    case 2 => "two"
    case _ => "many"
  }
}

class NotNullFlag extends Function1[Double, Boolean] with Serializable {
  // A primitive parameter: a NULL input gives NULL, not false.
  override def apply(x: Double): Boolean = x == 1.5 || x < -3.0
}

class DivByParam extends Function2[Double, Double, Double] with Serializable {
  override def apply(a: Double, b: Double): Double = a / b
}

class RoundIt extends Function1[Double, Long] with Serializable {
  override def apply(x: Double): Long = math.round(x)
}

class Prefix extends Function1[String, Boolean] with Serializable {
  override def apply(s: String): Boolean = if (s == null) false else s.startsWith("ab") || s.endsWith("z") || s.contains("q")
}

class StrLen extends Function1[String, Int] with Serializable {
  override def apply(s: String): Int = if (s == null) 0 else s.length
}

class LongDiv extends Function2[Long, Long, Long] with Serializable {
  // A divisor that may be -1: Long.MinValue / -1 wraps to Long.MinValue.
  override def apply(a: Long, b: Long): Long = a / b + a % b
}

// take counts UTF-16 units: take(3) of "😀😀" is the first emoji and the
// high half of the second, which Spark stores as '?'.
class Take3 extends Function1[String, String] with Serializable {
  override def apply(s: String): String = if (s == null) null else s.take(3)
}

class Take1 extends Function1[String, String] with Serializable {
  override def apply(s: String): String = if (s == null) "" else s.take(1)
}
