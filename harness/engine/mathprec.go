package engine

import (
	"math"
	"math/big"
	"sync"
)

// Higher-precision helpers that keep the transcendental functions (admitted
// only with Options.ApproxMath) within 1 ulp of the JVM where Go's math
// package is further off.

const bigPrec = 1300 // enough to reduce any double modulo pi/2 exactly enough

var (
	halfPiOnce sync.Once
	halfPi     *big.Float
)

// bigHalfPi is pi/2 to bigPrec bits, by Machin's formula
// pi = 16 atan(1/5) - 4 atan(1/239).
func bigHalfPi() *big.Float {
	halfPiOnce.Do(func() {
		atanInv := func(n int64) *big.Float {
			// atan(1/n) = sum (-1)^k / ((2k+1) n^(2k+1))
			sum := new(big.Float).SetPrec(bigPrec + 64)
			nn := new(big.Float).SetPrec(bigPrec + 64).SetInt64(n * n)
			pow := new(big.Float).SetPrec(bigPrec+64).Quo(big.NewFloat(1).SetPrec(bigPrec+64), new(big.Float).SetInt64(n))
			eps := new(big.Float).SetMantExp(big.NewFloat(1), -(bigPrec + 40))
			for k := int64(0); ; k++ {
				term := new(big.Float).SetPrec(bigPrec+64).Quo(pow, new(big.Float).SetInt64(2*k+1))
				if k%2 == 0 {
					sum.Add(sum, term)
				} else {
					sum.Sub(sum, term)
				}
				if term.Cmp(eps) < 0 {
					break
				}
				pow.Quo(pow, nn)
			}
			return sum
		}
		pi := new(big.Float).SetPrec(bigPrec+64).Mul(big.NewFloat(16), atanInv(5))
		pi.Sub(pi, new(big.Float).SetPrec(bigPrec+64).Mul(big.NewFloat(4), atanInv(239)))
		halfPi = pi.Quo(pi, big.NewFloat(2))
	})
	return halfPi
}

// reducePiOver2 returns k mod 4 and r = x - k*pi/2 (|r| <= pi/4), computed
// with an exact-enough pi/2 (Go's math.Sin loses accuracy here: its
// sin(pi) is 7 ulps from Java's 1.2246467991473532E-16).
func reducePiOver2(x float64) (int, float64) {
	hp := bigHalfPi()
	bx := new(big.Float).SetPrec(bigPrec + 64).SetFloat64(x)
	q := new(big.Float).SetPrec(bigPrec+64).Quo(bx, hp)
	// k = round(q)
	q.Add(q, new(big.Float).SetFloat64(0.5))
	k, _ := q.Int(nil)
	if q.Sign() < 0 && !q.IsInt() {
		k.Sub(k, big.NewInt(1))
	}
	r := new(big.Float).SetPrec(bigPrec+64).Mul(new(big.Float).SetPrec(bigPrec+64).SetInt(k), hp)
	r.Sub(bx, r)
	rf, _ := r.Float64()
	m := new(big.Int).And(k, big.NewInt(3))
	return int(m.Int64()), rf
}

func jSin(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) <= math.Pi/4 {
		return math.Sin(x)
	}
	k, r := reducePiOver2(x)
	switch k {
	case 0:
		return math.Sin(r)
	case 1:
		return math.Cos(r)
	case 2:
		return -math.Sin(r)
	}
	return -math.Cos(r)
}

func jCos(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) <= math.Pi/4 {
		return math.Cos(x)
	}
	k, r := reducePiOver2(x)
	switch k {
	case 0:
		return math.Cos(r)
	case 1:
		return -math.Sin(r)
	case 2:
		return -math.Cos(r)
	}
	return math.Sin(r)
}

func jTan(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) <= math.Pi/4 {
		return math.Tan(x)
	}
	k, r := reducePiOver2(x)
	if k%2 == 0 {
		return math.Tan(r)
	}
	return -1 / math.Tan(r)
}

// powInt is x^n for an integral exponent, computed with 256-bit
// intermediates and rounded once (Go's math.Pow(10, 308) is 3 ulps off;
// Java's is 1.0E308).
func powInt(x float64, n int64) float64 {
	neg := n < 0
	if neg {
		n = -n
	}
	const prec = 256
	base := new(big.Float).SetPrec(prec).SetFloat64(x)
	acc := new(big.Float).SetPrec(prec).SetFloat64(1)
	for n > 0 {
		if n&1 == 1 {
			acc.Mul(acc, base)
		}
		n >>= 1
		if n > 0 {
			base.Mul(base, base)
		}
	}
	if neg {
		acc.Quo(new(big.Float).SetPrec(prec).SetFloat64(1), acc)
	}
	f, _ := acc.Float64()
	return f
}
