package translate

import (
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
	if obj.Kind() != "call" || !t.isUTCFromTimestamp(obj.ChildByFieldName("function")) {
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

// isUTCFromTimestamp: fn is datetime.utcfromtimestamp with `from
// datetime import datetime`, or datetime.datetime.utcfromtimestamp with
// `import datetime`, and the file binds the name datetime nowhere else.
func (t *tr) isUTCFromTimestamp(fn *sitter.Node) bool {
	var want string
	switch t.text(fn) {
	case "datetime.utcfromtimestamp":
		want = "from datetime import datetime"
	case "datetime.datetime.utcfromtimestamp":
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
