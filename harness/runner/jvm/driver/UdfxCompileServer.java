import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * udfx's warm compiler: one JVM that runs scalac and javac once per
 * request, so that a run over a repository pays the compilers' start-up
 * (class loading, JIT) once instead of once per UDF. Each request is an
 * independent compile with its own arguments, as the command line would
 * run it: scalac's Main.process builds a fresh Global, javac's tool API a
 * fresh context.
 *
 * Protocol, on stdin: the tool's name ("scalac" or "javac"), the number
 * of arguments, then each argument on a line of its own. On stdout: the
 * exit code as a 4-byte int (-1: the server could not run the compile),
 * the output's length as a 4-byte int, then the output (UTF-8). The
 * compilers' own prints go to that output only.
 */
public final class UdfxCompileServer {
  public static void main(String[] unused) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    DataOutputStream out = new DataOutputStream(System.out);
    // Nothing a compiler prints may reach the protocol's stream.
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, "UTF-8");
    System.setOut(quiet);
    System.setErr(quiet);
    javax.tools.JavaCompiler javac = javax.tools.ToolProvider.getSystemJavaCompiler();
    // UdfxScalac is compiled only where Scala's jars are: looked up by
    // name, so that a machine without scalac still gets a warm javac.
    java.lang.reflect.Method scalac = null;
    try {
      scalac = Class.forName("UdfxScalac").getDeclaredMethod("run", String[].class, PrintStream.class);
    } catch (ClassNotFoundException e) {
      // No Scala here: scalac requests are answered -1.
    }
    for (;;) {
      String tool = in.readLine();
      if (tool == null) {
        return;
      }
      String count = in.readLine();
      if (count == null) {
        return;
      }
      String[] args = new String[Integer.parseInt(count.trim())];
      for (int i = 0; i < args.length; i++) {
        args[i] = in.readLine();
        if (args[i] == null) {
          return;
        }
      }
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      PrintStream ps = new PrintStream(buf, true, "UTF-8");
      int code;
      try {
        if (tool.equals("scalac") && scalac != null) {
          code = (Integer) scalac.invoke(null, args, ps);
        } else if (tool.equals("javac") && javac != null) {
          code = javac.run(null, ps, ps, expandClassPath(args));
        } else {
          ps.println("udfx compile server: no tool " + tool);
          code = -1;
        }
      } catch (Throwable t) {
        // A compiler that crashed here may have left the JVM unfit: the
        // client stops this server and runs the compile as a command.
        ps.println("udfx compile server: " + tool + " crashed: " + t);
        code = -1;
      }
      ps.flush();
      byte[] b = buf.toByteArray();
      out.writeInt(code);
      out.writeInt(b.length);
      out.write(b);
      out.flush();
    }
  }

  /**
   * javac's launcher expands a class path entry "dir/*" into the jars of
   * dir, in the order the folder lists them; the tool API takes entries
   * as they are, so the server expands them the same way.
   */
  static String[] expandClassPath(String[] args) {
    String[] out = args.clone();
    for (int i = 0; i + 1 < out.length; i++) {
      if (!out[i].equals("-cp") && !out[i].equals("-classpath") && !out[i].equals("--class-path")) {
        continue;
      }
      StringBuilder cp = new StringBuilder();
      for (String e : out[i + 1].split(java.io.File.pathSeparator, -1)) {
        if (e.endsWith("/*")) {
          java.io.File dir = new java.io.File(e.substring(0, e.length() - 2));
          String[] names = dir.list();
          if (names != null) {
            for (String n : names) {
              if (n.endsWith(".jar") || n.endsWith(".JAR")) {
                append(cp, new java.io.File(dir, n).getPath());
              }
            }
          }
          continue;
        }
        append(cp, e);
      }
      out[i + 1] = cp.toString();
    }
    return out;
  }

  private static void append(StringBuilder cp, String entry) {
    if (cp.length() > 0) {
      cp.append(java.io.File.pathSeparator);
    }
    cp.append(entry);
  }
}
