package scala

import (
	"strconv"
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

// bodyScan finds the blockers of one UDF: in its function, and in the defs
// and object/class vals of the same file that the function uses.
type bodyScan struct {
	f       *file
	u       *udf.UDF
	visited map[int]bool    // defs and vals already scanned
	seen    map[string]bool // kind, detail and line of each blocker
}

func (f *file) scanBlockers(u *udf.UDF, fn int) {
	s := &bodyScan{f: f, u: u, visited: map[int]bool{fn: true}, seen: map[string]bool{}}
	s.scan(fn)
}

// scan walks a function (def or lambda) or an expression. A name bound
// anywhere inside it counts as local everywhere inside it: coarser than
// Scala's scopes, but shadowing a field by a local is rare in UDFs.
func (s *bodyScan) scan(root int) {
	locals := s.f.boundNames(root)
	s.f.t.walk(root, func(i int) bool {
		s.visit(i, locals)
		return true
	})
}

func (s *bodyScan) scanOnce(n int) {
	if n == none || s.visited[n] {
		return
	}
	s.visited[n] = true
	s.scan(n)
}

func (s *bodyScan) add(kind udf.BlockerKind, detail string, n int) {
	sp := s.f.span(n)
	key := string(kind) + "\x00" + detail + "\x00" + strconv.Itoa(sp.Start.Line)
	if s.seen[key] {
		return
	}
	s.seen[key] = true
	s.u.Blockers = append(s.u.Blockers, udf.Blocker{Kind: kind, Detail: detail, Span: sp})
}

// boundNames lists the names bound inside root: parameters, vals, vars,
// nested defs, case and for patterns.
func (f *file) boundNames(root int) map[string]bool {
	t := f.t
	names := map[string]bool{}
	addPattern := func(p int) {
		for _, n := range f.patternNames(p) {
			names[n] = true
		}
	}
	t.walk(root, func(i int) bool {
		switch t.kind(i) {
		case "parameter", "binding", "class_parameter":
			names[t.text(t.child(i, "name"))] = true
		case "lambda_expression":
			if p := t.child(i, "parameters"); t.kind(p) == "identifier" {
				names[t.text(p)] = true
			}
		case "val_definition", "var_definition", "case_clause":
			addPattern(t.child(i, "pattern"))
		case "function_definition":
			if i != root {
				names[t.text(t.child(i, "name"))] = true
			}
		case "enumerator":
			if ks := t.kids(i); len(ks) > 0 {
				addPattern(ks[0])
			}
		}
		return true
	})
	return names
}

func (s *bodyScan) visit(i int, locals map[string]bool) {
	t := s.f.t
	switch t.kind(i) {
	case "try_expression":
		detail := "try/finally"
		for _, k := range t.kids(i) {
			if t.kind(k) == "catch_clause" {
				detail = "try/catch"
			}
		}
		s.add(udf.BlockerExceptionHandler, detail, i)
	case "while_expression":
		s.add(udf.BlockerLoop, "while loop", i)
	case "do_while_expression":
		s.add(udf.BlockerLoop, "do-while loop", i)
	case "for_expression":
		if t.hasToken(i, "yield") {
			s.add(udf.BlockerLoop, "for comprehension", i)
		} else {
			s.add(udf.BlockerLoop, "for loop", i)
		}
	case "call_expression":
		fn := t.child(i, "function")
		if t.kind(fn) == "generic_function" {
			fn = t.child(fn, "function")
		}
		if k := t.kind(fn); k == "identifier" || k == "field_expression" {
			s.judge(fn, locals, true)
		}
	case "instance_expression":
		s.newExpr(i)
	case "field_expression":
		if s.isCallee(i) || s.isAssigned(i) || (t.kind(t.parent(i)) == "field_expression" && t.fieldOf(i) == "value") {
			return
		}
		s.judge(i, locals, false)
	case "identifier":
		s.ident(i, locals)
	case "assignment_expression":
		s.assign(t.child(i, "left"), locals)
	case "infix_expression":
		op := t.child(i, "operator")
		if t.kind(op) == "identifier" {
			// a max b, xs foreach f: a method call in operator position.
			s.method(t.text(op), t.text(op), op, i)
		} else if isCompoundAssign(t.text(op)) {
			s.assign(t.child(i, "left"), locals)
		}
	}
}

func isCompoundAssign(op string) bool {
	switch op {
	case "==", "!=", "<=", ">=", "=>":
		return false
	}
	return len(op) > 1 && strings.HasSuffix(op, "=")
}

// isCallee is true for the function position of a call, f or f[T].
func (s *bodyScan) isCallee(i int) bool {
	t := s.f.t
	p := t.parent(i)
	if t.kind(p) == "generic_function" {
		i, p = p, t.parent(p)
	}
	return t.kind(p) == "call_expression" && t.fieldOf(i) == "function"
}

// isAssigned is true for the left side of an assignment.
func (s *bodyScan) isAssigned(i int) bool {
	t := s.f.t
	p := t.parent(i)
	if t.fieldOf(i) != "left" {
		return false
	}
	switch t.kind(p) {
	case "assignment_expression":
		return true
	case "infix_expression":
		return isCompoundAssign(t.text(t.child(p, "operator")))
	}
	return false
}

func (s *bodyScan) ident(i int, locals map[string]bool) {
	t := s.f.t
	if s.isCallee(i) || s.isAssigned(i) {
		return
	}
	switch t.fieldOf(i) {
	case "field", "operator", "name", "pattern", "parameters", "interpolator":
		return
	}
	if k := t.kind(t.parent(i)); k == "stable_identifier" || k == "stable_type_identifier" || k == "import_declaration" {
		return
	}
	name := t.text(i)
	if locals[name] {
		return
	}
	switch {
	case s.f.vars[name]:
		s.add(udf.BlockerMutableState, "reads var "+name, i)
	case name == "println" || name == "print" || name == "printf":
		s.add(udf.BlockerIO, name, i)
	default:
		s.scanMember(name)
	}
}

// scanMember scans the def or object/class val of this file named name,
// the code a UDF runs when it uses that member; false when there is none.
func (s *bodyScan) scanMember(name string) bool {
	if d, ok := s.f.defs[name]; ok {
		s.scanOnce(d)
		return true
	}
	if v, ok := s.f.fieldVals[name]; ok {
		s.scanOnce(v)
		return true
	}
	return false
}

func (s *bodyScan) assign(left int, locals map[string]bool) {
	t := s.f.t
	target := left
	for t.kind(target) == "call_expression" {
		// a(i) = x is a.update(i, x).
		target = t.child(target, "function")
	}
	root := target
	for t.kind(root) == "field_expression" {
		root = t.child(root, "value")
	}
	if t.kind(root) == "identifier" && locals[t.text(root)] {
		return
	}
	s.add(udf.BlockerMutableState, "assignment to "+squeeze(t.text(target)), left)
}

// path splits a.b.c into its names; ok is false when the receiver is an
// expression (a call, a literal), whose text then stands as the first name.
func (s *bodyScan) path(n int) (segs []string, ok bool) {
	t := s.f.t
	switch t.kind(n) {
	case "identifier":
		return []string{t.text(n)}, true
	case "field_expression":
		recv, ok := s.path(t.child(n, "value"))
		return append(recv, t.text(t.child(n, "field"))), ok
	}
	return []string{squeeze(t.text(n))}, false
}

// judge checks a reference or call of fn, an identifier or a.b.c.
func (s *bodyScan) judge(fn int, locals map[string]bool, called bool) {
	segs, plain := s.path(fn)
	q := strings.Join(segs, ".")
	if kind, ok := impure(segs, plain); ok {
		s.add(kind, "call to "+q, fn)
		return
	}
	if len(segs) == 1 {
		name := segs[0]
		switch {
		case locals[name], pureFunctions[name]:
		case name == "Try":
			s.add(udf.BlockerExceptionHandler, "Try(...)", fn)
		case s.scanMember(name):
		case called:
			s.add(udf.BlockerUnknownCall, "call to "+name, fn)
		}
		return
	}
	last := segs[len(segs)-1]
	if s.f.vars[last] && !s.isAssigned(fn) {
		s.add(udf.BlockerMutableState, "reads var "+q, fn)
		return
	}
	recv := strings.Join(segs[:len(segs)-1], ".")
	if plain && mathObjects[recv] {
		return
	}
	if q == "scala.util.Try" || q == "util.Try" {
		s.add(udf.BlockerExceptionHandler, "Try(...)", fn)
		return
	}
	s.method(last, q, fn, fn)
}

// method checks a call of a method name on some receiver; q names it in
// the blocker.
func (s *bodyScan) method(name, q string, at, whole int) {
	switch {
	case name == "foreach":
		s.add(udf.BlockerLoop, ".foreach loop", whole)
	case pureMethods[name], constants[name]:
	case s.scanMember(name):
	default:
		s.add(udf.BlockerUnknownCall, "call to "+q, at)
	}
}

// newExpr checks new X(...).
func (s *bodyScan) newExpr(i int) {
	t := s.f.t
	ty := s.f.instanceType(i)
	base := squeeze(t.text(ty))
	if t.kind(ty) == "generic_type" {
		base = squeeze(t.text(t.child(ty, "type")))
	}
	short := base[strings.LastIndexByte(base, '.')+1:]
	detail := "new " + base
	hasArgs := len(s.f.callArgs(i)) > 0
	switch {
	case strings.HasPrefix(base, "java.net.") || networkClasses[short]:
		s.add(udf.BlockerNetwork, detail, i)
	case strings.HasPrefix(base, "java.io.") || strings.HasPrefix(base, "java.nio.") || ioClasses[short]:
		s.add(udf.BlockerIO, detail, i)
	case short == "Random" || short == "SecureRandom" || (short == "Date" && !hasArgs):
		s.add(udf.BlockerNondeterminism, detail, i)
	case pureClasses[base] || pureClasses[short]:
	case s.isTemplate(short) && s.f.instanceBody(i) == none:
		// A class of this file: its constructor is scanned when used
		// through its methods.
	default:
		s.add(udf.BlockerUnknownCall, detail, i)
	}
}

func (s *bodyScan) isTemplate(name string) bool {
	_, ok := s.f.templates[name]
	return ok
}

// impure classifies calls of I/O, network and nondeterministic APIs.
func impure(segs []string, plain bool) (udf.BlockerKind, bool) {
	if !plain {
		// Only the method name is known: a logger or a clock can still be
		// recognized by it.
		if last := segs[len(segs)-1]; last == "now" {
			return udf.BlockerNondeterminism, true
		}
		return "", false
	}
	q := strings.Join(segs, ".")
	first, last := segs[0], segs[len(segs)-1]
	recv := strings.Join(segs[:len(segs)-1], ".")
	switch {
	case strings.HasPrefix(q, "java.net.") || networkClasses[first] ||
		q == "Source.fromURL" || q == "scala.io.Source.fromURL" || q == "Source.fromURI" || q == "scala.io.Source.fromURI":
		return udf.BlockerNetwork, true
	case len(segs) == 1 && (q == "println" || q == "print" || q == "printf"),
		first == "Console" || strings.HasPrefix(q, "scala.Console."),
		strings.HasPrefix(q, "System.out.") || strings.HasPrefix(q, "System.err.") || strings.HasPrefix(q, "java.lang.System.out.") || strings.HasPrefix(q, "java.lang.System.err."),
		strings.HasPrefix(q, "scala.io.") || strings.HasPrefix(q, "java.io.") || strings.HasPrefix(q, "java.nio.") || ioClasses[first] || first == "Files" || first == "Paths" || first == "Source",
		len(segs) > 1 && logMethods[last] && strings.Contains(strings.ToLower(recv), "log"):
		return udf.BlockerIO, true
	case first == "Random" || first == "ThreadLocalRandom" || strings.HasPrefix(q, "scala.util.Random") ||
		strings.HasPrefix(q, "java.util.Random") || strings.HasPrefix(q, "java.util.concurrent.ThreadLocalRandom"),
		last == "random" && mathObjects[recv],
		last == "randomUUID",
		q == "System.currentTimeMillis" || q == "System.nanoTime" || q == "java.lang.System.currentTimeMillis" || q == "java.lang.System.nanoTime",
		last == "now" && len(segs) > 1:
		return udf.BlockerNondeterminism, true
	}
	return "", false
}

func squeeze(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

var networkClasses = set("URL", "URI", "Socket", "ServerSocket", "DatagramSocket", "HttpClient", "HttpURLConnection", "URLConnection", "InetAddress", "HttpRequest", "Http")

var ioClasses = set("File", "FileReader", "FileWriter", "FileInputStream", "FileOutputStream", "PrintWriter",
	"PrintStream", "BufferedReader", "BufferedWriter", "InputStreamReader", "OutputStreamWriter", "RandomAccessFile", "Scanner")

var logMethods = set("info", "warn", "warning", "debug", "error", "trace", "fatal", "log")

// pureClasses may be constructed in a UDF without a blocker.
var pureClasses = set("BigDecimal", "java.math.BigDecimal", "BigInt", "java.math.BigInteger", "BigInteger",
	"String", "java.lang.String", "StringBuilder", "java.lang.StringBuilder", "Some", "Tuple2", "Tuple3",
	"java.lang.Double", "java.lang.Float", "java.lang.Integer", "java.lang.Long", "java.lang.Short", "java.lang.Byte", "java.lang.Boolean",
	"java.sql.Date", "java.sql.Timestamp",
	// A formatter local to the call, and the Date of a long (a Date of no
	// argument is the clock, judged before this).
	"SimpleDateFormat", "java.text.SimpleDateFormat", "Date", "java.util.Date")

// pureFunctions are plain names a UDF may call: constructors of values and
// Predef's checks.
var pureFunctions = set("Some", "Option", "None", "Seq", "List", "Array", "Vector", "Set", "Map", "IndexedSeq",
	"BigDecimal", "BigInt", "identity", "require", "assert", "Tuple2", "Tuple3", "Left", "Right", "classOf")

// pureMethods are method names that are pure whatever the receiver in the
// code UDFs are written in: numeric conversions and operations, String,
// Option and boxing methods.
var pureMethods = set(
	// numbers
	"toInt", "toLong", "toDouble", "toFloat", "toShort", "toByte", "toChar", "toString",
	"abs", "round", "ceil", "floor", "signum", "max", "min", "isNaN", "isInfinite", "isFinite",
	"isWhole", "isValidInt", "isValidLong", "compare", "compareTo", "equals", "hashCode",
	"doubleValue", "floatValue", "intValue", "longValue", "shortValue", "byteValue", "booleanValue",
	"box", "unbox", "valueOf", "parseInt", "parseLong", "parseDouble", "parseFloat", "parseBoolean",
	"setScale", "precision", "scale", "toBigDecimal", "underlying", "until", "to",
	"asInstanceOf", "isInstanceOf", "ne", "eq",
	// strings
	"length", "size", "substring", "indexOf", "lastIndexOf", "contains", "startsWith", "endsWith",
	"replace", "replaceAll", "replaceFirst", "matches", "trim", "strip", "stripLeading", "stripTrailing",
	"toUpperCase", "toLowerCase", "split", "concat", "isEmpty", "nonEmpty", "isBlank", "charAt",
	"equalsIgnoreCase", "compareToIgnoreCase", "reverse", "take", "drop", "takeRight", "dropRight",
	"head", "last", "headOption", "lastOption", "mkString", "capitalize", "stripPrefix", "stripSuffix",
	// Option and collections used as values
	"getOrElse", "map", "flatMap", "filter", "isDefined", "get", "orElse", "orNull", "fold",
	"exists", "forall", "sum", "product", "toList", "toSeq", "toArray", "apply",
	// date formatting the translator reads: a formatter's setup and use,
	// java.time's Instant, zones and formatters
	"format", "setTimeZone", "setLenient", "getTimeZone", "ofPattern", "withZone", "withLocale",
	"ofEpochMilli", "atZone", "atOffset", "ofInstant",
)

// constants are fields of Double, Int, math, ... that name fixed values.
var constants = set("MaxValue", "MinValue", "MinPositiveValue", "PositiveInfinity", "NegativeInfinity", "NaN",
	"Pi", "E", "PI", "MAX_VALUE", "MIN_VALUE", "POSITIVE_INFINITY", "NEGATIVE_INFINITY", "UTC")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
