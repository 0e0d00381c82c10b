package engine

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/udfx/udfx/harness/udf"
)

// strictRow evaluates a function that is NULL when any argument is NULL.
// Arguments are looked at left to right and the first error or NULL wins,
// as in Spark's generated code, where a later argument is not evaluated
// once an earlier one is NULL.
func strictRow(t *udf.Type, fn func(args []any) (any, *RowError)) func(c *ctx, f *fnNode) (*vec, error) {
	return func(c *ctx, f *fnNode) (*vec, error) {
		args, err := f.evalArgs(c)
		if err != nil {
			return nil, err
		}
		return applyStrict(c.n, t, args, fn), nil
	}
}

func applyStrict(n int, t *udf.Type, args []*vec, fn func(args []any) (any, *RowError)) *vec {
	out := newVec(t, n)
	row := make([]any, len(args))
rows:
	for i := 0; i < n; i++ {
		if out.full() {
			out.setErr(i, errColumnFull)
			continue
		}
		for k, a := range args {
			if e := a.errAt(i); e != nil {
				out.setErr(i, e)
				continue rows
			}
			x := a.get(i)
			if x == nil {
				out.setNull(i)
				continue rows
			}
			row[k] = x
		}
		v, e := fn(row)
		if e != nil {
			out.setErr(i, e)
		} else {
			out.set(i, v)
		}
	}
	return out
}

// anyRow evaluates a function that sees NULL arguments (as nil) itself.
// Errors in arguments still propagate left to right.
func anyRow(t *udf.Type, fn func(args []any) (any, *RowError)) func(c *ctx, f *fnNode) (*vec, error) {
	return func(c *ctx, f *fnNode) (*vec, error) {
		args, err := f.evalArgs(c)
		if err != nil {
			return nil, err
		}
		out := newVec(t, c.n)
		row := make([]any, len(args))
	rows:
		for i := 0; i < c.n; i++ {
			if out.full() {
				out.setErr(i, errColumnFull)
				continue
			}
			for k, a := range args {
				if e := a.errAt(i); e != nil {
					out.setErr(i, e)
					continue rows
				}
				row[k] = a.get(i)
			}
			v, e := fn(row)
			if e != nil {
				out.setErr(i, e)
			} else {
				out.set(i, v)
			}
		}
		return out, nil
	}
}

func overflowErr(t *udf.Type, op string) *RowError {
	fn := map[string]string{"+": "try_add", "-": "try_subtract", "*": "try_multiply"}[op]
	switch t.Kind {
	case udf.Byte, udf.Short:
		return rowErr(classArithmetic, "BINARY_ARITHMETIC_OVERFLOW", "%s caused overflow. Use `%s` to ignore overflow problem and return NULL.", op, fn)
	}
	name := "integer"
	if t.Kind == udf.Long {
		name = "long"
	}
	if fn == "" {
		return rowErr(classArithmetic, "ARITHMETIC_OVERFLOW", "%s overflow. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.", name)
	}
	return rowErr(classArithmetic, "ARITHMETIC_OVERFLOW", "%s overflow. Use '%s' to tolerate overflow and return NULL instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.", name, fn)
}

var (
	errDivZero = rowErr(classArithmetic, "DIVIDE_BY_ZERO", "Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.")
	errRemZero = rowErr(classArithmetic, "REMAINDER_BY_ZERO", "Remainder by zero. Use `try_mod` to tolerate divisor being 0 and return NULL instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.")
)

func decOverflowErr(u *big.Int, t *udf.Type) *RowError {
	return rowErr(classArithmetic, "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION", "%s cannot be represented as Decimal(%d, %d). If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error, and return NULL instead.", decString(u, t.Scale), t.Precision, t.Scale)
}

// wrapInt narrows an int64 to the integral type t as the JVM does.
func wrapInt(v int64, t *udf.Type) int64 {
	switch t.Kind {
	case udf.Byte:
		return int64(int8(v))
	case udf.Short:
		return int64(int16(v))
	case udf.Int:
		return int64(int32(v))
	}
	return v
}

func fitsInt(v int64, t *udf.Type) bool { return wrapInt(v, t) == v }

// intArith applies + - * to integral values of type t: wrapping with ANSI
// off, ARITHMETIC_OVERFLOW with it on.
func intArith(op string, t *udf.Type, ansi bool) func(x, y int64) (int64, *RowError) {
	return func(x, y int64) (int64, *RowError) {
		var r int64
		over := false
		switch op {
		case "+":
			r = x + y
			over = (x^r)&(y^r) < 0
		case "-":
			r = x - y
			over = (x^y)&(x^r) < 0
		case "*":
			hi, lo := bits.Mul64(uint64(absI(x)), uint64(absI(y)))
			r = x * y
			neg := (x < 0) != (y < 0)
			over = hi != 0 || lo > math.MaxInt64 && !(neg && lo == 1<<63)
			if x == math.MinInt64 && (y != 0 && y != 1) || y == math.MinInt64 && (x != 0 && x != 1) {
				over = true
			}
		}
		if t.Kind != udf.Long {
			over = over || !fitsInt(r, t)
			if !ansi {
				r = wrapInt(r, t)
			}
		}
		if over && ansi {
			return 0, overflowErr(t, op)
		}
		return r, nil
	}
}

func absI(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// arithF64 runs a double operator over whole slices: the hot path.
func arithF64(op string, x, y *vec, n int) *vec {
	out := &vec{t: tDouble, n: n, f64: make([]float64, n)}
	o := out.f64
	switch {
	case !x.konst && !y.konst:
		a, b := x.f64[:n], y.f64[:n]
		switch op {
		case "+":
			for i := range o {
				o[i] = a[i] + b[i]
			}
		case "-":
			for i := range o {
				o[i] = a[i] - b[i]
			}
		case "*":
			for i := range o {
				o[i] = a[i] * b[i]
			}
		}
	case x.konst && !y.konst:
		a, b := x.f64[0], y.f64[:n]
		switch op {
		case "+":
			for i := range o {
				o[i] = a + b[i]
			}
		case "-":
			for i := range o {
				o[i] = a - b[i]
			}
		case "*":
			for i := range o {
				o[i] = a * b[i]
			}
		}
	case !x.konst && y.konst:
		a, b := x.f64[:n], y.f64[0]
		switch op {
		case "+":
			for i := range o {
				o[i] = a[i] + b
			}
		case "-":
			for i := range o {
				o[i] = a[i] - b
			}
		case "*":
			for i := range o {
				o[i] = a[i] * b
			}
		}
	default:
		return nil
	}
	out.null = orNulls(x, y, n)
	return out
}

// orNulls merges the null masks of two error-free vectors.
func orNulls(x, y *vec, n int) []bool {
	if x.null == nil && y.null == nil {
		return nil
	}
	m := make([]bool, n)
	for i := range m {
		m[i] = x.isNull(i) || y.isNull(i)
	}
	return m
}

// binaryArith builds + - * for numeric type t.
func binaryArith(op string, t *udf.Type, ansi bool) func(c *ctx, f *fnNode) (*vec, error) {
	var row func(a []any) (any, *RowError)
	switch {
	case t.Kind == udf.Double:
		row = func(a []any) (any, *RowError) {
			x, y := a[0].(float64), a[1].(float64)
			switch op {
			case "+":
				return x + y, nil
			case "-":
				return x - y, nil
			}
			return x * y, nil
		}
	case t.Kind == udf.Float:
		row = func(a []any) (any, *RowError) {
			x, y := a[0].(float32), a[1].(float32)
			switch op {
			case "+":
				return x + y, nil
			case "-":
				return x - y, nil
			}
			return x * y, nil
		}
	case isIntegral(t):
		ia := intArith(op, t, ansi)
		row = func(a []any) (any, *RowError) {
			r, e := ia(a[0].(int64), a[1].(int64))
			if e != nil {
				return nil, e
			}
			return r, nil
		}
	case t.Kind == udf.Decimal:
		row = nil
	}
	return func(c *ctx, f *fnNode) (*vec, error) {
		args, err := f.evalArgs(c)
		if err != nil {
			return nil, err
		}
		x, y := args[0], args[1]
		if t.Kind == udf.Double && x.errs == nil && y.errs == nil {
			if out := arithF64(op, x, y, c.n); out != nil {
				return out, nil
			}
		}
		if t.Kind == udf.Decimal {
			lt, rt := f.args[0].typ(), f.args[1].typ()
			return applyStrict(c.n, t, args, func(a []any) (any, *RowError) {
				return decArith(op, a[0].(*big.Int), lt, a[1].(*big.Int), rt, t, ansi)
			}), nil
		}
		return applyStrict(c.n, t, args, row), nil
	}
}

// decArith computes a decimal + - * / % with Spark's result type t. The
// exact result is rounded HALF_UP to t's scale; one that does not fit t's
// precision is NULL (ANSI off) or NUMERIC_VALUE_OUT_OF_RANGE.
func decArith(op string, x *big.Int, xt *udf.Type, y *big.Int, yt *udf.Type, t *udf.Type, ansi bool) (any, *RowError) {
	s := max(xt.Scale, yt.Scale)
	var r *big.Int
	rs := s
	switch op {
	case "+", "-", "%":
		xa := rescaleExact(x, xt.Scale, s)
		ya := rescaleExact(y, yt.Scale, s)
		switch op {
		case "+":
			r = new(big.Int).Add(xa, ya)
		case "-":
			r = new(big.Int).Sub(xa, ya)
		default:
			if ya.Sign() == 0 {
				if ansi {
					return nil, errRemZero
				}
				return nil, nil
			}
			r = new(big.Int).Rem(xa, ya) // truncated: takes the dividend's sign, like BigDecimal.remainder
		}
	case "*":
		r = new(big.Int).Mul(x, y)
		rs = xt.Scale + yt.Scale
	case "/":
		if y.Sign() == 0 {
			if ansi {
				return nil, errDivZero
			}
			return nil, nil
		}
		// Spark's Decimal./ divides to scale 38 with HALF_UP, then the
		// result is rounded again to the result type's scale.
		const divScale = udf.MaxDecimalPrecision
		num := new(big.Int).Mul(x, pow10(divScale+yt.Scale))
		den := new(big.Int).Mul(y, pow10(xt.Scale))
		r = divHalfUp(num, den)
		rs = divScale
	}
	out := roundHalfUp(r, rs, t.Scale)
	if !fitsPrecision(out, t.Precision) {
		if ansi {
			return nil, decOverflowErr(out, t)
		}
		return nil, nil
	}
	return out, nil
}

// rescaleExact multiplies an unscaled value up to a larger scale.
func rescaleExact(u *big.Int, from, to int) *big.Int {
	if to == from {
		return u
	}
	return new(big.Int).Mul(u, pow10(to-from))
}

// roundHalfUp changes the scale of an unscaled value, rounding half away
// from zero (java.math.RoundingMode.HALF_UP).
func roundHalfUp(u *big.Int, from, to int) *big.Int {
	if to >= from {
		return rescaleExact(u, from, to)
	}
	return divHalfUp(u, pow10(from-to))
}

// divHalfUp is num/den rounded half away from zero.
func divHalfUp(num, den *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Sign() == 0 {
		return q
	}
	r2 := new(big.Int).Abs(r)
	r2.Lsh(r2, 1)
	if r2.CmpAbs(den) >= 0 {
		if (num.Sign() < 0) != (den.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// divHalfEven is num/den rounded half to even.
func divHalfEven(num, den *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Sign() == 0 {
		return q
	}
	r2 := new(big.Int).Abs(r)
	r2.Lsh(r2, 1)
	c := r2.CmpAbs(den)
	if c > 0 || c == 0 && q.Bit(0) == 1 {
		if (num.Sign() < 0) != (den.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// divMod evaluates / div % pmod with Spark's order: divisor first; a NULL
// divisor or (ANSI off) a zero divisor is NULL without looking at the
// dividend; a NULL dividend is NULL; then a zero divisor is an error.
func divMod(t *udf.Type, ansi bool, op string) func(c *ctx, f *fnNode) (*vec, error) {
	return func(c *ctx, f *fnNode) (*vec, error) {
		args, err := f.evalArgs(c)
		if err != nil {
			return nil, err
		}
		x, y := args[0], args[1]
		lt, rt := f.args[0].typ(), f.args[1].typ()
		n := c.n
		// Hot path: double / double with no errors and no zero divisors.
		if op == "/" && t.Kind == udf.Double && x.errs == nil && y.errs == nil {
			if out := divF64(x, y, n); out != nil {
				return out, nil
			}
		}
		zeroErr := errDivZero
		if op == "%" || op == "pmod" {
			zeroErr = errRemZero
		}
		out := newVec(t, n)
		for i := 0; i < n; i++ {
			if e := y.errAt(i); e != nil {
				out.setErr(i, e)
				continue
			}
			yv := y.get(i)
			if yv == nil {
				out.setNull(i)
				continue
			}
			zero := isZero(yv)
			if zero && !ansi {
				out.setNull(i)
				continue
			}
			if e := x.errAt(i); e != nil {
				out.setErr(i, e)
				continue
			}
			xv := x.get(i)
			if xv == nil {
				out.setNull(i)
				continue
			}
			if zero {
				out.setErr(i, zeroErr)
				continue
			}
			r, e := divModValue(op, xv, lt, yv, rt, t, ansi)
			if e != nil {
				out.setErr(i, e)
			} else {
				out.set(i, r)
			}
		}
		return out, nil
	}
}

func divF64(x, y *vec, n int) *vec {
	out := &vec{t: tDouble, n: n, f64: make([]float64, n)}
	o := out.f64
	if y.konst {
		b := y.f64[0]
		if b == 0 {
			return nil
		}
		if x.konst {
			return nil
		}
		a := x.f64[:n]
		for i := range o {
			o[i] = a[i] / b
		}
		out.null = orNulls(x, y, n)
		return out
	}
	b := y.f64[:n]
	for i, v := range b {
		if v == 0 && !y.isNull(i) {
			return nil
		}
	}
	if x.konst {
		a := x.f64[0]
		for i := range o {
			o[i] = a / b[i]
		}
	} else {
		a := x.f64[:n]
		for i := range o {
			o[i] = a[i] / b[i]
		}
	}
	out.null = orNulls(x, y, n)
	return out
}

func isZero(v any) bool {
	switch v := v.(type) {
	case int64:
		return v == 0
	case float64:
		return v == 0
	case float32:
		return v == 0
	case *big.Int:
		return v.Sign() == 0
	}
	return false
}

func divModValue(op string, x any, xt *udf.Type, y any, yt *udf.Type, t *udf.Type, ansi bool) (any, *RowError) {
	switch op {
	case "/":
		if t.Kind == udf.Double {
			return x.(float64) / y.(float64), nil
		}
		return decArith("/", x.(*big.Int), xt, y.(*big.Int), yt, t, ansi)
	case "div":
		if xt.Kind == udf.Decimal {
			// Decimal div: the truncated quotient as a bigint.
			s := max(xt.Scale, yt.Scale)
			q := new(big.Int).Quo(rescaleExact(x.(*big.Int), xt.Scale, s), rescaleExact(y.(*big.Int), yt.Scale, s))
			if !q.IsInt64() {
				if ansi {
					return nil, overflowErr(tLong, "div")
				}
				return q.Int64(), nil
			}
			return q.Int64(), nil
		}
		a, b := x.(int64), y.(int64)
		if a == math.MinInt64 && b == -1 {
			if ansi {
				return nil, overflowErr(tLong, "div")
			}
			return a, nil
		}
		return a / b, nil
	case "%", "pmod":
		var r any
		switch t.Kind {
		case udf.Double:
			r = math.Mod(x.(float64), y.(float64))
		case udf.Float:
			r = float32(math.Mod(float64(x.(float32)), float64(y.(float32))))
		case udf.Decimal:
			v, e := decArith("%", x.(*big.Int), xt, y.(*big.Int), yt, t, ansi)
			if e != nil || v == nil {
				return v, e
			}
			r = v
		default:
			a, b := x.(int64), y.(int64)
			if b == -1 {
				r = int64(0)
			} else {
				r = a % b
			}
		}
		if op == "pmod" {
			return pmodFix(r, y, t, xt, yt, ansi)
		}
		return r, nil
	}
	return nil, nil
}

// pmodFix turns a remainder into pmod's: r < 0 ? (r + n) % n : r.
func pmodFix(r, n any, t, xt, yt *udf.Type, ansi bool) (any, *RowError) {
	switch r := r.(type) {
	case int64:
		m := n.(int64)
		if r < 0 {
			if m == -1 {
				return int64(0), nil
			}
			return wrapInt((wrapInt(r+m, t))%m, t), nil
		}
		return r, nil
	case float64:
		if r < 0 {
			return math.Mod(r+n.(float64), n.(float64)), nil
		}
		return r, nil
	case float32:
		if r < 0 {
			return float32(math.Mod(float64(r+n.(float32)), float64(n.(float32)))), nil
		}
		return r, nil
	case *big.Int:
		if r.Sign() < 0 {
			rt := t
			sum, e := decArith("+", r, rt, n.(*big.Int), yt, udf.DecimalOf(udf.MaxDecimalPrecision, t.Scale), ansi)
			if e != nil || sum == nil {
				return sum, e
			}
			return decArith("%", sum.(*big.Int), udf.DecimalOf(udf.MaxDecimalPrecision, t.Scale), n.(*big.Int), yt, t, ansi)
		}
		return r, nil
	}
	return r, nil
}
