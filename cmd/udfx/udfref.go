package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/harness/scan"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/internal/notebook"
	"github.com/udfx/udfx/internal/regular"
	"github.com/udfx/udfx/internal/typeinfer"
)

// udfTypes are the type sources a command adds to the file's own: the
// --types flag and the --samples file.
type udfTypes struct {
	flag    string
	samples string
	// limits bound compiling and loading a Scala original to read the
	// types scalac gave it (compiledTypes).
	limits runner.Limits
}

func addTypesFlag(f *pflag.FlagSet, types *string) {
	f.StringVar(types, "types", "", "the UDF's Spark types where the source does not show them: 'price double, qty int' or '(double, int) -> double'")
}

// sourceExts are the languages udfx reads, by file extension.
var sourceExts = map[string]udf.Language{".scala": udf.Scala, ".sc": udf.Scala, ".java": udf.Java, ".py": udf.Python, notebook.Ext: udf.Python}

// udfRef is a FILE[:NAME[(TYPES)]] argument split into its parts.
type udfRef struct {
	path, name, types string
}

// parseUDFRef splits FILE[:NAME[(TYPES)]]. The file ends at the first ':'
// after a Scala, Java or Python extension, so a NAME with ':' in it (the
// <lambda@11:23> scan prints for an unnamed lambda) is passed back whole;
// exists says whether a path is a file, so a file whose own name holds
// such a ':' still wins.
func parseUDFRef(target string, exists func(string) bool) udfRef {
	if exists(target) {
		return udfRef{path: target}
	}
	for i := 0; i < len(target); i++ {
		if target[i] != ':' || i == 0 {
			continue
		}
		if _, ok := sourceExts[filepath.Ext(target[:i])]; !ok {
			continue
		}
		r := udfRef{path: target[:i], name: target[i+1:]}
		if strings.HasSuffix(r.name, ")") {
			if open := strings.IndexByte(r.name, '('); open >= 0 {
				r.name, r.types = r.name[:open], r.name[open:]
			}
		}
		return r
	}
	return udfRef{path: target}
}

// findUDF parses FILE[:NAME[(TYPES)]], returns that UDF from the file, and
// resolves its types (internal/typeinfer) from the file, the types given
// and the samples.
func findUDF(e *env, target string, types udfTypes) (*udf.UDF, error) {
	ref := parseUDFRef(target, func(p string) bool {
		st, err := os.Stat(e.abs(p))
		return err == nil && !st.IsDir()
	})
	path, name := ref.path, ref.name
	lang, ok := sourceExts[filepath.Ext(path)]
	if !ok {
		return nil, usageErrorf("%s: not a Scala, Java or Python file", path)
	}
	// Not os.ReadFile: a named pipe would block it, a device never end.
	src, err := regular.ReadFile(e.abs(path), scan.MaxFileSize)
	if err != nil {
		return nil, usageErrorf("read %s: %w", path, err)
	}
	// A notebook is read as its code cells' Python; lines count in it.
	if src, err = notebook.Code(path, src); err != nil {
		return nil, usageErrorf("read %w", err)
	}
	fe := frontends.New(lang)
	defer fe.Close()
	display := filepath.ToSlash(path)
	udfs, err := fe.Parse(display, src)
	if err != nil {
		// A source that does not parse cannot be compiled and run either.
		return nil, internalError(fmt.Errorf("cannot run the original: %w", err))
	}
	var names []string
	for i := range udfs {
		names = append(names, udfs[i].Name)
	}
	var u *udf.UDF
	switch {
	case name != "":
		u = udf.Lookup(udfs, name)
	case len(udfs) == 1:
		u = &udfs[0]
	default:
		u = onlyPipeline(udfs)
	}
	if u == nil {
		switch {
		case len(udfs) == 0:
			return nil, usageErrorf("%s defines no UDF", path)
		case name == "":
			return nil, usageErrorf("%s defines %d UDFs (%s): pick one with %s:NAME", path, len(udfs), strings.Join(names, ", "), path)
		}
		return nil, usageErrorf("%s has no UDF named %q (it has %s)", path, name, strings.Join(names, ", "))
	}
	// File is as given, relative to the working directory.
	u.Root = e.WorkDir
	if ref.types != "" && types.flag != "" {
		return nil, usageErrorf("give the types once: with --types or as %s:%s%s, not both", path, name, ref.types)
	}
	opts := typeinfer.Options{Types: types.flag}
	if ref.types != "" {
		opts.Types, opts.TypesFrom = ref.types, target
	}
	if types.samples != "" && strings.EqualFold(filepath.Ext(types.samples), ".parquet") {
		if opts.Samples, err = typeinfer.ParquetSchema(e.abs(types.samples)); err != nil {
			return nil, usageErrorf("--samples: %w", err)
		}
	}
	if opts.Types == "" {
		opts.Compiled = compiledTypes(u, types.limits)
	}
	if err := typeinfer.Resolve(u, src, opts); err != nil {
		var ue *typeinfer.UsageError
		if errors.As(err, &ue) {
			return nil, usageError(err)
		}
		return nil, internalError(err)
	}
	return u, nil
}

// onlyPipeline is the file's RDD chain when it has one and every other
// UDF is a function passed to a transformation in it: the job is the
// chain, so FILE alone names it.
func onlyPipeline(udfs []udf.UDF) *udf.UDF {
	var p *udf.UDF
	for i := range udfs {
		if udfs[i].Kind == udf.KindRDDPipeline {
			if p != nil {
				return nil
			}
			p = &udfs[i]
		}
	}
	if p == nil {
		return nil
	}
	for _, u := range udfs {
		if u.Kind == udf.KindRDDLambda && !p.Span.Contains(u.Span) {
			return nil
		}
		if u.Kind != udf.KindRDDLambda && u.Kind != udf.KindRDDPipeline {
			return nil
		}
	}
	return p
}

// compiledTypes are the types scalac gave a Scala UDF whose source
// leaves them to inference (jvm.MissingTypes).
func compiledTypes(u *udf.UDF, limits runner.Limits) *typeinfer.Compiled {
	return jvm.MissingTypes(context.Background(), u, jvm.Options{Limits: limits})
}
