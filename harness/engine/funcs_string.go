package engine

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/udfx/udfx/harness/udf"
)

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

// strFn registers a strict function over string/int arguments.
func strFn(names string, lo, hi int, kinds string, t *udf.Type, f func(v []any) (any, *RowError)) {
	reg(names, lo, hi, func(a *analyzer, name string, args []node) (node, error) {
		args, err := a.typedArgs(name, args, kinds)
		if err != nil {
			return nil, err
		}
		return a.fn(name, t, args, strictRow(t, f)), nil
	})
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

// upperJava is String.toUpperCase(Locale.ROOT) for the characters whose
// mapping is one-to-one in Go; ß and the other special casings are mapped
// by hand, and anything else with a multi-character uppercase fails.
func upperJava(s string) (string, *RowError) {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case 'ß':
			b.WriteString("SS")
			continue
		case 'ŉ', 'ǰ', 'ΐ', 'ΰ', 'և', 'ﬀ', 'ﬁ', 'ﬂ', 'ﬃ', 'ﬄ', 'ﬅ', 'ﬆ':
			return "", errUnsupportedValue("upper() of a character with a multi-character uppercase")
		}
		if r >= 0x1E96 && r <= 0x1E9A || r >= 0x1F50 && r <= 0x1FFC && unicode.ToUpper(r) == r && unicode.IsLower(r) {
			return "", errUnsupportedValue("upper() of a character with a multi-character uppercase")
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String(), nil
}

// lowerJava is String.toLowerCase(Locale.ROOT); İ and Σ (context-dependent
// in Java) are not reproduced.
func lowerJava(s string) (string, *RowError) {
	if strings.ContainsRune(s, 'İ') || strings.ContainsRune(s, 'Σ') {
		return "", errUnsupportedValue("lower() of İ or Σ")
	}
	return strings.Map(unicode.ToLower, s), nil
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

func registerStrings() {
	// length and octet_length of binary count bytes (length(X'C3A9') is 2).
	reg("length char_length character_length len octet_length", 1, 1, func(a *analyzer, name string, args []node) (node, error) {
		if args[0].typ().Kind == udf.Binary {
			return a.fn(name, tInt, args, strictRow(tInt, func(v []any) (any, *RowError) { return int64(len(v[0].([]byte))), nil })), nil
		}
		if name == "octet_length" {
			return builtins["$octet_length"].build(a, name, args)
		}
		return builtins["$length"].build(a, name, args)
	})
	strFn("$length", 1, 1, "s", tInt, func(v []any) (any, *RowError) {
		return int64(utf8.RuneCountInString(v[0].(string))), nil
	})
	strFn("$octet_length", 1, 1, "s", tInt, func(v []any) (any, *RowError) { return int64(len(v[0].(string))), nil })
	strFn("substring substr", 2, 3, "sii", tString, func(v []any) (any, *RowError) {
		l := int64(1<<31 - 1)
		if len(v) == 3 {
			l = v[2].(int64)
		}
		return substringCP(v[0].(string), v[1].(int64), l), nil
	})
	strFn("left", 2, 2, "si", tString, func(v []any) (any, *RowError) {
		n := v[1].(int64)
		if n <= 0 {
			return "", nil
		}
		return substringCP(v[0].(string), 1, n), nil
	})
	strFn("right", 2, 2, "si", tString, func(v []any) (any, *RowError) {
		n := v[1].(int64)
		if n <= 0 {
			return "", nil
		}
		return substringCP(v[0].(string), -n, 1<<31-1), nil
	})
	reg("concat ||", 0, -1, func(a *analyzer, name string, args []node) (node, error) {
		for _, x := range args {
			if x.typ().Kind == udf.Array {
				return a.concatArrays(name, args)
			}
		}
		return builtins["$concat_string"].build(a, name, args)
	})
	strFn("$concat_string", 0, -1, "s", tString, func(v []any) (any, *RowError) {
		var b strings.Builder
		for _, x := range v {
			b.WriteString(x.(string))
		}
		return b.String(), nil
	})
	reg("concat_ws", 1, -1, func(a *analyzer, name string, args []node) (node, error) {
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
	})
	strFn("upper ucase", 1, 1, "s", tString, func(v []any) (any, *RowError) { return upperJava(v[0].(string)) })
	strFn("lower lcase", 1, 1, "s", tString, func(v []any) (any, *RowError) { return lowerJava(v[0].(string)) })
	strFn("initcap", 1, 1, "s", tString, func(v []any) (any, *RowError) {
		low, e := lowerJava(v[0].(string))
		if e != nil {
			return nil, e
		}
		r := runes(low)
		for i := range r {
			if i == 0 || r[i-1] == ' ' {
				// Spark title-cases with full case mappings: initcap('ßa')
				// is "Ssa", initcap('ﬁ') "Fi" (checked); not modelled.
				if _, e := upperJava(string(r[i])); e != nil || r[i] == 'ß' {
					return nil, errUnsupportedValue("initcap() of a word starting with a character whose title case is several characters")
				}
				r[i] = unicode.ToTitle(r[i])
			}
		}
		return string(r), nil
	})
	// btrim(str, trimStr) takes its arguments the other way round.
	strFn("btrim", 1, 2, "s", tString, func(v []any) (any, *RowError) {
		if len(v) == 2 {
			return trimChars(v[0].(string), v[1].(string), true, true), nil
		}
		return strings.Trim(v[0].(string), " "), nil
	})
	strFn("trim", 1, 2, "s", tString, func(v []any) (any, *RowError) {
		if len(v) == 2 {
			return trimChars(v[1].(string), v[0].(string), true, true), nil
		}
		return strings.Trim(v[0].(string), " "), nil
	})
	strFn("ltrim", 1, 2, "s", tString, func(v []any) (any, *RowError) {
		if len(v) == 2 {
			return trimChars(v[1].(string), v[0].(string), true, false), nil
		}
		return strings.TrimLeft(v[0].(string), " "), nil
	})
	strFn("rtrim", 1, 2, "s", tString, func(v []any) (any, *RowError) {
		if len(v) == 2 {
			return trimChars(v[1].(string), v[0].(string), false, true), nil
		}
		return strings.TrimRight(v[0].(string), " "), nil
	})
	strFn("lpad", 2, 3, "sis", tString, func(v []any) (any, *RowError) {
		p := " "
		if len(v) == 3 {
			p = v[2].(string)
		}
		return pad(v[0].(string), v[1].(int64), p, true), nil
	})
	strFn("rpad", 2, 3, "sis", tString, func(v []any) (any, *RowError) {
		p := " "
		if len(v) == 3 {
			p = v[2].(string)
		}
		return pad(v[0].(string), v[1].(int64), p, false), nil
	})
	strFn("replace", 2, 3, "s", tString, func(v []any) (any, *RowError) {
		rep := ""
		if len(v) == 3 {
			rep = v[2].(string)
		}
		if v[1].(string) == "" {
			return v[0], nil
		}
		return strings.ReplaceAll(v[0].(string), v[1].(string), rep), nil
	})
	strFn("instr", 2, 2, "s", tInt, func(v []any) (any, *RowError) {
		i := strings.Index(v[0].(string), v[1].(string))
		if i < 0 {
			return int64(0), nil
		}
		return int64(utf8.RuneCountInString(v[0].(string)[:i]) + 1), nil
	})
	reg("locate position", 2, 3, func(a *analyzer, name string, args []node) (node, error) {
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
	})
	reg("reverse", 1, 1, func(a *analyzer, name string, args []node) (node, error) {
		if t := args[0].typ(); t.Kind == udf.Array {
			return a.fn(name, t, args, strictRow(t, func(v []any) (any, *RowError) {
				in := v[0].([]any)
				out := make([]any, len(in))
				for i, x := range in {
					out[len(in)-1-i] = x
				}
				return out, nil
			})), nil
		}
		return builtins["$reverse_string"].build(a, name, args)
	})
	strFn("$reverse_string", 1, 1, "s", tString, func(v []any) (any, *RowError) {
		r := runes(v[0].(string))
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return string(r), nil
	})
	strFn("repeat", 2, 2, "si", tString, func(v []any) (any, *RowError) {
		n := v[1].(int64)
		if n <= 0 {
			return "", nil
		}
		if int64(len(v[0].(string)))*n > 1<<28 {
			return nil, errUnsupportedValue("repeat() of more than 256 MiB")
		}
		return strings.Repeat(v[0].(string), int(n)), nil
	})
	strFn("space", 1, 1, "i", tString, func(v []any) (any, *RowError) {
		n := v[0].(int64)
		if n <= 0 {
			return "", nil
		}
		if n > 1<<28 {
			return nil, errUnsupportedValue("space() of more than 256 MiB")
		}
		return strings.Repeat(" ", int(n)), nil
	})
	strFn("ascii", 1, 1, "s", tInt, func(v []any) (any, *RowError) {
		s := v[0].(string)
		if s == "" {
			return int64(0), nil
		}
		r, _ := utf8.DecodeRuneInString(s)
		return int64(r), nil
	})
	reg("startswith endswith contains", 2, 2, func(a *analyzer, name string, args []node) (node, error) {
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
	})
	strFn("translate", 3, 3, "s", tString, func(v []any) (any, *RowError) {
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
	})
	registerRegexFuncs()
}

// constPattern reads a constant regex argument; Spark compiles a constant
// pattern once, and the engine requires one so that an unsupported
// construct is reported at compile time.
func constPattern(name string, n node) (*javaRegex, bool, error) {
	l, ok := n.(*litNode)
	if !ok {
		return nil, false, &UnsupportedFunctionError{Name: name + " with a non-constant pattern"}
	}
	if l.v == nil {
		return nil, true, nil
	}
	re, err := compileJavaRegex(l.v.(string))
	return re, false, err
}

func registerRegexFuncs() {
	reg("rlike regexp regexp_like", 2, 2, func(a *analyzer, name string, args []node) (node, error) {
		args, err := a.typedArgs(name, args, "s")
		if err != nil {
			return nil, err
		}
		re, isNull, err := constPattern(name, args[1])
		if err != nil {
			return nil, err
		}
		if isNull {
			return &litNode{t: tBool}, nil
		}
		return a.fn(name, tBool, args[:1], strictRow(tBool, func(v []any) (any, *RowError) {
			s := v[0].(string)
			if e := re.check(s); e != nil {
				return nil, e
			}
			return re.re.MatchString(s), nil // Matcher.find: anywhere
		})), nil
	})
	reg("regexp_replace", 3, 4, func(a *analyzer, name string, args []node) (node, error) {
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
	})
	reg("regexp_extract", 2, 3, func(a *analyzer, name string, args []node) (node, error) {
		args, err := a.typedArgs(name, args, "ssi")
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
		rest := append([]node{args[0]}, args[2:]...)
		return a.fn(name, tString, rest, strictRow(tString, func(v []any) (any, *RowError) {
			s := v[0].(string)
			idx := int64(1)
			if len(v) == 2 {
				idx = v[1].(int64)
			}
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
		})), nil
	})
	reg("split", 2, 3, func(a *analyzer, name string, args []node) (node, error) {
		args, err := a.typedArgs(name, args, "ssi")
		if err != nil {
			return nil, err
		}
		re, isNull, err := constPattern(name, args[1])
		if err != nil {
			return nil, err
		}
		t := udf.ArrayOf(tString)
		if isNull {
			return &litNode{t: t}, nil
		}
		rest := append([]node{args[0]}, args[2:]...)
		return a.fn(name, t, rest, strictRow(t, func(v []any) (any, *RowError) {
			s := v[0].(string)
			limit := int64(-1)
			if len(v) == 2 {
				limit = v[1].(int64)
			}
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
		})), nil
	})
	reg("like ilike", 2, 3, func(a *analyzer, name string, args []node) (node, error) {
		args, err := a.typedArgs(name, args, "s")
		if err != nil {
			return nil, err
		}
		l, ok := args[1].(*litNode)
		if !ok {
			return nil, &UnsupportedFunctionError{Name: name + " with a non-constant pattern"}
		}
		if l.v == nil {
			return &litNode{t: tBool}, nil
		}
		esc := '\\'
		if len(args) == 3 {
			el, ok := args[2].(*litNode)
			if !ok || el.v == nil || utf8.RuneCountInString(el.v.(string)) != 1 {
				return nil, typeErrf("INVALID_ESCAPE_CHAR", "the escape character must be one character")
			}
			esc, _ = utf8.DecodeRuneInString(el.v.(string))
		}
		pat := l.v.(string)
		if name == "ilike" {
			low, e := lowerJava(pat)
			if e != nil {
				return nil, &UnsupportedFunctionError{Name: "ilike with İ or Σ in the pattern"}
			}
			pat = low
		}
		re, err := likeRegex(pat, esc)
		if err != nil {
			return nil, err
		}
		return a.fn(name, tBool, args[:1], strictRow(tBool, func(v []any) (any, *RowError) {
			s := v[0].(string)
			if name == "ilike" {
				low, e := lowerJava(s)
				if e != nil {
					return nil, e
				}
				s = low
			}
			return re.MatchString(s), nil
		})), nil
	})
}

// likeRegex translates a LIKE pattern: % any run, _ one character, the
// escape character makes the next one literal; (?s) since LIKE's
// wildcards match line terminators.
func likeRegex(p string, esc rune) (*regexpT, error) {
	var b strings.Builder
	b.WriteString(`(?s)\A`)
	r := runes(p)
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == esc:
			if i+1 >= len(r) {
				return nil, typeErrf("INVALID_FORMAT.ESC_AT_THE_END", "the LIKE pattern %q ends with the escape character", p)
			}
			n := r[i+1]
			if n != '%' && n != '_' && n != esc {
				return nil, typeErrf("INVALID_FORMAT.ESC_IN_THE_MIDDLE", "the escape character in the LIKE pattern %q is not followed by %%, _ or itself", p)
			}
			b.WriteString(quoteRune(n))
			i++
		case c == '%':
			b.WriteString(`.*`)
		case c == '_':
			b.WriteString(`.`)
		default:
			b.WriteString(quoteRune(c))
		}
	}
	b.WriteString(`\z`)
	return compileRegexp(b.String())
}
