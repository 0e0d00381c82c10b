# udfx Spark driver: one long-lived PySpark driver process per udfx Spark
# session (package harness/spark). It starts a real SparkSession (local,
# cluster master or Spark Connect) once, then evaluates jobs on it: the
# original UDF registered the way its source does and the rewrite as a SQL
# expression, over the same Parquet input.
#
# Protocol: line-delimited JSON. udfx writes one request per line on stdin
# ({"op": ..., ...}); the driver answers zero or more {"event": "progress"}
# lines and then exactly one {"ok": true, ...} or {"ok": false, "error":
# {...}} line on the protocol channel. The protocol channel is the process's
# original stdout; everything else printed to stdout or stderr (the JVM that
# pyspark launches inherits both, the UDF may print) goes to the log file
# udfx gave as stderr, so it cannot corrupt the protocol.
import importlib.util
import json
import os
import sys
import time
import traceback
import unicodedata
from concurrent.futures import ThreadPoolExecutor

import udfx_jobfree  # written beside this driver (harness/internal/jobfree)

PROTO = None
SPARK = None
CONNECT = False
STATE = {"registered": {}, "modules": {}, "jars": set(), "artifacts": set(), "comet": False}

# What a classic session is started with: UTC everywhere (Spark's session
# time zone, the JVM's default, the Python workers' local time zone, which
# pyspark's timestamp conversions use), the JVMs' locale en_US (as udfx's
# JVM runner gives it, where String.toUpperCase() reads it), Parquet datetimes read and written
# as they are (proleptic Gregorian, no rebase: a file udfx writes has no
# Spark version in its metadata, and Spark's default for such files is to
# fail on dates before 1582), Arrow with the 32-bit offset types udfx reads,
# and no UI (port 4040 clashes, start time).
BASE_CONF = {
    "spark.sql.session.timeZone": "UTC",
    "spark.driver.extraJavaOptions": "-Duser.timezone=UTC -Duser.language=en -Duser.country=US -Dfile.encoding=UTF-8",
    "spark.executor.extraJavaOptions": "-Duser.timezone=UTC -Duser.language=en -Duser.country=US -Dfile.encoding=UTF-8",
    "spark.sql.parquet.datetimeRebaseModeInRead": "CORRECTED",
    "spark.sql.parquet.int96RebaseModeInRead": "CORRECTED",
    "spark.sql.parquet.datetimeRebaseModeInWrite": "CORRECTED",
    "spark.sql.parquet.int96RebaseModeInWrite": "CORRECTED",
    "spark.sql.parquet.outputTimestampType": "TIMESTAMP_MICROS",
    "spark.sql.execution.arrow.useLargeVarTypes": "false",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
}

# Session settings a user module's top-level SparkSession.builder.config()
# could change; restored after every import.
RUNTIME_CONF = ("spark.sql.session.timeZone", "spark.sql.ansi.enabled")

CONNECT_PACKAGES = [
    # (module to import, pip package)
    ("pandas", "pandas"),
    ("pyarrow", "pyarrow"),
    ("grpc", "grpcio"),
    ("grpc_status", "grpcio-status"),
    ("google.protobuf", "protobuf"),
    ("google.rpc", "googleapis-common-protos"),
    ("zstandard", "zstandard"),
]


def send(obj):
    PROTO.write(json.dumps(obj).encode("utf-8") + b"\n")
    PROTO.flush()


def log(msg):
    sys.stderr.write("udfx-driver: %s\n" % msg)
    sys.stderr.flush()


class Fail(Exception):
    """A failure with a kind udfx turns into a typed error."""

    def __init__(self, kind, **payload):
        super().__init__(payload.get("msg") or kind)
        self.kind = kind
        self.payload = payload


# ------------------------------------------------------------- errors


def java_chain(jexc):
    """The Java exception and its causes, outermost first."""
    out = []
    t = jexc
    while t is not None and len(out) < 20:
        try:
            cls = t.getClass().getName()
            msg = t.getMessage()
            cond = None
            try:
                if SPARK is not None:
                    gw = SPARK.sparkContext._gateway
                    from py4j.java_gateway import is_instance_of

                    if is_instance_of(gw, t, "org.apache.spark.SparkThrowable"):
                        cond = t.getCondition()
            except Exception:
                cond = None
            out.append({"class": cls, "message": msg or "", "condition": cond or ""})
            nxt = t.getCause()
        except Exception:
            break
        if nxt is not None and nxt.equals(t):
            break
        t = nxt
    return out


def python_error_of(text):
    """The exception a Python worker raised, from PythonException's text:
    its traceback ends with "Class: message"."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    for i in range(len(lines) - 1, -1, -1):
        ln = lines[i]
        if ln.startswith(" ") or ln.startswith("\t") or ln.startswith("Traceback"):
            continue
        head, sep, rest = ln.partition(": ")
        if sep and head.replace(".", "").replace("_", "").isalnum():
            return head, rest
    return None, None


def describe(e):
    """Class, condition and message of a failed job, and the whole chain."""
    chain = []
    jexc = getattr(e, "_origin", None)
    if jexc is None:
        jexc = getattr(e, "java_exception", None)
    if jexc is not None:
        try:
            chain = java_chain(jexc)
        except Exception:
            chain = []
    cond = ""
    for c in chain:
        if c["condition"]:
            cond = c["condition"]  # the deepest one: the cause, not the job abort
    if not cond and hasattr(e, "getCondition"):
        try:
            cond = e.getCondition() or ""
        except Exception:
            cond = ""
    text = str(e)
    cls, msg = type(e).__module__ + "." + type(e).__name__, text
    if chain:
        root = chain[-1]
        cls, msg = root["class"], root["message"]
    # A Python UDF's exception reaches the JVM as PythonException, whose
    # text ends with the worker's traceback.
    py_cls, py_msg = None, None
    if type(e).__name__ == "PythonException" or cls.endswith("PythonException"):
        py_cls, py_msg = python_error_of(msg if chain else text)
    if py_cls:
        cls, msg = py_cls, py_msg
    first = (msg or "").strip().splitlines()
    return {
        "class": cls,
        "condition": cond,
        "message": first[0] if first else "",
        "chain": chain,
        "text": text[:20000],
    }


# ------------------------------------------------------------- start


def missing_connect_packages():
    missing = []
    for mod, pkg in CONNECT_PACKAGES:
        try:
            importlib.import_module(mod)
        except ImportError:
            missing.append(pkg)
    return missing


def probe_connect(url):
    """Fails fast when nothing listens at a Connect URL: pyspark's client
    retries an unreachable server with backoff for minutes before the first
    RPC gives up."""
    import socket
    from urllib.parse import urlparse

    try:
        u = urlparse("http://" + url[len("sc://"):] if url.startswith("sc://") else url)
        host, port = u.hostname, u.port or 15002
    except ValueError as e:
        raise RuntimeError("INVALID_CONNECT_URL: %s: %s" % (url, e))
    if not url.startswith("sc://") or not host:
        raise RuntimeError("INVALID_CONNECT_URL: %s is not sc://host:port" % url)
    try:
        socket.create_connection((host, port), timeout=10).close()
    except OSError as e:
        raise RuntimeError("no Spark Connect server at %s:%d: %s" % (host, port, e))


def start(req):
    global SPARK, CONNECT
    try:
        import pyspark
        from pyspark.sql import SparkSession
    except ImportError as e:
        raise Fail("env", what="pyspark", msg="cannot import pyspark: %s" % e)
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    b = SparkSession.builder.appName(req.get("app") or "udfx")
    conf = dict(BASE_CONF)
    conf["spark.sql.ansi.enabled"] = "true" if req.get("ansi") else "false"
    if req.get("remote"):
        missing = missing_connect_packages()
        if missing:
            raise Fail(
                "env",
                what="Spark Connect client",
                missing=missing,
                version=pyspark.__version__,
                msg="%s cannot run Spark Connect: the Python packages %s are not installed"
                % (sys.executable, ", ".join(missing)),
            )
        probe_connect(req["remote"])
        CONNECT = True
        b = b.remote(req["remote"])
        # A Connect client can set only runtime SQL settings; the server's
        # own start decides the rest (its JVM's time zone, its Python
        # workers' TZ and interpreter, the UI). The spark.sql.* part of
        # BASE_CONF is all runtime: session time zone, ANSI, the Parquet
        # rebase modes (the job input is a Parquet file udfx wrote) and
        # Arrow's 32-bit offsets for toArrow.
        conf = {k: v for k, v in conf.items() if k.startswith("spark.sql.")}
    else:
        b = b.master(req.get("master") or "local[2]")
        jars = [j for j in req.get("jars") or []]
        if jars:
            # spark.jars ships them to executors (a cluster); the driver's
            # class path makes them visible to py4j and the driver itself.
            # (spark.jars takes jar files; a class folder of
            # UDFX_CLASSPATH reaches the driver only, as in local mode.)
            files = [j for j in jars if j.endswith(".jar")]
            if files:
                conf["spark.jars"] = ",".join(files)
            conf["spark.driver.extraClassPath"] = os.pathsep.join(jars)
            STATE["jars"].update(jars)
        hive = req.get("hive")
        if hive:
            # Hive UDFs are created as the user's job creates them, with
            # CREATE TEMPORARY FUNCTION, which only a Hive-enabled session
            # takes. Its metastore is an in-memory Derby database of this
            # process (nothing on disk outlives the session; the process
            # id keeps two drivers' apart) and its warehouse is in udfx's
            # workspace.
            b = b.enableHiveSupport()
            conf["javax.jdo.option.ConnectionURL"] = "jdbc:derby:memory:udfx%d;create=true" % os.getpid()
            conf["spark.sql.warehouse.dir"] = hive["warehouse"]
        comet = req.get("comet")
        if comet:
            # Comet's plugin and shuffle manager load when each JVM starts,
            # before spark.jars reaches an executor: the jar goes on both
            # class paths from the start (executors of a cluster on this
            # machine read it where it lies).
            conf["spark.driver.extraClassPath"] = os.pathsep.join([comet["jar"]] + jars)
            conf["spark.executor.extraClassPath"] = comet["jar"]
            conf.update(comet.get("conf") or {})
            STATE["comet"] = True
    for k, v in (req.get("conf") or {}).items():
        conf[k] = v
    for k, v in conf.items():
        b = b.config(k, v)
    t0 = time.perf_counter()
    comet_version = ""
    SPARK = b.getOrCreate()
    if CONNECT:
        # The first RPC: a Connect endpoint that is not listening fails here.
        version = SPARK.version
        java = ""
        master = req["remote"]
        for k in RUNTIME_CONF:
            SPARK.conf.set(k, conf[k])
    else:
        SPARK.sparkContext.setLogLevel(req.get("log_level") or "WARN")
        version = SPARK.version
        if STATE.get("comet"):
            # Comet's driver plugin sets this once it is active; a plugin
            # that disabled itself (no off-heap memory, say) leaves it unset.
            comet_version = SPARK.conf.get("spark.comet.version", "") or ""
        java = SPARK.sparkContext._jvm.java.lang.System.getProperty("java.version")
        master = SPARK.sparkContext.master
    STATE["conf"] = conf
    return {
        "comet": comet_version,
        "spark": version,
        "java": java,
        "master": master,
        "connect": CONNECT,
        "python": "%d.%d.%d" % sys.version_info[:3],
        "unicode": unicodedata.unidata_version,
        "pyspark": pyspark.__version__,
        "start_seconds": time.perf_counter() - t0,
    }


def restore_conf():
    for k in RUNTIME_CONF:
        SPARK.conf.set(k, STATE["conf"][k])


# ------------------------------------------------------------- originals


def forget_package(top, root):
    """Drops the package of that top name this session loaded earlier from
    another repository: the session outlives one repository, and a cached
    `etl.consts` of the last one would shadow this one's. Only packages
    udfx loaded are dropped, never an installed module of that name."""
    packages = STATE.setdefault("packages", {})
    if packages.get(top, root) != root:
        for n in [n for n in sys.modules if n == top or n.startswith(top + ".")]:
            del sys.modules[n]
        for k in [k for k, v in STATE["modules"].items() if v[0].__name__.split(".")[0] == top]:
            del STATE["modules"][k]


def load_module(path, source=None):
    """Imports the UDF's module without its top-level job, once per session.
    source, for a notebook, is the file of its code cells' Python (named by
    their hash, so it keys the module); path stays the module's file."""
    import hashlib

    key = os.path.abspath(source or path)
    if key in STATE["modules"]:
        return STATE["modules"][key]
    name = "udfx_user_" + hashlib.sha256(key.encode()).hexdigest()[:12]
    path = os.path.abspath(path)
    d = os.path.dirname(path)
    if d not in sys.path:
        sys.path.insert(0, d)
    pkg_name, pkg_root = udfx_jobfree.package_of(path)
    if pkg_name:
        forget_package(pkg_name.split(".")[0], pkg_root)
        why = udfx_jobfree.package_clash(pkg_name, pkg_root)
        if why:
            raise Fail("compile", file=path, line=0, msg=why)
        STATE.setdefault("packages", {})[pkg_name.split(".")[0]] = pkg_root
        name = pkg_name
        if pkg_root not in sys.path:
            sys.path.insert(0, pkg_root)
    search = [d] if os.path.basename(path) == "__init__.py" else None
    if source:
        spec = importlib.util.spec_from_loader(name, None, origin=path)
    else:
        spec = importlib.util.spec_from_file_location(name, path, submodule_search_locations=search)
        if spec is not None and spec.loader is None:
            spec = None
    if spec is None:
        raise Fail("compile", file=path, line=0, msg="cannot import %s as a Python module" % path)
    mod = importlib.util.module_from_spec(spec)
    if source:
        mod.__file__ = path
    sys.modules[name] = mod
    try:
        # Without the module's top-level Spark job (udfx_jobfree), and not
        # as __main__: the file's `if __name__ == "__main__":` block does
        # not run either.
        jf = udfx_jobfree.parse(source or path)
        udfx_jobfree.run(jf, path, mod.__dict__)
    except SyntaxError as e:
        del sys.modules[name]
        raise Fail("compile", file=path if source else e.filename or path, line=e.lineno or 0, msg="%s: %s" % (type(e).__name__, e.msg))
    except BaseException as e:  # noqa: B036 -- any import failure is the user's
        del sys.modules[name]
        line = 0
        for fr in traceback.extract_tb(e.__traceback__):
            if os.path.abspath(fr.filename) == path:
                line = fr.lineno or 0
        raise Fail("compile", file=path, line=line, msg="%s: %s" % (type(e).__name__, e))
    finally:
        restore_conf()
    # Workers cannot import the module by its made-up name: its functions
    # travel pickled by value, with what they reference from the module.
    from pyspark import cloudpickle

    cloudpickle.register_pickle_by_value(mod)
    if pkg_name:
        # The module's package is on this driver's path only; what the
        # module takes from its siblings goes to the workers by value too.
        top = pkg_name.split(".")[0]
        for n in [n for n in sys.modules if n == top or n.startswith(top + ".")]:
            if n != name:
                cloudpickle.register_pickle_by_value(sys.modules[n])
    STATE["modules"][key] = (mod, jf)
    return mod, jf


def python_udf(o):
    from pyspark.sql.functions import pandas_udf, udf
    from pyspark.sql.types import _parse_datatype_string
    try:
        from pyspark.util import PythonEvalType
    except ImportError:  # pyspark 3.5 keeps it in pyspark.rdd
        from pyspark.rdd import PythonEvalType

    mod, jf = load_module(o["file"], o.get("source"))
    name = o["name"]
    fac = o.get("factory")
    # A UDF a factory makes is reached through the factory's name.
    why, line = udfx_jobfree.refusal(jf, fac["name"] if fac else name)
    if why:
        raise Fail("compile", file=o["file"], line=line, msg=why)
    obj = getattr(mod, name, None)
    if fac:
        obj, why = udfx_jobfree.from_factory(mod, fac, name, o.get("kind"))
        if why:
            raise Fail("notcallable", udf=name, reason=why)
    if obj is None:
        raise Fail("notcallable", udf=name, reason="no module-level name %r in %s" % (name, o["file"]))
    if getattr(obj, "func", None) is not None and getattr(obj, "evalType", None) is not None:
        fn = obj
    elif callable(obj):
        rt = _parse_datatype_string(o["return_type"])
        if o.get("kind") == "pandas-udf":
            fn = pandas_udf(obj, rt)
        else:
            fn = udf(obj, rt)
    else:
        raise Fail("notcallable", udf=name, reason="%s is a %s, not a function or UDF" % (name, type(obj).__name__))
    if fn.evalType == PythonEvalType.SQL_GROUPED_AGG_PANDAS_UDF:
        raise Fail("notcallable", udf=name, reason="a series-to-scalar pandas_udf is an aggregate, not a per-row function")
    return fn


def jvm_udf(o):
    """Registers a JVM UDF through its compiled shim; returns its SQL name."""
    key = o["shim"] + ":" + o["jar"] + ":" + o["sql_name"]
    if key in STATE["registered"]:
        return STATE["registered"][key]
    if CONNECT:
        # The server loads the jar into this session's own class loader;
        # the shim is a UDFn that calls the original, registered by name
        # as Spark registers any Java UDFn: the same ScalaUDF, no input
        # encoders.
        for jar in [o["jar"]] + (o.get("libs") or []):
            if jar not in STATE["artifacts"]:
                SPARK.addArtifacts(jar)
                STATE["artifacts"].add(jar)
        SPARK.udf.registerJavaFunction(o["sql_name"], o["shim"], o["return_type"])
        STATE["registered"][key] = o["sql_name"]
        return o["sql_name"]
    if o["jar"] not in STATE["jars"]:
        # udfx restarts the session with the jar on its class path first:
        # jars added to a running session share its class namespace.
        raise Fail("protocol", msg="%s is not on the session's class path" % o["jar"])
    if o.get("hive"):
        # As a Hive job does: Spark's Hive catalog wraps the class in
        # HiveSimpleUDF or HiveGenericUDF by what it extends.
        SPARK.sql("CREATE OR REPLACE TEMPORARY FUNCTION %s AS '%s'" % (o["sql_name"], o["hive"]))
        STATE["registered"][key] = o["sql_name"]
        return o["sql_name"]
    jvm = SPARK.sparkContext._jvm
    cls = jvm
    for part in o["shim"].split("."):
        cls = getattr(cls, part)
    sql_name = o["sql_name"]
    cls.register(SPARK._jsparkSession, sql_name)
    STATE["registered"][key] = sql_name
    return sql_name


# ------------------------------------------------------------- jobs


def plan_of(df):
    try:
        if CONNECT:
            return df._explain_string(mode="simple")
        return df._jdf.queryExecution().executedPlan().toString()
    except Exception as e:
        return "(no plan: %s)" % e


def native_report(df):
    """Comet's own account of the executed plan, as its fallback report
    prints it: the operator tree with a [COMET: ...] reason on each
    operator that did not run natively, and the line "Comet accelerated N
    out of M eligible operators ...". None without Comet."""
    if not STATE.get("comet"):
        return None
    try:
        info = SPARK.sparkContext._jvm.org.apache.comet.ExtendedExplainInfo()
        return str(info.generateExtendedInfo(df._jdf.queryExecution().executedPlan()))
    except Exception as e:
        return "(no Comet report: %s)" % e


# Expression classes that evaluate user code, by simple name; anything that
# implements UserDefinedExpression counts too, whatever it is called.
UDF_CLASSES = {
    "ScalaUDF", "PythonUDF", "JavaUDF", "HiveSimpleUDF", "HiveGenericUDF", "HiveGenericUDTF",
    "HiveUDAFFunction", "ScalaUDAF", "ScalaAggregator",
}


def udf_nodes(df):
    """The user-defined expressions and operators of the executed plan, by
    class, from the JVM objects: a ScalaUDF prints as name(args), and a
    name alone cannot tell it from a built-in of the same name. None for
    Connect (no JVM objects; its Python UDFs show as operators in the
    plan text, its Java UDFs as calls of their registered names)."""
    if CONNECT:
        return None
    from py4j.java_gateway import is_instance_of

    gw = SPARK.sparkContext._gateway
    out = []
    seen_plans = 0

    def walk_expr(e, operator):
        simple = e.getClass().getSimpleName()
        if simple in UDF_CLASSES or is_instance_of(gw, e, "org.apache.spark.sql.catalyst.expressions.UserDefinedExpression"):
            name = ""
            try:
                # UserDefinedExpression.name: the registered name
                # (ScalaUDF's udfName, "UDF" without one).
                name = str(e.name())
            except Exception:
                try:
                    name = str(e.prettyName())
                except Exception:
                    pass
            out.append({"class": simple, "name": name, "operator": operator, "text": str(e.toString())[:2000]})
        for c in scala_seq(e.children()):
            walk_expr(c, operator)

    def walk_plan(p):
        nonlocal seen_plans
        seen_plans += 1
        if seen_plans > 10000:
            raise RuntimeError("the executed plan is too large to walk")
        simple = p.getClass().getSimpleName()
        if simple == "AdaptiveSparkPlanExec":
            walk_plan(p.executedPlan())
            return
        if simple.endswith("QueryStageExec"):
            walk_plan(p.plan())
            return
        if "Python" in simple or "Pandas" in simple or "InArrow" in simple:
            out.append({"class": simple, "name": "", "operator": simple, "text": str(p.simpleString(200))[:2000]})
        for e in scala_seq(p.expressions()):
            walk_expr(e, simple)
        for c in scala_seq(p.children()):
            walk_plan(c)

    try:
        walk_plan(df._jdf.queryExecution().executedPlan())
    except Exception as e:
        log("walking the executed plan: %s" % e)
        return None
    return out


def original_df(df, o, params):
    return original_maker(o, params)(df)


def original_maker(o, params):
    """A function from an input DataFrame to the original's result over
    it; the UDF is loaded or registered once, here."""
    from pyspark.sql.functions import col

    if o["language"] == "python":
        fn = python_udf(o)
        return lambda df: df.select(col("_udfx_row"), fn(*[col(p) for p in params]).alias("result"))
    name = jvm_udf(o)
    args = ", ".join("`%s`" % p.replace("`", "``") for p in params)
    return lambda df: df.selectExpr("_udfx_row", "%s(%s) AS result" % (name, args))


class RewriteRefused(Exception):
    """A candidate outside the allow-list: refused before any job runs."""


# Expression classes a rewrite's analyzed tree must not hold, by simple
# name: user code (UDFs of every kind), reflection, the input file, the
# session and the clock (these are "deterministic" to Spark), chance.
DENIED_CLASSES = {
    "ScalaUDF", "PythonUDF", "JavaUDF", "HiveSimpleUDF", "HiveGenericUDF", "HiveGenericUDTF",
    "HiveUDAFFunction", "ScalaUDAF", "ScalaAggregator", "CallMethodViaReflection", "TryReflect",
    "InputFileName", "InputFileBlockStart", "InputFileBlockLength", "CurrentDate", "CurrentTimestamp",
    "CurrentTime", "CurrentTimeZone", "CurrentUser", "CurrentDatabase", "CurrentCatalog", "Now",
    "LocalTimestamp", "UnixTimestamp", "MonotonicallyIncreasingID", "SparkPartitionID", "Uuid",
    "Rand", "Randn", "Shuffle", "Uniform", "RandStr",
}
# Interfaces that mark the same, whatever the class is called.
DENIED_INTERFACES = (
    ("org.apache.spark.sql.catalyst.expressions.PlanExpression", "a subquery"),
    ("org.apache.spark.sql.catalyst.expressions.UserDefinedExpression", "a user-defined function"),
    ("org.apache.spark.sql.catalyst.expressions.Nondeterministic", "a nondeterministic expression"),
    ("org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction", "an aggregate function"),
    ("org.apache.spark.sql.catalyst.expressions.Generator", "a generator"),
)
# Parsed forms that name no function but reach beyond one row's
# parameters.
DENIED_PARSED = {
    "UnresolvedStar": "a star (*)",
    "UnresolvedRegex": "a regex column reference",
    "UnresolvedTableValuedFunction": "a table-valued function",
    "UnresolvedOuterReference": "an outer reference",
    "UnresolvedSeed": "a random seed",
    "NamedParameter": "a query parameter",
    "PosParameter": "a query parameter",
    "ExpressionWithUnresolvedIdentifier": "IDENTIFIER(...)",
    "PlanWithUnresolvedIdentifier": "IDENTIFIER(...)",
}


def refuse(construct, why):
    raise RewriteRefused("%s is refused: %s" % (construct, why))


def scala_seq(seq):
    return [seq.apply(i) for i in range(seq.size())]


def check_parsed(sql, inputs, allow):
    """Spark's own parser, before analysis (which would already resolve a
    subquery's relation): every function must be on the allow-list, every
    column a parameter (or a lambda's variable), and no subquery."""
    from py4j.java_gateway import is_instance_of

    gw = SPARK.sparkContext._gateway
    try:
        parsed = SPARK._jsparkSession.sessionState().sqlParser().parseExpression(sql)
    except Exception as e:
        refuse("the candidate", "Spark's parser does not read it as one expression: %s" % describe(e)["message"])
    cols = {c.lower() for c in inputs}

    def walk(node, scope):
        simple = node.getClass().getSimpleName()
        for iface, what in DENIED_INTERFACES:
            if is_instance_of(gw, node, iface):
                refuse(what + " (" + simple + ")", "a rewrite is one deterministic expression over the parameters")
        if simple in DENIED_PARSED:
            refuse(DENIED_PARSED[simple], "a rewrite is one expression over the UDF's parameters that calls allow-listed functions by their plain names")
        if simple in DENIED_CLASSES:
            refuse(simple, "its result is not a function of the parameters")
        if simple == "UnresolvedFunction":
            parts = [str(p) for p in scala_seq(node.nameParts())]
            name = ".".join(parts).lower()
            if len(parts) != 1 or name not in allow:
                refuse(name + "()", "it is not on udfx's allow-list of deterministic built-in scalar functions")
            if node.isDistinct() or node.filter().isDefined():
                refuse(name + "() with DISTINCT or FILTER", "an aggregate form")
        elif simple == "UnresolvedAttribute":
            parts = [str(p) for p in scala_seq(node.nameParts())]
            if not parts or (parts[0].lower() not in cols and parts[0].lower() not in scope):
                refuse("the column " + ".".join(parts), "a rewrite reads only the UDF's parameters")
        elif simple == "LambdaFunction":
            names = {str(a.name()).lower() for a in scala_seq(node.arguments())}
            walk(node.function(), scope | names)
            return
        for c in scala_seq(node.children()):
            walk(c, scope)

    walk(parsed, frozenset())


def check_analyzed(probe, inputs):
    """The analyzed plan: one projection over the job's input relation,
    and an expression tree with no subquery, UDF, reflection, input file,
    clock, chance, and no attribute but the inputs."""
    from py4j.java_gateway import is_instance_of

    gw = SPARK.sparkContext._gateway
    plan = probe._jdf.queryExecution().analyzed()
    child = plan.children()
    if plan.nodeName() != "Project" or child.size() != 1 or child.apply(0).nodeName() != "Project":
        refuse("a plan of %s" % plan.nodeName(), "a rewrite is one projection over the job's input")
    rel = child.apply(0).children()
    if rel.size() != 1 or rel.apply(0).getClass().getSimpleName() != "LogicalRelation":
        refuse("a relation other than the job's input", "a rewrite reads only the job's input")
    cols = {c.lower() for c in inputs}

    def walk(node):
        simple = node.getClass().getSimpleName()
        for iface, what in DENIED_INTERFACES:
            if is_instance_of(gw, node, iface):
                refuse(what + " (" + simple + ")", "a rewrite is one deterministic expression over the parameters")
        if simple in DENIED_CLASSES:
            refuse(simple, "its result is not a function of the parameters")
        if not node.deterministic():
            refuse("a nondeterministic expression (" + simple + ")", "a rewrite is deterministic")
        if simple == "AttributeReference" and str(node.name()).lower() not in cols:
            refuse("the column " + str(node.name()), "a rewrite reads only the UDF's parameters")
        for c in scala_seq(node.children()):
            walk(c)

    for e in scala_seq(plan.expressions()):
        walk(e)


# What Spark prints for allow-listed forms whose printed name is not the
# function's (Connect's analyzed plan text).
PRINTED_FORMS = {"cast", "try_cast", "isnull", "isnotnull", "if", "lambdafunction", "namedlambdavariable", "lambda", "in"}


def check_connect(probe, allow):
    """Connect has no client-side parser or plan objects: the server's
    analyzed plan text is checked instead. Its shape must be the job's
    three nodes (a subquery adds lines), and every name printed as a call
    must be on the allow-list and not a session function that shadows a
    built-in; text that cannot be read is refused, never skipped."""
    import re

    try:
        text = probe._explain_string(extended=True)
    except Exception as e:
        refuse("the candidate", "Spark Connect could not analyse it: %s" % describe(e)["message"])
    m = re.search(r"== Analyzed Logical Plan ==\n(.*?)\n== ", text, re.S)
    if not m:
        refuse("the candidate", "Spark Connect's explain output has no analyzed plan to check")
    lines = [ln for ln in m.group(1).split("\n") if ln.strip()]
    body = lines[1:]  # the first line is the schema
    if (len(body) != 3 or not body[0].startswith("Project [") or not body[1].startswith("+- Project [")
            or not body[2].startswith("   +- Relation [")):
        refuse("a subquery or a relation other than the job's input", "a rewrite is one projection over the job's input")
    temp = set()
    try:
        # Built-ins are listed as temporary too; a function the session
        # registered (spark.udf.register) has no Spark class behind it.
        temp = {
            f.name.lower()
            for f in SPARK.catalog.listFunctions()
            if f.isTemporary and not (f.className or "").startswith("org.apache.spark.")
        }
    except Exception as e:
        refuse("the candidate", "cannot list the session's functions to rule out a UDF under a built-in's name: %s" % e)
    for name in re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\(", body[0]):
        n = name.lower()
        if n in temp:
            refuse(name + "()", "the session has a user-defined function of that name")
        if n not in allow and n not in PRINTED_FORMS:
            refuse(name + "()", "it is not on udfx's allow-list of deterministic built-in scalar functions")


def rewrite_df(df, sql, allow=None):
    check_rewrite(df, sql, allow)
    return df.selectExpr("_udfx_row", "(%s) AS result" % sql)


def check_rewrite(df, sql, allow):
    """Refuses (RewriteRefused) a candidate that is not one projection of
    allowed deterministic built-ins over df's input columns."""
    from pyspark.sql.functions import col

    inputs = [c for c in df.columns if c != "_udfx_row"]
    if allow is None:
        refuse("the candidate", "udfx sent no allow-list to check it against")
    allow = {a.lower() for a in allow}

    # A rewrite must be a function of the UDF's parameters alone: it is
    # parsed by Spark's parser and checked against the allow-list before
    # analysis (classic), analysed over the input columns only (so it
    # cannot name the row column), and its analyzed tree checked again.
    if not CONNECT:
        check_parsed(sql, inputs, allow)
    probe = df.select(*[col(c) for c in inputs]).selectExpr("(%s) AS result" % sql)
    if CONNECT:
        check_connect(probe, allow)
    else:
        check_analyzed(probe, inputs)


def to_arrow(df):
    """df's rows as an Arrow table. DataFrame.toArrow is pyspark 4's; 3.5
    has only the private _collect_as_arrow, which gives no batch for no
    rows, so the schema comes from df's."""
    if hasattr(df, "toArrow"):
        return df.toArrow()
    import pyarrow as pa
    from pyspark.sql.pandas.types import to_arrow_schema

    batches = df._collect_as_arrow()
    if batches:
        return pa.Table.from_batches(batches)
    return to_arrow_schema(df.schema).empty_table()


def run_side(make, out):
    import pyarrow as pa

    t0 = time.perf_counter()
    try:
        df = make()
    except Fail:
        raise
    except Exception as e:
        # Analysis errors (an unknown function, a type mismatch) come
        # before any job runs.
        return {"error": describe(e), "plan": "", "seconds": time.perf_counter() - t0}
    try:
        tbl = to_arrow(df)
    except Exception as e:
        return {"error": describe(e), "plan": plan_of(df), "native_report": native_report(df), "seconds": time.perf_counter() - t0}
    secs = time.perf_counter() - t0
    with pa.OSFile(out, "wb") as f:
        with pa.ipc.new_file(f, tbl.schema) as w:
            w.write_table(tbl)
    return {"plan": plan_of(df), "native_report": native_report(df), "udfs": udf_nodes(df), "seconds": secs, "rows": tbl.num_rows, "out": out}


def with_ansi(req, fn):
    if req.get("ansi") is None:
        return fn()
    SPARK.conf.set("spark.sql.ansi.enabled", "true" if req["ansi"] else "false")
    try:
        return fn()
    finally:
        restore_conf()


def run(req):
    def go():
        df = SPARK.read.parquet(req["input"])
        params = req["params"]
        res = {}
        if req.get("original"):
            res["original"] = run_side(lambda: original_df(df, req["original"], params), req["out_original"])
        if req.get("rewrite"):
            res["rewrite"] = run_side(lambda: rewrite_df(df, req["rewrite"], req.get("allow")), req["out_rewrite"])
        return res

    return with_ansi(req, go)


# Concurrent one-row jobs of each_row.
EACH_ROW_JOBS = 4


def each_row(req):
    """Runs each side on each input row in a job of its own. Spark stops a
    job at its first exception and does not say on which row, so a job per
    row is how udfx learns what each side does on the rows where the
    original throws."""
    def go():
        df = SPARK.read.parquet(req["input"])
        ids = sorted(r[0] for r in df.select("_udfx_row").collect())
        res = {}
        if req.get("original"):
            make = original_maker(req["original"], req["params"])
            res["original"] = each_row_side(df, ids, make, req["out_original"])
        if req.get("rewrite"):
            sql = req["rewrite"]
            check_rewrite(df, sql, req.get("allow"))
            res["rewrite"] = each_row_side(df, ids, lambda one: one.selectExpr("_udfx_row", "(%s) AS result" % sql), req["out_rewrite"])
        return res

    return with_ansi(req, go)


def each_row_side(df, ids, make, out):
    """One side's jobs, one per row: the rows it threw on, each with its
    error, and the others' results written to out."""
    import pyarrow as pa
    from pyspark.sql.functions import col

    def one(i):
        try:
            return i, to_arrow(make(df.where(col("_udfx_row") == i))), None
        except Fail:
            raise
        except Exception as e:
            return i, None, describe(e)

    t0 = time.perf_counter()
    errors, tables = [], []
    # A one-row job is mostly scheduling; a few at once keep the
    # executors busy (Spark runs concurrent jobs of one session side by
    # side; each row's job still stops only itself).
    with ThreadPoolExecutor(max_workers=1 if CONNECT else EACH_ROW_JOBS) as pool:
        for i, tbl, err in pool.map(one, ids):
            if err is not None:
                errors.append({"row": i, "error": err})
            else:
                tables.append(tbl)
    reply = {"errors": errors, "rows": sum(t.num_rows for t in tables), "seconds": time.perf_counter() - t0, "out": ""}
    if tables:
        tbl = pa.concat_tables(tables)
        with pa.OSFile(out, "wb") as f:
            with pa.ipc.new_file(f, tbl.schema) as w:
                w.write_table(tbl)
        reply["out"] = out
    return reply


def timed_runs(req, once):
    """req["warmup"] warm-up runs of each side, then req["runs"] timed
    ones; once(side, phase, i) runs one and returns its seconds."""
    warm = {"original": [], "rewrite": []}
    runs = {"original": [], "rewrite": []}
    for i in range(req.get("warmup", 0)):
        for side in ("original", "rewrite"):
            warm[side].append(once(side, "warmup", i))
    for i in range(req.get("runs", 1)):
        # Pairs alternate which side goes first (ABBA), so a drift in the
        # machine's speed weighs on both sides alike.
        order = ("original", "rewrite") if i % 2 == 0 else ("rewrite", "original")
        for side in order:
            runs[side].append(once(side, "run", i))
    return {"warmup": warm, "runs": runs}


def bench(req):
    from pyspark.sql.functions import col

    def go():
        params = req["params"]

        def orig():
            df = SPARK.read.parquet(req["input"])
            if req["original"]["language"] == "python":
                fn = python_udf(req["original"])
                return df.select(fn(*[col(p) for p in params]).alias("result"))
            name = jvm_udf(req["original"])
            args = ", ".join("`%s`" % p.replace("`", "``") for p in params)
            return df.selectExpr("%s(%s) AS result" % (name, args))

        checked = []

        def rewrite():
            df = SPARK.read.parquet(req["input"])
            if not checked:
                try:
                    # The bench input has no row column: check only.
                    check_rewrite(df, req["rewrite"], req.get("allow"))
                except RewriteRefused as e:
                    raise Fail("job", side="rewrite", error={"class": "RewriteRefused", "condition": "", "message": str(e), "chain": [], "text": str(e)})
                checked.append(True)
            return df.selectExpr("(%s) AS result" % req["rewrite"])

        sides = {"original": orig, "rewrite": rewrite}
        plans = {}
        reports = {}

        def once(side, phase, i):
            t0 = time.perf_counter()
            df = sides[side]()
            try:
                df.write.format("noop").mode("overwrite").save()
            except Exception as e:
                raise Fail("job", side=side, error=describe(e))
            secs = time.perf_counter() - t0
            if side not in plans:
                plans[side] = plan_of(df)
                reports[side] = native_report(df)
            send({"event": "progress", "side": side, "phase": phase, "run": i, "seconds": secs})
            return secs

        res = timed_runs(req, once)
        res.update({"plans": plans, "native_reports": reports})
        return res

    return with_ansi(req, go)


def sql(req):
    """A query's rows as an Arrow file (for checks and conformance)."""
    import pyarrow as pa

    df = SPARK.sql(req["sql"])
    tbl = to_arrow(df)
    with pa.OSFile(req["out"], "wb") as f:
        with pa.ipc.new_file(f, tbl.schema) as w:
            w.write_table(tbl)
    return {"rows": tbl.num_rows, "plan": plan_of(df)}


def pipeline(req):
    """An RDD chain and its DataFrame rewrite over one text file (package
    harness/pipeline): mode "test" collects both and compares the results
    as multisets, each value with its Python type; mode "bench" times
    both, alternating. The chain is the source's own text, evaluated in
    the module's namespace with its textFile replaced by this file."""
    from collections import Counter

    mod, _ = load_module(req["file"])
    env = dict(vars(mod))
    # The job's own session, as its left-out top level would have made it
    # (getOrCreate returns this driver's session).
    env.setdefault("spark", SPARK)
    env.setdefault("sc", SPARK.sparkContext)
    code = {
        "original": compile(req["original_expr"], req["file"], "eval"),
        "rewrite": compile(req["rewrite_expr"], "<udfx rewrite>", "eval"),
    }

    def side(name):
        if name == "original":
            env["__udfx_rdd__"] = SPARK.sparkContext.textFile(req["input"])
        else:
            env["__udfx_text__"] = SPARK.read.text(req["input"])
        try:
            return eval(code[name], env)
        except Exception as e:
            raise Fail("job", side=name, error=describe(e))

    def collect(name):
        t0 = time.perf_counter()
        d = side(name)
        try:
            rows = d.collect()
        except Exception as e:
            raise Fail("job", side=name, error=describe(e))
        return d, rows, time.perf_counter() - t0

    if req.get("mode") == "bench":
        def once(name, phase, i):
            secs = collect(name)[2]
            send({"event": "progress", "side": name, "phase": phase, "run": i, "seconds": secs})
            return secs

        return timed_runs(req, once)

    def key(item):
        vals = tuple(item) if isinstance(item, tuple) else (item,)
        return tuple((type(v).__name__, v) for v in vals)

    _, orig, t_orig = collect("original")
    df, rw, t_rw = collect("rewrite")
    co = Counter(key(x) for x in orig)
    cr = Counter(key(x) for x in rw)
    diff = []
    for k in sorted(set(co) | set(cr), key=repr):
        if co[k] != cr[k]:
            diff.append({"item": repr(tuple(v for _, v in k)), "types": [t for t, _ in k], "original": co[k], "rewrite": cr[k]})
    return {"original_rows": len(orig), "rewrite_rows": len(rw), "distinct": len(co), "differences": len(diff),
            "examples": diff[:10], "seconds": {"original": t_orig, "rewrite": t_rw}, "plan": plan_of(df)}


OPS = {"start": start, "run": run, "each_row": each_row, "bench": bench, "sql": sql, "pipeline": pipeline}


def main():
    global PROTO
    PROTO = os.fdopen(os.dup(1), "wb")
    # fd 2 is the log file: from here on, fd 1 goes there too, and so does
    # whatever the JVM (which inherits both) and the UDF print.
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        req = json.loads(line)
        op = req.get("op")
        if op == "close":
            send({"ok": True})
            break
        try:
            if op not in OPS:
                raise Fail("protocol", msg="unknown op %r" % op)
            if op != "start" and SPARK is None:
                raise Fail("protocol", msg="no session: send start first")
            res = OPS[op](req)
            res["ok"] = True
            send(res)
        except Fail as f:
            payload = dict(f.payload)
            payload["kind"] = f.kind
            send({"ok": False, "error": payload})
        except BaseException as e:  # noqa: B036 -- reported, not raised
            log(traceback.format_exc())
            err = describe(e)
            err["kind"] = "spark" if op != "start" else "start"
            send({"ok": False, "error": err})
    if SPARK is not None:
        try:
            SPARK.stop()
        except Exception:
            pass


if __name__ == "__main__":
    main()
