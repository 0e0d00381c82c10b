"""Runs dataflow.py in real Spark (local mode) with probe(...) standing for
the column it is given, and writes, by line, the Spark type of every
probe's argument in the order the calls ran: the authority the trace in
dataflow.go is checked against.

usage: dataflow_spark.py JOB_PY OUT_JSON, in a folder holding the job's
data. Reads are analysed, never run."""
import json
import re
import sys

import pyspark.sql.functions as F
from pyspark.sql import Column, DataFrame

MARK = re.compile(r"udfx_probe_(\d+)_(\d+)")
calls = {}


def probe(c):
    """The column itself, named for the line that calls probe."""
    line = sys._getframe(1).f_lineno
    i = calls.get(line, 0)
    calls[line] = i + 1
    if isinstance(c, str):
        c = F.col(c)
    return c.alias("udfx_probe_%d_%d" % (line, i))


_real_udf = F.udf


def udf(*args, **kwargs):
    """probe stands for the column it is given; any other UDF stays a UDF,
    whose result Spark types by its declared return type."""
    if args and callable(args[0]):
        return probe if args[0].__name__ == "probe" else _real_udf(*args, **kwargs)
    return lambda f: probe if f.__name__ == "probe" else _real_udf(*args, **kwargs)(f)


F.udf = udf
# The job names probe's result: keep probe's name, which says the line.
# Spark 4 runs the classic classes, which override the base ones.
try:
    from pyspark.sql.classic.column import Column as RunColumn
    from pyspark.sql.classic.dataframe import DataFrame as RunDataFrame
except ImportError:
    RunColumn, RunDataFrame = Column, DataFrame
_with_column, _alias = RunDataFrame.withColumn, RunColumn.alias


def with_column(self, name, col):
    m = MARK.search(str(col))
    return _with_column(self, m.group(0) if m else name, col)


def alias(self, *names, **kwargs):
    return self if MARK.search(str(self)) else _alias(self, *names, **kwargs)


RunDataFrame.withColumn, RunColumn.alias, RunColumn.name = with_column, alias, alias

job = {"__name__": "udfx_dataflow_job"}
with open(sys.argv[1]) as f:
    exec(compile(f.read(), sys.argv[1], "exec"), job)
seen = {}
for v in list(job.values()):
    if isinstance(v, DataFrame):
        for fld in v.schema.fields:
            m = MARK.fullmatch(fld.name)
            if m:
                seen.setdefault(m.group(1), {})[int(m.group(2))] = fld.dataType.simpleString()
with open(sys.argv[2], "w") as f:
    json.dump({line: [byCall[i] for i in sorted(byCall)] for line, byCall in seen.items()}, f)
