package engine

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/udfx/udfx/harness/udf"
)

// stringFuncs is Spark's string_funcs group. concat and reverse are
// collection_funcs (funcs_collection.go), LIKE and RLIKE predicate_funcs
// (funcs_predicate.go), url_encode and url_decode url_funcs
// (funcs_url.go). Names starting with $ are internal.
var stringFuncs = []funcDef{
	// length and octet_length of binary count bytes (length(X'C3A9') is 2).
	{"length char_length character_length len octet_length", 1, 1, buildLength, nil},
	{"$length", 1, 1, strFn("s", tInt, lengthRow), nil},
	{"$octet_length", 1, 1, strFn("s", tInt, octetLengthRow), nil},
	{"substring substr", 2, 3, strFn("sii", tString, substringRow), nil},
	{"left", 2, 2, strFn("si", tString, leftRow), nil},
	{"right", 2, 2, strFn("si", tString, rightRow), nil},
	{"concat_ws", 1, -1, buildConcatWs, nil},
	{"upper ucase", 1, 1, caseConversion(upperRow), nil},
	{"lower lcase", 1, 1, caseConversion(lowerRow), nil},
	{"initcap", 1, 1, strFn("s", tString, initcapRow), nil},
	// btrim(str, trimStr) takes its arguments the other way round.
	{"btrim", 1, 2, strFn("s", tString, btrimRow), nil},
	{"trim", 1, 2, strFn("s", tString, trimRow), nil},
	{"ltrim", 1, 2, strFn("s", tString, ltrimRow), nil},
	{"rtrim", 1, 2, strFn("s", tString, rtrimRow), nil},
	{"lpad", 2, 3, strFn("sis", tString, lpadRow), nil},
	{"rpad", 2, 3, strFn("sis", tString, rpadRow), nil},
	{"replace", 2, 3, strFn("s", tString, replaceRow), nil},
	{"instr", 2, 2, strFn("s", tInt, instrRow), nil},
	{"locate position", 2, 3, buildLocate, nil},
	{"repeat", 2, 2, strFn("si", tString, repeatRow), nil},
	{"space", 1, 1, strFn("i", tString, spaceRow), nil},
	{"ascii", 1, 1, strFn("s", tInt, asciiRow), nil},
	{"startswith endswith contains", 2, 2, buildStartsEndsContains, nil},
	{"translate", 3, 3, strFn("s", tString, translateRow), nil},
	// chr(n): "" for n < 0, else the character (n & 0xFF); the argument is
	// implicitly cast to bigint (chr(1.9D) is chr(1), chr('65') is 'A').
	{"chr char", 1, 1, buildChr, nil},
	{"format_number", 2, 2, buildFormatNumber, nil},
	{"regexp_replace", 3, 4, buildRegexpReplace, nil},
	{"regexp_extract", 2, 3, buildRegexpExtract, nil},
	{"split", 2, 3, buildSplit, nil},
}

// strArgs casts every argument to string (Spark's implicit cast for
// string functions) or int where kinds says 'i'.
func (a *analyzer) typedArgs(name string, args []node, kinds string) ([]node, error) {
	out := make([]node, len(args))
	for i, x := range args {
		if f, ok := x.(*flatStrings); ok {
			out[i] = f.node
			continue
		}
		k := kinds[min(i, len(kinds)-1)]
		var t *udf.Type
		switch k {
		case 's':
			t = tString
			if x.typ().Kind == udf.Binary {
				// Spark has binary forms of many string functions
				// (lpad(X'01', 3, X'00')); they are not modelled.
				return nil, &UnsupportedFunctionError{Name: name + " of binary"}
			}
			if x.typ().IsNested() {
				return nil, mismatch(name, x, "string")
			}
		case 'i':
			t = tInt
			if !isIntegral(x.typ()) && !isVoid(x.typ()) && !(x.typ().Kind == udf.String && !a.ansi) {
				return nil, mismatch(name, x, "integer")
			}
		}
		c, err := a.cast(x, t, false, false)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// strFn builds a strict function over string/int arguments.
func strFn(kinds string, t *udf.Type, f func(v []any) (any, *RowError)) buildFunc {
	return func(a *analyzer, name string, args []node) (node, error) {
		args, err := a.typedArgs(name, args, kinds)
		if err != nil {
			return nil, err
		}
		return a.fn(name, t, args, strictRow(t, f)), nil
	}
}

// caseConversion builds upper or lower as Spark's optimizer leaves them:
// its SimplifyCaseConversionExpressions rule drops a case conversion
// directly under another (upper(lower(x)) runs as upper(x), which differs
// for ẞ and İ; checked live), unless the inner one is constant, which
// ConstantFolding evaluates first (upper(lower('ẞ')) is 'SS').
func caseConversion(row func(v []any) (any, *RowError)) buildFunc {
	plain := strFn("s", tString, row)
	return func(a *analyzer, name string, args []node) (node, error) {
		n, err := plain(a, name, args)
		if err != nil {
			return nil, err
		}
		f := n.(*fnNode)
		if f.args[0], err = underCaseConversion(name, f.args[0]); err != nil {
			return nil, err
		}
		return f, nil
	}
}

// underCaseConversion is x as Spark's optimizer leaves it under an upper
// or lower (or ilike's lower): without the case conversions directly on
// top of it that are not constant.
func underCaseConversion(name string, x node) (node, error) {
	for {
		inner, ok := x.(*fnNode)
		if !ok || !caseConversionNames[inner.name] {
			return x, nil
		}
		constant, known := constantNode(inner)
		if !known {
			return nil, &UnsupportedFunctionError{Name: name + " of a case conversion of an expression the engine cannot tell constant or not"}
		}
		if constant {
			return x, nil
		}
		x = inner.args[0]
	}
}

var caseConversionNames = map[string]bool{"upper": true, "ucase": true, "lower": true, "lcase": true}

// constantNode reports whether n reads no column or lambda variable (Spark
// would fold it), and whether the engine can tell.
func constantNode(n node) (constant, known bool) {
	switch n := n.(type) {
	case *litNode:
		return true, true
	case *colNode, *varNode:
		return false, true
	case *castNode:
		return constantNode(n.x)
	case *fnNode:
		return allConstant(n.args)
	case *caseNode:
		parts := append(append(slices.Clone(n.conds), n.vals...), n.els)
		return allConstant(parts)
	}
	return false, false
}

func allConstant(ns []node) (constant, known bool) {
	constant = true
	for _, x := range ns {
		if x == nil {
			continue
		}
		c, k := constantNode(x)
		if !k {
			return false, false
		}
		constant = constant && c
	}
	return constant, true
}

func runes(s string) []rune { return []rune(s) }

// substringCP is Spark's substring on code points: 1-based, 0 acts as 1,
// a negative start counts from the end.
func substringCP(s string, pos, length int64) string {
	r := runes(s)
	n := int64(len(r))
	var start int64
	switch {
	case pos > 0:
		start = pos - 1
	case pos < 0:
		start = n + pos
	}
	end := start + length
	if length < 0 || end < start {
		return ""
	}
	if pos < 0 && start < 0 {
		// UTF8String.substringSQL: the window is taken before clamping.
		end = start + length
		start = 0
	}
	if start > n {
		return ""
	}
	if end > n {
		end = n
	}
	if end <= start {
		return ""
	}
	return string(r[start:end])
}

// sparkUpper is Spark's upper(): per code point, Spark's mapping where it
// is not Go's (casemap_spark.go, generated from Spark on every code point:
// ß is SS, ﬁ FI, the letters Unicode added after Go's tables), Go's
// elsewhere. Upper case has no context in the root locale, so a string's
// upper is its code points' (checked live on strings around them).
func sparkUpper(s string) (string, *RowError) {
	return mapCase(s, sparkUpperExceptions, unicode.ToUpper), nil
}

// sparkLower is Spark's lower(): per code point as sparkUpper is its
// upper(), except Σ, which ICU lowercases by Unicode's Final_Sigma
// condition: ς when, skipping case-ignorable characters, a cased letter
// precedes it and none follows, σ otherwise. The classes are Spark's own,
// probed on every code point (casemap_spark.go); ICU skips a character
// that is both cased and case-ignorable (U+0345, ʰ).
func sparkLower(s string) string {
	if !strings.ContainsRune(s, 'Σ') {
		return mapCase(s, sparkLowerExceptions, unicode.ToLower)
	}
	// The context is the original string, not what is lowercased so far.
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if c == 'Σ' && finalSigma(r, i) {
			b.WriteRune('ς')
			continue
		}
		writeCase(&b, c, sparkLowerExceptions, unicode.ToLower)
	}
	return b.String()
}

// finalSigma reports whether the Σ at r[i] lowercases to ς: the first
// code point before it that is not case-ignorable is cased, and the first
// after it is not, or there is none. A scan stops at the first code point
// that is not case-ignorable, at the latest the next Σ, so the scans of a
// string read each of its code points at most twice.
func finalSigma(r []rune, i int) bool {
	j := i - 1
	for j >= 0 && unicode.Is(sparkSigmaIgnorable, r[j]) {
		j--
	}
	if j < 0 || !unicode.Is(sparkSigmaCased, r[j]) {
		return false
	}
	for j = i + 1; j < len(r) && unicode.Is(sparkSigmaIgnorable, r[j]); j++ {
	}
	return j == len(r) || !unicode.Is(sparkSigmaCased, r[j])
}

// mapCase maps each code point of s by Spark's exceptions, else by Go's.
func mapCase(s string, exceptions map[rune]string, goMap func(rune) rune) string {
	var b strings.Builder
	for _, r := range s {
		writeCase(&b, r, exceptions, goMap)
	}
	return b.String()
}

// writeCase writes r mapped by Spark's exceptions, else by Go's.
func writeCase(b *strings.Builder, r rune, exceptions map[rune]string, goMap func(rune) rune) {
	if m, ok := exceptions[r]; ok {
		b.WriteString(m)
		return
	}
	b.WriteRune(goMap(r))
}

func trimChars(s, chars string, left, right bool) string {
	set := runes(chars)
	in := func(r rune) bool {
		for _, c := range set {
			if c == r {
				return true
			}
		}
		return false
	}
	if left {
		s = strings.TrimLeftFunc(s, in)
	}
	if right {
		s = strings.TrimRightFunc(s, in)
	}
	return s
}

func pad(s string, n int64, p string, left bool) string {
	r := runes(s)
	if n <= 0 {
		return ""
	}
	if int64(len(r)) >= n {
		return string(r[:n])
	}
	pr := runes(p)
	if len(pr) == 0 {
		return s
	}
	need := int(n) - len(r)
	fill := make([]rune, 0, need)
	for len(fill) < need {
		fill = append(fill, pr[len(fill)%len(pr)])
	}
	if left {
		return string(fill) + s
	}
	return s + string(fill)
}

func buildLength(a *analyzer, name string, args []node) (node, error) {
	if args[0].typ().Kind == udf.Binary {
		return a.fn(name, tInt, args, strictRow(tInt, func(v []any) (any, *RowError) { return int64(len(v[0].([]byte))), nil })), nil
	}
	if name == "octet_length" {
		return builtins["$octet_length"].build(a, name, args)
	}
	return builtins["$length"].build(a, name, args)
}

func lengthRow(v []any) (any, *RowError) {
	return int64(utf8.RuneCountInString(v[0].(string))), nil
}

func octetLengthRow(v []any) (any, *RowError) { return int64(len(v[0].(string))), nil }

func substringRow(v []any) (any, *RowError) {
	l := int64(1<<31 - 1)
	if len(v) == 3 {
		l = v[2].(int64)
	}
	return substringCP(v[0].(string), v[1].(int64), l), nil
}

func leftRow(v []any) (any, *RowError) {
	n := v[1].(int64)
	if n <= 0 {
		return "", nil
	}
	return substringCP(v[0].(string), 1, n), nil
}

func rightRow(v []any) (any, *RowError) {
	n := v[1].(int64)
	if n <= 0 {
		return "", nil
	}
	return substringCP(v[0].(string), -n, 1<<31-1), nil
}

// flatStrings marks an array<string> argument of concat_ws, whose elements
// are joined like separate arguments; it evaluates to the array itself.
type flatStrings struct{ node }

func buildConcatWs(a *analyzer, name string, args []node) (node, error) {
	for i, x := range args {
		if i > 0 && x.typ().Kind == udf.Array && !x.typ().Elem.IsNested() {
			// concat_ws('-', array('a', NULL, 'b'), 'c') is "a-b-c".
			c, err := a.cast(x, udf.ArrayOf(tString), false, false)
			if err != nil {
				return nil, err
			}
			args[i] = &flatStrings{c}
		}
	}
	args, err := a.typedArgs(name, args, "s")
	if err != nil {
		return nil, err
	}
	return a.fn(name, tString, args, anyRow(tString, func(v []any) (any, *RowError) {
		if v[0] == nil {
			return nil, nil
		}
		var parts []string
		for _, x := range v[1:] {
			switch x := x.(type) {
			case string:
				parts = append(parts, x)
			case []any:
				for _, e := range x {
					if e != nil {
						parts = append(parts, e.(string))
					}
				}
			}
		}
		return strings.Join(parts, v[0].(string)), nil
	})), nil
}

func upperRow(v []any) (any, *RowError) { return sparkUpper(v[0].(string)) }

func lowerRow(v []any) (any, *RowError) { return sparkLower(v[0].(string)), nil }

func initcapRow(v []any) (any, *RowError) {
	for _, r := range v[0].(string) {
		// initcap('İ') keeps İ where lower('İ') is two code points
		// (checked): Spark's initcap is not lower() then a title case.
		if _, ok := sparkLowerExceptions[r]; ok {
			return nil, errUnsupportedValue("initcap() of a character whose case mapping in initcap the engine does not model")
		}
	}
	// Spark's initcap lowercases with its own final sigma, over the same
	// classes (probed by TestSparkCaseMappingsAreTheEnginesTable). No
	// exception above changes the length, so r and low align.
	r := runes(v[0].(string))
	low := runes(sparkLower(v[0].(string)))
	for i := range low {
		if i == 0 || r[i-1] == ' ' {
			// Spark title-cases a word's first character itself, not its
			// lower case: the Kelvin sign U+212A stays, where the title of
			// its lower case k is K, and so do the ohm and angstrom signs,
			// ϴ, ẞ and Georgian Mtavruli (checked). It does so with full
			// case mappings, initcap('ßa') is "Ssa", initcap('ﬁ') "Fi"
			// (checked), and with the letters Unicode added after Go's
			// tables; where Spark's upper case is not Go's, its title case
			// is not modelled.
			if _, ok := sparkUpperExceptions[r[i]]; ok {
				return nil, errUnsupportedValue("initcap() of a character whose case mapping in initcap the engine does not model")
			}
			low[i] = unicode.ToTitle(r[i])
		}
	}
	return string(low), nil
}

func btrimRow(v []any) (any, *RowError) {
	if len(v) == 2 {
		return trimChars(v[0].(string), v[1].(string), true, true), nil
	}
	return strings.Trim(v[0].(string), " "), nil
}

func trimRow(v []any) (any, *RowError) {
	if len(v) == 2 {
		return trimChars(v[1].(string), v[0].(string), true, true), nil
	}
	return strings.Trim(v[0].(string), " "), nil
}

func ltrimRow(v []any) (any, *RowError) {
	if len(v) == 2 {
		return trimChars(v[1].(string), v[0].(string), true, false), nil
	}
	return strings.TrimLeft(v[0].(string), " "), nil
}

func rtrimRow(v []any) (any, *RowError) {
	if len(v) == 2 {
		return trimChars(v[1].(string), v[0].(string), false, true), nil
	}
	return strings.TrimRight(v[0].(string), " "), nil
}

func lpadRow(v []any) (any, *RowError) {
	p := " "
	if len(v) == 3 {
		p = v[2].(string)
	}
	return pad(v[0].(string), v[1].(int64), p, true), nil
}

func rpadRow(v []any) (any, *RowError) {
	p := " "
	if len(v) == 3 {
		p = v[2].(string)
	}
	return pad(v[0].(string), v[1].(int64), p, false), nil
}

func replaceRow(v []any) (any, *RowError) {
	rep := ""
	if len(v) == 3 {
		rep = v[2].(string)
	}
	if v[1].(string) == "" {
		return v[0], nil
	}
	return strings.ReplaceAll(v[0].(string), v[1].(string), rep), nil
}

func instrRow(v []any) (any, *RowError) {
	i := strings.Index(v[0].(string), v[1].(string))
	if i < 0 {
		return int64(0), nil
	}
	return int64(utf8.RuneCountInString(v[0].(string)[:i]) + 1), nil
}

func buildLocate(a *analyzer, name string, args []node) (node, error) {
	args, err := a.typedArgs(name, args, "ssi")
	if err != nil {
		return nil, err
	}
	return a.fn(name, tInt, args, anyRow(tInt, func(v []any) (any, *RowError) {
		// StringLocate: a NULL start is 0; NULL strings are NULL.
		start := int64(1)
		if len(v) == 3 {
			if v[2] == nil {
				return int64(0), nil
			}
			start = v[2].(int64)
		}
		if v[0] == nil || v[1] == nil {
			return nil, nil
		}
		if start < 1 {
			return int64(0), nil
		}
		if v[0].(string) == "" {
			// UTF8String.indexOf("") is the start even past the end:
			// locate('', 'abc', 5) is 1 (conformance locate/empty-pos-past-end).
			return int64(1), nil
		}
		r := runes(v[1].(string))
		if start-1 > int64(len(r)) {
			return int64(0), nil
		}
		i := strings.Index(string(r[start-1:]), v[0].(string))
		if i < 0 {
			return int64(0), nil
		}
		return start + int64(utf8.RuneCountInString(string(r[start-1:])[:i])), nil
	})), nil
}

func repeatRow(v []any) (any, *RowError) {
	n := v[1].(int64)
	if n <= 0 {
		return "", nil
	}
	if int64(len(v[0].(string)))*n > 1<<28 {
		return nil, errUnsupportedValue("repeat() of more than 256 MiB")
	}
	return strings.Repeat(v[0].(string), int(n)), nil
}

func spaceRow(v []any) (any, *RowError) {
	n := v[0].(int64)
	if n <= 0 {
		return "", nil
	}
	if n > 1<<28 {
		return nil, errUnsupportedValue("space() of more than 256 MiB")
	}
	return strings.Repeat(" ", int(n)), nil
}

func asciiRow(v []any) (any, *RowError) {
	s := v[0].(string)
	if s == "" {
		return int64(0), nil
	}
	r, _ := utf8.DecodeRuneInString(s)
	return int64(r), nil
}

func buildStartsEndsContains(a *analyzer, name string, args []node) (node, error) {
	args, err := a.typedArgs(name, args, "s")
	if err != nil {
		return nil, err
	}
	return a.fn(name, tBool, args, strictRow(tBool, func(v []any) (any, *RowError) {
		s, p := v[0].(string), v[1].(string)
		switch name {
		case "startswith":
			return strings.HasPrefix(s, p), nil
		case "endswith":
			return strings.HasSuffix(s, p), nil
		}
		return strings.Contains(s, p), nil
	})), nil
}

func translateRow(v []any) (any, *RowError) {
	from, to := runes(v[1].(string)), runes(v[2].(string))
	m := map[rune]rune{}
	for i, r := range from {
		if _, ok := m[r]; ok {
			continue
		}
		if i < len(to) {
			m[r] = to[i]
		} else {
			m[r] = -1
		}
	}
	var b strings.Builder
	for _, r := range v[0].(string) {
		if t, ok := m[r]; ok {
			if t >= 0 {
				b.WriteRune(t)
			}
			continue
		}
		b.WriteRune(r)
	}
	return b.String(), nil
}

// chr and format_number were checked against real Spark 4.1.1 (pyspark
// 4.1.1, JDK 17); both ANSI settings give the same results for them.

func buildChr(a *analyzer, name string, args []node) (node, error) {
	x, err := a.numericArg(name, args[0], tLong)
	if err != nil {
		return nil, err
	}
	return a.fn(name, tString, []node{x}, strictRow(tString, func(v []any) (any, *RowError) {
		n := v[0].(int64)
		if n < 0 {
			return "", nil
		}
		return string(rune(n & 0xFF)), nil
	})), nil
}

func buildFormatNumber(a *analyzer, name string, args []node) (node, error) {
	x, d := args[0], args[1]
	if !x.typ().IsNumeric() && !isVoid(x.typ()) {
		return nil, mismatch(name, x, "numeric")
	}
	if isVoid(x.typ()) {
		x = &litNode{t: tInt}
	}
	xt := x.typ()
	switch d.typ().Kind {
	case udf.Byte, udf.Short, udf.Int, "void":
		d, _ = a.cast(d, tInt, false, false)
		return a.fn(name, tString, []node{x, d}, strictRow(tString, func(v []any) (any, *RowError) {
			n := v[1].(int64)
			if n < 0 {
				return nil, nil
			}
			if n > 340 {
				return nil, errUnsupportedValue("format_number() with more than 340 decimal places")
			}
			nf := numberFormat{group: 3, minInt: 1, minFrac: int(n), maxFrac: int(n)}
			if e := formatNumberRefusal(v[0], nf); e != nil {
				return nil, e
			}
			return formatNumber(v[0], xt, nf), nil
		})), nil
	case udf.String:
		l, ok := d.(*litNode)
		if !ok {
			return nil, &UnsupportedFunctionError{Name: "format_number with a non-constant pattern"}
		}
		if l.v == nil {
			return &litNode{t: tString}, nil
		}
		nf, ok := parseNumberPattern(l.v.(string))
		if !ok {
			return nil, &UnsupportedFunctionError{Name: "format_number pattern " + quoteSQL(l.v.(string)) + " (only #, 0, ',' and '.' are supported)"}
		}
		return a.fn(name, tString, []node{x}, strictRow(tString, func(v []any) (any, *RowError) {
			if e := formatNumberRefusal(v[0], nf); e != nil {
				return nil, e
			}
			return formatNumber(v[0], xt, nf), nil
		})), nil
	}
	// Checked: a BIGINT second argument is DATATYPE_MISMATCH in Spark 4.1.1.
	return nil, mismatch(name, d, "INT or STRING")
}

func buildRegexpReplace(a *analyzer, name string, args []node) (node, error) {
	args, err := a.typedArgs(name, args, "sssi")
	if err != nil {
		return nil, err
	}
	re, isNull, err := constPattern(name, args[1])
	if err != nil {
		return nil, err
	}
	if isNull {
		return &litNode{t: tString}, nil
	}
	mayEmpty := re.re.MatchString("")
	rest := append([]node{args[0]}, args[2:]...)
	return a.fn(name, tString, rest, strictRow(tString, func(v []any) (any, *RowError) {
		s, repl := v[0].(string), v[1].(string)
		pos := int64(1)
		if len(v) == 3 {
			pos = v[2].(int64)
		}
		if pos < 1 {
			return nil, rowErr("org.apache.spark.sql.AnalysisException", "INVALID_PARAMETER_VALUE.REGEX_POSITION", "position must be positive")
		}
		if e := re.check(s); e != nil {
			return nil, e
		}
		r := runes(s)
		if pos-1 > int64(len(r)) {
			return s, nil
		}
		head, tail := string(r[:pos-1]), string(r[pos-1:])
		var b strings.Builder
		b.WriteString(head)
		last := 0
		ms := re.re.FindAllStringSubmatchIndex(tail, -1)
		if mayEmpty {
			// Java's Matcher also finds an empty match right after a
			// non-empty one (regexp_replace('aaa', 'a*', 'X') is "XX"
			// in Spark 4.1.1); Go's FindAll skips it.
			for _, m := range ms {
				if m[1] > m[0] {
					return nil, errUnsupportedValue("regexp_replace() with a pattern that matches both empty and non-empty text in one subject")
				}
			}
		}
		for _, m := range ms {
			b.WriteString(tail[last:m[0]])
			x, e := expandJava(re.re, repl, tail, m)
			if e != nil {
				return nil, e
			}
			b.WriteString(x)
			last = m[1]
		}
		b.WriteString(tail[last:])
		return b.String(), nil
	})), nil
}

func buildRegexpExtract(a *analyzer, name string, args []node) (node, error) {
	return patternFn(a, name, args, tString, 1, func(re *javaRegex, s string, idx int64) (any, *RowError) {
		if idx < 0 || idx > int64(re.re.NumSubexp()) {
			return nil, rowErr(classIllegalArg, "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX", "Expects group index between 0 and %d, but got %d.", re.re.NumSubexp(), idx)
		}
		if e := re.check(s); e != nil {
			return nil, e
		}
		m := re.re.FindStringSubmatchIndex(s)
		if m == nil || m[2*idx] < 0 {
			return "", nil
		}
		return s[m[2*idx]:m[2*idx+1]], nil
	})
}

func buildSplit(a *analyzer, name string, args []node) (node, error) {
	return patternFn(a, name, args, udf.ArrayOf(tString), -1, func(re *javaRegex, s string, limit int64) (any, *RowError) {
		if e := re.check(s); e != nil {
			return nil, e
		}
		if s == "" {
			return []any{""}, nil
		}
		n := -1
		if limit > 0 {
			n = int(limit)
		}
		var parts []string
		if re.re.String() == "" {
			// Java splits an empty pattern between characters.
			r := runes(s)
			for i, c := range r {
				if n > 0 && len(parts) == n-1 {
					parts = append(parts, string(r[i:]))
					break
				}
				parts = append(parts, string(c))
			}
		} else {
			parts = re.re.Split(s, n)
			// Java drops a leading empty string produced by a
			// zero-width match at the start; RE2 cannot tell apart
			// here, so zero-width patterns are refused per row.
			if loc := re.re.FindStringIndex(s); loc != nil && loc[0] == loc[1] {
				return nil, errUnsupportedValue("split() with a pattern that matches the empty string")
			}
		}
		out := make([]any, len(parts))
		for i, p := range parts {
			out[i] = p
		}
		return out, nil
	})
}
