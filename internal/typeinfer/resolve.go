// Package typeinfer is udfx's one type-resolution step: after a front-end
// has parsed a UDF and before anything runs it, it fills the Spark types
// of the parameters and of the return value that the source does not
// write, and records for each where it came from (udf.TypeSource).
//
// Authority, highest first: the user's --types (or FILE:NAME(types)); a
// `# udfx: (double) -> double` comment on the line above the UDF; the
// source's own types (hints, declared JVM types, the registration's return
// type, PySpark's StringType default); a .cast(...) at every call site; the
// column's type in the DataFrame every call site is applied to, traced by
// the front-end through the job's dataflow (udf.UseSite.ArgTypes); the
// schema, shown in the same file, of the column every call site passes;
// the Parquet schema of --samples; what the body forces when exactly one
// type fits. A type that none of these gives stays nil and Missing says
// why, naming the --types flag.
package typeinfer

import (
	"fmt"
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

// Options are the inputs beyond the UDF and its file.
type Options struct {
	// Types is the user's signature (--types, or the (types) of a
	// FILE:NAME(types) argument); "" when none.
	Types string
	// TypesFrom names where Types was written, for reports; "" means
	// the --types flag.
	TypesFrom string
	// Samples maps the columns of the --samples file to their types;
	// nil when there is none.
	Samples map[string]*udf.Type
	// Compiled are the types the compiler gave the UDF
	// (jvm.ReadCompiledTypes), as authoritative as types written in the
	// source; nil when it was not asked.
	Compiled *Compiled
}

// Compiled are types read from a compiled original: nil entries say
// nothing. Detail says how they were read.
type Compiled struct {
	Params          []*udf.Type
	Return          *udf.Type
	ReturnPrimitive bool
	Detail          string
}

// UsageError is a --types that does not parse or does not fit the UDF.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return "--types: " + e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Resolve fills u's missing types from the other sources and sets
// u.TypeSources. src is the text of u's file. It fails only for a bad
// --types or a conflict between the user's types and the source's; a type
// that stays unknown is reported by Missing.
func Resolve(u *udf.UDF, src []byte, opts Options) error {
	text := string(src)
	r := &resolver{u: u, src: text, sources: make([]udf.TypeSource, len(u.Params))}
	for i, p := range u.Params {
		r.sources[i] = udf.TypeSource{Name: p.Name, Type: p.Type, Source: udf.TypeFromSource}
		if p.Type == nil {
			r.sources[i].Source = ""
		}
	}
	r.ret = udf.TypeSource{Name: "return", Type: u.Return, Source: udf.TypeFromSource}
	switch {
	case u.Return == nil:
		r.ret.Source = ""
	case u.Language == udf.Python && u.ReturnDefault:
		r.ret.Source, r.ret.Detail = udf.TypeFromDefault, "no return type given: PySpark's default is StringType"
	case u.Language == udf.Python:
		r.ret.Source = udf.TypeFromRegistration
	}
	if c := opts.Compiled; c != nil {
		for i := range r.sources {
			if r.sources[i].Type == nil && i < len(c.Params) && c.Params[i] != nil {
				r.sources[i] = udf.TypeSource{Name: u.Params[i].Name, Type: c.Params[i], Source: udf.TypeFromCompiled, Detail: c.Detail}
			}
		}
		if r.ret.Type == nil && c.Return != nil {
			r.ret = udf.TypeSource{Name: "return", Type: c.Return, Source: udf.TypeFromCompiled, Detail: c.Detail}
			u.ReturnPrimitive = c.ReturnPrimitive
		}
	}
	if opts.Types != "" {
		sig, err := ParseSignature(opts.Types)
		if err != nil {
			return &UsageError{Err: err}
		}
		from := opts.TypesFrom
		if from == "" {
			from = "--types " + opts.Types
		}
		if err := r.apply(sig, udf.TypeFromFlag, from); err != nil {
			return &UsageError{Err: err}
		}
	}
	if c, line := commentAbove(text, u); c != "" {
		sig, err := ParseSignature(c)
		if err != nil {
			return &UsageError{Err: fmt.Errorf("the udfx comment at %s:%d: %w", u.File, line, err)}
		}
		if err := r.apply(sig, udf.TypeFromComment, fmt.Sprintf("line %d", line)); err != nil {
			return &UsageError{Err: fmt.Errorf("the udfx comment at %s:%d: %w", u.File, line, err)}
		}
	}
	rdd := u.Kind == udf.KindRDDLambda || u.Kind == udf.KindRDDPipeline
	// Only where each argument of a call is one parameter: not an
	// iterator or grouped-map pandas_udf, whose parameter is an iterator
	// or a whole DataFrame.
	columnwise := u.Kind != udf.KindPandasUDF ||
		u.PandasFlavor == udf.PandasSeriesToSeries || u.PandasFlavor == udf.PandasSeriesToScalar
	if !rdd && columnwise {
		r.fromUse(opts)
	}
	for i := range u.Params {
		u.Params[i].Type = r.sources[i].Type
		if r.sources[i].Type == nil {
			r.sources[i].Source = udf.TypeFromUnknown
			switch {
			case rdd:
				r.sources[i].Detail = rddDetail
			case !columnwise:
				r.sources[i].Detail = fmt.Sprintf("a %s pandas_udf takes no single column per parameter", u.PandasFlavor)
			}
		}
	}
	u.Return = r.ret.Type
	if u.Return == nil {
		r.ret.Source = udf.TypeFromUnknown
		switch {
		case rdd:
			r.ret.Detail = rddDetail
			if u.Kind == udf.KindRDDPipeline {
				r.ret.Detail = "an RDD chain's results are Python objects, not a Spark type"
			}
		case u.Language == udf.Python:
			r.ret.Detail = "the pandas_udf declares no return type"
		default:
			r.ret.Detail = "udfx does not infer this result type as scalac or javac would"
		}
	}
	u.TypeSources = append(r.sources, r.ret)
	u.Finish()
	return nil
}

const rddDetail = "a function passed to an RDD transformation has no Spark types"

type resolver struct {
	u       *udf.UDF
	src     string
	sources []udf.TypeSource
	ret     udf.TypeSource
}

// userOverrides reports whether a type the user gives may replace the
// source's: Python hints are not what Spark passes (the column's type
// is), so a user's type wins over them; a JVM declared type is what Spark
// converts to, so a different one is a contradiction.
func (r *resolver) userOverrides(s udf.TypeSource) bool {
	return s.Type == nil || (r.u.Language == udf.Python && s.Source == udf.TypeFromSource)
}

// apply sets the types a signature gives where no higher source has.
func (r *resolver) apply(sig *Signature, source, detail string) error {
	named := len(sig.Params) > 0 && sig.Params[0].Name != ""
	if !named && len(sig.Params) > 0 && len(sig.Params) != len(r.u.Params) {
		return fmt.Errorf("%d types for the %d parameters of %s", len(sig.Params), len(r.u.Params), r.u.Name)
	}
	for j, sp := range sig.Params {
		i := j
		if named {
			i = -1
			for k, p := range r.u.Params {
				if p.Name == sp.Name {
					i = k
				}
			}
			if i < 0 {
				return fmt.Errorf("%s has no parameter %s (it has %s)", r.u.Name, sp.Name, paramNames(r.u))
			}
		}
		s := &r.sources[i]
		switch {
		case s.Source == udf.TypeFromFlag || s.Source == udf.TypeFromComment:
			// A higher source set it already.
		case r.userOverrides(*s):
			*s = udf.TypeSource{Name: s.Name, Type: sp.Type, Source: source, Detail: detail}
		case !s.Type.Equal(sp.Type):
			return fmt.Errorf("parameter %s of %s is declared %s in the source, not %s", s.Name, r.u.Name, s.Type, sp.Type)
		}
	}
	if sig.Return != nil {
		switch {
		case r.ret.Source == udf.TypeFromFlag || r.ret.Source == udf.TypeFromComment:
		case r.ret.Type == nil:
			r.ret = udf.TypeSource{Name: "return", Type: sig.Return, Source: source, Detail: detail}
		case !r.ret.Type.Equal(sig.Return):
			return fmt.Errorf("the return type of %s is %s in the source (%s), not %s", r.u.Name, r.ret.Type, r.ret.Source, sig.Return)
		}
	}
	return nil
}

func paramNames(u *udf.UDF) string {
	var ns []string
	for _, p := range u.Params {
		ns = append(ns, p.Name)
	}
	if len(ns) == 0 {
		return "none"
	}
	return strings.Join(ns, ", ")
}

// commentAbove returns the signature of a `# udfx: ...` (Python) or
// `// udfx: ...` (Scala, Java) comment on the line above the UDF's
// definition, and that line.
func commentAbove(src string, u *udf.UDF) (string, int) {
	lines := strings.Split(src, "\n")
	line := u.Span.Start.Line - 1
	if line < 1 || line > len(lines) {
		return "", 0
	}
	t := strings.TrimSpace(lines[line-1])
	prefix := "//"
	if u.Language == udf.Python {
		prefix = "#"
	}
	if !strings.HasPrefix(t, prefix) {
		return "", 0
	}
	t = strings.TrimSpace(strings.TrimPrefix(t, prefix))
	if !strings.HasPrefix(t, "udfx:") {
		return "", 0
	}
	return strings.TrimSpace(strings.TrimPrefix(t, "udfx:")), line
}

// fromUse fills the parameters still untyped from how the file uses the
// UDF, then from the samples, then from the body.
func (r *resolver) fromUse(opts Options) {
	var missing []int
	for i, s := range r.sources {
		if s.Type == nil {
			missing = append(missing, i)
		}
	}
	if len(missing) == 0 {
		return
	}
	u := r.u
	sf := extractSchema(r.src, u.Language, func(line int) bool {
		return line >= u.Span.Start.Line && line <= u.Span.End.Line
	})
	seen := map[string]bool{}
	elsewhere := func(names []string) bool {
		k := strings.Join(names, " ")
		if v, ok := seen[k]; ok {
			return v
		}
		seen[k] = namedElsewhere(u.Path(), names)
		return seen[k]
	}
	var sites [][]siteArg
	for _, use := range u.UseSites {
		switch use.Kind {
		case udf.UseCall:
			args, ok := callArgs(use.Text, u.Language)
			if !ok {
				continue
			}
			var site []siteArg
			for j, a := range args {
				sa := readColumnArg(a, u.Language)
				sa.line = use.Span.Start.Line
				if len(use.ArgTypes) == len(args) {
					ft := use.ArgTypes[j]
					if len(ft.Through) == 0 || !elsewhere(ft.Through) {
						sa.flow, sa.flowFrom = ft.Type, ft.From
					}
				}
				site = append(site, sa)
			}
			sites = append(sites, site)
		case udf.UseSQL:
			for _, t := range sf.sqlTables(use.Text) {
				sf.doubts = append(sf.doubts, doubt{line: use.Span.Start.Line, what: "SQL reads table " + t + ", which the file does not register"})
			}
			sites = append(sites, sqlCallArgs(use.Text, u.RegisteredNames)...)
		}
	}
	// withColumn("c", f(col("c"))) redefines c with the UDF's result:
	// when that is of c's own type, c keeps its type.
	harmless := func(d doubt, t *udf.Type) bool {
		if d.value == "" || u.Return == nil || !u.Return.Equal(t) {
			return false
		}
		for _, use := range u.UseSites {
			if use.Kind == udf.UseCall && strings.TrimSpace(use.Text) == d.value {
				return true
			}
		}
		return false
	}
	for _, i := range missing {
		name := u.Params[i].Name
		t, source, detail, err := paramFromSites(sites, i, len(u.Params), sf, harmless)
		if err == nil {
			r.sources[i] = udf.TypeSource{Name: name, Type: t, Source: source, Detail: detail}
			continue
		}
		why := err.Error()
		if st := opts.Samples[name]; st != nil {
			r.sources[i] = udf.TypeSource{Name: name, Type: st, Source: udf.TypeFromSamples, Detail: "column " + name + " of the --samples file"}
			continue
		}
		if bt, detail := bodyForces(r.src, u, name); bt != nil {
			r.sources[i] = udf.TypeSource{Name: name, Type: bt, Source: udf.TypeFromBody, Detail: detail}
			continue
		}
		if cs := candidates(r.src, u, name); len(cs) > 0 {
			why += "; the body fits any of " + strings.Join(cs, ", ") + ", and udfx does not choose one"
		}
		r.sources[i] = udf.TypeSource{Name: name, Source: udf.TypeFromUnknown, Detail: why}
	}
}

// UnknownError is a UDF whose parameter or return type no source gives.
type UnknownError struct {
	UDF, File string
	Line      int
	// Name is the parameter, or "return".
	Name   string
	Reason string
}

func (e *UnknownError) Error() string {
	what := "the Spark type of parameter " + e.Name
	hint := fmt.Sprintf("--types '%s TYPE'", e.Name)
	if e.Name == "return" {
		what = "the return type"
		hint = "--types '(TYPES) -> TYPE'"
	}
	msg := fmt.Sprintf("%s:%d: %s of %s is not known from the source", e.File, e.Line, what, e.UDF)
	if e.Reason != "" {
		msg += " (" + e.Reason + ")"
	}
	return msg + "; give it with " + hint + " or a `udfx: (TYPES) -> TYPE` comment on the line above the UDF"
}

// Missing returns an *UnknownError for the first parameter, then the
// return value, whose type is still unknown; nil when all are known.
// Every stage that needs the types calls it instead of its own check.
func Missing(u *udf.UDF) error {
	reason := func(name string) string {
		for _, s := range u.TypeSources {
			if s.Name == name && s.Type == nil {
				return s.Detail
			}
		}
		return ""
	}
	for _, p := range u.Params {
		if p.Type == nil {
			return &UnknownError{UDF: u.Name, File: u.File, Line: u.Span.Start.Line, Name: p.Name, Reason: reason(p.Name)}
		}
	}
	if u.Return == nil {
		return &UnknownError{UDF: u.Name, File: u.File, Line: u.Span.Start.Line, Name: "return", Reason: reason("return")}
	}
	return nil
}

// Describe is one line per type source, for reports:
// "celsius double (schema: spark.read.schema at line 3: celsius double)".
func Describe(ts []udf.TypeSource) []string {
	var out []string
	for _, s := range ts {
		t := "?"
		if s.Type != nil {
			t = s.Type.String()
		}
		line := fmt.Sprintf("%s %s (%s", s.Name, t, s.Source)
		if s.Detail != "" {
			line += ": " + s.Detail
		}
		out = append(out, line+")")
	}
	return out
}
