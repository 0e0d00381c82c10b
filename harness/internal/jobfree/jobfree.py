"""udfx_jobfree: a PySpark module without its job.

udfx runs a UDF's original by loading its module. A PySpark script or
notebook runs its job at the top level: it starts a session, reads,
transforms and writes. JobFree keeps what the UDF needs (imports,
definitions, constants) and leaves the job out, and says what the UDF
would find otherwise than the job leaves it, so that it is refused rather
than run on a module the job never sees. Both udfx drivers (the Python
runner's and the Spark session's) load originals through it; Spark's own
worker never runs the job either: it unpickles the function alone.
"""
import ast
import os
import sys

# A top-level statement that uses these names or attributes, or names a
# left-out statement set, is the job.
JOB_NAMES = frozenset((
    "SparkSession", "SparkContext", "SparkConf", "SQLContext", "HiveContext", "StreamingContext",
    "spark", "sc", "sqlContext", "dbutils", "display",
))
JOB_ATTRS = frozenset((
    "getOrCreate", "builder", "readStream", "writeStream", "show", "collect",
    "toPandas", "createDataFrame", "sparkContext", "parallelize", "textFile", "saveAsTable",
    "awaitTermination", "foreach", "foreachPartition",
))
# Spark's reader and writer are properties (spark.read.csv(...),
# df.write.parquet(...)); a file's read and write are methods called
# directly (open(p).read()), which are not the job.
JOB_PROPERTIES = frozenset(("read", "write"))


def _bound_names(stmt):
    """The module-level names a top-level statement binds."""
    out = set()
    todo = [stmt]
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
            if n is not stmt:
                continue
            todo.extend(n.decorator_list)
            continue
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            for a in n.names:
                out.add((a.asname or a.name).split(".")[0])
            continue
        if isinstance(n, ast.Lambda):
            continue
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
        todo.extend(ast.iter_child_nodes(n))
    return out


def _free_names(node):
    """The names node reads that it does not bind itself (a function's
    parameters and locals are its own)."""
    loads, stores = set(), set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            (loads if isinstance(n.ctx, ast.Load) else stores).add(n.id)
        elif isinstance(n, ast.arg):
            stores.add(n.arg)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n is not node:
            stores.add(n.name)
    return loads - stores


# The methods by which a statement changes a dict, list or set in place.
MUTATORS = frozenset((
    "update", "append", "extend", "insert", "pop", "popitem", "clear", "remove", "discard", "add",
    "setdefault", "sort", "reverse", "__setitem__", "__delitem__",
))


def _mutated_names(node):
    """The names whose objects node changes in place: the receivers of
    the methods that change a dict, list or set (TABLE.update(...)),
    subscript and attribute stores (TABLE[k] = v), and the names its
    functions declare global."""
    out = set()
    for n in ast.walk(node):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)
                and n.func.attr in MUTATORS):
            out.add(n.func.value.id)
        elif isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, (ast.Store, ast.Del)) and isinstance(n.value, ast.Name):
            out.add(n.value.id)
        elif isinstance(n, ast.Global):
            out.update(n.names)
    return out


def _called_names(node):
    return {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def _uses_job(node, dropped):
    called = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and (n.id in JOB_NAMES or n.id in dropped):
            return True
        if isinstance(n, ast.Attribute) and (n.attr in JOB_ATTRS or (n.attr in JOB_PROPERTIES and id(n) not in called)):
            return True
    return False


def _is_main_guard(st):
    """if __name__ == "__main__": without an else, which never runs when
    the module is imported."""
    t = st.test if isinstance(st, ast.If) else None
    return (isinstance(t, ast.Compare) and not st.orelse and isinstance(t.left, ast.Name) and t.left.id == "__name__"
            and len(t.ops) == 1 and isinstance(t.ops[0], ast.Eq) and len(t.comparators) == 1
            and isinstance(t.comparators[0], ast.Constant) and t.comparators[0].value == "__main__")


class JobFree:
    """The module's top-level statements without its job.

    Imports, definitions and docstrings are kept; any other statement is
    kept unless it uses the job (JOB_NAMES, JOB_ATTRS), a name a left-out
    statement set, or calls a function of the module that does. A
    definition is kept whatever its body does: defining runs nothing."""

    def __init__(self, tree):
        self.tree = tree
        defs = {st.name: st for st in tree.body if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef))}
        job_funcs = set()
        changed = True
        while changed:
            changed = False
            for name, st in defs.items():
                if name not in job_funcs and any(_uses_job(b, job_funcs) for b in st.body):
                    job_funcs.add(name)
                    changed = True
        self.kept, self.left_out, self.dropped, self.changed = [], [], {}, {}
        for st in tree.body:
            # The script's main guard never runs on import, so it goes
            # unsaid; what it sets or changes is still not there for the
            # UDF, as when the job runs the script.
            guard = _is_main_guard(st)
            if not guard and self._keep(st, job_funcs):
                self.kept.append(st)
                continue
            if not guard:
                self.left_out.append((st.lineno, getattr(st, "end_lineno", st.lineno) or st.lineno))
            for n in _bound_names(st):
                self.dropped.setdefault(n, st.lineno)
            # What the left-out statement changes in place, itself or
            # through the module's functions it calls, is not as the job
            # leaves it either.
            changed, seen, todo = _mutated_names(st), set(), list(_called_names(st))
            while todo:
                f = todo.pop()
                if f in seen or f not in defs:
                    continue
                seen.add(f)
                changed |= _mutated_names(defs[f])
                todo.extend(_called_names(defs[f]))
            for n in changed:
                self.changed.setdefault(n, st.lineno)

    def _keep(self, st, job_funcs):
        if isinstance(st, (ast.Import, ast.ImportFrom)):
            return True
        dropped = set(self.dropped) | job_funcs
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return not any(_uses_job(d, dropped) for d in st.decorator_list)
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
            return True
        return not _uses_job(st, dropped)

    def missing_for(self, name):
        """The names the UDF bound to name reads, directly or through the
        module's functions and values it reads, that a left-out statement
        sets or changes: what it would find otherwise than the job leaves
        it. {name: line of the statement}."""
        by_name = {}
        for st in self.kept:
            for n in _bound_names(st):
                by_name.setdefault(n, st)
        missing, seen, todo = {}, set(), [name]
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            if n in self.dropped:
                missing[n] = self.dropped[n]
                continue
            st = by_name.get(n)
            # Only a value bound by an assignment is taken to be changed.
            if n in self.changed and isinstance(st, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                missing[n] = self.changed[n]
            if st is not None and not isinstance(st, (ast.Import, ast.ImportFrom)):
                todo.extend(_free_names(st))
        return missing

    def lines(self):
        return ",".join("%d" % a if a == b else "%d-%d" % (a, b) for a, b in self.left_out)




def package_of(path):
    """Where the module at path sits in its package: its dotted name and the
    folder that holds its top package, or (None, None) when its folder has
    no __init__.py. A module of a package is loaded under that name, with
    that folder on sys.path, so that its relative and star imports
    (`from .consts import *`) and its absolute imports of the package
    resolve as they do in the job."""
    path = os.path.abspath(path)
    d = os.path.dirname(path)
    base = os.path.splitext(os.path.basename(path))[0]
    parts = [] if base == "__init__" else [base]
    while os.path.isfile(os.path.join(d, "__init__.py")):
        parts.insert(0, os.path.basename(d))
        d = os.path.dirname(d)
    if len(parts) < 2 and base != "__init__" or not parts:
        return None, None
    if not all(p.isidentifier() for p in parts):
        return None, None
    return ".".join(parts), d


def package_clash(name, root):
    """Why the package of a module named name, under root, cannot be
    imported in this interpreter (None when it can): a module of that top
    name is already loaded from elsewhere, the standard library's or an
    installed one's."""
    top = name.split(".")[0]
    mod = sys.modules.get(top)
    if mod is None:
        return None
    where = getattr(mod, "__file__", None) or ""
    if where and os.path.abspath(where).startswith(os.path.join(root, top) + os.sep):
        return None
    return ("the package %r has the name of a module the interpreter already loads (%s); "
            "udfx cannot import the package under its own name" % (top, where or "built in"))


def parse(path):
    """The JobFree of the module at path; a SyntaxError or OSError
    propagates."""
    with open(path, "rb") as f:
        src = f.read()
    return JobFree(ast.parse(src, path))


def run(jf, path, module_dict):
    """Runs the module's job-free statements in module_dict; the module's
    own exceptions propagate, with its file and lines in their traceback."""
    exec(compile(ast.Module(body=jf.kept, type_ignores=[]), path, "exec"), module_dict)


def refusal(jf, name):
    """Why the UDF bound to name cannot run without the job (None when it
    can), and the line to point at."""
    missing = jf.missing_for(name)
    if not missing:
        return None, 0
    what = ", ".join("%s (line %d)" % (n, l) for n, l in sorted(missing.items()))
    return ("%s reads %s, which the module sets or changes in its Spark job; udfx loads the UDF without running "
            "the job, so it cannot run %s as the job would (move the value into a constant or a function)" % (name, what, name)), min(missing.values())


def from_factory(mod, fac, name, kind):
    """The UDF the module-level function fac["name"] makes, called with the
    literal arguments fac["args"] (as written) that every call of it in the
    file gives, as the job makes it (udf.Factory). Returns (obj, None), or
    (None, why) when it cannot be made or is not the UDF called name (a
    lambda goes by the factory's name)."""
    maker = getattr(mod, fac["name"], None)
    call = "%s(%s)" % (fac["name"], ", ".join(fac["args"]))
    if not callable(maker):
        return None, "no module-level function %r in the module" % fac["name"]
    try:
        obj = maker(*[ast.literal_eval(a) for a in fac["args"]])
    except Exception as e:  # the factory is the user's code
        return None, "%s raised %s: %s" % (call, type(e).__name__, e)
    fn = getattr(obj, "func", obj)
    want = "<lambda>" if kind == "lambda" else name
    if getattr(fn, "__name__", None) != want:
        return None, "%s returns %r, not the UDF %s" % (call, getattr(fn, "__name__", type(obj).__name__), name)
    return obj, None
