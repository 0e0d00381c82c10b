package difftest

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/value"
)

// Report is the outcome of one differential test. Its JSON form is what
// `udfx test --format json` prints (docs/test-json.md).
type Report struct {
	UDF      string `json:"udf"`
	Language string `json:"language"`
	File     string `json:"file"`
	// Runtime names the real runtime the original ran in.
	Runtime string `json:"original_runtime"`
	// PythonUnicode is the version of the Unicode database of the
	// CPython a Python original ran in; rewrites that follow CPython's
	// Unicode (case mapping, digits) are exact for that version only.
	PythonUnicode string `json:"python_unicode,omitempty"`
	// JDK is the feature version of the JDK a Scala or Java original ran
	// on ("17"); rewrites that follow the JDK's case mappings are exact
	// for that version only.
	JDK        string `json:"jdk,omitempty"`
	RewriteSQL string `json:"rewrite_sql"`
	// RewriteFile is the rewrite module a Python rewrite (engine cpython)
	// was loaded from.
	RewriteFile string `json:"rewrite_file,omitempty"`
	Engine      string `json:"engine"`
	// EngineVersion and Master name the Spark that ran a test with engine
	// spark.
	EngineVersion string `json:"engine_version,omitempty"`
	Master        string `json:"spark_master,omitempty"`
	// CometVersion is the DataFusion Comet plugin's version for engine
	// comet (Spark with Comet).
	CometVersion string `json:"comet_version,omitempty"`
	ANSI         bool   `json:"ansi"`
	// Policy is the comparison used: with ApproxMath (the rewrite uses
	// functions the engine computes within 1 ulp of the JVM) one ulp
	// tighter than the user asked for.
	Policy           value.Policy `json:"policy"`
	ApproxMath       bool         `json:"approx_math"`
	AllowErrorToNull bool         `json:"allow_error_to_null"`
	Seed             int64        `json:"seed"`
	Rows             int          `json:"rows"`
	SpecialRows      int          `json:"special_rows"`
	NullRows         int          `json:"null_rows"`
	SampleRows       int          `json:"sample_rows"`
	// NearMissRows are the rows built from the literals of the original
	// and the rewrite (Options.NearMisses), last.
	NearMissRows int `json:"near_miss_rows,omitempty"`
	// LeftOutRows are rows of Rows not compared: on Spark with
	// Options.LeaveOutThrowingRows, those on which the original throws in
	// udfx's own runner.
	LeftOutRows int `json:"left_out_rows,omitempty"`
	// OneByOneRows are rows of Rows compared on Spark one row a job
	// (Options.ProveThrowingRows): those on which the original throws in
	// udfx's own runner.
	OneByOneRows int `json:"one_by_one_rows,omitempty"`
	// LongArrayRows are rows of Rows past the generated ones: the long
	// float arrays a Python rewrite is also tested on
	// (inputs.LongArrayRows).
	LongArrayRows int `json:"long_array_rows,omitempty"`
	// OriginalExceptions and RewriteExceptions count rows that threw, by
	// exception class (Spark error condition for the rewrite).
	OriginalExceptions map[string]int `json:"original_exceptions"`
	RewriteExceptions  map[string]int `json:"rewrite_exceptions"`
	// ErrorRowsMatched counts rows where both threw; ErrorRowsNull rows
	// where the original threw and the rewrite gave NULL (accepted only
	// with AllowErrorToNull).
	ErrorRowsMatched int             `json:"error_rows_matched"`
	ErrorRowsNull    int             `json:"error_rows_null"`
	Mismatches       int             `json:"mismatches"`
	Counterexample   *Counterexample `json:"counterexample,omitempty"`
	Equal            bool            `json:"equal"`
	OriginalSeconds  float64         `json:"original_seconds"`
	RewriteSeconds   float64         `json:"rewrite_seconds"`
	// Refuted says why the test failed when no row says it: the rewrite's
	// Spark plan still holds a UDF node, or its Spark job failed.
	Refuted string `json:"refuted,omitempty"`
	// Plans are Spark's executed physical plans of both sides (engine
	// spark only).
	Plans *evidence.Plans `json:"plans,omitempty"`
}

// Counterexample is a minimal input on which the original and the rewrite
// disagree.
type Counterexample struct {
	Inputs   []NamedValue `json:"inputs"`
	Original JSONValue    `json:"original"`
	Rewrite  JSONValue    `json:"rewrite"`
	// Row is the first failing row of the generated inputs; Shrunk says
	// whether the inputs were simplified from it.
	Row    int  `json:"row"`
	Shrunk bool `json:"shrunk"`
	// Batch, when set, is the size of the batch the rewrite was called
	// on when it gave Rewrite: it agreed with the original when called
	// on the row alone.
	Batch int `json:"batch,omitempty"`
}

// NamedValue is a parameter's value.
type NamedValue struct {
	Name  string    `json:"name"`
	Value JSONValue `json:"value"`
}

// JSONValue writes a value both for people and exactly (as its token).
type JSONValue struct{ value.Value }

func (v JSONValue) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Text  string `json:"text"`
		Token string `json:"token"`
	}{v.String(), value.Token(v.Value)})
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// WriteText writes the report for people.
func (r *Report) WriteText(w io.Writer) error {
	verdict := "EQUAL"
	if !r.Equal {
		verdict = "MISMATCH"
	}
	ansi := "off (Spark 3.5 default)"
	if r.ANSI {
		ansi = "on (Spark 4 default)"
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s (%s, %s)\n", "udf", r.UDF, r.Language, r.File)
	fmt.Fprintf(tw, "%s\t%s\n", "original", r.Runtime)
	if r.RewriteFile != "" {
		fmt.Fprintf(tw, "%s\t%s\n", "rewrite", r.RewriteFile)
	} else {
		fmt.Fprintf(tw, "%s\t%s\n", "rewrite", r.RewriteSQL)
	}
	switch r.Engine {
	case "spark":
		fmt.Fprintf(tw, "%s\tApache Spark %s (%s), both sides in one session, ANSI %s\n", "engine", r.EngineVersion, r.Master, ansi)
	case "comet":
		fmt.Fprintf(tw, "%s\tApache Spark %s with DataFusion Comet %s (%s), both sides in one session, ANSI %s\n", "engine", r.EngineVersion, r.CometVersion, r.Master, ansi)
	default:
		fmt.Fprintf(tw, "%s\t%s engine, ANSI %s\n", "engine", r.Engine, ansi)
	}
	if r.ApproxMath {
		fmt.Fprintf(tw, "%s\t%s\n", "approximate", "transcendental functions within 1 ulp of the JVM; compared with 1 ulp less tolerance")
	}
	fmt.Fprintf(tw, "%s\t%s\n", "policy", r.policyText())
	near := ""
	if r.NearMissRows > 0 {
		near = fmt.Sprintf(", %d near misses of the literals", r.NearMissRows)
	}
	fmt.Fprintf(tw, "%s\t%d (%d special-value rows, %d all-null rows, %d sample rows%s; seed %d)\n", "rows", r.Rows, r.SpecialRows, r.NullRows, r.SampleRows, near, r.Seed)
	if r.LongArrayRows > 0 {
		fmt.Fprintf(tw, "%s\t%d rows of long float arrays (%d to %d elements) after the generated ones\n", "long arrays", r.LongArrayRows, inputs.LongArrayLengths[0], inputs.LongArrayLengths[len(inputs.LongArrayLengths)-1])
	}
	if r.LeftOutRows > 0 {
		fmt.Fprintf(tw, "%s\t%d rows on which the original throws in udfx's runner (Spark stops a job at its first exception)\n", "left out", r.LeftOutRows)
	}
	if r.OneByOneRows > 0 {
		fmt.Fprintf(tw, "%s\t%d rows on which the original throws, each run as a Spark job of its own (a job stops at its first exception)\n", "one by one", r.OneByOneRows)
	}
	fmt.Fprintf(tw, "%s\t%s\n", "original threw", countText(r.OriginalExceptions))
	fmt.Fprintf(tw, "%s\t%s\n", "rewrite threw", countText(r.RewriteExceptions))
	if r.ErrorRowsMatched+r.ErrorRowsNull > 0 {
		fmt.Fprintf(tw, "%s\t%d rows threw in both", "error rows", r.ErrorRowsMatched)
		if r.ErrorRowsNull > 0 {
			fmt.Fprintf(tw, "; %d rows threw in the original and gave NULL in the rewrite (accepted by --allow-error-to-null)", r.ErrorRowsNull)
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprintf(tw, "%s\t%d\n", "mismatches", r.Mismatches)
	fmt.Fprintf(tw, "%s\t%.3fs original, %.3fs rewrite\n", "time", r.OriginalSeconds, r.RewriteSeconds)
	if p := r.Plans; p != nil {
		fmt.Fprintf(tw, "%s\t%s; %d row/columnar transitions\n", "original plan", udfNodesText(p.Original.UDFNodes), p.Original.Transitions)
		fmt.Fprintf(tw, "%s\t%s; %d row/columnar transitions\n", "rewrite plan", udfNodesText(p.Rewrite.UDFNodes), p.Rewrite.Transitions)
		if p.Original.Native != nil && p.Rewrite.Native != nil {
			fmt.Fprintf(tw, "%s\t%s\n", "original native", p.Original.Native.Line())
			fmt.Fprintf(tw, "%s\t%s\n", "rewrite native", p.Rewrite.Native.Line())
		}
	}
	if r.Refuted != "" {
		fmt.Fprintf(tw, "%s\t%s\n", "refuted", r.Refuted)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if ce := r.Counterexample; ce != nil {
		how := "first failing row"
		if ce.Shrunk {
			how = fmt.Sprintf("shrunk from row %d", ce.Row)
		}
		if ce.Batch > 0 {
			how = fmt.Sprintf("row %d in a batch of %d rows; called on the row alone the rewrite agreed", ce.Row, ce.Batch)
		}
		fmt.Fprintf(w, "\nminimal counterexample (%s):\n", how)
		for _, in := range ce.Inputs {
			fmt.Fprintf(w, "  %s = %s\n", in.Name, in.Value)
		}
		fmt.Fprintf(w, "  original → %s\n", ce.Original)
		fmt.Fprintf(w, "  rewrite  → %s\n", ce.Rewrite)
	}
	compared := r.Rows - r.LeftOutRows
	_, err := fmt.Fprintf(w, "\n%s: %d of %d rows agree\n", verdict, compared-r.Mismatches, compared)
	return err
}

func udfNodesText(nodes []string) string {
	if len(nodes) == 0 {
		return "no UDF node"
	}
	return fmt.Sprintf("%d UDF nodes: %s", len(nodes), strings.Join(nodes, "; "))
}

func (r *Report) policyText() string {
	s := r.Policy.String()
	if r.AllowErrorToNull {
		s += "; NULL accepted where the original throws"
	} else {
		s += "; the rewrite must fail where the original throws"
	}
	return s
}

func countText(m map[string]int) string {
	if len(m) == 0 {
		return "0 rows"
	}
	names := make([]string, 0, len(m))
	total := 0
	for k, n := range m {
		names = append(names, k)
		total += n
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = fmt.Sprintf("%s ×%d", k, m[k])
	}
	return fmt.Sprintf("%d rows (%s)", total, strings.Join(parts, ", "))
}
