# udfx RDD pipeline translator: reads a chain of RDD transformations over a
# text file with Python's ast module and writes the same computation as
# DataFrame code, or declines with the step and the reason.
#
# stdin: JSON {"source", "path", "name", "line", "record"}: the module's
# text, its path for messages, the variable the chain is assigned to, the
# line its value starts on, and the evidence record the new code names.
# stdout: JSON {"new", "original_expr", "rewrite_expr", "steps", "notes"}
# or {"decline"}.
#
# Each rule keeps what the RDD job computes, as a multiset of results:
#   - sc.textFile(p) and spark.read.text(p) read lines with the same Hadoop
#     line reader (\n, \r and \r\n end a line; a UTF-8 byte order mark at
#     the start of a file is dropped).
#   - line.split(sep), sep a literal: Python keeps the empty strings
#     between, before and after separators; Spark's split(value, regex, -1)
#     is Java's String.split with limit -1, which keeps them too. The
#     separator is written as a regex that matches exactly its characters.
#   - line.split(): Python splits on every character for which
#     str.isspace() holds (more than Java's \s, and more than
#     \p{IsWhite_Space}: U+001C..U+001F are there too) and drops empty
#     strings; the regex is a class of exactly those characters, as this
#     CPython reports them, followed by a filter of empty words.
#   - map(lambda w: (w, 1)) then reduceByKey(add) on those ints: the count
#     of each key, which groupBy(key).count() gives as a long.
# The results come back as Rows, which unpack like the RDD's tuples; a use
# of the chain's name that could tell them apart is declined.
import ast
import json
import re
import sys

ROOT, TEXT = "__udfx_rdd__", "__udfx_text__"
LINES, WORDS, PAIRS, COUNTS = "lines", "words", "pairs", "counts"
# Characters a regex would read as syntax; a separator character among
# these is written inside a one-character class, where only the ones in
# CLASS_UNSAFE still mean something.
REGEX_META = set(".$|()[]{}^?*+\\")
CLASS_UNSAFE = set("\\[]^-&")


class Decline(Exception):
    pass


def decline(node, msg):
    line = getattr(node, "lineno", 0)
    raise Decline("line %d: %s" % (line, msg) if line else msg)


def unparse(node):
    return ast.unparse(node)


def one_param_lambda(node, defs):
    """(param, body expression) of a one-parameter lambda, or of a
    module-level def whose body is one return statement."""
    if isinstance(node, ast.Name) and node.id in defs:
        node = defs[node.id]
    if isinstance(node, ast.Lambda):
        a, body = node.args, node.body
    elif isinstance(node, ast.FunctionDef):
        a = node.args
        stmts = node.body
        if stmts and isinstance(stmts[0], ast.Expr) and isinstance(getattr(stmts[0], "value", None), ast.Constant) \
                and isinstance(stmts[0].value.value, str):
            stmts = stmts[1:]
        if node.decorator_list or len(stmts) != 1 or not isinstance(stmts[0], ast.Return) or stmts[0].value is None:
            return None, None
        body = stmts[0].value
    else:
        return None, None
    if a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults or len(a.args) != 1:
        return None, None
    return a.args[0].arg, body


def is_name(node, name):
    return isinstance(node, ast.Name) and node.id == name


def split_of(node, defs):
    """The separator of `lambda l: l.split(SEP)`: a str, None for split(),
    or False when the function is not that."""
    p, body = one_param_lambda(node, defs)
    if p is None or not isinstance(body, ast.Call) or body.keywords:
        return False
    f = body.func
    if not (isinstance(f, ast.Attribute) and f.attr == "split" and is_name(f.value, p)):
        return False
    if not body.args:
        return None
    if len(body.args) != 1 or not isinstance(body.args[0], ast.Constant):
        return False
    sep = body.args[0].value
    if sep is None:
        return None
    if not isinstance(sep, str) or sep == "":
        return False
    return sep


def is_pair_with_one(node, defs):
    p, body = one_param_lambda(node, defs)
    if p is None or not isinstance(body, ast.Tuple) or len(body.elts) != 2:
        return False
    k, v = body.elts
    return is_name(k, p) and isinstance(v, ast.Constant) and type(v.value) is int and v.value == 1


def is_nonempty_test(node, defs):
    """lambda w: w, w != "", len(w) > 0 on a str."""
    p, body = one_param_lambda(node, defs)
    if p is None:
        return False
    if is_name(body, p):
        return True
    if isinstance(body, ast.Compare) and len(body.ops) == 1:
        left, op, right = body.left, body.ops[0], body.comparators[0]
        if is_name(left, p) and isinstance(op, ast.NotEq) and isinstance(right, ast.Constant) and right.value == "":
            return True
        if isinstance(left, ast.Call) and is_name(left.func, "len") and len(left.args) == 1 and is_name(left.args[0], p) \
                and not left.keywords and isinstance(op, ast.Gt) and isinstance(right, ast.Constant) \
                and type(right.value) is int and right.value == 0:
            return True
    return False


def is_int_add(node, mod, local):
    """operator.add (imported, bound once, not shadowed in the function),
    or lambda a, b: a + b."""
    if isinstance(node, ast.Name):
        return mod.imports.get(node.id) == "operator.add" and mod.once(node.id) and node.id not in local
    if isinstance(node, ast.Attribute):
        v = node.value
        return isinstance(v, ast.Name) and mod.imports.get(v.id) == "operator" and mod.once(v.id) \
            and v.id not in local and node.attr == "add"
    if isinstance(node, ast.Lambda):
        a = node.args
        if a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults or len(a.args) != 2:
            return False
        b = node.body
        return isinstance(b, ast.BinOp) and isinstance(b.op, ast.Add) and is_name(b.left, a.args[0].arg) \
            and is_name(b.right, a.args[1].arg)
    return False


def whitespace_class():
    """A regex class of the characters str.isspace() holds for, as ranges."""
    cps = [c for c in range(0x110000) if chr(c).isspace()]
    parts, i = [], 0
    while i < len(cps):
        j = i
        while j + 1 < len(cps) and cps[j + 1] == cps[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(chr(cps[i]) + "-" + chr(cps[j]))
        else:
            parts.extend(chr(c) for c in cps[i:j + 1])
        i = j + 1
    return "[" + "".join(parts) + "]+"


def literal_regex(sep, node):
    """A Java regex matching exactly sep, with no backslash: a backslash
    means one thing in a Spark SQL string literal and another with
    spark.sql.parser.escapedStringLiterals, so the rewrite holds none."""
    out = []
    for ch in sep:
        if ch in CLASS_UNSAFE or ch == "'":
            decline(node, "the separator %r holds %r, which udfx does not write into a Spark regex yet" % (sep, ch))
        out.append("[" + ch + "]" if ch in REGEX_META else ch)
    return "".join(out)


def sql_str(s):
    """A Spark SQL string literal of s (no quote or backslash in s)."""
    assert "'" not in s and "\\" not in s
    return "'" + s + "'"


def py_str(s):
    # JSON's escapes are Python's: control and non-ASCII characters become
    # \u001c-style escapes in the source, and the string holds the characters themselves.
    return json.dumps(s)


class Module:
    def __init__(self, tree):
        self.imports, self.defs, self.bound = {}, {}, {}
        for st in tree.body:
            if isinstance(st, ast.Import):
                for a in st.names:
                    self.bind(a.asname or a.name.split(".")[0], a.name if a.asname else a.name.split(".")[0])
            elif isinstance(st, ast.ImportFrom) and st.level == 0:
                for a in st.names:
                    self.bind(a.asname or a.name, "%s.%s" % (st.module, a.name))
            elif isinstance(st, ast.FunctionDef):
                self.defs[st.name] = st
                self.bound[st.name] = self.bound.get(st.name, 0) + 1
            else:
                for n in ast.walk(st):
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                        self.bound[n.id] = self.bound.get(n.id, 0) + 1

    def bind(self, name, what):
        self.imports[name] = what
        self.bound[name] = self.bound.get(name, 0) + 1

    def once(self, name):
        """Module-level names bound once keep their meaning in functions."""
        return self.bound.get(name, 0) == 1


def parents(tree):
    out = {}
    for p in ast.walk(tree):
        for c in ast.iter_child_nodes(p):
            out[c] = p
    return out


def find_assign(tree, name, line):
    best = None
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and is_name(n.targets[0], name) \
                and n.lineno <= line <= n.end_lineno and (best is None or n.lineno > best.lineno):
            best = n
    if best is None:
        raise Decline("no assignment to %s at line %d" % (name, line))
    return best


def chain(value):
    """[(call, method)] innermost first, and the receiver of the first."""
    calls, n = [], value
    while isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
        calls.append((n, n.func.attr))
        n = n.func.value
    calls.reverse()
    return calls, n


def block_of(stmt, par):
    """The statement list holding stmt, and its index there."""
    p = par.get(stmt)
    for field in ("body", "orelse", "finalbody", "handlers"):
        lst = getattr(p, field, None)
        if isinstance(lst, list) and stmt in lst:
            return lst, lst.index(stmt)
    raise Decline("line %d: the chain is not a statement of a block" % stmt.lineno)


def assigned_names(stmts):
    out = set()
    for st in stmts:
        for n in ast.walk(st):
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                out.add(n.id)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.add(n.name)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                out.update((a.asname or a.name).split(".")[0] for a in n.names)
            elif isinstance(n, (ast.Global, ast.Nonlocal)):
                out.update(n.names)
    return out


def text_source(call, mod, fn):
    """The SparkSession expression and path of X.textFile(P): X's session
    where X is provably one, else the session SparkSession.builder
    .getOrCreate() returns (one SparkContext per JVM: the same lines)."""
    if call.keywords or len(call.args) != 1:
        decline(call, "textFile takes its path only here: minPartitions and use_unicode change how the lines are read or split, which udfx does not rewrite yet")
    path = call.args[0]
    if not simple(path):
        decline(call, "the path %s is evaluated again where the chain was, so it must be a name, an attribute or a literal" % unparse(path))
    recv = call.func.value
    if isinstance(recv, ast.Attribute) and recv.attr == "sparkContext" and is_session(recv.value, mod, fn):
        return recv.value, path
    if mod.imports.get("SparkSession") == "pyspark.sql.SparkSession" and mod.once("SparkSession") \
            and "SparkSession" not in assigned_names(fn.body):
        return ast.parse("SparkSession.builder.getOrCreate()", mode="eval").body, path
    decline(call, "textFile is called on %s, which udfx cannot show is a SparkSession's sparkContext, and the module does not import SparkSession to find the session by" % unparse(recv))


def simple(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return True
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def is_session(node, mod, fn):
    """node is a name the function binds once to
    SparkSession.builder...getOrCreate(), or a parameter annotated
    SparkSession."""
    if not isinstance(node, ast.Name) or mod.imports.get("SparkSession") != "pyspark.sql.SparkSession":
        return False
    for a in fn.args.args + fn.args.kwonlyargs:
        if a.arg == node.id:
            return is_name(a.annotation, "SparkSession")
    binds = [st for st in ast.walk(fn) if isinstance(st, ast.Assign) and len(st.targets) == 1 and is_name(st.targets[0], node.id)]
    others = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == node.id and isinstance(n.ctx, (ast.Store, ast.Del))]
    if len(binds) != 1 or len(others) != 1:
        return False
    calls, root = chain(binds[0].value)
    return calls and calls[-1][1] == "getOrCreate" and not calls[-1][0].args and isinstance(root, ast.Attribute) \
        and root.attr == "builder" and is_name(root.value, "SparkSession")


def free_names(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def translate(req):
    src = req["source"]
    tree = ast.parse(src, filename=req.get("path", "<source>"))
    mod = Module(tree)
    par = parents(tree)
    name = req["name"].split("@")[0]
    stmt = find_assign(tree, name, req["line"])
    fn = stmt
    while fn is not None and not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        fn = par.get(fn)
    if fn is None:
        decline(stmt, "the chain is at module level, where importing the module runs it; udfx rewrites chains inside functions")
    calls, recv = chain(stmt.value)
    block, at = block_of(stmt, par)

    # Where the lines come from.
    if calls and calls[0][1] == "textFile":
        session, path = text_source(calls[0][0], mod, fn)
        root_end = calls[0][0]
        calls = calls[1:]
        between = []
    elif isinstance(recv, ast.Name):
        root_end = recv
        src_stmt, k = None, at - 1
        while k >= 0:
            st = block[k]
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and is_name(st.targets[0], recv.id):
                src_stmt = st
                break
            if recv.id in assigned_names([st]):
                decline(st, "%s is bound here in a way udfx does not follow" % recv.id)
            k -= 1
        if src_stmt is None:
            decline(stmt, "%s is not assigned a textFile(...) earlier in the same block" % recv.id)
        inner, _ = chain(src_stmt.value)
        if len(inner) != 1 or inner[0][1] != "textFile":
            decline(src_stmt, "%s is not sc.textFile(path)" % recv.id)
        session, path = text_source(inner[0][0], mod, fn)
        between = block[k + 1:at]
    else:
        decline(stmt, "the chain does not start at a text file")
    changed = assigned_names(between) & (free_names(session) | free_names(path))
    if changed:
        decline(stmt, "%s changes between the textFile call and the chain" % ", ".join(sorted(changed)))

    local = assigned_names(fn.body) | {a.arg for a in fn.args.args + fn.args.kwonlyargs + fn.args.posonlyargs}
    defs = {k: v for k, v in mod.defs.items() if mod.once(k) and k not in local}
    state, key = LINES, "value"
    steps, described = [], []
    rules = {("flatMap", LINES), ("filter", LINES), ("filter", WORDS), ("map", LINES), ("map", WORDS), ("reduceByKey", PAIRS)}
    for call, op in calls:
        args = call.args
        if (op, state) not in rules:
            decline(call, "%s on %s: no DataFrame rule in udfx for this step" % (op, state))
        if call.keywords or len(args) != 1:
            decline(call, "%s(%s): udfx rewrites it with one function argument only" % (op, ", ".join(unparse(a) for a in args)))
        f = args[0]
        if op == "flatMap" and state == LINES:
            sep = split_of(f, defs)
            if sep is False:
                decline(call, "flatMap(%s): udfx rewrites flatMap of a line's split() or split(SEP) with a literal separator only" % unparse(f))
            if sep is None:
                steps.append(".selectExpr(%s)" % py_str("explode(split(value, %s, -1)) AS word" % sql_str(whitespace_class())))
                steps.append(".where(%s)" % py_str("word != ''"))
                described.append("flatMap(split()) -> explode(split(value, <the characters str.isspace() holds>+, -1)), empty words dropped")
            else:
                steps.append(".selectExpr(%s)" % py_str("explode(split(value, %s, -1)) AS word" % sql_str(literal_regex(sep, call))))
                described.append("flatMap(split(%r)) -> explode(split(value, %r, -1))" % (sep, literal_regex(sep, call)))
            state, key = WORDS, "word"
        elif op == "filter" and state in (LINES, WORDS):
            if not is_nonempty_test(f, defs):
                decline(call, "filter(%s): udfx rewrites filters of non-empty strings only" % unparse(f))
            steps.append(".where(%s)" % py_str("%s != ''" % key))
            described.append("filter(non-empty) -> where(%s != '')" % key)
        elif op == "map" and state in (LINES, WORDS):
            if not is_pair_with_one(f, defs):
                decline(call, "map(%s): udfx rewrites map(lambda w: (w, 1)) before reduceByKey only" % unparse(f))
            state = PAIRS
        elif op == "reduceByKey" and state == PAIRS:
            if not is_int_add(f, mod, local):
                decline(call, "reduceByKey(%s): udfx rewrites reduceByKey(operator.add) or (lambda a, b: a + b) over the 1s only" % unparse(f))
            steps.append(".groupBy(%s)" % py_str(key))
            steps.append(".count()")
            described.append("map((w, 1)).reduceByKey(add) -> groupBy(%s).count()" % key)
            state = COUNTS
        else:
            decline(call, "%s on %s: no DataFrame rule in udfx for this step" % (op, state))
    if state != COUNTS:
        decline(stmt, "the chain ends with %s, not (key, count) pairs: udfx rewrites chains that end in reduceByKey(add)" % state)
    check_uses(fn, stmt, name, mod)

    session_text, path_text = unparse(session), unparse(path)
    head = "%s.read.text(%s)" % (session_text, path_text)
    indent = " " * stmt.col_offset
    new = "(  # udfx: the RDD chain as DataFrame code, proved by %s\n" % req["record"]
    new += "".join("%s    %s\n" % (indent, s) for s in [head] + steps)
    new += indent + ")"
    return {
        "new": new,
        "original_expr": "(" + ROOT + segment_after(src, root_end, stmt.value) + ")",
        "rewrite_expr": TEXT + "".join(steps),
        "steps": described,
        "notes": [
            "collect() returns the results in another order: Spark defines the order of neither",
            "the counts are Spark longs, which reach Python as ints, as the RDD's do (the test compares each value with its type)",
            "the results are Rows (word=..., count=...), which unpack and compare as the RDD's tuples",
        ],
    }


def check_uses(fn, stmt, name, mod):
    """Every read of the chain's name must be one a Row cannot tell
    from a tuple: `for k, v in NAME.collect()`, dict(NAME.collect()) or
    NAME.count()."""
    par = parents(fn)
    for n in ast.walk(fn):
        if isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
            decline(n, "%s is declared %s here: code outside the function could read the RDD" % (name, type(n).__name__.lower()))
    inside = set(map(id, ast.walk(stmt.value)))
    for n in ast.walk(fn):
        # Every read, before the chain too (a loop comes back to it).
        if not (is_name(n, name) and isinstance(n.ctx, ast.Load)) or id(n) in inside:
            continue
        attr = par.get(n)
        call = par.get(attr)
        ok = False
        if isinstance(attr, ast.Attribute) and isinstance(call, ast.Call) and call.func is attr and not call.args and not call.keywords:
            use = par.get(call)
            if attr.attr == "count":
                ok = True
            elif attr.attr == "collect":
                if isinstance(use, ast.For) and use.iter is call and isinstance(use.target, ast.Tuple) \
                        and len(use.target.elts) == 2 and all(isinstance(e, ast.Name) for e in use.target.elts):
                    ok = True
                elif isinstance(use, ast.Call) and is_name(use.func, "dict") and use.args == [call] \
                        and not use.keywords and mod.bound.get("dict", 0) == 0 and "dict" not in assigned_names(fn.body):
                    ok = True
        if not ok:
            shown = n
            for _ in range(3):
                up = par.get(shown)
                if not isinstance(up, ast.expr):
                    break
                shown = up
            what = unparse(shown)
            decline(n, "%s is used as `%s`, where the DataFrame's Rows could differ from the RDD's tuples; "
                       "udfx rewrites chains whose results are read by `for k, v in %s.collect()`, dict(%s.collect()) or %s.count() only"
                    % (name, what, name, name, name))


def segment_after(src, start_node, value):
    """The source text of value after start_node ends."""
    # ast counts lines as the tokenizer does: \n, \r\n and \r end one.
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n|$)", src)
    b = src.encode()
    offs, o = [], 0
    for ln in lines:
        offs.append(o)
        o += len(ln.encode())

    def at(line, col):
        return offs[line - 1] + col

    return b[at(start_node.end_lineno, start_node.end_col_offset):at(value.end_lineno, value.end_col_offset)].decode()


def main():
    req = json.load(sys.stdin)
    try:
        out = translate(req)
    except Decline as d:
        out = {"decline": str(d)}
    except SyntaxError as e:
        out = {"decline": "line %d: %s does not parse: %s" % (e.lineno or 0, req.get("path", "the file"), e.msg)}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
