"""Plain @udf return values of mismatched Python types, one UDF per declared
return type: ret_<type>(i) returns RETURNS[<type>][i]. conversion_test.go
runs them in udfx's runner and spark_conversions.py runs them in real Spark
4.1.1; the two must agree. probe(x) describes exactly what a UDF receives."""
import datetime
import struct
from decimal import Decimal

from pyspark.sql.functions import udf
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    BooleanType,
    ByteType,
    DateType,
    DecimalType,
    DoubleType,
    FloatType,
    IntegerType,
    LongType,
    MapType,
    Row,
    ShortType,
    StringType,
    StructField,
    StructType,
    TimestampType,
)

# type DDL -> (pyspark type, values returned for i = 0, 1, ...)
RETURNS = {
    "double": (DoubleType(), [1.5, 1, True, "1.5", Decimal("1.5"), float("nan"), -0.0, None, Decimal("NaN"), Decimal("-Infinity")]),
    "float": (FloatType(), [1.5, 1, 0.1, 1e40, -1e-50, "1"]),
    "bigint": (LongType(), [1, 1.0, True, 2**63, -(2**63), "1", 2**40]),
    "int": (IntegerType(), [1, 2**31, 2**40 + 5, -(2**31) - 1, 1.0, False]),
    "tinyint": (ByteType(), [200, -129, 5]),
    "smallint": (ShortType(), [70000, 5]),
    "boolean": (BooleanType(), [True, 1, "true", 0.0]),
    "string": (
        StringType(),
        [
            "abc", 1, 2**40, 1.5, 1e10, 1e-5, 0.1, 100.0, 1234567.0, 12345678.0, 0.001, 0.0001,
            -0.0, float("inf"), float("nan"), True, [1, 2], ["a", None, 1.5],
            Decimal("1E+3"), Decimal("0.000000123"), Decimal("1.50"), "\ud800x", "\udfff",
            {"a": 1}, b"ab", (1, 2), {1}, {}, set(), Decimal("NaN"), Decimal("Infinity"), {"a": [1, None]},
        ],
    ),
    "decimal(5,2)": (
        DecimalType(5, 2),
        [Decimal("1.005"), Decimal("-1.005"), Decimal("123.456"), 1, 1.5, Decimal("12345.6"), Decimal("999.995"), Decimal("NaN"), Decimal("1E+2")],
    ),
    "date": (DateType(), [datetime.date(2020, 2, 29), datetime.datetime(2020, 1, 1, 23, 59), "2020-01-01", 1, datetime.date(1, 1, 1)]),
    "timestamp": (
        TimestampType(),
        [datetime.datetime(2020, 1, 1, 12, 0, 0, 5), datetime.datetime(1, 1, 1), datetime.date(2020, 1, 1), 1,
         datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))],
    ),
    "binary": (BinaryType(), [b"ab", bytearray(b"\x00\xff"), "\u00e9", 1, [1, 2]]),
    "array<int>": (ArrayType(IntegerType()), [[1, 2], (1, None), [1.0, 2], b"\x01\xff", "ab", {1, 2}, [2**40]]),
    "array<string>": (ArrayType(StringType()), [[1, "a", None, True, 2.5]]),
    "map<string,int>": (MapType(StringType(), IntegerType()), [{"a": 1, "b": 1.0, "c": None}, [1], {1: 2}]),
    "struct<a:int,b:string>": (
        StructType([StructField("a", IntegerType()), StructField("b", StringType())]),
        [(1, "x"), [2, "y"], {"a": 3, "b": "z"}, Row(a=4, b="w"), (1,), (1, "x", 2), 7, ("1", 2)],
    ),
}


def _returner(values):
    return lambda i: values[i]


for _ddl, (_t, _values) in RETURNS.items():
    _name = "ret_" + "".join(c if c.isalnum() else "_" for c in _ddl)
    globals()[_name] = udf(_returner(_values), _t)


def describe(x):
    if isinstance(x, float):
        return "float:" + struct.pack(">d", x).hex()
    if isinstance(x, (list, tuple)):
        inner = ",".join(describe(e) for e in x)
        if isinstance(x, Row):
            return "Row(%s)[%s]" % (",".join(getattr(x, "__fields__", [])), inner)
        return type(x).__name__ + "[" + inner + "]"
    if isinstance(x, dict):
        return "dict{" + ",".join(describe(k) + ":" + describe(v) for k, v in sorted(x.items(), key=repr)) + "}"
    return type(x).__name__ + ":" + repr(x)


@udf(returnType=StringType())
def probe(x):
    return describe(x)
