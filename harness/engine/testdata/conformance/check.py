#!/usr/bin/env python3
"""Self-check of the conformance data: every line parses and has the expected
fields, ids are unique, every token is well formed, and every item of the
supported list has at least one case. Prints the count of cases per function.

Run:  python3 harness/engine/testdata/conformance/check.py [spark-*.jsonl ...]
(with no argument it checks every spark-*.jsonl next to this script).
"""

import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# id prefix (text before the first '/') -> a string the expression must contain
# (case-insensitive), so that a case cannot be filed under the wrong function.
REQUIRED = {
    "literal": "",
    "add": "+", "subtract": "-", "multiply": "*", "divide": "/", "remainder": "%",
    "div": " div ", "pmod": "pmod(", "unary-minus": "-",
    "bitand": "&", "bitor": "|", "bitxor": "^", "bitnot": "~", "concat-op": "||",
    "eq": "=", "eq2": "==", "eqnullsafe": "<=>", "neq": "!=", "neq2": "<>",
    "lt": "<", "lte": "<=", "gt": ">", "gte": ">=",
    "and": " and ", "or": " or ", "not": "not ",
    "isnull": " is null", "isnotnull": " is not null", "istrue": " is true",
    "isnottrue": " is not true", "isfalse": " is false", "isnotfalse": " is not false",
    "in": " in (", "notin": " not in (", "between": " between ",
    "casewhen": "case when", "casesimple": "case ", "if": "if(", "coalesce": "coalesce(",
    "nullif": "nullif(", "nvl": "nvl(", "nvl2": "nvl2(", "ifnull": "ifnull(",
    "cast": "cast(", "try_cast": "try_cast(", "cast-colon": "::",
}
FUNCTIONS = """
abs ceil floor round bround sqrt cbrt exp ln log log10 log2 pow power sin cos tan
asin acos atan atan2 sinh cosh tanh degrees radians signum sign rint greatest least mod
negative positive hypot isnan nanvl
length char_length octet_length substring substr left right concat concat_ws lower
upper initcap trim ltrim rtrim lpad rpad replace translate instr locate position
split regexp_replace regexp_extract regexp_like rlike like ilike reverse repeat ascii
chr startswith endswith contains url_encode url_decode format_number space
to_date date_add date_sub datediff year month day dayofmonth dayofweek quarter
last_day add_months date_format
array size cardinality element_at array_contains slice sort_array array_sort
array_distinct array_max array_min array_position array_join flatten transform
filter exists forall aggregate
""".split()
for _f in FUNCTIONS:
    REQUIRED.setdefault(_f, _f)
REQUIRED["like"] = " like "
REQUIRED["ilike"] = " ilike "
REQUIRED["rlike"] = " rlike "
REQUIRED["trim"] = "trim("
REQUIRED["position"] = "position("
REQUIRED["element_at"] = ("element_at(", "]")  # a[i], the 0-based subscript, is filed with element_at

KEYS = {"id", "expr", "columns", "rows", "ansi", "result_type", "results", "spark_version"}
ATOM = re.compile(r"^(N|T|F|i-?\d+|f[0-9a-f]{8}|d[0-9a-f]{16}|m-?\d+@\d+|s(?:[0-9a-f]{4})*|"
                  r"b(?:[0-9a-f]{2})*|D-?\d+|P-?\d+|[\[\]{}()])$")
ID = re.compile(r"^[a-z0-9_+\-]+(/[A-Za-z0-9_.+\-]+)+$")


def check_value(tok, where):
    depth = []
    for t in tok.split(" "):
        if not ATOM.match(t):
            raise ValueError("%s: bad token %r in %r" % (where, t, tok))
        if t in "[{(":
            depth.append(t)
        elif t in "]})":
            if not depth or "[{(".index(depth.pop()) != "]})".index(t):
                raise ValueError("%s: unbalanced %r" % (where, tok))
    if depth:
        raise ValueError("%s: unbalanced %r" % (where, tok))


def check_file(path):
    ids, counts = set(), {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            where = "%s:%d" % (os.path.basename(path), n)
            rec = json.loads(line)
            if set(rec) != KEYS:
                raise ValueError("%s: keys %s" % (where, sorted(rec)))
            if line.rstrip("\n") != json.dumps(rec, sort_keys=True, ensure_ascii=False):
                raise ValueError("%s: not in canonical form (sorted keys)" % where)
            cid = rec["id"]
            if not ID.match(cid):
                raise ValueError("%s: bad id %r" % (where, cid))
            if cid in ids:
                raise ValueError("%s: duplicate id %r" % (where, cid))
            ids.add(cid)
            if not isinstance(rec["ansi"], bool):
                raise ValueError("%s: ansi not a boolean" % where)
            if rec["result_type"] is not None and not isinstance(rec["result_type"], str):
                raise ValueError("%s: bad result_type" % where)
            if len(rec["results"]) != len(rec["rows"]):
                raise ValueError("%s: %d results for %d rows" % (where, len(rec["results"]), len(rec["rows"])))
            for row in rec["rows"]:
                if len(row) != len(rec["columns"]):
                    raise ValueError("%s: row width" % where)
                for v in row:
                    check_value(v, where)
            for r in rec["results"]:
                if isinstance(r, dict):
                    e = r.get("error")
                    if set(r) != {"error"} or set(e) != {"class", "condition"} or not e["class"]:
                        raise ValueError("%s: bad error result %r" % (where, r))
                else:
                    check_value(r, where)
            fn = cid.split("/")[0]
            want = REQUIRED.get(fn)
            if want is None:
                raise ValueError("%s: id prefix %r is not an item of the supported list" % (where, fn))
            padded = " " + rec["expr"].lower().replace("\n", " ") + " "
            if not any(w.lower() in padded for w in (want if isinstance(want, tuple) else (want,))):
                raise ValueError("%s: expression %r does not contain %r" % (where, rec["expr"], want))
            counts[fn] = counts.get(fn, 0) + 1
    missing = [k for k in REQUIRED if k not in counts]
    if missing:
        raise ValueError("%s: no case for %s" % (path, ", ".join(missing)))
    return counts, len(ids)


def main(paths):
    if not paths:
        paths = sorted(glob.glob(os.path.join(HERE, "spark-*.jsonl")))
    for p in paths:
        counts, total = check_file(p)
        errs = 0
        pairs = 0
        with open(p, encoding="utf-8") as f:
            for line in f:
                rec = json.loads(line)
                errs += any(isinstance(r, dict) for r in rec["results"])
                pairs += rec["id"].endswith("/noansi")
        print("%s: OK, %d records, %d functions, %d with error rows, %d ANSI-dependent pairs"
              % (os.path.basename(p), total, len(counts), errs, pairs))
        print("  " + ", ".join("%s %d" % (k, counts[k]) for k in REQUIRED))


if __name__ == "__main__":
    main(sys.argv[1:])
