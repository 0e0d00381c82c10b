package udfx.corpus;

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
