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

class LowerIt extends Function1[String, String] {
  def apply(s: String): String = if (s == null) null else s.toLowerCase
}

class IsYes extends Function1[String, Boolean] {
  def apply(s: String): Boolean = s != null && (s.trim.toLowerCase == "yes" || s.toLowerCase.startsWith("y "))
}

class LogLevel extends Function1[String, Int] {
  def apply(s: String): Int = s.toLowerCase match {
    case "error" | "fatal" => 3
    case "warn" => 2
    case _ => if (s.toLowerCase.contains("debug")) 0 else 1
  }
}

class Greet extends Function1[String, String] {
  def apply(s: String): String = "hello " + s
}

class ParseIt extends Function1[String, java.lang.Integer] {
  def apply(s: String): java.lang.Integer = if (s == null) null else Integer.parseInt(s)
}

class ShowIt extends Function1[java.lang.Double, String] {
  def apply(x: java.lang.Double): String = if (x == null) null else x.toString
}

class YesIt extends Function1[String, java.lang.Boolean] {
  def apply(s: String): java.lang.Boolean = if (s == null) null else java.lang.Boolean.parseBoolean(s)
}

class DigitsOnly extends Function1[String, java.lang.Boolean] {
  def apply(s: String): java.lang.Boolean = if (s == null) null else s.matches("[0-9]+")
}

class HashIt extends Function1[String, java.lang.Integer] {
  def apply(s: String): java.lang.Integer = if (s == null) null else s.hashCode
}

class Squash extends Function1[String, String] {
  def apply(s: String): String = if (s == null) "" else s.trim.replaceAll("\\s+", " ")
}

class PhoneDigits extends Function1[String, String] {
  def apply(p: String): String = if (p == null) null else p.replaceAll("[^0-9+]", "").replaceAll("^0{2,}", "+")
}

class QtyOrZero extends Function1[String, Int] {
  def apply(s: String): Int = if (s == null) 0 else try { s.trim.toInt } catch { case _: NumberFormatException => 0 }
}

class IdOrNone extends Function1[String, java.lang.Long] {
  def apply(s: String): java.lang.Long = try { java.lang.Long.valueOf(s) } catch { case e: NumberFormatException => null }
}

class RatioOrNull extends Function2[java.lang.Double, java.lang.Double, java.lang.Double] {
  def apply(a: java.lang.Double, b: java.lang.Double): java.lang.Double =
    if (a == null || b == null || b == 0.0) null else a / b
}

class PerMinute extends Function2[Int, Int, Double] {
  def apply(pages: Int, secs: Int): Double = if (secs == 0) 0.0 else pages * 60.0 / secs
}

class CodeLabel extends Function2[String, Int, String] {
  def apply(code: String, n: Int): String = s"$code#${n + 1} ($$)\t${code == null}"
}
