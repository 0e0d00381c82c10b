// The udfx JVM driver: calls one user-defined function the way Spark does,
// row by row. udfx (package harness/runner/jvm) compiles this file once per
// JDK and classpath and starts it with the user's compiled classes on the
// classpath. Rows arrive on stdin as lines of value tokens (one token, or
// one bracketed group, per parameter; see harness/value/codec.go) and one
// result token per row goes back on stdout, in order.
//
// Protocol: the first line out is "R<hex UTF-16 description>" once the UDF
// has been found, or "X<hex UTF-16 reason>" when it cannot be called outside
// its job. Then one line per input row. An OutOfMemoryError ends the process
// with exit status 3 after a "udfx-driver crash:" line on stderr.
//
// Arguments: kind language name classesDir nullSkipsCall, then three per
// parameter: Spark type string, "P" (JVM primitive) or "B", source type.

import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

public final class UdfxDriver {
  /** A UDF the driver can call, found but not yet initialized. */
  interface Target {
    Object call(Object[] args) throws Throwable;
  }

  /** The UDF cannot be called outside its job; the reason goes to the user. */
  static final class NotCallable extends Exception {
    NotCallable(String msg) {
      super(msg);
    }
  }

  /** How one parameter's token becomes the Java object Spark passes. */
  interface Decoder {
    Object decode(Object catalyst);
  }

  // ---- output, shared with the flusher thread under outLock ----
  static final Object outLock = new Object();
  static OutputStream out;
  static byte[] obuf = new byte[1 << 16];
  static int olen;
  static final byte[] HEX = "0123456789abcdef".getBytes();

  public static void main(String[] argv) throws Exception {
    if (argv.length == 1 && argv[0].equals("--module-options")) {
      // The JVM flags Spark's launcher starts every Spark JVM with
      // (--add-opens and the like); Spark's date conversions need them.
      System.out.println(org.apache.spark.launcher.JavaModuleOptions.defaultModuleOptions());
      return;
    }
    if (argv.length == 5 && argv[0].equals("--types")) {
      PrintStream real = System.out;
      System.setOut(System.err);
      real.println(TYPES_PREFIX + compiledTypes(argv[1], argv[2], argv[3], Integer.parseInt(argv[4])));
      real.flush();
      return;
    }
    out = new FileOutputStream(FileDescriptor.out);
    // The UDF may print; its output must not corrupt the protocol.
    System.setOut(System.err);

    String kind = argv[0], lang = argv[1], name = argv[2], classesDir = argv[3];
    boolean nullSkipsCall = argv[4].equals("1");
    int n = (argv.length - 5) / 3;
    String[] types = new String[n], sourceTypes = new String[n];
    boolean[] primitive = new boolean[n];
    for (int i = 0; i < n; i++) {
      types[i] = argv[5 + 3 * i];
      primitive[i] = argv[6 + 3 * i].equals("P");
      sourceTypes[i] = argv[7 + 3 * i];
    }

    String[] desc = new String[1];
    Target target;
    Decoder[] decoders = new Decoder[n];
    DataType[] dataTypes = new DataType[n];
    try {
      for (int i = 0; i < n; i++) {
        dataTypes[i] = parseType(types[i]);
      }
      target = resolve(kind, lang, name, n, classNames(new File(classesDir)), desc, dataTypes);
      for (int i = 0; i < n; i++) {
        decoders[i] = decoder(dataTypes[i], sourceTypes[i], lang, kind, types[i]);
      }
    } catch (NotCallable e) {
      writeHandshake('X', e.getMessage());
      return;
    }
    writeHandshake('R', desc[0]);

    Thread flusher = new Thread(UdfxDriver::flushLoop, "udfx-flusher");
    flusher.setDaemon(true);
    flusher.start();

    LineReader in = new LineReader(new FileInputStream(FileDescriptor.in));
    Object[] args = new Object[n];
    Tokens toks = new Tokens();
    Out res = new Out();
    long row = 0;
    for (;; row++) {
      if (!in.readLine(toks)) {
        break;
      }
      res.len = 0;
      boolean skip = false;
      try {
        for (int i = 0; i < n; i++) {
          Object v = toks.value(dataTypes[i], types[i]);
          if (v == null) {
            args[i] = null;
            if (nullSkipsCall && primitive[i]) {
              skip = true; // Spark returns null for a null primitive input without a call
            }
          } else {
            args[i] = decoders[i].decode(v);
          }
        }
        toks.end();
      } catch (Throwable e) {
        // Not the UDF's doing: Spark would have the value in hand.
        crash("cannot convert the input of row " + row + ": " + e);
      }
      if (skip) {
        res.put('N');
      } else {
        Object r;
        try {
          r = target.call(args);
          encode(res, r);
        } catch (OutOfMemoryError e) {
          crash("java.lang.OutOfMemoryError: " + e.getMessage() + " at row " + row);
        } catch (Throwable t) {
          res.len = 0;
          encodeError(res, t);
        }
      }
      res.put('\n');
      synchronized (outLock) {
        append(res.buf, res.len);
      }
    }
    synchronized (outLock) {
      flushLocked();
    }
    System.exit(0);
  }

  static void crash(String msg) {
    try {
      synchronized (outLock) {
        flushLocked();
      }
    } catch (Throwable ignored) {
      // The results so far are lost; the crash is reported all the same.
    }
    System.err.println("udfx-driver crash: " + msg);
    System.err.flush();
    Runtime.getRuntime().halt(3);
  }

  static void writeHandshake(char kind, String msg) throws IOException {
    Out o = new Out();
    o.put(kind);
    o.units(msg == null ? "" : msg);
    o.put('\n');
    out.write(o.buf, 0, o.len);
    out.flush();
  }

  // The flusher sends finished results every few milliseconds, so that when
  // a row hangs udfx has every result before it and can name the row.
  static void flushLoop() {
    for (;;) {
      try {
        Thread.sleep(20);
        synchronized (outLock) {
          flushLocked();
        }
      } catch (Throwable e) {
        return;
      }
    }
  }

  static void append(byte[] b, int len) throws IOException {
    if (olen + len > obuf.length) {
      flushLocked();
      if (len > obuf.length) {
        out.write(b, 0, len);
        return;
      }
    }
    System.arraycopy(b, 0, obuf, olen, len);
    olen += len;
  }

  static void flushLocked() throws IOException {
    if (olen > 0) {
      out.write(obuf, 0, olen);
      olen = 0;
    }
  }

  // ---- finding the UDF ----

  static List<String> classNames(File dir) {
    List<String> names = new ArrayList<>();
    walk(dir, "", names);
    return names;
  }

  static void walk(File dir, String pkg, List<String> names) {
    File[] files = dir.listFiles();
    if (files == null) {
      return;
    }
    for (File f : files) {
      String fn = f.getName();
      if (f.isDirectory()) {
        walk(f, pkg + fn + ".", names);
      } else if (fn.endsWith(".class")) {
        names.add(pkg + fn.substring(0, fn.length() - 6));
      }
    }
  }

  static String simpleName(String binary) {
    return binary.substring(binary.lastIndexOf('.') + 1);
  }

  static Class<?> load(String name) throws NotCallable {
    try {
      return Class.forName(name, false, UdfxDriver.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new NotCallable("cannot load class " + name + ": " + e);
    }
  }

  static Class<?> optional(String name) {
    try {
      return Class.forName(name, false, UdfxDriver.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  /** Memoizes how the function object is obtained: its failure repeats on every row. */
  static final class Lazy {
    interface Supplier {
      Object get() throws Throwable;
    }

    final Supplier s;
    Object v;
    Throwable err;
    boolean done;

    Lazy(Supplier s) {
      this.s = s;
    }

    Object get() throws Throwable {
      if (!done) {
        try {
          v = s.get();
        } catch (InvocationTargetException e) {
          err = e.getCause();
        } catch (Throwable t) {
          err = t;
        }
        done = true;
      }
      if (err != null) {
        throw err;
      }
      return v;
    }
  }

  static Target resolve(String kind, String lang, String name, int arity, List<String> classes, String[] desc,
      DataType[] types) throws NotCallable {
    if (name.startsWith("<")) {
      throw new NotCallable("an anonymous function has no name by which udfx could reach it; give it a name with a val in an object");
    }
    switch (kind) {
      case "function-class":
        return functionClass(name, arity, classes, desc);
      case "udf-class":
        return udfClass(name, arity, classes, desc);
      case "hive-udf":
        return hiveUDF(name, arity, classes, desc, types);
      case "hive-generic-udf":
        throw new NotCallable("a Hive GenericUDF needs Hive's ObjectInspectors, which the JVM runner does not provide");
      case "lambda":
      case "function-ref":
        return held(kind, lang, name, arity, classes, desc);
      default:
        throw new NotCallable("the JVM runner does not call UDFs of kind " + kind);
    }
  }

  static List<Class<?>> named(String name, List<String> classes, boolean module) throws NotCallable {
    List<Class<?>> out = new ArrayList<>();
    String want = module ? name + "$" : name;
    for (String c : classes) {
      String s = simpleName(c);
      if (s.equals(want) || s.endsWith("$" + want) && !module) {
        out.add(load(c));
      }
    }
    return out;
  }

  static Class<?> one(List<Class<?>> cs, String what) throws NotCallable {
    if (cs.size() > 1) {
      StringBuilder b = new StringBuilder();
      for (Class<?> c : cs) {
        b.append(' ').append(c.getName());
      }
      throw new NotCallable("several classes are named " + what + ":" + b);
    }
    return cs.isEmpty() ? null : cs.get(0);
  }

  static Constructor<?> noArgConstructor(Class<?> c) throws NotCallable {
    if (Modifier.isAbstract(c.getModifiers()) || c.isInterface()) {
      throw new NotCallable(c.getName() + " is abstract; Spark is handed an instance of a concrete subclass");
    }
    try {
      // The job's own code may call a package-private constructor.
      Constructor<?> k = c.getDeclaredConstructor();
      k.setAccessible(true);
      return k;
    } catch (NoSuchMethodException e) {
      throw new NotCallable(c.getName() + " has no no-argument constructor, so udfx cannot build the instance the job builds");
    } catch (RuntimeException e) {
      throw new NotCallable("cannot use the constructor of " + c.getName() + ": " + e);
    }
  }

  static Object moduleOf(Class<?> c) throws Throwable {
    Field f = c.getField("MODULE$");
    return f.get(null); // initializes the object: its errors belong to the rows
  }

  static Target functionClass(String name, int arity, List<String> classes, String[] desc) throws NotCallable {
    Class<?> fn = load("scala.Function" + arity);
    Class<?> cls = one(named(name, classes, false), name);
    if (cls != null && fn.isAssignableFrom(cls)) {
      Constructor<?> k = noArgConstructor(cls);
      desc[0] = "new " + cls.getName() + "().apply";
      return applier(new Lazy(k::newInstance), arity);
    }
    Class<?> mod = one(named(name, classes, true), name);
    if (mod != null && fn.isAssignableFrom(mod)) {
      desc[0] = "object " + mod.getName().substring(0, mod.getName().length() - 1) + ".apply";
      return applier(new Lazy(() -> moduleOf(mod)), arity);
    }
    throw new NotCallable("no class or object " + name + " extending scala.Function" + arity + " in the compiled source");
  }

  static Target udfClass(String name, int arity, List<String> classes, String[] desc) throws NotCallable {
    Class<?> iface = load("org.apache.spark.sql.api.java.UDF" + arity);
    Class<?> cls = one(named(name, classes, false), name);
    if (cls == null || !iface.isAssignableFrom(cls)) {
      Class<?> mod = one(named(name, classes, true), name);
      if (mod != null && iface.isAssignableFrom(mod)) {
        desc[0] = "object " + name + ".call";
        return caller(new Lazy(() -> moduleOf(mod)), iface, arity);
      }
      throw new NotCallable("no class " + name + " implementing " + iface.getName() + " in the compiled source");
    }
    Constructor<?> k = noArgConstructor(cls);
    desc[0] = "new " + cls.getName() + "().call";
    return caller(new Lazy(k::newInstance), iface, arity);
  }

  static Target hiveUDF(String name, int arity, List<String> classes, String[] desc, DataType[] types)
      throws NotCallable {
    Class<?> cls = one(named(name, classes, false), name);
    if (cls == null) {
      throw new NotCallable("no class " + name + " in the compiled source");
    }
    List<Method> ms = new ArrayList<>();
    for (Method c : cls.getMethods()) {
      if (c.getName().equals("evaluate") && c.getParameterCount() == arity) {
        ms.add(c);
      }
    }
    if (ms.isEmpty()) {
      throw new NotCallable(cls.getName() + " has no public evaluate method of " + arity + " parameters");
    }
    Constructor<?> k = noArgConstructor(cls);
    Method m = ms.get(0);
    if (ms.size() > 1) {
      m = hiveEvalMethod(cls, k, types);
    }
    Class<?>[] ps = m.getParameterTypes();
    for (Class<?> p : ps) {
      if (p.isPrimitive()) {
        // Spark's HiveSimpleUDF passes the value's box, which invoke
        // unboxes, and null for NULL, where invoke throws
        // IllegalArgumentException and the query fails (docs/semantics.md).
        if (!HIVE_PRIMITIVES.contains(p.getName())) {
          throw new NotCallable("evaluate takes a primitive " + p.getName()
              + "; the JVM runner passes int, long, double, float, short, byte and boolean to Hive UDFs");
        }
        continue;
      }
      if (!(p == String.class || Number.class.isAssignableFrom(p) && p.getName().startsWith("java.lang.") || p == Boolean.class
          || WRITABLES.contains(p.getName()))) {
        throw new NotCallable("evaluate takes a " + p.getName()
            + "; the JVM runner passes Java boxed numbers, Boolean, String and Hadoop's and Hive's Writables to Hive UDFs");
      }
    }
    Lazy inst = new Lazy(k::newInstance);
    Method em = m;
    desc[0] = "new " + cls.getName() + "()." + m.getName();
    return args -> {
      Object[] in = new Object[args.length];
      for (int i = 0; i < args.length; i++) {
        in[i] = WRITABLES.contains(ps[i].getName()) ? toWritable(ps[i], args[i]) : args[i];
      }
      return fromWritable(invoke(em, inst.get(), in));
    };
  }

  /**
   * The evaluate Spark's HiveSimpleUDF calls for arguments of these types, where the class has several of that
   * arity: the one the UDF's resolver picks, asked as Spark asks it, with the arguments' TypeInfos, from an instance
   * of the UDF, a default resolver wrapped in Spark's own SparkDefaultUDFMethodResolver where Spark's jars have it
   * (Spark 4 no longer ships the classes Hive's FunctionRegistry needs). Hive may pick one whose parameters take
   * another type and convert the argument; the JVM runner passes values as they are, so it calls only an evaluate
   * whose parameters take exactly the arguments' types.
   */
  static Method hiveEvalMethod(Class<?> cls, Constructor<?> k, DataType[] types) throws NotCallable {
    StringBuilder sig = new StringBuilder();
    for (DataType t : types) {
      sig.append(sig.length() == 0 ? "" : ", ").append(t.catalogString());
    }
    Object resolver;
    try {
      resolver = cls.getMethod("getResolver").invoke(k.newInstance());
    } catch (InvocationTargetException e) {
      throw new NotCallable("building " + cls.getName() + " to ask which evaluate Spark calls threw " + e.getCause());
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      throw new NotCallable("cannot ask " + cls.getName() + " which evaluate Spark calls: " + e);
    }
    Method m;
    try {
      Class<?> sparks = optional("org.apache.hadoop.hive.ql.exec.SparkDefaultUDFMethodResolver");
      Class<?> hives = load("org.apache.hadoop.hive.ql.exec.DefaultUDFMethodResolver");
      if (sparks != null && hives.isInstance(resolver)) {
        resolver = sparks.getConstructor(hives).newInstance(resolver);
      }
      Method parse = load("org.apache.hadoop.hive.serde2.typeinfo.TypeInfoUtils").getMethod("getTypeInfoFromTypeString", String.class);
      List<Object> infos = new ArrayList<>();
      for (DataType t : types) {
        infos.add(parse.invoke(null, t.catalogString()));
      }
      Method get = load("org.apache.hadoop.hive.ql.exec.UDFMethodResolver").getMethod("getEvalMethod", List.class);
      m = (Method) get.invoke(resolver, infos);
    } catch (InvocationTargetException e) {
      throw new NotCallable("Hive finds no evaluate of " + cls.getName() + " for (" + sig + "): " + e.getCause());
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      throw new NotCallable("cannot ask Hive which evaluate of " + cls.getName() + " Spark calls for (" + sig + "): " + e);
    }
    Class<?>[] ps = m.getParameterTypes();
    for (int i = 0; i < ps.length; i++) {
      String takes = HIVE_PARAM_TYPES.get(ps[i].getName());
      if (!types[i].catalogString().equals(takes)) {
        throw new NotCallable("Hive calls " + cls.getName() + ".evaluate(" + describe(ps) + ") for (" + sig
            + ") and converts argument " + (i + 1) + " to " + ps[i].getSimpleName()
            + ", which the JVM runner does not replicate");
      }
    }
    return m;
  }

  static String describe(Class<?>[] ps) {
    StringBuilder b = new StringBuilder();
    for (Class<?> p : ps) {
      b.append(b.length() == 0 ? "" : ", ").append(p.getSimpleName());
    }
    return b.toString();
  }

  /** The Spark type each parameter class of a Hive simple UDF's evaluate takes without conversion. */
  static final java.util.Map<String, String> HIVE_PARAM_TYPES = new java.util.HashMap<>();

  static {
    String[][] pairs = {
      {"string", "java.lang.String", "org.apache.hadoop.io.Text"},
      {"int", "int", "java.lang.Integer", "org.apache.hadoop.io.IntWritable"},
      {"bigint", "long", "java.lang.Long", "org.apache.hadoop.io.LongWritable"},
      {"double", "double", "java.lang.Double", "org.apache.hadoop.io.DoubleWritable",
        "org.apache.hadoop.hive.serde2.io.DoubleWritable"},
      {"float", "float", "java.lang.Float", "org.apache.hadoop.io.FloatWritable"},
      {"boolean", "boolean", "java.lang.Boolean", "org.apache.hadoop.io.BooleanWritable"},
      {"smallint", "short", "java.lang.Short", "org.apache.hadoop.hive.serde2.io.ShortWritable"},
      {"tinyint", "byte", "java.lang.Byte", "org.apache.hadoop.hive.serde2.io.ByteWritable"},
      {"binary", "org.apache.hadoop.io.BytesWritable"},
    };
    for (String[] p : pairs) {
      for (int i = 1; i < p.length; i++) {
        HIVE_PARAM_TYPES.put(p[i], p[0]);
      }
    }
  }

  /** The primitive parameters of a Hive simple UDF's evaluate that the JVM runner calls. */
  static final java.util.Set<String> HIVE_PRIMITIVES = new java.util.HashSet<>(Arrays.asList(
      "int", "long", "double", "float", "short", "byte", "boolean"));

  /** The Writable boxes Hive simple UDFs take and return (udf/java/types.go). */
  static final java.util.Set<String> WRITABLES = new java.util.HashSet<>(Arrays.asList(
      "org.apache.hadoop.io.Text", "org.apache.hadoop.io.IntWritable", "org.apache.hadoop.io.LongWritable",
      "org.apache.hadoop.io.DoubleWritable", "org.apache.hadoop.io.FloatWritable", "org.apache.hadoop.io.BooleanWritable",
      "org.apache.hadoop.io.BytesWritable", "org.apache.hadoop.hive.serde2.io.DoubleWritable",
      "org.apache.hadoop.hive.serde2.io.ShortWritable", "org.apache.hadoop.hive.serde2.io.ByteWritable"));

  /**
   * The Writable Spark's HiveSimpleUDF hands evaluate for a value: a new box holding it (a Text of the string's
   * UTF-8), and null for null.
   */
  static Object toWritable(Class<?> box, Object v) throws Throwable {
    if (v == null) {
      return null;
    }
    Class<?> prim;
    if (v instanceof String) {
      prim = String.class;
    } else if (v instanceof byte[]) {
      prim = byte[].class;
    } else {
      prim = (Class<?>) v.getClass().getField("TYPE").get(null);
    }
    try {
      return box.getConstructor(prim).newInstance(v);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** A Writable's value as Spark's HiveSimpleUDF reads it back: Text as its string, the others unboxed. */
  static Object fromWritable(Object r) throws Throwable {
    if (r == null || !WRITABLES.contains(r.getClass().getName())) {
      return r;
    }
    String name = r.getClass().getName();
    if (name.equals("org.apache.hadoop.io.Text")) {
      return r.toString();
    }
    if (name.equals("org.apache.hadoop.io.BytesWritable")) {
      return invoke(r.getClass().getMethod("copyBytes"), r, new Object[0]);
    }
    return invoke(r.getClass().getMethod("get"), r, new Object[0]);
  }

  static Object invoke(Method m, Object recv, Object[] args) throws Throwable {
    try {
      return m.invoke(recv, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** A UDF held by a val (lambda) or a def (function-ref) of a Scala object, or a static field. */
  static Target held(String kind, String lang, String name, int arity, List<String> classes, String[] desc)
      throws NotCallable {
    List<Target> found = new ArrayList<>();
    List<String> where = new ArrayList<>();
    for (String c : classes) {
      Class<?> cls = load(c);
      if (c.endsWith("$") && hasModule(cls)) {
        for (Method m : cls.getDeclaredMethods()) {
          if (!m.getName().equals(name) || Modifier.isStatic(m.getModifiers())) {
            continue;
          }
          if (m.getParameterCount() == 0 && kind.equals("lambda")) {
            m.setAccessible(true);
            Lazy fn = new Lazy(() -> unwrap(invoke(m, moduleOf(cls), new Object[0])));
            found.add(held(fn, arity));
            where.add(c.substring(0, c.length() - 1) + "." + name);
          } else if (m.getParameterCount() == arity && kind.equals("function-ref")) {
            m.setAccessible(true);
            Lazy mod = new Lazy(() -> moduleOf(cls));
            found.add(args -> invoke(m, mod.get(), args));
            where.add(c.substring(0, c.length() - 1) + "." + name);
          }
        }
      } else if (!c.endsWith("$")) {
        // Java: a static field or static method holding the UDF.
        for (Field f : cls.getDeclaredFields()) {
          if (f.getName().equals(name) && Modifier.isStatic(f.getModifiers())) {
            f.setAccessible(true);
            Lazy fn = new Lazy(() -> unwrap(f.get(null)));
            found.add(held(fn, arity));
            where.add(c + "." + name);
          }
        }
        if (kind.equals("function-ref") && lang.equals("java")) {
          for (Method m : cls.getDeclaredMethods()) {
            if (m.getName().equals(name) && Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == arity) {
              m.setAccessible(true);
              found.add(args -> invoke(m, null, args));
              where.add(c + "." + name);
            }
          }
        }
      }
    }
    if (found.isEmpty()) {
      throw new NotCallable("no object or class member named " + name
          + " holds it: a UDF defined inside a method (such as main) exists only while the job runs; move it to a val in an object");
    }
    if (found.size() > 1) {
      throw new NotCallable("several members are named " + name + ": " + String.join(", ", where));
    }
    desc[0] = where.get(0) + (kind.equals("lambda") ? " (the function it wraps).apply" : "");
    return found.get(0);
  }

  static final String TYPES_PREFIX = "udfx-types\t";

  /**
   * The types scalac gave a Scala UDF held by an object, tab-separated: the result's, then each
   * parameter's. For a val holding what udf(...) returned they are Spark's own, derived from the
   * TypeTags scalac materialized ("S:" and the type's simple string, "S:?" for a parameter Spark
   * takes without an encoder); for a def they are its JVM signature ("J:" and the class name).
   * "X" and a reason when neither holds.
   */
  static String compiledTypes(String kind, String name, String classesDir, int arity) {
    try {
      for (String c : classNames(new File(classesDir))) {
        Class<?> cls = load(c);
        if (!c.endsWith("$") || !hasModule(cls)) {
          continue;
        }
        for (Method m : cls.getDeclaredMethods()) {
          if (!m.getName().equals(name) || Modifier.isStatic(m.getModifiers())) {
            continue;
          }
          if (kind.equals("lambda") && m.getParameterCount() == 0) {
            m.setAccessible(true);
            Object v = invoke(m, moduleOf(cls), new Object[0]);
            Class<?> sudf = optional("org.apache.spark.sql.expressions.SparkUserDefinedFunction");
            if (sudf == null || !sudf.isInstance(v)) {
              return "X\t" + name + " holds a " + (v == null ? "null" : v.getClass().getName()) + ", not what udf(...) returns";
            }
            StringBuilder b = new StringBuilder("T\tS:");
            b.append(((DataType) sudf.getMethod("dataType").invoke(v)).simpleString());
            scala.collection.Iterator<?> it = ((scala.collection.Iterable<?>) sudf.getMethod("inputEncoders").invoke(v)).iterator();
            while (it.hasNext()) {
              scala.Option<?> enc = (scala.Option<?>) it.next();
              b.append("\tS:");
              if (enc.isDefined()) {
                Object e = enc.get();
                b.append(((DataType) e.getClass().getMethod("dataType").invoke(e)).simpleString());
              } else {
                b.append('?');
              }
            }
            return b.toString();
          }
          if (kind.equals("function-ref") && m.getParameterCount() == arity) {
            StringBuilder b = new StringBuilder("T\tJ:").append(m.getReturnType().getName());
            for (Class<?> p : m.getParameterTypes()) {
              b.append("\tJ:").append(p.getName());
            }
            return b.toString();
          }
        }
      }
      return "X\tno object member named " + name + " holds it";
    } catch (Throwable e) {
      Throwable cause = e instanceof InvocationTargetException && e.getCause() != null ? e.getCause() : e;
      return "X\t" + name + " could not be read: " + cause;
    }
  }

  static boolean hasModule(Class<?> c) {
    try {
      Field f = c.getField("MODULE$");
      return Modifier.isStatic(f.getModifiers());
    } catch (NoSuchFieldException e) {
      return false;
    }
  }

  /** What a val holds: Spark's UserDefinedFunction wraps the function Spark calls. */
  static Object unwrap(Object o) throws Throwable {
    Class<?> sudf = optional("org.apache.spark.sql.expressions.SparkUserDefinedFunction");
    if (sudf != null && sudf.isInstance(o)) {
      return sudf.getMethod("f").invoke(o);
    }
    return o;
  }

  @SuppressWarnings("unchecked")
  static Target held(Lazy fn, int arity) {
    return args -> {
      Object f = fn.get();
      if (f instanceof scala.Function1 && arity == 1) {
        return ((scala.Function1<Object, Object>) f).apply(args[0]);
      }
      if (f instanceof scala.Function2 && arity == 2) {
        return ((scala.Function2<Object, Object, Object>) f).apply(args[0], args[1]);
      }
      Class<?> sf = optional("scala.Function" + arity), jf = optional("org.apache.spark.sql.api.java.UDF" + arity);
      if (sf != null && sf.isInstance(f)) {
        return invoke(functionMethod(sf, "apply", arity), f, args);
      }
      if (jf != null && jf.isInstance(f)) {
        return invoke(functionMethod(jf, "call", arity), f, args);
      }
      throw new NotCallableAtRun("the value is a " + (f == null ? "null" : f.getClass().getName())
          + ", not a function of " + arity + " arguments");
    };
  }

  /** Raised on a row when a val turns out not to hold a function; reported as that row's error. */
  static final class NotCallableAtRun extends RuntimeException {
    NotCallableAtRun(String msg) {
      super(msg);
    }
  }

  static Method functionMethod(Class<?> iface, String name, int arity) throws NotCallable {
    for (Method m : iface.getMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == arity) {
        boolean erased = true;
        for (Class<?> p : m.getParameterTypes()) {
          erased &= p == Object.class;
        }
        if (erased) {
          return m;
        }
      }
    }
    throw new NotCallable(iface.getName() + " has no " + name + " method of " + arity + " parameters");
  }

  @SuppressWarnings("unchecked")
  static Target applier(Lazy inst, int arity) throws NotCallable {
    switch (arity) {
      case 1:
        return args -> ((scala.Function1<Object, Object>) inst.get()).apply(args[0]);
      case 2:
        return args -> ((scala.Function2<Object, Object, Object>) inst.get()).apply(args[0], args[1]);
      default:
        Method m = functionMethod(load("scala.Function" + arity), "apply", arity);
        return args -> invoke(m, inst.get(), args);
    }
  }

  @SuppressWarnings("unchecked")
  static Target caller(Lazy inst, Class<?> iface, int arity) throws NotCallable {
    switch (arity) {
      case 1:
        return args -> ((org.apache.spark.sql.api.java.UDF1<Object, Object>) inst.get()).call(args[0]);
      case 2:
        return args -> ((org.apache.spark.sql.api.java.UDF2<Object, Object, Object>) inst.get()).call(args[0], args[1]);
      default:
        Method m = functionMethod(iface, "call", arity);
        return args -> invoke(m, inst.get(), args);
    }
  }

  // ---- parameters: catalyst values to what Spark passes ----

  static DataType parseType(String t) throws NotCallable {
    // The common names skip Spark's SQL parser, which is slow to load.
    switch (t) {
      case "boolean":
        return org.apache.spark.sql.types.DataTypes.BooleanType;
      case "tinyint":
        return org.apache.spark.sql.types.DataTypes.ByteType;
      case "smallint":
        return org.apache.spark.sql.types.DataTypes.ShortType;
      case "int":
        return org.apache.spark.sql.types.DataTypes.IntegerType;
      case "bigint":
        return org.apache.spark.sql.types.DataTypes.LongType;
      case "float":
        return org.apache.spark.sql.types.DataTypes.FloatType;
      case "double":
        return org.apache.spark.sql.types.DataTypes.DoubleType;
      case "string":
        return org.apache.spark.sql.types.DataTypes.StringType;
      case "binary":
        return org.apache.spark.sql.types.DataTypes.BinaryType;
      case "date":
        return org.apache.spark.sql.types.DataTypes.DateType;
      case "timestamp":
        return org.apache.spark.sql.types.DataTypes.TimestampType;
      default:
        break;
    }
    try {
      return DataType.fromDDL(t);
    } catch (RuntimeException e) {
      throw new NotCallable("cannot read the Spark type " + t + ": " + e.getMessage());
    }
  }

  static Decoder decoder(DataType dt, String sourceType, String lang, String kind, String typeStr) throws NotCallable {
    // Typed Scala functions get their arguments from encoders built from
    // TypeTags; Java UDFs and untyped ones from CatalystTypeConverters.
    // Both were checked against Spark 4.1.1 (testdata/SparkArgClasses.txt).
    boolean encoders = lang.equals("scala") && (kind.equals("function-class") || kind.equals("lambda") || kind.equals("function-ref"));
    String st = sourceType.replace(" ", "");
    if (encoders && typeStr.startsWith("decimal") && st.matches("(scala\\.math\\.)?BigDecimal")) {
      return v -> ((Decimal) v).toBigDecimal();
    }
    if (encoders && typeStr.equals("date") && st.matches("(java\\.time\\.)?LocalDate")) {
      return v -> DateTimeUtils.daysToLocalDate((Integer) v);
    }
    if (encoders && typeStr.equals("timestamp") && st.matches("(java\\.time\\.)?Instant")) {
      return v -> DateTimeUtils.microsToInstant((Long) v);
    }
    switch (typeStr) {
      case "boolean":
      case "tinyint":
      case "smallint":
      case "int":
      case "bigint":
      case "float":
      case "double":
      case "string":
      case "binary":
        // Passed as they are: boxed numbers, the exact Java String, byte[].
        return v -> v;
      default:
        break;
    }
    boolean nested = dt instanceof ArrayType || dt instanceof MapType || dt instanceof StructType;
    if (encoders && nested && !st.matches("(org\\.apache\\.spark\\.sql\\.)?Row|(scala\\.collection\\.(immutable\\.)?)?Map\\[.*")
        && !(dt instanceof ArrayType && st.matches("(scala\\.collection\\.(immutable\\.)?)?Seq\\[.*") && !((ArrayType) dt).elementType().toString().matches(".*(Array|Map|Struct).*"))) {
      throw new NotCallable("a typed Scala parameter of type " + sourceType
          + " is built by a Spark encoder the JVM runner does not replicate");
    }
    if (typeStr.startsWith("decimal") && st.matches("(scala\\.math\\.)?BigDecimal") && !encoders) {
      throw new NotCallable("a scala.math.BigDecimal parameter in a Java-style UDF receives a java.math.BigDecimal in Spark, a ClassCastException udfx does not replicate");
    }
    scala.Function1<Object, Object> conv = CatalystTypeConverters.createToScalaConverter(dt);
    if (encoders && dt instanceof ArrayType && st.contains("Seq[")) {
      // Spark 4.1.1's encoder for Seq[T] hands the function a List.
      return v -> ((scala.collection.Seq<?>) conv.apply(v)).toList();
    }
    return conv::apply;
  }

  // ---- reading rows ----

  /** Reads stdin a line at a time; flushes results before it would block. */
  static final class LineReader {
    final InputStream in;
    final byte[] buf = new byte[1 << 16];
    int pos, len;

    LineReader(InputStream in) {
      this.in = in;
    }

    boolean fill() throws IOException {
      if (in.available() == 0) {
        synchronized (outLock) {
          flushLocked();
        }
      }
      int r = in.read(buf, 0, buf.length);
      if (r <= 0) {
        return false;
      }
      pos = 0;
      len = r;
      return true;
    }

    boolean readLine(Tokens t) throws IOException {
      t.len = 0;
      t.pos = 0;
      for (;;) {
        if (pos == len && !fill()) {
          return t.len > 0;
        }
        int start = pos;
        while (pos < len && buf[pos] != '\n') {
          pos++;
        }
        t.add(buf, start, pos - start);
        if (pos < len) {
          pos++;
          return true;
        }
      }
    }
  }

  /** One row's tokens, read into catalyst values (the form Spark holds them in). */
  static final class Tokens {
    byte[] line = new byte[256];
    int len, pos;

    void add(byte[] b, int off, int n) {
      if (len + n > line.length) {
        line = java.util.Arrays.copyOf(line, Math.max(2 * line.length, len + n));
      }
      System.arraycopy(b, off, line, len, n);
      len += n;
    }

    void end() {
      skipSpaces();
      if (pos != len) {
        throw new IllegalArgumentException("more tokens than parameters");
      }
    }

    void skipSpaces() {
      while (pos < len && line[pos] == ' ') {
        pos++;
      }
    }

    int tokenEnd() {
      int e = pos;
      while (e < len && line[e] != ' ') {
        e++;
      }
      return e;
    }

    String text(int s, int e) {
      return new String(line, s, e - s, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** The next value as the catalyst object for dt; top-level strings are Java Strings, kept exactly. */
    Object value(DataType dt, String top) {
      skipSpaces();
      if (pos >= len) {
        throw new IllegalArgumentException("fewer tokens than parameters");
      }
      Object v = catalyst(dt);
      if (v instanceof Str) {
        return ((Str) v).s;
      }
      return v;
    }

    /** A top-level string, kept as its exact UTF-16 units. */
    static final class Str {
      final String s;

      Str(String s) {
        this.s = s;
      }
    }

    Object catalyst(DataType dt) {
      skipSpaces();
      int s = pos, e = tokenEnd();
      pos = e;
      byte k = line[s];
      switch (k) {
        case 'N':
          return null;
        case 'T':
          return Boolean.TRUE;
        case 'F':
          return Boolean.FALSE;
        case 'd':
          return Double.longBitsToDouble(hex(s + 1, e));
        case 'f':
          return Float.intBitsToFloat((int) hex(s + 1, e));
        case 'i': {
          long n = Long.parseLong(text(s + 1, e));
          switch (dt.typeName()) {
            case "byte":
              return (byte) n;
            case "short":
              return (short) n;
            case "integer":
              return (int) n;
            default:
              return n;
          }
        }
        case 'D':
          return (int) Long.parseLong(text(s + 1, e));
        case 'P':
          return Long.parseLong(text(s + 1, e));
        case 'm': {
          String t = text(s + 1, e);
          int at = t.indexOf('@');
          java.math.BigDecimal bd = new java.math.BigDecimal(new BigInteger(t.substring(0, at)), Integer.parseInt(t.substring(at + 1)));
          return Decimal.apply(bd);
        }
        case 's': {
          char[] cs = new char[(e - s - 1) / 4];
          for (int i = 0; i < cs.length; i++) {
            cs[i] = (char) hex(s + 1 + 4 * i, s + 5 + 4 * i);
          }
          return new Str(new String(cs));
        }
        case 'b': {
          byte[] b = new byte[(e - s - 1) / 2];
          for (int i = 0; i < b.length; i++) {
            b[i] = (byte) hex(s + 1 + 2 * i, s + 3 + 2 * i);
          }
          return b;
        }
        case '[': {
          DataType et = ((ArrayType) dt).elementType();
          List<Object> xs = new ArrayList<>();
          while (!closing(']')) {
            xs.add(inner(et));
          }
          return new GenericArrayData(xs.toArray());
        }
        case '{': {
          MapType mt = (MapType) dt;
          List<Object> ks = new ArrayList<>(), vs = new ArrayList<>();
          while (!closing('}')) {
            ks.add(inner(mt.keyType()));
            vs.add(inner(mt.valueType()));
          }
          return new ArrayBasedMapData(new GenericArrayData(ks.toArray()), new GenericArrayData(vs.toArray()));
        }
        case '(': {
          StructType st = (StructType) dt;
          Object[] fs = new Object[st.fields().length];
          for (int i = 0; i < fs.length; i++) {
            fs[i] = inner(st.fields()[i].dataType());
          }
          if (!closing(')')) {
            throw new IllegalArgumentException("struct has more fields than its type");
          }
          return new GenericInternalRow(fs);
        }
        default:
          throw new IllegalArgumentException("unknown token " + text(s, e));
      }
    }

    /** A nested value: strings become UTF8String, as Spark holds them. */
    Object inner(DataType dt) {
      Object v = catalyst(dt);
      if (v instanceof Str) {
        return UTF8String.fromString(((Str) v).s);
      }
      return v;
    }

    boolean closing(char c) {
      skipSpaces();
      if (pos < len && line[pos] == c && (pos + 1 == len || line[pos + 1] == ' ')) {
        pos++;
        return true;
      }
      if (pos >= len) {
        throw new IllegalArgumentException("missing " + c);
      }
      return false;
    }

    long hex(int s, int e) {
      long x = 0;
      for (int i = s; i < e; i++) {
        int c = line[i];
        int d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
        x = (x << 4) | d;
      }
      return x;
    }
  }

  // ---- results ----

  /** A growable byte buffer for one result line. */
  static final class Out {
    byte[] buf = new byte[256];
    int len;

    void ensure(int n) {
      if (len + n > buf.length) {
        buf = java.util.Arrays.copyOf(buf, Math.max(2 * buf.length, len + n));
      }
    }

    void put(char c) {
      ensure(1);
      buf[len++] = (byte) c;
    }

    void ascii(String s) {
      ensure(s.length());
      for (int i = 0; i < s.length(); i++) {
        buf[len++] = (byte) s.charAt(i);
      }
    }

    void hexFixed(long x, int digits) {
      ensure(digits);
      for (int i = digits - 1; i >= 0; i--) {
        buf[len++] = HEX[(int) (x >>> (4 * i)) & 0xf];
      }
    }

    void units(String s) {
      ensure(4 * s.length());
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        buf[len++] = HEX[(c >>> 12) & 0xf];
        buf[len++] = HEX[(c >>> 8) & 0xf];
        buf[len++] = HEX[(c >>> 4) & 0xf];
        buf[len++] = HEX[c & 0xf];
      }
    }
  }

  static void encodeError(Out o, Throwable t) {
    o.put('E');
    o.units(t.getClass().getName());
    o.put(':');
    String m;
    try {
      m = t.getMessage();
    } catch (Throwable e) {
      m = "(getMessage threw " + e.getClass().getName() + ")";
    }
    o.units(m == null ? "" : m);
  }

  /** Writes a result as it is: udfx applies Spark's conversion to the return type itself. */
  static void encode(Out o, Object r) {
    if (r == null) {
      o.put('N');
    } else if (r instanceof Double) {
      o.put('d');
      o.hexFixed(Double.doubleToRawLongBits((Double) r), 16);
    } else if (r instanceof Float) {
      o.put('f');
      o.hexFixed(Float.floatToRawIntBits((Float) r) & 0xffffffffL, 8);
    } else if (r instanceof Integer || r instanceof Long || r instanceof Short || r instanceof Byte) {
      o.put('i');
      o.ascii(Long.toString(((Number) r).longValue()));
    } else if (r instanceof Boolean) {
      o.put((Boolean) r ? 'T' : 'F');
    } else if (r instanceof String) {
      o.put('s');
      o.units((String) r);
    } else if (r instanceof java.math.BigDecimal) {
      java.math.BigDecimal d = (java.math.BigDecimal) r;
      o.put('m');
      o.ascii(d.unscaledValue().toString());
      o.put('@');
      o.ascii(Integer.toString(d.scale()));
    } else if (r instanceof scala.math.BigDecimal) {
      encode(o, ((scala.math.BigDecimal) r).bigDecimal());
    } else if (r instanceof BigInteger) {
      o.put('m');
      o.ascii(r.toString());
      o.ascii("@0");
    } else if (r instanceof scala.math.BigInt) {
      encode(o, ((scala.math.BigInt) r).bigInteger());
    } else if (r instanceof byte[]) {
      byte[] b = (byte[]) r;
      o.put('b');
      for (byte x : b) {
        o.hexFixed(x & 0xff, 2);
      }
    } else if (r instanceof java.sql.Date) {
      o.put('D');
      o.ascii(Integer.toString(DateTimeUtils.fromJavaDate((java.sql.Date) r)));
    } else if (r instanceof java.sql.Timestamp) {
      o.put('P');
      o.ascii(Long.toString(DateTimeUtils.fromJavaTimestamp((java.sql.Timestamp) r)));
    } else if (r instanceof java.time.LocalDate) {
      o.put('D');
      o.ascii(Integer.toString(DateTimeUtils.localDateToDays((java.time.LocalDate) r)));
    } else if (r instanceof java.time.Instant) {
      o.put('P');
      o.ascii(Long.toString(DateTimeUtils.instantToMicros((java.time.Instant) r)));
    } else if (r instanceof scala.Option) {
      scala.Option<?> opt = (scala.Option<?>) r;
      encode(o, opt.isEmpty() ? null : opt.get());
    } else if (r instanceof scala.collection.Map) {
      o.put('{');
      scala.collection.Iterator<?> it = ((scala.collection.Map<?, ?>) r).iterator();
      while (it.hasNext()) {
        scala.Tuple2<?, ?> kv = (scala.Tuple2<?, ?>) it.next();
        o.put(' ');
        encode(o, kv._1());
        o.put(' ');
        encode(o, kv._2());
      }
      o.ascii(" }");
    } else if (r instanceof java.util.Map) {
      o.put('{');
      for (java.util.Map.Entry<?, ?> kv : ((java.util.Map<?, ?>) r).entrySet()) {
        o.put(' ');
        encode(o, kv.getKey());
        o.put(' ');
        encode(o, kv.getValue());
      }
      o.ascii(" }");
    } else if (r instanceof Row) {
      Row row = (Row) r;
      o.put('(');
      for (int i = 0; i < row.length(); i++) {
        o.put(' ');
        encode(o, row.get(i));
      }
      o.ascii(" )");
    } else if (r instanceof scala.collection.Iterable) {
      o.put('[');
      scala.collection.Iterator<?> it = ((scala.collection.Iterable<?>) r).iterator();
      while (it.hasNext()) {
        o.put(' ');
        encode(o, it.next());
      }
      o.ascii(" ]");
    } else if (r instanceof scala.Product) {
      // A case class or tuple: Spark's encoder makes it a struct.
      scala.Product p = (scala.Product) r;
      o.put('(');
      for (int i = 0; i < p.productArity(); i++) {
        o.put(' ');
        encode(o, p.productElement(i));
      }
      o.ascii(" )");
    } else if (r instanceof Iterable) {
      o.put('[');
      for (Object x : (Iterable<?>) r) {
        o.put(' ');
        encode(o, x);
      }
      o.ascii(" ]");
    } else if (r.getClass().isArray()) {
      o.put('[');
      int n = java.lang.reflect.Array.getLength(r);
      for (int i = 0; i < n; i++) {
        o.put(' ');
        encode(o, java.lang.reflect.Array.get(r, i));
      }
      o.ascii(" ]");
    } else {
      throw new UnsupportedResult(r.getClass().getName());
    }
  }

  /** A result udfx has no token for: Spark could not convert it either. */
  static final class UnsupportedResult extends RuntimeException {
    UnsupportedResult(String cls) {
      super("the UDF returned a " + cls + ", which has no Spark SQL type");
    }
  }
}
