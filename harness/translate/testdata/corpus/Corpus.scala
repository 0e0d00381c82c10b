package udfx.corpus

// Everyday Scala UDFs of the kinds found in public Spark code, written
// for udfx's corpus. manifest.tsv says what each should become.

object Units {
  val KmPerMile = 1.609344
  val Threshold: Double = 100
  val Prefix = "ID-"
}

class CleanName extends Function1[String, String] with Serializable {
  override def apply(s: String): String = if (s == null || s.isEmpty) "unknown" else s
}

class HasPrefix extends Function1[String, Boolean] with Serializable {
  override def apply(s: String): Boolean = s != null && s.startsWith("x")
}

class IsBlank extends Function1[String, Boolean] with Serializable {
  override def apply(s: String): Boolean = s == null || s.isEmpty
}

class MilesToKm extends Function1[Double, Double] with Serializable {
  override def apply(m: Double): Double = m * Units.KmPerMile
}

class KmFromMiles extends Function1[java.lang.Double, java.lang.Double] with Serializable {
  import Units._
  override def apply(m: java.lang.Double): java.lang.Double = if (m == null) null else m * KmPerMile
}

class OverThreshold extends Function1[Double, Boolean] with Serializable {
  import Units._
  override def apply(x: Double): Boolean = x > Threshold
}

class WithPrefix extends Function1[String, String] with Serializable {
  import Units._
  override def apply(s: String): String = Prefix + s
}

class Greeting extends Function1[String, String] with Serializable {
  override def apply(s: String): String = "Hello, " + s + "!"
}

class LabelCount extends Function1[Int, String] with Serializable {
  override def apply(n: Int): String = "count=" + n
}

class StatusName extends Function1[String, String] with Serializable {
  override def apply(code: String): String = code match {
    case "A" => "active"
    case "I" => "inactive"
    case _ => "other"
  }
}

class IsYes extends Function1[String, Boolean] with Serializable {
  override def apply(s: String): Boolean = s == "Y" || s == "yes"
}

class Bucket extends Function1[Int, String] with Serializable {
  override def apply(age: Int): String = age match {
    case a if a < 18 => "minor"
    case a if a < 65 => "adult"
    case _ => "senior"
  }
}

class ScoreBand extends Function1[Double, Int] with Serializable {
  override def apply(x: Double): Int = x match {
    case v if v >= 90.0 => 4
    case v if v >= 75.0 => 3
    case v if v >= 50.0 => 2
    case _ => 1
  }
}

class OrDefault extends Function1[String, String] with Serializable {
  override def apply(s: String): String = Option(s).getOrElse("n/a")
}

class SecondsFromMillis extends Function1[Long, Long] with Serializable {
  override def apply(millis: Long): Long = millis / 1000L
}

class MinutesFromMillis extends Function1[Long, Long] with Serializable {
  override def apply(millis: Long): Long = millis / 60000 % 60
}

class AddOffset extends Function1[Long, Long] with Serializable {
  override def apply(t: Long): Long = t + 3600L * 1000L
}

class LongProduct extends Function2[Long, Long, Long] with Serializable {
  override def apply(a: Long, b: Long): Long = a * b - 1L
}

class LongToDouble extends Function1[Long, Double] with Serializable {
  override def apply(n: Long): Double = n / 2.0
}

class RoundCents extends Function1[Double, Double] with Serializable {
  override def apply(x: Double): Double = math.round(x * 100.0) / 100.0
}

class RoundLong extends Function1[Double, Long] with Serializable {
  override def apply(x: Double): Long = math.round(x)
}

class MaxOfTwo extends Function2[Double, Double, Double] with Serializable {
  override def apply(a: Double, b: Double): Double = math.max(a, b)
}

class MinOfTwo extends Function2[Double, Double, Double] with Serializable {
  override def apply(a: Double, b: Double): Double = math.min(a, b)
}

class AbsInt extends Function1[Int, Int] with Serializable {
  override def apply(n: Int): Int = math.abs(n)
}

class AbsLong extends Function1[Long, Long] with Serializable {
  override def apply(n: Long): Long = math.abs(n)
}

class NegLong extends Function1[Long, Long] with Serializable {
  override def apply(n: Long): Long = -n
}

class ClampPct extends Function1[Double, Double] with Serializable {
  override def apply(x: Double): Double = if (x < 0.0) 0.0 else if (x > 100.0) 100.0 else x
}

class CelsiusToKelvin extends Function1[Double, Double] with Serializable {
  override def apply(c: Double): Double = c + 273.15
}

class SafeRatio extends Function2[java.lang.Double, java.lang.Double, java.lang.Double] with Serializable {
  override def apply(a: java.lang.Double, b: java.lang.Double): java.lang.Double =
    if (a == null || b == null || b == 0.0) null else a / b
}

class NonEmptyFlag extends Function1[String, Boolean] with Serializable {
  override def apply(s: String): Boolean = s != null && s.nonEmpty
}

class EvenOdd extends Function1[Int, String] with Serializable {
  override def apply(n: Int): String = if (n % 2 == 0) "even" else "odd"
}

class Sign extends Function1[Int, Int] with Serializable {
  override def apply(n: Int): Int = if (n > 0) 1 else if (n < 0) -1 else 0
}

class TrimName extends Function1[String, String] with Serializable {
  override def apply(s: String): String = if (s == null) null else s.trim
}

class LowerName extends Function1[String, String] with Serializable {
  override def apply(s: String): String = if (s == null) null else s.toLowerCase
}

class NameLength extends Function1[String, Int] with Serializable {
  override def apply(s: String): Int = if (s == null) 0 else s.length
}

class ParseIntOr extends Function1[String, Int] with Serializable {
  override def apply(s: String): Int = try { s.toInt } catch { case _: NumberFormatException => 0 }
}

class FirstField extends Function1[String, String] with Serializable {
  override def apply(s: String): String = if (s == null) null else s.split(",")(0)
}

class ShowDouble extends Function1[Double, String] with Serializable {
  override def apply(x: Double): String = "value " + x
}

class DivideBy extends Function2[Double, Double, Double] with Serializable {
  override def apply(a: Double, b: Double): Double = a / b
}

class MatchNoDefault extends Function1[Int, String] with Serializable {
  override def apply(n: Int): String = n match {
    case 1 => "one"
    case 2 => "two"
  }
}

object Geo {
  val EarthRadiusKm = 6371.0
  val Scale: Long = 1000
}

class CircleArea extends Function1[Double, Double] with Serializable {
  override def apply(r: Double): Double = math.Pi * r * r
}

class ArcKm extends Function1[Double, Double] with Serializable {
  override def apply(rad: Double): Double = rad * Geo.EarthRadiusKm
}

class ScaledMillis extends Function1[Long, Long] with Serializable {
  override def apply(s: Long): Long = s * Geo.Scale
}

class EqualsY extends Function1[String, Boolean] with Serializable {
  override def apply(s: String): Boolean = s != null && s.equals("Y")
}

class EmptyIfNull extends Function1[String, String] with Serializable {
  override def apply(s: String): String = if (s == null) "" else s
}

class CountryName extends Function1[String, String] with Serializable {
  override def apply(code: String): String = code match {
    case "US" | "USA" => "United States"
    case "DE" => "Germany"
    case null => "missing"
    case _ => code
  }
}

class FlagName extends Function1[Boolean, String] with Serializable {
  override def apply(b: Boolean): String = if (b) "yes" else "no"
}

class Percent extends Function2[Int, Int, Int] with Serializable {
  override def apply(part: Int, total: Int): Int = if (total == 0) 0 else part * 100 / total
}

class ClampInt extends Function1[Int, Int] with Serializable {
  override def apply(n: Int): Int = math.min(math.max(n, 0), 100)
}

class ToLongId extends Function1[Int, Long] with Serializable {
  override def apply(n: Int): Long = n.toLong * 1000L + 7L
}

class TruncToInt extends Function1[Double, Int] with Serializable {
  override def apply(x: Double): Int = (x * 10.0).toInt
}

class FloorTen extends Function1[Double, Double] with Serializable {
  override def apply(x: Double): Double = math.floor(x / 10.0) * 10.0
}

class NullSafeLen extends Function1[String, Boolean] with Serializable {
  override def apply(s: String): Boolean = s == null || s.isEmpty || s.startsWith("#")
}

class TagIt extends Function2[String, Int, String] with Serializable {
  override def apply(tag: String, n: Int): String = {
    val base = if (tag == null) "none" else tag
    base + "-" + n
  }
}

class CharSuffix extends Function1[String, String] with Serializable {
  override def apply(s: String): String = s + 'x'
}

class VarCounter extends Function1[Int, Int] with Serializable {
  override def apply(n: Int): Int = {
    var total = 0
    for (i <- 1 to n) total += i
    total
  }
}

class UpperFirst extends Function1[String, String] with Serializable {
  override def apply(s: String): String = if (s == null || s.isEmpty) s else s.substring(0, 1).toUpperCase + s.substring(1)
}

class BoxedSum extends Function2[java.lang.Long, java.lang.Long, java.lang.Long] with Serializable {
  override def apply(a: java.lang.Long, b: java.lang.Long): java.lang.Long = if (a == null || b == null) null else a + b
}

class IsAdult extends Function1[java.lang.Integer, java.lang.Boolean] with Serializable {
  override def apply(age: java.lang.Integer): java.lang.Boolean = if (age == null) false else age >= 18
}

class KelvinOrNull extends Function1[java.lang.Double, java.lang.Double] with Serializable {
  override def apply(c: java.lang.Double): java.lang.Double = if (c == null || c < -273.15) null else c + 273.15
}

class StripDashes extends Function1[String, String] with Serializable {
  override def apply(s: String): String = if (s == null) null else s.replace("-", "")
}

class CentsToUnits extends Function1[Long, Double] with Serializable {
  override def apply(cents: Long): Double = cents.toDouble / 100
}

class KeyOfPair extends Function1[String, String] with Serializable {
  override def apply(kv: String): String = {
    val i = kv.indexOf('=')
    if (i < 0) kv else kv.substring(0, i)
  }
}

class Extension extends Function1[String, String] with Serializable {
  override def apply(name: String): String = {
    if (name == null) return ""
    val dot = name.lastIndexOf(".")
    if (dot <= 0) "" else name.substring(dot + 1)
  }
}

class AfterArrow extends Function1[String, String] with Serializable {
  override def apply(s: String): String = {
    if (s == null) return null
    val i = s.indexOf("->")
    if (i >= 0) s.substring(i + 2).trim else s
  }
}

object TempMath {
  def cToF(c: Double): Double = c * 9.0 / 5.0 + 32.0
}

class ToFahrenheit extends Function1[Double, Double] with Serializable {
  override def apply(c: Double): Double = TempMath.cToF(c)
}

// A product code shouted in a named locale, as style guides ask: the
// JDK's upper case outside tr, az and lt (ß becomes SS).
class ShoutCode extends Function1[String, String] with Serializable {
  override def apply(code: String): String =
    if (code == null) null else code.trim.toUpperCase(java.util.Locale.ROOT)
}

// A yes/no flag typed by hand, read case-insensitively: the lower-cased
// text is only matched against literals, where σ and ς cannot matter.
class IsTruthy extends Function1[String, Boolean] with Serializable {
  override def apply(v: String): Boolean = v != null && (v.trim.toLowerCase match {
    case "y" | "yes" | "true" | "1" => true
    case _ => false
  })
}

// Null and blank codes become one marker, through an Option chain.
class CodeOrUnknown extends Function1[String, String] with Serializable {
  override def apply(code: String): String =
    Option(code).map(_.trim).filter(_.nonEmpty).map(_.toUpperCase).getOrElse("UNKNOWN")
}

// Some(null) is not None: getOrElse keeps the null the map gave.
class BlankToNull extends Function1[String, String] with Serializable {
  override def apply(s: String): String =
    Option(s).map(x => if (x.trim.isEmpty) null else x).getOrElse("<none>")
}

// Runs of whitespace squeezed to one space, as text cleaners do.
class SquashSpaces extends Function1[String, String] with Serializable {
  override def apply(s: String): String = if (s == null) null else s.trim.replaceAll("\\s+", " ")
}

// A label built with s"…": a null prints as "null", an int in decimal.
class BinLabel extends Function2[String, Int, String] with Serializable {
  override def apply(bin: String, n: Int): String = s"$bin-${n + 1}"
}

// A price column read from text, zero where it is not a number: a catch
// of Exception also takes the NullPointerException of a null.
class AmountOrZero extends Function1[String, Double] with Serializable {
  override def apply(s: String): Double = try { s.toDouble } catch { case _: Exception => 0.0 }
}

// Money to cents the way Scala code rounds it, through BigDecimal.
class ToCents extends Function1[Double, Double] with Serializable {
  override def apply(x: Double): Double = BigDecimal(x).setScale(2, BigDecimal.RoundingMode.HALF_UP).toDouble
}

// A URL slug: lower case, and every run of other characters one dash.
// The class takes σ and ς alike, so the final-sigma rule cannot show.
class Slug extends Function1[String, String] with Serializable {
  override def apply(title: String): String =
    if (title == null) null else title.trim.toLowerCase.replaceAll("[^a-z0-9]+", "-")
}

object Regions {
  val Names = Map("EU" -> "Europe", "NA" -> "North America", "APAC" -> "Asia-Pacific")
}

// A code looked up in an immutable Map, with a default.
class RegionName extends Function1[String, String] with Serializable {
  override def apply(code: String): String = Regions.Names.getOrElse(code, "Other")
}

// A first initial, as display names are shortened.
class FirstInitial extends Function1[String, String] with Serializable {
  override def apply(s: String): String = if (s == null || s.isEmpty) "" else s.head + "."
}

// The month of an epoch-millis timestamp in UTC, as billing labels it.
class MonthLabel extends Function1[Long, String] with Serializable {
  override def apply(millis: Long): String = {
    val fmt = new java.text.SimpleDateFormat("MMM yyyy")
    fmt.setTimeZone(java.util.TimeZone.getTimeZone("UTC"))
    fmt.format(new java.util.Date(millis))
  }
}
