// Not udfx.corpus: Corpus.scala defines classes of the same names there
// (ShowDouble, CircleArea), and the corpus's real-Spark reference puts the
// classes of both files on one class path.
package udfx.javacorpus;

import java.util.HashMap;
import java.util.Map;

import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.api.java.UDF2;

// Everyday Java UDFs, one per class; manifest.tsv says what each should
// become.
final class Consts {
  static final double TAX_RATE = 0.2;
  static final String UNKNOWN = "unknown";
  static final long MILLIS_PER_SECOND = 1000L;
}

class NullSafePrefix implements UDF1<String, Boolean> {
  @Override
  public Boolean call(String s) {
    return s != null && s.startsWith("x");
  }
}

class BlankToUnknown implements UDF1<String, String> {
  @Override
  public String call(String s) {
    if (s == null || s.isEmpty()) {
      return Consts.UNKNOWN;
    }
    return s;
  }
}

class WithTax implements UDF1<Double, Double> {
  private static final double RATE = 0.2;

  @Override
  public Double call(Double price) {
    if (price == null) return null;
    return price * (1.0 + RATE);
  }
}

class ToSeconds implements UDF1<Long, Long> {
  @Override
  public Long call(Long millis) {
    if (millis == null) return null;
    return millis / 1000L;
  }
}

class ToSecondsConst implements UDF1<Long, Long> {
  private static final long MILLIS = 1000L;

  @Override
  public Long call(Long millis) {
    if (millis == null) return null;
    long secs = millis / MILLIS;
    return secs;
  }
}

class StatusSwitch implements UDF1<String, String> {
  @Override
  public String call(String s) {
    if (s == null) return "none";
    switch (s) {
      case "A": return "active";
      case "I": return "inactive";
      default: return "other";
    }
  }
}

class EqualsLiteral implements UDF1<String, Boolean> {
  @Override
  public Boolean call(String s) {
    return "yes".equals(s);
  }
}

class EqualsParam implements UDF1<String, Boolean> {
  @Override
  public Boolean call(String s) {
    if (s == null) return false;
    return s.equals("Y");
  }
}

class RefEquals implements UDF1<String, Boolean> {
  @Override
  public Boolean call(String s) {
    return s == "Y";
  }
}

class Concat implements UDF2<String, String, String> {
  @Override
  public String call(String first, String last) {
    return first + " " + last;
  }
}

class ConcatNumber implements UDF2<String, Integer, String> {
  @Override
  public String call(String name, Integer n) {
    return name + "#" + n;
  }
}

class LocalString implements UDF1<String, String> {
  @Override
  public String call(String s) {
    String label = "item:";
    if (s == null) {
      return label + "none";
    }
    String out = label + s;
    return out;
  }
}

class RoundHalf implements UDF1<Double, Long> {
  @Override
  public Long call(Double x) {
    if (x == null) return null;
    return Math.round(x);
  }
}

class RoundTo2 implements UDF1<Double, Double> {
  @Override
  public Double call(Double x) {
    if (x == null) return null;
    return Math.round(x * 100.0) / 100.0;
  }
}

class FloorDiv implements UDF1<Double, Double> {
  @Override
  public Double call(Double x) {
    if (x == null) return null;
    return Math.floor(x / 10.0) * 10.0;
  }
}

class MaxZero implements UDF1<Double, Double> {
  @Override
  public Double call(Double x) {
    if (x == null) return null;
    return Math.max(x, 0.0);
  }
}

class AbsDiff implements UDF2<Integer, Integer, Integer> {
  @Override
  public Integer call(Integer a, Integer b) {
    if (a == null || b == null) return null;
    return Math.abs(a - b);
  }
}

class LongSum implements UDF2<Long, Long, Long> {
  @Override
  public Long call(Long a, Long b) {
    if (a == null || b == null) return null;
    long s = a + b;
    return s;
  }
}

class Hours implements UDF1<Long, Long> {
  @Override
  public Long call(Long seconds) {
    if (seconds == null) return 0L;
    return seconds / 3600 % 24;
  }
}

class PctOfLong implements UDF2<Long, Long, Double> {
  @Override
  public Double call(Long part, Long total) {
    if (part == null || total == null || total == 0L) return null;
    return part * 100.0 / total;
  }
}

class Bucket10 implements UDF1<Integer, Integer> {
  @Override
  public Integer call(Integer n) {
    if (n == null) return -1;
    return n / 10 * 10;
  }
}

class AgeGroup implements UDF1<Integer, String> {
  @Override
  public String call(Integer age) {
    if (age == null) return "unknown";
    if (age < 18) return "minor";
    else if (age < 65) return "adult";
    return "senior";
  }
}

class ParseOrZero implements UDF1<String, Integer> {
  @Override
  public Integer call(String s) {
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}

class UpperIt implements UDF1<String, String> {
  @Override
  public String call(String s) {
    return s == null ? null : s.toUpperCase();
  }
}

class Len implements UDF1<String, Integer> {
  @Override
  public Integer call(String s) {
    return s == null ? 0 : s.length();
  }
}

class UnboxNoCheck implements UDF1<Double, Double> {
  @Override
  public Double call(Double x) {
    return x * 2.0;
  }
}

class ShowDouble implements UDF1<Double, String> {
  @Override
  public String call(Double x) {
    return "x=" + x;
  }
}

class DayName implements UDF1<Integer, String> {
  @Override
  public String call(Integer d) {
    if (d == null) return null;
    switch (d) {
      case 1: return "Mon";
      case 2: return "Tue";
      case 3: return "Wed";
      case 6:
      case 7:
        return "Weekend";
      default: return "Other";
    }
  }
}

class SizeArrow implements UDF1<String, Integer> {
  @Override
  public Integer call(String s) {
    if (s == null) return 0;
    switch (s) {
      case "S" -> { return 1; }
      case "M" -> { return 2; }
      case "L", "XL" -> { return 3; }
      default -> { return 0; }
    }
  }
}

class SwitchNoNullCheck implements UDF1<String, Integer> {
  @Override
  public Integer call(String s) {
    switch (s) {
      case "a": return 1;
      default: return 0;
    }
  }
}

class ObjectsEquals implements UDF2<String, String, Boolean> {
  @Override
  public Boolean call(String a, String b) {
    return java.util.Objects.equals(a, b);
  }
}

class EqualsOther implements UDF2<String, String, Boolean> {
  @Override
  public Boolean call(String a, String b) {
    return a != null && a.equals(b);
  }
}

class TernaryLabel implements UDF1<String, String> {
  @Override
  public String call(String s) {
    return s == null ? "(none)" : "[" + s + "]";
  }
}

class LongLocal implements UDF1<Long, Long> {
  @Override
  public Long call(Long bytes) {
    if (bytes == null) return null;
    long kb = bytes / 1024L;
    long mb = kb / 1024;
    return mb;
  }
}

class DoubleLocal implements UDF2<Double, Double, Double> {
  @Override
  public Double call(Double lat, Double lon) {
    if (lat == null || lon == null) return null;
    double a = lat * 0.5;
    double b = lon * 0.25;
    return a + b;
  }
}

class CeilPages implements UDF1<Double, Double> {
  @Override
  public Double call(Double n) {
    if (n == null) return null;
    return Math.ceil(n / 20.0);
  }
}

class MinInt implements UDF2<Integer, Integer, Integer> {
  @Override
  public Integer call(Integer a, Integer b) {
    if (a == null || b == null) return null;
    return Math.min(a, b);
  }
}

class BoolLabel implements UDF1<Boolean, String> {
  @Override
  public String call(Boolean b) {
    if (b == null) return "unknown";
    return b ? "on" : "off";
  }
}

class IsEven implements UDF1<Long, Boolean> {
  @Override
  public Boolean call(Long n) {
    if (n == null) return false;
    return n % 2 == 0;
  }
}

class CircleArea implements UDF1<Double, Double> {
  @Override
  public Double call(Double r) {
    if (r == null) return null;
    return Math.PI * r * r;
  }
}

class Trimmed implements UDF1<String, String> {
  @Override
  public String call(String s) {
    return s == null ? null : s.trim();
  }
}

class Replace implements UDF1<String, String> {
  @Override
  public String call(String s) {
    return s == null ? null : s.replace("-", "");
  }
}

class LoopSum implements UDF1<Integer, Integer> {
  @Override
  public Integer call(Integer n) {
    int total = 0;
    for (int i = 0; i < n; i++) total += i;
    return total;
  }
}

class LatestTs implements UDF2<Long, Long, Long> {
  @Override
  public Long call(Long a, Long b) {
    if (a == null) return b;
    if (b == null) return a;
    return Math.max(a, b);
  }
}

// Offsets into a string: String.indexOf, lastIndexOf and substring count
// UTF-16 units, Spark code points; these cut only where a code point
// starts.
class UserOfEmail implements UDF1<String, String> {
  @Override
  public String call(String email) {
    if (email == null) return null;
    int at = email.indexOf('@');
    return at < 0 ? email : email.substring(0, at);
  }
}

class FileName implements UDF1<String, String> {
  @Override
  public String call(String path) {
    if (path == null) return null;
    return path.substring(path.lastIndexOf('/') + 1);
  }
}

class Bracketed implements UDF1<String, String> {
  @Override
  public String call(String s) {
    if (s == null) return null;
    int open = s.indexOf('[');
    int close = s.indexOf(']');
    if (open < 0 || close < 0) return null;
    return s.substring(open + 1, close);
  }
}

class StripScheme implements UDF1<String, String> {
  private static final String PREFIX = "https://";

  @Override
  public String call(String url) {
    if (url != null && url.startsWith(PREFIX)) {
      return url.substring(PREFIX.length());
    }
    return url;
  }
}

class UrlPathOnly implements UDF1<String, String> {
  @Override
  public String call(String url) {
    if (url == null) return null;
    int scheme = url.indexOf("://");
    if (scheme == -1) return url;
    int slash = url.indexOf('/', scheme + 3);
    return slash < 0 ? "/" : url.substring(slash);
  }
}

class AtPosition implements UDF1<String, Integer> {
  @Override
  public Integer call(String email) {
    return email == null ? -1 : email.indexOf('@');
  }
}

class AfterSecondChar implements UDF1<String, String> {
  @Override
  public String call(String s) {
    return s == null ? null : s.substring(2);
  }
}

// Helpers: a static method of another class, a private one of the UDF's.
final class Fees {
  static double feeFor(double amount) {
    return amount < 100 ? 2.5 : amount * 0.02;
  }
}

class FeeOf implements UDF1<Double, Double> {
  @Override
  public Double call(Double amount) {
    if (amount == null) return null;
    return Fees.feeFor(amount);
  }
}

class CleanCode implements UDF1<String, String> {
  private String clean(String s) {
    return s == null ? "" : s.trim();
  }

  @Override
  public String call(String s) {
    return clean(s);
  }
}

// Locals assigned again: each path goes on with the value it assigned.
class BulkPrice implements UDF2<Double, Integer, Double> {
  private static final int BULK_QTY = 100;

  @Override
  public Double call(Double price, Integer qty) {
    if (price == null || qty == null) return null;
    double total = price * qty;
    if (qty >= BULK_QTY) {
      total = total * 0.9;
    }
    return total;
  }
}

class RateFor implements UDF1<Integer, Double> {
  @Override
  public Double call(Integer qty) {
    if (qty == null) return null;
    double rate;
    if (qty > 10) {
      rate = 0.15;
    } else if (qty > 5) {
      rate = 0.05;
    } else {
      rate = 0;
    }
    return rate;
  }
}

class Unquoted implements UDF1<String, String> {
  @Override
  public String call(String s) {
    if (s == null) return null;
    String v = s.trim();
    if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
      v = v.substring(1, v.length() - 1);
    }
    return v;
  }
}

// The kind of a landed file from its extension, in any case.
class FileKindOf implements UDF1<String, String> {
  @Override
  public String call(String path) {
    if (path == null) {
      return "unknown";
    }
    String lower = path.toLowerCase();
    if (lower.endsWith(".csv") || lower.endsWith(".tsv")) {
      return "delimited";
    }
    return lower.endsWith(".parquet") ? "parquet" : "other";
  }
}

// A measurement read from text: null where it is not a number, and
// NullPointerException on a null, which only NumberFormatException's catch
// lets through.
class ReadingOrNull implements UDF1<String, Double> {
  @Override
  public Double call(String s) {
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}

// A rate kept to one decimal, ties to even, through BigDecimal.
class RateTenths implements UDF1<Double, Double> {
  @Override
  public Double call(Double rate) {
    if (rate == null) return null;
    return java.math.BigDecimal.valueOf(rate).setScale(1, java.math.RoundingMode.HALF_EVEN).doubleValue();
  }
}

// A share of a total as a boxed Double, boxed explicitly.
class ShareOf implements UDF2<Long, Long, Double> {
  @Override
  public Double call(Long part, Long total) {
    if (part == null || total == null || total == 0L) return null;
    return Double.valueOf(part * 100.0 / total);
  }
}

// Country names to codes from a map filled once, looked up by a cleaned,
// lower-cased key (the keys hold no σ, so the final-sigma rule cannot show).
class CountryToCode implements UDF1<String, String> {
  private static final Map<String, String> CODES = new HashMap<>();

  static {
    CODES.put("germany", "DE");
    CODES.put("france", "FR");
    CODES.put("spain", "ES");
  }

  @Override
  public String call(String country) {
    if (country == null) return null;
    return CODES.getOrDefault(country.trim().toLowerCase(), "??");
  }
}

// An immutable Map.of: a null key throws, where a HashMap finds nothing.
class TierName implements UDF1<String, String> {
  private static final Map<String, String> TIERS = Map.of("g", "gold", "s", "silver", "b", "bronze");

  @Override
  public String call(String tier) {
    return TIERS.get(tier);
  }
}

// The size of a text in bytes, as a column limit is checked.
class Utf8Size implements UDF1<String, Integer> {
  @Override
  public Integer call(String s) {
    if (s == null) return 0;
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
  }
}

class QueryParam implements UDF1<String, String> {
  @Override
  public String call(String raw) {
    if (raw == null) {
      return null;
    }
    try {
      return java.net.URLDecoder.decode(raw, "UTF-8");
    } catch (java.io.UnsupportedEncodingException | IllegalArgumentException e) {
      return raw;
    }
  }
}

// An account name masked after its first character, as logs print it.
class MaskName implements UDF1<String, String> {
  @Override
  public String call(String name) {
    if (name == null || name.isEmpty()) {
      return name;
    }
    return name.charAt(0) + "***";
  }
}

// The UTC minute of an event, as the partitioning job labels it.
class EventMinute implements UDF1<Long, String> {
  @Override
  public String call(Long millis) {
    if (millis == null) {
      return null;
    }
    java.text.SimpleDateFormat fmt = new java.text.SimpleDateFormat("yyyy-MM-dd HH:mm");
    fmt.setTimeZone(java.util.TimeZone.getTimeZone("UTC"));
    return fmt.format(new java.util.Date(millis));
  }
}

// A report header in the executor's own time zone.
class LocalHeader implements UDF1<Long, String> {
  @Override
  public String call(Long millis) {
    if (millis == null) {
      return null;
    }
    return new java.text.SimpleDateFormat("EEEE, MMMM d").format(new java.util.Date(millis));
  }
}
