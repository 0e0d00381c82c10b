"""Prints, as JSON, what Spark's lower(), upper() and initcap() do with every
Unicode code point (surrogates have no UTF-8 form). Run by
TestSparkCaseMappingsAreTheEnginesTable; never edit its output by hand.

  "lower", "upper": {cp: s}, Spark's lower() and upper() of the one
      character string, where it is not the character itself.
  "sigma": {"lower_before", "lower_after", "initcap_before",
      "initcap_after": {"cased": ranges, "cased_or_ignorable": ranges}}: the
      class of each code point c in the final sigma rule (a Σ lowercases to
      ς when a cased letter precedes it and none follows, case-ignorable
      characters skipped both ways), read from Spark by probes, as sorted
      [lo, hi] ranges; the code points in neither are the others. "before"
      probes c before a Σ: lower(c + 'Σ') ends in ς only when c is cased,
      lower('A' + c + 'Σ') also when c is skipped. "after" probes c after
      one: lower('AΣ' + c) has σ only when c is cased, lower('AΣ' + c + 'a')
      also when c is skipped. initcap() lowercases with its own final sigma
      (words start after a space), probed the same way. The Go test requires
      the four to agree: one class table serves both directions and both
      functions.
  "strings": [[s, lower(s), initcap(s)], ...]: seeded random strings of Σ,
      letters and samples of every class, for the Go test to check the
      engine's scan against Spark's.
"""
import json
import random
import sys

from pyspark.sql import SparkSession

SIGMA, FINAL, SMALL = "\u03a3", "\u03c2", "\u03c3"

spark = (
    SparkSession.builder.master("local[2]")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.session.timeZone", "UTC")
    .getOrCreate()
)
spark.sparkContext.setLogLevel("ERROR")
cps = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
df = spark.createDataFrame([(c, chr(c)) for c in cps], "cp int, s string")
# Each probe is a boolean; right(x, 1) and substring(x, 2, 1) count code
# points, and lower('A') is one, so position 2 is the Σ's.
probes = {
    "lower_before_skip": "right(lower(concat('A', s, 'Σ')), 1) = 'ς'",
    "lower_before_cased": "right(lower(concat(s, 'Σ')), 1) = 'ς'",
    "lower_after_skip": "substring(lower(concat('AΣ', s, 'a')), 2, 1) = 'σ'",
    "lower_after_cased": "substring(lower(concat('AΣ', s)), 2, 1) = 'σ'",
    "initcap_before_skip": "right(initcap(concat('A', s, 'Σ')), 1) = 'ς'",
    "initcap_before_cased": "right(initcap(concat(s, 'Σ')), 1) = 'ς'",
    "initcap_after_skip": "substring(initcap(concat('AΣ', s, 'a')), 2, 1) = 'σ'",
    "initcap_after_cased": "substring(initcap(concat('AΣ', s)), 2, 1) = 'σ'",
}
cols = ["cp", "s", "lower(s) AS l", "upper(s) AS u"] + ["%s AS %s" % (e, n) for n, e in probes.items()]
keep = " OR ".join(["l != s", "u != s"] + list(probes))
out = {"spark": spark.version, "lower": {}, "upper": {}}
classes = {k: {"cased": [], "cased_or_ignorable": []} for k in ("lower_before", "lower_after", "initcap_before", "initcap_after")}
for r in df.selectExpr(*cols).where(keep).collect():
    if r.l != r.s:
        out["lower"][str(r.cp)] = r.l
    if r.u != r.s:
        out["upper"][str(r.cp)] = r.u
    for k, c in classes.items():
        if r[k + "_cased"]:
            c["cased"].append(r.cp)
        if r[k + "_skip"]:
            c["cased_or_ignorable"].append(r.cp)


def ranges(cps):
    out = []
    for c in sorted(cps):
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


out["sigma"] = {k: {n: ranges(v) for n, v in c.items()} for k, c in classes.items()}

# Random strings over Σ, ς, a few letters and spaces, and samples of each
# class as lower() read it (initcap's words start after a space).
rnd = random.Random(20260101)
cased = sorted(classes["lower_before"]["cased"])
known = set(classes["lower_before"]["cased_or_ignorable"])
ignorable = sorted(known - set(cased))
other = [c for c in rnd.sample(cps, 4000) if c not in known][:60]
alphabet = [SIGMA] * 12 + [FINAL, SMALL, "A", "a", "\u0391", " ", " ", ".", "'", "\u00ad", "\u0345", "\u0301", "1"]
alphabet += [chr(c) for c in rnd.sample(cased, 60) + rnd.sample(ignorable, 60) + other]
strs = sorted({"".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 8))) for _ in range(6000)})
sdf = spark.createDataFrame([(i, s) for i, s in enumerate(strs)], "i int, s string")
out["strings"] = [[r.s, r.l, r.t] for r in sdf.selectExpr("i", "s", "lower(s) AS l", "initcap(s) AS t").orderBy("i").collect()]
spark.stop()
json.dump(out, sys.stdout, sort_keys=True)
