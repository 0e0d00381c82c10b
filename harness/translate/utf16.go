package translate

import (
	"strings"
	"unicode/utf16"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

// This file follows offsets into strings through the JVM's String
// methods, which count UTF-16 code units where Spark counts code points.
// One call alone differs from Spark as soon as the string holds a
// character beyond U+FFFF, but a chain on one string such as
// s.substring(s.indexOf('@') + 1) only ever cuts s where a code point
// starts: indexOf of a well-formed string finds it starting and ending
// on code points, and moving past part of what it found stays on one
// while the part is whole code points. Such an offset is tracked as the
// code-point index of the same place (strOffset), and the String methods
// that take it become code-point SQL. Where an offset may fall inside a
// surrogate pair the call is declined.

// strOffset is an int whose value is a UTF-16 offset into the string s:
// delta code units past the place where lit starts, which is the
// code-point index start, or -1 where lit was not found.
type strOffset struct {
	// s is the string, as the receiver's IR before any null guard:
	// offsets apply only to the string they were taken from (sameString).
	s     ir.Expr
	start ir.Expr
	// lit is what was found at start; "" for the offsets that are not
	// matches (0, the length, a known prefix's end).
	lit string
	// backs, for the string's length, are literals it is known to end
	// with: a delta back into one of them stays on a code point.
	backs []string
	delta int
	// found: start is known not to be -1 (a branch where the offset
	// was compared with a number that rules -1 out).
	found bool
}

// cp is the offset as a code-point index into s, and false where it may
// not fall on a code point: past lit, or inside a surrogate pair of it;
// or, where lit may not have been found (start -1, so the offset is
// delta-1 UTF-16 units from the start of s), anywhere but 0 or -1.
func (o *strOffset) cp() (ir.Expr, bool) {
	if o.delta < 0 {
		for _, b := range o.backs {
			u := utf16.Encode([]rune(b))
			k := -o.delta
			if k <= len(u) && !isLowSurrogate(u[len(u)-k]) {
				return cpPlus(o.start, -int64(len([]rune(string(utf16.Decode(u[len(u)-k:])))))), true
			}
		}
		return nil, false
	}
	u := utf16.Encode([]rune(o.lit))
	if o.delta < 0 || o.delta > len(u) || o.delta > 0 && isHighSurrogate(u[o.delta-1]) {
		return nil, false
	}
	if !o.found && o.delta > 1 {
		return nil, false
	}
	return cpPlus(o.start, int64(len([]rune(string(utf16.Decode(u[:o.delta])))))), true
}

// cpPlus is the code-point index x moved k code points on.
func cpPlus(x ir.Expr, k int64) ir.Expr {
	if k == 0 {
		return x
	}
	if v, ok := intLit(x); ok {
		return &ir.Lit{T: tInt, Value: v + k}
	}
	return &ir.Binary{Op: ir.CodePointAdd, L: x, R: &ir.Lit{T: tInt, Value: k}, T: tInt}
}

// nonNegative: the offset is never -1 (found, or one past a miss).
func (o *strOffset) nonNegative() bool { return o.found || o.delta >= 1 }

func isHighSurrogate(u uint16) bool { return u >= 0xD800 && u < 0xDC00 }

func isLowSurrogate(u uint16) bool { return u >= 0xDC00 && u < 0xE000 }

// plus is the offset n UTF-16 units further (nil for a negative total,
// what precedes a match may be half of a surrogate pair, except back
// from the length into a known suffix).
func (o *strOffset) plus(n int64) *strOffset {
	d := int64(o.delta) + n
	if d < 0 && len(o.backs) == 0 || d < -(1<<20) || d > 1<<20 {
		return nil
	}
	c := *o
	c.delta = int(d)
	return &c
}

// sameString reports whether two string expressions are the same value:
// the same column, or the same node (a local's value is one node
// wherever the local is read, and locals are never reassigned).
func sameString(a, b ir.Expr) bool {
	if ca, ok := a.(*ir.Col); ok {
		cb, ok := b.(*ir.Col)
		return ok && ca.Name == cb.Name
	}
	return a == b
}

// offsetIn is the code-point index into the string recv of an int
// argument b: an offset taken from that string, 0, or a literal that a
// prefix recv is known to start with ends on a code point at. ok is
// false for anything else; nonNeg says the index is never -1.
func offsetIn(recv *binding, b *binding) (cp ir.Expr, nonNeg, ok bool) {
	if b.off != nil && sameString(b.off.s, recv.e) {
		cp, ok := b.off.cp()
		return cp, b.off.nonNegative(), ok
	}
	k, isInt := intLit(b.e)
	if !isInt {
		return nil, false, false
	}
	if k == 0 {
		return b.e, true, true
	}
	for _, p := range recv.prefixes {
		o := (&strOffset{start: &ir.Lit{T: tInt, Value: int64(0)}, lit: p, found: true}).plus(k)
		if o == nil {
			continue
		}
		if cp, ok := o.cp(); ok {
			return cp, true, true
		}
	}
	return nil, false, false
}

// utf16Method translates the String methods that take or give UTF-16
// offsets: indexOf, lastIndexOf, substring, and length as an offset.
// handled is false for any other method.
func (t *tr) utf16Method(n *sitter.Node, name string, recv *binding, args []*binding) (b *binding, handled bool) {
	s := recv.e
	guard := func(x ir.Expr) ir.Expr {
		if recv.nullable {
			return t.throwOnNull(n, s, x)
		}
		return x
	}
	switch name {
	case "charAt", "head":
		// The first UTF-16 unit: the first code point, or the high half
		// of a supplementary one, held as the '?' Spark stores for it
		// (ir.JVMTake of 1; declineLoneSurrogates checks its uses).
		// Only unit 0 is taken: a later one may be a low half, which
		// next to a high half would make a whole pair again.
		what := "NoSuchElementException (head of an empty string)"
		if name == "charAt" {
			if len(args) != 1 {
				break
			}
			if k, ok := intLit(args[0].e); !ok || k != 0 {
				break
			}
			what = "StringIndexOutOfBoundsException (index 0 of an empty string)"
		} else if len(args) != 0 || t.u.Language != udf.Scala {
			break
		}
		unit := &ir.If{Cond: &ir.Call{Fn: ir.IsEmpty, Args: []ir.Expr{s}, T: tBool},
			Then: &ir.Raise{Msg: "udfx: the original throws " + what, T: tString},
			Else: &ir.Call{Fn: ir.JVMTake, Args: []ir.Expr{s, &ir.Lit{T: tInt, Value: int64(1)}}, T: tString}}
		return &binding{e: guard(unit), char: true}, true
	case "indexOf", "lastIndexOf":
		if len(args) < 1 || len(args) > 2 || name == "lastIndexOf" && len(args) == 2 {
			break
		}
		x, _ := args[0].e.(*ir.Lit)
		var needle string
		if x != nil {
			needle, _ = x.Value.(string)
		}
		if needle == "" {
			t.decline(n, "String."+name+" of "+typeName(args[0].e), "only a non-empty literal string or char is searched for (the JVM counts UTF-16 code units, Spark code points; an offset is followed only from what is found)")
			return nil, true
		}
		fn := ir.CPIndexOf
		if name == "lastIndexOf" {
			fn = ir.CPLastIndexOf
		}
		call := &ir.Call{Fn: fn, Args: []ir.Expr{s, x}, T: tInt}
		if len(args) == 2 {
			from, _, ok := offsetIn(recv, args[1])
			if !ok {
				t.decline(n, "String.indexOf from an offset not known to fall on a code point", "the JVM counts UTF-16 code units, Spark code points; only offsets taken from the same string are followed")
				return nil, true
			}
			call.Args = append(call.Args, from)
		}
		off := &strOffset{s: s, start: guard(call), lit: needle}
		return &binding{e: guard(&ir.Call{Fn: ir.UTF16OfCP, Args: []ir.Expr{s, call}, T: tInt}), off: off}, true
	case "length":
		if _, isLit := s.(*ir.Lit); isLit || len(args) != 0 {
			break
		}
		off := &strOffset{s: s, start: guard(&ir.Call{Fn: ir.CodePointLength, Args: []ir.Expr{s}, T: tInt}), found: true, backs: recv.suffixes}
		return &binding{e: guard(&ir.Call{Fn: ir.UTF16Length, Args: []ir.Expr{t.sigmaBlind(s, nil, true)}, T: tInt}), off: off}, true
	case "substring":
		if len(args) < 1 || len(args) > 2 {
			break
		}
		var cps []ir.Expr
		var bad ir.Expr
		for i, a := range args {
			cp, nonNeg, ok := offsetIn(recv, a)
			if !ok {
				t.decline(n, "String.substring at an offset not known to fall on a code point", "the JVM counts UTF-16 code units, Spark code points; only offsets taken from the same string (indexOf, lastIndexOf, length, the end of a prefix it starts with) are followed")
				return nil, true
			}
			cps = append(cps, cp)
			if i == 0 && !nonNeg {
				bad = &ir.Binary{Op: ir.Lt, L: cp, R: &ir.Lit{T: tInt, Value: int64(0)}, T: tBool}
			}
		}
		if len(args) == 2 && !ordered(args[0], args[1]) {
			// end < begin; with begin >= 0 this also covers end = -1.
			lt := &ir.Binary{Op: ir.Lt, L: cps[1], R: cps[0], T: tBool}
			if bad == nil {
				bad = lt
			} else {
				bad = &ir.Binary{Op: ir.Or, L: bad, R: lt, T: tBool}
			}
		}
		var res ir.Expr = &ir.Call{Fn: ir.CPSubstring, Args: append([]ir.Expr{s}, cps...), T: tString}
		if bad != nil {
			res = &ir.If{Cond: bad, Then: &ir.Raise{Msg: "udfx: the original throws " + asciiSnippet("StringIndexOutOfBoundsException in "+t.text(n)), T: tString}, Else: res}
		}
		return lit(guard(res)), true
	}
	return nil, false
}

// ordered reports whether the offset a is known to be at most b (every
// offset is at most the string's length): a is 0, b is the length, or
// both are the same match with a no further into it.
func ordered(a, b *binding) bool {
	if k, ok := intLit(a.e); ok && k == 0 {
		return b.off == nil || b.off.nonNegative()
	}
	if a.off == nil || b.off == nil {
		return false
	}
	if c, ok := b.off.start.(*ir.Call); ok && b.off.lit == "" && b.off.delta == 0 && c.Fn == ir.CodePointLength {
		return a.off.nonNegative()
	}
	return a.off.start == b.off.start && a.off.delta <= b.off.delta
}

// offsetCompare compares an offset with -1 or 0 on its code-point index,
// which is below, at or above them exactly where the UTF-16 offset is;
// nil where the comparison is not that.
func offsetCompare(op string, l, r *binding) ir.Expr {
	if l.off == nil {
		return nil
	}
	if c, ok := intLit(r.e); !ok || c != 0 && c != -1 {
		return nil
	}
	cp, ok := l.off.cp()
	if !ok {
		return nil
	}
	o, ok := map[string]ir.Op{"==": ir.Eq, "!=": ir.Ne, "<": ir.Lt, "<=": ir.Le, ">": ir.Gt, ">=": ir.Ge}[op]
	if !ok {
		return nil
	}
	return &ir.Binary{Op: o, L: cp, R: r.e, T: tBool}
}

// intLit is the value of an integer literal.
func intLit(e ir.Expr) (int64, bool) {
	l, ok := e.(*ir.Lit)
	if !ok {
		return 0, false
	}
	k, ok := l.Value.(int64)
	return k, ok
}

// foundFacts refines what each branch of `name op c` knows about the
// offset bound to name, a search's result (-1, or an index): in a branch
// where the comparison rules -1 out, what it searched for was found.
func foundFacts(e env, name, op string, c int64) (te, fe env) {
	b, ok := e[name]
	if !ok || b.off == nil || b.off.found || b.off.delta != 0 {
		return e, e
	}
	var inTrue, inFalse bool
	switch op {
	case ">":
		inTrue = c >= -1
	case ">=":
		inTrue = c >= 0
	case "==":
		inTrue, inFalse = c >= 0, c == -1
	case "!=":
		inTrue, inFalse = c == -1, c >= 0
	case "<":
		inFalse = c >= 0
	case "<=":
		inFalse = c >= -1
	}
	found := *b.off
	found.found = true
	nb := b
	nb.off = &found
	te, fe = e, e
	if inTrue {
		te = e.with(name, nb)
	}
	if inFalse {
		fe = e.with(name, nb)
	}
	return te, fe
}

// affixFact is e where the string bound to name is known to start (or,
// for endsWith, end) with p as well.
func affixFact(e env, method, name, p string) env {
	b, ok := e[name]
	if !ok || !isString(b.e) {
		return e
	}
	if method == "endsWith" {
		b.suffixes = append(append([]string(nil), b.suffixes...), p)
	} else {
		b.prefixes = append(append([]string(nil), b.prefixes...), p)
	}
	return e.with(name, b)
}

// offsetArith applies a binary operator to the unboxed operands lv and
// rv of l and r. An offset plus or minus an int literal stays an offset
// into its string; an offset compared with -1 or 0 is compared in code
// points. The value is the JVM's either way.
func (t *tr) offsetArith(n *sitter.Node, op string, l, r *binding, lv, rv ir.Expr) *binding {
	if c := offsetCompare(op, l, r); c != nil {
		return lit(c)
	}
	if c := offsetCompare(flipCompare(op), r, l); c != nil {
		return lit(c)
	}
	res := lit(t.jvmArith(n, op, lv, rv, r.nonZero))
	if res == nil || !(op == "+" || op == "-") {
		return res
	}
	if k, ok := intLit(rv); ok && l.off != nil {
		if op == "-" {
			k = -k
		}
		res.off = l.off.plus(k)
	} else if k, ok := intLit(lv); ok && r.off != nil && op == "+" {
		res.off = r.off.plus(k)
	}
	return res
}

// flipCompare is the comparison with its operands swapped.
func flipCompare(op string) string {
	switch op {
	case "<":
		return ">"
	case "<=":
		return ">="
	case ">":
		return "<"
	case ">=":
		return "<="
	}
	return op
}

// intLitOf and strLitOf read a translated literal; b may be nil.
func (t *tr) intLitOf(b *binding) (int64, bool) {
	if b == nil {
		return 0, false
	}
	return intLit(b.e)
}

func (t *tr) strLitOf(b *binding) (string, bool) {
	if b == nil {
		return "", false
	}
	l, ok := b.e.(*ir.Lit)
	if !ok {
		return "", false
	}
	v, ok := l.Value.(string)
	return v, ok
}

// declineLoneSurrogates declines a translation that uses a value of
// ir.JVMTake (take(n), charAt(0), head) where its '?' and the JVM's lone
// high surrogate differ. Spark stores a String the JVM hands back with
// '?' for a lone surrogate (UTF8String.fromString), so the two agree
// where the value ends up in the UDF's result, through concatenation
// (every string the translator builds is well formed, so what follows
// never starts with a low half) and toUpperCase (which leaves a
// surrogate alone); where it is measured (length, isEmpty: one unit
// either way) or checked for null; and where it is compared with a
// literal without '?' (no match can take in that place on either side).
// A Hive UDF's result reaches Spark through Hadoop's Text encoder, not
// UTF8String.fromString, and what that makes of a lone surrogate is not
// checked, so there even the result is not taken as safe.
func (t *tr) declineLoneSurrogates(body *sitter.Node, e ir.Expr) bool {
	c := loneSurrogateMisuse(e, t.u.Kind != udf.KindHiveUDF && t.u.Kind != udf.KindHiveGenericUDF)
	if c == nil {
		return false
	}
	t.decline(body, "a string cut at a UTF-16 unit", "take(n), charAt(0) and head may end in half a surrogate pair, which Spark stores as '?': translated only where that value is returned, concatenated, upper-cased, measured or compared with a literal without '?'")
	return true
}

// loneSurrogateMisuse is a JVMTake call in e that is used where safe
// does not hold (see declineLoneSurrogates), or nil.
func loneSurrogateMisuse(e ir.Expr, safe bool) *ir.Call {
	switch x := e.(type) {
	case *ir.Call:
		switch x.Fn {
		case ir.JVMTake:
			if !safe {
				return x
			}
			return loneSurrogateMisuse(x.Args[0], false)
		case ir.Concat, ir.JVMUpper:
			return firstMisuse(x.Args, safe)
		case ir.UTF16Length, ir.IsEmpty:
			return loneSurrogateMisuse(x.Args[0], true)
		case ir.StartsWith, ir.EndsWith, ir.Contains:
			if c := loneSurrogateMisuse(x.Args[0], noQuestionMark(x.Args[1])); c != nil {
				return c
			}
			return loneSurrogateMisuse(x.Args[1], false)
		}
	case *ir.Binary:
		if x.Op == ir.StrEqNullSafe || x.Op == ir.Eq || x.Op == ir.Ne {
			if c := loneSurrogateMisuse(x.L, noQuestionMark(x.R)); c != nil {
				return c
			}
			return loneSurrogateMisuse(x.R, noQuestionMark(x.L))
		}
	case *ir.If:
		if c := loneSurrogateMisuse(x.Cond, false); c != nil {
			return c
		}
		return firstMisuse([]ir.Expr{x.Then, x.Else}, safe)
	case *ir.IsNull:
		return loneSurrogateMisuse(x.X, true)
	}
	return firstMisuse(ir.Children(e), false)
}

// firstMisuse is loneSurrogateMisuse of the first of es that has one.
func firstMisuse(es []ir.Expr, safe bool) *ir.Call {
	for _, x := range es {
		if c := loneSurrogateMisuse(x, safe); c != nil {
			return c
		}
	}
	return nil
}

// noQuestionMark: x is a string literal without '?'.
func noQuestionMark(x ir.Expr) bool {
	l, ok := x.(*ir.Lit)
	if !ok {
		return false
	}
	s, isStr := l.Value.(string)
	return isStr && !strings.Contains(s, "?")
}
