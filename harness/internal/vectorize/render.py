# udfx vectorized-python renderer: reads a Python UDF with the ast module
# and renders its per-row work as a numba kernel that computes what CPython
# computes, bit for bit, or declines with a reason.
#
# stdin: JSON {"file", "name", "kind", "flavor", "return_type", "param_types",
#              "record"}; stdout: JSON {"source"} or {"decline"}.
#
# What CPython computes (numpy 2, NEP 50), and how the kernel keeps it:
#   - A Python int is unbounded; the kernel's int64 arithmetic checks for
#     overflow and leaves the row to the original when it would overflow.
#   - A Python float is a double; numba's float64 is the same IEEE double.
#   - A numpy float32 scalar (an element of a float32 array) combined with a
#     Python int or float stays float32: the Python number is converted to
#     float32 first. So `s = 0.0; s += x[i]` is a Python float until its
#     first float32 addend and a float32 afterwards. numba would type s
#     float64 throughout; the kernel keeps such a variable as a float64, a
#     float32 and a flag saying which one holds it.
#   - Python raises ZeroDivisionError on a zero divisor, numpy returns
#     inf/nan; indexing out of range raises IndexError; np.empty of a
#     negative size raises ValueError. In every such case the kernel raises
#     ArithmeticError and the row runs the original, which gives its own answer
#     (its exception, or numpy's value). The kernel never guesses an error.
#   - No fastmath: every operation is rounded as CPython rounds it, in the
#     same order (the kernel is the same statements).
import ast
import json
import sys
import textwrap

INT, FLOAT, F32, F64, BOOL, ARR32, ARR64, UNION = "int", "float", "f32", "f64", "bool", "arr32", "arr64", "union"
NUMERIC = (INT, FLOAT, F32, F64, UNION)


class Decline(Exception):
    pass


def decline(node, msg):
    line = getattr(node, "lineno", 0)
    raise Decline("line %d: %s" % (line, msg) if line else msg)


def join(a, b, node, name):
    if a is None or a == b:
        return b
    if b is None:
        return a
    s = {a, b}
    if s <= {FLOAT, F32, UNION}:
        return UNION
    decline(node, "%s is sometimes %s and sometimes %s; numba gives a variable one type" % (name, desc(a), desc(b)))


def desc(t):
    return {INT: "a Python int", FLOAT: "a Python float", F32: "a numpy float32", F64: "a numpy float64",
            BOOL: "a bool", ARR32: "a float32 array", ARR64: "a float64 array",
            UNION: "a Python float or a numpy float32"}[t]


def arith_type(op, a, b, node):
    """The type CPython with numpy 2 gives `a op b`."""
    if a == BOOL or b == BOOL:
        decline(node, "arithmetic on a bool")
    if a in (ARR32, ARR64) or b in (ARR32, ARR64):
        decline(node, "arithmetic on a whole array")
    if a == UNION and b == UNION:
        decline(node, "arithmetic between two variables that may each be a Python float or a float32")
    if isinstance(op, (ast.FloorDiv, ast.Mod)):
        if a == INT and b == INT:
            return INT
        decline(node, "// and % are rendered for ints only")
    if isinstance(op, ast.Pow):
        decline(node, "** is not rendered (CPython's pow and numba's may round differently)")
    if not isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        decline(node, "operator %s is not rendered" % type(op).__name__)
    s = {a, b}
    if s == {INT}:
        return FLOAT if isinstance(op, ast.Div) else INT
    if F64 in s:
        return F64
    if UNION in s:
        return F32 if F32 in s else UNION
    if F32 in s:
        return F32
    return FLOAT


class Func:
    """One per-row function: its parameters, and the types of its names."""

    def __init__(self, fn, param_types):
        self.fn = fn
        self.types = dict(zip([a.arg for a in fn.args.args], param_types))
        self.params = set(self.types)
        self.arrays = {}  # array variable -> its element type's array kind

    # ------------------------------------------------------------ typing

    def expr_type(self, e):
        if isinstance(e, ast.Constant):
            if isinstance(e.value, bool):
                return BOOL
            if isinstance(e.value, int):
                return INT
            if isinstance(e.value, float):
                return FLOAT
            decline(e, "constant %r is not rendered" % (e.value,))
        if isinstance(e, ast.Name):
            t = self.types.get(e.id)
            if t is None:
                decline(e, "name %s is not a local of the function (globals and closures are not rendered)" % e.id)
            return t
        if isinstance(e, ast.BinOp):
            return arith_type(e.op, self.expr_type(e.left), self.expr_type(e.right), e)
        if isinstance(e, ast.UnaryOp):
            t = self.expr_type(e.operand)
            if isinstance(e.op, ast.Not):
                if t != BOOL:
                    decline(e, "`not` of %s" % desc(t))
                return BOOL
            if isinstance(e.op, ast.USub) and t in NUMERIC:
                return t
            decline(e, "unary %s on %s" % (type(e.op).__name__, desc(t)))
        if isinstance(e, ast.Compare):
            if len(e.ops) != 1:
                decline(e, "chained comparisons are not rendered")
            a, b = self.expr_type(e.left), self.expr_type(e.comparators[0])
            if not isinstance(e.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)):
                decline(e, "comparison %s is not rendered" % type(e.ops[0]).__name__)
            if a != b or a not in (INT, FLOAT, F32, F64):
                decline(e, "comparing %s with %s is not rendered (numpy and numba convert differently)" % (desc(a), desc(b)))
            return BOOL
        if isinstance(e, ast.BoolOp):
            for v in e.values:
                if self.expr_type(v) != BOOL:
                    decline(v, "and/or over something other than comparisons")
            return BOOL
        if isinstance(e, ast.Subscript):
            t = self.expr_type(e.value)
            if t not in (ARR32, ARR64):
                decline(e, "indexing %s" % desc(t))
            if isinstance(e.slice, ast.Slice) or self.expr_type(e.slice) != INT:
                decline(e, "only an int index into a 1-d array is rendered")
            return F32 if t == ARR32 else F64
        if isinstance(e, ast.Call):
            return self.call_type(e)
        decline(e, "%s expressions are not rendered" % type(e).__name__)

    def call_type(self, e):
        f = e.func
        if e.keywords and not is_np(f, ("empty", "zeros")):
            decline(e, "keyword arguments are not rendered")
        if isinstance(f, ast.Name) and f.id == "abs" and len(e.args) == 1:
            t = self.expr_type(e.args[0])
            if t not in NUMERIC:
                decline(e, "abs of %s" % desc(t))
            return t
        if isinstance(f, ast.Name) and f.id == "len" and len(e.args) == 1:
            if self.expr_type(e.args[0]) not in (ARR32, ARR64):
                decline(e, "len of something other than an array")
            return INT
        if is_np(f, ("empty", "zeros")):
            if len(e.args) != 1 or self.expr_type(e.args[0]) != INT:
                decline(e, "np.%s takes one int size here" % f.attr)
            return self.dtype_kind(e)
        decline(e, "call of %s is not rendered" % ast.unparse(f))

    def dtype_kind(self, call):
        kws = {k.arg: k.value for k in call.keywords}
        if set(kws) != {"dtype"}:
            decline(call, "np.%s needs exactly dtype= here" % call.func.attr)
        d = kws["dtype"]
        if isinstance(d, ast.Attribute) and d.attr == "dtype" and isinstance(d.value, ast.Name):
            t = self.types.get(d.value.id)
            if t in (ARR32, ARR64):
                return t
        if is_np(d, ("float32",)):
            return ARR32
        if is_np(d, ("float64",)):
            return ARR64
        decline(call, "dtype %s is not rendered" % ast.unparse(d))

    def infer(self):
        """Types every local, joining over all assignments until stable."""
        for _ in range(20):
            before = dict(self.types)
            self.infer_block(self.fn.body)
            if before == self.types:
                return
        decline(self.fn, "the types of the locals do not settle")

    def assign(self, name, t, node):
        if name in self.params:
            # A number parameter may take new values of its own type (a
            # loop counting it down); an array parameter stays the input.
            if self.types[name] in (INT, FLOAT) and t == self.types[name]:
                return
            decline(node, "assigning %s to the parameter %s is not rendered" % (desc(t), name))
        old = self.types.get(name)
        if t in (ARR32, ARR64) and old is not None and old != t:
            decline(node, "%s holds arrays of two dtypes" % name)
        self.types[name] = join(old, t, node, name)

    def infer_block(self, body):
        for s in body:
            if isinstance(s, ast.Assign):
                if len(s.targets) != 1:
                    decline(s, "chained assignment is not rendered")
                tgt = s.targets[0]
                if isinstance(tgt, ast.Name):
                    self.assign(tgt.id, self.tolerant_type(s.value), s)
                elif isinstance(tgt, ast.Subscript):
                    pass  # checked when rendered
                else:
                    decline(s, "assignment to %s is not rendered" % type(tgt).__name__)
            elif isinstance(s, ast.AugAssign):
                if not isinstance(s.target, ast.Name):
                    decline(s, "augmented assignment to %s is not rendered" % type(s.target).__name__)
                cur = self.types.get(s.target.id)
                if cur is None:
                    decline(s, "%s is used before it is assigned" % s.target.id)
                rhs = self.tolerant_type(s.value)
                if rhs is not None:
                    if cur == UNION and rhs == F32:
                        t = F32
                    else:
                        t = arith_type(s.op, cur, rhs, s)
                    self.assign(s.target.id, t, s)
            elif isinstance(s, ast.For):
                if not isinstance(s.target, ast.Name):
                    decline(s, "only `for NAME in range(...)` is rendered")
                if not (isinstance(s.iter, ast.Call) and isinstance(s.iter.func, ast.Name) and s.iter.func.id == "range"
                        and 1 <= len(s.iter.args) <= 3 and not s.iter.keywords):
                    decline(s, "only `for NAME in range(...)` is rendered")
                for a in s.iter.args:
                    if self.tolerant_type(a) not in (INT, None):
                        decline(a, "range() of something other than ints")
                if s.orelse:
                    decline(s, "for ... else is not rendered")
                self.assign(s.target.id, INT, s)
                self.infer_block(s.body)
            elif isinstance(s, ast.While):
                if s.orelse:
                    decline(s, "while ... else is not rendered")
                self.infer_block(s.body)
            elif isinstance(s, ast.If):
                self.infer_block(s.body)
                self.infer_block(s.orelse)
            elif isinstance(s, (ast.Return, ast.Break, ast.Continue, ast.Pass)):
                pass
            else:
                decline(s, "%s statements are not rendered" % type(s).__name__)

    def tolerant_type(self, e):
        """expr_type, but None while a name it reads has no type yet."""
        try:
            return self.expr_type(e)
        except Decline:
            if self.unknown_names(e):
                return None
            raise

    def unknown_names(self, e):
        return any(isinstance(n, ast.Name) and n.id not in self.types for n in ast.walk(e))


def is_np(node, attrs):
    return (isinstance(node, ast.Attribute) and node.attr in attrs and isinstance(node.value, ast.Name)
            and node.value.id in ("np", "numpy"))


class Renderer:
    def __init__(self, func, ret):
        self.f = func
        self.ret = ret  # "scalar" or "arr32" / "arr64"
        self.lines = []
        self.tmp = 0
        self.unchecked = set()  # ids of subscripts whose bounds a loop checked

    def fresh(self):
        self.tmp += 1
        return "_t%d" % self.tmp

    def var(self, name, part=""):
        return "v_" + name + part

    def emit(self, ind, s):
        self.lines.append("    " * ind + s)

    # --------------------------------------------------------- expressions
    # expr returns (type, code) for a plain value, or (UNION, (flag, c64, c32))
    # for a value that is a Python float or a float32 depending on a flag.

    def unary(self, int_helper, fmt, t, c, ind):
        """A unary operation: an int goes through its checked helper (a
        64-bit result CPython would not give raises), a float through fmt,
        and an accumulator not yet promoted through fmt on both widths."""
        if t == INT:
            r = self.fresh()
            self.emit(ind, "%s = %s(%s)" % (r, int_helper, c))
            return INT, r
        if t == UNION:
            f, c64, c32 = c
            return UNION, (f, fmt % c64, fmt % c32)
        return t, fmt % c

    def expr(self, e, ind):
        t = self.f.expr_type(e)
        if isinstance(e, ast.Constant):
            if t == BOOL:
                return t, repr(e.value)
            if t == INT:
                if not -(2 ** 63) <= e.value < 2 ** 63:
                    decline(e, "an int constant beyond 64 bits")
                return t, "np.int64(%d)" % e.value
            return t, "np.float64(%r)" % e.value
        if isinstance(e, ast.Name):
            if t == UNION:
                return t, (self.var(e.id, "_f"), self.var(e.id, "_64"), self.var(e.id, "_32"))
            return t, self.var(e.id)
        if isinstance(e, ast.BinOp):
            return self.binop(e.op, e.left, e.right, e, ind)
        if isinstance(e, ast.UnaryOp):
            ot, oc = self.expr(e.operand, ind)
            if isinstance(e.op, ast.Not):
                return BOOL, "(not %s)" % oc
            return self.unary("_neg_int", "(-%s)", ot, oc, ind)
        if isinstance(e, ast.Compare):
            _, a = self.expr(e.left, ind)
            _, b = self.expr(e.comparators[0], ind)
            op = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}[type(e.ops[0])]
            return BOOL, "(%s %s %s)" % (a, op, b)
        if isinstance(e, ast.BoolOp):
            # Python evaluates the operands left to right and stops early;
            # so does numba's `and`/`or`. Operands are comparisons, so no
            # prelude of a later operand may run before an earlier one
            # decides: render each into its own temporary in order.
            word = " and " if isinstance(e.op, ast.And) else " or "
            r = self.fresh()
            _, first = self.expr(e.values[0], ind)
            self.emit(ind, "%s = %s" % (r, first))
            for v in e.values[1:]:
                self.emit(ind, ("if %s:" if word == " and " else "if not %s:") % r)
                _, c = self.expr(v, ind + 1)
                self.emit(ind + 1, "%s = %s" % (r, c))
            return BOOL, r
        if isinstance(e, ast.Subscript):
            _, a = self.expr(e.value, ind)
            _, i = self.expr(e.slice, ind)
            return t, self.index(e, a, i)
        if isinstance(e, ast.Call):
            name = e.func.id if isinstance(e.func, ast.Name) else e.func.attr
            if name == "abs":
                at, ac = self.expr(e.args[0], ind)
                return self.unary("_abs_int", "abs(%s)", at, ac, ind)
            if name == "len":
                _, ac = self.expr(e.args[0], ind)
                return INT, "np.int64(%s.shape[0])" % ac
            _, n = self.expr(e.args[0], ind)
            r = self.fresh()
            self.emit(ind, "if %s < 0:" % n)
            self.emit(ind + 1, "raise ArithmeticError()")
            self.emit(ind, "%s = np.%s(%s, dtype=np.%s)" % (r, name, n, "float32" if t == ARR32 else "float64"))
            return t, r
        decline(e, "not rendered")

    def as_f32(self, t, c, node):
        if t == F32:
            return c
        if t == FLOAT or t == F64:
            return "np.float32(%s)" % c
        if t == INT:
            return "_int_to_f32(%s)" % c
        if t == UNION:
            f, c64, c32 = c
            return "(%s if %s else np.float32(%s))" % (c32, f, c64)
        decline(node, "%s as a float32" % desc(t))

    def as_f64(self, t, c, node):
        if t in (FLOAT, F64):
            return c
        if t == F32:
            return "np.float64(%s)" % c
        if t == INT:
            return "_int_to_f64(%s)" % c
        if t == UNION:
            f, c64, c32 = c
            return "(np.float64(%s) if %s else %s)" % (c32, f, c64)
        decline(node, "%s as a float64" % desc(t))

    def binop(self, op, left, right, node, ind):
        lt, lc = self.expr(left, ind)
        rt, rc = self.expr(right, ind)
        t = arith_type(op, lt, rt, node)
        sym = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%"}[type(op)]
        if t == INT:
            r = self.fresh()
            helper = {"+": "_add_int", "-": "_sub_int", "*": "_mul_int", "//": "_floordiv_int", "%": "_mod_int"}[sym]
            self.emit(ind, "%s = %s(%s, %s)" % (r, helper, lc, rc))
            return INT, r
        if t == F32:
            a, b = self.as_f32(lt, lc, node), self.as_f32(rt, rc, node)
            return F32, self.float_op(sym, a, b, ind)
        if t in (FLOAT, F64):
            a, b = self.as_f64(lt, lc, node), self.as_f64(rt, rc, node)
            return t, self.float_op(sym, a, b, ind)
        # UNION with a Python int or float: a float32 operation while the
        # variable holds a float32, a double one while it holds a float.
        (f, c64, c32), other_t, other_c = (lc, rt, rc) if lt == UNION else (rc, lt, lc)
        r_f, r64, r32 = self.fresh(), self.fresh(), self.fresh()
        self.emit(ind, "%s = %s" % (r_f, f))
        self.emit(ind, "%s = np.float64(0.0)" % r64)
        self.emit(ind, "%s = np.float32(0.0)" % r32)
        self.emit(ind, "if %s:" % f)
        o32 = self.as_f32(other_t, other_c, node)
        pair = (c32, o32) if lt == UNION else (o32, c32)
        self.emit(ind + 1, "%s = %s" % (r32, self.float_op(sym, pair[0], pair[1], ind + 1)))
        self.emit(ind, "else:")
        o64 = self.as_f64(other_t, other_c, node)
        pair = (c64, o64) if lt == UNION else (o64, c64)
        self.emit(ind + 1, "%s = %s" % (r64, self.float_op(sym, pair[0], pair[1], ind + 1)))
        return UNION, (r_f, r64, r32)

    def float_op(self, sym, a, b, ind):
        if sym != "/":
            return "(%s %s %s)" % (a, sym, b)
        # Python raises on a zero divisor where numpy gives inf or nan:
        # the original decides that row.
        d = self.fresh()
        self.emit(ind, "%s = %s" % (d, b))
        self.emit(ind, "if %s == 0:" % d)
        self.emit(ind + 1, "raise ArithmeticError()")
        return "(%s / %s)" % (a, d)

    # ---------------------------------------------------------- statements

    def store(self, name, t, c, ind, node):
        vt = self.f.types[name]
        if vt == UNION:
            if t == UNION:
                f, c64, c32 = c
                self.emit(ind, "%s = %s" % (self.var(name, "_64"), c64))
                self.emit(ind, "%s = %s" % (self.var(name, "_32"), c32))
                self.emit(ind, "%s = %s" % (self.var(name, "_f"), f))
            elif t == F32:
                self.emit(ind, "%s = %s" % (self.var(name, "_32"), c))
                self.emit(ind, "%s = True" % self.var(name, "_f"))
            else:
                self.emit(ind, "%s = %s" % (self.var(name, "_64"), c))
                self.emit(ind, "%s = False" % self.var(name, "_f"))
            return
        if vt != t:
            decline(node, "%s is %s but is given %s" % (name, desc(vt), desc(t)))
        self.emit(ind, "%s = %s" % (self.var(name), c))

    def block(self, body, ind):
        for s in body:
            self.stmt(s, ind)
        if not body:
            self.emit(ind, "pass")

    def stmt(self, s, ind):
        if isinstance(s, ast.Assign):
            tgt = s.targets[0]
            if isinstance(tgt, ast.Name):
                t, c = self.expr(s.value, ind)
                self.store(tgt.id, t, c, ind, s)
                return
            at, ac = self.expr(tgt.value, ind)
            if at not in (ARR32, ARR64) or isinstance(tgt.slice, ast.Slice):
                decline(s, "only a store into a 1-d float array element is rendered")
            it, ic = self.expr(tgt.slice, ind)
            if it != INT:
                decline(s, "an array index that is not an int")
            vt, vc = self.expr(s.value, ind)
            v = self.as_f32(vt, vc, s) if at == ARR32 else self.as_f64(vt, vc, s)
            # Python evaluates the value before the index.
            r = self.fresh()
            self.emit(ind, "%s = %s" % (r, v))
            self.emit(ind, "%s = %s" % (self.index(tgt, ac, ic), r))
            return
        if isinstance(s, ast.AugAssign):
            name = s.target.id
            if self.f.types[name] == UNION and self.f.expr_type(s.value) == F32 and not isinstance(s.op, ast.Div):
                # An accumulator's first float32 addend makes it a float32:
                # one branch, taken once, instead of a select on the flag in
                # every iteration's dependency chain.
                sym = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}.get(type(s.op))
                if sym is None:
                    decline(s, "operator %s is not rendered" % type(s.op).__name__)
                _, rc = self.expr(s.value, ind)
                r = self.fresh()
                self.emit(ind, "%s = %s" % (r, rc))
                f, c64, c32 = self.var(name, "_f"), self.var(name, "_64"), self.var(name, "_32")
                self.emit(ind, "if %s:" % f)
                self.emit(ind + 1, "%s = %s %s %s" % (c32, c32, sym, r))
                self.emit(ind, "else:")
                self.emit(ind + 1, "%s = np.float32(%s) %s %s" % (c32, c64, sym, r))
                self.emit(ind + 1, "%s = True" % f)
                return
            t, c = self.binop(s.op, ast.Name(id=name, ctx=ast.Load()), s.value, s, ind)
            self.store(name, t, c, ind, s)
            return
        if isinstance(s, ast.For):
            args = []
            for a in s.iter.args:
                _, c = self.expr(a, ind)
                r = self.fresh()
                self.emit(ind, "%s = %s" % (r, c))
                args.append(r)
            if len(args) == 3:
                self.emit(ind, "if %s == 0:" % args[2])
                self.emit(ind + 1, "raise ArithmeticError()")
            else:
                self.hoist_bounds(s, args, ind)
            self.emit(ind, "for %s in range(%s):" % (self.var(s.target.id), ", ".join(args)))
            self.block(s.body, ind + 1)
            return
        if isinstance(s, ast.While):
            flag = self.fresh()
            self.emit(ind, "while True:")
            t, c = self.expr(s.test, ind + 1)
            if t != BOOL:
                decline(s, "a while condition that is not a comparison")
            self.emit(ind + 1, "if not %s:" % c)
            self.emit(ind + 2, "break")
            del flag
            self.block(s.body, ind + 1)
            return
        if isinstance(s, ast.If):
            t, c = self.expr(s.test, ind)
            if t != BOOL:
                decline(s, "an if condition that is not a comparison")
            self.emit(ind, "if %s:" % c)
            self.block(s.body, ind + 1)
            if s.orelse:
                self.emit(ind, "else:")
                self.block(s.orelse, ind + 1)
            return
        if isinstance(s, ast.Return):
            if s.value is None:
                decline(s, "a bare return gives None")
            t, c = self.expr(s.value, ind)
            if self.ret == INT:
                if t != INT:
                    decline(s, "returns %s where the UDF returns an integer type" % desc(t))
                self.emit(ind, "return %s" % c)
                return
            if self.ret == "scalar":
                if t not in (FLOAT, F32, F64, UNION):
                    decline(s, "returns %s where the UDF returns a float type" % desc(t))
                # pandas holds a float32 result widened (exact) in a float64
                # Series or as is in a float32 one; either way Arrow then
                # stores the same value for a float or double column.
                self.emit(ind, "return %s" % self.as_f64(t, c, s))
            else:
                if t != self.ret:
                    decline(s, "returns %s where the UDF returns array<%s>" % (desc(t), "float" if self.ret == ARR32 else "double"))
                self.emit(ind, "return %s" % c)
            return
        if isinstance(s, ast.Break):
            self.emit(ind, "break")
            return
        if isinstance(s, ast.Continue):
            self.emit(ind, "continue")
            return
        if isinstance(s, ast.Pass):
            self.emit(ind, "pass")
            return
        decline(s, "%s statements are not rendered" % type(s).__name__)

    def hoist_bounds(self, loop, args, ind):
        """Checks once, before `for j in range(lo, hi)`, that every a[j] in
        the body is in range, so those accesses need no check of their
        own: the loop variable only takes lo..hi-1 when nothing in the
        body assigns it, and an array the body does not assign keeps its
        length. When the check fails the original runs the row (a
        negative index wraps in Python; the original decides)."""
        j = loop.target.id
        assigned = {n.id for n in ast.walk(ast.Module(body=loop.body, type_ignores=[]))
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        if j in assigned:
            return
        lo, hi = ("np.int64(0)", args[0]) if len(args) == 1 else (args[0], args[1])
        arrays = []
        for n in ast.walk(ast.Module(body=loop.body, type_ignores=[])):
            if (isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Name) and n.slice.id == j
                    and isinstance(n.value, ast.Name) and n.value.id not in assigned
                    and self.f.types.get(n.value.id) in (ARR32, ARR64)):
                self.unchecked.add(id(n))
                if n.value.id not in arrays:
                    arrays.append(n.value.id)
        if not arrays:
            return
        cond = " or ".join(["%s < 0" % lo] + ["%s > %s.shape[0]" % (hi, self.var(a)) for a in arrays])
        self.emit(ind, "if %s < %s and (%s):" % (lo, hi, cond))
        self.emit(ind + 1, "raise ArithmeticError()")

    def index(self, node, a, i):
        if id(node) in self.unchecked:
            return "%s[%s]" % (a, i)
        return "%s[_index(%s, %s.shape[0])]" % (a, i, a)

    def render(self, name):
        params = [a.arg for a in self.f.fn.args.args]
        self.emit(0, "@numba.njit(cache=True, error_model=\"numpy\")")
        self.emit(0, "def %s(%s):" % (name, ", ".join(self.var(p) for p in params)))
        # Every local exists from the start, as numba needs; a union
        # variable starts as neither (its flag is set by its first store).
        for v, t in sorted(self.f.types.items()):
            if v in self.f.params or t in (ARR32, ARR64):
                continue
            if t == UNION:
                self.emit(1, "%s = False" % self.var(v, "_f"))
                self.emit(1, "%s = np.float64(0.0)" % self.var(v, "_64"))
                self.emit(1, "%s = np.float32(0.0)" % self.var(v, "_32"))
        self.block(self.f.fn.body, 1)
        return "\n".join(self.lines)


HELPERS = '''
_I64_MIN = -(2 ** 63)
_I64_MAX = 2 ** 63 - 1


@numba.njit(cache=True, inline="always")
def _index(i, n):
    j = i + n if i < 0 else i
    if j < 0 or j >= n:
        raise ArithmeticError()
    return j


@numba.njit(cache=True, inline="always")
def _add_int(a, b):
    r = a + b
    if ((a ^ r) & (b ^ r)) < 0:
        raise ArithmeticError()
    return r


@numba.njit(cache=True, inline="always")
def _sub_int(a, b):
    r = a - b
    if ((a ^ b) & (a ^ r)) < 0:
        raise ArithmeticError()
    return r


@numba.njit(cache=True, inline="always")
def _mul_int(a, b):
    # Not (a * b) // b != a: numba multiplies with LLVM's no-signed-wrap
    # flag, and LLVM then folds that check to false (2**32 * 2**32 gave 0).
    # The product in doubles is within 2**-51 of the true one, so below
    # 2**62 it cannot have passed 2**63; from there the row runs the
    # original, which is right whether or not 64 bits would have held it.
    if abs(np.float64(a) * np.float64(b)) >= 4611686018427387904.0:
        raise ArithmeticError()
    return a * b


@numba.njit(cache=True, inline="always")
def _floordiv_int(a, b):
    if b == 0 or (a == _I64_MIN and b == -1):
        raise ArithmeticError()
    return a // b


@numba.njit(cache=True, inline="always")
def _mod_int(a, b):
    if b == 0:
        raise ArithmeticError()
    return a % b


@numba.njit(cache=True, inline="always")
def _neg_int(a):
    if a == _I64_MIN:
        raise ArithmeticError()
    return -a


@numba.njit(cache=True, inline="always")
def _abs_int(a):
    if a == _I64_MIN:
        raise ArithmeticError()
    return abs(a)


@numba.njit(cache=True, inline="always")
def _int_to_f32(a):
    # numpy converts a Python int to float32 through a double: exact only
    # while both roundings agree, which holds below 2**24.
    if a > 16777216 or a < -16777216:
        raise ArithmeticError()
    return np.float32(a)


@numba.njit(cache=True, inline="always")
def _int_to_f64(a):
    if a > 9007199254740992 or a < -9007199254740992:
        raise ArithmeticError()
    return np.float64(a)
'''


def free_names(fn):
    """Names fn's body reads that it neither binds nor gets from builtins
    (its decorator, a plain @udf's udf(...), is not part of the row's work)."""
    bound = {a.arg for a in fn.args.args}
    nodes = [n for st in fn.body for n in ast.walk(st)]
    for n in nodes:
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            bound.add(n.id)
    import builtins

    return sorted({n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                   and n.id not in bound and not hasattr(builtins, n.id)})


def find(tree, name):
    for n in tree.body:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name:
            return n
    raise Decline("no top-level def %s" % name)


def per_row(fn, req):
    """The per-row function of the UDF, its parameter types and how its
    result is returned."""
    kind, flavor = req.get("kind"), req.get("flavor")
    if kind == "python-udf":
        return plain_udf(fn, req)
    if kind != "pandas-udf" or flavor != "series-to-series":
        raise Decline("renders pandas_udfs of the series-to-series shape (a per-row function applied with "
                      "Series.apply); this is a %s%s" % (kind, " (%s)" % flavor if flavor else ""))
    if len(fn.args.args) != 1:
        raise Decline("the pandas_udf takes %d Series; one is rendered" % len(fn.args.args))
    series = fn.args.args[0].arg
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 2 or not isinstance(body[0], ast.FunctionDef) or not isinstance(body[1], ast.Return):
        raise Decline("the pandas_udf's body is not `def f(x): ...` then `return %s.apply(f)`" % series)
    inner, ret = body
    call = ret.value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "apply"
            and isinstance(call.func.value, ast.Name) and call.func.value.id == series
            and len(call.args) == 1 and not call.keywords and isinstance(call.args[0], ast.Name)
            and call.args[0].id == inner.name):
        raise Decline("the pandas_udf does not return %s.apply(%s)" % (series, inner.name))
    if inner.decorator_list or len(inner.args.args) != 1 or inner.args.vararg or inner.args.kwarg \
            or inner.args.kwonlyargs or inner.args.defaults or inner.args.posonlyargs:
        raise Decline("the per-row function %s must take exactly one plain parameter" % inner.name)
    pt = (req.get("param_types") or [None])[0]
    elem = {"array<float>": ARR32, "array<double>": ARR64}.get(pt)
    if elem is None:
        raise Decline("the column is %s; float and double arrays are rendered" % pt)
    rt = req.get("return_type")
    ret_kind = {"float": "scalar", "double": "scalar", "array<float>": ARR32, "array<double>": ARR64}.get(rt)
    if ret_kind is None:
        raise Decline("returns %s; float, double and their arrays are rendered" % rt)
    return inner, [elem], ret_kind


# ---------------------------------------------------------------- fast forms
#
# With "fast" in the request, the rewrite also holds a kernel that changes
# the algorithm, and so the rounding: it is proved only within a tolerance
# the project declares for the UDF (udfx.yaml), never bit-exact, and is
# never the default rewrite. Each form is recognized by the per-row
# function's shape (its locals renamed in order, its integer constants
# other than 0 and 1 captured), not by its name. A fast kernel takes only
# the rows where the original's float32 sums differ from exact sums by
# rounding alone, and raises for the others, which the exact kernel then
# takes, bit for bit.

FAST_PAIRWISE = """
def f(x):
    n = len(x)
    tot = 0.0
    cnt = 0
    for i in range(n):
        for j in range(i + 1, n):
            tot += abs(x[i] - x[j])
            cnt += 1
    return tot / cnt
"""

FAST_MOVING = """
def f(x):
    w = 128
    n = len(x)
    y = np.empty(n - w + 1, dtype=x.dtype)
    for i in range(n - w + 1):
        s = 0.0
        for j in range(i, i + w):
            s += x[j]
        y[i] = s / w
    return y
"""

# Values whose differences and sums stay normal floats, far from float32's
# overflow: there the original's float32 arithmetic is exact arithmetic
# plus rounding.
FAST_RANGE = """
        a = abs(np.float64(x[k]))
        if not (a == 0.0 or (a >= 1e-30 and a <= 1e30)):
            raise ArithmeticError()"""

FAST_PAIRWISE_KERNEL = """
@numba.njit(cache=True, error_model="numpy")
def {kernel}(x):
    # The mean of |x[i] - x[j]| over i < j from the sorted values: the k-th
    # smallest is subtracted from the n-1-k larger ones and has the k
    # smaller ones subtracted from it, so the sum is sum(s[k] * (2k - n + 1)),
    # O(n log n) in float64 instead of the original's O(n^2) float32 sum.
    n = x.shape[0]
    if n < 2:
        raise ArithmeticError()
    big = 0.0
    for k in range(n):{range_check}
        big = max(big, a)
    cnt = n * (n - 1) // 2
    if 2.0 * big * cnt > 1e38:
        raise ArithmeticError()
    s = np.sort(x.astype(np.float64))
    tot = 0.0
    for k in range(n):
        tot += s[k] * (2 * k - n + 1)
    return np.float32(tot / cnt)
"""

FAST_MOVING_KERNEL = """
@numba.njit(cache=True, error_model="numpy")
def {kernel}(x):
    # Each window's sum from the previous one (a running float64 sum),
    # O(n) instead of the original's O(n * {w}) float32 sums. Only for
    # values of one sign (no cancellation in the original's sums) and
    # window sums within a factor of 1e4 of each other, where the running
    # sum's own error stays far below float32's.
    n = x.shape[0]
    m = n - {w} + 1
    if m < 1:
        raise ArithmeticError()
    pos = False
    neg = False
    for k in range(n):{range_check}
        if x[k] > 0:
            pos = True
        elif x[k] < 0:
            neg = True
    if pos and neg:
        raise ArithmeticError()
    y = np.empty(m, dtype=np.float32)
    s = 0.0
    for j in range({w}):
        s += np.float64(x[j])
    lo = abs(s)
    hi = abs(s)
    y[0] = np.float32(s / {w})
    for i in range(1, m):
        s += np.float64(x[i + {w} - 1]) - np.float64(x[i - 1])
        lo = min(lo, abs(s))
        hi = max(hi, abs(s))
        y[i] = np.float32(s / {w})
    if hi > 0.0 and lo * 1e4 < hi:
        raise ArithmeticError()
    return y
"""


def canonical(fn):
    """fn's shape: its dump with parameters and locals renamed v0, v1, ...
    in order of first appearance and integer constants other than 0 and 1
    replaced, and those constants in order."""
    import copy

    fn = copy.deepcopy(fn)
    names, consts = {}, []
    local = {a.arg for a in fn.args.args}
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            local.add(n.id)

    def rename(name):
        if name not in names:
            names[name] = "v%d" % len(names)
        return names[name]

    for a in fn.args.args:
        a.arg = rename(a.arg)

    class T(ast.NodeTransformer):
        def visit_Name(self, node):
            if node.id in local:
                node.id = rename(node.id)
            return node

        def visit_Constant(self, node):
            if type(node.value) is int and node.value not in (0, 1):
                consts.append(node.value)
                return ast.copy_location(ast.Constant(value="K"), node)
            return node

    body = [T().visit(st) for st in fn.body if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]
    return "|".join(ast.dump(st) for st in body) + "|" + ",".join(a.arg for a in fn.args.args), consts


def fast_form(inner, ptypes, ret_kind, tree):
    """The fast kernel's source for the per-row function, by its shape."""
    if ptypes[0] != ARR32:
        raise Decline("the faster forms udfx knows are for float32 arrays; this column is float64")
    shape, consts = canonical(inner)
    range_check = FAST_RANGE
    if shape == canonical(ast.parse(FAST_PAIRWISE).body[0])[0] and ret_kind == "scalar":
        return "pairwise", FAST_PAIRWISE_KERNEL.replace("{range_check}", range_check)
    if shape == canonical(ast.parse(FAST_MOVING).body[0])[0] and ret_kind == ARR32 \
            and module_imports_numpy_as_np(tree) and consts and consts[0] >= 1:
        return "moving", FAST_MOVING_KERNEL.replace("{range_check}", range_check).replace("{w}", str(consts[0]))
    raise Decline("no faster form with a stated tolerance: udfx knows two, the mean of pairwise absolute "
                  "differences (sorted, O(n log n)) and a moving average (a running sum, O(n)), each written "
                  "as the plain loops of examples/python-vectors")


# The Spark types of a plain @udf's parameters and results the kernel
# takes and gives: Spark hands a Python int for every integer type and a
# Python float for float and double.
PLAIN_PARAMS = {"tinyint": INT, "smallint": INT, "int": INT, "bigint": INT, "float": FLOAT, "double": FLOAT}
PLAIN_RETURNS = {"tinyint": INT, "smallint": INT, "int": INT, "bigint": INT, "float": "scalar", "double": "scalar"}


def plain_udf(fn, req):
    """A plain @udf is its own per-row function. The rewrite stays a plain
    @udf of the same declared type: Spark converts what it returns as it
    converts the original's, so equal Python values per row are equal
    results."""
    a = fn.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs or not a.args:
        raise Decline("the UDF must take plain parameters only")
    pts = req.get("param_types") or []
    if len(pts) != len(a.args):
        raise Decline("the Spark types of the parameters are not all known")
    kinds = []
    for p, pt in zip(a.args, pts):
        k = PLAIN_PARAMS.get(pt)
        if k is None:
            raise Decline("parameter %s is %s; integer and floating-point parameters are rendered" % (p.arg, pt))
        kinds.append(k)
    rk = PLAIN_RETURNS.get(req.get("return_type"))
    if rk is None:
        raise Decline("returns %s; integer and floating-point results are rendered" % req.get("return_type"))
    if not any(isinstance(n, (ast.For, ast.While)) for n in ast.walk(fn)):
        raise Decline("no loop to compile: numba would not make it faster")
    return fn, kinds, rk


def module_imports_numpy_as_np(tree):
    for n in tree.body:
        if isinstance(n, ast.Import):
            for a in n.names:
                if a.name == "numpy" and (a.asname or "numpy") == "np":
                    return True
    return False


def render(req):
    with open(req["file"], encoding="utf-8") as fh:
        src = fh.read()
    tree = ast.parse(src)
    fn = find(tree, req["name"])
    inner, ptypes, ret_kind = per_row(fn, req)
    free = free_names(inner)
    if free and (free != ["np"] or not module_imports_numpy_as_np(tree)):
        raise Decline("the per-row function reads %s from outside itself" % ", ".join(free))
    func = Func(inner, ptypes)
    func.infer()
    name = req["name"]
    kernel = "_%s_kernel" % name
    r = Renderer(func, ret_kind)
    body = r.render(kernel)
    original = textwrap.dedent(ast.get_source_segment(src, inner, padded=True))
    original = original.replace("def %s(" % inner.name, "def _%s_original(" % name, 1)
    if req.get("kind") == "python-udf":
        if req.get("fast"):
            raise Decline("the faster forms udfx knows are for pandas_udfs over float32 vectors")
        return render_plain(req, fn, ptypes, body, original)
    elem_dtype = "np.float32" if ptypes[0] == ARR32 else "np.float64"
    decorator = ast.get_source_segment(src, fn.decorator_list[0]) if fn.decorator_list else None
    if decorator is None:
        raise Decline("the pandas_udf has no decorator to copy")
    fast, fast_src = None, ""
    if req.get("fast"):
        fast, fast_src = fast_form(inner, ptypes, ret_kind, tree)
        fast_src = fast_src.replace("{kernel}", "_%s_fast" % name)
    if fast:
        doc = [
            '"""udfx vectorized-python rewrite of %s:%s, the fast form: NOT bit-exact.' % (req["rel_file"], name),
            "",
            {"pairwise": "The mean of pairwise absolute differences is computed from the sorted",
             "moving": "Each window's sum is computed from the previous one (a running sum"}[fast],
            {"pairwise": "values in float64, O(n log n), where the original sums O(n^2) float32",
             "moving": "in float64), O(n), where the original sums every window in float32:"}[fast],
            {"pairwise": "differences in float32: the results differ by rounding. It is proved",
             "moving": "the results differ by rounding. It is proved only within the tolerance"}[fast],
            {"pairwise": "only within the tolerance the project's udfx.yaml declares for it.",
             "moving": "the project's udfx.yaml declares for it."}[fast],
            "Rows outside the fast kernel's range (non-finite or extreme values, and",
            "more, see its comments) run the exact kernel, rendered from the Python",
            "source with the same operations in the same order at the same float",
            "widths, no fastmath; a row neither reproduces runs the original's",
            'per-row function, copied below unchanged."""',
        ]
    else:
        doc = [
            '"""udfx vectorized-python rewrite of %s:%s.' % (req["rel_file"], name),
            "",
            "The per-row function runs as a numba kernel rendered from its Python",
            "source: the same operations in the same order at the same float widths",
            "(numpy 2's: a Python float becomes float32 once a float32 is added to",
            "it), no fastmath. A row the kernel does not reproduce (a zero divisor,",
            "an index out of range, an int past 64 bits, an input that is not a",
            "1-d %s array) runs the original's per-row function, copied" % elem_dtype.split(".")[1],
            'below unchanged. Proved bit-exact by udfx\'s differential test."""',
        ]
    first_try = []
    if fast:
        first_try = [
            "        try:",
            "            return _%s_fast(x)" % name,
            "        except Exception:  # noqa: BLE001 -- outside the fast kernel's range: the exact kernel's row",
            "            pass",
        ]
    out = [req["marker"]] + doc + [
        "import numba",
        "import numpy as np",
        "import pandas as pd",
        "from pyspark.sql.functions import pandas_udf",
        HELPERS,
        "",
        body,
        fast_src.rstrip(),
        "",
        "",
        original.rstrip(),
        "",
        "",
        "def _%s_row(x):" % name,
        "    if type(x) is np.ndarray and x.dtype == %s and x.ndim == 1:" % elem_dtype,
    ] + first_try + [
        "        try:",
        "            return %s(x)" % kernel,
        "        except Exception:  # noqa: BLE001 -- the kernel leaves this row to the original",
        "            pass",
        "    return _%s_original(x)" % name,
        "",
        "",
        "# numba imports a kernel's module by name when it compiles the kernel",
        "# and when it loads it from its cache. This file's name differs between",
        "# udfx's runner, the job and Spark's workers (which may get the",
        "# functions by value and never import it, or fail to, since",
        "# @pandas_udf(\"...\") needs a SparkContext to parse its type), so the",
        "# kernels name __main__, which every process has. They use no module",
        "# globals at run time: what they call numba resolved when compiling.",
        "for _d in list(globals().values()):",
        "    if isinstance(_d, numba.core.registry.CPUDispatcher):",
        "        _d.py_func.__module__ = \"__main__\"",
        "",
        "",
        "@%s" % decorator,
        "def %s(%s: pd.Series) -> pd.Series:" % (name, fn.args.args[0].arg),
        "    return %s.apply(_%s_row)" % (fn.args.args[0].arg, name),
        "",
    ]
    return "\n".join(out)


def render_plain(req, fn, ptypes, body, original):
    """The module of a plain @udf's rewrite: a plain @udf of the same
    declared type whose rows run the kernel, or the original's body where
    the kernel does not reproduce it."""
    name = req["name"]
    dec = fn.decorator_list[0] if len(fn.decorator_list) == 1 else None
    if not (isinstance(dec, ast.Call) and isinstance(dec.func, ast.Name) and dec.func.id == "udf"
            and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in dec.args)
            and all(k.arg == "returnType" and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)
                    for k in dec.keywords)):
        raise Decline("the UDF is not decorated with udf(\"TYPE\") alone, which the rewrite copies")
    params = [a.arg for a in fn.args.args]
    args = ", ".join(params)
    guard = " and ".join(
        ("type(%s) is int and _I64_MIN <= %s <= _I64_MAX" % (p, p)) if t == INT else ("type(%s) is float" % p)
        for p, t in zip(params, ptypes))
    out = [
        req["marker"],
        '"""udfx vectorized-python rewrite of %s:%s.' % (req["rel_file"], name),
        "",
        "The UDF's body runs as a numba kernel rendered from its Python source:",
        "the same operations in the same order, no fastmath, every int operation",
        "checked so that a result CPython would not give in 64 bits makes the",
        "row run the original instead. A row the kernel does not reproduce (None,",
        "an int past 64 bits, a zero divisor) runs the original's body, copied",
        "below unchanged. It stays a plain @udf of the same declared type, so",
        "Spark converts its results as it converts the original's. Proved",
        'bit-exact by udfx\'s differential test."""',
        "import numba",
        "import numpy as np",
        "from pyspark.sql.functions import udf",
        HELPERS,
        "",
        body,
        "",
        "",
        original.rstrip(),
        "",
        "",
        "def _%s_row(%s):" % (name, args),
        "    if %s:" % guard,
        "        try:",
        "            return _%s_kernel(%s)" % (name, args),
        "        except Exception:  # noqa: BLE001 -- the kernel leaves this row to the original",
        "            pass",
        "    return _%s_original(%s)" % (name, args),
        "",
        "",
        "# numba looks a kernel's module up by name (see the vectorized",
        "# pandas_udf rewrites): the kernels name __main__, which every process has.",
        "for _d in list(globals().values()):",
        "    if isinstance(_d, numba.core.registry.CPUDispatcher):",
        "        _d.py_func.__module__ = \"__main__\"",
        "",
        "",
        "@%s" % ast.unparse(dec),
        "def %s(%s):" % (name, args),
        "    return _%s_row(%s)" % (name, args),
        "",
    ]
    return "\n".join(out)


def main():
    req = json.loads(sys.stdin.read())
    try:
        out = {"source": render(req)}
    except Decline as e:
        out = {"decline": str(e)}
    except SyntaxError as e:
        out = {"decline": "the file does not parse: %s" % e}
    sys.stdout.write(json.dumps(out))


if __name__ == "__main__":
    main()
