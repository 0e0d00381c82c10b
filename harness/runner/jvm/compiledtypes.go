package jvm

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/sandbox"
	"github.com/udfx/udfx/internal/typeinfer"
)

// ReadCompiledTypes compiles the file of u, a Scala lambda held by an
// object's val (udf(...)'s result) or a def it references, and reads the
// types scalac gave it: for a val, the result and input types Spark's
// udf(...) derived from the TypeTags scalac materialized, which are the
// types Spark uses; for a def, its JVM signature. udfx's own reading of
// the source does not infer a result type as scalac does (a match over
// doubles, BigDecimal(...).setScale(...).toDouble, Option chains); the
// compiled UDF knows it. The object is initialized, in the sandbox, as
// the job initializes it.
func ReadCompiledTypes(ctx context.Context, u *udf.UDF, opts Options) (*typeinfer.Compiled, error) {
	if u.Language != udf.Scala || (u.Kind != udf.KindLambda && u.Kind != udf.KindFunctionRef) {
		return nil, fmt.Errorf("scalac's types are read for Scala lambdas and method references, not a %s %s", u.Language, u.Kind)
	}
	r, err := New(ctx, u, opts)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	// A val lifted out of a method is held by the lifted object under
	// its own name, which the driver finds among the classes.
	args := append(r.driverArgs(), "--types", string(u.Kind), u.Name, r.classes, strconv.Itoa(len(u.Params)))
	tctx, cancel := context.WithTimeout(ctx, r.limits.Timeout)
	defer cancel()
	paths := sandbox.Paths{Readable: append([]string{r.driver, r.classes, r.tools.JavaHome, r.tools.Java, r.tools.SparkJars}, r.buildJars()...)}
	res, err := runTool(tctx, &r.sandbox, paths, r.tools.Java, args...)
	if err != nil {
		return nil, fmt.Errorf("reading the types scalac gave %s: %w", u.Name, err)
	}
	line := ""
	for _, l := range strings.Split(res.output, "\n") {
		if strings.HasPrefix(l, typesPrefix) {
			line = strings.TrimPrefix(l, typesPrefix)
		}
	}
	if line == "" {
		return nil, fmt.Errorf("reading the types scalac gave %s: the JVM exited with %d: %s", u.Name, res.code, tail(res.output, 1000))
	}
	return parseCompiledTypes(u, line)
}

const typesPrefix = "udfx-types\t"

// parseCompiledTypes reads the driver's answer: "T", then the result's
// type and each parameter's, or "X" and why not.
func parseCompiledTypes(u *udf.UDF, line string) (*typeinfer.Compiled, error) {
	f := strings.Split(line, "\t")
	if f[0] == "X" && len(f) == 2 {
		return nil, &runner.NotCallableError{UDF: u.Name, Reason: f[1]}
	}
	if f[0] != "T" || len(f) < 2 {
		return nil, fmt.Errorf("the driver's answer %q is not a list of types", line)
	}
	ct := &typeinfer.Compiled{Detail: "the UserDefinedFunction udf(...) made, from scalac's TypeTags"}
	if strings.HasPrefix(f[1], "J:") {
		ct.Detail = "the compiled method's JVM signature"
	}
	ct.Return, ct.ReturnPrimitive = compiledType(f[1])
	for _, p := range f[2:] {
		t, _ := compiledType(p)
		ct.Params = append(ct.Params, t)
	}
	if len(ct.Params) != len(u.Params) {
		// udf(...) over a function of other arity, or an overload.
		ct.Params = make([]*udf.Type, len(u.Params))
	}
	return ct, nil
}

// compiledType reads one "S:<Spark type>" or "J:<JVM class>"; nil when
// udfx has no Spark type for it (a JVM class whose type arguments were
// erased, such as scala.Option).
func compiledType(s string) (*udf.Type, bool) {
	switch {
	case strings.HasPrefix(s, "S:"):
		if t, err := udf.ParseType(s[2:]); err == nil {
			return t, false
		}
	case strings.HasPrefix(s, "J:"):
		if t, prim, ok := udf.JVMType(udf.Java, s[2:]); ok {
			return t, prim
		}
	}
	return nil, false
}

// MissingTypes is what scalac gave a Scala lambda or method reference
// whose types the source leaves to an inference udfx does not do, for
// typeinfer.Options.Compiled: nil when no type is missing, u is of
// another kind, or they cannot be read (the type then stays unknown,
// with its reason). udfx rewrite and udfx verify both ask it, so that the
// gate reads the types from the compiled original, as the rewrite did,
// not from the record.
func MissingTypes(ctx context.Context, u *udf.UDF, opts Options) *typeinfer.Compiled {
	if u.Language != udf.Scala || (u.Kind != udf.KindLambda && u.Kind != udf.KindFunctionRef) {
		return nil
	}
	missing := u.Return == nil
	for _, p := range u.Params {
		missing = missing || p.Type == nil
	}
	if !missing {
		return nil
	}
	c, err := ReadCompiledTypes(ctx, u, opts)
	if err != nil {
		return nil
	}
	return c
}
