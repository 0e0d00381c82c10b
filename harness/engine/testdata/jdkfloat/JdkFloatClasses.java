// JdkFloatClasses checks which floats and doubles a JDK's Float.toString /
// Double.toString prints as their shortest decimal form. JDK 17's
// FloatingDecimal sometimes prints more digits (1.0E23 as
// 9.999999999999999E22); JDK 19+ always prints the shortest. jdkfloat.go
// accepts only the classes this program found clean on both JDK 17 and
// JDK 25 (same "hash" line on both, "bad 0").
//
// Usage: java JdkFloatClasses.java d|f DIGITS DECADE_LO DECADE_HI
// enumerates every value k * 10^(e - DIGITS + 1), k of DIGITS digits (so
// every value whose shortest form has at most DIGITS significant digits),
// for decimal exponents e in DECADE_LO..DECADE_HI, parses it as a double
// (d) or float (f), and checks that toString prints exactly the digits of k
// without trailing zeros. Runs used (JDK 17.0 and Temurin 25):
//
//   d 7 -3 6      (90,000,000 values)   f 6 -3 6     (9,000,000)
//   d 4 -307 20   d 4 26 308            f 5 -37 7    f 5 19 38
//
// and, to find where JDK 17 fails: d 4 -307 308 (bad only at exponents
// 21..25), f 6 -37 38 (bad at 7..18 and once at -29).
public class JdkFloatClasses {
  static String significant(String s) {
    String m = s;
    int e = m.indexOf('E');
    if (e >= 0) m = m.substring(0, e);
    m = m.replace("-", "").replace(".", "");
    return m.replaceFirst("^0+", "").replaceFirst("0+$", "");
  }

  public static void main(String[] a) {
    boolean isFloat = a[0].equals("f");
    int n = Integer.parseInt(a[1]);
    int dlo = Integer.parseInt(a[2]), dhi = Integer.parseInt(a[3]);
    long count = 0, bad = 0, h = 0;
    long lo = 1;
    for (int i = 1; i < n; i++) lo *= 10;
    long hi = lo * 10;
    for (int d = dlo; d <= dhi; d++) {
      for (long k = lo; k < hi; k++) {
        String dec = k + "E" + (d - (n - 1));
        String ts;
        if (isFloat) {
          float f = Float.parseFloat(dec);
          if (Float.isInfinite(f) || f == 0) continue;
          ts = Float.toString(f);
        } else {
          double v = Double.parseDouble(dec);
          if (Double.isInfinite(v) || v == 0) continue;
          ts = Double.toString(v);
        }
        String want = Long.toString(k).replaceFirst("0+$", "");
        count++;
        h = h * 1000003 + ts.hashCode();
        if (!significant(ts).equals(want)) {
          bad++;
          System.out.println("MISMATCH " + dec + " -> " + ts);
        }
      }
    }
    System.out.println("count " + count + " bad " + bad + " hash " + h);
  }
}
