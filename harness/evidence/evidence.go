// Package evidence is the record that proves a rewrite: what was tested
// (hashes of the original's source span, of each rewrite file, of the spec
// and of the inputs), how (seed, rows, engine and its settings, comparison
// policy) and with what result. `udfx rewrite` writes one per UDF; `udfx
// verify` re-checks it in CI. The schema is documented in
// docs/evidence-json.md; fields are only ever added within a version.
package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/udfx/udfx/harness/plan"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// SchemaVersion of the record.
const SchemaVersion = 1

// Dir is the folder, at the repository root, that holds the rewrites and
// their records: Dir/<udf>/evidence.json beside the rewrite files.
const Dir = "udfx-rewrites"

// FileName is the record's name in its folder.
const FileName = "evidence.json"

// Record is one UDF's evidence.
type Record struct {
	SchemaVersion int    `json:"schema_version"`
	Tool          string `json:"tool"` // "udfx <version>"
	// Original names the UDF: its file (relative to the repository root,
	// slash-separated), name, language, and the sha256 of the source text
	// of its definition span. Editing the UDF changes the hash: the record
	// is then stale.
	Original Original `json:"original"`
	// Rewrites are the files udfx wrote for this UDF, each with its
	// target, path (relative to the repository root) and sha256.
	Rewrites []RewriteFile `json:"rewrites"`
	// SpecSHA256 hashes the spec (signature, types) the test used;
	// InputsSHA256 the Arrow IPC bytes of the generated inputs.
	SpecSHA256   string `json:"spec_sha256"`
	InputsSHA256 string `json:"inputs_sha256"`
	Seed         int64  `json:"seed"`
	Rows         int    `json:"rows"`
	// Engine is "embedded" or "spark", and its settings.
	Engine Engine       `json:"engine"`
	Policy value.Policy `json:"policy"`
	// AllowErrorToNull records whether NULL was accepted where the
	// original threw.
	AllowErrorToNull bool `json:"allow_error_to_null"`
	// Result is "verified" only when the differential test passed.
	Result     string      `json:"result"`
	Mismatches int         `json:"mismatches"`
	Benchmarks []Benchmark `json:"benchmarks"`
	// Plans are Spark's physical plans of the original's query and the
	// rewritten one, when the test ran on Spark: the rewritten plan holds
	// no UDF node, the original's shows the boundary that was removed.
	Plans *Plans `json:"plans,omitempty"`
	// UseSites are the edits the patch makes where the job calls the UDF:
	// the proved expression inlined into the job's code. verify checks
	// that each still holds what rewrite.sql gives for that call, so the
	// code that runs is the code that was proved.
	UseSites []UseSite `json:"use_sites,omitempty"`
	// TypeSources say where the Spark type of each parameter and of the
	// return value came from (the source, a --types flag, the schema of
	// the column the UDF is applied to, ...): the test holds for these
	// types only. Records written before this field have none.
	TypeSources []TypeSource `json:"type_sources,omitempty"`
	// PerType is set when some parameter's type no source gives: the SQL
	// rewrite is a type guard (sparksql.TypeGuard) over one branch per
	// entry, and each entry is a differential test of the whole guard
	// with those types. The top-level hashes and result are the first
	// entry's. verify composes the guard again from the entries and
	// re-runs every one.
	PerType []TypedProof `json:"per_type,omitempty"`
	// Artifacts are what udfx compiled and packaged from the columnar and
	// cuda rewrite files: the RapidsUDF jar a job adds to spark.jars.
	// verify checks their hashes where the jar is present.
	Artifacts []Artifact `json:"artifacts,omitempty"`
	// PythonUnicode is set when the rewrite follows CPython's Unicode
	// database (str.lower(), str.upper(), the digits float() reads): the
	// version (unicodedata.unidata_version) of the CPython the original
	// was tested on. verify fails when the CPython it re-runs with has
	// another.
	PythonUnicode string `json:"python_unicode,omitempty"`
	// JDKCase is set when the rewrite follows the JDK's case mappings
	// (String.toUpperCase()): the feature version of the JDK the original
	// was tested on. verify fails when the JDK it re-runs with has
	// another.
	JDKCase string `json:"jdk_case,omitempty"`
	// Spark is the Spark version the proof holds for and where udfx took
	// it from: the repository's declaration, --spark, or its own default.
	// Records without it were proved for Spark 4.1.
	Spark *SparkTarget `json:"spark,omitempty"`
}

// Artifact is one built file (a jar) and what went into it.
type Artifact struct {
	// Targets are the rewrites compiled into it (columnar, cuda).
	Targets []string `json:"targets"`
	// Path is the jar, relative to the repository root (slash-separated;
	// it lies in the .udfx workspace, not in the patch); SHA256 its hash.
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	// Entries are the files packaged in it, each with its hash.
	Entries []ArtifactEntry `json:"entries"`
	// Built says how: the compilers and their flags, the jars compiled
	// against (with their sha256s' prefixes).
	Built []string `json:"built"`
}

// ArtifactEntry is one file in an artifact.
type ArtifactEntry struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// UseSite is one inlined call of the rewrite in the job's code.
type UseSite struct {
	// File is the source file (relative to the repository root,
	// slash-separated) and Kind the use site's kind (call, sql).
	File string `json:"file"`
	Kind string `json:"kind"`
	// Span is where the new text lies in the file as the patch leaves it.
	// Before and After are the text on its lines around it: where lines
	// above it moved, verify finds the site by them. Every copy of New in
	// the file must be a recorded site in the code, so a copy in a
	// comment cannot stand in for an edited site.
	Span   udf.Span `json:"span"`
	Before string   `json:"before,omitempty"`
	After  string   `json:"after,omitempty"`
	// Old is the call the patch replaced; New the text it wrote, which
	// verify derives again from Old and rewrite.sql. NewSHA256 is
	// SHA256 of New.
	Old       string `json:"old"`
	New       string `json:"new"`
	NewSHA256 string `json:"new_sha256"`
}

// TypeSource is the type of one parameter ("return" for the return value)
// and where it came from; the values are those of udf.TypeSource.
type TypeSource struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Source string `json:"source"`
	Detail string `json:"detail,omitempty"`
}

// TypedProof is the test of a type-guarded rewrite for one assignment of
// types to the parameters no source types.
type TypedProof struct {
	// Types names each such parameter and the Spark type it was given.
	Types []ParamType `json:"types"`
	// SQL is the branch the guard takes for these types.
	SQL          string `json:"sql"`
	SpecSHA256   string `json:"spec_sha256"`
	InputsSHA256 string `json:"inputs_sha256"`
	Result       string `json:"result"`
	Mismatches   int    `json:"mismatches"`
}

// ParamType is one parameter's Spark type.
type ParamType struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Plans is the plan evidence of a test on Spark.
type Plans struct {
	Original Plan `json:"original"`
	Rewrite  Plan `json:"rewrite"`
}

// Plan is one executed physical plan and what it says.
type Plan struct {
	Text string `json:"text"`
	// UDFNodes are the plan's UDF nodes and what they call
	// ("BatchEvalPython [to_fahrenheit(temperature#0)]").
	UDFNodes []string `json:"udf_nodes"`
	// Transitions counts row/columnar transitions.
	Transitions int `json:"transitions"`
	// Native is what Comet ran natively of this query (engine comet):
	// operators accelerated, transitions, fallback reasons, and whether
	// the projection that computes the result runs natively.
	Native *plan.NativeCoverage `json:"native,omitempty"`
}

// Original identifies the UDF a record proves a rewrite of.
type Original struct {
	File     string `json:"file"`
	Name     string `json:"name"`
	Language string `json:"language"`
	// Kind is the UDF's kind where verify checks it its own way:
	// "rdd-pipeline" (the chain's value is replaced by the patch, so the
	// chain is found again from the recorded use site). Empty otherwise.
	Kind string `json:"kind,omitempty"`
	// SpanSHA256 is SpanHash of the definition's source text.
	SpanSHA256 string `json:"span_sha256"`
	// SignatureSHA256 is SignatureHash of the UDF as the front-end reads
	// it (parameter and return types, wherever in the file they are
	// declared). Empty in records of an udfx that did not check it.
	SignatureSHA256 string `json:"signature_sha256,omitempty"`
	// DependsOn is what the UDF's meaning depends on outside its span, as
	// Dependencies finds it: the body when the span is only a wrapping
	// call, the registrations (with their declared return types), and the
	// module-level names the body reads in the same file.
	DependsOn []Dependency `json:"depends_on,omitempty"`
	// Factory is, for a UDF a function makes (udf.Factory), that
	// function and the literals the proof called it with: what verify
	// calls it with once --apply has replaced every call of it.
	Factory *Factory `json:"factory,omitempty"`
}

// Factory is the function that made the proved UDF and its arguments.
type Factory struct {
	Name string       `json:"name"`
	Args []FactoryArg `json:"args"`
}

// FactoryArg is one parameter and the Python literal it was given.
type FactoryArg struct {
	Param   string `json:"param"`
	Literal string `json:"literal"`
}

// FactoryOf is what a record keeps of u's factory; nil when u has none
// or its calls give no one set of literals.
func FactoryOf(u *udf.UDF) *Factory {
	if _, ok := u.Factory.Callable(); !ok {
		return nil
	}
	f := &Factory{Name: u.Factory.Name, Args: []FactoryArg{}}
	for _, a := range u.Factory.Args {
		f.Args = append(f.Args, FactoryArg{Param: a.Param, Literal: a.Literal})
	}
	return f
}

// RewriteFile is one file a rewrite consists of.
type RewriteFile struct {
	Target string `json:"target"` // sql, columnar, cuda
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	// Note says how far a file was checked when the differential test
	// could not run it here (a RapidsUDF without a GPU; a CUDA kernel
	// checked only through its host-built per-row function).
	Note string `json:"note,omitempty"`
}

// Engine says where the rewrite was evaluated.
type Engine struct {
	Name string `json:"name"`
	ANSI bool   `json:"ansi"`
	// Version is Spark's version for engine spark.
	Version string `json:"version,omitempty"`
	// Master is the Spark master (local[2], spark://..., yarn) or the
	// Spark Connect remote (sc://...) the test ran on.
	Master string `json:"master,omitempty"`
	// Comet is the DataFusion Comet version for engine comet (Spark with
	// the Comet plugin), as the running plugin reported it.
	Comet string `json:"comet,omitempty"`
}

// SparkTarget is the Spark a proof holds for.
type SparkTarget struct {
	// Version is major.minor ("4.1").
	Version string `json:"version"`
	// From says where it came from: "requirements.txt:3: pyspark==4.1.1",
	// "--spark" or "udfx's default".
	From string `json:"from"`
	// ANSI is spark.sql.ansi.enabled where the project states it (udfx.yaml's
	// spark: ansi:), ANSIFrom where; absent, the version's default (off in
	// 3.5, on from 4.0). Engine.ANSI says the mode the proof ran in.
	ANSI     *bool  `json:"ansi,omitempty"`
	ANSIFrom string `json:"ansi_from,omitempty"`
}

// Mode is the ANSI mode the target runs its jobs in: the stated one, else
// the version's default (defaultANSI).
func (t *SparkTarget) Mode(defaultANSI func(minor string) bool) bool {
	if t.ANSI != nil {
		return *t.ANSI
	}
	return defaultANSI(t.Version)
}

// Benchmark is one measured comparison, original vs a rewrite, from the
// same run.
type Benchmark struct {
	Target          string  `json:"target"`
	Rows            int     `json:"rows"`
	Runs            int     `json:"runs"`
	OriginalMedianS float64 `json:"original_median_s"`
	RewriteMedianS  float64 `json:"rewrite_median_s"`
	Speedup         float64 `json:"speedup"`
	// Faster is whether the rewrite's median was below the original's:
	// an exact rewrite that is not faster is no reason to change the job.
	Faster bool   `json:"faster"`
	Where  string `json:"where"` // engine and machine
}

// Results.
const (
	Verified = "verified"
	Failed   = "failed"
)

// SHA256 is the hex sha256 of b.
func SHA256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// SpanHash hashes the source text of a definition with its line endings
// normalized, so a checkout with CRLF endings does not make every record
// stale.
func SpanHash(text []byte) string {
	return SHA256(bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n")))
}

// Write stores r at path atomically: a temporary file in the same folder,
// then a rename, so a reader never sees half a record.
func Write(path string, r *Record) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("evidence: %w", err)
	}
	return WriteFileAtomic(path, append(b, '\n'), 0o644)
}

// Read loads the record at path.
func Read(path string) (*Record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read evidence %s: %w", path, err)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("evidence %s: not a udfx record: %w", path, err)
	}
	if r.SchemaVersion < 1 || r.SchemaVersion > SchemaVersion {
		return nil, fmt.Errorf("evidence %s: schema version %d, this udfx reads 1..%d", path, r.SchemaVersion, SchemaVersion)
	}
	return &r, nil
}

// WriteFileAtomic writes data to path through a temporary file and a
// rename, creating the folder if needed.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// Marker is the comment every rewrite file carries, naming its record:
//
//	udfx:rewrite record=udfx-rewrites/ToFahrenheit/evidence.json
//
// inside the file's comment syntax (-- for SQL, // for Java, Scala, C++
// and CMake's #).
const markerTag = "udfx:rewrite record="

// MarkerLine returns the marker comment for a file of the given
// extension.
func MarkerLine(ext, recordPath string) string {
	prefix := "//"
	switch ext {
	case ".sql":
		prefix = "--"
	case ".py", ".txt", ".cmake":
		prefix = "#"
	}
	return prefix + " " + markerTag + recordPath
}

// ErrNoMarker is a file without a udfx marker.
var ErrNoMarker = errors.New("no udfx:rewrite marker")

// FindMarker returns the record path named by the marker in the first 20
// lines of content.
func FindMarker(content []byte) (string, error) {
	lines := strings.SplitN(string(content), "\n", 21)
	for i, l := range lines {
		if i == 20 {
			break
		}
		if _, after, ok := strings.Cut(l, markerTag); ok {
			rec := strings.TrimSpace(after)
			if f := strings.Fields(rec); len(f) > 0 {
				return f[0], nil
			}
		}
	}
	return "", ErrNoMarker
}

// StripSQLComments drops blank and `--` comment lines from a SQL rewrite
// file, leaving the expression. A line holding a \r before its end is
// kept whole: Spark ends a `--` comment there, so what follows would be
// code to Spark, and the expression parser then refuses the comment
// instead of this function dropping that code.
func StripSQLComments(s string) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSuffix(l, "\r")
		if t := strings.TrimSpace(l); t != "" && (!strings.HasPrefix(t, "--") || strings.ContainsRune(t, '\r')) {
			lines = append(lines, l)
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
