package udfx.testdata

/** Fails on readings above 1000 degrees, for udfx's Spark engine tests. */
class Boom extends Function1[java.lang.Double, java.lang.Double] with Serializable {
  override def apply(celsius: java.lang.Double): java.lang.Double = {
    if (celsius != null && celsius > 1000.0) throw new IllegalArgumentException("reading out of range: " + celsius)
    celsius
  }
}
