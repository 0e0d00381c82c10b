package typeinfer

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

// What a Python body forces. Spark hands a plain Python UDF a str only for
// a string column (binary arrives as bytes or bytearray, arrays as lists,
// structs as Rows, which are tuples, dates and timestamps as date and
// datetime). A method that exists on str alone, or one that str shares
// with bytes called with a str literal (bytes.split(",") raises
// TypeError), fits only a string column: calling it on a parameter of any
// other type raises on every row. Methods that list, tuple or datetime
// also have (index, count, replace with keyword arguments) are left out.

// strOnly are methods of str that no other value Spark passes has.
var strOnly = []string{"casefold", "encode", "format", "format_map", "isdecimal", "isidentifier", "isnumeric", "isprintable"}

// strOrBytes are methods str shares with bytes and bytearray (and, for
// replace, with date and datetime, whose replace takes ints).
var strOrBytes = []string{"split", "rsplit", "replace", "startswith", "endswith", "strip", "lstrip", "rstrip", "find", "rfind", "partition", "rpartition", "removeprefix", "removesuffix"}

// reGuards are constructs under which a method call need not run, or
// under which the parameter's type is tested: the body then fits more
// than one type, or udfx cannot tell.
var reGuards = regexp.MustCompile(`\b(isinstance|type|hasattr|getattr|try|except)\b`)

// bodyForces returns string when the body of Python UDF u calls, on the
// parameter name itself, a method only a str has; nil otherwise.
func bodyForces(src string, u *udf.UDF, name string) (*udf.Type, string) {
	if u.Language != udf.Python || (u.Kind != udf.KindPythonUDF && u.Kind != udf.KindLambda) {
		return nil, ""
	}
	body := spanText(src, u.BodySpan)
	if body == "" || reGuards.MatchString(body) {
		return nil, ""
	}
	q := regexp.QuoteMeta(name)
	// The parameter must keep its value: no assignment to it in the body.
	if regexp.MustCompile(`(?m)(^|[^=!<>])\b`+q+`\s*(=[^=]|\+=|-=|\*=|/=|:=)`).MatchString(body) ||
		regexp.MustCompile(`\b(for|as)\s+`+q+`\b`).MatchString(body) {
		return nil, ""
	}
	re := regexp.MustCompile(`(?:^|[^.\w])` + q + `\s*\.\s*([A-Za-z_]+)\s*\(`)
	for _, m := range re.FindAllStringSubmatchIndex(body, -1) {
		method := body[m[2]:m[3]]
		open := m[1] - 1
		call := fmt.Sprintf("%s.%s(...)", name, method)
		if contains(strOnly, method) {
			return udf.Prim(udf.String), call + " exists on a str only"
		}
		if contains(strOrBytes, method) {
			args := splitArgs(body, open, udf.Python)
			if len(args) > 0 && args[0].kw == "" {
				if _, ok := unquote(args[0].text, udf.Python); ok && !strings.HasPrefix(strings.ToLower(args[0].text), "b") {
					return udf.Prim(udf.String), fmt.Sprintf("%s.%s(%s) fits a str only (bytes raises TypeError on a str argument)", name, method, short(args[0].text))
				}
			}
		}
	}
	return nil, ""
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// spanText is the source text of a span; columns count code points.
func spanText(src string, s udf.Span) string {
	lines := strings.Split(src, "\n")
	if s.Start.Line < 1 || s.End.Line > len(lines) || s.End.Line < s.Start.Line {
		return ""
	}
	var b strings.Builder
	for l := s.Start.Line; l <= s.End.Line; l++ {
		r := []rune(lines[l-1])
		from, to := 0, len(r)
		if l == s.Start.Line {
			from = min(max(s.Start.Column-1, 0), len(r))
		}
		if l == s.End.Line {
			to = min(max(s.End.Column-1, from), len(r))
		}
		b.WriteString(string(r[from:to]))
		if l != s.End.Line {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// numericCandidates are the Spark types whose Python values (int, float)
// mix with a float literal; decimal.Decimal raises TypeError with a float.
var numericCandidates = []string{"tinyint", "smallint", "int", "bigint", "float", "double"}

// perTypeOrder is every type a parameter no source types is tried with,
// the commonest column types first: the first proved is the one the
// record's top-level test and the benchmark use. Decimals are left out:
// each precision and scale is a type of its own to typeof.
var perTypeOrder = []string{"string", "double", "bigint", "int", "boolean", "date", "timestamp", "float", "smallint", "tinyint"}

// PerTypeChoices lists, for each parameter of u whose type no source
// gives (in parameter order), the Spark types to prove it for one by one:
// the numeric types where the body mixes it with a float literal, every
// type of perTypeOrder otherwise. The translator and the differential
// test then decide per type; nothing here is a guess that is kept.
func PerTypeChoices(u *udf.UDF, src []byte) (names []string, choices [][]*udf.Type) {
	for _, p := range u.Params {
		if p.Type != nil {
			continue
		}
		names = append(names, p.Name)
		cs := candidates(string(src), u, p.Name)
		var ts []*udf.Type
		for _, s := range perTypeOrder {
			if len(cs) == 0 || slices.Contains(cs, s) {
				ts = append(ts, udf.Prim(udf.TypeKind(s)))
			}
		}
		choices = append(choices, ts)
	}
	return names, choices
}

// candidates lists the types a Python body fits when more than one does,
// for the message that asks the user to choose with --types: udfx does
// not pick one for them.
func candidates(src string, u *udf.UDF, name string) []string {
	if u.Language != udf.Python {
		return nil
	}
	body := spanText(src, u.BodySpan)
	q := regexp.QuoteMeta(name)
	float := `\d+\.\d*(?:[eE][-+]?\d+)?`
	re := regexp.MustCompile(`(?:\b` + q + `\s*[-+*/]\s*` + float + `)|(?:` + float + `\s*[-+*/]\s*` + q + `\b)`)
	if re.MatchString(body) {
		return numericCandidates
	}
	return nil
}
