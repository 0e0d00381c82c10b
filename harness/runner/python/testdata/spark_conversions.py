"""Runs conversions.py's UDFs in real Spark (local mode) and writes what
Spark returns, as udfx tokens, to a JSON file for conversion_test.go.

usage: spark_conversions.py DRIVER_PY OUT_JSON WORKDIR
Run with TZ=UTC and PYSPARK_PYTHON set to this interpreter."""
import importlib.util
import json
import os
import struct
import sys

import pyarrow as pa
import pyarrow.parquet as pq
from pyspark.sql import SparkSession
from pyspark.sql.functions import col

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import conversions as C  # noqa: E402

spec = importlib.util.spec_from_file_location("udfx_driver", sys.argv[1])
D = importlib.util.module_from_spec(spec)
spec.loader.exec_module(D)
out_path, workdir = sys.argv[2], sys.argv[3]


def f64(bits):
    return struct.unpack(">d", bits.to_bytes(8, "big"))[0]


def f32(bits):
    return struct.unpack(">f", bits.to_bytes(4, "big"))[0]


# Inputs for probe(x): one Parquet column per Spark type, exact bits.
dbl_bits = [0x7FF8000000000001, 0xFFF8000000000000, 0x8000000000000000, 0x0000000000000001, 0x7FF0000000000000]
flt_bits = [0x7FC00001, 0x80000000, 0x00000001, 0x3DCCCCCD, 0xFF800000]
inputs = {
    "double": pa.array(
        [struct.unpack("<d", struct.pack("<Q", b))[0] for b in dbl_bits], pa.float64()
    ),
    "float": pa.array(pa.array([b for b in flt_bits], pa.uint32()).view(pa.float32())),
    "bigint": pa.array([-(2**63), 2**63 - 1, 0, 1, -1], pa.int64()),
    "tinyint": pa.array([-128, 127, 0, 1, None], pa.int8()),
    "decimal": pa.array(["0.000", "-12345.678", "1.500", "9999999.999", None], pa.string()).cast(pa.decimal128(10, 3)),
    "string": pa.array(["", " a ", "\U0001F600", "ß", None], pa.string()),
    "binary": pa.array([b"", b"\x00\xff", b"ab", None, b"x"], pa.binary()),
    "date": pa.array([-719162, 2932896, 0, 18321, None], pa.int32()).cast(pa.date32()),
    "timestamp": pa.array([0, -62135596800000000, 253402300799999999, 1583020800123456, None], pa.int64()).cast(
        pa.timestamp("us", tz="UTC")
    ),
    "array<double>": pa.array([[1.5, None], [], None, [float("inf")], [-0.0]], pa.list_(pa.float64())),
    "map<string,int>": pa.array([[("a", 1)], [], None, [("b", None)], [("c", 3)]], pa.map_(pa.string(), pa.int32())),
    "struct<a:int,b:date>": pa.array(
        [{"a": 1, "b": 0}, {"a": None, "b": None}, None, {"a": 2, "b": 18321}, {"a": 3, "b": -1}],
        pa.struct([("a", pa.int32()), ("b", pa.int32())]),
    ),
}
st = inputs["struct<a:int,b:date>"]
inputs["struct<a:int,b:date>"] = pa.StructArray.from_arrays(
    [st.field(0), st.field(1).cast(pa.date32())], names=["a", "b"], mask=st.is_null()
)
names = {k: "c%d" % i for i, k in enumerate(inputs)}
table = pa.table({"idx": pa.array(range(5), pa.int32()), **{names[k]: v for k, v in inputs.items()}})
pq.write_table(table, os.path.join(workdir, "inputs.parquet"))

spark = (
    SparkSession.builder.master("local[1]")
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.shuffle.partitions", "1")
    .getOrCreate()
)
spark.sparkContext.setLogLevel("ERROR")
result = {
    "spark": spark.version,
    "arrow_python_udf_default": spark.conf.get("spark.sql.execution.pythonUDF.arrow.enabled"),
    "returns": {},
    "probes": {},
}


def short(msg):
    # The head names the failing stage, the tail the Python exception.
    return msg if len(msg) < 4000 else msg[:1000] + "\n...\n" + msg[-3000:]


def token_of(t, v):
    # A collected Python value -> the internal form -> udfx token.
    name = type(t).__name__
    if v is None:
        return "N"
    if name in ("DateType", "TimestampType"):
        return D.encode_internal(t, t.toInternal(v))
    if name == "FloatType":
        return "f%08x" % D.float32_bits_of_double(v)
    if name == "ArrayType":
        return " ".join(["["] + [token_of(t.elementType, e) for e in v] + ["]"])
    if name == "MapType":
        return " ".join(["{"] + [token_of(t.keyType, k) + " " + token_of(t.valueType, x) for k, x in v.items()] + ["}"])
    if name == "StructType":
        return " ".join(["("] + [token_of(f.dataType, e) for f, e in zip(t.fields, v)] + [")"])
    return D.encode_internal(t, v)


for ddl, (t, values) in C.RETURNS.items():
    fn = getattr(C, "ret_" + "".join(c if c.isalnum() else "_" for c in ddl))
    outs = []
    for i in range(len(values)):
        df = spark.range(i, i + 1).select(fn(col("id")).alias("r"))
        kind = type(t).__name__
        if kind in ("DateType", "TimestampType"):
            # collect() would turn year 1 into a local datetime, which
            # Python cannot always do; read the JVM's number instead.
            df = df.selectExpr("%s(r) AS r" % ("unix_date" if kind == "DateType" else "unix_micros"))
        if type(t).__name__ in ("DoubleType", "FloatType"):
            # The bits as the JVM holds them, not as collect() re-pickles them.
            cls, meth = ("java.lang.Double", "doubleToRawLongBits") if type(t).__name__ == "DoubleType" else (
                "java.lang.Float", "floatToRawIntBits")
            df = df.selectExpr("r", "CASE WHEN r IS NULL THEN NULL ELSE reflect('%s', '%s', r) END AS bits" % (cls, meth))
        try:
            row = df.collect()[0]
            if type(t).__name__ == "DoubleType":
                tok = "N" if row.r is None else "d%016x" % (int(row.bits) & (2**64 - 1))
            elif type(t).__name__ == "FloatType":
                tok = "N" if row.r is None else "f%08x" % (int(row.bits) & (2**32 - 1))
            elif kind in ("DateType", "TimestampType"):
                tok = "N" if row.r is None else ("D%d" if kind == "DateType" else "P%d") % row.r
            else:
                tok = token_of(t, row.r)
            outs.append({"token": tok})
        except Exception as e:  # noqa: BLE001 -- the failure is the datum
            outs.append({"error": short(str(e))})
    result["returns"][ddl] = outs

df = spark.read.parquet(os.path.join(workdir, "inputs.parquet"))
for k, c in names.items():
    try:
        probes = [r.p for r in df.orderBy("idx").select(C.probe(col(c)).alias("p")).collect()]
    except Exception:  # noqa: BLE001 -- a row failed: find which, one by one
        probes = []
        for i in range(len(table)):
            try:
                probes.append(df.where(col("idx") == i).select(C.probe(col(c)).alias("p")).collect()[0].p)
            except Exception as e:  # noqa: BLE001
                probes.append({"error": short(str(e))})
    result["probes"][k] = {"tokens": D.arrow_tokens(table.column(c).combine_chunks()), "seen": probes}
spark.stop()
with open(out_path, "w") as f:
    json.dump(result, f, indent=1)
