// LiveRows finds, inside the Spark driver, the input rows on which an
// expression raises. live.py compiles it (javac, against pyspark's jars) and
// puts it on the driver's class path. A Spark query stops at the first row
// that raises, so one query cannot tell which rows do; calling Spark's own
// generated projection of each expression row by row here can, and costs one
// py4j call per group instead of several per row.

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;

public final class LiveRows {
    private static final Pattern CONDITION = Pattern.compile("^\\[([A-Z0-9_.]+)\\]");

    private LiveRows() {}

    /**
     * For each expression (an element of exprs, already resolved against
     * input, e.g. the project list of an optimized plan) and each row of
     * rows, evaluates the expression with an UnsafeProjection (code
     * generation, as a query does) and reports the rows that raise, one line
     * each: expression index, row number (the int input column at index
     * rnum), exception class and Spark error condition, tab-separated. Only
     * the expressions listed in which (indexes into exprs) are evaluated.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static String errors(scala.collection.Seq exprs, scala.collection.Seq input,
                                scala.collection.Seq rows, int rnum, int[] which) {
        StringBuilder out = new StringBuilder();
        int n = rows.length();
        for (int w : which) {
            Object e = exprs.apply(w);
            scala.collection.immutable.Seq one =
                scala.jdk.javaapi.CollectionConverters.asScala(List.of(e)).toSeq();
            UnsafeProjection proj = UnsafeProjection.create(one, input.toSeq());
            for (int i = 0; i < n; i++) {
                InternalRow row = (InternalRow) rows.apply(i);
                try {
                    proj.apply(row);
                } catch (Exception ex) {
                    out.append(w).append('\t').append(row.getInt(rnum)).append('\t')
                        .append(describe(ex)).append('\n');
                }
            }
        }
        return out.toString();
    }

    /** Class and condition of the first Spark error in t's cause chain. */
    static String describe(Throwable t) {
        Throwable j = t;
        for (int seen = 0; j != null && seen < 20; seen++, j = j.getCause()) {
            String cond = null;
            if (j instanceof SparkThrowable) {
                cond = ((SparkThrowable) j).getCondition();
            }
            if (cond == null || cond.isEmpty()) {
                String msg = j.getMessage();
                Matcher m = CONDITION.matcher(msg == null ? "" : msg);
                cond = m.find() ? m.group(1) : null;
            }
            if (cond != null && !cond.isEmpty()) {
                return j.getClass().getName() + "\t" + cond;
            }
        }
        return t.getClass().getName() + "\t";
    }
}
