package python

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/udf"
)

// sparkType reads a returnType argument: a DDL string ("array<float>"), a
// DataType constructor (DoubleType(), T.ArrayType(T.FloatType())) or a
// module-level name bound to one of these. nil when absent or unreadable.
func (sc *scan) sparkType(n *sitter.Node) *udf.Type {
	return sc.sparkTypeFollow(n, true)
}

func (sc *scan) sparkTypeFollow(n *sitter.Node, followNames bool) *udf.Type {
	if n == nil {
		return nil
	}
	var text string
	switch kindOf(n) {
	case "string", "concatenated_string":
		s, ok := sc.stringValue(n, false)
		if !ok {
			return nil
		}
		text = s
	case "identifier":
		if v := sc.moduleValues[sc.text(n)]; v != nil && followNames {
			return sc.sparkTypeFollow(v, false)
		}
		text = sc.text(n)
	case "call", "attribute":
		text = sc.text(n)
	default:
		return nil
	}
	t, err := udf.ParseType(text)
	if err != nil && (kindOf(n) == "string" || kindOf(n) == "concatenated_string") {
		// PySpark also reads a bare field list, "id long, v double", as
		// the struct type it describes.
		t, err = udf.ParseType("struct<" + text + ">")
	}
	if err != nil {
		return nil
	}
	return t
}

// returnTypeOrString is the return type of a plain udf: PySpark's default
// is StringType when none is given.
func (sc *scan) returnTypeOrString(n *sitter.Node) *udf.Type {
	if n == nil {
		return udf.Prim(udf.String)
	}
	return sc.sparkType(n)
}

// isTypeExpr tells a returnType in first position (udf("double"), the
// decorator-factory form) from a function argument.
func (sc *scan) isTypeExpr(n *sitter.Node) bool {
	switch kindOf(n) {
	case "string", "concatenated_string":
		return true
	case "call":
		return sc.sparkTypeFollow(n, false) != nil
	case "identifier":
		if sc.defs[sc.text(n)] != nil {
			return false
		}
		v := sc.moduleValues[sc.text(n)]
		return v != nil && kindOf(v) != "lambda" && sc.sparkTypeFollow(v, false) != nil
	}
	return false
}

// paramNode is one parameter of a def or lambda as written.
type paramNode struct {
	name string
	hint string // type hint text, quotes of a string hint removed
	// dflt is the default value's text; "" when it has none.
	dflt string
}

// paramNodes lists the parameters of a function_definition or lambda,
// leaving out the / and * separators.
func (sc *scan) paramNodes(fn *sitter.Node) []paramNode {
	if fn == nil {
		return nil
	}
	ps := field(fn, "parameters")
	if ps == nil {
		return nil
	}
	var out []paramNode
	for i, count := uint(0), ps.NamedChildCount(); i < count; i++ {
		c := ps.NamedChild(i)
		switch kindOf(c) {
		case "identifier", "list_splat_pattern", "dictionary_splat_pattern", "tuple_pattern":
			out = append(out, paramNode{name: sc.text(c)})
		case "default_parameter":
			out = append(out, paramNode{name: sc.text(field(c, "name")), dflt: sc.text(field(c, "value"))})
		case "typed_default_parameter":
			out = append(out, paramNode{name: sc.text(field(c, "name")), hint: sc.hintText(field(c, "type")), dflt: sc.text(field(c, "value"))})
		case "typed_parameter":
			name := ""
			if c.NamedChildCount() > 0 {
				name = sc.text(c.NamedChild(0))
			}
			out = append(out, paramNode{name: name, hint: sc.hintText(field(c, "type"))})
		}
	}
	return out
}

// hintText is a type hint as written; a string hint ("pd.Series") gives
// its content.
func (sc *scan) hintText(t *sitter.Node) string {
	if t == nil {
		return ""
	}
	if t.NamedChildCount() == 1 {
		if c := t.NamedChild(0); kindOf(c) == "string" {
			if s, ok := sc.stringValue(c, false); ok {
				return strings.TrimSpace(s)
			}
		}
	}
	return sc.text(t)
}

// params gives the UDF parameters of fn. withTypes maps hints to Spark
// types, which only row-at-a-time UDFs may do: a pandas UDF's hints are
// pandas containers whose element type comes from the call site.
func (sc *scan) params(fn *sitter.Node, withTypes bool) []udf.Param {
	nodes := sc.paramNodes(fn)
	out := make([]udf.Param, 0, len(nodes))
	for _, p := range nodes {
		param := udf.Param{Name: p.name, SourceType: p.hint, Default: p.dflt}
		if withTypes && p.hint != "" && kindOf(fn) == "function_definition" {
			if t, ok := udf.PythonHintType(p.hint); ok {
				param.Type = t
			}
		}
		out = append(out, param)
	}
	return out
}

// pandasFlavor infers a pandas_udf's flavor from fn's type hints as
// PySpark 3 does, else from the functionType argument.
func (sc *scan) pandasFlavor(fn, functionType *sitter.Node) udf.PandasFlavor {
	if flavor, ok := sc.flavorFromHints(fn); ok {
		return flavor
	}
	if functionType != nil {
		switch sc.text(functionType)[strings.LastIndexByte(sc.text(functionType), '.')+1:] {
		case "SCALAR", "200":
			return udf.PandasSeriesToSeries
		case "SCALAR_ITER", "204":
			return udf.PandasIteratorOfSeries
		case "GROUPED_AGG", "202":
			return udf.PandasSeriesToScalar
		case "GROUPED_MAP", "201":
			return udf.PandasGroupedMap
		}
	}
	return udf.PandasUnknown
}

func (sc *scan) flavorFromHints(fn *sitter.Node) (udf.PandasFlavor, bool) {
	if fn == nil || kindOf(fn) != "function_definition" {
		return "", false
	}
	ret := sc.hintText(field(fn, "return_type"))
	params := sc.paramNodes(fn)
	if ret == "" || len(params) == 0 {
		return "", false
	}
	for _, p := range params {
		if p.hint == "" {
			return "", false
		}
	}
	if base, args := sc.splitHint(params[0].hint); len(params) == 1 && lastSegment(base) == "Iterator" && len(args) == 1 {
		inner, innerArgs := sc.splitHint(args[0])
		switch {
		case (lastSegment(inner) == "Tuple" || inner == "tuple") && len(innerArgs) > 0:
			return udf.PandasIteratorOfMultiple, true
		case sc.isPandasContainer(args[0]):
			return udf.PandasIteratorOfSeries, true
		}
		return "", false
	}
	for _, p := range params {
		if !sc.isPandasContainer(p.hint) {
			return "", false
		}
	}
	if sc.isPandasContainer(ret) {
		return udf.PandasSeriesToSeries, true
	}
	if base, _ := sc.splitHint(ret); lastSegment(base) == "Iterator" {
		return "", false
	}
	return udf.PandasSeriesToScalar, true
}

// isPandasContainer is true for pd.Series, pandas.DataFrame, Series, ...
func (sc *scan) isPandasContainer(hint string) bool {
	base, args := sc.splitHint(hint)
	if len(args) != 0 {
		return false
	}
	last := lastSegment(base)
	return last == "Series" || last == "DataFrame"
}

// splitHint splits "Iterator[Tuple[pd.Series, pd.Series]]" into its base,
// resolved through the imports ("typing.Iterator"), and its top-level type
// arguments.
func (sc *scan) splitHint(hint string) (string, []string) {
	h := strings.Join(strings.Fields(hint), "")
	open := strings.IndexByte(h, '[')
	if open < 0 {
		return sc.resolve(h), nil
	}
	if open == 0 || h[len(h)-1] != ']' {
		return h, nil
	}
	var args []string
	depth, start := 0, open+1
	for i := open + 1; i < len(h)-1; i++ {
		switch h[i] {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, h[start:i])
				start = i + 1
			}
		}
	}
	args = append(args, h[start:len(h)-1])
	return sc.resolve(h[:open]), args
}

func lastSegment(dotted string) string {
	return dotted[strings.LastIndexByte(dotted, '.')+1:]
}
