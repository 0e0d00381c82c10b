package udfx.identity

// Identity UDFs: each hands back what Spark gave it, so a test can check
// that every special value crosses into the JVM and back bit for bit.
class IdDouble extends Function1[java.lang.Double, java.lang.Double] {
  def apply(x: java.lang.Double): java.lang.Double = x
}

class IdFloat extends Function1[java.lang.Float, java.lang.Float] {
  def apply(x: java.lang.Float): java.lang.Float = x
}

class IdLong extends Function1[java.lang.Long, java.lang.Long] {
  def apply(x: java.lang.Long): java.lang.Long = x
}

class IdString extends Function1[String, String] {
  def apply(x: String): String = x
}

class IdDecimal extends Function1[java.math.BigDecimal, java.math.BigDecimal] {
  def apply(x: java.math.BigDecimal): java.math.BigDecimal = x
}
