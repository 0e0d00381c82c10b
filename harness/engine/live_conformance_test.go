package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// liveRandomRows is the number of seeded random rows per input schema,
// after the special rows that harness/inputs always generates.
const liveRandomRows = 24

// liveDefaultSeed is the seed of the inputs unless UDFX_CONFORMANCE_SEED
// sets another.
const liveDefaultSeed = 20260101

// liveMinExprs is the fewest distinct expressions the live test may check.
const liveMinExprs = 300

// liveMaxReport caps the differences printed; all are counted.
const liveMaxReport = 200

// liveRefusals lists the refusals the live test accepts: where the engine
// deliberately and loudly declines what it cannot reproduce exactly, as
// SUPPORTED.md documents. A key is what the engine names in its refusal:
// the "<what>" of a row's EMBEDDED_ENGINE_UNSUPPORTED message ("<what> is
// not supported by the embedded engine; ..."), the Name of a compile-time
// *UnsupportedFunctionError or the Construct of an *UnsupportedRegexError.
// Keyed by reason rather than by expression because generated inputs may
// meet a refusal in any expression that uses the function. A refusal not
// listed here fails the test, and so does a listed reason that no
// expression met (every one is met by the special values, whatever the
// seed), so the list stays exact. Every other difference fails regardless.
// The transcendental functions are not listed: where the engine refuses
// them without Options.ApproxMath, the test checks them with ApproxMath
// within 1 ulp instead.
var liveRefusals = map[string]string{
	"a date string with a signed year": "SUPPORTED.md CAST: dates yyyy[-m[m][-d[d]]]; '+1', '-1', '-0001-01-01' are refused per row",
	"a time-only timestamp string":     "SUPPORTED.md CAST: timestamps yyyy-mm-dd[ T]hh:mm...; Spark's time-only forms ('T12:00', 'True') are refused per row",
	"initcap() of a character whose case mapping in initcap the engine does not model": "full title-case mappings such as ß -> Ss, and the title case of letters Go's tables lack (conformanceExceptions initcap/*)",
	"a string ending in a line terminator matched against $":                           "SUPPORTED.md, Java regular expressions: `$` with a subject ending in a line terminator is refused per row",
	refuseFloatString:  "SUPPORTED.md CAST: JDK 17's Float.toString is not always shortest (1.17549435E-38, 8.9999995E9) while JDK 19+'s is; only values in classes checked on both JDKs are printed (conformanceExceptions cast/float-to-string)",
	refuseDoubleString: "SUPPORTED.md CAST: JDK 17's Double.toString is not always shortest (4.9E-324, 9.999999999999999E22) while JDK 19+'s is; only values in classes checked on both JDKs are printed (conformanceExceptions cast/double-to-string)",
	"format_number of a double that JDK 17 and JDK 19+ may format differently": "SUPPORTED.md format_number: DecimalFormat formats from the JDK's FloatingDecimal digits (907,685,812,672,397,310 for 9.076858E17F on JDK 17); refused per row unless the result cannot depend on them",
	"array_sort with a comparator on 32 or more elements":                      "SUPPORTED.md arrays: TimSort is reproduced for arrays under 32 elements, longer ones are refused per row",
	"regexp_extract_all with a pattern that can match the empty string":        "SUPPORTED.md strings: Java's Matcher.find reports empty matches RE2 skips; refused at compile time",
	"like with a non-constant pattern":                                         "SUPPORTED.md: patterns must be constants (LIKE over a column pattern is refused at compile time)",
}

type liveGroup struct {
	Columns []struct {
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"columns"`
	Exprs []string `json:"exprs"`
	IDs   []string `json:"ids"`
}

type liveRequestGroup struct {
	Columns any        `json:"columns"`
	Rows    [][]string `json:"rows"`
	Exprs   []string   `json:"exprs"`
}

type liveSparkResult struct {
	Type          *string           `json:"type"`
	AnalysisError *liveError        `json:"analysis_error"`
	Results       []json.RawMessage `json:"results"`
}

type liveError struct {
	Class     string `json:"class"`
	Condition string `json:"condition"`
}

type liveResponse struct {
	SparkVersion  string  `json:"spark_version"`
	Queries       int     `json:"queries"`
	ProjectedRows int     `json:"projected_rows"`
	Seconds       float64 `json:"seconds"`
	Groups        []struct {
		Rows [][]string                            `json:"rows"`
		ANSI map[string]map[string]liveSparkResult `json:"ansi"`
	} `json:"groups"`
}

// TestLiveConformance evaluates the engine's supported functions on freshly
// generated inputs (harness/inputs: every special value of the column types
// plus seeded random rows) in both the embedded engine and real Apache
// Spark (testdata/conformance/live.py, one local session, the settings of
// generate.py), with ANSI on and off, and compares result types and every
// row. Spark comes from $UDFX_PYTHON or the repository's .venv; without
// pyspark the test fails, it does not skip: CI installs Spark, and a
// conformance check that silently does nothing is worse than none.
//
// Set UDFX_CONFORMANCE_SEED to reproduce a failure with the seed it prints.
func TestLiveConformance(t *testing.T) {
	t.Parallel() // Spark's half runs in its own process; the other tests need not wait
	start := time.Now()
	py := livePython(t)
	seed := int64(liveDefaultSeed)
	if s := os.Getenv("UDFX_CONFORMANCE_SEED"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("UDFX_CONFORMANCE_SEED=%q: not an integer: %v", s, err)
		}
		seed = n
	}
	script := filepath.Join("testdata", "conformance", "live.py")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()

	// No __pycache__ in the source tree.
	env := append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	listCmd := exec.CommandContext(ctx, py, script, "exprs")
	listCmd.Env = env
	out, err := listCmd.Output()
	if err != nil {
		t.Fatalf("%s %s exprs: %v%s", py, script, err, stderrOf(err))
	}
	var list struct {
		Groups    []liveGroup `json:"groups"`
		Uncovered []string    `json:"uncovered"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("live.py exprs: %v", err)
	}
	groups := list.Groups
	if len(list.Uncovered) > 0 {
		t.Errorf("no live expression uses %s (items of the supported list): add some to EXTRA in live.py", strings.Join(list.Uncovered, ", "))
	}
	distinct := map[string]bool{}
	for _, g := range groups {
		for _, e := range g.Exprs {
			distinct[e] = true
		}
	}
	if len(distinct) < liveMinExprs {
		t.Errorf("only %d distinct live expressions, want at least %d", len(distinct), liveMinExprs)
	}

	// Inputs: one generated batch per input schema.
	cols := make([][]Column, len(groups))
	req := struct {
		Groups []liveRequestGroup `json:"groups"`
	}{}
	nexpr, nrows := 0, 0
	for gi, g := range groups {
		params := make([]inputs.Param, len(g.Columns))
		cols[gi] = make([]Column, len(g.Columns))
		for i, c := range g.Columns {
			ty, err := udf.ParseType(c.Type)
			if err != nil {
				t.Fatalf("column %s %s: %v", c.Name, c.Type, err)
			}
			params[i] = inputs.Param{Name: c.Name, Type: ty}
			cols[gi][i] = Column{Name: c.Name, Type: ty}
		}
		rows, err := liveInputs(params, seed)
		if err != nil {
			t.Fatalf("generating inputs for %v: %v", g.Columns, err)
		}
		req.Groups = append(req.Groups, liveRequestGroup{Columns: g.Columns, Rows: rows, Exprs: g.Exprs})
		nexpr += len(g.Exprs)
		nrows += len(rows) * len(g.Exprs)
	}

	dir := t.TempDir()
	reqPath, respPath := filepath.Join(dir, "request.json"), filepath.Join(dir, "response.json")
	data, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(reqPath, data, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, py, script, "eval", reqPath, respPath)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("real Spark (%s %s eval): %v\n%s", py, script, err, tail(stderr.String(), 6000))
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(line, "live.py: ") {
			t.Log(line)
		}
	}
	data, err = os.ReadFile(respPath)
	if err != nil {
		t.Fatal(err)
	}
	var resp liveResponse
	if err := json.Unmarshal(data, &resp); err != nil {
		t.Fatalf("live.py response: %v", err)
	}
	if len(resp.Groups) != len(groups) {
		t.Fatalf("live.py answered %d groups, asked %d", len(resp.Groups), len(groups))
	}

	rep := &liveReport{}
	changed := 0 // input values Spark holds differently from the generated ones
	var changedEx []string
	for gi, g := range groups {
		rg := resp.Groups[gi]
		if len(rg.Rows) != len(req.Groups[gi].Rows) {
			t.Fatalf("Spark holds %d rows of %v, %d were sent", len(rg.Rows), g.Columns, len(req.Groups[gi].Rows))
		}
		for i, row := range rg.Rows {
			if len(row) != len(g.Columns) {
				t.Fatalf("Spark's row %d of %v has %d values", i, g.Columns, len(row))
			}
			for j, tok := range row {
				if sent := req.Groups[gi].Rows[i][j]; tok != sent {
					if changed < 20 {
						changedEx = append(changedEx, sent+" -> "+tok)
					}
					changed++
				}
			}
		}
		rec, err := liveBatch(cols[gi], rg.Rows)
		if err != nil {
			t.Fatalf("input rows read back from Spark (%v): %v", g.Columns, err)
		}
		for _, mode := range []struct {
			key  string
			ansi bool
		}{{"on", true}, {"off", false}} {
			for ei, e := range g.Exprs {
				sr, ok := rg.ANSI[mode.key][e]
				if !ok {
					t.Fatalf("live.py has no result for %q (ANSI %s)", e, mode.key)
				}
				rep.check(&liveCheck{id: g.IDs[ei], expr: e, ansi: mode.ansi, cols: cols[gi], rows: rg.Rows}, rec, sr)
			}
		}
		rec.Release()
	}
	for key, why := range liveRefusals {
		if !rep.refused[key] {
			t.Errorf("liveRefusals lists %q (%s), which no expression met on these inputs: remove it", key, why)
		}
	}
	t.Logf("Spark %s: %d distinct expressions, %d (expression, input types) pairs over %d input schemas, %d expression-rows, ANSI on and off; "+
		"%d Spark queries, %d rows located by projection; Spark %.0fs, total %s; seed %d",
		resp.SparkVersion, len(distinct), nexpr, len(groups), nrows, resp.Queries, resp.ProjectedRows, resp.Seconds,
		time.Since(start).Round(time.Second), seed)
	t.Logf("%d generated input values are held differently by Spark (both engines evaluate Spark's): %s", changed, strings.Join(changedEx, ", "))
	t.Logf("exact: %d (expression, mode) pairs; within 1 ulp (ApproxMath): %d; analysis errors in both: %d; "+
		"listed refusals: %d pairs, %d rows",
		rep.exact, rep.approx, rep.analysis, rep.refusedPairs, rep.refusedRows)
	if len(rep.diffs) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "%d differences between the embedded engine and Spark %s in %d (expression, mode) pairs "+
			"(seed %d; reproduce with UDFX_CONFORMANCE_SEED=%d go test ./harness/engine -run TestLiveConformance)\n",
			rep.ndiff, resp.SparkVersion, len(rep.diffs), seed, seed)
		var full strings.Builder
		shown := 0
		for _, d := range rep.diffs {
			for _, line := range d {
				full.WriteString(line + "\n")
				if shown < liveMaxReport {
					b.WriteString(line + "\n")
				}
				shown++
			}
		}
		if shown > liveMaxReport {
			fmt.Fprintf(&b, "... %d more lines (set UDFX_CONFORMANCE_REPORT=FILE to write them all)\n", shown-liveMaxReport)
		}
		if path := os.Getenv("UDFX_CONFORMANCE_REPORT"); path != "" {
			if err := os.WriteFile(path, []byte(full.String()), 0o644); err != nil {
				t.Errorf("writing UDFX_CONFORMANCE_REPORT: %v", err)
			}
		}
		t.Error(b.String())
	}
}

// livePython finds the interpreter with pyspark as the Python runner does
// ($UDFX_PYTHON, else a .venv above the working directory, else python3)
// and fails the test when pyspark is not importable.
func livePython(t *testing.T) string {
	t.Helper()
	py := os.Getenv("UDFX_PYTHON")
	if py == "" {
		if wd, err := os.Getwd(); err == nil {
			for d := wd; ; d = filepath.Dir(d) {
				p := filepath.Join(d, ".venv", "bin", "python")
				if st, err := os.Stat(p); err == nil && !st.IsDir() {
					py = p
					break
				}
				if filepath.Dir(d) == d {
					break
				}
			}
		}
	}
	if py == "" {
		py = "python3"
	}
	out, err := exec.Command(py, "-c", "import pyspark; print(pyspark.__version__)").CombinedOutput()
	if err != nil {
		t.Fatalf("TestLiveConformance needs real Apache Spark: %s cannot import pyspark (%v: %s).\n"+
			"Any package's tests create it on first use (harness/testsetup), or `python3 -m venv .venv && .venv/bin/pip install -r harness/pyenv/requirements.txt`, "+
			"or point UDFX_PYTHON at a Python with pyspark (and a JDK 17 on the machine).",
			py, err, strings.TrimSpace(tail(string(out), 500)))
	}
	return py
}

// liveInputs generates the rows of one input schema as value tokens: the
// specials and all-null rows, then liveRandomRows random ones.
func liveInputs(params []inputs.Param, seed int64) ([][]string, error) {
	_, st, err := inputs.Generate(params, inputs.Options{Seed: seed, Rows: 1}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	rec, _, err := inputs.Generate(params, inputs.Options{Seed: seed, Rows: st.Rows + liveRandomRows}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	rows := make([][]string, rec.NumRows())
	for i := range rows {
		rows[i] = make([]string, rec.NumCols())
		for j := range rows[i] {
			rows[i][j] = value.Token(value.FromArrow(rec.Column(j), i))
		}
	}
	return rows, nil
}

// liveBatch builds the engine's input from the rows as Spark holds them.
func liveBatch(cols []Column, rows [][]string) (arrow.RecordBatch, error) {
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	defer func() {
		for _, a := range arrs {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, c := range cols {
		at, err := value.ArrowType(c.Type)
		if err != nil {
			return nil, err
		}
		b := array.NewBuilder(memory.DefaultAllocator, at)
		for _, row := range rows {
			if len(row) != len(cols) {
				b.Release()
				return nil, fmt.Errorf("row of %d values for %d columns", len(row), len(cols))
			}
			v, err := value.ParseToken(row[i])
			if err == nil {
				err = value.Append(b, v)
			}
			if err != nil {
				b.Release()
				return nil, fmt.Errorf("column %s value %q: %w", c.Name, row[i], err)
			}
		}
		arrs[i] = b.NewArray()
		b.Release()
		fields[i] = arrow.Field{Name: c.Name, Type: at, Nullable: true}
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(len(rows))), nil
}

type liveCheck struct {
	id, expr string
	ansi     bool
	cols     []Column
	rows     [][]string
}

func (c *liveCheck) header() string {
	mode := "off"
	if c.ansi {
		mode = "on"
	}
	return fmt.Sprintf("%s [ANSI %s] (%s)", c.expr, mode, c.id)
}

// input renders row i for the report: tokens and readable values.
func (c *liveCheck) input(i int) string {
	parts := make([]string, len(c.cols))
	for j, col := range c.cols {
		tok := c.rows[i][j]
		readable := "?"
		if v, err := value.ParseToken(tok); err == nil {
			readable = v.String()
		}
		parts[j] = fmt.Sprintf("%s=%s (%s)", col.Name, shorten(tok), shorten(readable))
	}
	return strings.Join(parts, ", ")
}

type liveReport struct {
	diffs                     [][]string
	ndiff                     int
	exact, approx, analysis   int
	refusedPairs, refusedRows int
	refused                   map[string]bool // liveRefusals keys met
}

// accept reports whether key is a listed refusal, and records that it was met.
func (r *liveReport) accept(key string) bool {
	if _, ok := liveRefusals[key]; !ok {
		return false
	}
	if r.refused == nil {
		r.refused = map[string]bool{}
	}
	r.refused[key] = true
	return true
}

// compileRefusalKey is the liveRefusals key of a compile-time refusal.
func compileRefusalKey(err error) string {
	var uf *UnsupportedFunctionError
	var ur *UnsupportedRegexError
	switch {
	case errors.As(err, &uf):
		return uf.Name
	case errors.As(err, &ur):
		return ur.Construct
	}
	return err.Error()
}

// rowRefusalKey is the liveRefusals key of an EMBEDDED_ENGINE_UNSUPPORTED
// row: the "<what>" of "<what> is not supported by the embedded engine...".
func rowRefusalKey(msg string) string {
	if i := strings.Index(msg, " is not supported by the embedded engine"); i >= 0 {
		return msg[:i]
	}
	return msg
}

// sparkOutcome summarises Spark's answer for a compile-time refusal.
func sparkOutcome(sr liveSparkResult) string {
	if sr.Type == nil {
		return "rejects it at analysis (" + sr.AnalysisError.Condition + ")"
	}
	return "type " + *sr.Type
}

// add records the differences of one (expression, mode) pair; only the
// first few rows of a pair are kept for printing, all are counted.
func (r *liveReport) add(lines []string, n int) {
	if n == 0 {
		return
	}
	r.ndiff += n
	if len(lines) > 6 {
		lines = append(lines[:6:6], fmt.Sprintf("    ... %d more rows differ", n-5))
	}
	r.diffs = append(r.diffs, lines)
}

func (r *liveReport) check(c *liveCheck, rec arrow.RecordBatch, sr liveSparkResult) {
	var lines []string
	n := 0
	fail := func(format string, args ...any) {
		if n == 0 {
			lines = append(lines, c.header()+":")
		}
		n++
		lines = append(lines, "    "+fmt.Sprintf(format, args...))
	}
	defer func() { r.add(lines, n) }()

	e, err := Compile(c.expr, c.cols, Options{ANSI: c.ansi})
	approx := false
	var uf *UnsupportedFunctionError
	if errors.As(err, &uf) && uf.Approx {
		e, err = Compile(c.expr, c.cols, Options{ANSI: c.ansi, ApproxMath: true})
		approx = true
	}
	if err != nil && isNamedRefusal(err) {
		// Declined at compile time: loud, whatever Spark does with it.
		if r.accept(compileRefusalKey(err)) {
			r.refusedPairs++
			return
		}
		fail("refused at compile time (%v), a reason not listed in liveRefusals; Spark: %s", err, sparkOutcome(sr))
		return
	}
	if sr.Type == nil {
		var te *TypeError
		switch {
		case err == nil:
			fail("compiles to %s; Spark rejects it at analysis: %s", e.Type(), sr.AnalysisError.Condition)
		case errors.As(err, &te):
			r.analysis++
		default:
			fail("compile error %v; Spark rejects it at analysis: %s", err, sr.AnalysisError.Condition)
		}
		return
	}
	if err != nil {
		fail("compile error %v; Spark's type is %s", err, *sr.Type)
		return
	}
	if got := e.Type().String(); got != *sr.Type {
		fail("result type %s; Spark's is %s", got, *sr.Type)
	}
	res, err := e.Eval(rec, memory.DefaultAllocator)
	if err != nil {
		fail("eval: %v", err)
		return
	}
	defer res.Values.Release()
	if len(sr.Results) != int(rec.NumRows()) {
		fail("Spark gave %d results for %d rows", len(sr.Results), rec.NumRows())
		return
	}
	rowErrs := map[int]RowError{}
	for _, re := range res.Errors {
		rowErrs[re.Row] = re
	}
	gotAt := func(i int) value.Value {
		if res.Values.DataType().ID() == arrow.NULL {
			return value.NullValue()
		}
		return value.FromArrow(res.Values, i)
	}
	policy := value.Policy{}
	if approx {
		policy.ULP = 1
	}
	refusedRows := 0
	for i, raw := range sr.Results {
		re, hasErr := rowErrs[i]
		var want string
		var wantVal value.Value
		var ee struct {
			Error *liveError `json:"error"`
		}
		sparkErr := json.Unmarshal(raw, &ee) == nil && ee.Error != nil
		if sparkErr {
			want = "raises " + ee.Error.Condition + " (" + ee.Error.Class + ")"
		} else {
			if err := json.Unmarshal(raw, &want); err != nil {
				fail("row %d: Spark result %s: %v", i, raw, err)
				continue
			}
			if wantVal, err = value.ParseToken(want); err != nil {
				fail("row %d: Spark result token %q: %v", i, want, err)
				continue
			}
			want = shorten(want) + " (" + shorten(wantVal.String()) + ")"
		}
		if hasErr && re.Condition == CondUnsupported {
			if r.accept(rowRefusalKey(re.Message)) {
				refusedRows++
			} else {
				fail("row %d: %s: refused (%s), a reason not listed in liveRefusals; Spark %s", i, c.input(i), shorten(re.Message), want)
			}
			continue
		}
		var got string
		if hasErr {
			got = "raises " + re.Condition + " (" + re.Class + ")"
		} else {
			v := gotAt(i)
			got = shorten(value.Token(v)) + " (" + shorten(v.String()) + ")"
		}
		switch {
		case sparkErr && hasErr && re.Condition == ee.Error.Condition:
		case sparkErr:
			fail("row %d: %s: Spark %s, engine %s", i, c.input(i), want, got)
		case hasErr:
			fail("row %d: %s: Spark %s, engine %s", i, c.input(i), want, got)
		case !policy.Equal(wantVal, gotAt(i)):
			fail("row %d: %s: Spark %s, engine %s", i, c.input(i), want, got)
		}
	}
	if refusedRows > 0 {
		r.refusedPairs++
		r.refusedRows += refusedRows
	}
	if n == 0 {
		if approx {
			r.approx++
		} else {
			r.exact++
		}
	}
}

// shorten keeps report lines readable: long tokens and strings (the
// specials include 10,000-character strings) are cut at a rune boundary.
func shorten(s string) string {
	const max = 120
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("...(%d bytes)", len(s))
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

func stderrOf(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return "\n" + tail(string(ee.Stderr), 4000)
	}
	return ""
}
