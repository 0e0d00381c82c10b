// Package udf is udfx's model of a Spark user-defined function: where it is
// defined and used, its signature in Spark SQL types, and the advice the
// front-ends give about which rewrite targets look feasible.
//
// The front-ends that fill this model live in the sub-packages scala, java
// and python; they all implement Frontend.
package udf

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Language is the source language a UDF is written in.
type Language string

const (
	Scala  Language = "scala"
	Java   Language = "java"
	Python Language = "python"
)

// Kind says how a UDF is defined. The set is part of the JSON schema
// (docs/scan-json.md); add to it, never rename.
type Kind string

const (
	// KindFunctionClass is a Scala class or object extending Function1..22;
	// its apply method is the UDF.
	KindFunctionClass Kind = "function-class"
	// KindUDFClass is a Scala or Java class implementing
	// org.apache.spark.sql.api.java.UDF1..22; its call method is the UDF.
	KindUDFClass Kind = "udf-class"
	// KindHiveUDF is a Hive simple UDF (evaluate methods).
	KindHiveUDF Kind = "hive-udf"
	// KindHiveGenericUDF is a Hive GenericUDF (initialize/evaluate).
	KindHiveGenericUDF Kind = "hive-generic-udf"
	// KindLambda is an anonymous function wrapped by udf(...) or passed to
	// register(...).
	KindLambda Kind = "lambda"
	// KindFunctionRef is a named method wrapped by udf(f _) or udf(f).
	KindFunctionRef Kind = "function-ref"
	// KindPythonUDF is a Python def made a row-at-a-time UDF by @udf,
	// udf(f, T) or spark.udf.register("name", f, T).
	KindPythonUDF Kind = "python-udf"
	// KindPandasUDF is a vectorized pandas_udf; PandasFlavor says which.
	KindPandasUDF Kind = "pandas-udf"
	// KindRDDLambda is a lambda passed to an RDD transformation (map,
	// flatMap, filter, reduceByKey, ...). Spark runs it row by row in the
	// Python worker even though no udf() is involved.
	KindRDDLambda Kind = "rdd-lambda"
	// KindRDDPipeline is a chain of RDD transformations over a text file
	// (sc.textFile(p).flatMap(...).map(...).reduceByKey(...)) assigned to
	// a name inside a function; the name is the UDF's. Its rewrite is the
	// whole chain as DataFrame code (TargetDataFrame), proved by comparing
	// the collected results as multisets.
	KindRDDPipeline Kind = "rdd-pipeline"
)

// IsHive reports a Hive UDF, simple or generic: Spark runs it only in a
// Hive-enabled session.
func (k Kind) IsHive() bool { return k == KindHiveUDF || k == KindHiveGenericUDF }

// Kinds lists every kind, in the order reports describe them.
var Kinds = []Kind{
	KindFunctionClass, KindUDFClass, KindHiveUDF, KindHiveGenericUDF,
	KindLambda, KindFunctionRef, KindPythonUDF, KindPandasUDF, KindRDDLambda, KindRDDPipeline,
}

// PandasFlavor is the shape of a pandas_udf, taken from its type hints or
// its functionType argument.
type PandasFlavor string

const (
	PandasSeriesToSeries     PandasFlavor = "series-to-series"
	PandasIteratorOfSeries   PandasFlavor = "iterator-of-series"
	PandasIteratorOfMultiple PandasFlavor = "iterator-of-multiple-series"
	PandasSeriesToScalar     PandasFlavor = "series-to-scalar"
	PandasGroupedMap         PandasFlavor = "grouped-map"
	PandasUnknown            PandasFlavor = "unknown"
)

// Position is a 1-based line and column. Columns count Unicode code points
// from the start of the line, as SARIF's "unicodeCodePoints" column kind
// does, so a non-ASCII character before a UDF does not shift it.
type Position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Span is a half-open range of source: Start is the first character, End
// the position just after the last one.
type Span struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Contains reports whether in lies within s, ends included.
func (s Span) Contains(in Span) bool {
	le := func(a, b Position) bool { return a.Line < b.Line || a.Line == b.Line && a.Column <= b.Column }
	return le(s.Start, in.Start) && le(in.End, s.End)
}

func (s Span) String() string {
	return fmt.Sprintf("%d:%d-%d:%d", s.Start.Line, s.Start.Column, s.End.Line, s.End.Column)
}

// UseKind says how a use site refers to the UDF.
type UseKind string

const (
	// UseRegister is the call that registers the UDF under a SQL name.
	UseRegister UseKind = "register"
	// UseCall is a call of the UDF value in DataFrame code: f(col("x")).
	UseCall UseKind = "call"
	// UseSQL is a string literal (spark.sql, expr, selectExpr, callUDF)
	// that calls the UDF by its registered name.
	UseSQL UseKind = "sql"
	// UseReference passes the UDF around without calling it (for example
	// rdd.reduceByKey(add)).
	UseReference UseKind = "reference"
)

// UseSite is one place in the defining file that uses the UDF.
type UseSite struct {
	Kind UseKind `json:"kind"`
	Span Span    `json:"span"`
	// Text is the source text of the use (the call, or the string literal).
	Text string `json:"text"`
	// ArgTypes are, for a call, the Spark types of its arguments that the
	// job's dataflow shows (the column's type in the DataFrame the call is
	// applied to, traced to where its schema is written), one per
	// argument; an entry without a Type is an argument the dataflow does
	// not type. Empty when the front-end does not trace dataflow.
	ArgTypes []FlowType `json:"arg_types,omitempty"`
}

// Lift is what holding a UDF defined inside a method in an object of its
// own takes: the file's package and the imports in scope, the enclosing
// top-level object whose members the expression may read, the expression
// (udf((c: Double) => ...)) and the method's locals it reads. It is
// liftable only when Captures is empty: then the expression means in the
// object what it means in the method.
type Lift struct {
	Method   string   `json:"method"`
	Packages []string `json:"packages,omitempty"`
	Imports  []string `json:"imports,omitempty"`
	Object   string   `json:"object,omitempty"`
	Expr     string   `json:"expr"`
	// Consts are the method's locals the expression reads that are
	// vals of a literal (val TaxRate = 0.08), as written: the object
	// holds them beside the UDF.
	Consts   []string `json:"consts,omitempty"`
	Captures []string `json:"captures,omitempty"`
	// Field is, for a Java lambda, the declaration of the static field
	// that holds it (static final UDF1<String, Integer> str_len = s -> ...;),
	// which the JVM runner inserts into the lambda's class at byte offset
	// At of the file, before the closing brace of the class's body: in
	// the class the lambda reads the same members, imports and package.
	Field string `json:"field,omitempty"`
	At    int    `json:"at,omitempty"`
	// Fields are the fields of every lambda of the file lifted so, this
	// one's included: each copy of the file holds all of them, since a
	// JVM (Spark's session) that loads the class of one copy uses it for
	// every UDF of the file.
	Fields []JavaField `json:"fields,omitempty"`
}

// JavaField is a field declaration inserted into a copy of a Java file
// at byte offset At.
type JavaField struct {
	Decl string `json:"decl"`
	At   int    `json:"at"`
}

// FlowType is the type of one argument of a call and where it is written
// ("spark.read.schema at line 9: reading double"), for reports.
type FlowType struct {
	Type *Type  `json:"type,omitempty"`
	From string `json:"from,omitempty"`
	// Through are the functions of the file whose calls in the file the
	// trace took as all their calls (the type reached the UDF through
	// their parameters): a call from another module would pass another
	// DataFrame, so the type holds only if no other file names them.
	Through []string `json:"through,omitempty"`
}

// Param is one parameter of the UDF.
type Param struct {
	Name string `json:"name"`
	// SourceType is the type as written in the source ("java.lang.Double",
	// "Double", "float", "pd.Series"); empty when the source gives none.
	SourceType string `json:"source_type,omitempty"`
	// Type is the Spark SQL type Spark hands the parameter; nil when it
	// cannot be known from the source alone.
	Type *Type `json:"type"`
	// Primitive is true for JVM primitive parameters (Scala Double, Int,
	// ...): Spark cannot pass them null, so it returns null for a null
	// input without calling the function.
	Primitive bool `json:"primitive"`
	// Placeholder is the underscore this parameter stands for when the
	// UDF is a Scala placeholder lambda (udf[String, String](_.trim)):
	// the body is the expression itself, and each _ is the next
	// parameter.
	Placeholder *Span `json:"placeholder,omitempty"`
	// Default is the default value of a Python parameter, as written;
	// "" when it has none. Spark passes a UDF as many arguments as its
	// call gives, so a trailing parameter no call passes is no column:
	// the front-end leaves it out of Params, and the function takes
	// its default.
	Default string `json:"default,omitempty"`
}

// Target is a rewrite target udfx can produce. Every package names the
// targets through these constants and TargetInfos: they are the one list.
type Target string

const (
	TargetSQL              Target = "sql"
	TargetColumnar         Target = "columnar"
	TargetCUDA             Target = "cuda"
	TargetVectorizedPython Target = "vectorized-python"
	// TargetVectorizedPythonFast is vectorized-python with a faster
	// algorithm that rounds differently, proved only within a tolerance
	// udfx.yaml declares; never advised or a default.
	TargetVectorizedPythonFast Target = "vectorized-python-fast"
	// TargetDataFrame rewrites a KindRDDPipeline as DataFrame code; it is
	// advised for pipelines only, so it is not in Targets.
	TargetDataFrame Target = "dataframe"
)

// Targets lists the targets scan advises on, highest level first.
var Targets = []Target{TargetSQL, TargetColumnar, TargetCUDA, TargetVectorizedPython}

// TargetInfo is what the gate and the commands need to know of a target.
type TargetInfo struct {
	Target Target
	// Proved: the differential test proves a rewrite of this target, and
	// verify re-runs it. A record holds exactly one proved entry.
	Proved bool
	// FromSQL: rendered from the IR of a proved sql rewrite (it needs a
	// GPU to run), so verify renders it again and compares.
	FromSQL bool
}

// TargetInfos lists every target udfx writes, in the order help text
// names them.
var TargetInfos = []TargetInfo{
	{Target: TargetSQL, Proved: true},
	{Target: TargetColumnar, FromSQL: true},
	{Target: TargetCUDA, FromSQL: true},
	{Target: TargetVectorizedPython, Proved: true},
	{Target: TargetVectorizedPythonFast, Proved: true},
	{Target: TargetDataFrame, Proved: true},
}

// InfoOf returns name's TargetInfo, false when udfx writes no such target.
func InfoOf(name string) (TargetInfo, bool) {
	for _, ti := range TargetInfos {
		if string(ti.Target) == name {
			return ti, true
		}
	}
	return TargetInfo{}, false
}

// TargetNames is every target's name, comma-separated, for help and
// error messages.
func TargetNames() string {
	names := make([]string, len(TargetInfos))
	for i, ti := range TargetInfos {
		names[i] = string(ti.Target)
	}
	return strings.Join(names, ", ")
}

// TargetAdvice says whether a target looks feasible, and why or why not.
type TargetAdvice struct {
	Target   Target   `json:"target"`
	Feasible bool     `json:"feasible"`
	Reasons  []string `json:"reasons"`
}

// BlockerKind names something in a UDF body that stands in the way of an
// exact rewrite.
type BlockerKind string

const (
	BlockerIO               BlockerKind = "io"
	BlockerNetwork          BlockerKind = "network"
	BlockerNondeterminism   BlockerKind = "nondeterminism"
	BlockerMutableState     BlockerKind = "mutable-state"
	BlockerExceptionHandler BlockerKind = "exception-handling"
	BlockerLoop             BlockerKind = "loop"
	BlockerUnknownCall      BlockerKind = "unknown-call"
)

// Blocker is one finding in the body.
type Blocker struct {
	Kind   BlockerKind `json:"kind"`
	Detail string      `json:"detail"`
	Span   Span        `json:"span"`
}

// UDF is one user-defined function found in source.
type UDF struct {
	// Name is the name of the class, def or val that holds the UDF; for a
	// lambda with no name, the registered name or "<lambda@line>".
	Name string `json:"name"`
	// RegisteredNames are the SQL names given by register(...) in the same
	// file, in source order.
	RegisteredNames []string `json:"registered_names"`
	// Wraps is, for a lambda that only forwards its parameters to one
	// function of its file (udf(lambda z: to_int(z), IntegerType())),
	// that function's name: users name the UDF by it too.
	Wraps string `json:"wraps,omitempty"`
	// Factory is set for a Python UDF that a module-level function makes
	// and returns (def make_prefixer(prefix): def add_prefix(s): …;
	// return udf(add_prefix, StringType())), called in the file as
	// make_prefixer("ACC-")(col("id")), and for a Scala UDF that a def
	// of an object is (def scaleBy(factor: Double) = udf((x: Double) =>
	// x * factor)): the UDF reads the function's parameters, so it
	// exists only with the arguments a call gives.
	Factory  *Factory `json:"factory,omitempty"`
	Language Language `json:"language"`
	Kind     Kind     `json:"kind"`
	// Lift is set for a Scala lambda UDF held by a val inside a method
	// (such as main), which exists only while the job runs: how to hold
	// the same expression in an object of its own, where the JVM runner
	// can reach it; for a Java lambda there, in a static field of its
	// class.
	Lift *Lift `json:"lift,omitempty"`
	// PandasFlavor is set for KindPandasUDF only.
	PandasFlavor PandasFlavor `json:"pandas_flavor,omitempty"`
	// RDDOperation is the transformation a KindRDDLambda is passed to;
	// for a KindRDDPipeline, the chain's transformations in order, joined
	// by ", ".
	RDDOperation string `json:"rdd_operation,omitempty"`
	// File is the source file as udfx shows and records it: relative to
	// Root, slash-separated, once Root is set (udfx rewrite, verify);
	// before that, as the front-end was given it (scan: relative to the
	// working directory or absolute). Path gives the file to open.
	File string `json:"file"`
	// Root is the repository root File is relative to; "" while File is
	// as given.
	Root string `json:"-"`
	// Span covers the whole definition; BodySpan the function body that a
	// rewrite replaces (the apply/call method, the lambda, the def).
	Span     Span    `json:"span"`
	BodySpan Span    `json:"body_span"`
	Params   []Param `json:"params"`
	Return   *Type   `json:"return_type"`
	// ReturnPrimitive is true when the JVM method returns a primitive
	// (a Scala class's apply declared or inferred as Double, Boolean,
	// ...), which decides what a Java class extending it may declare.
	ReturnPrimitive bool `json:"return_primitive,omitempty"`
	// ReturnDefault is true when Return is PySpark's default (StringType)
	// for a udf() or register() given no return type.
	ReturnDefault bool      `json:"-"`
	UseSites      []UseSite `json:"use_sites"`
	// Untyped marks a Scala function wrapped by the untyped
	// udf(f: AnyRef, dataType): Spark 3+ rejects it unless
	// spark.sql.legacy.allowUntypedScalaUDF is set, and then a null input
	// reaches a primitive parameter as its default value (0, false).
	Untyped bool `json:"untyped,omitempty"`
	// NullSkipsCall is true when Spark returns null for a null input
	// without calling the function: a typed Scala function (class, lambda
	// or method reference) with a JVM primitive parameter.
	NullSkipsCall bool           `json:"null_skips_call"`
	Blockers      []Blocker      `json:"blockers"`
	Targets       []TargetAdvice `json:"targets"`
	// TypeSources say where each parameter's and the return value's Spark
	// type came from; empty until the type-resolution step has run.
	TypeSources []TypeSource `json:"type_sources,omitempty"`
}

// Path is the file to open: File under Root, or File as given while Root
// is "". Code that reads or runs the original goes through Path; File
// stays what udfx shows and records.
func (u *UDF) Path() string {
	if u.Root == "" || filepath.IsAbs(u.File) {
		return filepath.FromSlash(u.File)
	}
	return filepath.Join(u.Root, filepath.FromSlash(u.File))
}

// Finish fills what follows from the rest: NullSkipsCall, the target
// advice, and normalized (non-nil, sorted) slices so JSON output is stable.
// Front-ends call it on every UDF they return.
func (u *UDF) Finish() {
	u.NullSkipsCall = false
	if u.Language == Scala && !u.Untyped && (u.Kind == KindFunctionClass || u.Kind == KindLambda || u.Kind == KindFunctionRef) {
		// Only Scala functions reach Spark with TypeTags, from which
		// ScalaUDF learns which inputs are primitive. Java UDF1..22 and
		// Hive UDFs are called with null whatever their declared types.
		for _, p := range u.Params {
			if p.Primitive {
				u.NullSkipsCall = true
			}
		}
	}
	if u.RegisteredNames == nil {
		u.RegisteredNames = []string{}
	}
	if u.Params == nil {
		u.Params = []Param{}
	}
	if u.UseSites == nil {
		u.UseSites = []UseSite{}
	}
	if u.Blockers == nil {
		u.Blockers = []Blocker{}
	}
	sort.SliceStable(u.UseSites, func(i, j int) bool { return before(u.UseSites[i].Span.Start, u.UseSites[j].Span.Start) })
	sort.SliceStable(u.Blockers, func(i, j int) bool { return before(u.Blockers[i].Span.Start, u.Blockers[j].Span.Start) })
	u.Targets = Classify(u)
}

func before(a, b Position) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}

// SortUDFs orders UDFs by file, then position, then name.
func SortUDFs(us []UDF) {
	sort.SliceStable(us, func(i, j int) bool {
		a, b := us[i], us[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Span.Start != b.Span.Start {
			return before(a.Span.Start, b.Span.Start)
		}
		return a.Name < b.Name
	})
}

// ParseError is a file that the front-end could not parse. Scan reports it
// and goes on with the other files.
type ParseError struct {
	File    string   `json:"file"`
	Pos     Position `json:"position"`
	Message string   `json:"message"`
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Column, e.Message)
}

// Frontend finds the UDFs in one language's source files. A Frontend is
// not safe for concurrent use; scan gives each worker its own.
type Frontend interface {
	Language() Language
	// Parse returns the UDFs defined in src, each already Finish()ed, with
	// File set to path. A file with syntax errors gives a *ParseError and
	// no UDFs.
	Parse(path string, src []byte) ([]UDF, error)
	// Close frees the parser's native memory.
	Close()
}

// SiteLocator is a Frontend that tells code from comments and strings:
// Occurrences returns the byte offsets of every occurrence of text in
// src (all) and of those that are an expression of the use-site kind
// there (code: a call for UseCall, a string literal for UseSQL), not a
// copy in a comment or inside another literal.
type SiteLocator interface {
	Occurrences(path string, src []byte, text string, kind UseKind) (all, code []int, err error)
}

// TypeSource says where the Spark type of one parameter, or of the return
// value, came from. udfx's type-resolution step (internal/typeinfer) fills
// one per parameter and one for the return value; reports and evidence
// records name them, since a type taken from use is a claim the user
// should be able to check.
type TypeSource struct {
	// Name is the parameter's name, or "return" for the return value.
	Name string `json:"name"`
	// Type is the Spark type; nil when none could be found.
	Type *Type `json:"type"`
	// Source is one of the TypeFrom* values.
	Source string `json:"source"`
	// Detail says where exactly (`schema at line 12: price double`), or,
	// for TypeFromUnknown, why no type was found.
	Detail string `json:"detail,omitempty"`
}

// The sources of a type, highest authority first.
const (
	// TypeFromFlag is the --types flag or a FILE:NAME(type, ...) argument.
	TypeFromFlag = "flag"
	// TypeFromComment is a `# udfx: (double) -> double` or
	// `// udfx: (double) -> double` comment on the line above the UDF.
	TypeFromComment = "comment"
	// TypeFromSource is a type written in the source: a hint, a declared
	// JVM type, or a type the front-end infers as the compiler would.
	TypeFromSource = "source"
	// TypeFromRegistration is the return type given to udf()/register().
	TypeFromRegistration = "registration"
	// TypeFromDefault is PySpark's default return type (StringType) for a
	// udf() given none.
	TypeFromDefault = "default"
	// TypeFromCast is a .cast(...) of the column at every call site.
	TypeFromCast = "cast"
	// TypeFromSchema is the schema, shown in the same file, of the column
	// the UDF is applied to.
	TypeFromSchema = "schema"
	// TypeFromDataflow is the schema of the DataFrame every call site is
	// applied to, traced through the job's variables, functions and
	// DataFrame methods to where it is written.
	TypeFromDataflow = "dataflow"
	// TypeFromSamples is the Parquet schema of the --samples file.
	TypeFromSamples = "samples"
	// TypeFromCompiled is what scalac gave a Scala UDF: the types Spark's
	// udf(...) derived from its TypeTags, or a def's JVM signature, read
	// from the compiled original (harness/runner/jvm).
	TypeFromCompiled = "scalac"
	// TypeFromBody is what the body forces when exactly one type fits.
	TypeFromBody = "body"
	// TypeFromPerType is one of the types a parameter no source types was
	// proved for, one at a time: the rewrite holds for each such type and
	// Spark rejects every other (harness/render/sparksql.TypeGuard).
	TypeFromPerType = "per-type"
	// TypeFromRecord is the type an evidence record names (udfx verify).
	TypeFromRecord = "record"
	// TypeFromUnknown marks a type no source gave.
	TypeFromUnknown = "unknown"
)

// Factory is the function that makes a UDF (UDF.Factory) and the
// arguments the file's calls of it give.
type Factory struct {
	// Name is the module-level function (Python) or the object's def
	// (Scala); Params its parameters, in order.
	Name   string   `json:"name"`
	Params []string `json:"params"`
	// Types are, for a Scala def, its parameters' declared types, as
	// written: the runner's vals of the literals have them.
	Types []string `json:"types,omitempty"`
	// Args binds each of its parameters, in order, to the literal
	// every call in the file gives it (an argument, or the parameter's
	// default), where one such set exists.
	Args []FactoryArg `json:"args,omitempty"`
	// Problem says why there is no one set of literal arguments ("called
	// with different arguments at lines 30 and 31"); Args is then empty.
	Problem string `json:"problem,omitempty"`
	// NotCalled is set, with Problem, when the file no longer calls the
	// function: once --apply has replaced every call with the rewrite,
	// the arguments the proof used come from its record (Bind).
	NotCalled bool `json:"not_called,omitempty"`
}

// Bind is f with args bound, as a proof made them: for a factory the
// file no longer calls.
func (f *Factory) Bind(args []FactoryArg) *Factory {
	return &Factory{Name: f.Name, Params: f.Params, Types: f.Types, Args: append([]FactoryArg(nil), args...)}
}

// Callable reports whether the factory can be called to make the UDF,
// and with which literals, in parameter order: what the runners pass.
func (f *Factory) Callable() ([]string, bool) {
	if f == nil || f.Problem != "" {
		return nil, false
	}
	lits := []string{}
	for _, a := range f.Args {
		lits = append(lits, a.Literal)
	}
	return lits, true
}

// FactoryCall is one call of a factory in the file: its line and the
// literal bound to each parameter, in order, or Why it binds none ("gives
// k factor, which is not a literal").
type FactoryCall struct {
	Line int
	Args []FactoryArg
	Why  string
}

// BindCalls binds f's parameters to the literals of its calls, in the
// file's order: every call must give one and the same literal to each,
// or Problem says which call does not; with no call, NotCalled is set.
func (f *Factory) BindCalls(calls []FactoryCall) {
	var first *FactoryCall
	for i := range calls {
		c := &calls[i]
		if c.Why != "" {
			f.Problem = fmt.Sprintf("the call of %s at line %d %s", f.Name, c.Line, c.Why)
			return
		}
		if first == nil {
			first = c
			continue
		}
		for j := range c.Args {
			if c.Args[j].Literal != first.Args[j].Literal {
				f.Problem = fmt.Sprintf("%s is called with different arguments at lines %d and %d, and each call makes another UDF", f.Name, first.Line, c.Line)
				return
			}
		}
	}
	if first == nil {
		f.Problem = f.Name + " is not called in this file, so what its parameters hold is not known"
		f.NotCalled = true
		return
	}
	f.Args = first.Args
}

// FactoryArg is one parameter of a factory and the literal it gets.
type FactoryArg struct {
	Param   string `json:"param"`
	Literal string `json:"literal"`
	// Span is where the literal is written: in the call, or the default.
	Span Span `json:"span"`
}

// Lookup is the UDF of us that FILE:NAME names: the first whose name or
// a registered SQL name is name, else a lambda that forwards to a
// function of that name (Wraps) or a UDF a function of that name makes
// (Factory); nil when none is.
func Lookup(us []UDF, name string) *UDF {
	for i := range us {
		if us[i].Name == name || slices.Contains(us[i].RegisteredNames, name) {
			return &us[i]
		}
	}
	for i := range us {
		if us[i].Wraps == name || us[i].Factory != nil && us[i].Factory.Name == name {
			return &us[i]
		}
	}
	return nil
}
