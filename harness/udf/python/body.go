package python

import (
	"strings"
	"unicode/utf8"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/udf"
)

// pureBuiltins are the builtins a UDF may call without a blocker: numeric
// conversions, math and container helpers. range, enumerate and zip only
// appear with a loop, which is a blocker of its own.
var pureBuiltins = setOf(
	"abs", "min", "max", "len", "round", "int", "float", "str", "bool", "pow",
	"divmod", "sum", "sorted", "reversed", "isinstance", "range", "enumerate",
	"zip", "list", "tuple", "set", "dict", "frozenset", "any", "all", "chr",
	"ord", "hex", "oct", "bin", "complex", "bytes", "bytearray", "repr",
	"format", "ascii", "map", "filter", "iter", "next", "slice",
	"ValueError", "TypeError", "KeyError", "IndexError", "ZeroDivisionError",
	"ArithmeticError", "Exception", "RuntimeError", "NotImplementedError",
	"AssertionError", "OverflowError", "StopIteration",
)

// ioBuiltins read or write outside the process.
var ioBuiltins = setOf("print", "open", "input", "breakpoint")

// pureMethods are methods of str, numbers, dates and containers that a
// row-at-a-time UDF may call on its values. Container mutators are here
// too: on a local list they mutate nothing outside the function (on a
// module-level name they are caught before this list is consulted).
var pureMethods = setOf(
	"upper", "lower", "strip", "lstrip", "rstrip", "split", "rsplit",
	"splitlines", "replace", "startswith", "endswith", "find", "rfind",
	"index", "rindex", "count", "join", "format", "zfill", "isdigit",
	"isalpha", "isalnum", "isspace", "isupper", "islower", "isnumeric",
	"isdecimal", "istitle", "title", "capitalize", "casefold", "swapcase",
	"center", "ljust", "rjust", "partition", "rpartition", "encode", "decode",
	"expandtabs", "removeprefix", "removesuffix",
	"get", "keys", "values", "items", "copy",
	"append", "extend", "insert", "pop", "remove", "update", "add",
	"setdefault", "sort", "reverse",
	"is_integer", "conjugate", "as_integer_ratio", "bit_length", "quantize",
	"isoformat", "strftime", "date", "time", "weekday", "isoweekday",
)

// mutatingMethods change the container they are called on.
var mutatingMethods = setOf(
	"append", "extend", "insert", "pop", "remove", "clear", "update",
	"setdefault", "add", "discard", "popitem", "sort", "reverse",
	"__setitem__", "__delitem__",
)

var logMethods = setOf("debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log")

var (
	nondetPrefixes = []string{"random.", "numpy.random.", "np.random.", "secrets.", "uuid."}
	nondetFuncs    = setOf(
		"time.time", "time.time_ns", "time.perf_counter", "time.perf_counter_ns",
		"time.monotonic", "time.monotonic_ns", "time.process_time", "time.localtime",
		"time.gmtime", "time.ctime", "time.asctime", "os.urandom", "os.getpid",
	)
	networkPrefixes = []string{"requests.", "urllib.", "urllib3.", "socket.", "http.", "httpx.", "aiohttp.", "ftplib.", "smtplib."}
	ioPrefixes      = []string{"os.", "sys.", "logging.", "shutil.", "pathlib.", "io.", "subprocess.", "glob.", "tempfile.", "pickle.", "builtins.print", "builtins.open", "json.dump", "json.load"}
	// pureQualified are exact names that would otherwise fall under a
	// blocking prefix (os.path string helpers) or that construct values.
	pureQualified = setOf(
		"os.path.join", "os.path.basename", "os.path.dirname", "os.path.split",
		"os.path.splitext", "os.path.normpath",
		"decimal.Decimal", "datetime.date", "datetime.datetime", "datetime.time",
		"datetime.timedelta", "datetime.datetime.strptime",
		"datetime.datetime.fromisoformat", "datetime.date.fromisoformat",
		"datetime.datetime.combine", "functools.reduce",
		// utcfromtimestamp, and fromtimestamp: in UTC with tz=, else in
		// the worker's zone, which the translator declines by name.
		"datetime.datetime.utcfromtimestamp", "datetime.datetime.fromtimestamp",
	)
	purePrefixes = []string{"math.", "cmath.", "operator."}
	// vectorizedPrefixes are known inside pandas UDFs only: numpy and
	// pandas are how vectorized code is written, but in a row-at-a-time
	// UDF they leave the body inexpressible in SQL.
	vectorizedPrefixes = []string{"numpy.", "pandas.", "np.", "pd."}
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// classifyQualified says what calling the dotted name full does: a
// blocker kind, or known=true for a pure function; both zero when the
// name is not recognised.
func classifyQualified(full string, vectorized bool) (kind udf.BlockerKind, known bool) {
	switch {
	case hasAnyPrefix(full, nondetPrefixes) || nondetFuncs[full] || isNow(full):
		return udf.BlockerNondeterminism, false
	case hasAnyPrefix(full, networkPrefixes):
		return udf.BlockerNetwork, false
	case pureQualified[full]:
		return "", true
	case hasAnyPrefix(full, ioPrefixes):
		return udf.BlockerIO, false
	case hasAnyPrefix(full, purePrefixes):
		return "", true
	case vectorized && hasAnyPrefix(full, vectorizedPrefixes):
		return "", true
	}
	return "", false
}

// isNow matches datetime.now(), date.today(), pd.Timestamp.utcnow() and
// the like, however the class was imported.
func isNow(full string) bool {
	i := strings.LastIndexByte(full, '.')
	if i <= 0 {
		return false
	}
	switch full[i+1:] {
	case "now", "today", "utcnow":
	default:
		return false
	}
	switch lastSegment(full[:i]) {
	case "datetime", "date", "Timestamp":
		return true
	}
	return false
}

// bodyScan looks for blockers in one UDF body.
type bodyScan struct {
	sc         *scan
	vectorized bool
	locals     map[string]bool
	out        []udf.Blocker
}

// blockers returns the blockers of f: those in its body, or for a function
// from elsewhere, what its name says about it.
func (sc *scan) blockers(f *found) []udf.Blocker {
	b := &bodyScan{sc: sc, vectorized: f.u.Kind == udf.KindPandasUDF, locals: map[string]bool{}}
	b.out = append(b.out, f.extra...)
	switch {
	case f.body != nil:
		b.collectLocals(f.body)
		b.walk(field(f.body, "body"))
	case f.externalNode != nil:
		kind, known := classifyQualified(sc.resolve(f.external), b.vectorized)
		switch {
		case kind != "":
			b.add(kind, "call to "+f.external, f.externalNode)
		case !known:
			b.add(udf.BlockerUnknownCall, "call to "+f.external+" (defined outside this file)", f.externalNode)
		}
	}
	return dedupe(b.out)
}

func (b *bodyScan) add(kind udf.BlockerKind, detail string, n *sitter.Node) {
	b.out = append(b.out, udf.Blocker{Kind: kind, Detail: detail, Span: b.sc.src.Span(n)})
}

// dedupe drops a blocker identical in kind and detail to an earlier one
// starting on the same line.
func dedupe(bs []udf.Blocker) []udf.Blocker {
	type key struct {
		kind   udf.BlockerKind
		detail string
		line   int
	}
	seen := map[key]bool{}
	out := bs[:0]
	for _, bl := range bs {
		k := key{bl.Kind, bl.Detail, bl.Span.Start.Line}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, bl)
	}
	return out
}

// collectLocals records the names fn binds: its parameters and those of
// nested functions, assignment and loop targets, with/except aliases and
// nested defs and classes. Names declared global stay outside.
func (b *bodyScan) collectLocals(fn *sitter.Node) {
	globals := map[string]bool{}
	var visit func(n *sitter.Node)
	visit = func(n *sitter.Node) {
		switch kindOf(n) {
		case "function_definition", "lambda":
			for _, p := range b.sc.paramNodes(n) {
				b.locals[strings.TrimLeft(p.name, "*")] = true
			}
			if name := field(n, "name"); name != nil {
				b.locals[b.sc.text(name)] = true
			}
		case "class_definition":
			if name := field(n, "name"); name != nil {
				b.locals[b.sc.text(name)] = true
			}
		case "assignment", "augmented_assignment", "for_statement", "for_in_clause":
			b.bindPattern(field(n, "left"))
		case "as_pattern_target":
			b.bindPattern(n)
		case "named_expression":
			b.bindPattern(field(n, "name"))
		case "global_statement", "nonlocal_statement":
			for i, count := uint(0), n.NamedChildCount(); i < count; i++ {
				globals[b.sc.text(n.NamedChild(i))] = true
			}
		}
		for i, count := uint(0), n.NamedChildCount(); i < count; i++ {
			visit(n.NamedChild(i))
		}
	}
	visit(fn)
	for g := range globals {
		delete(b.locals, g)
	}
}

// bindPattern records the plain names an assignment target binds;
// attribute and subscript targets bind none.
func (b *bodyScan) bindPattern(n *sitter.Node) {
	if n == nil {
		return
	}
	switch kindOf(n) {
	case "identifier":
		b.locals[b.sc.text(n)] = true
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list",
		"parenthesized_expression", "list_splat_pattern", "as_pattern_target", "expression_list":
		for i, count := uint(0), n.NamedChildCount(); i < count; i++ {
			b.bindPattern(n.NamedChild(i))
		}
	}
}

var loopKinds = map[string]string{
	"for_statement":            "for loop",
	"while_statement":          "while loop",
	"list_comprehension":       "list comprehension",
	"set_comprehension":        "set comprehension",
	"dictionary_comprehension": "dict comprehension",
	"generator_expression":     "generator expression",
}

func (b *bodyScan) walk(n *sitter.Node) {
	if n == nil {
		return
	}
	kind := kindOf(n)
	if what, ok := loopKinds[kind]; ok {
		b.add(udf.BlockerLoop, what, n)
	}
	switch kind {
	case "call":
		b.call(n)
	case "try_statement":
		detail := "try/finally"
		for i, count := uint(0), n.NamedChildCount(); i < count; i++ {
			if k := kindOf(n.NamedChild(i)); k == "except_clause" || k == "except_group_clause" {
				detail = "try/except"
				break
			}
		}
		b.add(udf.BlockerExceptionHandler, detail, n)
	case "global_statement", "nonlocal_statement":
		b.add(udf.BlockerMutableState, shorten(b.sc.text(n)), n)
	case "assignment", "augmented_assignment":
		b.checkTarget(field(n, "left"))
	case "delete_statement":
		for i, count := uint(0), n.NamedChildCount(); i < count; i++ {
			b.checkTarget(n.NamedChild(i))
		}
	}
	for i, count := uint(0), n.NamedChildCount(); i < count; i++ {
		b.walk(n.NamedChild(i))
	}
}

// checkTarget flags a write to an attribute or item of a name the
// function does not bind.
func (b *bodyScan) checkTarget(t *sitter.Node) {
	if t == nil {
		return
	}
	switch kindOf(t) {
	case "attribute", "subscript":
		if root := b.rootName(t); root != "" && !b.locals[root] {
			b.add(udf.BlockerMutableState, "assignment to "+shorten(b.sc.text(t)), t)
		}
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "parenthesized_expression", "expression_list":
		for i, count := uint(0), t.NamedChildCount(); i < count; i++ {
			b.checkTarget(t.NamedChild(i))
		}
	}
}

// rootName is the identifier an attribute/subscript chain starts from.
func (b *bodyScan) rootName(n *sitter.Node) string {
	for n != nil {
		switch kindOf(n) {
		case "identifier":
			return b.sc.text(n)
		case "attribute":
			n = field(n, "object")
		case "subscript":
			n = field(n, "value")
		default:
			return ""
		}
	}
	return ""
}

func (b *bodyScan) call(call *sitter.Node) {
	fn := field(call, "function")
	if fn == nil {
		return
	}
	sc := b.sc
	switch kindOf(fn) {
	case "identifier":
		name := sc.text(fn)
		switch {
		case b.locals[name] || sc.defs[name] != nil || sc.classes[name]:
		case sc.isImported(name):
			b.qualified(call, name, sc.resolve(name))
		case ioBuiltins[name]:
			b.add(udf.BlockerIO, "call to "+name, call)
		case pureBuiltins[name]:
		default:
			b.add(udf.BlockerUnknownCall, "call to "+name, call)
		}
	case "attribute":
		method := sc.text(field(fn, "attribute"))
		d, ok := sc.dotted(fn)
		if !ok {
			// A method on a computed value: s.strip().lower(), x[0].upper().
			b.method(call, method, "."+method)
			return
		}
		root, _, _ := strings.Cut(d, ".")
		switch {
		case b.locals[root]:
			b.method(call, method, d)
		case sc.isImported(root):
			b.qualified(call, d, sc.resolve(d))
		case sc.defs[root] != nil || sc.classes[root]:
		default:
			// A module-level or enclosing value, or a module whose
			// import the file leaves out.
			if kind, known := classifyQualified(d, b.vectorized); kind != "" {
				b.add(kind, "call to "+d, call)
				return
			} else if known {
				return
			}
			switch {
			case strings.Contains(strings.ToLower(root), "log") && logMethods[method]:
				b.add(udf.BlockerIO, "call to "+d, call)
			case mutatingMethods[method]:
				b.add(udf.BlockerMutableState, "mutation of "+root+" via "+method, call)
			default:
				b.method(call, method, d)
			}
		}
	default:
		b.add(udf.BlockerUnknownCall, "call to "+shorten(sc.text(fn)), call)
	}
}

// qualified handles a call of an imported name; written is how the source
// spells it, full the name resolved through the imports.
func (b *bodyScan) qualified(call *sitter.Node, written, full string) {
	kind, known := classifyQualified(full, b.vectorized)
	switch {
	case kind != "":
		b.add(kind, "call to "+written, call)
	case !known:
		b.add(udf.BlockerUnknownCall, "call to "+written, call)
	}
}

// method handles a method call on a value. In a pandas UDF the values are
// Series, arrays and frames whose methods are the vectorized operations
// themselves.
func (b *bodyScan) method(call *sitter.Node, method, written string) {
	if b.vectorized || pureMethods[method] {
		return
	}
	b.add(udf.BlockerUnknownCall, "call to "+shorten(written), call)
}

// shorten keeps details readable when the construct is long source text.
func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	const limit = 60
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	return string(r[:limit]) + "..."
}
