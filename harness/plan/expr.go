package plan

import (
	_ "embed"
	"regexp"
	"strings"
)

// builtinFunctions is Spark's SHOW SYSTEM FUNCTIONS, generated from the real
// runtime by testdata/gen/gen_spark_plans.py.
//
//go:embed builtin_functions.txt
var builtinFunctions string

// printedOnly are names that plans print but SHOW SYSTEM FUNCTIONS does not
// list: partitionings, internal expressions the optimizer adds, and the
// RAPIDS GPU expression names. Each one was seen in a printed plan.
var printedOnly = []string{
	"hashpartitioning", "rangepartitioning", "roundrobinpartitioning", "singlepartition",
	"knownfloatingpointnormalized", "knownnotnull", "assertnotnull", "staticinvoke", "static_invoke", "invoke",
	"newinstance", "promote_precision", "checkoverflow", "makedecimal", "unscaledvalue",
	"dynamicpruningexpression", "might_contain", "toprettystring", "lambdafunction",
	"namedlambdavariable", "windowspecdefinition", "specifiedwindowframe", "unboundedpreceding$",
	"unboundedfollowing$", "currentrow$", "sortprefix", "outer", "some", "targetsize",
	"statistics", "ansi_cast", "try_cast", "input_file_name", "varchar", "decimal", "array", "map",
	"interval", "timestamp", "date", "murmur3hash", "bloom_filter_agg", "decodeusingserializer",
	"encodeusingserializer", "externalmaptocatalyst", "mapobjects", "catalysttoexternalmap",
	"createexternalrow", "validateexternaltype", "getexternalrowfield", "initializejavabean",
	"gpuhashpartitioning", "gpurangepartitioning", "gpuroundrobinpartitioning",
	"gpusinglepartitioning", "gpubasicsum", "gpucount", "gpuisnotnull", "gpuisnull",
	"gpuaverage", "gpumin", "gpumax", "gpufirst", "gpulast",
}

var builtins = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(builtinFunctions, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			m[l] = true
		}
	}
	for _, n := range printedOnly {
		m[n] = true
	}
	return m
}()

// aggPrefixes are the modes Spark prints before an aggregate function's name.
var aggPrefixes = []string{"partial_", "merge_", "finalmerge_", "partialmerge_", "complete_"}

// IsBuiltin says whether a function name, as a plan prints it, is one of
// Spark's (or, with a "gpu" prefix, one of the RAPIDS GPU versions).
func IsBuiltin(name string) bool {
	n := strings.ToLower(name)
	for _, p := range aggPrefixes {
		n = strings.TrimPrefix(n, p)
	}
	if builtins[n] {
		return true
	}
	if strings.HasPrefix(n, "gpu") && builtins[strings.TrimPrefix(n, "gpu")] {
		return true
	}
	return false
}

// Call is a function call found in an expression's text.
type Call struct {
	Name string // as printed: "java_to_fahrenheit", "HiveToFahrenheit", "UDF"
	// Kind is "ScalaUDF" for names that are not Spark built-ins, or the
	// Hive wrapper class ("HiveSimpleUDF", "HiveGenericUDF", ...).
	Kind string
	Text string // the call as printed, e.g. "java_to_fahrenheit(celsius#5)"
	Args string
}

var hiveCallRe = regexp.MustCompile(`\b(Hive(?:Simple|Generic)UDF|HiveGenericUDTF|HiveUDAFFunction)#([\w.$]+)\(`)

// udfCalls finds the calls in expression text that are user-defined: a Hive
// UDF wrapper, or a name that is not a Spark built-in (how ScalaUDF prints:
// its name, or "UDF" when it has none). It skips alias names ("AS name#1"),
// attribute names that look like calls ("max(f(c))#8": no exprId inside) and
// quoted text.
func udfCalls(s string) []Call {
	var out []Call
	masked := []byte(s)
	for _, m := range hiveCallRe.FindAllStringSubmatchIndex(s, -1) {
		open := m[1] - 1
		// An unclosed call (a truncated line) runs to the end of the text.
		text, args := s[m[0]:], s[open+1:]
		if close := matchParen(s, open); close >= 0 {
			text, args = s[m[0]:close+1], s[open+1:close]
		}
		out = append(out, Call{Name: s[m[4]:m[5]], Kind: s[m[2]:m[3]], Text: text, Args: args})
		for k := m[0]; k < open; k++ {
			masked[k] = ' '
		}
	}
	maskRaiseMessages(masked)
	ms := string(masked)
	for i := 0; i < len(ms); i++ {
		c := ms[i]
		if c == '\'' || c == '"' || c == '`' {
			if j := strings.IndexByte(ms[i+1:], c); j >= 0 {
				i += j + 1
			}
			continue
		}
		// "AS name#12": the alias name may hold parentheses; skip to its exprId.
		if c == ' ' && strings.HasPrefix(ms[i:], " AS ") {
			if j := aliasEnd(ms, i+4); j > 0 {
				i = j
				continue
			}
		}
		// After a backslash it is a regex escape in an unquoted pattern
		// (RLIKE(s#1, \A(?:a)) prints so), not a name.
		if !isIdentStart(c) || (i > 0 && (isIdentChar(ms[i-1]) || ms[i-1] == '#' || ms[i-1] == '.' || ms[i-1] == '$' || ms[i-1] == '\\')) {
			continue
		}
		j := i
		for j < len(ms) && isIdentChar(ms[j]) {
			j++
		}
		name := ms[i:j]
		if j >= len(ms) || ms[j] != '(' {
			i = j - 1
			continue
		}
		close := matchParen(ms, j)
		if close < 0 {
			i = j - 1
			continue
		}
		inner := ms[j+1 : close]
		if close+1 < len(ms) && ms[close+1] == '#' && !hasExprID(inner) {
			// An attribute named after a call, e.g. max(to_fahrenheit(celsius)#36).
			i = close
			continue
		}
		if !IsBuiltin(name) && !strings.HasPrefix(name, "pythonUDF") {
			out = append(out, Call{Name: name, Kind: "ScalaUDF", Text: ms[i : close+1], Args: inner})
		}
		i = j // look inside the arguments too
	}
	return out
}

// raiseMessageOpen starts the message of raise_error as Spark 4.1.1
// prints it in a plan, unquoted: raise_error(USER_RAISED_EXCEPTION,
// map(keys: [errorMessage], values: [the message]), NullType).
const raiseMessageOpen = "raise_error(USER_RAISED_EXCEPTION, map(keys: [errorMessage], values: ["

// maskRaiseMessages blanks the text of each raise_error message, which
// may look like a call ("charAt(0) of an empty string"). It blanks up
// to the first "]), " after the opening: a message holding that text
// ends the blank early (what follows may then read as a call, a
// refusal), and no blank runs past the message's real end.
func maskRaiseMessages(b []byte) {
	for from := 0; ; {
		i := strings.Index(string(b[from:]), raiseMessageOpen)
		if i < 0 {
			return
		}
		start := from + i + len(raiseMessageOpen)
		end := strings.Index(string(b[start:]), "]), ")
		if end < 0 {
			return
		}
		for k := start; k < start+end; k++ {
			b[k] = ' '
		}
		from = start + end
	}
}

// aliasEnd returns the index of the last character of an alias name that
// starts at i and ends with "#digits", or -1.
func aliasEnd(s string, i int) int {
	for k := i; k < len(s); k++ {
		if s[k] == '#' {
			e := k + 1
			for e < len(s) && s[e] >= '0' && s[e] <= '9' {
				e++
			}
			if e > k+1 {
				// A trailing type suffix such as "L" of a bigint exprId.
				return e - 1
			}
		}
		if s[k] == '\n' {
			return -1
		}
	}
	return -1
}

func hasExprID(s string) bool {
	for k := 0; k+1 < len(s); k++ {
		if s[k] == '#' && s[k+1] >= '0' && s[k+1] <= '9' {
			return true
		}
	}
	return false
}

// matchParen returns the index of the ')' closing the '(' at open, or -1.
func matchParen(s string, open int) int {
	depth := 0
	for k := open; k < len(s); k++ {
		switch s[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentChar(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// splitTop splits s at the commas outside brackets.
func splitTop(s string) []string {
	var out []string
	depth, last := 0, 0
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[last:k]))
				last = k + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[last:]))
}

// pythonCalls reads the calls a Python UDF operator evaluates: the first
// bracketed list of BatchEvalPython/ArrowEvalPython ("[f(c#1)#2, g(c#1)#3],
// [pythonUDF0#4, ...]"), or the function item of MapInPandas,
// FlatMapGroupsInPandas and the like ("<lambda>(id#3L, ...)#34").
func pythonCalls(args string) []Call {
	s := args
	if k := strings.Index(s, "Arguments: "); k >= 0 {
		s = s[k+len("Arguments: "):]
		if nl := strings.IndexByte(s, '\n'); nl >= 0 {
			s = s[:nl]
		}
	} else if nl := strings.IndexByte(s, '\n'); nl >= 0 {
		s = s[:nl]
	}
	// BatchEvalPython lists its calls in a bracketed list; MapInPandas and
	// FlatMapGroupsInPandas print the function as a top-level item.
	var items []string
	for _, it := range splitTop(s) {
		if strings.HasPrefix(it, "[") && strings.HasSuffix(it, "]") {
			items = append(items, splitTop(it[1:len(it)-1])...)
		} else {
			items = append(items, it)
		}
	}
	var out []Call
	for _, it := range items {
		open := strings.IndexByte(it, '(')
		if open <= 0 || strings.HasPrefix(it, "[") {
			continue
		}
		close := matchParen(it, open)
		if close < 0 {
			continue
		}
		out = append(out, Call{Name: it[:open], Kind: "PythonUDF", Text: it[:close+1], Args: it[open+1 : close]})
	}
	return out
}
