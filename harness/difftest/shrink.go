package difftest

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/engine"
	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// shrinkRounds bounds the search: each round runs the original once on
// every candidate, so a few rounds keep shrinking under a second or two.
const shrinkRounds = 6

// shrink looks for a simpler input on which the original and the rewrite
// still disagree. A scalar UDF is evaluated row by row, so one row is
// always the fewest; what shrinks is the values: each round tries simpler
// replacements for one parameter at a time (NULL, small integers, fewer
// digits, shorter strings) and keeps the simplest that still fails.
// evaluator runs both sides on candidate rows: the original's results as
// Spark would store them, and the rewrite's.
type evaluator func(ctx context.Context, rows [][]value.Value) (origs, gots []value.Value, err error)

// embeddedEvaluator runs the original in its runner and the rewrite on the
// embedded engine.
func embeddedEvaluator(r runner.Runner, expr *engine.Expr, params []inputs.Param, u *udf.UDF, opts Options, mem memory.Allocator) evaluator {
	return func(ctx context.Context, rows [][]value.Value) ([]value.Value, []value.Value, error) {
		origs, err := r.Run(ctx, rows)
		if err != nil {
			return nil, nil, err
		}
		for i := range origs {
			origs[i] = sparkStores(u.Language, u.Return, origs[i], opts.ANSI)
		}
		rec, err := BuildRecord(params, rows, mem)
		if err != nil {
			return nil, nil, err
		}
		defer rec.Release()
		gots, err := evalRewrite(expr, rec, mem)
		if err != nil {
			return nil, nil, err
		}
		return origs, gots, nil
	}
}

func shrink(ctx context.Context, eval evaluator, params []inputs.Param, row []value.Value, o, g value.Value, opts Options) (*Counterexample, error) {
	best := append([]value.Value(nil), row...)
	bestO, bestG := o, g
	shrunk := false
	for round := 0; round < shrinkRounds; round++ {
		var cands [][]value.Value
		for i, p := range params {
			for _, c := range simpler(p.Type, best[i]) {
				cand := append([]value.Value(nil), best...)
				cand[i] = c
				cands = append(cands, cand)
			}
		}
		if len(cands) == 0 {
			break
		}
		origs, gots, err := eval(ctx, cands)
		if err != nil {
			// A side choked on a candidate (a timeout, say, or a Spark job
			// that failed): keep what we have rather than fail the test.
			break
		}
		improved := false
		for i, cand := range cands {
			co := origs[i]
			if verdict(opts, co, gots[i]) != disagree {
				continue
			}
			if rowComplexity(cand) < rowComplexity(best) {
				best, bestO, bestG = cand, co, gots[i]
				improved, shrunk = true, true
			}
		}
		if !improved {
			break
		}
	}
	ce := &Counterexample{Original: JSONValue{bestO}, Rewrite: JSONValue{bestG}, Shrunk: shrunk}
	for i, p := range params {
		ce.Inputs = append(ce.Inputs, NamedValue{Name: p.Name, Value: JSONValue{best[i]}})
	}
	return ce, nil
}

// BuildRecord is rows as an Arrow record with one column per parameter.
func BuildRecord(params []inputs.Param, rows [][]value.Value, mem memory.Allocator) (arrow.RecordBatch, error) {
	fields := make([]arrow.Field, len(params))
	cols := make([]arrow.Array, len(params))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, p := range params {
		at, err := value.ArrowType(p.Type)
		if err != nil {
			return nil, err
		}
		fields[i] = arrow.Field{Name: p.Name, Type: at, Nullable: true}
		b := array.NewBuilder(mem, at)
		for _, row := range rows {
			if err := value.Append(b, row[i]); err != nil {
				b.Release()
				return nil, fmt.Errorf("build candidate row: %w", err)
			}
		}
		cols[i] = b.NewArray()
		b.Release()
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(len(rows))), nil
}

// concat appends b's rows to a's.
func concat(a, b arrow.RecordBatch, mem memory.Allocator) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, a.NumCols())
	for i := range cols {
		c, err := array.Concatenate([]arrow.Array{a.Column(i), b.Column(i)}, mem)
		if err != nil {
			for _, done := range cols[:i] {
				done.Release()
			}
			return nil, fmt.Errorf("append rows: %w", err)
		}
		cols[i] = c
	}
	rec := array.NewRecordBatch(a.Schema(), cols, a.NumRows()+b.NumRows())
	for _, c := range cols {
		c.Release()
	}
	return rec, nil
}

// simpler lists values simpler than v of type t (by complexity).
func simpler(t *udf.Type, v value.Value) []value.Value {
	if v.Kind == value.Null {
		return nil
	}
	var out []value.Value
	add := func(c value.Value) {
		if complexity(c) < complexity(v) {
			out = append(out, c)
		}
	}
	add(value.NullValue())
	switch v.Kind {
	case value.Double, value.Float:
		x := v.Float64()
		mk := value.DoubleOf
		if v.Kind == value.Float {
			x = float64(v.Float32())
			mk = func(f float64) value.Value { return value.FloatOf(float32(f)) }
		}
		// Small integers and tenths cover the values people try first;
		// fewer significant digits walk down from a large failing value.
		for i := 1; i <= 100; i++ {
			add(mk(float64(i)))
			add(mk(-float64(i)))
			add(mk(float64(i) / 10))
			add(mk(-float64(i) / 10))
		}
		add(mk(0))
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			add(mk(math.Trunc(x)))
			add(mk(x / 2))
			for digits := 1; digits <= 6; digits++ {
				if r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', digits, 64), 64); err == nil {
					add(mk(r))
				}
			}
		}
	case value.Int:
		for i := int64(0); i <= 100; i++ {
			add(value.IntOf(i))
			add(value.IntOf(-i))
		}
		add(value.IntOf(v.Int / 2))
		add(value.IntOf(v.Int / 10))
	case value.Decimal:
		for _, c := range []int64{0, 1, -1} {
			add(value.DecimalOf(big.NewInt(c*pow10i(v.Scale)), v.Scale))
		}
	case value.String:
		n := len(v.Units)
		add(value.StringOf(""))
		add(value.StringOf("a"))
		if n > 1 {
			add(value.UnitsOf(v.Units[:n/2]))
			add(value.UnitsOf(v.Units[n/2:]))
			add(value.UnitsOf(v.Units[1:]))
			add(value.UnitsOf(v.Units[:n-1]))
		}
	case value.Bool:
		add(value.BoolOf(false))
	case value.Date, value.Timestamp:
		add(value.Value{Kind: v.Kind})
	case value.Array:
		n := len(v.Elems)
		add(value.ArrayOf())
		if n > 1 {
			add(value.ArrayOf(v.Elems[:n/2]...))
			add(value.ArrayOf(v.Elems[n/2:]...))
			add(value.ArrayOf(v.Elems[1:]...))
		}
	}
	return out
}

func pow10i(scale int32) int64 {
	if scale < 0 || scale > 18 {
		return 0
	}
	p := int64(1)
	for range scale {
		p *= 10
	}
	return p
}

func rowComplexity(row []value.Value) int {
	c := 0
	for _, v := range row {
		c += complexity(v)
	}
	return c
}

// complexity orders values from simple to complicated as a person reads
// them: NULL, then short numbers, short ASCII strings; NaN, infinities and
// long digit strings last.
func complexity(v value.Value) int {
	switch v.Kind {
	case value.Null:
		return 0
	case value.Bool:
		if v.Bool {
			return 2
		}
		return 1
	case value.Int:
		return 1 + len(strconv.FormatInt(v.Int, 10))
	case value.Double, value.Float:
		x := v.Float64()
		if v.Kind == value.Float {
			x = float64(v.Float32())
		}
		switch {
		case math.IsNaN(x):
			return 40
		case math.IsInf(x, 0):
			return 30
		case x == 0 && math.Signbit(x):
			return 5
		}
		return 1 + len(strconv.FormatFloat(x, 'g', -1, 64))
	case value.Decimal:
		return 1 + len(value.DecimalString(v.Unscaled, v.Scale))
	case value.String:
		c := 1
		for _, u := range v.Units {
			c++
			if u > 0x7e || u < 0x20 {
				c += 2
			}
		}
		return c
	case value.Date, value.Timestamp:
		return 1 + len(strconv.FormatInt(v.Int, 10))
	case value.Array, value.Map, value.Struct:
		c := 2
		for _, e := range v.Elems {
			c += complexity(e)
		}
		return c
	}
	return 100
}
