import java.io.PrintStream;

/**
 * scalac as the command line runs it (scala.tools.nsc.Main), with what it
 * prints sent to out: its reporter prints to scala.Console, which follows
 * withOut/withErr, not System.out.
 */
final class UdfxScalac {
  private UdfxScalac() {}

  static int run(String[] args, PrintStream out) {
    Object ok =
        scala.Console$.MODULE$.withOut(
            out,
            () -> scala.Console$.MODULE$.withErr(out, () -> scala.tools.nsc.Main.process(args)));
    return Boolean.TRUE.equals(ok) ? 0 : 1;
  }
}
