package typeinfer

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

// A file's schema facts are read from its text, not its syntax tree: the
// forms are few and the same in Python and Scala (a string literal or a
// StructField list handed to .schema(...) or createDataFrame(...)), and a
// reading that is unsure gives no type, never a guess. What makes a
// column's type uncertain (a DataFrame read without a schema, a column
// defined again by withColumn) is collected too, and makes the schema
// give no type at all.

// field is one column a schema in the file declares.
type field struct {
	name string
	typ  *udf.Type
	line int
	how  string // "spark.read.schema", "createDataFrame", "StructField", ...
}

// doubt is something in the file that makes a column's type uncertain.
type doubt struct {
	line int
	what string
	// column is the column it concerns; "" for every column.
	column string
	// value is, for withColumn, the text of the new column's value.
	value string
}

// schemaFacts are what a file shows about the columns of its DataFrames.
type schemaFacts struct {
	fields map[string][]field
	doubts []doubt
	// views are the temp views the file registers.
	views map[string]bool
}

// lineOf is the 1-based line of byte offset i.
func lineOf(src string, i int) int { return strings.Count(src[:i], "\n") + 1 }

var (
	reSchemaCall    = regexp.MustCompile(`\.schema\s*\(`)
	reCreateDF      = regexp.MustCompile(`\bcreateDataFrame\s*\(`)
	reFromDDL       = regexp.MustCompile(`\bfromDDL\s*\(`)
	reStructField   = regexp.MustCompile(`\bStructField\s*\(`)
	reAddField      = regexp.MustCompile(`\.add\s*\(`)
	reRead          = regexp.MustCompile(`\.read(Stream)?\b`)
	reTable         = regexp.MustCompile(`\.table\s*\(`)
	reRange         = regexp.MustCompile(`\.range\s*\(`)
	reToDF          = regexp.MustCompile(`\.toDF\s*\(`)
	reWithColumn    = regexp.MustCompile(`\.withColumn\s*\(`)
	reRenamed       = regexp.MustCompile(`\.withColumnRenamed\s*\(`)
	reAlias         = regexp.MustCompile(`\.(alias|as|name)\s*\(`)
	reTempView      = regexp.MustCompile(`\.(createOrReplaceTempView|createTempView|createGlobalTempView|createOrReplaceGlobalTempView|registerTempTable)\s*\(`)
	reSQLAs         = regexp.MustCompile("(?i)\\bAS\\s+`?([A-Za-z_][A-Za-z0-9_]*)`?")
	reSQLFrom       = regexp.MustCompile("(?i)\\b(?:FROM|JOIN)\\s+`?([A-Za-z_][A-Za-z0-9_.]*)`?")
	reIdent         = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	loaders         = map[string]bool{"parquet": true, "csv": true, "json": true, "orc": true, "load": true, "table": true, "text": true, "textFile": true, "jdbc": true, "avro": true, "delta": true}
	schemaVariables = regexp.MustCompile(`(?m)^\s*(?:val\s+|var\s+|final\s+\w+\s+|String\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*[A-Za-z.]+\s*)?=\s*`)
)

// schemaScan is one reading of a file's schema facts: the file, what to
// leave out, and the facts found so far.
type schemaScan struct {
	src  string
	lang udf.Language
	skip func(line int) bool
	// lits and comments are the file's string literals and comments.
	lits, comments []lit
	sf             *schemaFacts
}

// extractSchema reads the schema facts of src, leaving out what lies in
// skip (the UDF's own definition: a StructType there is its return type).
func extractSchema(src string, lang udf.Language, skip func(line int) bool) *schemaFacts {
	sc := &schemaScan{src: src, lang: lang, skip: skip, sf: &schemaFacts{fields: map[string][]field{}, views: map[string]bool{}}}
	sc.lits, sc.comments = stringLiterals(src, lang)
	// The order of the readings is the order of the facts they record.
	sc.declaredSchemas()
	sc.unsureSources()
	sc.redefinitions()
	return sc.sf
}

// inLiteral is true inside a string literal or a comment: neither is
// code that makes a DataFrame.
func (sc *schemaScan) inLiteral(i int) bool {
	for _, ls := range [][]lit{sc.lits, sc.comments} {
		for _, l := range ls {
			if i >= l.start && i < l.end {
				return true
			}
		}
	}
	return false
}

// each calls fn on every match of re in code outside skip, with the
// offset of the call's opening parenthesis and its arguments; a match
// that does not end in "(" gets the offset after it and no arguments.
func (sc *schemaScan) each(re *regexp.Regexp, fn func(open, line int, args []arg)) {
	src := sc.src
	for _, m := range re.FindAllStringIndex(src, -1) {
		if sc.inLiteral(m[0]) || sc.skip(lineOf(src, m[0])) {
			continue
		}
		open := m[1] - 1
		if src[open] != '(' {
			fn(m[1], lineOf(src, m[0]), nil)
			continue
		}
		fn(open, lineOf(src, m[0]), splitArgs(src, open, sc.lang))
	}
}

// addField records a column a schema declares.
func (sc *schemaScan) addField(name string, typ *udf.Type, line int, how string) {
	sc.sf.fields[name] = append(sc.sf.fields[name], field{name: name, typ: typ, line: line, how: how})
}

// addDoubt records something that makes a column's type uncertain.
func (sc *schemaScan) addDoubt(d doubt) { sc.sf.doubts = append(sc.sf.doubts, d) }

// addDDL records the columns of a DDL schema, with or without its
// struct<...>; it reports whether text is one.
func (sc *schemaScan) addDDL(text string, line int, how string) bool {
	t, err := udf.ParseType(text)
	if err != nil || t.Kind != udf.Struct {
		t, err = udf.ParseType("struct<" + text + ">")
	}
	if err != nil || t.Kind != udf.Struct {
		return false
	}
	for _, f := range t.Fields {
		sc.addField(f.Name, f.Type, line, how)
	}
	return true
}

// schemaArg reads a schema handed to .schema(...) or createDataFrame:
// a DDL string, a StructType (its StructFields are read by
// structField), or a variable holding either. It reports whether the
// argument is one.
func (sc *schemaScan) schemaArg(a arg, line int, how string, depth int) bool {
	src := sc.src
	v := strings.TrimSpace(a.text)
	if s, ok := unquote(v, sc.lang); ok {
		return sc.addDDL(s, line, how)
	}
	if strings.Contains(v, "StructType") || strings.Contains(v, "StructField") {
		return true
	}
	if reIdent.MatchString(v) && depth < 3 {
		for _, m := range schemaVariables.FindAllStringSubmatchIndex(src, -1) {
			if src[m[2]:m[3]] != v || sc.inLiteral(m[0]) {
				continue
			}
			rest := src[m[1]:]
			if end := strings.IndexByte(rest, '\n'); end >= 0 && !strings.HasPrefix(strings.TrimSpace(rest), "\"\"\"") {
				rest = rest[:end]
			}
			return sc.schemaArg(arg{text: firstExpr(rest, sc.lang)}, lineOf(src, m[0]), how, depth+1)
		}
	}
	return false
}

// declaredSchemas reads the schemas the file declares: .schema(...),
// StructType.fromDDL, createDataFrame, StructField, StructType.add and
// the id column of spark.range.
func (sc *schemaScan) declaredSchemas() {
	sc.each(reSchemaCall, func(_, line int, args []arg) {
		if len(args) == 1 && !sc.schemaArg(args[0], line, "spark.read.schema", 0) {
			sc.addDoubt(doubt{line: line, what: "a schema udfx cannot read (" + short(args[0].text) + ")"})
		}
	})
	sc.each(reFromDDL, func(_, line int, args []arg) {
		if len(args) == 1 {
			sc.schemaArg(args[0], line, "StructType.fromDDL", 0)
		}
	})
	sc.each(reCreateDF, sc.createDataFrame)
	sc.each(reStructField, sc.structField)
	sc.each(reAddField, sc.addedField)
	sc.each(reRange, func(_, line int, _ []arg) {
		sc.addField("id", udf.Prim(udf.Long), line, "spark.range")
	})
}

// createDataFrame reads the schema argument of a createDataFrame call,
// by keyword or as the second argument.
func (sc *schemaScan) createDataFrame(_, line int, args []arg) {
	var schema *arg
	for i := range args {
		if args[i].kw == "schema" || (args[i].kw == "" && i == 1) {
			schema = &args[i]
		}
	}
	if schema == nil || !sc.schemaArg(*schema, line, "createDataFrame", 0) {
		sc.addDoubt(doubt{line: line, what: "createDataFrame without a schema udfx can read"})
	}
}

// structField reads StructField(name, type, ...).
func (sc *schemaScan) structField(_, line int, args []arg) {
	if len(args) < 2 {
		return
	}
	name, ok := unquote(strings.TrimSpace(args[0].text), sc.lang)
	if !ok {
		return
	}
	t, err := udf.ParseType(strings.TrimSpace(args[1].text))
	if err != nil {
		sc.addDoubt(doubt{line: line, column: name, what: "a StructField whose type udfx cannot read"})
		return
	}
	sc.addField(name, t, line, "StructField")
}

// addedField reads StructType.add(name, type), the type a type object
// or a DDL string.
func (sc *schemaScan) addedField(_, line int, args []arg) {
	if len(args) < 2 {
		return
	}
	name, ok := unquote(strings.TrimSpace(args[0].text), sc.lang)
	if !ok {
		return
	}
	text := strings.TrimSpace(args[1].text)
	if s, ok := unquote(text, sc.lang); ok {
		text = s
	}
	if t, err := udf.ParseType(text); err == nil {
		sc.addField(name, t, line, "StructType.add")
	}
}

// unsureSources records the DataFrames whose columns' types the file
// does not show: read without a schema, read from a table by name, or
// made by toDF.
func (sc *schemaScan) unsureSources() {
	src := sc.src
	for _, m := range reRead.FindAllStringIndex(src, -1) {
		if sc.inLiteral(m[0]) || sc.skip(lineOf(src, m[0])) {
			continue
		}
		if loader := readLoader(src[m[1]:]); loader != "" {
			sc.addDoubt(doubt{line: lineOf(src, m[0]), what: "a DataFrame read with ." + loader + "(...) and no schema"})
		}
	}
	sc.each(reTable, func(_, line int, args []arg) {
		if len(args) == 1 {
			sc.addDoubt(doubt{line: line, what: "a table read by name (" + short(args[0].text) + ")"})
		}
	})
	sc.each(reToDF, func(_, line int, _ []arg) {
		sc.addDoubt(doubt{line: line, what: "a DataFrame made by toDF(...), whose types follow its data"})
	})
}

// redefinitions records the columns the file defines again (withColumn,
// withColumnRenamed, an alias, an SQL AS) and the temp views it
// registers.
func (sc *schemaScan) redefinitions() {
	sc.defines(reWithColumn, 0, "withColumn defines it")
	sc.defines(reRenamed, 1, "withColumnRenamed defines it")
	sc.defines(reAlias, 0, "an alias defines it")
	sc.each(reTempView, func(_, _ int, args []arg) {
		if len(args) >= 1 {
			if name, ok := unquote(strings.TrimSpace(args[0].text), sc.lang); ok {
				sc.sf.views[strings.ToLower(name)] = true
			}
		}
	})
	for _, l := range sc.lits {
		if sc.skip(lineOf(sc.src, l.start)) {
			continue
		}
		for _, m := range reSQLAs.FindAllStringSubmatch(l.value, -1) {
			sc.addDoubt(doubt{line: lineOf(sc.src, l.start), column: m[1], what: "a SQL alias (AS " + m[1] + ") defines it"})
		}
	}
}

// defines records a doubt on the column named by argument argIdx of
// each call re matches, with the argument after it as its new value.
func (sc *schemaScan) defines(re *regexp.Regexp, argIdx int, what string) {
	sc.each(re, func(_, line int, args []arg) {
		if len(args) > argIdx {
			if name, ok := unquote(strings.TrimSpace(args[argIdx].text), sc.lang); ok {
				d := doubt{line: line, column: name, what: what}
				if len(args) > argIdx+1 {
					d.value = strings.TrimSpace(args[argIdx+1].text)
				}
				sc.addDoubt(d)
			}
		}
	})
}

// sqlTables are the tables an SQL text reads that the file does not
// register as temp views.
func (sf *schemaFacts) sqlTables(sql string) []string {
	var out []string
	for _, m := range reSQLFrom.FindAllStringSubmatch(sql, -1) {
		if !sf.views[strings.ToLower(m[1])] {
			out = append(out, m[1])
		}
	}
	return out
}

// readLoader follows a .read chain (.format(...), .option(...), ...) to
// its loader; it returns the loader's name when the chain sets no schema,
// "" otherwise.
func readLoader(rest string) string {
	i := 0
	for steps := 0; steps < 32; steps++ {
		for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t' || rest[i] == '\n' || rest[i] == '\r' || rest[i] == '\\') {
			i++
		}
		if i >= len(rest) || rest[i] != '.' {
			return ""
		}
		i++
		j := i
		for j < len(rest) && (rest[j] == '_' || isAlnum(rest[j])) {
			j++
		}
		name := rest[i:j]
		if name == "schema" {
			return ""
		}
		if loaders[name] {
			return name
		}
		i = j
		for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
			i++
		}
		if i < len(rest) && rest[i] == '(' {
			end := closeParen(rest, i)
			if end < 0 {
				return ""
			}
			i = end + 1
		}
	}
	return ""
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// columnType is the schema's type of column name, or why there is none.
// harmless tells a doubt that cannot change the column's type (the UDF
// itself writing a value of the same type back to it).
func (sf *schemaFacts) columnType(name string, harmless func(doubt, *udf.Type) bool) (*udf.Type, string, error) {
	fs := sf.fields[name]
	if len(fs) == 0 {
		return nil, "", fmt.Errorf("no schema in the file declares a column %s", name)
	}
	for _, f := range fs[1:] {
		if !f.typ.Equal(fs[0].typ) {
			var ts []string
			for _, g := range fs {
				ts = append(ts, fmt.Sprintf("%s at line %d", g.typ, g.line))
			}
			return nil, "", fmt.Errorf("the file's schemas disagree on column %s: %s", name, strings.Join(ts, ", "))
		}
	}
	var ds []string
	for _, d := range sf.doubts {
		if (d.column == "" || d.column == name) && !harmless(d, fs[0].typ) {
			ds = append(ds, fmt.Sprintf("line %d: %s", d.line, d.what))
		}
	}
	if len(ds) > 0 {
		sort.Strings(ds)
		return nil, "", fmt.Errorf("the schema at line %d declares %s %s, but the column may come from elsewhere (%s)", fs[0].line, name, fs[0].typ, strings.Join(ds, "; "))
	}
	return fs[0].typ, fmt.Sprintf("%s at line %d: %s %s", fs[0].how, fs[0].line, name, fs[0].typ), nil
}

func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}
