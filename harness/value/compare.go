package value

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
)

// Policy says when two values count as equal. The zero Policy is
// bit-exact: NaN equals NaN whatever its payload (Spark does not keep
// payloads apart either), and -0.0 differs from 0.0.
type Policy struct {
	// LenientSignedZero makes -0.0 equal 0.0.
	LenientSignedZero bool `json:"lenient_signed_zero"`
	// ULP accepts floating-point values at most this many units in the
	// last place apart.
	ULP int64 `json:"ulp,omitempty"`
	// Rel accepts |a-b| <= Rel × max(|a|, |b|).
	Rel float64 `json:"rel,omitempty"`
	// Abs accepts |a-b| <= Abs.
	Abs float64 `json:"abs,omitempty"`
}

// Exact reports whether the policy is bit-exact.
func (p Policy) Exact() bool { return p == Policy{} }

func (p Policy) String() string {
	var tol []string
	if p.ULP > 0 {
		tol = append(tol, fmt.Sprintf("%d ulp", p.ULP))
	}
	if p.Rel > 0 {
		tol = append(tol, fmt.Sprintf("relative %g", p.Rel))
	}
	if p.Abs > 0 {
		tol = append(tol, fmt.Sprintf("absolute %g", p.Abs))
	}
	if len(tol) == 0 {
		if p.LenientSignedZero {
			return "bit-exact but -0.0 = 0.0"
		}
		return "bit-exact"
	}
	// Not "bit-exact, within ...": a tolerance is the point.
	s := "within " + strings.Join(tol, " or ")
	if p.LenientSignedZero {
		s += ", -0.0 = 0.0"
	}
	return s
}

// Equal reports whether a and b are equal under p. Nested values compare
// deeply; maps compare as sets of entries, since a JVM HashMap and Spark
// order them differently. Two errors are equal when their classes are.
func (p Policy) Equal(a, b Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Null:
		return true
	case Bool:
		return a.Bool == b.Bool
	case Int, Date, Timestamp:
		return a.Int == b.Int
	case Double:
		return p.floatsEqual(a.Float64(), b.Float64(), a.Bits, b.Bits, 64)
	case Float:
		return p.floatsEqual(float64(a.Float32()), float64(b.Float32()), a.Bits, b.Bits, 32)
	case Decimal:
		return decimalEqual(a, b)
	case String:
		return slices.Equal(a.Units, b.Units)
	case Binary:
		return string(a.Bytes) == string(b.Bytes)
	case Array, Struct:
		if len(a.Elems) != len(b.Elems) {
			return false
		}
		for i := range a.Elems {
			if !p.Equal(a.Elems[i], b.Elems[i]) {
				return false
			}
		}
		return true
	case Map:
		return p.mapsEqual(a, b)
	case Error:
		return a.Class == b.Class
	}
	return false
}

func (p Policy) floatsEqual(x, y float64, xb, yb uint64, size int) bool {
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.IsNaN(x) && math.IsNaN(y)
	}
	if xb == yb {
		return true
	}
	if x == 0 && y == 0 {
		return p.LenientSignedZero
	}
	if math.IsInf(x, 0) || math.IsInf(y, 0) {
		return false
	}
	if p.ULP > 0 && ulpDistance(xb, yb, size) <= uint64(p.ULP) {
		return true
	}
	d := math.Abs(x - y)
	if p.Abs > 0 && d <= p.Abs {
		return true
	}
	return p.Rel > 0 && d <= p.Rel*math.Max(math.Abs(x), math.Abs(y))
}

// ulpDistance counts the representable values between two finite floats
// by mapping their bit patterns onto one ordered integer line.
func ulpDistance(a, b uint64, size int) uint64 {
	order := func(bits uint64) int64 {
		sign := uint64(1) << 63
		if size == 32 {
			sign = 1 << 31
		}
		if bits&sign != 0 {
			return -int64(bits &^ sign)
		}
		return int64(bits)
	}
	d := order(a) - order(b)
	if d < 0 {
		d = -d
	}
	return uint64(d)
}

func (p Policy) mapsEqual(a, b Value) bool {
	if len(a.Elems) != len(b.Elems) {
		return false
	}
	used := make([]bool, len(b.Elems)/2)
	for i := 0; i < len(a.Elems); i += 2 {
		found := false
		for j := 0; j < len(b.Elems); j += 2 {
			if !used[j/2] && p.Equal(a.Elems[i], b.Elems[j]) && p.Equal(a.Elems[i+1], b.Elems[j+1]) {
				used[j/2], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// decimalEqual compares two decimals by value (1.50 equals 1.5). Both are
// brought to their shortest form (no trailing zeros), which is unique, so
// no power of ten as large as a wild scale is ever built.
func decimalEqual(a, b Value) bool {
	ua, sa := normalize(bigOrZero(a.Unscaled), int64(a.Scale))
	ub, sb := normalize(bigOrZero(b.Unscaled), int64(b.Scale))
	if ua.Sign() == 0 || ub.Sign() == 0 {
		return ua.Sign() == ub.Sign()
	}
	return sa == sb && ua.Cmp(ub) == 0
}

// normalize works on a copy: the callers' values must stay as they are.
func normalize(u *big.Int, scale int64) (*big.Int, int64) {
	if u.Sign() == 0 {
		return new(big.Int), 0
	}
	u = new(big.Int).Set(u)
	ten := big.NewInt(10)
	q, r := new(big.Int), new(big.Int)
	for {
		q.QuoRem(u, ten, r)
		if r.Sign() != 0 {
			return u, scale
		}
		u, q = q, u
		scale--
	}
}

func bigOrZero(b *big.Int) *big.Int {
	if b == nil {
		return new(big.Int)
	}
	return b
}

func pow10(n int32) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}
