"""Case definitions for generate.py.

A case is an id, a Spark SQL expression, input columns (name, Spark type) and
input rows (Python values, converted by pyspark with the explicit schema). Cases
without columns are evaluated over literals only (SELECT expr, one row).
Every case is run with ANSI mode on and off; see generate.py.

Ids are <function>/<short-description>; the function is an item of the
supported list (check.py REQUIRED).
"""

import datetime as _dt
from decimal import Decimal as Dec

NAN = float("nan")
INF = float("inf")
NINF = float("-inf")
I32MAX, I32MIN = 2**31 - 1, -(2**31)
I64MAX, I64MIN = 2**63 - 1, -(2**63)


class Case:
    def __init__(self, cid, expr, columns, rows, analysis_error=False):
        self.id = cid
        self.expr = expr
        self.columns = columns
        self.rows = rows
        self.analysis_error = analysis_error


_CASES = []


def _split_top(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "(<":
            depth += 1
        elif ch in ")>":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def c(cid, expr, cols="", rows=None, analysis_error=False):
    """Adds a case. cols: "a int, b decimal(10,2)"; rows: list of row lists."""
    columns = []
    for part in _split_top(cols):
        name, typ = part.split(" ", 1)
        columns.append((name, typ.strip()))
    if not columns:
        rows = [[]]
    elif rows is None:
        raise ValueError("case %s has columns but no rows" % cid)
    _CASES.append(Case(cid, expr, columns, [list(r) for r in rows], analysis_error))


def _nslug(n):
    return "n%d" % n if n >= 0 else "neg%d" % -n


def d(s):
    return _dt.date.fromisoformat(s)


def ts(s):
    return _dt.datetime.fromisoformat(s).replace(tzinfo=_dt.timezone.utc)


def sq(s):
    """SQL string literal for s (single quotes, backslash and quote escaped)."""
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


# Shared input sets, so that many cases run in one Spark query.
DOUBLES = [[1.5], [-1.5], [2.5], [-2.5], [0.0], [-0.0], [NAN], [INF], [NINF], [None],
           [1e300], [4.9e-324], [0.1]]
TRIG = [[0.0], [-0.0], [1.0], [-1.0], [0.5], [3.141592653589793], [1e300], [NAN], [INF], [None]]
II = [[7, 2], [-7, 2], [7, -2], [-7, -2], [0, 5], [5, 0], [I32MAX, 1], [I32MIN, -1], [I32MIN, 1],
      [None, 1], [1, None]]
LL = [[7, 2], [-7, 2], [I64MAX, 1], [I64MIN, -1], [I64MIN, 1], [5, 0], [None, 3]]
DD = [[7.5, 2.0], [-7.5, 2.0], [1.0, 0.0], [-1.0, 0.0], [0.0, 0.0], [NAN, 1.0], [INF, NINF],
      [INF, 2.0], [0.1, 0.2], [-0.0, 0.0], [1e308, 10.0], [None, 1.0]]
BB = [[True, True], [True, False], [True, None], [False, True], [False, False], [False, None],
      [None, True], [None, False], [None, None]]
STRS = [["abc"], [""], [" "], ["  a b  "], ["\ta\n"], ["😀"], ["a😀b"], ["e\u0301"], ["ß"],
        ["İı"], ["Straße"], ["ǆemal"], [None]]
CASEY = [["hello WORLD"], ["ß"], ["Straße"], ["ǆ"], ["ǅ"], ["İstanbul"], ["ıi"], ["ΣΑΣ"],
         ["a\tb c"], ["  two  spaces"], ["😀x"], ["ﬁ"], [""], [None]]
DATES = [[d("2020-02-29")], [d("2021-02-28")], [d("1970-01-01")], [d("0001-01-01")],
         [d("9999-12-31")], [d("2019-12-31")], [d("2024-03-31")], [None]]
ARR = "a array<int>"
ARRS = [[[1, 2, 3]], [[]], [[None, 2]], [None], [[3, 1, 2, 1]]]


def literals():
    lit = [
        ("decimal-9.0", "9.0"), ("double-9.0D", "9.0D"), ("double-exp-1e2", "1e2"),
        ("double-exp-1.5E-3", "1.5E-3"), ("bigint-9L", "9L"), ("smallint-9S", "9S"),
        ("tinyint-9Y", "9Y"), ("decimal-9BD", "9BD"), ("decimal-1.50BD", "1.50BD"),
        ("int-9", "9"), ("int-max", "2147483647"), ("bigint-promoted", "2147483648"),
        ("decimal-promoted", "12345678901234567890"), ("decimal-leading-dot", ".5"),
        ("decimal-0.10", "0.10"), ("decimal-negative", "-0.0"), ("double-neg-zero", "-0.0D"),
        ("float-1.5F", "1.5F"), ("float-0.1F", "0.1F"), ("binary-0A", "X'0A'"),
        ("binary-empty", "X''"), ("binary-ff00", "X'FF00'"), ("date-leap", "DATE '2020-02-29'"),
        ("date-min", "DATE '0001-01-01'"), ("date-max", "DATE '9999-12-31'"),
        ("timestamp-micros", "TIMESTAMP '2020-01-01 12:34:56.789012'"),
        ("timestamp-epoch", "TIMESTAMP '1970-01-01 00:00:00'"),
        ("timestamp-pre-epoch", "TIMESTAMP '1969-12-31 23:59:59.999999'"),
        ("string-plain", "'abc'"), ("string-double-quoted", '"abc"'),
        ("string-escape-tab", r"'a\tb'"), ("string-escape-newline", r"'a\nb'"),
        ("string-escape-quote", r"'it\'s'"), ("string-escape-backslash", r"'a\\b'"),
        ("string-escape-unicode", r"'\u00e9'"), ("string-escape-unknown", r"'\d'"),
        ("string-escape-octal", r"'\101'"), ("string-adjacent", "'a' 'b'"),
        ("string-emoji", "'😀'"), ("string-empty", "''"), ("boolean-true", "TRUE"),
        ("null", "NULL"), ("decimal-scale-38", "0.00000000000000000000000000000000000001"),
        ("double-max", "1.7976931348623157E308D"), ("double-subnormal", "4.9E-324D"),
        ("sum-decimal-literals", "0.1 + 0.2"), ("sum-double-literals", "0.1D + 0.2D"),
    ]
    for name, e in lit:
        c("literal/" + name, e)


def arithmetic():
    c("add/int", "a + b", "a int, b int", II)
    c("add/bigint", "a + b", "a bigint, b bigint", LL)
    c("add/tinyint-overflow", "a + b", "a tinyint, b tinyint", [[127, 1], [-128, -1], [1, 2]])
    c("add/smallint-overflow", "a + b", "a smallint, b smallint", [[32767, 1], [1, 2]])
    c("add/double", "x + y", "x double, y double", DD)
    c("add/float", "x + y", "x float, y float", [[0.1, 0.2], [3.4028235e38, 3.4028235e38], [NAN, 1.0]])
    c("add/decimal", "a + b", "a decimal(10,2), b decimal(5,3)",
      [[Dec("1.25"), Dec("0.125")], [Dec("99999999.99"), Dec("99.999")], [None, Dec("1")]])
    c("add/decimal-overflow", "a + b", "a decimal(38,0), b decimal(38,0)",
      [[Dec("9" * 38), Dec(1)], [Dec(1), Dec(2)]])
    c("add/int-decimal-literal", "a + 1.5", "a int, b int", II)
    c("add/decimal-double", "1.5 + 1.5D")
    c("add/int-double", "a + 0.5D", "a int, b int", II)
    c("add/string-int", "'1' + 1")
    c("add/string-decimal-string", "'1.5' + 1")
    c("add/string-invalid", "'abc' + 1")
    c("add/date-int", "DATE '2020-02-28' + 1")
    c("add/null", "1 + NULL")
    c("subtract/int", "a - b", "a int, b int", II)
    c("subtract/bigint", "a - b", "a bigint, b bigint", LL)
    c("subtract/double", "x - y", "x double, y double", DD)
    c("subtract/decimal", "a - b", "a decimal(10,2), b decimal(5,3)",
      [[Dec("1.25"), Dec("0.125")], [Dec("-99999999.99"), Dec("99.999")]])
    c("subtract/date-int", "DATE '2020-03-01' - 1")
    c("multiply/int", "a * b", "a int, b int", II)
    c("multiply/int-overflow", "a * b", "a int, b int", [[65536, 65536], [46341, 46341], [-1, I32MIN]])
    c("multiply/bigint", "a * b", "a bigint, b bigint", LL + [[4294967296, 4294967296]])
    c("multiply/double", "x * y", "x double, y double", DD)
    c("multiply/decimal-10-2", "a * b", "a decimal(10,2), b decimal(10,2)",
      [[Dec("1.25"), Dec("2.50")], [Dec("-99999999.99"), Dec("99999999.99")], [Dec("0.01"), Dec("0.01")]])
    c("multiply/decimal-38-10", "a * b", "a decimal(38,10), b decimal(38,10)",
      [[Dec("1.0000000001"), Dec("1.0000000001")], [Dec("123456789.123456789"), Dec("2")],
       [Dec("1" + "0" * 27), Dec("1" + "0" * 27)]])
    c("multiply/decimal-literals", "1.1 * 1.1")
    c("multiply/decimal-double", "CAST(1.1 AS DECIMAL(10,1)) * 1.1D")
    c("multiply/int-decimal", "a * 0.5", "a int, b int", II)
    c("divide/int-int", "a / b", "a int, b int", II)
    c("divide/bigint", "a / b", "a bigint, b bigint", LL)
    c("divide/double", "x / y", "x double, y double", DD)
    c("divide/decimal-38-0-by-3", "CAST(1 AS DECIMAL(38,0)) / 3")
    c("divide/decimal-literals", "1.0 / 3")
    c("divide/decimal-columns", "a / b", "a decimal(10,2), b decimal(10,2)",
      [[Dec("1.00"), Dec("3.00")], [Dec("10.00"), Dec("4.00")], [Dec("1.00"), Dec("0.00")],
       [Dec("-2.00"), Dec("3.00")]])
    c("divide/decimal-38-18", "a / b", "a decimal(38,18), b decimal(38,18)",
      [[Dec("1"), Dec("3")], [Dec("2"), Dec("7")]])
    c("divide/decimal-double", "1.5 / 2D")
    c("divide/int-by-zero-literal", "1 / 0")
    c("divide/double-by-zero-literal", "1.0D / 0")
    c("divide/double-by-neg-zero", "1.0D / -0.0D")
    c("divide/mixed-int-double", "7 / 2.0D")
    c("remainder/int", "a % b", "a int, b int", II)
    c("remainder/bigint", "a % b", "a bigint, b bigint", LL)
    c("remainder/double", "x % y", "x double, y double", DD)
    c("remainder/decimal", "a % b", "a decimal(10,2), b decimal(10,2)",
      [[Dec("7.50"), Dec("2.00")], [Dec("-7.50"), Dec("2.00")], [Dec("1.00"), Dec("0.00")]])
    c("mod/int", "mod(a, b)", "a int, b int", II)
    c("mod/double", "mod(x, y)", "x double, y double", DD)
    c("div/int", "a div b", "a int, b int", II)
    c("div/bigint", "a div b", "a bigint, b bigint", LL)
    c("div/decimal", "a div b", "a decimal(10,2), b decimal(10,2)",
      [[Dec("7.50"), Dec("2.00")], [Dec("-7.50"), Dec("2.00")], [Dec("1.00"), Dec("0.00")]])
    c("div/double", "x div y", "x double, y double", [[7.5, 2.0], [-7.5, 2.0], [1.0, 0.0]],
      analysis_error=True)
    c("pmod/int", "pmod(a, b)", "a int, b int", II)
    c("pmod/bigint", "pmod(a, b)", "a bigint, b bigint", LL)
    c("pmod/double", "pmod(x, y)", "x double, y double", DD)
    c("pmod/decimal", "pmod(a, b)", "a decimal(10,2), b decimal(10,2)",
      [[Dec("-7.50"), Dec("2.00")], [Dec("7.50"), Dec("-2.00")], [Dec("1.00"), Dec("0.00")]])
    c("unary-minus/int", "-a", "a int, b int", II)
    c("unary-minus/bigint", "-a", "a bigint, b bigint", LL)
    c("unary-minus/double", "-x", "x double, y double", DD)
    c("unary-minus/decimal", "-a", "a decimal(10,2), b decimal(10,2)",
      [[Dec("7.50"), Dec("2.00")], [Dec("0.00"), Dec("0.00")]])
    c("unary-minus/tinyint-min", "-a", "a tinyint, b tinyint", [[-128, 0], [127, 0]])
    c("bitand/int", "a & b", "a int, b int", II)
    c("bitand/bigint", "a & b", "a bigint, b bigint", LL)
    c("bitand/literal-neg", "-1 & 255")
    c("bitor/int", "a | b", "a int, b int", II)
    c("bitor/tinyint", "a | b", "a tinyint, b tinyint", [[127, -128], [1, 2]])
    c("bitxor/int", "a ^ b", "a int, b int", II)
    c("bitxor/bigint", "a ^ b", "a bigint, b bigint", LL)
    c("bitnot/int", "~a", "a int, b int", II)
    c("bitnot/bigint", "~a", "a bigint, b bigint", LL)
    c("bitnot/tinyint", "~a", "a tinyint, b tinyint", [[0, 0], [127, 0], [-128, 0]])
    c("concat-op/strings", "a || b", "a string, b string",
      [["a", "b"], ["a", None], [None, None], ["", ""], ["😀", "e\u0301"]])
    c("concat-op/ints", "1 || 2")
    c("concat-op/double", "1.5D || 'x'")
    c("concat-op/arrays", "array(1, 2) || array(3)")


def comparisons():
    ops = [("eq", "="), ("eq2", "=="), ("eqnullsafe", "<=>"), ("neq", "!="), ("neq2", "<>"),
           ("lt", "<"), ("lte", "<="), ("gt", ">"), ("gte", ">=")]
    for name, op in ops:
        c(name + "/double", "x %s y" % op, "x double, y double",
          [[NAN, NAN], [NAN, INF], [INF, NAN], [0.0, -0.0], [-0.0, 0.0], [1.0, None], [None, None],
           [INF, INF], [NINF, 1.0], [1.0, 2.0]])
    for name, op in ops:
        c(name + "/int", "a %s b" % op, "a int, b int", II)
    for name, op in [("eq", "="), ("lt", "<"), ("gt", ">"), ("lte", "<="), ("gte", ">="), ("neq", "!=")]:
        c(name + "/string", "a %s b" % op, "a string, b string",
          [["a", "b"], ["B", "a"], ["\uffff", "😀"], ["", " "], ["abc", "abc"], ["a", "a "],
           ["é", "e\u0301"], [None, "a"]])
    c("eq/float", "x = y", "x float, y float", [[NAN, NAN], [0.1, 0.1], [0.0, -0.0]])
    c("eq/float-vs-double", "x = 0.1D", "x float", [[0.1], [0.5]])
    c("eq/decimal-vs-double", "0.1 = 0.1D")
    c("eq/decimal-scales", "1.0 = 1.00")
    c("eq/int-string", "1 = '1'")
    c("eq/int-string-decimal", "1 = '1.0'")
    c("eq/int-string-invalid", "1 = 'abc'")
    c("eq/date-string", "DATE '2020-01-01' = '2020-01-01'")
    c("eq/date", "a = b", "a date, b date", [[d("2020-02-29"), d("2020-02-29")], [d("0001-01-01"), None]])
    c("eq/boolean-string", "TRUE = 'true'")
    c("eq/null", "NULL = NULL")
    c("eqnullsafe/null-null", "NULL <=> NULL")
    c("eqnullsafe/string", "a <=> b", "a string, b string", [["a", None], [None, None], ["a", "a"]])
    c("lt/date", "a < b", "a date, b date", [[d("0001-01-01"), d("9999-12-31")], [d("2020-02-29"), None]])
    c("lt/decimal-double", "0.1 < 0.1D")
    c("gt/int-bigint", "a > 2147483647L", "a int, b int", II)
    c("and/3vl", "a AND b", "a boolean, b boolean", BB)
    c("or/3vl", "a OR b", "a boolean, b boolean", BB)
    c("not/3vl", "NOT a", "a boolean, b boolean", BB)
    c("isnull/values", "a IS NULL", "a boolean, b boolean", BB)
    c("isnotnull/values", "a IS NOT NULL", "a boolean, b boolean", BB)
    c("isnull/nan", "x IS NULL", "x double, y double", DD)
    c("istrue/values", "a IS TRUE", "a boolean, b boolean", BB)
    c("isnottrue/values", "a IS NOT TRUE", "a boolean, b boolean", BB)
    c("isfalse/values", "a IS FALSE", "a boolean, b boolean", BB)
    c("isnotfalse/values", "a IS NOT FALSE", "a boolean, b boolean", BB)
    c("in/int", "a IN (1, 2, 7)", "a int, b int", II)
    c("in/with-null-list", "a IN (1, NULL)", "a int, b int", II)
    c("in/null-value", "NULL IN (1, 2)")
    c("in/nan", "x IN (CAST('NaN' AS DOUBLE), 1.0D)", "x double, y double", DD)
    c("in/neg-zero", "-0.0D IN (0.0D)")
    c("in/string", "a IN ('a', 'b')", "a string, b string", [["a", "x"], ["A", "x"], [None, "x"]])
    c("in/mixed-types", "1 IN ('1', 2)")
    c("in/decimal-double", "0.1 IN (0.1D)")
    c("notin/int", "a NOT IN (1, 2, 7)", "a int, b int", II)
    c("notin/with-null-list", "a NOT IN (1, NULL)", "a int, b int", II)
    c("notin/null-value", "NULL NOT IN (1)")
    c("between/int", "a BETWEEN 0 AND 7", "a int, b int", II)
    c("between/reversed-bounds", "5 BETWEEN 7 AND 1")
    c("between/null-bound", "a BETWEEN NULL AND 10", "a int, b int", II)
    c("between/not", "a NOT BETWEEN 0 AND 7", "a int, b int", II)
    c("between/double-nan", "x BETWEEN 0.0D AND CAST('Infinity' AS DOUBLE)", "x double, y double", DD)
    c("between/string", "a BETWEEN 'a' AND 'b'", "a string, b string", [["a", ""], ["b", ""], ["ba", ""], ["B", ""]])


def conditionals():
    c("casewhen/basic", "CASE WHEN a > 0 THEN 'pos' WHEN a < 0 THEN 'neg' ELSE 'zero' END", "a int, b int", II)
    c("casewhen/no-else", "CASE WHEN a > 5 THEN a END", "a int, b int", II)
    c("casewhen/null-literal-condition", "CASE WHEN NULL THEN 1 ELSE 2 END", analysis_error=True)
    c("casewhen/null-condition", "CASE WHEN CAST(NULL AS BOOLEAN) THEN 1 ELSE 2 END")
    c("casewhen/int-double", "CASE WHEN a > 0 THEN 1 ELSE 2.5D END", "a int, b int", II)
    c("casewhen/int-decimal", "CASE WHEN a > 0 THEN 1 ELSE 2.5 END", "a int, b int", II)
    c("casewhen/int-string", "CASE WHEN a > 0 THEN 1 ELSE 'x' END", "a int, b int", II)
    c("casesimple/basic", "CASE a WHEN 7 THEN 'seven' WHEN -7 THEN 'minus seven' ELSE 'other' END",
      "a int, b int", II)
    c("casesimple/null-subject", "CASE b WHEN NULL THEN 'null' ELSE 'else' END", "a int, b int", II)
    c("casesimple/nan", "CASE x WHEN CAST('NaN' AS DOUBLE) THEN 'nan' ELSE 'other' END", "x double, y double", DD)
    c("if/basic", "if(a > 0, 'pos', 'nonpos')", "a int, b int", II)
    c("if/null-condition", "if(NULL, 1, 2)")
    c("if/types", "if(a > 0, a, 1.5D)", "a int, b int", II)
    c("if/lazy-branch", "if(b = 0, -1, a div b)", "a int, b int", II)
    c("coalesce/basic", "coalesce(a, b, -1)", "a int, b int", II)
    c("coalesce/all-null", "coalesce(NULL, NULL)")
    c("coalesce/int-decimal", "coalesce(NULL, 1, 2.5)")
    c("coalesce/int-string", "coalesce(a, 'x')", "a int, b int", II)
    c("coalesce/lazy", "coalesce(1, 1 / 0)")
    c("nullif/int", "nullif(a, b)", "a int, b int", II + [[3, 3]])
    c("nullif/double", "nullif(x, y)", "x double, y double", DD + [[NAN, NAN]])
    c("nullif/string", "nullif(a, b)", "a string, b string", [["a", "a"], ["a", "b"], [None, "a"], ["a", None]])
    c("nvl/basic", "nvl(a, b)", "a int, b int", II)
    c("nvl/types", "nvl(a, 1.5D)", "a int, b int", II)
    c("nvl2/basic", "nvl2(a, 'has', 'none')", "a int, b int", II)
    c("nvl2/types", "nvl2(a, b, 2.5)", "a int, b int", II)
    c("ifnull/basic", "ifnull(a, b)", "a string, b string", [["a", "b"], [None, "b"], [None, None]])


def casts():
    ints = ["12", " 12 ", "\t12\n", "1e3", "+1", "-0", "0x1F", "abc", "١٢", "1.0", "1.5", "-1.9",
            "2147483647", "2147483648", "-2147483649", "", " ", "1_000", "00012", "12abc", "--1",
            "\u00a012", "１２", "9223372036854775808"]
    for i, s in enumerate(ints):
        c("cast/string-to-int/%02d" % i, "CAST(s AS INT)", "s string", [[s]])
    for i, s in enumerate(["9223372036854775807", "9223372036854775808", "-9223372036854775808", " 7 ", "1.9"]):
        c("cast/string-to-bigint/%02d" % i, "CAST(s AS BIGINT)", "s string", [[s]])
    for i, s in enumerate(["127", "128", "-129", "1.5"]):
        c("cast/string-to-tinyint/%02d" % i, "CAST(s AS TINYINT)", "s string", [[s]])
    c("cast/string-to-smallint", "CAST(s AS SMALLINT)", "s string", [["32767"], ["-32768"]])
    c("cast/string-to-smallint-overflow", "CAST(s AS SMALLINT)", "s string", [["32768"]])
    dbls = ["1e3", " 1.5 ", "NaN", "nan", "Infinity", "-Infinity", "inf", "-inf", "+Inf", "1d", "1f",
            "0x1p3", "abc", "", "1e400", "4.9e-325", "١٢", "-0", "0.1", ".5", "5.", "1,5", "1_0",
            "\n2.5\t", "Infinityx"]
    for i, s in enumerate(dbls):
        c("cast/string-to-double/%02d" % i, "CAST(s AS DOUBLE)", "s string", [[s]])
    for i, s in enumerate(["0.1", "3.4028236e38", "1e-46", "NaN", "x"]):
        c("cast/string-to-float/%02d" % i, "CAST(s AS FLOAT)", "s string", [[s]])
    decs = [("1.005", "3,2"), ("1.015", "3,2"), ("-1.005", "3,2"), ("123.456", "4,1"), ("1e2", "5,0"),
            (" 1.5 ", "5,2"), ("abc", "5,2"), ("", "5,2"), ("0.000000000000000000001", "38,18"),
            ("99999999999999999999999999999999999999", "38,0"), ("1E+2", "10,2"), ("NaN", "10,2")]
    for i, (s, ps) in enumerate(decs):
        c("cast/string-to-decimal/%02d" % i, "CAST(s AS DECIMAL(%s))" % ps, "s string", [[s]])
    bools = ["t", "true", "y", "yes", "1", "f", "false", "n", "no", "0", "TRUE", " true ", "Yes",
             "2", "", "abc", "on", "1.0"]
    for i, s in enumerate(bools):
        c("cast/string-to-boolean/%02d" % i, "CAST(s AS BOOLEAN)", "s string", [[s]])
    dates = ["2020-02-29", "2021-02-29", "2020-1-5", "2020-01-01T12:00", "2020-01-01 xyz", "2020",
             "2020-06", " 2020-01-01 ", "0001-01-01", "9999-12-31", "+10000-01-01", "abc", "",
             "2020-13-01", "20200101", "2020/01/01", "-0001-01-01", "2020-01-01 12:34:56"]
    for i, s in enumerate(dates):
        c("cast/string-to-date/%02d" % i, "CAST(s AS DATE)", "s string", [[s]])
    tss = ["2020-01-01 12:34:56", "2020-01-01T12:34:56.123456Z", "2020-01-01 12:34:56+02:00",
           "2020-01-01", "2020-02-30 00:00:00", "abc", "1970-01-01 00:00:00.0000001",
           "0001-01-01 00:00:00", "9999-12-31 23:59:59.999999", "2020-01-01 24:00:00",
           " 2020-01-01 01:02:03 ", "2020-03-08 02:30:00 America/New_York", "1582-10-10 00:00:00"]
    for i, s in enumerate(tss):
        c("cast/string-to-timestamp/%02d" % i, "CAST(s AS TIMESTAMP)", "s string", [[s]])
    c("cast/int-to-string", "CAST(a AS STRING)", "a int, b int", II)
    c("cast/bigint-to-string", "CAST(a AS STRING)", "a bigint, b bigint", LL)
    dtos = [1.0, 1e10, 1e7, 1e6, 9999999.0, 12345678.9, 1e-5, 1e-3, 0.001, -0.0, 0.0, NAN, INF, NINF,
            1.7976931348623157e308, 4.9e-324, 0.30000000000000004, 123456789.123, 1e21, 100.0, 1e20,
            -1.5e-7, 2.2250738585072014e-308]
    c("cast/double-to-string", "CAST(x AS STRING)", "x double", [[v] for v in dtos])
    ftos = [0.1, 1e10, 3.4028234663852886e38, 1.401298464324817e-45, -0.0, NAN, 1e7, 1e-3, 16777217.0,
            1.0, 123456.7]
    c("cast/float-to-string", "CAST(x AS STRING)", "x float", [[v] for v in ftos])
    c("cast/decimal-to-string", "CAST(a AS STRING)", "a decimal(38,18)",
      [[Dec("0")], [Dec("1.5")], [Dec("-0.0000001")], [Dec("12345678901234567890.123456789012345678")]])
    c("cast/decimal-small-to-string", "CAST(a AS STRING)", "a decimal(10,8)",
      [[Dec("0.0000001")], [Dec("1.50")], [Dec("0")]])
    c("cast/decimal-scale0-to-string", "CAST(a AS STRING)", "a decimal(5,0)", [[Dec("0")], [Dec("-12345")]])
    c("cast/boolean-to-string", "CAST(a AS STRING)", "a boolean, b boolean", BB)
    c("cast/date-to-string", "CAST(d AS STRING)", "d date", DATES)
    c("cast/timestamp-to-string", "CAST(t AS STRING)", "t timestamp",
      [[ts("2020-01-01 00:00:00")], [ts("2020-01-01 12:34:56.100000")], [ts("2020-01-01 12:34:56.000123")],
       [ts("0001-01-01 00:00:00")], [ts("1969-12-31 23:59:59.999999")], [None]])
    c("cast/binary-to-string", "CAST(X'C3A9' AS STRING)")
    c("cast/string-to-binary", "CAST(s AS BINARY)", "s string", [["é"], ["😀"], [""]])
    dtoi = [1.9, -1.9, 0.5, -0.0, 2147483647.9, 2147483648.0, -2147483649.0, 1e10, NAN, INF, NINF, None]
    c("cast/double-to-int", "CAST(x AS INT)", "x double", [[v] for v in dtoi])
    c("cast/double-to-bigint", "CAST(x AS BIGINT)", "x double",
      [[9.3e18], [-9.3e18], [9.2e18], [NAN], [1.5]])
    c("cast/double-to-tinyint", "CAST(x AS TINYINT)", "x double", [[300.0], [-129.0], [127.9]])
    c("cast/double-to-smallint", "CAST(x AS SMALLINT)", "x double", [[40000.0], [1.5]])
    c("cast/float-to-int", "CAST(x AS INT)", "x float", [[1.9], [3e9], [NAN]])
    c("cast/int-to-tinyint", "CAST(a AS TINYINT)", "a int", [[300], [-129], [127], [None]])
    c("cast/int-to-smallint", "CAST(a AS SMALLINT)", "a int", [[70000], [-1]])
    c("cast/bigint-to-int", "CAST(a AS INT)", "a bigint", [[I64MAX], [4294967296], [-1]])
    c("cast/double-to-decimal", "CAST(x AS DECIMAL(10,2))", "x double",
      [[0.1], [1.005], [1.015], [-2.675], [1e20], [NAN], [INF], [-0.0], [None]])
    c("cast/double-to-decimal-38", "CAST(x AS DECIMAL(38,18))", "x double", [[0.1], [1e20], [1e-20]])
    c("cast/decimal-to-int", "CAST(a AS INT)", "a decimal(20,2)",
      [[Dec("1.99")], [Dec("-1.99")], [Dec("2147483648.00")], [Dec("99999999999999999.99")]])
    c("cast/decimal-to-double", "CAST(a AS DOUBLE)", "a decimal(38,18)",
      [[Dec("0.1")], [Dec("12345678901234567890.123456789012345678")]])
    c("cast/decimal-to-decimal", "CAST(a AS DECIMAL(5,1))", "a decimal(10,3)",
      [[Dec("1.25")], [Dec("1.35")], [Dec("-1.25")], [Dec("9999.95")], [Dec("123456.789")]])
    c("cast/int-to-boolean", "CAST(a AS BOOLEAN)", "a int, b int", II)
    c("cast/double-to-boolean", "CAST(x AS BOOLEAN)", "x double", [[0.0], [-0.0], [NAN], [0.5]])
    c("cast/boolean-to-int", "CAST(a AS INT)", "a boolean, b boolean", BB)
    c("cast/boolean-to-double", "CAST(TRUE AS DOUBLE)")
    c("cast/double-to-float", "CAST(x AS FLOAT)", "x double",
      [[0.1], [1e40], [-1e40], [1e-50], [NAN], [3.4028235677973366e38]])
    c("cast/int-to-double", "CAST(a AS DOUBLE)", "a int, b int", II)
    c("cast/bigint-to-double", "CAST(a AS DOUBLE)", "a bigint", [[9007199254740993], [I64MAX]])
    c("cast/bigint-to-float", "CAST(a AS FLOAT)", "a bigint", [[16777217], [I64MIN]])
    c("cast/int-to-decimal", "CAST(a AS DECIMAL(5,2))", "a int", [[123], [1000], [-999]])
    c("cast/float-to-double", "CAST(x AS DOUBLE)", "x float", [[0.1], [NAN], [-0.0]])
    c("cast/timestamp-to-date", "CAST(t AS DATE)", "t timestamp",
      [[ts("2020-01-01 23:59:59.999999")], [ts("1969-12-31 23:59:59")]])
    c("cast/date-to-timestamp", "CAST(d AS TIMESTAMP)", "d date", DATES)
    c("cast/timestamp-to-bigint", "CAST(t AS BIGINT)", "t timestamp",
      [[ts("1969-12-31 23:59:59.5")], [ts("2020-01-01 00:00:00")]])
    c("cast/null-to-int", "CAST(NULL AS INT)")
    c("cast/int-to-date", "CAST(1 AS DATE)", analysis_error=True)
    for i, (s, t) in enumerate([("abc", "INT"), ("12", "INT"), ("1e10", "INT"), ("1.5", "DECIMAL(2,1)"),
                                ("2021-02-29", "DATE"), ("yes", "BOOLEAN"), ("x", "DOUBLE")]):
        c("try_cast/string-%02d" % i, "try_cast(s AS %s)" % t, "s string", [[s]])
    c("try_cast/double-to-int", "try_cast(x AS INT)", "x double", [[1e10], [NAN], [1.9]])
    c("try_cast/int-to-tinyint", "try_cast(a AS TINYINT)", "a int", [[300], [5]])
    c("cast-colon/string-to-int", "'12'::int")
    c("cast-colon/double-to-int", "x::int", "x double", [[1.9], [1e10]])
    c("cast-colon/invalid", "s::int", "s string", [["abc"]])
    c("cast-colon/to-decimal", "'1.005'::decimal(3,2)")


def math():
    unary = ["abs", "ceil", "floor", "round", "bround", "sqrt", "cbrt", "exp", "ln", "log10", "log2",
             "signum", "sign", "rint", "negative", "positive", "isnan", "degrees", "radians", "sinh", "cosh", "tanh"]
    for f in unary:
        c("%s/double" % f, "%s(x)" % f, "x double", DOUBLES)
    for f in ["sin", "cos", "tan", "asin", "acos", "atan"]:
        c("%s/double" % f, "%s(x)" % f, "x double", TRIG)
    for f in ["abs", "negative", "signum", "positive"]:
        c("%s/int" % f, "%s(a)" % f, "a int, b int", II)
    c("abs/bigint", "abs(a)", "a bigint, b bigint", LL)
    c("abs/decimal", "abs(a)", "a decimal(10,2)", [[Dec("-1.25")], [Dec("0.00")], [None]])
    c("abs/tinyint-min", "abs(a)", "a tinyint", [[-128], [5]])
    c("abs/float", "abs(x)", "x float", [[-0.0], [-1.5], [NAN]])
    for f in ["ceil", "floor"]:
        c("%s/decimal" % f, "%s(a)" % f, "a decimal(10,2)",
          [[Dec("1.25")], [Dec("-1.25")], [Dec("-0.50")], [Dec("99999999.99")], [None]])
        c("%s/int" % f, "%s(a)" % f, "a int, b int", II)
        c("%s/scale" % f, "%s(x, 1)" % f, "x double", DOUBLES)
        c("%s/negative-scale" % f, "%s(a, -1)" % f, "a int, b int", II)
        c("%s/huge-double" % f, "%s(x)" % f, "x double", [[1e20], [-1e20], [9.3e18]])
    c("ceil/ceiling-alias", "ceiling(2.1D)")
    c("rint/ties", "rint(x)", "x double", [[0.5], [1.5], [2.5], [-0.5], [-2.5], [4503599627370495.5], [-0.0], [None]])
    for f in ["round", "bround"]:
        c("%s/2dp" % f, "%s(x, 2)" % f, "x double",
          [[2.675], [1.005], [-2.675], [0.125], [0.135], [1e300], [NAN], [INF], [-0.0], [None], [0.001]])
        c("%s/decimal-literal-2.5" % f, "%s(2.5)" % f)
        c("%s/decimal-literal-neg-2.5" % f, "%s(-2.5)" % f)
        c("%s/double-literal-2.5" % f, "%s(2.5D)" % f)
        c("%s/double-literal-neg-2.5" % f, "%s(-2.5D)" % f)
        c("%s/decimal" % f, "%s(a, 1)" % f, "a decimal(10,3)",
          [[Dec("1.250")], [Dec("1.350")], [Dec("-1.250")], [Dec("9999999.950")], [Dec("0.049")]])
        c("%s/int-negative-scale" % f, "%s(a, -1)" % f, "a int, b int",
          [[15, 0], [25, 0], [-15, 0], [I32MAX, 0], [None, 0]])
        c("%s/tinyint-overflow" % f, "%s(a, -1)" % f, "a tinyint", [[125], [-125], [5]])
        c("%s/float" % f, "%s(x, 1)" % f, "x float", [[0.25], [0.35], [NAN]])
        c("%s/decimal-neg-scale" % f, "%s(a, -2)" % f, "a decimal(10,3)",
          [[Dec("1250.000")], [Dec("-150.000")], [Dec("9999999.999")]])
    c("round/2.675D", "round(2.675D, 2)")
    c("bround/2.675D", "bround(2.675D, 2)")
    c("round/12345-neg2", "round(12345, -2)")
    c("round/bigint-max", "round(a, -2)", "a bigint, b bigint", LL)
    c("sqrt/int", "sqrt(a)", "a int, b int", II)
    c("sqrt/decimal", "sqrt(2.0)")
    c("cbrt/neg", "cbrt(-27.0D)")
    c("exp/overflow", "exp(710D)")
    c("ln/zero-and-negative", "ln(x)", "x double, y double", DD)
    c("log/two-arg", "log(x, y)", "x double, y double",
      [[10.0, 100.0], [2.0, 8.0], [1.0, 10.0], [0.0, 1.0], [-1.0, 2.0], [10.0, 0.0], [NAN, 1.0],
       [2.0, INF], [None, 2.0]])
    c("log/one-arg", "log(x)", "x double", DOUBLES)
    c("log10/exact", "log10(1000D)")
    c("log2/exact", "log2(8D)")
    c("log2/int", "log2(a)", "a int, b int", II)
    pw = [[2.0, 10.0], [0.0, -1.0], [-0.0, -1.0], [-8.0, 1.0 / 3], [NAN, 0.0], [1.0, NAN], [-1.0, INF],
          [2.0, 0.5], [10.0, 308.0], [10.0, 309.0], [-2.0, 3.0], [None, 1.0]]
    c("pow/double", "pow(x, y)", "x double, y double", pw)
    c("power/double", "power(x, y)", "x double, y double", pw)
    c("pow/int", "pow(a, b)", "a int, b int", II)
    c("atan2/double", "atan2(x, y)", "x double, y double",
      [[0.0, -0.0], [-0.0, -0.0], [0.0, 0.0], [-0.0, 0.0], [1.0, 0.0], [NAN, 1.0], [INF, INF], [None, 1.0]])
    c("sinh/overflow", "sinh(710D)")
    c("cosh/overflow", "cosh(-710D)")
    c("degrees/pi", "degrees(pi())")
    c("radians/180", "radians(180)")
    c("signum/decimal", "signum(a)", "a decimal(10,2)", [[Dec("-3.50")], [Dec("0.00")]])
    c("sign/neg-zero", "sign(-0.0D)")
    c("greatest/ints", "greatest(a, b)", "a int, b int", II)
    c("greatest/doubles", "greatest(x, y)", "x double, y double", DD)
    c("greatest/all-null", "greatest(CAST(NULL AS INT), NULL)")
    c("greatest/mixed-types", "greatest(1, 2.5D, 3L)")
    c("greatest/int-decimal", "greatest(1, 2.5)")
    c("greatest/strings", "greatest('a', 'B', 'ab')")
    c("greatest/int-string", "greatest(1, '2')", analysis_error=True)
    c("least/ints", "least(a, b)", "a int, b int", II)
    c("least/doubles", "least(x, y)", "x double, y double", DD)
    c("least/null-skipped", "least(3, NULL, 1)")
    c("least/dates", "least(DATE '2020-01-01', DATE '0001-01-01')")
    c("mod/decimal", "mod(7.5, 2)")
    c("negative/decimal", "negative(1.50)")
    c("positive/string", "positive('1')")
    c("hypot/double", "hypot(x, y)", "x double, y double",
      DD + [[3.0, 4.0], [INF, NAN], [1e200, 1e200], [1e-200, 1e-200]])
    c("hypot/int", "hypot(3, 4)")
    c("isnan/float", "isnan(x)", "x float", [[NAN], [1.0], [None]])
    c("isnan/null", "isnan(NULL)")
    c("nanvl/double", "nanvl(x, y)", "x double, y double", DD + [[NAN, NAN], [NAN, None]])
    c("nanvl/literal", "nanvl(CAST('NaN' AS DOUBLE), 1.0D)")
    c("nanvl/float-int", "nanvl(CAST('NaN' AS FLOAT), 1)")


def strings():
    for f in ["length", "char_length", "octet_length", "reverse", "upper", "lower", "initcap", "ascii",
              "trim", "ltrim", "rtrim"]:
        c("%s/mixed" % f, "%s(s)" % f, "s string", STRS)
    for f in ["upper", "lower", "initcap"]:
        c("%s/special-case" % f, "%s(s)" % f, "s string", CASEY)
    c("length/binary", "length(X'C3A9')")
    c("octet_length/binary", "octet_length(X'0001')")
    subs = [(1, 3), (0, 2), (-3, 2), (-10, 3), (10, 2), (2, -1), (2, 0), (-1, 5), (0, 0), (5, 1), (1, 100)]
    for pos, ln in subs:
        c("substring/abcde-%d-%d" % (pos, ln), "substring(s, %d, %d)" % (pos, ln), "s string",
          [["abcde"], ["a😀b"], [""], [None]])
    c("substring/no-length", "substring(s, 3)", "s string", [["abcde"], ["a😀bc"], ["ab"]])
    c("substring/no-length-negative", "substring(s, -2)", "s string", [["abcde"], ["a😀"]])
    c("substring/from-for", "substring(s FROM 2 FOR 2)", "s string", [["abcde"], ["😀😀😀"]])
    c("substring/int-min-len", "substring('abc', 2, 2147483647)")
    c("substring/combining", "substring(s, 2, 1)", "s string", [["e\u0301x"]])
    c("substring/null-pos", "substring('abc', NULL, 1)")
    c("substr/abc-2", "substr(s, 2)", "s string", [["abcde"], ["😀x"], [None]])
    c("substr/negative", "substr(s, -1, 1)", "s string", [["abcde"], ["x😀"]])
    for n in [2, 0, -1, 10]:
        c("left/" + _nslug(n), "left(s, %d)" % n, "s string", [["abcde"], ["😀😀x"], [None]])
        c("right/" + _nslug(n), "right(s, %d)" % n, "s string", [["abcde"], ["x😀😀"], [None]])
    c("concat/strings", "concat(a, b)", "a string, b string",
      [["a", "b"], ["a", None], [None, "b"], ["", ""], ["😀", "\u0301"]])
    c("concat/three", "concat('a', 'b', 'c')")
    c("concat/ints", "concat(1, 2.5D, TRUE)")
    c("concat/no-args", "concat()")
    c("concat/arrays", "concat(array(1), array(2, NULL))")
    c("concat/array-null", "concat(array(1), CAST(NULL AS ARRAY<INT>))")
    c("concat/array-void-null", "concat(array(1), NULL)", analysis_error=True)
    c("concat_ws/skips-null", "concat_ws(',', a, b, 'z')", "a string, b string",
      [["a", "b"], ["a", None], [None, None], ["", ""]])
    c("concat_ws/null-sep", "concat_ws(NULL, 'a', 'b')")
    c("concat_ws/array", "concat_ws('-', array('a', NULL, 'b'), 'c')")
    c("concat_ws/only-sep", "concat_ws(',')")
    c("concat_ws/empty-sep", "concat_ws('', 'a', 'b')")
    c("concat_ws/int-arg", "concat_ws(',', 'a', 1)")
    c("lower/turkish-dotted-I", "lower('İ')")
    c("upper/sharp-s", "upper('ß')")
    c("upper/dotless-i", "upper('ı')")
    c("upper/dz", "upper('ǆ')")
    c("initcap/dz", "initcap('ǆemal ǆ')")
    c("initcap/words", "initcap('hello   wORLD-foo bar_baz')")
    c("initcap/sharp-s", "initcap('ßa')")
    c("trim/both-from", "trim(BOTH 'x' FROM s)", "s string", [["xxaxx"], ["x"], ["axa"], ["  xa  "], [None]])
    c("trim/leading-from", "trim(LEADING 'x' FROM s)", "s string", [["xxaxx"], ["x"], ["axa"]])
    c("trim/trailing-from", "trim(TRAILING 'x' FROM s)", "s string", [["xxaxx"], ["x"], ["axa"]])
    c("trim/charset", "trim(BOTH 'xy' FROM s)", "s string", [["yxaxy"], ["xyzyx"]])
    c("trim/from-only", "trim(FROM s)", "s string", [["  a  "], ["\ta\t"]])
    c("trim/two-arg", "trim(s, 'x')", "s string", [["xxaxx"], ["a"]])
    c("trim/emoji-charset", "trim(BOTH '😀' FROM s)", "s string", [["😀a😀"], ["😀"]])
    c("trim/whitespace-kinds", "trim(s)", "s string",
      [[" a "], ["\u00a0a\u00a0"], ["\u3000a"], ["\ra\r"], ["\fa"], ["\x0ba"]])
    c("trim/empty-trim-str", "trim(BOTH '' FROM 'aba')")
    c("ltrim/two-arg", "ltrim(s, 'x')", "s string", [["xxaxx"], ["a"]])
    c("rtrim/two-arg", "rtrim(s, 'x')", "s string", [["xxaxx"], ["a"]])
    pads = [("'abc', 5, 'xy'", "5-xy"), ("'abc', 8, 'xy'", "8-xy"), ("'abcdef', 3, 'x'", "truncate"),
            ("'abc', 5, ''", "empty-pad"), ("'abc', -1, 'x'", "negative-len"), ("'abc', 5", "default-space"),
            ("'abc', 0, 'x'", "zero-len"), ("'a😀b', 2, 'x'", "emoji-truncate"), ("'a', 4, '😀e'", "emoji-pad"),
            ("NULL, 3, 'x'", "null"), ("'abc', 5, NULL", "null-pad")]
    for args, name in pads:
        c("lpad/" + name, "lpad(%s)" % args)
        c("rpad/" + name, "rpad(%s)" % args)
    c("lpad/column", "lpad(s, 4, '0')", "s string", [["7"], ["12345"], [""], [None]])
    c("lpad/binary", "lpad(X'01', 3, X'00')")
    c("replace/basic", "replace(s, 'b', 'X')", "s string", [["abcabc"], [""], ["bbb"], [None]])
    c("replace/empty-search", "replace('abc', '', 'X')")
    c("replace/two-arg", "replace('abcb', 'b')")
    c("replace/emoji", "replace('a😀b😀', '😀', '-')")
    c("replace/null-replacement", "replace('abc', 'b', NULL)")
    c("translate/basic", "translate('abcde', 'bd', 'BD')")
    c("translate/delete", "translate('abcde', 'bcd', 'X')")
    c("translate/duplicate-from", "translate('aaa', 'aa', 'xy')")
    c("translate/emoji", "translate('a😀b', '😀', 'x')")
    c("translate/empty-from", "translate('abc', '', 'x')")
    c("translate/column", "translate(s, 'abc', 'ABC')", "s string", STRS)
    for args, name in [("'abc', 'c'", "found"), ("'abc', ''", "empty"), ("'abc', 'x'", "not-found"),
                       ("'a😀b', 'b'", "emoji"), ("NULL, 'a'", "null"), ("'abcabc', 'bc'", "first")]:
        c("instr/" + name, "instr(%s)" % args)
    for args, name in [("'b', 'abcb'", "basic"), ("'b', 'abcb', 3", "pos3"), ("'b', 'abcb', 0", "pos0"),
                       ("'b', 'abcb', -1", "pos-negative"), ("'', 'abc'", "empty"), ("'', 'abc', 3", "empty-pos3"),
                       ("'', 'abc', 5", "empty-pos-past-end"), ("'x', 'abc'", "not-found"),
                       ("'b', 'a😀b'", "emoji"), ("'b', 'abcb', 10", "pos-past-end"), ("NULL, 'abc'", "null"),
                       ("'b', 'abcb', NULL", "null-pos")]:
        c("locate/" + name, "locate(%s)" % args)
    c("position/in", "position('b' IN 'abcb')")
    c("position/args", "position('b', 'abcb', 3)")
    c("position/emoji", "position('c' IN 'a😀c')")
    splits = [("'a,b,,', ','", "trailing-empties"), ("'a.b', '.'", "regex-dot"), ("'a1b22c', '[0-9]+'", "regex-class"),
              ("'a,b,c', ',', 2", "limit-2"), ("'a,b,c', ',', -1", "limit-neg"), ("'a,b,c', ',', 0", "limit-0"),
              ("'', ','", "empty-input"), ("'abc', ''", "empty-pattern"), ("',a,', ','", "leading-empty"),
              ("'a|b', '|'", "pipe"), ("'a|b', '\\\\|'", "escaped-pipe"), ("NULL, ','", "null"),
              ("'a😀b😀', '😀'", "emoji"), ("'a b  c', ' '", "spaces"), ("'a,b,,', ',', 10", "limit-trailing")]
    for args, name in splits:
        c("split/" + name, "split(%s)" % args)
    rr = [("'abc123', '[0-9]', 'X'", "digits"), ("'abc', '', '-'", "empty-pattern"),
          ("'abc123def', '([a-z]+)([0-9]+)', '$2$1'", "group-refs"), ("'a.b.c', '\\\\.', '/'", "escaped-dot"),
          ("'aaa', 'a*', 'X'", "star"), ("'abc', '(?i)B', 'x'", "case-insensitive-flag"),
          ("'a😀b', '.', 'x'", "emoji-dot"), ("NULL, 'a', 'b'", "null"), ("'abcabc', 'b', 'X', 4", "position"),
          ("'line1\\nline2', '^l', 'L'", "anchor-no-multiline"), ("'a$b', '\\\\$', 'dollar'", "dollar-literal"),
          ("'abc', 'b', '\\\\$0'", "escaped-dollar-replacement")]
    for args, name in rr:
        c("regexp_replace/" + name, "regexp_replace(%s)" % args)
    c("regexp_replace/column", "regexp_replace(s, '\\\\s+', ' ')", "s string", STRS)
    rx = [("'abc123', '([a-z]+)([0-9]+)', 2", "group2"), ("'abc123', '([a-z]+)([0-9]+)', 0", "group0"),
          ("'abc123', '([a-z]+)([0-9]+)', 1", "group1"), ("'abc', '([0-9]+)', 1", "no-match"),
          ("'abc', '(x)?abc', 1", "optional-group-unmatched"), ("'abc', '(a)', 2", "group-out-of-range"),
          ("'abc', 'b'", "default-group"), ("'abc', 'b', 0", "no-group-pattern"),
          ("NULL, 'a', 0", "null"), ("'a😀b', '(.)b', 1", "emoji")]
    for args, name in rx:
        c("regexp_extract/" + name, "regexp_extract(%s)" % args)
    c("regexp_extract/column", "regexp_extract(s, '([0-9]+)', 1)", "s string", [["ab12cd34"], ["none"], [""], [None]])
    for args, name in [("'abc', 'b'", "partial"), ("'abc', '^b'", "anchored"), ("'abc', '(?i)ABC'", "flag"),
                       ("'abc', ''", "empty"), ("NULL, 'a'", "null"), ("'a\\nb', 'a.b'", "dot-newline"),
                       ("'😀', '^.$'", "emoji-one-char")]:
        c("regexp_like/" + name, "regexp_like(%s)" % args)
    c("rlike/basic", "s rlike 'b+'", "s string", [["abbc"], ["ac"], [""], [None]])
    c("rlike/digits", "s rlike '^\\\\d+$'", "s string", [["123"], ["١٢"], ["12a"]])
    c("rlike/regexp-alias", "'abc' regexp 'bc' or 'abc' rlike 'x'")
    likes = [("'abc' like 'a%'", "prefix"), ("'abc' like 'a_c'", "underscore"), ("'abc' like 'A%'", "case-sensitive"),
             ("'a%c' like 'a\\\\%c'", "escaped-percent"), ("'abc' like 'a\\\\%c'", "escaped-percent-no-match"),
             ("'a_c' like 'a!_c' ESCAPE '!'", "custom-escape"), ("'a\\nb' like 'a%b'", "percent-newline"),
             ("'a\\nb' like 'a_b'", "underscore-newline"), ("'😀' like '_'", "underscore-emoji"),
             ("'' like '%'", "empty"), ("NULL like 'a'", "null"), ("'abc' like 'abc'", "exact"),
             ("'a.c' like 'a.c'", "regex-meta-literal"), ("'abc' like '%b%'", "contains"),
             ("'ab' like 'a[b]'", "brackets-literal")]
    for e, name in likes:
        c("like/" + name, e)
    c("like/not", "s NOT LIKE 'a%'", "s string", [["abc"], ["bcd"], [None]])
    c("like/column", "s LIKE '%😀%'", "s string", STRS)
    for e, name in [("'ABC' ilike 'a%'", "prefix"), ("'ß' ilike 'SS'", "sharp-s"), ("'İ' ilike 'i'", "dotted-I"),
                    ("'ǅ' ilike 'ǆ'", "dz-titlecase"), ("'abc' ilike 'A_C'", "underscore"), ("NULL ilike 'a'", "null")]:
        c("ilike/" + name, e)
    c("reverse/combining", "reverse('e\u0301a')")
    c("reverse/array", "reverse(array(1, NULL, 3))")
    for args, name in [("'ab', 3", "basic"), ("'a', 0", "zero"), ("'a', -1", "negative"), ("'', 5", "empty"),
                       ("'😀', 2", "emoji"), ("NULL, 2", "null"), ("'a', NULL", "null-count")]:
        c("repeat/" + name, "repeat(%s)" % args)
    c("ascii/emoji", "ascii('😀')")
    c("ascii/empty", "ascii('')")
    c("ascii/int", "ascii(5)")
    c("chr/values", "chr(a)", "a bigint", [[65], [256], [321], [-1], [0], [127], [255], [None]])
    c("chr/char-alias", "concat(chr(66), char(67))")
    for f in ["startswith", "endswith", "contains"]:
        c("%s/basic" % f, "%s(a, b)" % f, "a string, b string",
          [["abc", "ab"], ["abc", "bc"], ["abc", ""], ["", ""], ["abc", "x"], ["a😀", "😀"], [None, "a"],
           ["a", None], ["ABC", "ab"]])
    c("url_encode/basic", "url_encode(s)", "s string",
      [["a b&c=ü"], ["~*'()!"], ["😀"], [""], ["a+b"], ["/path?q=1"], [None]])
    c("url_decode/basic", "url_decode(s)", "s string",
      [["a+b%20c"], ["%C3%BC"], ["%F0%9F%98%80"], [""], ["plain"], [None]])
    c("url_decode/percent-zz", "url_decode(s)", "s string", [["%zz"]])
    c("url_decode/truncated", "url_decode(s)", "s string", [["abc%2"]])
    c("url_decode/invalid-utf8", "url_decode(s)", "s string", [["%FF"]])
    c("format_number/double", "format_number(x, 2)", "x double",
      [[1234567.891], [-0.005], [0.005], [0.015], [0.025], [2.675], [NAN], [INF], [-0.0], [1e20], [None]])
    c("format_number/zero-dp", "format_number(x, 0)", "x double", [[0.5], [1.5], [2.5], [-2.5], [1234.5]])
    c("format_number/negative-dp", "format_number(1234.5D, -1)")
    c("format_number/decimal", "format_number(a, 3)", "a decimal(20,4)",
      [[Dec("1234567.8915")], [Dec("-0.0005")], [Dec("0.0015")]])
    c("format_number/int", "format_number(a, 1)", "a int, b int", II)
    c("format_number/pattern", "format_number(1234567.891D, '#,###.#')")
    c("format_number/pattern-zeros", "format_number(5.1D, '000.00')")
    c("format_number/float", "format_number(x, 3)", "x float", [[0.1], [1e10]])
    for n in [3, 0, -1]:
        c("space/" + _nslug(n), "space(%d)" % n)
    c("space/concat", "concat('[', space(2), ']')")


def dates():
    c("to_date/default", "to_date(s)", "s string",
      [["2020-02-29"], ["2021-02-29"], ["2020-01-01 12:34:56"], ["0001-01-01"], ["9999-12-31"], ["2020-1-5"],
       ["abc"], [""], [None], ["2020-01-01T10:00:00Z"]])
    c("to_date/default-invalid", "to_date(s)", "s string", [["abc"]])
    c("to_date/default-bad-day", "to_date(s)", "s string", [["2021-02-29"]])
    fmts = [("yyyy-MM-dd", ["2020-02-29", "2020-2-9", "2021-02-29", "2020-02-29 10:00", "abc"]),
            ("yyyyMMdd", ["20200131", "2020131", "20201301", "20200229"]),
            ("dd/MM/yyyy", ["31/01/2020", "1/1/2020", "29/02/2021", "31/12/9999"]),
            ("d/M/yyyy", ["1/1/2020", "01/01/2020"]),
            ("yyyy-MM-dd HH:mm:ss", ["2020-01-01 23:59:59"])]
    for fmt, vals in fmts:
        slug = fmt.replace("/", "_").replace(" ", "_").replace(":", "")
        for i, v in enumerate(vals):
            c("to_date/%s/%02d" % (slug, i), "to_date(s, '%s')" % fmt, "s string", [[v]])
    c("to_date/timestamp", "to_date(t)", "t timestamp", [[ts("2020-01-01 23:59:59.999999")], [ts("1969-12-31 00:00:01")]])
    c("to_date/date", "to_date(d)", "d date", DATES)
    c("date_add/values", "date_add(d, 1)", "d date", DATES)
    c("date_add/negative", "date_add(d, -1)", "d date", DATES)
    c("date_add/string-input", "date_add('2020-02-28', 1)")
    c("date_add/big", "date_add(d, n)", "d date, n int",
      [[d("2020-01-01"), 2000000], [d("2020-01-01"), -2000000], [d("2020-01-01"), I32MAX], [d("2020-01-01"), None]])
    c("date_add/smallint", "date_add(DATE '2020-01-01', 1S)")
    c("date_sub/values", "date_sub(d, 1)", "d date", DATES)
    c("date_sub/negative", "date_sub(d, -366)", "d date", DATES)
    c("date_sub/string-input", "date_sub('2020-03-01', 1)")
    c("datediff/values", "datediff(a, b)", "a date, b date",
      [[d("2020-03-01"), d("2020-02-01")], [d("2020-02-01"), d("2020-03-01")], [d("9999-12-31"), d("0001-01-01")],
       [d("2020-01-01"), None]])
    c("datediff/strings", "datediff('2020-03-01', '2020-02-28 23:59:59')")
    c("datediff/timestamps", "datediff(TIMESTAMP '2020-01-02 00:00:00', TIMESTAMP '2020-01-01 23:59:59')")
    for f in ["year", "month", "day", "dayofmonth", "dayofweek", "quarter", "last_day"]:
        c("%s/dates" % f, "%s(d)" % f, "d date", DATES)
    c("year/string", "year('2020-02-29')")
    c("year/timestamp", "year(t)", "t timestamp", [[ts("2020-12-31 23:59:59.999999")], [ts("1969-12-31 23:59:59")]])
    c("month/timestamp", "month(t)", "t timestamp", [[ts("2020-12-31 23:59:59.999999")]])
    c("day/invalid-string", "day('2020-13-01')")
    c("dayofweek/string", "dayofweek('2024-06-09')")
    c("quarter/string", "quarter('2020-11-30')")
    c("last_day/string", "last_day('2021-02-10')")
    am = [[d("2020-01-31"), 1], [d("2020-02-29"), 12], [d("2020-02-29"), -12], [d("2020-03-31"), -1],
          [d("2021-01-31"), 1], [d("2020-04-30"), 1], [d("9999-12-31"), 1], [d("0001-01-01"), -1],
          [d("2020-01-15"), 0], [None, 1], [d("2020-01-31"), None]]
    c("add_months/values", "add_months(d, n)", "d date, n int", am)
    c("add_months/string-input", "add_months('2020-01-31', 1)")
    fmts = ["yyyy-MM-dd", "dd/MM/yyyy HH:mm", "EEE", "EEEE", "MMM", "MMMM", "D", "yy", "E, d MMM yyyy", "u",
            "yyyy-MM-dd'T'HH:mm:ss.SSS", "Q", "w"]
    for i, f in enumerate(fmts):
        c("date_format/date-%02d" % i, "date_format(d, %s)" % sq(f), "d date", DATES)
    c("date_format/timestamp", "date_format(t, 'yyyy-MM-dd HH:mm:ss.SSSSSS')", "t timestamp",
      [[ts("2020-01-01 12:34:56.123456")], [ts("0001-01-01 00:00:00")], [None]])
    c("date_format/string-input", "date_format('2020-02-29', 'MM/dd/yyyy')")
    c("date_format/am-pm", "date_format(TIMESTAMP '2020-01-01 13:05:00', 'h:mm a')")


def arrays():
    c("array/ints", "array(1, 2, 3)")
    c("array/with-null", "array(1, NULL)")
    c("array/empty", "array()")
    c("array/int-decimal", "array(1, 2.5)")
    c("array/int-double", "array(1, 2.5D)")
    c("array/int-string", "array('a', 1)")
    c("array/nested", "array(array(1), array(2, 3), NULL)")
    c("array/columns", "array(a, b)", "a int, b int", II)
    c("array/strings", "array('a', '😀', NULL, '')")
    c("array/doubles", "array(CAST('NaN' AS DOUBLE), -0.0D, 0.0D)")
    for f in ["size", "cardinality"]:
        c("%s/column" % f, "%s(a)" % f, ARR, ARRS)
        c("%s/null-literal" % f, "%s(CAST(NULL AS ARRAY<INT>))" % f)
        c("%s/literal" % f, "%s(array(1, NULL))" % f)
        c("%s/map" % f, "%s(map(1, 'a', 2, 'b'))" % f)
    for idx in [1, -1, 3, -3, 0, 4, -4]:
        c("element_at/idx%s" % (idx if idx >= 0 else "m%d" % -idx), "element_at(a, %d)" % idx, ARR,
          [[[1, 2, 3]], [[None, 2, 3]], [None]])
    c("element_at/null-index", "element_at(array(1, 2), NULL)", analysis_error=True)
    c("element_at/null-int-index", "element_at(array(1, 2), CAST(NULL AS INT))")
    c("element_at/map-found", "element_at(map('a', 1), 'a')")
    c("element_at/map-missing", "element_at(map('a', 1), 'b')")
    c("element_at/bigint-index", "element_at(array(1, 2), 1L)", analysis_error=True)
    c("element_at/subscript-0based", "a[1]", ARR, [[[1, 2, 3]], [[1]], [None]])
    c("element_at/subscript-out-of-range", "a[5]", ARR, [[[1, 2, 3]]])
    c("element_at/subscript-negative", "a[-1]", ARR, [[[1, 2, 3]]])
    c("element_at/try", "try_element_at(array(1, 2), 5)")
    for args, name in [("array(1, NULL), 1", "found-with-null"), ("array(1, NULL), 2", "missing-with-null"),
                       ("array(1, 2), CAST(NULL AS INT)", "null-value"), ("array(1, 2), 3", "missing"),
                       ("array(CAST('NaN' AS DOUBLE)), CAST('NaN' AS DOUBLE)", "nan"),
                       ("array(0.0D), -0.0D", "neg-zero"), ("array(1, 2), 1.0D", "int-vs-double"),
                       ("CAST(NULL AS ARRAY<INT>), 1", "null-array"), ("array('a', 'b'), 'b'", "strings"),
                       ("array(), 1", "empty")]:
        c("array_contains/" + name, "array_contains(%s)" % args)
    c("array_contains/void-null-value", "array_contains(array(1, 2), NULL)", analysis_error=True)
    c("array_contains/column", "array_contains(a, 2)", ARR, ARRS)
    for args, name in [("2, 2", "2-2"), ("-2, 2", "neg-start"), ("1, 10", "len-past-end"), ("5, 1", "start-past-end"),
                       ("-5, 2", "neg-start-before"), ("0, 1", "zero-start"), ("1, -1", "negative-length"),
                       ("1, 0", "zero-length"), ("-1, 1", "last")]:
        c("slice/" + name, "slice(a, %s)" % args, ARR, [[[1, 2, 3]], [[]], [None]])
    sa = "array(3, NULL, 1, 2)"
    sd = "array(CAST('NaN' AS DOUBLE), 1.0D, -0.0D, 0.0D, CAST('-Infinity' AS DOUBLE), NULL, CAST('Infinity' AS DOUBLE))"
    c("sort_array/asc-nulls-first", "sort_array(%s)" % sa)
    c("sort_array/desc-nulls-last", "sort_array(%s, false)" % sa)
    c("sort_array/doubles", "sort_array(%s)" % sd)
    c("sort_array/doubles-desc", "sort_array(%s, false)" % sd)
    c("sort_array/strings", "sort_array(array('b', 'a', 'B', '😀', '\uffff', ''))")
    c("sort_array/column", "sort_array(a)", ARR, ARRS)
    c("array_sort/nulls-last", "array_sort(%s)" % sa)
    c("array_sort/doubles", "array_sort(%s)" % sd)
    c("array_sort/comparator", "array_sort(array(3, 1, 2), (l, r) -> r - l)")
    c("array_sort/column", "array_sort(a)", ARR, ARRS)
    c("array_distinct/ints", "array_distinct(array(1, 1, NULL, 2, NULL))")
    c("array_distinct/nan", "array_distinct(array(CAST('NaN' AS DOUBLE), CAST('NaN' AS DOUBLE), 1.0D))")
    c("array_distinct/neg-zero", "array_distinct(array(0.0D, -0.0D))")
    c("array_distinct/neg-zero-first", "array_distinct(array(-0.0D, 0.0D, -0.0D))")
    c("array_distinct/strings", "array_distinct(array('a', 'A', 'a', 'e\u0301', 'é'))")
    c("array_distinct/column", "array_distinct(a)", ARR, ARRS)
    for f in ["array_max", "array_min"]:
        c("%s/ints" % f, "%s(array(3, NULL, 1))" % f)
        c("%s/doubles" % f, "%s(%s)" % (f, sd))
        c("%s/empty" % f, "%s(array())" % f)
        c("%s/all-null" % f, "%s(array(CAST(NULL AS INT)))" % f)
        c("%s/strings" % f, "%s(array('b', 'a', '😀', '\uffff'))" % f)
        c("%s/column" % f, "%s(a)" % f, ARR, ARRS)
        c("%s/neg-zero" % f, "%s(array(0.0D, -0.0D))" % f)
    for args, name in [("array(1, 2, 2), 2", "first"), ("array(1, 2), 5", "missing"), ("array(1, NULL), NULL", "null"),
                       ("array(NULL, 1), 1", "after-null"), ("array(CAST('NaN' AS DOUBLE)), CAST('NaN' AS DOUBLE)", "nan"),
                       ("array(0.0D), -0.0D", "neg-zero")]:
        c("array_position/" + name, "array_position(%s)" % args)
    c("array_position/column", "array_position(a, 1)", ARR, ARRS)
    for args, name in [("array('a', NULL, 'b'), ','", "skips-null"), ("array('a', NULL, 'b'), ',', 'x'", "null-replacement"),
                       ("array(), ','", "empty"), ("array(CAST(NULL AS STRING)), ','", "only-null"),
                       ("array('a', 'b'), NULL", "null-delimiter"), ("array(1, 2), '-'", "ints"),
                       ("array('a', NULL), ',', NULL", "null-replacement-null")]:
        c("array_join/" + name, "array_join(%s)" % args)
    for args, name in [("array(array(1, 2), array(3))", "basic"), ("array(array(1), NULL)", "null-inner"),
                       ("array(array(1), array())", "empty-inner"), ("array(array(NULL), array(2))", "null-element"),
                       ("array(array(array(1)), array(array(2)))", "one-level")]:
        c("flatten/" + name, "flatten(%s)" % args)
    c("transform/double", "transform(a, x -> x * 2)", ARR, ARRS)
    c("transform/index", "transform(a, (x, i) -> x + i)", ARR, ARRS)
    c("transform/overflow", "transform(array(2147483647), x -> x + 1)")
    c("transform/to-string", "transform(array(1.5D, -0.0D), x -> CAST(x AS STRING))")
    c("transform/outer-column", "transform(array(1, 2), x -> x + b)", "a int, b int", II)
    c("filter/gt", "filter(a, x -> x > 1)", ARR, ARRS)
    c("filter/index", "filter(a, (x, i) -> i % 2 = 0)", ARR, ARRS)
    c("filter/null-predicate", "filter(array(1, NULL, 3), x -> x > 1)")
    c("filter/is-null", "filter(array(1, NULL), x -> x IS NULL)")
    c("exists/basic", "exists(a, x -> x > 2)", ARR, ARRS)
    c("exists/null-3vl", "exists(array(1, NULL), x -> x > 1)")
    c("exists/null-3vl-true", "exists(array(3, NULL), x -> x > 1)")
    c("forall/basic", "forall(a, x -> x > 0)", ARR, ARRS)
    c("forall/null-3vl", "forall(array(1, NULL), x -> x > 0)")
    c("forall/null-3vl-false", "forall(array(-1, NULL), x -> x > 0)")
    c("forall/empty", "forall(array(), x -> false)")
    c("aggregate/sum", "aggregate(a, 0, (acc, x) -> acc + x)", ARR, ARRS)
    c("aggregate/finish", "aggregate(array(1, 2, 3), 0, (acc, x) -> acc + x, acc -> acc * 10)")
    c("aggregate/bigint", "aggregate(array(2147483647, 1), 0L, (acc, x) -> acc + x)")
    c("aggregate/overflow", "aggregate(array(2147483647, 1), 0, (acc, x) -> acc + x)")
    c("aggregate/double", "aggregate(array(0.1D, 0.2D), 0.0D, (acc, x) -> acc + x)")
    c("aggregate/string", "aggregate(array('a', 'b'), '', (acc, x) -> concat(acc, x))")
    c("aggregate/type-mismatch", "aggregate(array(1L), 0, (acc, x) -> acc + x)", analysis_error=True)


def all_cases():
    _CASES.clear()
    literals()
    arithmetic()
    comparisons()
    conditionals()
    casts()
    math()
    strings()
    dates()
    arrays()
    return list(_CASES)
