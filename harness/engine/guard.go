package engine

import (
	"fmt"
	"sort"
	"strings"
)

// UnsafeError is a construct no rewrite may use, whichever engine runs it:
// it makes the result depend on something other than the UDF's
// parameters (a file, the clock, chance, the row's position, JVM code
// reached by reflection, a user-defined function), or it is outside the
// allow-list of deterministic built-in scalar functions that a candidate
// written by a model or a person may call. Construct names it as written.
type UnsafeError struct {
	Construct string
	Why       string
	Pos       int
}

func (e *UnsafeError) Error() string {
	return fmt.Sprintf("%s at offset %d is refused: %s", e.Construct, e.Pos, e.Why)
}

// unsafeCalls are the functions Spark has that a rewrite must never call,
// with the reason a refusal gives. They are refused by name even though
// none is on the allow-list, so that the message says why.
var unsafeCalls = map[string]string{}

func init() {
	for _, n := range strings.Fields("reflect java_method try_reflect") {
		unsafeCalls[n] = "it calls JVM code by reflection (which can read files, or call the original itself)"
	}
	for _, n := range strings.Fields("input_file_name input_file_block_start input_file_block_length") {
		unsafeCalls[n] = "its result is the input file's, not a function of the parameters"
	}
	for _, n := range strings.Fields("current_date current_time current_timestamp current_timezone current_user current_catalog current_database current_schema curdate now localtimestamp user session_user unix_timestamp") {
		unsafeCalls[n] = "its result depends on the session or the clock, not on the parameters"
	}
	for _, n := range strings.Fields("rand randn random uniform randstr uuid shuffle monotonically_increasing_id spark_partition_id") {
		unsafeCalls[n] = "it is not deterministic (chance, or the row's position)"
	}
	for _, n := range strings.Fields("udf java_udf python_udf pandas_udf") {
		unsafeCalls[n] = "a user-defined function is what a rewrite replaces"
	}
}

// bareUnsafe are the names Spark reads without parentheses as functions
// of the session (CURRENT_DATE, USER, ...) unless a column has the name.
var bareUnsafe = strings.Fields("current_date current_timestamp current_user user session_user localtimestamp current_time")

// sparkOnly are deterministic built-in scalar functions of Spark 4.1 that
// the embedded engine does not evaluate, allowed for --engine spark. Each
// one computes its result from its arguments alone (and the session time
// zone, which udfx pins to UTC); functions that read files (from_protobuf
// with a descriptor path), resolve XML entities (xpath_*, from_xml),
// or depend on the locale (sentences) are left out. raise_error is
// allowed (the embedded engine evaluates it): a row that raises is compared
// with the original's exception like any other result.
var sparkOnly = strings.Fields(`
	struct named_struct hex unhex md5 sha sha1 sha2 crc32 hash xxhash64 base64 unbase64 bin conv
	format_string printf array_append array_prepend array_union array_intersect array_except
	arrays_overlap arrays_zip array_remove array_repeat array_insert array_compact sequence map
	map_keys map_values map_entries map_from_arrays map_from_entries map_concat map_contains_key
	str_to_map exists zip_with map_filter transform_keys transform_values map_zip_with get
	try_element_at try_add try_subtract try_multiply try_divide try_mod to_number try_to_number
	to_char to_varchar shiftleft shiftright shiftrightunsigned bit_count bit_get getbit factorial
	e expm1 log1p rint cot sec csc asinh acosh atanh width_bucket levenshtein soundex overlay
	split_part substring_index find_in_set elt mask luhn_check to_timestamp try_to_timestamp
	make_date date_trunc trunc next_day months_between weekofyear weekday hour minute second
	unix_date date_from_unix_date timestamp_seconds timestamp_millis timestamp_micros unix_seconds
	unix_millis unix_micros from_unixtime to_unix_timestamp regexp_count regexp_substr regexp_instr
	decode encode is_valid_utf8 make_valid_utf8 equal_null get_json_object
	from_json to_json bitwise_not ceil floor try_cast
`)

// AllowedFunctions is the allow-list of a rewrite's function calls: the
// deterministic built-in scalar functions and operators the embedded
// engine implements (SUPPORTED.md), by the names Spark's parser gives
// them, and the reviewed sparkOnly list. The Spark engine's driver checks
// Spark's own parse of a candidate against the same list.
func AllowedFunctions() []string {
	seen := map[string]bool{}
	out := make([]string, 0, len(builtins)+len(sparkOnly))
	for n := range builtins {
		if _, bad := unsafeCalls[n]; bad || !isWord(n) || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, n)
	}
	for _, n := range sparkOnly {
		if _, bad := unsafeCalls[n]; !bad && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// allowed says whether a function name is on AllowedFunctions.
func allowed(name string) bool {
	if _, bad := unsafeCalls[name]; bad {
		return false
	}
	if _, ok := builtins[name]; ok {
		return true
	}
	for _, n := range sparkOnly {
		if n == name {
			return true
		}
	}
	return false
}

func isWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return s != ""
}

func isIdentByte(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// Guard checks a candidate rewrite before anything evaluates it: it must
// parse as one scalar expression (udfx's parser; the Spark engine checks
// Spark's own parse and analysis too), call only allow-listed functions,
// hold no subquery, and read no column but the parameters (and the
// variables of its lambdas). The error is an *UnsafeError naming the
// construct, or the parser's *SyntaxError / *UnsupportedFunctionError.
func Guard(expr string, params []string) error {
	toks, err := lex(expr)
	if err != nil {
		return err
	}
	isParam := map[string]bool{}
	for _, p := range params {
		isParam[strings.ToLower(p)] = true
	}
	if err := scanUnsafe(toks, isParam); err != nil {
		return err
	}
	tree, err := parse(expr)
	if err != nil {
		return err
	}
	return guardAST(tree, isParam, nil)
}

// scanUnsafe finds unsafe calls and keywords by token, before parsing: a
// backquoted name (`reflect`(...)) or a subquery, which the parser would
// only call a syntax error, gets a refusal that names it. Comments are
// gone and string literals are single tokens, so text inside them is not
// read as a call.
func scanUnsafe(toks []tok, isParam map[string]bool) error {
	for i, t := range toks {
		if t.kind != tIdent && t.kind != tQuoted {
			continue
		}
		name := strings.ToLower(t.text)
		next := toks[i+1]
		isCall := next.kind == tOp && next.text == "("
		// (FROM t), (VALUES ...), (TABLE t) open a query when their
		// parenthesis is not a call's (trim(FROM s) is not a subquery).
		opensQuery := i > 0 && toks[i-1].kind == tOp && toks[i-1].text == "(" &&
			(i < 2 || (toks[i-2].kind != tIdent && toks[i-2].kind != tQuoted))
		subquery := t.kind == tIdent && !isParam[name] && (name == "select" ||
			((name == "values" || name == "table" || name == "from") && opensQuery))
		if subquery {
			return &UnsafeError{Construct: "a subquery (" + strings.ToUpper(t.text) + " ...)", Why: "a subquery reads relations other than the job's input (files, tables)", Pos: t.pos}
		}
		if why, bad := unsafeCalls[name]; bad && isCall {
			return &UnsafeError{Construct: name + "()", Why: why, Pos: t.pos}
		}
		if isCall && t.kind == tQuoted {
			return &UnsafeError{Construct: "the backquoted function name `" + t.text + "`", Why: "a rewrite calls functions by their plain names", Pos: t.pos}
		}
	}
	return nil
}

// refuseUnsafe is the embedded engine's share of Guard: whatever else it
// cannot evaluate is an UnsupportedFunctionError or a TypeError, but the
// unsafe set is refused as such, not as "use --engine spark".
func refuseUnsafe(toks []tok, tree ast, cols []Column) error {
	isCol := columnNames(cols)
	if err := scanUnsafe(toks, isCol); err != nil {
		return err
	}
	var walk func(e ast) error
	walk = func(e ast) error {
		switch e := e.(type) {
		case *colAST:
			name := strings.ToLower(e.name)
			for _, b := range bareUnsafe {
				if name == b && !isCol[name] {
					return &UnsafeError{Construct: e.name, Why: unsafeCalls[b], Pos: e.pos}
				}
			}
		case *callAST:
			if why, bad := unsafeCalls[e.name]; bad {
				return &UnsafeError{Construct: e.name + "()", Why: why, Pos: e.pos}
			}
			for _, a := range e.args {
				if err := walk(a); err != nil {
					return err
				}
			}
		case *castAST:
			return walk(e.x)
		case *caseAST:
			for _, a := range append(append([]ast{e.operand, e.els}, e.whens...), e.thens...) {
				if a != nil {
					if err := walk(a); err != nil {
						return err
					}
				}
			}
		case *lambdaAST:
			return walk(e.body)
		}
		return nil
	}
	return walk(tree)
}

func guardAST(e ast, isParam map[string]bool, scope []map[string]bool) error {
	switch e := e.(type) {
	case *colAST:
		name := strings.ToLower(e.name)
		for _, s := range scope {
			if s[name] {
				return nil
			}
		}
		if isParam[name] {
			return nil
		}
		for _, b := range bareUnsafe {
			if name == b {
				return &UnsafeError{Construct: e.name, Why: unsafeCalls[b], Pos: e.pos}
			}
		}
		if unsafeCalls[name] == "" {
			return &UnsafeError{Construct: "the column " + e.name, Why: "a rewrite reads only the UDF's parameters", Pos: e.pos}
		}
		return &UnsafeError{Construct: e.name, Why: unsafeCalls[name], Pos: e.pos}
	case *callAST:
		if why, bad := unsafeCalls[e.name]; bad {
			return &UnsafeError{Construct: e.name + "()", Why: why, Pos: e.pos}
		}
		if _, internal := builtins[e.name]; !allowed(e.name) && !(internal && !isWord(e.name)) {
			return &UnsafeError{Construct: e.name + "()", Why: "it is not on udfx's allow-list of deterministic built-in scalar functions (AllowedFunctions)", Pos: e.pos}
		}
		for _, a := range e.args {
			if err := guardAST(a, isParam, scope); err != nil {
				return err
			}
		}
	case *castAST:
		return guardAST(e.x, isParam, scope)
	case *caseAST:
		parts := append(append([]ast{e.operand, e.els}, e.whens...), e.thens...)
		for _, a := range parts {
			if a == nil {
				continue
			}
			if err := guardAST(a, isParam, scope); err != nil {
				return err
			}
		}
	case *lambdaAST:
		vars := map[string]bool{}
		for _, p := range e.params {
			vars[strings.ToLower(p)] = true
		}
		return guardAST(e.body, isParam, append(scope, vars))
	}
	return nil
}

func columnNames(cols []Column) map[string]bool {
	m := map[string]bool{}
	for _, c := range cols {
		m[strings.ToLower(c.Name)] = true
	}
	return m
}
