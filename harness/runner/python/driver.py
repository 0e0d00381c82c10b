# udfx Python driver: calls one PySpark UDF as Spark 4.1.1's Python worker
# (pyspark/worker.py) would, over rows that arrive on stdin in udfx's token
# codec (harness/value/codec.go), and writes one result token line per row.
#
# Protocol (all lines UTF-8, "\n"-terminated):
#   stdin line 1: the configuration, JSON (see Config in runner.go).
#   stdout line 1: "OK <evalType> <python> <pyspark> unicode:<unidata version>
#                  [left-out:<lines>]" or
#                  "ERR <env|compile|notcallable|config> <JSON object>".
#   Then, per Run: a JSON list of the parameters' Spark types (pyspark's JSON
#   form), the rows, one line each (one value per parameter), and a line
#   "=". The driver answers one line per row (one line per Run for a
#   series-to-scalar pandas_udf), then "=". A fatal problem (MemoryError, a
#   driver bug) is a line "!<JSON>" and exit status 3.
#
# Plain @udf (SQL_BATCHED_UDF, eval type 100). Inputs are the Python objects
# the worker unpickles from what the JVM's EvaluatePython.toJava makes of a
# row: double/float -> float (a float widened to double), tinyint..bigint ->
# int, decimal -> decimal.Decimal (from BigDecimal.toString, so digits and
# exponent are kept), string -> str, binary -> bytes, boolean -> bool, date -> datetime.date, timestamp ->
# naive datetime.datetime in the worker's local time zone (TZ=UTC here),
# array -> list, map -> dict, struct -> Row (pyspark.sql.types.Row with
# field names). Dates and timestamps go through pyspark's own
# DataType.fromInternal.
#
# The result goes through pyspark's DataType.toInternal (what worker.wrap_udf
# does), is pickled, unpickled on the JVM by Pyrolite, and converted by
# EvaluatePython.makeFromJava (sql/core, Spark 4.1.1). Pyrolite turns a
# Python value into: None -> null, bool -> Boolean, int -> Integer (32-bit
# range) / Long (64-bit range) / BigInteger, float -> Double, str -> String,
# bytes and bytearray -> byte[], decimal.Decimal -> BigDecimal, list ->
# ArrayList, tuple -> Object[], dict -> HashMap, set -> HashSet. Then:
#
#   declared type   accepted Java value            otherwise
#   boolean         Boolean                        NULL (1, "true", 0.0)
#   tinyint..bigint Integer, Long: narrowed like   NULL (1.0, True, "1",
#                   Java's (byte)/(short)/(int)     an int beyond 64 bits)
#                   casts (2**31 as int is -2**31,
#                   200 as tinyint is -56)
#   float           Double, rounded to float       NULL (1, "1")
#                   (1e40 is Infinity)
#   double          Double                         NULL (1, True, "1.5",
#                                                   Decimal("1.5"))
#   decimal(p,s)    BigDecimal, rounded HALF_UP    NULL (1, 1.5); more than
#                   to s (1.005 -> 1.01)            p digits after rounding:
#                                                   SparkArithmeticException
#                                                   NUMERIC_VALUE_OUT_OF_RANGE
#   string          anything: Java's toString      (1.5 -> "1.5", 1e10 ->
#                   True -> "true", [1, 2] ->       "1.0E10", 1e-5 ->
#                   "[1, 2]", {"a": 1} -> "{a=1}"   "1.0E-5", a lone
#                                                   surrogate -> U+FFFD)
#   binary          byte[] (bytes, bytearray);     NULL (1, [1, 2])
#                   str as its UTF-8 bytes
#   date            toInternal: date or datetime   AttributeError ("2020-
#                   (its date part)                 01-01", 1)
#   timestamp       toInternal: datetime (aware:   AttributeError (a date,
#                   its UTC instant)                an int)
#   array<T>        list or tuple, elements by T   NULL ("ab", {1, 2});
#                   (bytes: signed Java bytes)
#   map<K,V>        dict, keys and values by K, V  NULL ([1])
#   struct<...>     tuple/list/dict/Row via        STRUCT_ARRAY_LENGTH_MISMATCH
#                   StructType.toInternal           for a wrong length;
#                                                   PySparkValueError for 7
#   Decimal("NaN") unpickles as Double.NaN (NaN in a double column, NULL in a
#   decimal one, "NaN" in a string one); Decimal("Infinity") fails to
#   unpickle (net.razorvine.pickle.PickleException).
#
# Every example above was confirmed against real Spark 4.1.1 by
# conversion_test.go (testdata/conversions.py, testdata/spark_conversions.py),
# as were the inputs (NaN payloads and -0.0 reach the UDF unchanged; a float
# NaN is widened by the hardware, 7fc00001 -> 7ff8000020000000).
# Java's toString of a HashMap or HashSet of 2+ entries, an Object[] or a
# byte[] depends on hash order or identity hashes ("[B@5f5e0bd5"), so such a
# result in a string column gets the error class udfx.NotReproducible
# instead of a guess; so does any Python object Pyrolite has no rule for
# (numpy scalars, custom classes). Java's Double.toString of a float result
# is reproduced only for the values every JDK prints alike (the shortest
# repr); JDK 17 prints others longer (2e23 as 1.9999999999999998E23, 5e-324
# as 4.9E-324), so those are udfx.NotReproducible too (confirmed live by
# difftest's TestRunnersAgreeWithSpark).
#
# pandas_udf (eval types 200, 202, 204): inputs become Arrow arrays of the
# types Spark's ArrowUtils sends and are turned into pandas by pyspark's own
# ArrowStreamPandasUDFSerializer / GroupPandasUDFSerializer; results go back
# to Arrow through the same serializer's _create_batch, with the runner
# configuration Spark 4.1.1 sends by default (session time zone UTC,
# convertToArrowArraySafely=false, assignColumnsByName=true).

import ctypes
import datetime
import decimal
import importlib.util
import json
import math
import os
import struct
import sys
import traceback

import udfx_jobfree  # written beside this driver (harness/internal/jobfree)

# pyarrow's default memory pool (jemalloc or mimalloc) reserves address
# space in large chunks, and RLIMIT_AS, which bounds the UDF's memory,
# counts reserved space: 500 generated rows of array<float> (a few MB) died
# with MemoryError at row 0 under a 1 GiB limit. The system allocator maps
# what is used. The pool decides where Arrow's buffers live, never a value.
# It must be set before pyarrow is imported.
os.environ["ARROW_DEFAULT_MEMORY_POOL"] = "system"

OUT = sys.stdout.buffer
ERR_NOT_REPRODUCIBLE = "udfx.NotReproducible"

_pack_d = struct.Struct("<d").pack
_unpack_d = struct.Struct("<d").unpack
_pack_q = struct.Struct("<Q").pack
_unpack_q = struct.Struct("<Q").unpack


class Fatal(Exception):
    """A problem with the run itself, not with the UDF's answer for a row."""


class NotReproducible(Exception):
    """Spark's answer depends on something udfx cannot reproduce."""


# Exceptions that end the run instead of becoming a row's result.
PASS_THROUGH = (MemoryError, Fatal, EOFError)


# ---------------------------------------------------------------- tokens


def units_hex(s):
    # UTF-16 code units, lone surrogates kept.
    return s.encode("utf-16-be", "surrogatepass").hex()


def str_from_units(h):
    return bytes.fromhex(h).decode("utf-16-be", "surrogatepass")


def double_bits(x):
    return _unpack_q(_pack_d(x))[0]


def double_from_bits(n):
    return _unpack_d(_pack_q(n))[0]


def float32_bits_of_double(x):
    # The hardware double -> float conversion, as Java's (float) cast:
    # round to nearest even, overflow to infinity, NaN payload kept.
    f = ctypes.c_float(x)
    return ctypes.c_uint32.from_buffer(f).value


def float32_to_double(bits):
    f = ctypes.c_uint32(bits)
    return ctypes.c_float.from_buffer(f).value


def error_token(cls, msg):
    return "E" + units_hex(cls) + ":" + units_hex(msg)


def exc_class(e):
    t = type(e)
    mod = t.__module__
    if mod in ("builtins", "__main__", None):
        return t.__qualname__
    return mod + "." + t.__qualname__


def exc_token(e):
    if isinstance(e, NotReproducible):
        return error_token(ERR_NOT_REPRODUCIBLE, str(e))
    return error_token(exc_class(e), str(e))


# ---------------------------------------------------------------- types


def load_type(j):
    from pyspark.sql.types import _parse_datatype_json_value

    return _parse_datatype_json_value(j)


def type_name(t):
    return type(t).__name__


# ------------------------------------------------ tokens -> internal values
#
# parse_internal reads one value in the form the JVM pickles it (what
# EvaluatePython.toJava makes of it, unpickled in Python): dates as day
# numbers and timestamps as microseconds (pyspark's fromInternal turns them
# into date and datetime), decimals as Decimal, structs as Rows.


def parse_internal(toks, i, t):
    tok = toks[i]
    c = tok[0]
    if c == "N":
        return None, i + 1
    name = type_name(t)
    if c in "TF":
        return c == "T", i + 1
    if c == "i" or c == "D" or c == "P":
        return int(tok[1:]), i + 1
    if c == "d":
        return double_from_bits(int(tok[1:], 16)), i + 1
    if c == "f":
        return float32_to_double(int(tok[1:], 16)), i + 1
    if c == "m":
        u, s = tok[1:].split("@")
        return decimal.Decimal(u + "E" + str(-int(s))), i + 1
    if c == "s":
        return str_from_units(tok[1:]), i + 1
    if c == "b":
        return bytes.fromhex(tok[1:]), i + 1
    if c == "[":
        et = t.elementType
        out = []
        i += 1
        while toks[i] != "]":
            v, i = parse_internal(toks, i, et)
            out.append(v)
        return out, i + 1
    if c == "{":
        kt, vt = t.keyType, t.valueType
        out = {}
        i += 1
        while toks[i] != "}":
            k, i = parse_internal(toks, i, kt)
            v, i = parse_internal(toks, i, vt)
            out[k] = v
        return out, i + 1
    if c == "(":
        if name != "StructType":
            raise Fatal("a struct value for a parameter of type %s" % t.simpleString())
        vals = []
        i += 1
        n = 0
        while toks[i] != ")":
            v, i = parse_internal(toks, i, t.fields[n].dataType)
            vals.append(v)
            n += 1
        # What unpickling a GenericRowWithSchema does:
        # _create_row_inbound_converter(schema)(*values).
        return t.fromInternal(tuple(vals)), i + 1
    raise Fatal("bad token %r" % tok)


def needs_conversion_in_python(t):
    # EvaluatePython.needConversionInPython.
    name = type_name(t)
    if name in ("DateType", "TimestampType", "TimestampNTZType", "DayTimeIntervalType", "StructType"):
        return True
    if name == "ArrayType":
        return needs_conversion_in_python(t.elementType)
    if name == "MapType":
        return needs_conversion_in_python(t.keyType) or needs_conversion_in_python(t.valueType)
    return False


def make_row_reader(param_types):
    from pyspark.sql.types import StructField, StructType

    n = len(param_types)
    if any(needs_conversion_in_python(t) for t in param_types):
        # BatchEvalPythonExec pickles the whole row as a GenericRowWithSchema;
        # unpickling runs the input schema's fromInternal over it.
        schema = StructType([StructField("_%d" % k, t) for k, t in enumerate(param_types)])

        def read(toks):
            vals = []
            i = 0
            for t in param_types:
                v, i = parse_internal(toks, i, t)
                vals.append(v)
            if i != len(toks):
                raise Fatal("row has more values than the UDF's %d parameters" % n)
            return list(schema.fromInternal(tuple(vals)))

        return read

    if n == 1 and type_name(param_types[0]) == "DoubleType":
        # The common case, kept short.
        def read_double(toks):
            if len(toks) != 1:
                raise Fatal("row has %d values, the UDF takes 1" % len(toks))
            tok = toks[0]
            if tok[0] == "d":
                return [_unpack_d(_pack_q(int(tok[1:], 16)))[0]]
            return [parse_internal(toks, 0, param_types[0])[0]]

        return read_double

    def read(toks):
        vals = []
        i = 0
        for t in param_types:
            v, i = parse_internal(toks, i, t)
            vals.append(v)
        if i != len(toks):
            raise Fatal("row has more values than the UDF's %d parameters" % n)
        return vals

    return read


# ------------------------------------------------------- Java emulation


INT_MIN, INT_MAX = -(2**31), 2**31 - 1
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1


def java_kind(o):
    """The Java class Pyrolite unpickles a pickled Python value as."""
    if o is None:
        return None
    if o is True or o is False:
        return "Boolean"
    t = type(o)
    if t is ByteBox:
        return "Integer"
    if t is int:
        if INT_MIN <= o <= INT_MAX:
            return "Integer"
        if LONG_MIN <= o <= LONG_MAX:
            return "Long"
        return "BigInteger"
    if t is float:
        return "Double"
    if t is str:
        return "String"
    if t is bytes or t is bytearray:
        return "byte[]"
    if t is decimal.Decimal:
        if not o.is_finite():
            if str(o) == "NaN":
                # Pyrolite's decimal constructor makes Double.NaN of it
                # (conversion_test.go: NULL in a decimal column, NaN in a
                # double column, "NaN" in a string column).
                return "DecimalDouble"
            # Infinity fails in new BigDecimal(...): Spark fails the task.
            raise JVMError(
                "net.razorvine.pickle.PickleException",
                "problem construction object: java.lang.reflect.InvocationTargetException",
            )
        return "BigDecimal"
    if t is list:
        return "List"
    if t is tuple:
        return "Object[]"
    if t is dict:
        return "Map"
    if t is set or t is frozenset:
        return "Set"
    raise NotReproducible(
        "a %s.%s result: udfx does not reproduce how Spark's JVM unpickles it"
        % (t.__module__, t.__qualname__)
    )


def wrap_int(v, bits):
    m = 1 << bits
    v &= m - 1
    if v >= m >> 1:
        v -= m
    return v


def _jdk_portable_double(x):
    # Whether every JDK prints x the same (mirrors jdkPortableString in
    # harness/engine/jdkfloat.go, whose classes were checked exhaustively on
    # JDK 17 and JDK 25): JDK 17's Double.toString is not always the
    # shortest form (2e23 prints as 1.9999999999999998E23, 5e-324 as
    # 4.9E-324), JDK 19+'s is, and Spark stores whatever the cluster's JVM
    # prints.
    if x != x or x in (math.inf, -math.inf) or x == 0.0:
        return True
    mant, exp = "{:e}".format(decimal.Decimal(repr(abs(x)))).split("e")
    digits = mant.replace(".", "").rstrip("0") or "0"
    exp = int(exp)
    nd = len(digits)
    if -3 <= exp <= 6 and nd <= 7:
        return True
    return nd <= 4 and (-307 <= exp <= 20 or 26 <= exp <= 308)


def java_double_string(x):
    # Double.toString as every JDK prints it: the shortest decimal that
    # reads back as x, for the values whose form does not depend on the JDK
    # (see _jdk_portable_double); the others are not reproducible.
    if not _jdk_portable_double(x):
        raise NotReproducible(
            "a float result for a string column: Spark stores Java's Double.toString of %r, "
            "which differs between JDK 17 and JDK 19+ for this value" % x
        )
    if x != x:
        return "NaN"
    if x == math.inf:
        return "Infinity"
    if x == -math.inf:
        return "-Infinity"
    if x == 0.0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign = "-" if x < 0 else ""
    d = decimal.Decimal(repr(abs(x)))
    _, digits, exp = d.as_tuple()
    ds = "".join(map(str, digits)).rstrip("0") or "0"
    exp += len(digits) - len(ds)
    sci = len(ds) - 1 + exp  # x = d.ddd * 10**sci
    ax = abs(x)
    if 1e-3 <= ax < 1e7:
        if sci >= 0:
            ip = ds[: sci + 1].ljust(sci + 1, "0")
            fp = ds[sci + 1 :] or "0"
        else:
            ip = "0"
            fp = "0" * (-sci - 1) + ds
        return sign + ip + "." + fp
    return sign + ds[0] + "." + (ds[1:] or "0") + "E" + str(sci)


def java_string_of_string(s):
    # Pyrolite reads the pickle's UTF-8 (lone surrogates written with
    # "surrogatepass") with Java's decoder, which turns each lone
    # surrogate's three bytes into one U+FFFD (confirmed by
    # conversion_test.go).
    if not _has_surrogate(s):
        return s
    return "".join("\ufffd" if 0xD800 <= ord(c) < 0xE000 else c for c in s)


def _has_surrogate(s):
    try:
        s.encode("utf-8")
        return False
    except UnicodeEncodeError:
        return True


def java_to_string(k, o):
    if k == "String":
        return java_string_of_string(o)
    if k == "Boolean":
        return "true" if o else "false"
    if k in ("Integer", "Long", "BigInteger"):
        return str(o)
    if k == "Double" or k == "DecimalDouble":
        return java_double_string(float(o))
    if k == "BigDecimal":
        # BigDecimal.toString and Python's Decimal.__str__ both follow the
        # "to-scientific-string" rules; Pyrolite keeps digits and exponent.
        return str(o)
    if k == "List" or (k == "Set" and len(o) <= 1):
        # AbstractCollection.toString; a set of one element has one order.
        return "[" + ", ".join("null" if e is None else java_to_string(java_kind(e), e) for e in o) + "]"
    if k == "Map" and len(o) <= 1:
        # AbstractMap.toString, which a map of one entry prints one way.
        return "{" + ", ".join(
            ("null" if a is None else java_to_string(java_kind(a), a))
            + "="
            + ("null" if b is None else java_to_string(java_kind(b), b))
            for a, b in o.items()
        ) + "}"
    raise NotReproducible(
        "a %s result for a string column: Spark stores Java's toString of a %s, "
        "which depends on hash order or object identity" % (type(o).__name__, k)
    )


def make_from_java(t):
    """EvaluatePython.makeFromJava(t) applied to what Pyrolite unpickles.

    Returns a function from a Python value (after toInternal) to the value
    Spark stores, as an internal Python value: None, bool, int, float (for
    float columns the float32 bits as an int wrapped in F), Decimal, str,
    bytes, list, list of pairs, tuple."""
    name = type_name(t)
    if name == "BooleanType":
        return lambda o: o if java_kind(o) == "Boolean" else None
    if name in ("ByteType", "ShortType", "IntegerType", "LongType"):
        bits = {"ByteType": 8, "ShortType": 16, "IntegerType": 32, "LongType": 64}[name]

        def conv_int(o):
            k = java_kind(o)
            if k == "Integer" or k == "Long":
                return wrap_int(o, bits)
            return None

        return conv_int
    if name == "FloatType":

        def conv_float(o):
            k = java_kind(o)
            if k == "Double" or k == "DecimalDouble":
                return F(float32_bits_of_double(float(o)))
            return None

        return conv_float
    if name == "DoubleType":

        def conv_double(o):
            k = java_kind(o)
            if k == "Double":
                return o
            if k == "DecimalDouble":
                return float(o)
            return None

        return conv_double
    if name == "DecimalType":
        p, s = t.precision, t.scale

        def conv_dec(o):
            if java_kind(o) != "BigDecimal":
                return None
            # Decimal.set(BigDecimal, p, s): setScale(s, HALF_UP), then
            # fail if the precision exceeds p.
            ctx = decimal.Context(prec=1000, rounding=decimal.ROUND_HALF_UP)
            q = o.quantize(decimal.Decimal(1).scaleb(-s), context=ctx)
            digits = len(q.as_tuple().digits)
            if digits > p:
                raise JVMError(
                    "org.apache.spark.SparkArithmeticException",
                    "[NUMERIC_VALUE_OUT_OF_RANGE.WITHOUT_SUGGESTION]  The %s rounded half up from %s "
                    "cannot be represented as Decimal(%d, %d). SQLSTATE: 22003" % (q, o, p, s),
                )
            return q

        return conv_dec
    if name == "DateType":
        return lambda o: o if java_kind(o) == "Integer" else None
    if name in ("TimestampType", "TimestampNTZType"):
        return lambda o: o if java_kind(o) in ("Integer", "Long") else None
    if name in ("StringType", "CharType", "VarcharType"):

        def conv_str(o):
            k = java_kind(o)
            if k is None:
                return None
            return java_to_string(k, o)

        return conv_str
    if name == "BinaryType":

        def conv_bin(o):
            k = java_kind(o)
            if k == "byte[]":
                return bytes(o)
            if k == "String":
                # String.getBytes(UTF_8): a lone surrogate (already U+FFFD
                # after Pyrolite's decoding) cannot occur here.
                return java_string_of_string(o).encode("utf-8")
            return None

        return conv_bin
    if name == "ArrayType":
        ef = make_from_java(t.elementType)

        def conv_arr(o):
            k = java_kind(o)
            if k == "List" or k == "Object[]":
                return [ef(e) for e in o]
            if k == "byte[]":
                # byte[] elements are java.lang.Byte: signed.
                return [ef(ByteBox(wrap_int(b, 8))) for b in o]
            return None

        return conv_arr
    if name == "MapType":
        kf, vf = make_from_java(t.keyType), make_from_java(t.valueType)

        def conv_map(o):
            if java_kind(o) != "Map":
                return None
            return [(kf(k), vf(v)) for k, v in o.items()]

        return conv_map
    if name == "StructType":
        ffs = [make_from_java(f.dataType) for f in t.fields]

        def conv_struct(o):
            k = java_kind(o)
            if k == "Object[]":
                if len(o) != len(ffs):
                    raise JVMError(
                        "org.apache.spark.SparkIllegalArgumentException",
                        "[STRUCT_ARRAY_LENGTH_MISMATCH] Input row doesn't have expected number of values "
                        "required by the schema. %d fields are required while %d values are provided."
                        % (len(ffs), len(o)),
                    )
                return tuple(f(e) for f, e in zip(ffs, o))
            return None

        return conv_struct
    raise Fatal("udfx does not run UDFs returning %s" % t.simpleString())


class F(int):
    """A float column's value: its float32 bits."""


class ByteBox(int):
    """A java.lang.Byte element of a byte[] (signed)."""


class JVMError(Exception):
    def __init__(self, cls, msg):
        super().__init__(msg)
        self.cls = cls


def encode_internal(t, v):
    """Token of a value Spark stores, as make_from_java returns it."""
    if v is None:
        return "N"
    name = type_name(t)
    if name == "BooleanType":
        return "T" if v else "F"
    if name in ("ByteType", "ShortType", "IntegerType", "LongType"):
        return "i%d" % v
    if name == "FloatType":
        return "f%08x" % v
    if name == "DoubleType":
        return "d%016x" % double_bits(v)
    if name == "DecimalType":
        return decimal_token(v, t.scale)
    if name in ("StringType", "CharType", "VarcharType"):
        return "s" + units_hex(v)
    if name == "BinaryType":
        return "b" + bytes(v).hex()
    if name == "DateType":
        return "D%d" % v
    if name in ("TimestampType", "TimestampNTZType"):
        return "P%d" % v
    if name == "ArrayType":
        et = t.elementType
        return " ".join(["["] + [encode_internal(et, e) for e in v] + ["]"])
    if name == "MapType":
        parts = ["{"]
        for k, x in v:
            parts.append(encode_internal(t.keyType, k))
            parts.append(encode_internal(t.valueType, x))
        parts.append("}")
        return " ".join(parts)
    if name == "StructType":
        return " ".join(["("] + [encode_internal(f.dataType, e) for f, e in zip(t.fields, v)] + [")"])
    raise Fatal("cannot encode %s" % t.simpleString())


def decimal_token(d, scale):
    ctx = decimal.Context(prec=1000)
    u = int(d.scaleb(scale, context=ctx))
    return "m%d@%d" % (u, scale)


# ------------------------------------------------------- Arrow -> tokens


def arrow_tokens(arr):
    """Tokens of every row of a pyarrow Array (one chunk)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.types as pt

    n = len(arr)
    t = arr.type
    valid = np.ones(n, dtype=bool) if arr.null_count == 0 else ~np.asarray(arr.is_null())
    if pt.is_null(t):
        return ["N"] * n
    if pt.is_float64(t) or pt.is_float32(t):
        vals = arr.fill_null(0).to_numpy(zero_copy_only=False)
        if pt.is_float64(t):
            bits = vals.view(np.uint64)
            fmt = "d%016x"
        else:
            bits = vals.view(np.uint32)
            fmt = "f%08x"
        return [fmt % int(b) if ok else "N" for b, ok in zip(bits, valid)]
    if pt.is_boolean(t):
        return ["N" if v is None else ("T" if v else "F") for v in arr.to_pylist()]
    if pt.is_integer(t):
        return ["N" if v is None else "i%d" % v for v in arr.to_pylist()]
    if pt.is_decimal(t):
        return ["N" if v is None else decimal_token(v, t.scale) for v in arr.to_pylist()]
    if pt.is_string(t) or pt.is_large_string(t):
        return ["N" if v is None else "s" + units_hex(v) for v in arr.to_pylist()]
    if pt.is_binary(t) or pt.is_large_binary(t):
        return ["N" if v is None else "b" + v.hex() for v in arr.to_pylist()]
    if pt.is_date32(t):
        return ["N" if v is None else "D%d" % v for v in arr.cast(pa.int32()).to_pylist()]
    if pt.is_timestamp(t):
        div = {"s": None, "ms": None, "us": 1, "ns": 1000}[t.unit]
        mul = {"s": 1_000_000, "ms": 1000, "us": 1, "ns": 1}[t.unit]
        raw = arr.cast(pa.int64()).to_pylist()
        if t.unit == "ns":
            return ["N" if v is None else "P%d" % (v // div) for v in raw]
        return ["N" if v is None else "P%d" % (v * mul) for v in raw]
    if pt.is_list(t) or pt.is_large_list(t):
        offs = arr.offsets.to_pylist()
        inner = arrow_tokens(arr.values)
        return [
            " ".join(["["] + inner[offs[j] : offs[j + 1]] + ["]"]) if ok else "N" for j, ok in enumerate(valid)
        ]
    if pt.is_map(t):
        offs = arr.offsets.to_pylist()
        ks = arrow_tokens(arr.keys)
        vs = arrow_tokens(arr.items)
        out = []
        for j, ok in enumerate(valid):
            if not ok:
                out.append("N")
                continue
            parts = ["{"]
            for q in range(offs[j], offs[j + 1]):
                parts.append(ks[q])
                parts.append(vs[q])
            parts.append("}")
            out.append(" ".join(parts))
        return out
    if pt.is_struct(t):
        cols = [arrow_tokens(arr.field(k)) for k in range(t.num_fields)]
        return [" ".join(["("] + [c[j] for c in cols] + [")"]) if ok else "N" for j, ok in enumerate(valid)]
    raise Fatal("cannot encode Arrow type %s" % t)


# ------------------------------------------------------- tokens -> Arrow


def build_arrow(t, rows):
    """A pyarrow Array of Spark type t from parsed internal values."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import to_arrow_type

    at = to_arrow_type(t, timestamp_utc=True)
    return pa.array([to_arrow_py(t, v) for v in rows], type=at)


def to_arrow_py(t, v):
    # Internal values (day numbers, microseconds) -> what pa.array accepts.
    if v is None:
        return None
    name = type_name(t)
    if name == "DateType":
        return datetime.date(1970, 1, 1) + datetime.timedelta(days=v)
    if name == "TimestampType" or name == "TimestampNTZType":
        return v  # pa.array takes integers for timestamp('us')
    if name == "FloatType":
        return v
    if name == "BinaryType":
        return bytes(v)
    if name == "ArrayType":
        return [to_arrow_py(t.elementType, e) for e in v]
    if name == "MapType":
        return [(to_arrow_py(t.keyType, k), to_arrow_py(t.valueType, x)) for k, x in v.items()]
    if name == "StructType":
        return {f.name: to_arrow_py(f.dataType, e) for f, e in zip(t.fields, v)}
    return v


def parse_raw(toks, i, t):
    # Like parse_internal but structs stay tuples (for Arrow).
    tok = toks[i]
    c = tok[0]
    if c == "(":
        vals = []
        i += 1
        n = 0
        while toks[i] != ")":
            v, i = parse_raw(toks, i, t.fields[n].dataType)
            vals.append(v)
            n += 1
        return tuple(vals), i + 1
    if c == "[":
        out = []
        i += 1
        while toks[i] != "]":
            v, i = parse_raw(toks, i, t.elementType)
            out.append(v)
        return out, i + 1
    if c == "{":
        out = {}
        i += 1
        while toks[i] != "}":
            k, i = parse_raw(toks, i, t.keyType)
            v, i = parse_raw(toks, i, t.valueType)
            out[k] = v
        return out, i + 1
    return parse_internal(toks, i, t)



# ---------------------------------------------------------- DDL strings
#
# pyspark 4.1.1 parses a DDL return type ("float", "array<double>") in the
# JVM, as soon as @udf / @pandas_udf wraps the function (udf.py _wrapped
# reads .returnType). With no SparkContext that raises
# SESSION_OR_CONTEXT_NOT_EXISTS, so the driver puts this parser behind
# pyspark's: it tries the JVM first and parses Spark's DDL grammar for data
# types itself only when there is none. The runner checks the result
# against udfx's own parse of the UDF's declared type.

_DDL_PRIMS = {
    "boolean": "BooleanType", "tinyint": "ByteType", "byte": "ByteType",
    "smallint": "ShortType", "short": "ShortType", "int": "IntegerType",
    "integer": "IntegerType", "bigint": "LongType", "long": "LongType",
    "float": "FloatType", "real": "FloatType", "double": "DoubleType",
    "string": "StringType", "binary": "BinaryType", "date": "DateType",
    "timestamp": "TimestampType", "timestamp_ltz": "TimestampType",
    "timestamp_ntz": "TimestampNTZType", "void": "NullType",
}


class _DDL:
    def __init__(self, s):
        import re

        self.toks = re.findall(r"`(?:[^`]|``)*`|[A-Za-z_][A-Za-z0-9_]*|\d+|[<>(),:]", s)
        if "".join(self.toks).replace("``", "`") != "".join(ch for ch in s if not ch.isspace()).replace("``", "`"):
            raise ValueError("unsupported DDL %r" % s)
        self.i = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, want=None):
        t = self.peek()
        if t is None or (want is not None and t.lower() != want):
            raise ValueError("bad DDL near %r" % t)
        self.i += 1
        return t

    def name(self):
        t = self.take()
        if t.startswith("`"):
            return t[1:-1].replace("``", "`")
        return t

    def dtype(self):
        from pyspark.sql import types as T

        w = self.take().lower()
        if w in _DDL_PRIMS:
            return getattr(T, _DDL_PRIMS[w])()
        if w in ("decimal", "dec", "numeric"):
            p, s = 10, 0
            if self.peek() == "(":
                self.take("(")
                p = int(self.take())
                if self.peek() == ",":
                    self.take(",")
                    s = int(self.take())
                self.take(")")
            return T.DecimalType(p, s)
        if w in ("char", "varchar"):
            self.take("(")
            self.take()
            self.take(")")
            return T.StringType()
        if w == "array":
            self.take("<")
            e = self.dtype()
            self.take(">")
            return T.ArrayType(e)
        if w == "map":
            self.take("<")
            k = self.dtype()
            self.take(",")
            v = self.dtype()
            self.take(">")
            return T.MapType(k, v)
        if w == "struct":
            self.take("<")
            fields = []
            if self.peek() != ">":
                fields = self.fields(">")
            self.take(">")
            return T.StructType(fields)
        raise ValueError("unsupported DDL type %r" % w)

    def fields(self, end):
        from pyspark.sql import types as T

        out = []
        while True:
            n = self.name()
            if self.peek() == ":":
                self.take(":")
            out.append(T.StructField(n, self.dtype()))
            if self.peek() != ",":
                return out
            self.take(",")


def parse_ddl(s):
    from pyspark.sql import types as T

    p = _DDL(s)
    # A bare data type, else a field list ("a int, b string") as a struct.
    try:
        t = p.dtype()
        if p.peek() is None:
            return t
    except ValueError:
        pass
    p.i = 0
    fields = p.fields(None)
    if p.peek() is not None:
        raise ValueError("unsupported DDL %r" % s)
    return T.StructType(fields)


def install_ddl_parser():
    import pyspark.sql.types as T
    import pyspark.sql.udf as U

    jvm_parse = T._parse_datatype_string

    def parse(s):
        try:
            return jvm_parse(s)
        except Exception as e:
            try:
                return parse_ddl(s)
            except ValueError:
                raise e

    T._parse_datatype_string = parse
    U._parse_datatype_string = parse

# ------------------------------------------------------------- loading


def emit(line):
    OUT.write(line.encode("utf-8") + b"\n")


def fail(kind, **payload):
    emit("ERR %s %s" % (kind, json.dumps(payload)))
    OUT.flush()
    sys.exit(0)


def user_frame_line(path, tb):
    line = 0
    for fr in traceback.extract_tb(tb):
        if os.path.abspath(fr.filename) == path:
            line = fr.lineno or 0
    return line


def preload_libraries(cfg):
    """Imports pandas, pyarrow and numpy before the memory limit when the
    UDF is a pandas_udf or its source names them."""
    want = cfg.get("kind") == "pandas-udf"
    if not want:
        try:
            with open(cfg["file"], "rb") as f:
                src = f.read(4 << 20)
            want = any(w in src for w in (b"pandas", b"numpy", b"pyarrow"))
        except OSError:
            pass
    if not want:
        return
    for name in ("numpy", "pandas", "pyarrow", "pyspark.worker"):
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 -- reported later, where it is needed
            pass


def load_module(path, memory_mb=0, udf_name=None, source=None):
    """Imports the UDF's module without its top-level job (udfx_jobfree). Returns
    the module and the left-out lines ("" when none). source, for a notebook,
    is the file of its code cells' Python; path stays the module's file."""
    name = "udfx_user_module"
    d = os.path.dirname(path)
    if d not in sys.path:
        sys.path.insert(0, d)
    pkg_name, pkg_root = udfx_jobfree.package_of(path)
    if pkg_name:
        why = udfx_jobfree.package_clash(pkg_name, pkg_root)
        if why:
            fail("compile", file=path, line=0, msg=why)
        name = pkg_name
        if pkg_root not in sys.path:
            sys.path.insert(0, pkg_root)
    try:
        jf = udfx_jobfree.parse(source or path)
    except SyntaxError as e:
        fail("compile", file=path if source else e.filename or path, line=e.lineno or 0, msg="%s: %s" % (type(e).__name__, e.msg))
    except OSError as e:
        fail("compile", file=path, line=0, msg="cannot read %s: %s" % (path, e))
    if udf_name:
        why, line = udfx_jobfree.refusal(jf, udf_name)
        if why:
            fail("compile", file=path, line=line, msg=why)
    search = [d] if os.path.basename(path) == "__init__.py" else None
    if source:
        spec = importlib.util.spec_from_loader(name, None, origin=path)
    else:
        spec = importlib.util.spec_from_file_location(name, path, submodule_search_locations=search)
    if spec is None:
        fail("compile", file=path, line=0, msg="cannot import %s as a Python module" % path)
    mod = importlib.util.module_from_spec(spec)
    if source:
        mod.__file__ = path
    sys.modules[name] = mod
    try:
        # Run under a name other than __main__, so the file's
        # `if __name__ == "__main__":` block does not run either.
        udfx_jobfree.run(jf, path, mod.__dict__)
    except MemoryError as e:
        fail("compile", file=path, line=user_frame_line(path, e.__traceback__),
             msg="MemoryError: importing the module went over the memory limit (--memory %d MiB)" % memory_mb)
    except ModuleNotFoundError as e:
        top = (e.name or "").split(".")[0]
        if top in ("pyspark", "pandas", "pyarrow", "numpy", "py4j"):
            fail("env", what=top, msg="%s (install it in the interpreter udfx uses)" % e)
        fail("compile", file=path, line=user_frame_line(path, e.__traceback__), msg="%s: %s" % (exc_class(e), e))
    except BaseException as e:  # noqa: B036 -- any import failure is the user's
        fail("compile", file=path, line=user_frame_line(path, e.__traceback__), msg="%s: %s" % (exc_class(e), e))
    return mod, jf.lines()


def resolve(cfg, mod):
    """The raw function, its eval type and its return type."""
    from pyspark.util import PythonEvalType

    name = cfg["name"]
    obj = getattr(mod, name, None)
    if cfg.get("factory"):
        obj, why = udfx_jobfree.from_factory(mod, cfg["factory"], name, cfg.get("kind"))
        if why:
            fail("notcallable", udf=name, reason=why)
    if obj is None:
        reason = "no module-level name %r in %s" % (name, cfg["file"])
        if name.startswith("<lambda"):
            reason = "an anonymous lambda is not reachable from the module's top level"
        if cfg.get("kind") == "rdd-lambda":
            reason = "an RDD lambda runs inside a Spark job; it is not a UDF object udfx can import"
        fail("notcallable", udf=name, reason=reason)
    func = getattr(obj, "func", None)
    eval_type = getattr(obj, "evalType", None)
    rt = None
    if func is not None and eval_type is not None:
        from pyspark.sql.types import DataType

        raw = getattr(obj, "returnType", None)
        if isinstance(raw, DataType):
            rt = raw
    elif callable(obj):
        func = obj
        kind = cfg.get("kind")
        if kind == "pandas-udf":
            eval_type = {
                "series-to-series": PythonEvalType.SQL_SCALAR_PANDAS_UDF,
                "iterator-of-series": PythonEvalType.SQL_SCALAR_PANDAS_ITER_UDF,
                "iterator-of-multiple-series": PythonEvalType.SQL_SCALAR_PANDAS_ITER_UDF,
                "series-to-scalar": PythonEvalType.SQL_GROUPED_AGG_PANDAS_UDF,
            }.get(cfg.get("flavor"))
            if eval_type is None:
                fail("notcallable", udf=name, reason="pandas_udf flavor %r is not one udfx runs" % cfg.get("flavor"))
        else:
            # spark.udf.register("name", f, T) and udf(f, T) make a plain
            # pickled UDF unless useArrow is given.
            eval_type = PythonEvalType.SQL_BATCHED_UDF
    else:
        fail("notcallable", udf=name, reason="%s is a %s, not a function or UDF" % (name, type(obj).__name__))
    if rt is None:
        if cfg.get("return_type") is None:
            fail("config", msg="the return type of %s is a DDL string udfx was not given parsed" % name)
        rt = load_type(cfg["return_type"])
    supported = (
        PythonEvalType.SQL_BATCHED_UDF,
        PythonEvalType.SQL_SCALAR_PANDAS_UDF,
        PythonEvalType.SQL_SCALAR_PANDAS_ITER_UDF,
        PythonEvalType.SQL_GROUPED_AGG_PANDAS_UDF,
    )
    if eval_type not in supported:
        what = {
            PythonEvalType.SQL_ARROW_BATCHED_UDF: "an Arrow-optimized Python UDF (useArrow=True)",
            PythonEvalType.SQL_GROUPED_MAP_PANDAS_UDF: "a grouped-map pandas function",
        }.get(eval_type, "a UDF of eval type %d" % eval_type)
        fail("notcallable", udf=name, reason="%s is not supported by udfx's Python runner" % what)
    return func, eval_type, rt


def set_memory_limit(mb):
    if not mb:
        return
    import resource

    # The limit is on address space the UDF may add to what the interpreter
    # and its libraries (pandas, pyarrow) already map.
    used = 0
    try:
        with open("/proc/self/statm") as f:
            used = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        pass
    limit = used + mb * 1024 * 1024
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError):
        pass


# ------------------------------------------------------------- running


def read_rows(inp):
    """Lines of one Run, up to "="; None at end of input."""
    for raw in inp:
        line = raw.rstrip(b"\n").decode("ascii")
        if line == "=":
            return
        yield line
    raise EOFError


def make_batched(func, rt):
    from pyspark.util import fail_on_stopiteration

    f = fail_on_stopiteration(func)
    to_internal = rt.toInternal if rt.needConversion() else None
    from_java = make_from_java(rt)
    is_double = type_name(rt) == "DoubleType"
    w = OUT.write

    def run(lines, param_types):
        if is_double and len(param_types) == 1 and type_name(param_types[0]) == "DoubleType":
            return run_double(lines)
        read = make_row_reader(param_types)
        for line in lines:
            try:
                r = f(*read(line.split()))
                if to_internal is not None:
                    r = to_internal(r)
                if is_double and type(r) is float:
                    w(b"d%016x\n" % _unpack_q(_pack_d(r))[0])
                    continue
                tok = encode_internal(rt, from_java(r))
            except PASS_THROUGH:
                raise
            except JVMError as e:
                tok = error_token(e.cls, str(e))
            except Exception as e:
                tok = exc_token(e)
            w(tok.encode("ascii") + b"\n")

    unpack_be = struct.Struct(">d").unpack
    pack_be = struct.Struct(">d").pack
    fromhex = bytes.fromhex

    def run_double(lines):
        # double -> double, the common case: the same steps without the
        # generic conversions (a double reaches the UDF as a float, a float
        # result is stored as is, anything else goes the long way).
        dt = DoubleType_()
        for line in lines:
            try:
                if line[0] == "d":
                    r = f(unpack_be(fromhex(line[1:]))[0])
                else:
                    r = f(*make_row_reader([dt])(line.split()))
                if type(r) is float:
                    w(b"d" + pack_be(r).hex().encode() + b"\n")
                    continue
                tok = encode_internal(rt, from_java(r))
            except PASS_THROUGH:
                raise
            except Exception as e:
                tok = exc_token(e)
            w(tok.encode("ascii") + b"\n")

    return run


def DoubleType_():
    from pyspark.sql.types import DoubleType

    return DoubleType()


def make_pandas(func, eval_type, rt, batch_size):
    import pandas as pd  # noqa: F401 -- fail early when pandas is missing
    import pyarrow as pa
    from pyspark import worker
    from pyspark.sql.pandas.serializers import ArrowStreamPandasUDFSerializer, GroupPandasUDFSerializer
    from pyspark.util import PythonEvalType, fail_on_stopiteration

    # What the JVM's ArrowPythonRunner sends by default in Spark 4.1.1.
    runner_conf = {
        "spark.sql.session.timeZone": "UTC",
        "spark.sql.execution.pandas.convertToArrowArraySafely": "false",
        "spark.sql.legacy.execution.pandas.groupedMap.assignColumnsByName": "true",
    }
    timezone = "UTC"
    # Offsets are only used for keyword arguments, which udfx never passes.
    offsets = list(range(64))
    if eval_type == PythonEvalType.SQL_GROUPED_AGG_PANDAS_UDF:
        ser = GroupPandasUDFSerializer(timezone, False, True, False)
        _, udf = worker.wrap_grouped_agg_pandas_udf(fail_on_stopiteration(func), offsets, {}, rt, runner_conf)
    elif eval_type == PythonEvalType.SQL_SCALAR_PANDAS_UDF:
        ser = ArrowStreamPandasUDFSerializer(timezone, False, True, True, "dict", False, True, None, False)
        _, udf = worker.wrap_scalar_pandas_udf(fail_on_stopiteration(func), offsets, {}, rt, runner_conf)
    else:
        ser = ArrowStreamPandasUDFSerializer(timezone, False, True, True, "dict", False, True, None, False)
        udf = worker.wrap_pandas_batch_iter_udf(func, rt, runner_conf)

    def to_batch(lines, param_types):
        n = len(param_types)
        cols = [[] for _ in range(n)]
        for line in lines:
            toks = line.split()
            i = 0
            for k, t in enumerate(param_types):
                v, i = parse_raw(toks, i, t)
                cols[k].append(v)
        return [build_arrow(t, c) for t, c in zip(param_types, cols)]

    def series_of(arrays):
        return [ser.arrow_to_pandas(a, k) for k, a in enumerate(arrays)]

    def batches(lines_iter):
        buf = []
        for line in lines_iter:
            buf.append(line)
            if len(buf) == batch_size:
                yield buf
                buf = []
        if buf:
            yield buf

    def result_tokens(res):
        rb = ser._create_batch(res)
        return arrow_tokens(rb.column(0))

    w = OUT.write

    def put(toks):
        w(("\n".join(toks) + "\n").encode("ascii") if toks else b"")

    def run(lines, param_types):
        n = len(param_types)
        if eval_type == PythonEvalType.SQL_GROUPED_AGG_PANDAS_UDF:
            # The whole input is one group: Spark concatenates a group's
            # batches into one table before calling the function.
            all_lines = list(lines)
            try:
                arrays = to_batch(all_lines, param_types)
                if n:
                    arrays = [pa.chunked_array([a]).combine_chunks() for a in arrays]
                put(result_tokens(udf(*series_of(arrays))))
            except PASS_THROUGH:
                raise
            except Exception as e:
                put([exc_token(e)])
        elif eval_type == PythonEvalType.SQL_SCALAR_PANDAS_UDF:
            for b in batches(lines):
                try:
                    toks = result_tokens(udf(*series_of(to_batch(b, param_types))))
                except PASS_THROUGH:
                    raise
                except Exception as e:
                    toks = [exc_token(e)] * len(b)
                put(toks)
        else:
            sizes = []
            done = 0

            def feed():
                for b in batches(lines):
                    sizes.append(len(b))
                    s = series_of(to_batch(b, param_types))
                    yield s[0] if n == 1 else tuple(s)

            try:
                for res in udf(feed()):
                    toks = result_tokens(res)
                    done += len(toks)
                    put(toks)
                if done != sum(sizes):
                    raise worker.PySparkRuntimeError(
                        errorClass="RESULT_LENGTH_MISMATCH_FOR_SCALAR_ITER_PANDAS_UDF",
                        messageParameters={"output_length": str(done), "input_length": str(sum(sizes))},
                    )
            except PASS_THROUGH:
                raise
            except Exception as e:
                # Spark fails the task: every row not answered yet gets it.
                for _ in lines:
                    sizes.append(1)
                put([exc_token(e)] * max(0, sum(sizes) - done))

    return run



def main():
    global OUT
    # The protocol keeps its own copies of stdin and stdout; fd 0 becomes
    # /dev/null and fd 1 stderr. A UDF that prints (for debugging, as
    # PySpark UDFs do: Spark sends it to the executor's log), writes to fd 1
    # from a C library or reads stdin would otherwise corrupt the rows and
    # results. Unbuffered, as -u made stdout: a result line leaves at once,
    # so a runaway row is located.
    inp = os.fdopen(os.dup(0), "rb")
    OUT = os.fdopen(os.dup(1), "wb", buffering=0)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    cfg = json.loads(inp.readline())
    path = os.path.abspath(cfg["file"])
    cfg["file"] = path
    if sys.version_info < (3, 9):
        fail("env", what="Python", msg="Python %s is too old; PySpark 4 needs 3.9 or later" % sys.version.split()[0])
    try:
        import pyspark
        from pyspark.sql.types import _parse_datatype_json_value  # noqa: F401
    except ImportError as e:
        fail("env", what="pyspark", msg="cannot import pyspark: %s" % e)
    install_ddl_parser()
    # The memory limit applies from the user's import on: a module that
    # allocates at import time is bounded too. The libraries the module or
    # the driver needs anyway are loaded first, so that their mappings
    # count in the baseline, not against the UDF.
    preload_libraries(cfg)
    set_memory_limit(cfg.get("memory_mb", 0))
    # A UDF a factory makes is reached through the factory's name.
    reached_by = cfg["factory"]["name"] if cfg.get("factory") else cfg["name"]
    mod, left_out = load_module(path, cfg.get("memory_mb", 0), reached_by, cfg.get("source"))
    func, eval_type, rt = resolve(cfg, mod)
    want = cfg.get("return_type")
    if want is not None and load_type(want) != rt:
        fail("config", msg="%s returns %s in pyspark but %s in udfx's parse of the source"
             % (cfg["name"], rt.simpleString(), load_type(want).simpleString()))
    if eval_type != 100:
        try:
            import pandas  # noqa: F401
            import pyarrow  # noqa: F401
            from pyspark import worker  # noqa: F401
        except ImportError as e:
            fail("env", what=(e.name or "pandas"), msg="a pandas_udf needs pandas and pyarrow: %s" % e)
    if eval_type == 100:
        run = make_batched(func, rt)
    else:
        run = make_pandas(func, eval_type, rt, cfg.get("batch_size") or 10000)
    import unicodedata

    greeting = "OK %d %s %s unicode:%s" % (eval_type, sys.version.split()[0], pyspark.__version__, unicodedata.unidata_version)
    if left_out:
        greeting += " left-out:" + left_out
    emit(greeting)
    OUT.flush()
    types_cache = {}
    try:
        while True:
            hdr = inp.readline()
            if not hdr:
                return
            param_types = types_cache.get(hdr)
            if param_types is None:
                param_types = [load_type(j) for j in json.loads(hdr)]
                types_cache[hdr] = param_types
            run(read_rows(inp), param_types)
            OUT.write(b"=\n")
            OUT.flush()
    except EOFError:
        return
    except MemoryError:
        emit("!" + json.dumps({"reason": "MemoryError: the UDF exceeded the memory limit"}))
    except Fatal as e:
        emit("!" + json.dumps({"reason": str(e)}))
    except BaseException as e:  # noqa: B036 -- report, then exit
        emit("!" + json.dumps({"reason": "driver failure: %s: %s" % (exc_class(e), e), "trace": traceback.format_exc()}))
    OUT.flush()
    sys.exit(3)


# ------------------------------------------------------------- warm start
#
# A run over a repository starts one driver per UDF; most of each start is
# CPython's and pyspark's imports. With "--zygote", the driver imports what
# every driver imports before the user's module (pyspark, and for the
# pandas flavour what preload_libraries loads), then forks one child per
# request, as Spark's own pyspark.daemon forks its workers. Requests come
# on a socket (descriptor 3): a JSON object {"cwd": ...} with the child's
# stdin, stdout and stderr as SCM_RIGHTS descriptors. The child becomes a
# driver exactly as main() runs above; the zygote waits for it, answers
# the raw wait status, and, when contained, clears what the child left
# behind (processes, files in /tmp and /dev/shm, System V IPC objects), so
# that the next child finds the sandbox as a fresh start would. One child
# at a time: the runner's pool starts a zygote per concurrent UDF.


def zygote_preload(pandas_libs):
    import pyspark  # noqa: F401
    import pyspark.sql.types  # noqa: F401
    import pyspark.sql.udf  # noqa: F401
    import pyspark.util  # noqa: F401
    import unicodedata  # noqa: F401

    if pandas_libs:
        for name in ("numpy", "pandas", "pyarrow", "pyspark.worker"):
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 -- the child reports it, as main() does
                pass


def zygote_snapshot(root):
    """The paths under root, not crossing into other mounts: what the
    sandbox had before any child ran."""
    seen = set()
    if not os.path.isdir(root):
        return seen
    for dirpath, dirnames, filenames in os.walk(root):
        keep = []
        for d in dirnames:
            p = os.path.join(dirpath, d)
            seen.add(p)
            if not os.path.ismount(p):
                keep.append(d)
        dirnames[:] = keep
        for f in filenames:
            seen.add(os.path.join(dirpath, f))
    return seen


def zygote_clear_files(root, before):
    for dirpath, dirnames, filenames in os.walk(root, topdown=False):
        for f in filenames:
            p = os.path.join(dirpath, f)
            if p not in before:
                try:
                    os.unlink(p)
                except OSError:
                    pass
        for d in dirnames:
            p = os.path.join(dirpath, d)
            if p in before:
                continue
            if os.path.islink(p):
                try:
                    os.unlink(p)
                except OSError:
                    pass
                continue
            # Bottom-up: what was inside is gone already.
            try:
                os.rmdir(p)
            except OSError:
                pass


def zygote_kill_others():
    """SIGKILL every process of the sandbox's namespace but the zygote and
    its ancestors; returns how many were signalled."""
    import signal

    keep = set()
    pid = os.getpid()
    while pid > 0 and pid not in keep:
        keep.add(pid)
        try:
            with open("/proc/%d/stat" % pid) as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    n = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in keep:
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue  # dead, waiting for the zygote to reap it
            os.kill(int(entry), signal.SIGKILL)
            n += 1
        except (OSError, ValueError, IndexError):
            pass
    return n


def zygote_clear_ipc():
    libc = ctypes.CDLL(None, use_errno=True)
    IPC_RMID = 0
    for kind, call in (("shm", "shmctl"), ("sem", "semctl"), ("msg", "msgctl")):
        try:
            with open("/proc/sysvipc/" + kind) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if len(fields) < 2:
                continue
            ident = int(fields[1])
            if kind == "sem":
                getattr(libc, call)(ident, 0, IPC_RMID)
            else:
                getattr(libc, call)(ident, IPC_RMID, None)


def zygote_reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def zygote_child(req, fds, driver_path):
    # The child is the driver main() runs, with its own descriptors,
    # folder and arguments, and a process group of its own.
    os.setpgid(0, 0)
    for i, fd in enumerate(fds):
        os.dup2(fd, i)
        if fd > 2:
            os.close(fd)
    os.chdir(req["cwd"])
    sys.argv = [driver_path]
    code = 0
    try:
        main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:  # noqa: B036 -- as an uncaught exception ends CPython
        traceback.print_exc()
        code = 1
    try:
        import atexit

        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: B036, S110 -- exiting regardless
        pass
    os._exit(code)


def zygote(contained, pandas_libs):
    import socket
    import time

    sock = socket.socket(fileno=3)
    zygote_preload(pandas_libs)
    driver_path = os.path.abspath(sys.argv[0])
    if contained:
        # Orphans of a child come to the zygote, which reaps them.
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
        before = {root: zygote_snapshot(root) for root in ("/tmp", "/dev/shm")}
    sock.send(b"ready")
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 1 << 16, 3)
        except OSError:
            return
        if not msg:
            return
        req = json.loads(msg)
        if len(fds) != 3:
            for fd in fds:
                os.close(fd)
            return
        pid = os.fork()
        if pid == 0:
            sock.close()
            zygote_child(req, fds, driver_path)
        for fd in fds:
            os.close(fd)
        _, status = os.waitpid(pid, 0)
        # The status first: the runner waits for it to tell a crash from
        # a kill; the next request is read only after the clearing.
        sock.send(b"%d" % status)
        if contained:
            for _ in range(100):
                if not zygote_kill_others():
                    break
                zygote_reap()
                time.sleep(0.001)
            zygote_reap()
            for root, paths in before.items():
                zygote_clear_files(root, paths)
            zygote_clear_ipc()
        else:
            try:
                os.killpg(pid, 9)
            except OSError:
                pass
            zygote_reap()


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--zygote":
        zygote(sys.argv[2] == "contained", sys.argv[3] == "pandas")
    else:
        main()
