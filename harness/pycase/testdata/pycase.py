"""Compares the CPython running this script with Spark on case mapping,
over every Unicode code point (surrogates have no UTF-8 form), for the
translation of str.lower() and str.upper(). Run by
TestPythonCaseMappingTable; never edit its output by hand.

For each code point c it reads, in CPython and in Spark:
  - lower(c) and upper(c);
  - its class for the final-sigma rule, from two probes: lower('A'+c+'Σ')
    ends in 'ς' when c is cased or case-ignorable, lower(c+'Σ') only when
    c is cased (both runtimes check case-ignorable first, so a character
    that is both counts as ignorable).

For str.title() and str.capitalize() it also reads, in CPython alone,
whether each code point is cased (title() lowers what follows a cased
one: (c + 'A').title() ends in 'a'), and where a code point's titlecase
(chr(c).title()) is not Spark's upper(c).

Prints JSON: the versions, "lower" (code points whose lower case or class
differs) and "upper" (whose upper case differs), each with what CPython
does with it: "keeps" when CPython maps it to itself, and for lower its
class in CPython; "title" (code point: CPython's titlecase, where it is
not Spark's upper) and "cased" (CPython's cased code points).

With argv[1] a JSON file {name: SQL} of expressions over a column s
(names starting with "lower", "upper", "title" or "capitalize"), it also
evaluates them in Spark on strings built around every differing code
point and on seeded random strings, and lists in "wrong" each string
where a result is not CPython's."""
import json
import random
import sys
import unicodedata

from pyspark.sql import SparkSession

SIGMA = "\u03a3"
FINAL = "\u03c2"


def klass(low_after_a, low_alone):
    if low_alone.endswith(FINAL):
        return "cased"
    if low_after_a.endswith(FINAL):
        return "ignorable"
    return "neither"


spark = (
    SparkSession.builder.master("local[2]")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.session.timeZone", "UTC")
    .getOrCreate()
)
spark.sparkContext.setLogLevel("ERROR")
cps = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
df = spark.createDataFrame([(c, chr(c)) for c in cps], "cp int, s string")
rows = df.selectExpr(
    "cp",
    "lower(s) AS l",
    "upper(s) AS u",
    "lower(concat('A', s, '\u03a3')) AS la",
    "lower(concat(s, '\u03a3')) AS ls",
).collect()

out = {
    "python": sys.version.split()[0],
    "unicode": unicodedata.unidata_version,
    "spark": spark.version,
    "lower": {},
    "upper": {},
    "title": {},
    "cased": [],
}
for r in rows:
    c = chr(r.cp)
    py_l, py_u = c.lower(), c.upper()
    py_k = klass(("A" + c + SIGMA).lower(), (c + SIGMA).lower())
    sp_k = klass(r.la, r.ls)
    if py_l != r.l or py_k != sp_k:
        out["lower"][str(r.cp)] = {"keeps": py_l == c, "python": [py_l, py_k], "spark": [r.l, sp_k]}
    if py_u != r.u:
        out["upper"][str(r.cp)] = {"keeps": py_u == c, "python": py_u, "spark": r.u}
    if c.title() != r.u:
        out["title"][str(r.cp)] = c.title()
    if (c + "A").title()[-1] == "a":
        out["cased"].append(r.cp)

if len(sys.argv) > 1:
    with open(sys.argv[1]) as f:
        forms = json.load(f)
    # Strings around every differing code point, in every final-sigma
    # context, and random strings over letters, marks, Σ and them.
    odd = sorted({int(k) for k in out["lower"]} | {int(k) for k in out["upper"]} | {int(k) for k in out["title"]})
    tests = ["", SIGMA, "A" + SIGMA, SIGMA + "A", "ΑΣ.Σ", "ὈΔΥΣΣΕΎΣ", "AΣ\u0345", "A\u0345Σ", "ßİﬁŉǰΐ",
             "hello world", "they're bill's friends from the UK", "1st place", "ǆemal ǅ ǆ", "o'neil mcDONALD",
             "ΣΑΣ ΣΑΣ", "aΣ b", "ʰa ᵃb ª", "\u0345a", "ⓐⓑ ⓒ", "𐐨𐐨 𐐀", "ﬀ ﬁ ﬂ", "élan vital", "  x  "]
    for cp in odd:
        c = chr(cp)
        tests += [c, "A" + c + SIGMA, c + SIGMA, "A" + SIGMA + c, "A" + SIGMA + c + "a", "x" + c + "y" + c, c + "a " + c, " " + c + c]
    # Cased code points that Spark's case functions leave alone (no
    # mapping) decide title() as much as letters do.
    cased = set(out["cased"])
    unmapped = [cp for cp in sorted(cased) if chr(cp).lower() == chr(cp) == chr(cp).upper()]
    for cp in unmapped[::7]:
        tests += [chr(cp) + "a", "a" + chr(cp) + "a", chr(cp) + SIGMA]
    pool = [chr(cp) for cp in odd] + [chr(cp) for cp in unmapped[::29]] + list("aAzZß.'\u00ad\u0301\u0345 1İıﬁ-_\u02b0\u00aa\u1d43") + [
        SIGMA, "\u03c3", FINAL, "Ω", "😀", "𐐀", "中", "\t"]
    rnd = random.Random(20261203)
    for _ in range(5000):
        tests.append("".join(rnd.choice(pool) for _ in range(rnd.randint(1, 8))))
    names = sorted(forms)
    got = spark.createDataFrame([(s,) for s in tests], "s string").selectExpr(
        "s", *["(%s) AS f%d" % (forms[n], i) for i, n in enumerate(names)]
    ).collect()
    wrong = []
    for r in got:
        for i, n in enumerate(names):
            want = getattr(r.s, n.split("_")[0])()
            if r["f%d" % i] != want:
                wrong.append({"s": r.s, "fn": n, "python": want, "spark": r["f%d" % i]})
    out["checked"] = len(tests)
    out["wrong"] = wrong
spark.stop()
json.dump(out, sys.stdout, sort_keys=True, ensure_ascii=True)
