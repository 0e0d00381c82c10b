import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.reflect.Method;

// Calls the CPU path (call) of a generated RapidsUDF class on token rows
// from stdin (N, T/F, i<n>, f<8 hex>, d<16 hex>) and prints result tokens:
// the Java half of templates/cuda's tests. Usage: RowsMain CLASS < rows.
public class RowsMain {
  public static void main(String[] args) throws Exception {
    Class<?> cls = Class.forName(args[0]);
    Object udf = cls.getDeclaredConstructor().newInstance();
    Method call = null;
    for (Method m : cls.getDeclaredMethods()) {
      if (m.getName().equals("call") && !m.isBridge()) call = m;
    }
    Class<?>[] types = call.getParameterTypes();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
    PrintWriter out = new PrintWriter(System.out);
    String line;
    while ((line = in.readLine()) != null) {
      String[] toks = line.trim().isEmpty() ? new String[0] : line.trim().split(" ");
      Object[] vals = new Object[types.length];
      for (int i = 0; i < types.length; i++) vals[i] = parse(toks[i], types[i]);
      out.println(token(call.invoke(udf, vals)));
    }
    out.flush();
  }

  static Object parse(String t, Class<?> type) {
    if (t.equals("N")) return null;
    if (type == Boolean.class) return t.equals("T");
    if (type == Integer.class) return Integer.parseInt(t.substring(1));
    if (type == Long.class) return Long.parseLong(t.substring(1));
    if (type == Float.class) return Float.intBitsToFloat(Integer.parseUnsignedInt(t.substring(1), 16));
    if (type == Double.class) return Double.longBitsToDouble(Long.parseUnsignedLong(t.substring(1), 16));
    throw new IllegalArgumentException("no parameter type " + type);
  }

  static String token(Object v) {
    if (v == null) return "N";
    if (v instanceof Boolean) return ((Boolean) v) ? "T" : "F";
    if (v instanceof Integer || v instanceof Long) return "i" + v;
    if (v instanceof Float) return String.format("f%08x", Float.floatToRawIntBits((Float) v));
    if (v instanceof Double) return String.format("d%016x", Double.doubleToRawLongBits((Double) v));
    throw new IllegalArgumentException("no result type " + v.getClass());
  }
}
