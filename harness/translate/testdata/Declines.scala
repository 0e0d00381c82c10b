package udfx.translate.testdata

// String methods whose JVM semantics differ from Spark's: each must be
// declined, never translated.
class TrimIt extends Function1[String, String] {
  def apply(s: String): String = if (s == null) null else s.trim
}

class SplitIt extends Function1[String, String] {
  def apply(s: String): String = if (s == null) null else s.split(",")(0)
}

class UpperIt extends Function1[String, String] {
  def apply(s: String): String = if (s == null) null else s.toUpperCase
}

class Greet extends Function1[String, String] {
  def apply(s: String): String = "hello " + s
}
