#!/usr/bin/env python3
"""Generate conformance data for udfx's embedded Spark SQL engine from real Apache Spark.

Every case of cases.py is evaluated by real Spark (local mode, pyspark from the
project's venv) with ANSI mode on and with ANSI mode off. When both modes give
the same result type and results, one record is written (id without suffix,
"ansi": true); when they differ, two records are written, "<id>/ansi" and
"<id>/noansi". Output: spark-<version>.jsonl next to this script, one JSON
object per line, keys sorted, cases in the order of cases.py.

Values are written as tokens of udfx's value codec (harness/value):
N, T/F, i<int>, f<8 hex>, d<16 hex>, m<unscaled>@<scale>, s<UTF-16 hex>,
b<hex>, D<days>, P<micros UTC>, [ ... ], { k v ... }, ( ... ).
A row on which Spark raises is {"error": {"class": ..., "condition": ...}}.

Run:  /work/main/.venv/bin/python harness/engine/testdata/conformance/generate.py
"""

import decimal
import json
import os
import re
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# The JVM and the Python side both run in UTC, so no value is shifted by a
# local time zone on its way through collect().
os.environ["TZ"] = "UTC"
time.tzset()
if not os.environ.get("JAVA_HOME") or "17" not in os.environ.get("JAVA_HOME", ""):
    os.environ["JAVA_HOME"] = "/usr/lib/jvm/java-17-openjdk-amd64"
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

import logging  # noqa: E402

import pyspark  # noqa: E402
from pyspark.errors.exceptions.base import PySparkException  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql import types as T  # noqa: E402
from py4j.protocol import Py4JJavaError  # noqa: E402

import cases as case_defs  # noqa: E402
import check  # noqa: E402

# Session settings recorded in README.md. ConvertToLocalRelation is excluded so
# that expressions over the input DataFrame run through Spark's normal
# (code-generated) projection instead of being pre-evaluated by the optimizer
# on the local rows, which is what a real job reading files does.
SESSION_CONF = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.shuffle.partitions": "1",
    "spark.sql.optimizer.excludedRules":
        "org.apache.spark.sql.catalyst.optimizer.ConvertToLocalRelation",
    "spark.driver.extraJavaOptions": "-Duser.timezone=UTC",
    "spark.executor.extraJavaOptions": "-Duser.timezone=UTC",
}


def start_spark():
    b = SparkSession.builder.master("local[2]").appName("udfx-conformance")
    for k, v in SESSION_CONF.items():
        b = b.config(k, v)
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel("OFF")
    logging.getLogger("pyspark").setLevel(logging.CRITICAL)
    logging.getLogger("SQLQueryContextLogger").setLevel(logging.CRITICAL)
    logging.getLogger("py4j").setLevel(logging.CRITICAL)
    return spark


# ---------------------------------------------------------------- encoding

DEC_CTX = decimal.Context(prec=200)


def utf16hex(s):
    return s.encode("utf-16-be", "surrogatepass").hex()


def encode(v, dt):
    """Token of value v (as collected from a wrapped projection) of Spark type dt."""
    if v is None:
        return "N"
    if isinstance(dt, T.BooleanType):
        return "T" if v else "F"
    if isinstance(dt, (T.ByteType, T.ShortType, T.IntegerType, T.LongType)):
        return "i%d" % v
    if isinstance(dt, T.FloatType):
        return "f" + struct.pack(">f", v).hex()
    if isinstance(dt, T.DoubleType):
        return "d" + struct.pack(">d", v).hex()
    if isinstance(dt, T.DecimalType):
        unscaled = v.scaleb(dt.scale, DEC_CTX)
        if unscaled != unscaled.to_integral_value(context=DEC_CTX):
            raise ValueError("decimal %s does not fit scale %d" % (v, dt.scale))
        u = int(unscaled)
        if decimal.Decimal(u).scaleb(-dt.scale, DEC_CTX) != v:
            raise ValueError("decimal %s lost in encoding" % v)
        return "m%d@%d" % (u, dt.scale)
    if isinstance(dt, (T.StringType, T.CharType, T.VarcharType)):
        return "s" + utf16hex(v)
    if isinstance(dt, T.BinaryType):
        return "b" + bytes(v).hex()
    if isinstance(dt, T.DateType):
        return "D%d" % v  # wrapped with unix_date
    if isinstance(dt, (T.TimestampType, T.TimestampNTZType)):
        return "P%d" % v  # wrapped with unix_micros
    if isinstance(dt, T.NullType):
        raise ValueError("non-null value %r of type void" % (v,))
    if isinstance(dt, T.ArrayType):
        return " ".join(["["] + [encode(x, dt.elementType) for x in v] + ["]"])
    if isinstance(dt, T.MapType):
        parts = ["{"]
        for k, x in v.items():
            parts += [encode(k, dt.keyType), encode(x, dt.valueType)]
        return " ".join(parts + ["}"])
    if isinstance(dt, T.StructType):
        return " ".join(["("] + [encode(v[i], f.dataType) for i, f in enumerate(dt.fields)] + [")"])
    raise ValueError("no token for type %s" % dt.simpleString())


def needs_wrap(dt):
    if isinstance(dt, (T.DateType, T.TimestampType, T.TimestampNTZType)):
        return True
    if isinstance(dt, T.ArrayType):
        return needs_wrap(dt.elementType)
    if isinstance(dt, T.MapType):
        return needs_wrap(dt.keyType) or needs_wrap(dt.valueType)
    if isinstance(dt, T.StructType):
        return any(needs_wrap(f.dataType) for f in dt.fields)
    return False


def wrap(e, dt, depth=0):
    """SQL that turns dates and timestamps inside e into integers (days, micros),
    so that values outside Python's datetime range survive collect() exactly."""
    if not needs_wrap(dt):
        return e
    if isinstance(dt, T.DateType):
        return "unix_date(%s)" % e
    if isinstance(dt, T.TimestampType):
        return "unix_micros(%s)" % e
    if isinstance(dt, T.TimestampNTZType):
        return "unix_micros(CAST(%s AS TIMESTAMP))" % e  # session zone is UTC
    x = "__w%d" % depth
    if isinstance(dt, T.ArrayType):
        return "transform(%s, %s -> %s)" % (e, x, wrap(x, dt.elementType, depth + 1))
    if isinstance(dt, T.MapType):
        k, v = x + "k", x + "v"
        out = e
        if needs_wrap(dt.keyType):
            out = "transform_keys(%s, (%s, %s) -> %s)" % (out, k, v, wrap(k, dt.keyType, depth + 1))
        if needs_wrap(dt.valueType):
            out = "transform_values(%s, (%s, %s) -> %s)" % (out, k, v, wrap(v, dt.valueType, depth + 1))
        return out
    if isinstance(dt, T.StructType):
        fields = ", ".join("'%s', %s" % (f.name, wrap("(%s).`%s`" % (e, f.name), f.dataType, depth + 1))
                           for f in dt.fields)
        return "if((%s) IS NULL, NULL, named_struct(%s))" % (e, fields)
    raise ValueError("cannot wrap %s" % dt.simpleString())


# ---------------------------------------------------------------- errors

COND_RE = re.compile(r"^\[([A-Z0-9_.]+)\]")


def error_of(exc):
    """{"class": java class, "condition": Spark error condition} of a Spark failure."""
    origin = getattr(exc, "_origin", None)
    if origin is None and isinstance(exc, Py4JJavaError):
        origin = exc.java_exception
    if origin is None:
        raise exc
    top = origin.getClass().getName()
    j = origin
    seen = 0
    while j is not None and seen < 20:
        seen += 1
        cond = None
        for m in ("getCondition", "getErrorClass"):
            try:
                cond = getattr(j, m)()
            except Exception:  # not a SparkThrowable
                cond = None
            if cond:
                break
        if not cond:
            msg = j.getMessage() or ""
            mm = COND_RE.match(msg)
            cond = mm.group(1) if mm else None
        if cond:
            return {"class": j.getClass().getName(), "condition": cond}
        j = j.getCause()
    return {"class": top, "condition": ""}


SPARK_ERRORS = (PySparkException, Py4JJavaError)


# ---------------------------------------------------------------- evaluation


class Evaluator:
    """Runs expressions in Spark. Inputs of one schema live in one view t, a
    JVM LocalRelation with a row number column __r; a batch of expressions that
    share the same input rows runs as one query, restricted to those rows."""

    def __init__(self, spark):
        self.spark = spark
        self.queries = 0

    def set_ansi(self, on):
        self.spark.conf.set("spark.sql.ansi.enabled", "true" if on else "false")

    def load(self, cols, rows):
        """Registers rows (Python values, converted by pyspark under the explicit
        schema) as view t with a row number column __r; returns the schema."""
        ddl = ", ".join("`%s` %s" % (n, t) for n, t in cols) + ", __r int"
        pydf = self.spark.createDataFrame([list(r) + [i] for i, r in enumerate(rows)], schema=ddl,
                                          verifySchema=True)
        # Copy the rows into a JVM LocalRelation once, so that queries do not
        # go back through Python workers.
        jdf = pydf._jdf
        self.queries += 1
        local = self.spark._jsparkSession.createDataFrame(jdf.collectAsList(), jdf.schema())
        local.createOrReplaceTempView("t")
        return pydf.schema

    def query(self, select_list, rowset):
        self.queries += 1
        if rowset is None:
            return self.spark.sql("SELECT " + select_list)
        where = ", ".join(str(r) for r in rowset)
        return self.spark.sql("SELECT __r, %s FROM t WHERE __r IN (%s)" % (select_list, where))

    def analyze(self, exprs, rowset):
        """{expr: (Spark type, JVM simpleString, None) or (None, None, error)}."""
        try:
            df = self.query(", ".join("%s AS c%d" % (e, i) for i, e in enumerate(exprs)), rowset)
            off = 0 if rowset is None else 1
            jf = df._jdf.schema().fields()
            return {e: (df.schema.fields[i + off].dataType, jf[i + off].dataType().simpleString(), None)
                    for i, e in enumerate(exprs)}
        except SPARK_ERRORS as err:
            if len(exprs) == 1:
                return {exprs[0]: (None, None, error_of(err))}
            mid = len(exprs) // 2
            out = self.analyze(exprs[:mid], rowset)
            out.update(self.analyze(exprs[mid:], rowset))
            return out

    def run(self, items, rowset):
        """items: list of (expr, type). Returns {expr: {row number: result}};
        rowset None means a literal-only query (row number 0). A failing query
        is split into halves by expressions, then by rows, down to single
        (expression, row) pairs, whose failure is the result."""
        sel = ", ".join("%s AS c%d" % (wrap("(%s)" % e, dt), i) for i, (e, dt) in enumerate(items))
        try:
            got = self.query(sel, rowset).collect()
            if rowset is None:
                if len(got) != 1:
                    raise RuntimeError("literal query returned %d rows" % len(got))
                return {e: {0: encode(got[0][i], dt)} for i, (e, dt) in enumerate(items)}
            if sorted(r[0] for r in got) != sorted(rowset):
                raise RuntimeError("query returned rows %s, expected %s" % ([r[0] for r in got], rowset))
            return {e: {r[0]: encode(r[i + 1], dt) for r in got} for i, (e, dt) in enumerate(items)}
        except SPARK_ERRORS as err:
            if len(items) > 1:
                mid = len(items) // 2
                out = self.run(items[:mid], rowset)
                out.update(self.run(items[mid:], rowset))
                return out
            if rowset is not None and len(rowset) > 1:
                # One expression fails on some of its rows: run it row by row
                # (errors tend to be dense here, so halving saves little).
                e = items[0][0]
                merged = {}
                for r in rowset:
                    merged.update(self.run(items, [r])[e])
                return {e: merged}
            return {items[0][0]: {(0 if rowset is None else rowset[0]): {"error": error_of(err)}}}


def evaluate_all(spark, cases):
    """Returns ({(case index, ansi): (result_type, results, input tokens, columns)}, queries)."""
    ev = Evaluator(spark)
    by_schema = {}
    for idx, c in enumerate(cases):
        by_schema.setdefault(tuple(c.columns), []).append(idx)
    out = {}
    for cols, idxs in by_schema.items():
        if cols:
            # Distinct input rows of this schema, in order of first use.
            keys, rows = {}, []
            for i in idxs:
                for r in cases[i].rows:
                    k = repr(r)
                    if k not in keys:
                        keys[k] = len(rows)
                        rows.append(r)
            schema = ev.load(cols, rows)
            fields = schema.fields[:-1]
            # The input tokens are read back from Spark, so they are the values
            # Spark holds (a float column holds 32-bit floats).
            sel = ", ".join(wrap("`%s`" % f.name, f.dataType) for f in fields)
            got = ev.query(sel, list(range(len(rows)))).collect()
            tokens = {r[0]: [encode(r[j + 1], f.dataType) for j, f in enumerate(fields)] for r in got}
            in_cols = [{"name": f.name, "type": f.dataType.simpleString()} for f in fields]
            rowsets = {i: tuple(keys[repr(r)] for r in cases[i].rows) for i in idxs}
        else:
            tokens, in_cols = {0: []}, []
            rowsets = {i: None for i in idxs}
        # An expression runs once over the union of the rows of its cases;
        # expressions with the same row set share a query.
        expr_rows = {}
        for i in idxs:
            if rowsets[i] is not None:
                expr_rows.setdefault(cases[i].expr, set()).update(rowsets[i])
        batches = {}
        for e in dict.fromkeys(cases[i].expr for i in idxs):
            key = None if not cols else tuple(sorted(expr_rows[e]))
            batches.setdefault(key, []).append(e)
        all_rows = None if not cols else list(range(len(tokens)))
        exprs = list(dict.fromkeys(cases[i].expr for i in idxs))
        for ansi in (True, False):
            ev.set_ansi(ansi)
            types = ev.analyze(exprs, all_rows)
            res = {}
            for rowset, bexprs in batches.items():
                items = [(e, types[e][0]) for e in bexprs if types[e][2] is None]
                if items:
                    res.update(ev.run(items, None if rowset is None else list(rowset)))
            for i in idxs:
                e = cases[i].expr
                order = [0] if rowsets[i] is None else list(rowsets[i])
                in_tokens = [tokens[r] for r in order]
                dt, simple, err = types[e]
                if err is not None:
                    out[(i, ansi)] = (None, [{"error": err}] * len(order), in_tokens, in_cols)
                else:
                    out[(i, ansi)] = (simple, [res[e][r] for r in order], in_tokens, in_cols)
    return out, ev.queries


def main():
    t0 = time.time()
    cases = case_defs.all_cases()
    ids = [c.id for c in cases]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise SystemExit("duplicate case ids: %s" % dup)
    spark = start_spark()
    version = spark.version
    if version != pyspark.__version__:
        raise SystemExit("JVM Spark %s differs from pyspark %s" % (version, pyspark.__version__))
    res, nq = evaluate_all(spark, cases)
    spark.stop()
    lines, unexpected = [], []
    for idx, c in enumerate(cases):
        on, off = res[(idx, True)], res[(idx, False)]
        same = on[0] == off[0] and on[1] == off[1]
        for ansi, r in ((True, on), (False, off)):
            if same and not ansi:
                continue
            rec = {
                "id": c.id if same else c.id + ("/ansi" if ansi else "/noansi"),
                "expr": c.expr,
                "columns": r[3],
                "rows": r[2],
                "ansi": ansi,
                "result_type": r[0],
                "results": r[1],
                "spark_version": version,
            }
            if (r[0] is None) != c.analysis_error:
                unexpected.append("%s (ansi=%s): %s" % (c.id, ansi, r[1][0] if r[0] is None else r[0]))
            lines.append(json.dumps(rec, sort_keys=True, ensure_ascii=False))
    if unexpected:
        raise SystemExit("analysis outcome differs from the case definition (analysis_error):\n  "
                         + "\n  ".join(unexpected))
    path = os.path.join(HERE, "spark-%s.jsonl" % version)
    with open(path, "w", encoding="utf-8") as f:
        for ln in lines:
            f.write(ln + "\n")
    print("wrote %d records (%d case definitions, %d queries) to %s in %.1fs"
          % (len(lines), len(cases), nq, os.path.relpath(path), time.time() - t0))
    check.main([path])


if __name__ == "__main__":
    main()
