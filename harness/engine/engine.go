// Package engine evaluates Spark SQL scalar expressions over Arrow record
// batches with Spark 4.1's semantics (ANSI mode on or off), so that a
// rewrite of a UDF can be checked without a Spark cluster. Whatever it
// cannot reproduce exactly is a named error: an unsupported function
// (UnsupportedFunctionError), a Java regular expression construct RE2
// cannot match identically (UnsupportedRegexError), or, for a rare input
// value, a row error with condition EMBEDDED_ENGINE_UNSUPPORTED.
package engine

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/udf"
)

// Options are the Spark session settings the engine honours.
type Options struct {
	ANSI     bool   // spark.sql.ansi.enabled: Spark 4 defaults to true, 3.5 to false
	TimeZone string // spark.sql.session.timeZone; "" is UTC
	// ApproxMath admits the transcendental functions the engine does not
	// reproduce bit for bit (pow, sin, cos, tan, asin, acos, atan, atan2,
	// hypot). The JVM computes them with CPU-specific intrinsics that the
	// engine matches only to within 1 ulp, so by default they are an
	// *UnsupportedFunctionError; with ApproxMath the caller must compare
	// their results with a 1-ulp tolerance. The logarithms, exp, sinh,
	// cosh, tanh and cbrt are exact (java.lang.StrictMath, fdlibm.go) and
	// need no ApproxMath.
	ApproxMath bool
}

// Column is an input column of the record batches an expression reads.
type Column struct {
	Name string
	Type *udf.Type
}

// Expr is a compiled expression.
type Expr struct {
	src  string
	root node
	cols []Column
	opts Options
	loc  *time.Location
}

// Result is an evaluated column: one value per row; a row that raised an
// error has a null value and an entry in Errors (ordered by row).
type Result struct {
	Values arrow.Array
	Errors []RowError
}

// Compile parses and analyzes a Spark SQL scalar expression over cols.
func Compile(expr string, cols []Column, opts Options) (*Expr, error) {
	loc := time.UTC
	if opts.TimeZone != "" && opts.TimeZone != "UTC" {
		l, ok := parseZone(opts.TimeZone)
		if !ok {
			return nil, fmt.Errorf("engine: unknown session time zone %q", opts.TimeZone)
		}
		loc = l
	}
	for _, c := range cols {
		if c.Type == nil {
			return nil, fmt.Errorf("engine: column %q has no type", c.Name)
		}
		if err := checkArrowType(c.Type); err != nil {
			return nil, fmt.Errorf("engine: column %q: %w", c.Name, err)
		}
	}
	toks, err := lex(expr)
	if err != nil {
		return nil, err
	}
	tree, err := parse(expr)
	if err != nil {
		if uerr := scanUnsafe(toks, columnNames(cols)); uerr != nil {
			return nil, uerr
		}
		return nil, err
	}
	if err := refuseUnsafe(toks, tree, cols); err != nil {
		return nil, err
	}
	a := &analyzer{cols: cols, ansi: opts.ANSI, loc: loc, approxMath: opts.ApproxMath}
	root, err := a.analyze(tree)
	if err != nil {
		return nil, err
	}
	if err := checkArrowType(root.typ()); err != nil && !isVoid(root.typ()) {
		// e.g. array<void> (array()): Spark has it, the Arrow mapping not.
		return nil, &UnsupportedFunctionError{Name: "a result of type " + root.typ().String()}
	}
	return &Expr{src: expr, root: root, cols: cols, opts: opts, loc: loc}, nil
}

// Type is the Spark type of the expression's result ("void" for a bare NULL).
func (e *Expr) Type() *udf.Type { return e.root.typ() }

// String returns the source expression.
func (e *Expr) String() string { return e.src }

// Eval evaluates the expression on every row of rec. Columns are found by
// name (case-insensitively, as Spark does) and must have the Arrow types
// that the compile-time Spark types map to (see SUPPORTED.md).
func (e *Expr) Eval(rec arrow.RecordBatch, mem memory.Allocator) (Result, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	n := int(rec.NumRows())
	c := &ctx{n: n, ansi: e.opts.ANSI, loc: e.loc, cols: make([]*vec, len(e.cols))}
	schema := rec.Schema()
	for i, col := range e.cols {
		idx := -1
		for j, f := range schema.Fields() {
			if f.Name == col.Name {
				idx = j
				break
			}
		}
		if idx < 0 {
			for j, f := range schema.Fields() {
				if equalFold(f.Name, col.Name) {
					idx = j
					break
				}
			}
		}
		if idx < 0 {
			return Result{}, fmt.Errorf("engine: the record batch has no column %q", col.Name)
		}
		v, err := fromArrow(rec.Column(idx), col.Type)
		if err != nil {
			return Result{}, fmt.Errorf("engine: column %q: %w", col.Name, err)
		}
		c.cols[i] = v
	}
	out, err := e.root.eval(c)
	if err != nil {
		return Result{}, fmt.Errorf("engine: evaluating %q: %w", e.src, err)
	}
	arr, err := toArrow(out, e.root.typ(), mem)
	if err != nil {
		return Result{}, fmt.Errorf("engine: result of %q: %w", e.src, err)
	}
	var errs []RowError
	if out.errs != nil {
		for i := 0; i < n; i++ {
			if re := out.errAt(i); re != nil {
				r := *re
				r.Row = i
				errs = append(errs, r)
			}
		}
	}
	return Result{Values: arr, Errors: errs}, nil
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
