package translate

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

// Real PySpark UDFs format epoch times with
//
//	datetime.utcfromtimestamp(epoch_ms / 1000).strftime("%Y-%m-%d")
//
// For an int x, x / 1000 is a float, and utcfromtimestamp splits it into
// seconds and microseconds rounded half to even; over years 1 to 9999
// (|x| < 2^53, so the division is one rounding) the seconds are
// floor(x / 1000) exactly: a whole number of seconds is exact in a
// double, and a fraction of at least a millisecond stays a fraction, so
// the microseconds (off by at most 15) never carry. The format is then
// whole-second arithmetic in UTC, with no time zone: the numbers of the
// date and the time, and the names of days and months of the C locale
// where the program cannot have left it (strftimeLocale). A float
// column's seconds round differently and are declined. A DATE column's
// d.strftime(F) is the same formatting of midnight.

// pyUTCStrftime translates n, a call of strftime on obj; ok is false
// where obj is not a utcfromtimestamp call (the caller goes on).
func (t *tr) pyUTCStrftime(n, obj *sitter.Node, argNodes []*sitter.Node, e env) (b *binding, ok bool) {
	if obj.Kind() == "call" && t.isDatetimeMethod(obj.ChildByFieldName("function"), "strptime") {
		return t.pyStrptimeStrftime(n, obj, argNodes, e), true
	}
	if obj.Kind() != "call" {
		return nil, false
	}
	args := namedNonComment(obj.ChildByFieldName("arguments"))
	switch fn := obj.ChildByFieldName("function"); {
	case t.isDatetimeMethod(fn, "fromtimestamp"):
		// datetime.fromtimestamp(x, tz=timezone.utc), utcfromtimestamp's
		// replacement (deprecated in Python 3.12): the same fields, in
		// UTC; the formats translated print no zone.
		if len(args) != 2 || !t.isPyUTC(args[1]) {
			t.decline(obj, "datetime.fromtimestamp"+t.text(obj.ChildByFieldName("arguments")), "only tz=timezone.utc is translated: without it the date is in the worker's local time zone, which udfx cannot know")
			return nil, true
		}
		args = args[:1]
	case !t.isDatetimeMethod(fn, "utcfromtimestamp"):
		return nil, false
	}
	if len(args) != 1 || len(argNodes) != 1 {
		t.decline(n, "utcfromtimestamp(…).strftime with "+t.text(obj.ChildByFieldName("arguments")), "only one timestamp and one format are translated")
		return nil, true
	}
	secs := t.pyEpochSeconds(args[0], e)
	if secs == nil {
		return nil, true
	}
	f := t.pyExpr(argNodes[0], e)
	if f == nil {
		return nil, true
	}
	format, ok := t.strftimeFormat(argNodes[0], f, ir.PyUTCStrftime)
	if !ok {
		return nil, true
	}
	return lit(&ir.Call{Fn: ir.PyUTCStrftime, Args: []ir.Expr{secs, &ir.Lit{T: tString, Value: format}}, T: tString}), true
}

// pyDateStrftime translates n, d.strftime(F) of recv, a datetime.date
// (PySpark's value of a DATE): AttributeError where it is None, else
// the date at midnight formatted by the directives PyDateStrftime
// renders.
func (t *tr) pyDateStrftime(n *sitter.Node, recv *binding, argNodes []*sitter.Node, e env) *binding {
	if len(argNodes) != 1 {
		t.decline(n, "date.strftime with "+fmt.Sprint(len(argNodes))+" arguments", "only one format is translated")
		return nil
	}
	f := t.pyExpr(argNodes[0], e)
	if f == nil {
		return nil
	}
	format, ok := t.strftimeFormat(argNodes[0], f, ir.PyDateStrftime)
	if !ok {
		return nil
	}
	var res ir.Expr = &ir.Call{Fn: ir.PyDateStrftime, Args: []ir.Expr{recv.e, &ir.Lit{T: tString, Value: format}}, T: tString}
	if recv.nullable {
		res = t.throwOnNull(n, recv.e, res)
	}
	return lit(res)
}

// pyEpochSeconds is the whole seconds utcfromtimestamp(n) gives: of an
// int x, x; of x / 1000 (or 1000.0) and x // 1000, floor(x / 1000).
func (t *tr) pyEpochSeconds(n *sitter.Node, e env) ir.Expr {
	for n.Kind() == "parenthesized_expression" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	x := n
	millis := false
	if n.Kind() == "binary_operator" {
		op, r := t.text(n.ChildByFieldName("operator")), n.ChildByFieldName("right")
		if (op == "/" || op == "//") && (t.text(r) == "1000" || t.text(r) == "1000.0" && op == "/") {
			x, millis = n.ChildByFieldName("left"), true
		}
	}
	v := t.pyValue(x, e)
	if v == nil {
		return nil
	}
	if !ir.IsIntegral(v.Type()) {
		t.decline(n, "utcfromtimestamp of "+typeName(v), "only int seconds, or int milliseconds / 1000, are translated: a float's fraction is rounded to microseconds")
		return nil
	}
	v = widen(v, tLong)
	if millis {
		v = &ir.Binary{Op: ir.PyIntFloorDivConst, L: v, R: &ir.Lit{T: tLong, Value: int64(1000)}, T: tLong}
	}
	return v
}

// isPyUTC: n (or tz=n) is timezone.utc of module datetime
// (isDatetimeName of the class timezone).
func (t *tr) isPyUTC(n *sitter.Node) bool {
	if n.Kind() == "keyword_argument" {
		if t.text(n.ChildByFieldName("name")) != "tz" {
			return false
		}
		n = n.ChildByFieldName("value")
	}
	return n.Kind() == "attribute" && t.text(n.ChildByFieldName("attribute")) == "utc" &&
		t.isDatetimeName(n.ChildByFieldName("object"), "timezone")
}

// isDatetimeMethod: fn is datetime.method with `from datetime import
// datetime`, or datetime.datetime.method with `import datetime`
// (isDatetimeName of the class datetime).
func (t *tr) isDatetimeMethod(fn *sitter.Node, method string) bool {
	return fn.Kind() == "attribute" && t.text(fn.ChildByFieldName("attribute")) == method &&
		t.isDatetimeName(fn.ChildByFieldName("object"), "datetime")
}

// strftimeOK: the format holds only the directives fn renders
// (ir.StrftimeDirectives).
func strftimeOK(f string, fn ir.Func) bool {
	allowed := ir.StrftimeDirectives(fn)
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i == len(f) {
			return false
		}
		if f[i] != '%' && strings.IndexByte(allowed, f[i]) < 0 {
			return false
		}
	}
	return true
}

// strftimeFormat is the literal format f of a strftime call of fn, or ""
// with a decline: a format that is not a literal, holds a directive fn
// does not render, or prints a name of the C locale where the program
// may have left it (strftimeLocale).
func (t *tr) strftimeFormat(arg *sitter.Node, f *binding, fn ir.Func) (string, bool) {
	format, isLit := f.e.(*ir.Lit)
	if !isLit || !isString(format) || !strftimeOK(format.Value.(string), fn) {
		var list []string
		for _, c := range ir.StrftimeDirectives(fn) {
			list = append(list, "%"+string(c))
		}
		t.decline(arg, "strftime format "+t.text(arg), "only a literal format of "+strings.Join(list, " ")+", %% and plain text is translated")
		return "", false
	}
	v := format.Value.(string)
	for i := 0; i+1 < len(v); i++ {
		if v[i] == '%' {
			if strings.IndexByte(ir.StrftimeNames, v[i+1]) >= 0 {
				return v, t.strftimeLocale(arg, "%"+v[i+1:i+2])
			}
			i++
		}
	}
	return v, true
}

// CPython starts every program in the C locale for dates and times
// (LC_TIME): it sets only LC_CTYPE from the environment, so %A, %a, %B,
// %b and %p print English names whatever LANG or LC_ALL say, until a
// program calls locale.setlocale (docs/semantics.md; TestStrftime-
// NamesIgnoreTheEnvironment shows both with a German locale). A PySpark
// worker never calls it: only the job's own code could, in the UDF's
// module, a module it imports, or another module of the job that the
// same worker imports. strftimeLocale accepts the names only where the
// file imports nothing but the modules listed below, which do not call
// it, and no Python file or notebook of the repository names setlocale.
var pyModulesWithoutSetlocale = map[string]bool{
	"__future__": true, "calendar": true, "collections": true, "datetime": true, "decimal": true, "functools": true,
	"itertools": true, "json": true, "math": true, "operator": true, "pyspark": true, "re": true, "string": true,
	"time": true, "typing": true, "unicodedata": true,
}

// strftimeLocale declines the name directive dir where the program may
// have set LC_TIME (see pyModulesWithoutSetlocale).
func (t *tr) strftimeLocale(n *sitter.Node, dir string) bool {
	const why = " (the names follow LC_TIME, which only locale.setlocale changes from the C locale)"
	for _, m := range t.pyImportedModules() {
		top, _, _ := strings.Cut(m, ".")
		if !pyModulesWithoutSetlocale[top] {
			t.decline(n, "strftime "+dir+" in a file that imports "+m, "udfx does not know that "+m+" leaves the names of days and months alone"+why)
			return false
		}
	}
	// A call the text does not spell reaches setlocale through these.
	if dyn := t.pyDynamicAccess(); dyn != "" {
		t.decline(n, "strftime "+dir+" in a file that calls "+dyn, "udfx cannot tell what "+dyn+" reaches, and locale.setlocale may be one"+why)
		return false
	}
	if where := t.setlocaleIn(); where != "" {
		t.decline(n, "strftime "+dir, where+why)
		return false
	}
	return true
}

// pyDynamicNames are the builtins that reach a module or a function by a
// name computed at run time.
var pyDynamicNames = map[string]bool{
	"__import__": true, "__builtins__": true, "compile": true, "eval": true, "exec": true, "getattr": true, "globals": true, "vars": true,
}

// pyDynamicAccess is the first of pyDynamicNames the file names, "" when
// it names none.
func (t *tr) pyDynamicAccess() string {
	found := ""
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if found != "" {
			return
		}
		if n.Kind() == "identifier" && pyDynamicNames[t.text(n)] {
			found = t.text(n)
			return
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(t.root)
	return found
}

// pyImportedModules are the modules every import statement of the file
// names, at any depth, relative ones with their dots.
func (t *tr) pyImportedModules() []string {
	var mods []string
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		switch n.Kind() {
		case "import_statement":
			for _, c := range namedNonComment(n) {
				if c.Kind() == "aliased_import" {
					c = c.ChildByFieldName("name")
				}
				mods = append(mods, t.text(c))
			}
			return
		case "import_from_statement", "future_import_statement":
			if m := n.ChildByFieldName("module_name"); m != nil {
				mods = append(mods, t.text(m))
			} else {
				mods = append(mods, "__future__")
			}
			return
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(t.root)
	return mods
}

// setlocaleFiles bounds the files setlocaleIn reads: a tree with more is
// declined rather than half read.
const setlocaleFiles = 20000

// setlocaleIn says why the program may call locale.setlocale: the UDF's
// file or a Python file or notebook of its repository names it (outside
// a repository, of the file's own folder, without subfolders), or the
// repository holds more files than udfx reads for it; "" where none
// does. Folders that hold no job code (hidden ones, caches, installed
// packages) are skipped.
func (t *tr) setlocaleIn() string {
	if strings.Contains(string(t.src), "setlocale") {
		return "the UDF's file names setlocale"
	}
	root, deep := t.top().u.Root, true
	if root == "" {
		root, deep = filepath.Dir(t.top().u.Path()), false
	}
	why, files := "", 0
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case why != "":
			return filepath.SkipAll
		case err != nil:
			why = fmt.Sprintf("%s cannot be read (udfx reads the repository for setlocale): %v", p, err)
			return filepath.SkipAll
		case d.IsDir():
			if p != root && (!deep || strings.HasPrefix(d.Name(), ".") || d.Name() == "__pycache__" || d.Name() == "node_modules" || d.Name() == "site-packages") {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(p); ext != ".py" && ext != ".ipynb" || !d.Type().IsRegular() {
			return nil
		}
		if files++; files > setlocaleFiles {
			why = fmt.Sprintf("%s holds more than %d Python files and notebooks, which udfx reads for setlocale", root, setlocaleFiles)
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(root, p)
		if b, err := os.ReadFile(p); err != nil {
			why = fmt.Sprintf("%s cannot be read (udfx reads the repository for setlocale): %v", rel, err)
		} else if bytes.Contains(b, []byte("setlocale")) {
			why = rel + " names setlocale"
		}
		return nil
	})
	return why
}

// pyStrptimeStrftime translates datetime.strptime(x, F).strftime(G) (n is
// the strftime call, obj the strptime call): TypeError where x is None,
// ValueError where strptime rejects x, else the fields strptime read,
// formatted as strftime does (a naive datetime: no time zone).
func (t *tr) pyStrptimeStrftime(n, obj *sitter.Node, argNodes []*sitter.Node, e env) *binding {
	args := namedNonComment(obj.ChildByFieldName("arguments"))
	if len(args) != 2 || len(argNodes) != 1 {
		t.decline(n, "strptime(…).strftime with "+t.text(obj.ChildByFieldName("arguments")), "only one text, one format and one output format are translated")
		return nil
	}
	x := t.pyExpr(args[0], e)
	if x == nil {
		return nil
	}
	if !isString(x.e) {
		t.decline(args[0], "strptime of "+typeName(x.e), "only a str is parsed (CPython raises TypeError for anything else)")
		return nil
	}
	f := t.pyExpr(args[1], e)
	out := t.pyExpr(argNodes[0], e)
	if f == nil || out == nil {
		return nil
	}
	format, isLit := f.e.(*ir.Lit)
	var pattern, asciiPattern, fields, why string
	if isLit && isString(format) {
		pattern, fields, why = strptimePattern(format.Value.(string), false)
		asciiPattern, _, _ = strptimePattern(format.Value.(string), true)
	} else {
		why = "the format is not a literal"
	}
	if why != "" {
		t.decline(args[1], "strptime format "+t.text(args[1]), why)
		return nil
	}
	outFormat, ok := t.strftimeFormat(argNodes[0], out, ir.PyStrptimeStrftime)
	if !ok {
		return nil
	}
	str := func(v string) ir.Expr { return &ir.Lit{T: tString, Value: v} }
	spec := []ir.Expr{x.e, str(pattern), str(fields), str(pyDigitsFrom), str(pyDigitsTo), str(asciiPattern)}
	var res ir.Expr = &ir.If{
		Cond: &ir.Unary{Op: ir.Not, X: &ir.Call{Fn: ir.PyStrptimeValid, Args: spec, T: tBool}, T: tBool},
		Then: &ir.Raise{Msg: "udfx: the original throws ValueError (strptime: the text does not match the format, or no such date)", T: tString},
		Else: &ir.Call{Fn: ir.PyStrptimeStrftime, Args: append(append([]ir.Expr{}, spec...), str(outFormat)), T: tString},
	}
	if x.nullable {
		res = raiseWhereNull(x.e, res, "TypeError where strptime gets None")
	}
	return lit(res)
}

// strptimeDirectives are the Java regular expressions of the numeric
// directives in CPython's _strptime.TimeRE, with D for \d, which in a
// str pattern matches every Unicode decimal digit.
var strptimeDirectives = map[byte]string{
	'd': "3[01]|[12]D|0[1-9]|[1-9]| [1-9]",
	'm': "1[0-2]|0[1-9]|[1-9]",
	'Y': "DDDD",
	'y': "DD",
	'H': "2[0-3]|[01]D|D",
	'M': "[0-5]D|D",
	'S': "6[01]|[0-5]D|D",
}

// pyIgnoreCase are the characters CPython's re.IGNORECASE matches with
// the ASCII letter c in a str pattern: its two cases, and for i, k and s
// the characters Unicode folds with them (TestStrptimeLettersMatchCPython
// checks every letter).
func pyIgnoreCase(c byte) []rune {
	lower := rune(c | 0x20)
	extra := map[rune]string{'i': "\u0130\u0131", 'k': "\u212a", 's': "\u017f"}[lower]
	return append([]rune{lower - 0x20, lower}, []rune(extra)...)
}

// strptimePattern is the Java regular expression that CPython's
// _strptime compiles f to, anchored at the start, and the directive of
// each group; why says why f is not translated. Both engines backtrack
// alike over these alternations and classes, so Java's first match is
// CPython's, and CPython then requires it to end at the end of the text
// (pyStrptimeSQL compares it with the text). A run of whitespace
// matches any run of str.isspace characters (\s+); letters match
// ignoring case (re.IGNORECASE); other characters outside ASCII are
// refused, since IGNORECASE would fold them too.
//
// With ascii, the pattern is the same over ASCII text alone: each class
// keeps only its ASCII characters (digits 0-9, the ASCII whitespace
// str.isspace counts, a letter's two cases). On a text of ASCII alone it
// matches exactly where the full pattern does, with the same groups: the
// characters it leaves out cannot occur there.
func strptimePattern(f string, ascii bool) (pattern, fields, why string) {
	digit := pyClass(pyDecimalDigitRanges())
	space, letter := runsOf(pyWhitespace), func(c byte) []rune { return pyIgnoreCase(c) }
	if ascii {
		digit = "[0-9]"
		space = runsOf(strings.Map(func(r rune) rune {
			if r < 0x80 {
				return r
			}
			return -1
		}, pyWhitespace))
		letter = func(c byte) []rune { return []rune{rune(c &^ 0x20), rune(c | 0x20)} }
	}
	var b strings.Builder
	b.WriteByte('^')
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			switch {
			case c == ' ' || c == '\t':
				// _strptime turns a run of whitespace into \s+.
				for i+1 < len(f) && (f[i+1] == ' ' || f[i+1] == '\t') {
					i++
				}
				b.WriteString(pyClass(space) + "+")
			case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
				// re.IGNORECASE: the letter in either case, and the
				// characters Unicode folds with it.
				b.WriteString(pyClass(runsOf(string(letter(c)))))
			case c < 0x21 || c > 0x7e:
				return "", "", fmt.Sprintf("the format's literal %q: only ASCII between the directives is translated", string(c))
			default:
				fmt.Fprintf(&b, `\x{%X}`, c)
			}
			continue
		}
		if i+1 == len(f) {
			return "", "", "a format ending in %: CPython raises ValueError"
		}
		i++
		if f[i] == '%' {
			b.WriteString(`\x{25}`)
			continue
		}
		re, ok := strptimeDirectives[f[i]]
		if !ok {
			return "", "", "the directive %" + string(f[i]) + ": only %d %m %Y %y %H %M %S and %% are translated"
		}
		if strings.IndexByte(fields, f[i]) >= 0 {
			return "", "", "the directive %" + string(f[i]) + " twice: CPython's re raises error, not ValueError"
		}
		fields += string(f[i])
		b.WriteString("(" + strings.ReplaceAll(re, "D", digit) + ")")
	}
	hasYear := strings.ContainsAny(fields, "Yy")
	if !hasYear || strings.Contains(fields, "Y") && strings.Contains(fields, "y") || !strings.Contains(fields, "m") || !strings.Contains(fields, "d") {
		return "", "", "only a format with a day, a month and one year (%d, %m, %Y or %y) is translated (CPython fills what is missing with 1900-01-01)"
	}
	return b.String(), fields, ""
}

// pyDateShift translates n, d + timedelta(days=k), timedelta(days=k) + d
// or d - timedelta(days=k) of a datetime.date d and an int k (also
// timedelta(k)); ok is false where neither operand is a timedelta call
// (the caller goes on).
func (t *tr) pyDateShift(n *sitter.Node, op string, e env) (b *binding, ok bool) {
	if op != "+" && op != "-" {
		return nil, false
	}
	l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	date, delta := l, r
	if !t.isTimedeltaCall(r) {
		if op != "+" || !t.isTimedeltaCall(l) {
			return nil, false
		}
		date, delta = r, l
	}
	// CPython evaluates the left operand first; both are values without
	// effects here, and any error either raises is the rewrite's too.
	days := t.pyTimedeltaDays(delta, e)
	if days == nil {
		return nil, true
	}
	d := t.pyValue(date, e)
	if d == nil {
		return nil, true
	}
	if !isDate(d) {
		t.decline(n, "`"+op+"` of a timedelta and "+typeName(d), "only a datetime.date plus or minus a timedelta of days is translated")
		return nil, true
	}
	sign := int64(1)
	if op == "-" {
		sign = -1
	}
	return lit(&ir.Call{Fn: ir.PyDateAddDays, Args: []ir.Expr{d, days, &ir.Lit{T: tLong, Value: sign}}, T: udf.Prim(udf.Date)}), true
}

// isTimedeltaCall: n calls datetime's timedelta, as timedelta(...) under
// `from datetime import timedelta` or datetime.timedelta(...) under
// `import datetime`, and the file binds the name nowhere else.
func (t *tr) isTimedeltaCall(n *sitter.Node) bool {
	for n.Kind() == "parenthesized_expression" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	return n.Kind() == "call" && t.isDatetimeName(n.ChildByFieldName("function"), "timedelta")
}

// isDatetimeName: fn names the class of module datetime, imported by
// name (`from datetime import date, timedelta`) or reached through the
// module (`import datetime`), and the file binds that name nowhere else.
func (t *tr) isDatetimeName(fn *sitter.Node, class string) bool {
	name := t.text(fn)
	viaModule := name == "datetime."+class
	if !viaModule && name != class {
		return false
	}
	local := class
	if viaModule {
		local = "datetime"
	}
	defs, others := t.nameDefs(local)
	if len(defs) > 0 {
		return false
	}
	// Every statement that names local must be the import that binds it
	// (the module, or the class by name), or an import from module
	// datetime that leaves it alone.
	bound := false
	for _, st := range others {
		switch st.Kind() {
		case "import_statement":
			if !viaModule || t.text(st) != "import datetime" {
				return false
			}
			bound = true
		case "import_from_statement":
			module := st.ChildByFieldName("module_name")
			if t.text(module) != "datetime" {
				return false
			}
			imports := false
			for _, c := range namedNonComment(st) {
				if c.Kind() == "aliased_import" {
					return false
				}
				if c.Kind() == "dotted_name" && c.StartByte() != module.StartByte() && t.text(c) == local {
					imports = true
				}
			}
			if imports && viaModule {
				// from datetime import datetime: the name is the class.
				return false
			}
			bound = bound || imports
		default:
			return false
		}
	}
	return bound
}

// pyTimedeltaDays is the int k of timedelta(days=k) or timedelta(k), the
// call n; nil with a decline for any other argument.
func (t *tr) pyTimedeltaDays(n *sitter.Node, e env) ir.Expr {
	for n.Kind() == "parenthesized_expression" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	args := namedNonComment(n.ChildByFieldName("arguments"))
	var k *sitter.Node
	if len(args) == 1 {
		switch a := args[0]; {
		case a.Kind() == "keyword_argument" && t.text(a.ChildByFieldName("name")) == "days":
			k = a.ChildByFieldName("value")
		case a.Kind() != "keyword_argument" && a.Kind() != "list_splat" && a.Kind() != "dictionary_splat":
			k = a
		}
	}
	if k == nil {
		t.decline(n, "timedelta"+t.text(n.ChildByFieldName("arguments")), "only timedelta(days=k) and timedelta(k) of an int are translated")
		return nil
	}
	v := t.pyValue(k, e)
	if v == nil {
		return nil
	}
	if !ir.IsIntegral(v.Type()) {
		t.decline(k, "timedelta of "+typeName(v)+" days", "only an int of days is translated: a fraction becomes seconds, rounded to microseconds")
		return nil
	}
	return widen(v, tLong)
}

// pyDateLiteral translates n, datetime.date(y, m, d) of int literals, to
// a DATE literal; a date CPython would refuse (ValueError) is declined.
func (t *tr) pyDateLiteral(n *sitter.Node, argNodes []*sitter.Node) *binding {
	var ymd []int
	for _, a := range argNodes {
		v, err := strconv.Atoi(strings.ReplaceAll(t.text(a), "_", ""))
		if a.Kind() != "integer" || err != nil {
			break
		}
		ymd = append(ymd, v)
	}
	if len(ymd) != 3 || len(argNodes) != 3 {
		t.decline(n, "date"+t.text(n.ChildByFieldName("arguments")), "only datetime.date(year, month, day) of three int literals is translated")
		return nil
	}
	day := time.Date(ymd[0], time.Month(ymd[1]), ymd[2], 0, 0, 0, 0, time.UTC)
	if ymd[0] < 1 || ymd[0] > 9999 || day.Year() != ymd[0] || int(day.Month()) != ymd[1] || day.Day() != ymd[2] {
		t.decline(n, "date"+t.text(n.ChildByFieldName("arguments")), "no such date: CPython raises ValueError")
		return nil
	}
	return lit(&ir.Lit{T: udf.Prim(udf.Date), Value: day.Format("2006-01-02")})
}
