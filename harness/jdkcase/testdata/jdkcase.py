"""Compares the JDK's String.toUpperCase() and toLowerCase() with Spark's
upper() and lower() over every Unicode code point (surrogates have no
UTF-8 form), for the translation of JVM case mapping. Run by
TestJDKCaseMappingTables; never edit its output by hand.

The JDK is the one Spark's driver runs in, called through reflect() on
commons-lang3's StringUtils.upperCase and lowerCase, which are
str.toUpperCase() and str.toLowerCase() in the default locale; the driver
runs in the locale udfx's JVM runner pins (en_US).

Prints JSON: the versions, the locale, "upper" and "lower" (code points
whose mapping differs), each with whether the JDK maps it to itself.

It also lists in "digits" the chars Integer.parseInt reads as digits
beyond ASCII (Character.digit(c, 10)), with their values, and in
"break_letter" and "break_apart" the supplementary code points whose
class in the JDK's word iterator is not what Character.getType suggests:
a non-spacing mark after them joins the next letter though they are
unassigned, or does not though they are letters, digits, marks or format
characters (finalsigma.go).

With argv[1] a JSON file {name: SQL} of expressions over a column s
(names starting with "upper", "lowerexact", or "lower", for forms exact
up to final sigma, or "parseInt"/"parseLong"/"parseDouble", NULL where
the JDK throws), it also
evaluates them on strings around every differing code point, on numbers
in every digit the JDK reads, on the syntax of doubles and on seeded
random strings, and lists in
"wrong" each string where a result is not the JDK's: for lower, not the
JDK's once ς is read as σ, or not the JDK's on a string without Σ."""
import json
import random
import sys

from pyspark.sql import SparkSession

SIGMA = "\u03a3"
LOCALE = "-Duser.language=en -Duser.country=US"



def same_double(have, want):
    """have (Spark's CAST of the form's double to a string, or None) is the
    JDK's Double.toString of the parse, or "fallback" where it threw."""
    if want == "fallback" or have is None:
        return have is None and want == "fallback"
    a, b = float(have), float(want)
    return a == b or a != a and b != b


spark = (
    SparkSession.builder.master("local[2]")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.driver.extraJavaOptions", LOCALE)
    .getOrCreate()
)
spark.sparkContext.setLogLevel("ERROR")
UP = "reflect('org.apache.commons.lang3.StringUtils', 'upperCase', s)"
LOW = "reflect('org.apache.commons.lang3.StringUtils', 'lowerCase', s)"
info = spark.range(1).selectExpr(
    "reflect('java.lang.System', 'getProperty', 'java.version') AS v",
    "reflect('java.util.Locale', 'getDefault') AS l",
).first()
cps = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
df = spark.createDataFrame([(c, chr(c)) for c in cps], "cp int, s string")
rows = df.selectExpr("cp", "s", "upper(s) AS u", UP + " AS ju", "lower(s) AS l", LOW + " AS jl").where(
    "u <> ju OR l <> jl"
).collect()
out = {"jdk": info.v, "locale": info.l, "spark": spark.version, "upper": {}, "lower": {}}
for r in rows:
    if r.u != r.ju:
        out["upper"][str(r.cp)] = {"keeps": r.ju == r.s}
    if r.l != r.jl:
        out["lower"][str(r.cp)] = {"keeps": r.jl == r.s}

# The chars Integer.parseInt reads as digits (Character.digit(c, 10)):
# parseInt reads UTF-16 chars, so only the BMP's count.
digits = (
    spark.createDataFrame([(c,) for c in range(0x80, 0x10000) if not 0xD800 <= c <= 0xDFFF], "cp int")
    .selectExpr("cp", "reflect('java.lang.Character', 'digit', cp, 10) AS d")
    .where("d <> '-1'")
    .collect()
)
out["digits"] = {str(r.cp): int(r.d) for r in digits}

# The word iterator's own classes of supplementary code points: after a
# letter, digit, mark or format character a non-spacing mark joins the
# next letter, so "a" c U+0345 "Σ" lowers to ...ς (U+0345 is cased);
# after a symbol it does not.
probe = (
    spark.createDataFrame([(c, "a" + chr(c) + "\u0345" + SIGMA) for c in range(0x10000, 0x110000)], "cp int, s string")
    .selectExpr(
        "cp",
        "endswith(" + LOW + ", '\u03c2') AS joins",
        "substring(s, 2, 1) RLIKE '[\\\\p{L}\\\\p{Mc}\\\\p{N}\\\\p{Mn}\\\\p{Me}\\\\p{Cf}]' AS classed",
    )
    .where("joins <> classed")
    .collect()
)
out["break_letter"] = sorted(r.cp for r in probe if r.joins)
out["break_apart"] = sorted(r.cp for r in probe if not r.joins)

if len(sys.argv) > 1:
    with open(sys.argv[1]) as f:
        forms = json.load(f)
    wrong_sigma = []
    odd = sorted({int(k) for k in out["lower"]} | {int(k) for k in out["upper"]})
    tests = ["", SIGMA, "A" + SIGMA, "A1" + SIGMA, "A_" + SIGMA, "ΑΣ.Σ", "ὈΔΥΣΣΕΎΣ", "ßİﬁŉǰΐ", "Iı"]
    for cp in odd:
        c = chr(cp)
        tests += [c, "A" + c + SIGMA, c + SIGMA, "A" + SIGMA + c, "x" + c + "y" + c]
    pool = [chr(cp) for cp in odd] + list("aAzZß.'_\u00ad\u0301\u0345 1İıﬁ") + [SIGMA, "\u03c3", "\u03c2", "Ω", "😀", "𐐀"]
    rnd = random.Random(20261203)
    for _ in range(3000):
        tests.append("".join(rnd.choice(pool) for _ in range(rnd.randint(1, 8))))
    # Numbers for the parse forms: every digit the JDK reads, signs,
    # the types' limits and beyond, spaces, other scripts.
    nd = sorted(int(k) for k in out["digits"])
    ptests = ["", "+", "-", "0", "-0", "+7", "007", " 1", "1 ", "1_000", "1.0", "0x10", "١٢", "１２", "²", "\U0001D7CE",
              "2147483647", "2147483648", "-2147483648", "-2147483649", "9223372036854775807", "9223372036854775808",
              "-9223372036854775808", "-9223372036854775809", "000000000000000000000000002147483647", "+-1", "--1", "1-"]
    ptests += [chr(c) for c in nd] + ["1" + chr(c) + "0" for c in nd]
    for _ in range(3000):
        ptests.append("".join(rnd.choice(["0", "1", "9", "-", "+", " ", "a", chr(rnd.choice(nd))]) for _ in range(rnd.randint(1, 21))))
    tests += ptests
    # Doubles: what parseDouble reads (hex, suffixes, trimmed chars up to
    # U+0020, its own NaN and Infinity) and what only Spark reads.
    dtests = ["", "1", " 1.5 ", "\t2\n", "\x002\x20", "1e5", "1E-5", "0x1p3", "0x1.8P1", "0X.8p0", "1.5d", "1.5F", "1.5f ",
              "Infinity", "+Infinity", "-Infinity", "NaN", "+NaN", "-NaN", "infinity", "INFINITY", "INF", "inf", "-inf",
              "+inf", "Inf", "iNfInItY", " inf ", "\x00inf\x20", "nan", "NAN", "-nan", "+nan", "nAn", "inf\u2028",
              "NaN\u2028", "Infinity\n", "\u00a0inf", "1e400", "-1e400", "4.9e-324", "1e-400", ".5", "5.", ".", "e5",
              "1_000", "\u0661", "1,5", "0x", "1.5dd", "+-1", "infinit", "infinityy", "in f", "1.0e", "0x1p", "+.e1"]
    for _ in range(3000):
        dtests.append("".join(rnd.choice(["0", "1", ".", "e", "-", "+", " ", "d", "x", "p", "I", "n", "f", "a", "N", "t", "y", "i"]) for _ in range(rnd.randint(1, 9))))
    tests += dtests
    # Final sigma: every code point of the BMP in the contexts where its
    # class in the word iterator decides a Σ, every supplementary one
    # after a letter and before a mark, and random strings of each class.
    sig = []
    for cp in cps:
        c = chr(cp)
        if cp < 0x10000:
            sig += ["A" + c + SIGMA, "A" + c + "\u0345" + SIGMA, "A" + SIGMA + c, "A" + SIGMA + c + "b", c + "\u0345" + SIGMA,
                    "a1" + c + "1" + SIGMA, SIGMA + c + "b", "A" + c + c + SIGMA]
        else:
            sig += ["a" + c + "\u0345" + SIGMA, c + SIGMA + "\u0345"]
    kinds = list("Aaǅʰᴬאʹः1Ⅰ²-_‧'\".,٫$#£%&¢٪‰। \t\n\r") + [
        "\u200b", "\u00ad", "\u0301", "\u0345", "\u20dd", "ア", "あ", "一", "Ⓐ", "+", "@", "/", "𝐀", "𐐨", "\u3099", "ー",
        "𝟏", "\U0001d167", "\U000e0001", "😀", "𐐀", "\U00020000", "α", "ς", "σ", "İ", "ß", "ﬀ", "٣", "Ａ", "ｱ", "\u2028",
        "\u0965", "\u3000", "\u00a0", "\ufe0f", "\u200d", "\u309b", "・", "\U00011000", "\U00010140", "\U000e0020",
        "\U000110bd", "\U00018cd6", "\U0002fa1e"]
    for _ in range(20000):
        w = [rnd.choice(kinds) for _ in range(rnd.randint(1, 12))]
        w.insert(rnd.randint(0, len(w)), SIGMA)
        sig.append("".join(w))
    # Long words: a run of letters is matched in a loop, not by recursion
    # that would overflow a task's stack.
    sig += ["Ab" * 50000 + SIGMA, "a" + "\u0301" * 5000 + SIGMA, "1" * 50000 + "a" + SIGMA]
    exact = sorted(n for n in forms if n.startswith("lowerexact"))
    bad = (
        spark.createDataFrame([(x,) for x in sig], "s string")
        .selectExpr("s", LOW + " AS jl", *["(%s) AS f%d" % (forms[n], i) for i, n in enumerate(exact)])
        .where(" OR ".join("NOT (f%d <=> jl)" % i for i in range(len(exact))))
        .limit(200)
        .collect()
    )
    # The JDK's lower case of the fixed and the first random strings,
    # for the embedded engine, which runs the same SQL.
    samples = sig[-20000:-16000] + ["A1" + SIGMA, "A_" + SIGMA, "ΑΣ.Σ", "ὈΔΥΣΣΕΎΣ", "a\u0345" + SIGMA, "𐐨" + SIGMA]
    out["sigma_samples"] = [
        [r.s, r.jl] for r in spark.createDataFrame([(x,) for x in samples], "s string").selectExpr("s", LOW + " AS jl").collect()
    ]
    for r in bad:
        for i, n in enumerate(exact):
            if r["f%d" % i] != r.jl:
                wrong_sigma.append({"s": r.s, "fn": n, "jdk": r.jl, "spark": r["f%d" % i]})
    names = sorted(forms)
    got = (
        spark.createDataFrame([(s,) for s in tests], "s string")
        .selectExpr(
            "s",
            UP + " AS ju",
            LOW + " AS jl",
            "coalesce(try_reflect('java.lang.Integer', 'parseInt', s), 'fallback') AS ji",
            "coalesce(try_reflect('java.lang.Long', 'parseLong', s), 'fallback') AS jj",
            "coalesce(try_reflect('java.lang.Double', 'parseDouble', s), 'fallback') AS jd",
            *["CAST((%s) AS STRING) AS f%d" % (forms[n], i) for i, n in enumerate(names)],
        )
        .collect()
    )
    wrong = []
    for r in got:
        for i, n in enumerate(names):
            have = r["f%d" % i]
            if n.startswith("parseDouble"):
                want = r.jd
                ok = same_double(have, want)
            elif n.startswith("parseInt") or n.startswith("parseLong"):
                want = r.ji if n.startswith("parseInt") else r.jj
                ok = (have if have is not None else "fallback") == want
            elif n.startswith("lowerexact"):
                ok = have == r.jl
                want = r.jl
            elif n.startswith("upper"):
                ok = have == r.ju
                want = r.ju
            else:
                want = r.jl
                ok = have is not None and have.replace("\u03c2", "\u03c3") == want.replace("\u03c2", "\u03c3")
                ok = ok and (SIGMA in r.s or have == want)
            if not ok:
                wrong.append({"s": r.s, "fn": n, "jdk": want, "spark": have})
    out["checked"] = len(tests)
    out["checked_sigma"] = len(sig)
    out["wrong"] = wrong + wrong_sigma
spark.stop()
json.dump(out, sys.stdout, sort_keys=True, ensure_ascii=True)
