package udfx.difftest

class LowerIt extends Function1[String, String] {
  def apply(s: String): String = if (s == null) null else s.toLowerCase
}

class UpperIt extends Function1[String, String] {
  def apply(s: String): String = if (s == null) null else s.toUpperCase
}
