package engine

import (
	"fmt"
	"math/big"

	"github.com/udfx/udfx/harness/udf"
)

// vec is a column of values during evaluation. Fixed-width types live in
// typed slices so that hot loops run over plain Go slices; the others are
// held as Go values in vals:
//
//	boolean            b
//	tinyint..bigint    i64 (also date: days since epoch; timestamp: µs since epoch)
//	float              f32
//	double             f64
//	decimal            vals: *big.Int unscaled, scale from the type
//	string             vals: string (UTF-8 bytes, as Spark's UTF8String)
//	binary             vals: []byte
//	array              vals: []any of element values, nil for a null element
//
// A constant vector (konst) stores one value at index 0 and stands for n
// copies. A row with an error has its error in errs and is null.
type vec struct {
	t     *udf.Type
	n     int
	konst bool
	null  []bool
	errs  []*RowError
	b     []bool
	i64   []int64
	f32   []float32
	f64   []float64
	vals  []any
	// bytes counts the string and binary bytes set so far; past
	// MaxColumnBytes the column refuses further values (full).
	bytes int
}

// MaxColumnBytes bounds the strings and binary values one column of one
// batch holds: repeat() is capped per call, but 10,000 rows of 100 MB
// each took 22 GiB before. Past it, each further row is an
// EMBEDDED_ENGINE_UNSUPPORTED error and is not computed at all.
const MaxColumnBytes = 256 << 20

// byteLen is the size of a string or binary value.
func byteLen(x any) int {
	if s, ok := x.(string); ok {
		return len(s)
	}
	return len(x.([]byte))
}

// full reports whether the column has reached MaxColumnBytes.
func (v *vec) full() bool { return v.bytes > MaxColumnBytes }

var errColumnFull = errUnsupportedValue(fmt.Sprintf("a column of more than %d MiB of strings in one batch", MaxColumnBytes>>20))

// rep says which slice a type uses.
type rep int

const (
	repNone rep = iota
	repBool
	repI64
	repF32
	repF64
	repAny
)

func repOf(t *udf.Type) rep {
	switch t.Kind {
	case udf.Boolean:
		return repBool
	case udf.Byte, udf.Short, udf.Int, udf.Long, udf.Date, udf.Timestamp:
		return repI64
	case udf.Float:
		return repF32
	case udf.Double:
		return repF64
	case "void":
		return repNone
	}
	return repAny
}

// newVec allocates a vector of n rows (all valid, zero values).
func newVec(t *udf.Type, n int) *vec {
	v := &vec{t: t, n: n}
	switch repOf(t) {
	case repBool:
		v.b = make([]bool, n)
	case repI64:
		v.i64 = make([]int64, n)
	case repF32:
		v.f32 = make([]float32, n)
	case repF64:
		v.f64 = make([]float64, n)
	case repAny:
		v.vals = make([]any, n)
	case repNone:
		v.null = make([]bool, n)
		for i := range v.null {
			v.null[i] = true
		}
	}
	return v
}

// constVec is a vector of n copies of x (nil for null).
func constVec(t *udf.Type, n int, x any) *vec {
	v := newVec(t, 1)
	v.n = n
	v.konst = true
	if x == nil {
		v.null = []bool{true}
	} else {
		v.set(0, x)
	}
	return v
}

func (v *vec) ix(i int) int {
	if v.konst {
		return 0
	}
	return i
}

func (v *vec) isNull(i int) bool {
	return v.null != nil && v.null[v.ix(i)]
}

func (v *vec) errAt(i int) *RowError {
	if v.errs == nil {
		return nil
	}
	return v.errs[v.ix(i)]
}

// get returns row i as a Go value, nil when null.
func (v *vec) get(i int) any {
	i = v.ix(i)
	if v.null != nil && v.null[i] {
		return nil
	}
	switch {
	case v.b != nil:
		return v.b[i]
	case v.i64 != nil:
		return v.i64[i]
	case v.f32 != nil:
		return v.f32[i]
	case v.f64 != nil:
		return v.f64[i]
	case v.vals != nil:
		return v.vals[i]
	}
	return nil
}

// set stores a non-nil Go value at row i; nil stores a null.
func (v *vec) set(i int, x any) {
	if x == nil {
		v.setNull(i)
		return
	}
	switch t := x.(type) {
	case bool:
		v.b[i] = t
	case int64:
		v.i64[i] = t
	case float32:
		v.f32[i] = t
	case float64:
		v.f64[i] = t
	case string, []byte:
		if v.bytes += byteLen(t); v.full() {
			v.setErr(i, errColumnFull)
			return
		}
		v.vals[i] = x
	default:
		v.vals[i] = x
	}
}

func (v *vec) setNull(i int) {
	if v.null == nil {
		v.null = make([]bool, len(v.nullBacking()))
	}
	v.null[i] = true
}

// nullBacking returns a slice whose length is the number of stored rows.
func (v *vec) nullBacking() []struct{} {
	if v.konst {
		return make([]struct{}, 1)
	}
	return make([]struct{}, v.n)
}

func (v *vec) setErr(i int, e *RowError) {
	if e == nil {
		return
	}
	v.setNull(i)
	if v.errs == nil {
		v.errs = make([]*RowError, v.n)
	}
	v.errs[i] = e
}

// materialize returns a non-constant copy of a constant vector.
func (v *vec) materialize() *vec {
	if !v.konst {
		return v
	}
	out := newVec(v.t, v.n)
	for i := 0; i < v.n; i++ {
		out.copyRow(i, v, i)
	}
	return out
}

// copyRow copies row j of src (value, null and error) into row i of v.
func (v *vec) copyRow(i int, src *vec, j int) {
	if e := src.errAt(j); e != nil {
		v.setErr(i, e)
		return
	}
	x := src.get(j)
	if x == nil {
		v.setNull(i)
		return
	}
	if v.null != nil {
		v.null[i] = false
	}
	v.set(i, x)
}

// gather builds a vector of rows idx of v. Its strings and arrays are
// v's, shared, not copied, so they count toward MaxColumnBytes once, in
// v: a lambda over the 10,000 code points of a long string reads the
// string in each element's row.
func (v *vec) gather(idx []int) *vec {
	if v.konst {
		c := *v
		c.n = len(idx)
		return &c
	}
	out := newVec(v.t, len(idx))
	for i, j := range idx {
		if x := v.get(j); x != nil && out.vals != nil { // a row with an error is null
			out.vals[i] = x
			continue
		}
		out.copyRow(i, v, j)
	}
	return out
}

// hasNullsOrErrs is true when any row is null or an error.
func (v *vec) hasNulls() bool {
	if v.null == nil {
		return false
	}
	for _, b := range v.null {
		if b {
			return true
		}
	}
	return false
}

// decimal helpers

var pow10Table = func() []*big.Int {
	t := make([]*big.Int, 80)
	t[0] = big.NewInt(1)
	for i := 1; i < len(t); i++ {
		t[i] = new(big.Int).Mul(t[i-1], big.NewInt(10))
	}
	return t
}()

// pow10 returns 10^n; the result must not be modified.
func pow10(n int) *big.Int {
	if n < len(pow10Table) {
		return pow10Table[n]
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// fitsPrecision reports whether an unscaled value has at most p digits.
func fitsPrecision(u *big.Int, p int) bool {
	if u.Sign() < 0 {
		return new(big.Int).Neg(u).Cmp(pow10(p)) < 0
	}
	return u.Cmp(pow10(p)) < 0
}
