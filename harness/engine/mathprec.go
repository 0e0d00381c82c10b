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

// jTan is tan rounded once from a 256-bit evaluation (argument reduced
// with the exact-enough pi/2, then Taylor series of sin and cos). Java's
// Math.tan is within 1 ulp of the exact value, so a correctly rounded
// result is within 1 ulp of it whatever the JVM's intrinsic; Go's math.Tan
// is not (it returns x itself for |x| up to about 1e-7, 25 ulps from
// Java's tan(1e-7), and is 2 ulps off at 1.005).
func jTan(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN()
	}
	if x == 0 {
		return x // keeps the sign of -0.0
	}
	const prec = 256
	k, r := reducePiOver2Big(x, prec)
	sin, cos := bigSinCos(r, prec)
	var q *big.Float
	if k%2 == 0 {
		q = new(big.Float).SetPrec(prec).Quo(sin, cos)
	} else {
		q = new(big.Float).SetPrec(prec).Quo(cos, sin)
		q.Neg(q)
	}
	f, _ := q.Float64()
	return f
}

// reducePiOver2Big is reducePiOver2 with r kept at prec bits.
func reducePiOver2Big(x float64, prec uint) (int, *big.Float) {
	hp := bigHalfPi()
	bx := new(big.Float).SetPrec(bigPrec + 64).SetFloat64(x)
	q := new(big.Float).SetPrec(bigPrec+64).Quo(bx, hp)
	q.Add(q, new(big.Float).SetFloat64(0.5))
	k, _ := q.Int(nil)
	if q.Sign() < 0 && !q.IsInt() {
		k.Sub(k, big.NewInt(1))
	}
	r := new(big.Float).SetPrec(bigPrec+64).Mul(new(big.Float).SetPrec(bigPrec+64).SetInt(k), hp)
	r.Sub(bx, r)
	m := new(big.Int).And(k, big.NewInt(3))
	return int(m.Int64()), new(big.Float).SetPrec(prec).Set(r)
}

// bigSinCos sums the Taylor series of sin and cos for |r| <= pi/4 until
// the terms fall below 2^-(prec+8) relative to the first.
func bigSinCos(r *big.Float, prec uint) (*big.Float, *big.Float) {
	p := prec + 32
	r2 := new(big.Float).SetPrec(p).Mul(r, r)
	sin := new(big.Float).SetPrec(p).Set(r)
	cos := new(big.Float).SetPrec(p).SetInt64(1)
	sterm := new(big.Float).SetPrec(p).Set(r)
	cterm := new(big.Float).SetPrec(p).SetInt64(1)
	for n := int64(1); n < 200; n++ {
		// sterm_n = -sterm_{n-1} r^2 / ((2n)(2n+1)); cterm_n = -cterm_{n-1} r^2 / ((2n-1)(2n))
		sterm.Mul(sterm, r2)
		sterm.Quo(sterm, new(big.Float).SetInt64(2*n*(2*n+1)))
		sterm.Neg(sterm)
		cterm.Mul(cterm, r2)
		cterm.Quo(cterm, new(big.Float).SetInt64((2*n-1)*2*n))
		cterm.Neg(cterm)
		sin.Add(sin, sterm)
		cos.Add(cos, cterm)
		if cterm.Sign() == 0 || cterm.MantExp(nil) < -int(prec)-8 && (sterm.Sign() == 0 || sterm.MantExp(nil)-sin.MantExp(nil) < -int(prec)-8) {
			break
		}
	}
	return sin, cos
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

// expPrec is the working precision of bigLog and bigExp: pow's y*ln(x)
// is at most about 745 in magnitude where the result is finite and
// non-zero, so its absolute error stays near 2^-150 and the result is
// rounded once, so within 1 ulp of Java's Math.pow whatever its intrinsic
// (checked on 60,000 values against Spark 4.1.1).
const expPrec = 192

var (
	ln2Once sync.Once
	bigLn2v *big.Float
)

// atanhSeries is atanh(z) = z + z^3/3 + z^5/5 + ... for |z| <= 1/3.
func atanhSeries(z *big.Float, prec uint) *big.Float {
	z2 := new(big.Float).SetPrec(prec).Mul(z, z)
	sum := new(big.Float).SetPrec(prec).Set(z)
	pow := new(big.Float).SetPrec(prec).Set(z)
	for k := int64(1); k < 400; k++ {
		pow.Mul(pow, z2)
		term := new(big.Float).SetPrec(prec).Quo(pow, new(big.Float).SetInt64(2*k+1))
		if term.Sign() == 0 || sum.Sign() != 0 && term.MantExp(nil)-sum.MantExp(nil) < -int(prec)-4 {
			break
		}
		sum.Add(sum, term)
	}
	return sum
}

func bigLn2() *big.Float {
	ln2Once.Do(func() {
		third := new(big.Float).SetPrec(expPrec+64).Quo(big.NewFloat(1), big.NewFloat(3))
		bigLn2v = atanhSeries(third, expPrec+64)
		bigLn2v.Mul(bigLn2v, big.NewFloat(2))
	})
	return bigLn2v
}

// bigLog is ln(x) for a finite x > 0: x = m 2^e with sqrt(1/2) <= m <
// sqrt(2), ln m = 2 atanh((m-1)/(m+1)). Near 1, e is 0, so the result is
// accurate relative to ln x itself (and exactly 0 for 1, as pow(1, y)
// must be 1 even for y = MAX_VALUE).
func bigLog(x float64) *big.Float {
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	bm := new(big.Float).SetPrec(expPrec).SetFloat64(m)
	one := new(big.Float).SetPrec(expPrec).SetInt64(1)
	num := new(big.Float).SetPrec(expPrec).Sub(bm, one)
	den := new(big.Float).SetPrec(expPrec).Add(bm, one)
	s := atanhSeries(num.Quo(num, den), expPrec)
	s.Mul(s, big.NewFloat(2))
	k := new(big.Float).SetPrec(expPrec).Mul(new(big.Float).SetInt64(int64(e)), bigLn2())
	return s.Add(s, k)
}

// bigExpFloat64 is e^t rounded once to a double, for |t| up to a few
// thousand (beyond, the caller has already decided Inf or 0).
func bigExpFloat64(t *big.Float) float64 {
	if f, _ := t.Float64(); f > 1000 {
		return math.Inf(1)
	} else if f < -1000 {
		return 0
	}
	if t.Sign() < 0 {
		neg := new(big.Float).SetPrec(expPrec).Neg(t)
		e := bigExpBig(neg)
		f, _ := new(big.Float).SetPrec(expPrec).Quo(big.NewFloat(1), e).Float64()
		return f
	}
	f, _ := bigExpBig(t).Float64()
	return f
}

// bigPow is x^y for finite x > 0 and finite y, rounded once: Go's
// math.Pow accumulates rounding errors (76 ulps from Java's Math.pow at
// pow(0.9544014298806014, -406.43)).
func bigPow(x, y float64) float64 {
	t := bigLog(x)
	t.Mul(t, new(big.Float).SetPrec(expPrec).SetFloat64(y))
	return bigExpFloat64(t)
}

// bigExpBig is e^t at expPrec bits for 0 <= t <= 1000: t = k ln2 + r,
// e^r from its Taylor series at r/2^12, squared back 12 times.
func bigExpBig(t *big.Float) *big.Float {
	ln2 := bigLn2()
	q := new(big.Float).SetPrec(expPrec).Quo(t, ln2)
	kf, _ := q.Float64()
	k := math.Round(kf)
	r := new(big.Float).SetPrec(expPrec).Mul(big.NewFloat(k), ln2)
	r.Sub(t, r)
	const halvings = 12
	r.SetMantExp(r, -halvings)
	sum := new(big.Float).SetPrec(expPrec).SetInt64(1)
	term := new(big.Float).SetPrec(expPrec).SetInt64(1)
	for n := int64(1); n < 100; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetInt64(n))
		if term.Sign() == 0 || term.MantExp(nil) < -int(expPrec)-8 {
			break
		}
		sum.Add(sum, term)
	}
	for i := 0; i < halvings; i++ {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}

// javaHypot is sqrt(x^2 + y^2) rounded once (the squares and their sum are
// exact at 256 bits): Java's StrictMath.hypot (fdlibm) is within 1 ulp of
// the exact value, Go's math.Hypot is not (2 ulps at hypot(51,
// 413.63130556566625), Spark 4.1.1 live conformance, seed 99). Infinities
// win over NaN, as in both.
func javaHypot(x, y float64) float64 {
	if math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsNaN(x) || math.IsNaN(y) {
		return math.Hypot(x, y)
	}
	const prec = 256
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	by := new(big.Float).SetPrec(prec).SetFloat64(y)
	bx.Mul(bx, bx)
	by.Mul(by, by)
	bx.Add(bx, by)
	if bx.Sign() == 0 {
		return 0
	}
	f, _ := new(big.Float).SetPrec(prec).Sqrt(bx).Float64()
	return f
}
