package typeinfer

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

// siteArg is what one call site passes for one parameter: a column by
// name, a column with a cast, or something udfx cannot read.
type siteArg struct {
	column string
	cast   *udf.Type
	// flow is the type the front-end's trace of the job's dataflow gives
	// (udf.UseSite.ArgTypes), and flowFrom its chain; nil when none.
	flow     *udf.Type
	flowFrom string
	// text is the argument as written, for messages.
	text string
	line int
}

var (
	reColCall   = regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z0-9_]*\.)*(?:col|column)\s*\(\s*(.+?)\s*\)$`)
	reDFIndex   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\s*\[\s*(.+?)\s*\]$`)
	reDFApply   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(?:\.col)?\s*\(\s*(.+?)\s*\)$`)
	reDFAttr    = regexp.MustCompile(`^[a-z_][A-Za-z0-9_]*\.([A-Za-z_][A-Za-z0-9_]*)$`)
	reDollar    = regexp.MustCompile(`^\$"([^"]+)"$`)
	reSymbol    = regexp.MustCompile(`^'([A-Za-z_][A-Za-z0-9_]*)$`)
	reSQLCast   = regexp.MustCompile("(?is)^CAST\\s*\\((.+)\\s+AS\\s+(.+)\\)$")
	reSQLColumn = regexp.MustCompile("^(?:`?[A-Za-z_][A-Za-z0-9_]*`?\\.)?`?([A-Za-z_][A-Za-z0-9_]*)`?$")
)

// callArgs returns the arguments of the outermost call in a DataFrame use
// site's text (f(col("a")), udf(...)(col("a"))): its last top-level
// bracket group.
func callArgs(text string, lang udf.Language) ([]arg, bool) {
	last := -1
	for i := 0; i < len(text); {
		if e, _ := skipToken(text, i, lang); e > i {
			i = e
			continue
		}
		if text[i] == '(' {
			end := closeWith(text, i, lang)
			if end < 0 {
				return nil, false
			}
			last = i
			i = end + 1
			continue
		}
		i++
	}
	if last < 0 || closeWith(text, last, lang) != len(strings.TrimRight(text, " \t\n"))-1 {
		return nil, false
	}
	return splitArgs(text, last, lang), true
}

// readColumnArg reads one DataFrame argument.
func readColumnArg(a arg, lang udf.Language) siteArg {
	text := strings.TrimSpace(a.text)
	out := siteArg{text: text}
	if a.kw != "" {
		return out
	}
	// A trailing .cast(T) / .astype(T) decides the type whatever the column.
	if strings.HasSuffix(text, ")") {
		for _, m := range []string{".cast(", ".astype("} {
			if i := strings.LastIndex(text, m); i > 0 {
				open := i + len(m) - 1
				if closeWith(text, open, lang) == len(text)-1 {
					inner := strings.TrimSpace(text[open+1 : len(text)-1])
					if s, ok := unquote(inner, lang); ok {
						inner = s
					}
					if t, err := udf.ParseType(inner); err == nil {
						out.cast = t
					}
					return out
				}
			}
		}
	}
	name := func(s string) string {
		if v, ok := unquote(strings.TrimSpace(s), lang); ok && !strings.ContainsAny(v, ".`*") && v != "" {
			return v
		}
		return ""
	}
	if m := reColCall.FindStringSubmatch(text); m != nil {
		out.column = name(m[1])
		return out
	}
	if lang == udf.Python {
		if m := reDFIndex.FindStringSubmatch(text); m != nil {
			out.column = name(m[1])
			return out
		}
		if m := reDFAttr.FindStringSubmatch(text); m != nil {
			out.column = m[1]
			return out
		}
		// PySpark UDFs take a column name as a plain string.
		out.column = name(text)
		return out
	}
	if m := reDollar.FindStringSubmatch(text); m != nil && !strings.ContainsAny(m[1], ".`") {
		out.column = m[1]
		return out
	}
	if m := reSymbol.FindStringSubmatch(text); m != nil {
		out.column = m[1]
		return out
	}
	if m := reDFApply.FindStringSubmatch(text); m != nil {
		out.column = name(m[1])
	}
	return out
}

// sqlCallArgs finds the calls of any of names in an SQL text and returns
// the arguments of each.
func sqlCallArgs(sql string, names []string) [][]siteArg {
	var out [][]siteArg
	for _, n := range names {
		re := regexp.MustCompile("(?i)(?:^|[^A-Za-z0-9_.])`?" + regexp.QuoteMeta(n) + "`?\\s*\\(")
		for _, m := range re.FindAllStringIndex(sql, -1) {
			args := splitArgs(sql, m[1]-1, udf.Java)
			var site []siteArg
			for _, a := range args {
				site = append(site, readSQLArg(a.text))
			}
			out = append(out, site)
		}
	}
	return out
}

func readSQLArg(text string) siteArg {
	text = strings.TrimSpace(text)
	out := siteArg{text: text}
	if m := reSQLCast.FindStringSubmatch(text); m != nil {
		if t, err := udf.ParseType(strings.TrimSpace(m[2])); err == nil {
			out.cast = t
		}
		return out
	}
	if m := reSQLColumn.FindStringSubmatch(text); m != nil && !sqlKeyword[strings.ToUpper(m[1])] {
		out.column = m[1]
	}
	return out
}

var sqlKeyword = map[string]bool{"NULL": true, "TRUE": true, "FALSE": true, "DISTINCT": true}

// paramFromSites decides parameter i's type from every call site. Each
// site must cast the column, or name one the job's dataflow or the file's
// schema types; all must agree.
// It returns the type and its source and detail, or an error saying why
// the sites give no single type.
func paramFromSites(sites [][]siteArg, i, nParams int, sf *schemaFacts, harmless func(doubt, *udf.Type) bool) (*udf.Type, string, string, error) {
	if len(sites) == 0 {
		return nil, "", "", fmt.Errorf("the file never calls the UDF on a column")
	}
	var typ *udf.Type
	var source, detail string
	for _, s := range sites {
		if len(s) != nParams {
			return nil, "", "", fmt.Errorf("a call site passes %d arguments to %d parameters", len(s), nParams)
		}
		a := s[i]
		var t *udf.Type
		var src, det string
		switch {
		case a.cast != nil:
			t, src, det = a.cast, udf.TypeFromCast, fmt.Sprintf("%s", short(a.text))
		case a.flow != nil:
			t, src, det = a.flow, udf.TypeFromDataflow, a.flowFrom
		case a.column != "":
			ct, d, err := sf.columnType(a.column, harmless)
			if err != nil {
				return nil, "", "", err
			}
			t, src, det = ct, udf.TypeFromSchema, d
		default:
			return nil, "", "", fmt.Errorf("a call site passes %s, which is not a column udfx can type", short(a.text))
		}
		if typ != nil && !typ.Equal(t) {
			return nil, "", "", fmt.Errorf("call sites disagree: %s (%s) and %s (%s)", typ, detail, t, det)
		}
		if typ == nil {
			typ, source, detail = t, src, det
		}
	}
	return typ, source, detail, nil
}
