package translate

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
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
// whole-second arithmetic in UTC, with no time zone or locale: %Y %y %m
// %d %H %M %S and %%. A float column's seconds round differently and are
// declined, as are the other directives (names of days and months
// depend on the locale).

// pyUTCStrftime translates n, a call of strftime on obj; ok is false
// where obj is not a utcfromtimestamp call (the caller goes on).
func (t *tr) pyUTCStrftime(n, obj *sitter.Node, argNodes []*sitter.Node, e env) (b *binding, ok bool) {
	if obj.Kind() == "call" && t.isDatetimeMethod(obj.ChildByFieldName("function"), "strptime") {
		return t.pyStrptimeStrftime(n, obj, argNodes, e), true
	}
	if obj.Kind() != "call" || !t.isDatetimeMethod(obj.ChildByFieldName("function"), "utcfromtimestamp") {
		return nil, false
	}
	args := namedNonComment(obj.ChildByFieldName("arguments"))
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
	format, isLit := f.e.(*ir.Lit)
	if !isLit || !isString(format) || !strftimeOK(format.Value.(string)) {
		t.decline(argNodes[0], "strftime format "+t.text(argNodes[0]), "only a literal format of %Y %y %m %d %H %M %S %% and plain text is translated (names of days and months follow the locale)")
		return nil, true
	}
	return lit(&ir.Call{Fn: ir.PyUTCStrftime, Args: []ir.Expr{secs, format}, T: tString}), true
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

// isDatetimeMethod: fn is datetime.method with `from datetime import
// datetime`, or datetime.datetime.method with `import datetime`, and the
// file binds the name datetime nowhere else.
func (t *tr) isDatetimeMethod(fn *sitter.Node, method string) bool {
	var want string
	switch t.text(fn) {
	case "datetime." + method:
		want = "from datetime import datetime"
	case "datetime.datetime." + method:
		want = "import datetime"
	default:
		return false
	}
	imported, other := false, false
	for _, st := range namedNonComment(t.root) {
		switch st.Kind() {
		case "import_statement", "import_from_statement":
			if t.text(st) == want {
				imported = true
			}
		}
	}
	defs, others := t.nameDefs("datetime")
	for _, o := range others {
		if o.Kind() != "import_statement" && o.Kind() != "import_from_statement" || t.text(o) != want {
			other = true
		}
	}
	return imported && !other && len(defs) == 0
}

// strftimeOK: the format holds only the directives PyUTCStrftime renders.
func strftimeOK(f string) bool {
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i == len(f) {
			return false
		}
		switch f[i] {
		case 'Y', 'y', 'm', 'd', 'H', 'M', 'S', '%':
		default:
			return false
		}
	}
	return true
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
	var pattern, fields, why string
	if isLit && isString(format) {
		pattern, fields, why = strptimePattern(format.Value.(string))
	} else {
		why = "the format is not a literal"
	}
	if why != "" {
		t.decline(args[1], "strptime format "+t.text(args[1]), why)
		return nil
	}
	outFormat, isLit := out.e.(*ir.Lit)
	if !isLit || !isString(outFormat) || !strftimeOK(outFormat.Value.(string)) {
		t.decline(argNodes[0], "strftime format "+t.text(argNodes[0]), "only a literal format of %Y %y %m %d %H %M %S %% and plain text is translated (names of days and months follow the locale)")
		return nil
	}
	str := func(v string) ir.Expr { return &ir.Lit{T: tString, Value: v} }
	spec := []ir.Expr{x.e, str(pattern), str(fields), str(pyDigitsFrom), str(pyDigitsTo)}
	var res ir.Expr = &ir.If{
		Cond: &ir.Unary{Op: ir.Not, X: &ir.Call{Fn: ir.PyStrptimeValid, Args: spec, T: tBool}, T: tBool},
		Then: &ir.Raise{Msg: "udfx: the original throws ValueError (strptime: the text does not match the format, or no such date)", T: tString},
		Else: &ir.Call{Fn: ir.PyStrptimeStrftime, Args: append(append([]ir.Expr{}, spec...), outFormat), T: tString},
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
func strptimePattern(f string) (pattern, fields, why string) {
	digit := pyClass(pyDecimalDigitRanges())
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
				b.WriteString(pyClass(runsOf(pyWhitespace)) + "+")
			case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
				// re.IGNORECASE: the letter in either case, and the
				// characters Unicode folds with it.
				b.WriteString(pyClass(runsOf(string(pyIgnoreCase(c)))))
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
