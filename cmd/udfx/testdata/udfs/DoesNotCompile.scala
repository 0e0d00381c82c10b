package udfx.clitest

// Parses, but scalac rejects it: udfx test must report the line.
class DoesNotCompile extends Function1[java.lang.Double, java.lang.Double] {
  def apply(x: java.lang.Double): java.lang.Double = x.noSuchMethod()
}
