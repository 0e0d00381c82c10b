package engine

// The functions in this file follow fdlibm 5.3's algorithms and constants
// (e_log.c, e_log10.c, e_exp.c, s_expm1.c, e_sinh.c, e_cosh.c, s_tanh.c,
// s_cbrt.c), whose notice they keep:
//
//	Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//
//	Developed at SunSoft, a Sun Microsystems, Inc. business.
//	Permission to use, copy, modify, and distribute this
//	software is freely granted, provided that this notice
//	is preserved.

import "math"

// Spark computes ln, log(b, x), log2 and log10 with java.lang.StrictMath,
// whose results are fixed by fdlibm 5.3 (native C in JDK 17, a bit-for-bit
// Java port from JDK 21 on): they do not depend on the JVM or the CPU.
// These are fdlibm's e_log.c and e_log10.c, written for Go. Every product
// that is added to something is wrapped in float64() so that the compiler
// cannot fuse it into an FMA (the Go spec allows fusion otherwise), which
// would change the last bit.

const (
	fdLn2Hi = 6.93147180369123816490e-01 // 0x3fe62e42fee00000
	fdLn2Lo = 1.90821492927058770002e-10 // 0x3dea39ef35793c76
	fdTwo54 = 1.80143985094819840000e+16 // 0x4350000000000000
	fdLg1   = 6.666666666666735130e-01   // 0x3FE5555555555593
	fdLg2   = 3.999999999940941908e-01   // 0x3FD999999997FA04
	fdLg3   = 2.857142874366239149e-01   // 0x3FD2492494229359
	fdLg4   = 2.222219843214978396e-01   // 0x3FCC71C51D8E78AF
	fdLg5   = 1.818357216161805012e-01   // 0x3FC7466496CB03DE
	fdLg6   = 1.531383769920937332e-01   // 0x3FC39A09D078C69F
	fdLg7   = 1.479819860511658591e-01   // 0x3FC2F112DF3E5244

	fdIvLn10   = 4.34294481903251816668e-01 // 0x3FDBCB7B1526E50E
	fdLog102Hi = 3.01029995663611771306e-01 // 0x3FD34413509F6000
	fdLog102Lo = 3.69423907715893078616e-13 // 0x3D59FEF311F12B36
)

func fdHi(x float64) int32  { return int32(math.Float64bits(x) >> 32) }
func fdLo(x float64) uint32 { return uint32(math.Float64bits(x)) }

func fdWithHi(x float64, hi int32) float64 {
	return math.Float64frombits(uint64(uint32(hi))<<32 | uint64(fdLo(x)))
}

// fdlibmLog is StrictMath.log.
func fdlibmLog(x float64) float64 {
	hx := fdHi(x)
	lx := fdLo(x)
	k := int32(0)
	if hx < 0x00100000 { // x < 2**-1022
		if (hx&0x7fffffff)|int32(lx) == 0 {
			return math.Inf(-1)
		}
		if hx < 0 {
			return math.NaN()
		}
		k -= 54
		x *= fdTwo54 // subnormal: scale up
		hx = fdHi(x)
	}
	if hx >= 0x7ff00000 {
		return x + x
	}
	k += (hx >> 20) - 1023
	hx &= 0x000fffff
	i := (hx + 0x95f64) & 0x100000
	x = fdWithHi(x, hx|(i^0x3ff00000)) // normalise x or x/2
	k += i >> 20
	f := x - 1.0
	if 0x000fffff&(2+hx) < 3 { // |f| < 2**-20
		if f == 0 {
			if k == 0 {
				return 0
			}
			dk := float64(k)
			return float64(dk*fdLn2Hi) + float64(dk*fdLn2Lo)
		}
		R := float64(f*f) * (0.5 - float64(0.33333333333333333*f))
		if k == 0 {
			return f - R
		}
		dk := float64(k)
		return float64(dk*fdLn2Hi) - ((R - float64(dk*fdLn2Lo)) - f)
	}
	s := f / (2.0 + f)
	dk := float64(k)
	z := s * s
	i = hx - 0x6147a
	w := z * z
	j := 0x6b851 - hx
	t1 := w * (fdLg2 + float64(w*(fdLg4+float64(w*fdLg6))))
	t2 := z * (fdLg1 + float64(w*(fdLg3+float64(w*(fdLg5+float64(w*fdLg7))))))
	i |= j
	R := t2 + t1
	if i > 0 {
		hfsq := float64(0.5*f) * f
		if k == 0 {
			return f - (hfsq - float64(s*(hfsq+R)))
		}
		return float64(dk*fdLn2Hi) - ((hfsq - (float64(s*(hfsq+R)) + float64(dk*fdLn2Lo))) - f)
	}
	if k == 0 {
		return f - float64(s*(f-R))
	}
	return float64(dk*fdLn2Hi) - ((float64(s*(f-R)) - float64(dk*fdLn2Lo)) - f)
}

// fdlibmLog10 is StrictMath.log10.
func fdlibmLog10(x float64) float64 {
	hx := fdHi(x)
	lx := fdLo(x)
	k := int32(0)
	if hx < 0x00100000 { // x < 2**-1022
		if (hx&0x7fffffff)|int32(lx) == 0 {
			return math.Inf(-1)
		}
		if hx < 0 {
			return math.NaN()
		}
		k -= 54
		x *= fdTwo54
		hx = fdHi(x)
	}
	if hx >= 0x7ff00000 {
		return x + x
	}
	k += (hx >> 20) - 1023
	i := int32(uint32(k) & 0x80000000 >> 31)
	hx = (hx & 0x000fffff) | ((0x3ff - i) << 20)
	y := float64(k + i)
	x = fdWithHi(x, hx)
	z := float64(y*fdLog102Lo) + float64(fdIvLn10*fdlibmLog(x))
	return z + float64(y*fdLog102Hi)
}

// Spark's sinh and cosh call java.lang.Math.sinh/cosh, which delegate to
// StrictMath (HotSpot has no intrinsic for them): fdlibm's e_sinh.c and
// e_cosh.c over e_exp.c and s_expm1.c, all written out here (Go's
// math.Exp is not fdlibm's on amd64, and its math.Expm1 may be compiled
// with fused multiply-adds elsewhere).

var (
	fdHalF  = [2]float64{0.5, -0.5}
	fdLn2HI = [2]float64{6.93147180369123816490e-01, -6.93147180369123816490e-01}
	fdLn2LO = [2]float64{1.90821492927058770002e-10, -1.90821492927058770002e-10}
)

const (
	fdExpOThreshold = 7.09782712893383973096e+02
	fdExpUThreshold = -7.45133219101941108420e+02
	fdInvLn2        = 1.44269504088896338700e+00
	fdTwom1000      = 9.33263618503218878990e-302 // 2**-1000
	fdP1            = 1.66666666666666019037e-01
	fdP2            = -2.77777777770155933842e-03
	fdP3            = 6.61375632143793436117e-05
	fdP4            = -1.65339022054652515390e-06
	fdP5            = 4.13813679705723846039e-08
)

// fdlibmExp is StrictMath.exp.
func fdlibmExp(x float64) float64 {
	hx := uint32(fdHi(x))
	xsb := int(hx >> 31 & 1)
	hx &= 0x7fffffff
	if hx >= 0x40862E42 { // |x| >= 709.78...
		if hx >= 0x7ff00000 {
			if (hx&0xfffff)|fdLo(x) != 0 {
				return x + x // NaN
			}
			if xsb == 0 {
				return x
			}
			return 0
		}
		if x > fdExpOThreshold {
			return math.Inf(1)
		}
		if x < fdExpUThreshold {
			return 0
		}
	}
	var hi, lo float64
	k := 0
	switch {
	case hx > 0x3fd62e42: // |x| > 0.5 ln2
		if hx < 0x3FF0A2B2 { // and |x| < 1.5 ln2
			hi = x - fdLn2HI[xsb]
			lo = fdLn2LO[xsb]
			k = 1 - xsb - xsb
		} else {
			k = int(float64(fdInvLn2*x) + fdHalF[xsb])
			t := float64(k)
			hi = x - float64(t*fdLn2HI[0])
			lo = t * fdLn2LO[0]
		}
		x = hi - lo
	case hx < 0x3e300000: // |x| < 2**-28
		return 1 + x
	}
	t := x * x
	c := x - float64(t*(fdP1+float64(t*(fdP2+float64(t*(fdP3+float64(t*(fdP4+float64(t*fdP5)))))))))
	if k == 0 {
		return 1 - (float64(x*c)/(c-2.0) - x)
	}
	y := 1 - ((lo - float64(x*c)/(2.0-c)) - hi)
	if k >= -1021 {
		return fdWithHi(y, fdHi(y)+int32(k<<20))
	}
	return fdWithHi(y, fdHi(y)+int32((k+1000)<<20)) * fdTwom1000
}

// fdlibmSinh is StrictMath.sinh.
func fdlibmSinh(x float64) float64 {
	jx := fdHi(x)
	ix := jx & 0x7fffffff
	if ix >= 0x7ff00000 {
		return x + x
	}
	h := 0.5
	if jx < 0 {
		h = -h
	}
	if ix < 0x40360000 { // |x| < 22
		if ix < 0x3e300000 { // |x| < 2**-28
			return x
		}
		t := fdlibmExpm1(math.Abs(x))
		if ix < 0x3ff00000 {
			return h * (2.0*t - float64(t*t)/(t+1))
		}
		return h * (t + t/(t+1))
	}
	if ix < 0x40862E42 { // |x| < log(maxdouble)
		return h * fdlibmExp(math.Abs(x))
	}
	if ix < 0x408633CE || ix == 0x408633ce && fdLo(x) <= 0x8fb9f87d { // up to the overflow threshold
		w := fdlibmExp(0.5 * math.Abs(x))
		t := h * w
		return t * w
	}
	return x * 1.0e307 * 1.0e307
}

// fdlibmCosh is StrictMath.cosh.
func fdlibmCosh(x float64) float64 {
	ix := fdHi(x) & 0x7fffffff
	if ix >= 0x7ff00000 {
		return x * x
	}
	if ix < 0x3fd62e43 { // |x| < 0.5 ln2
		t := fdlibmExpm1(math.Abs(x))
		w := 1 + t
		if ix < 0x3c800000 {
			return w // cosh(tiny) = 1
		}
		return 1 + float64(t*t)/(w+w)
	}
	if ix < 0x40360000 { // |x| < 22
		t := fdlibmExp(math.Abs(x))
		return float64(0.5*t) + 0.5/t
	}
	if ix < 0x40862E42 {
		return 0.5 * fdlibmExp(math.Abs(x))
	}
	if ix < 0x408633CE || ix == 0x408633ce && fdLo(x) <= 0x8fb9f87d {
		w := fdlibmExp(0.5 * math.Abs(x))
		t := 0.5 * w
		return t * w
	}
	return math.Inf(1)
}

const (
	fdQ1 = -3.33333333333331316428e-02 // 0xBFA11111111110F4
	fdQ2 = 1.58730158725481460165e-03  // 0x3F5A01A019FE5585
	fdQ3 = -7.93650757867487942473e-05 // 0xBF14CE199EAADBB7
	fdQ4 = 4.00821782732936239552e-06  // 0x3ED0CFCA86E65239
	fdQ5 = -2.01099218183624371326e-07 // 0xBE8AFDB76E09C32D
)

// fdlibmExpm1 is StrictMath.expm1 (s_expm1.c). Go's math.Expm1 follows
// the same algorithm but may be compiled with fused multiply-adds on
// arm64, ppc64 and s390x, which changes last bits; this one cannot be.
func fdlibmExpm1(x float64) float64 {
	hx := uint32(fdHi(x))
	neg := hx&0x80000000 != 0
	hx &= 0x7fffffff
	if hx >= 0x4043687A { // |x| >= 56 ln2
		if hx >= 0x40862E42 { // |x| >= 709.78...
			if hx >= 0x7ff00000 {
				if (hx&0xfffff)|fdLo(x) != 0 {
					return x + x
				}
				if !neg {
					return x
				}
				return -1
			}
			if x > fdExpOThreshold {
				return math.Inf(1)
			}
		}
		if neg {
			return -1
		}
	}
	var hi, lo, c float64
	k := 0
	switch {
	case hx > 0x3fd62e42: // |x| > 0.5 ln2
		if hx < 0x3FF0A2B2 { // and |x| < 1.5 ln2
			if !neg {
				hi, lo, k = x-fdLn2Hi, fdLn2Lo, 1
			} else {
				hi, lo, k = x+fdLn2Hi, -fdLn2Lo, -1
			}
		} else {
			h := 0.5
			if neg {
				h = -0.5
			}
			k = int(float64(fdInvLn2*x) + h)
			t := float64(k)
			hi = x - float64(t*fdLn2Hi)
			lo = t * fdLn2Lo
		}
		x = hi - lo
		c = (hi - x) - lo
	case hx < 0x3c900000: // |x| < 2**-54
		return x
	}
	hfx := 0.5 * x
	hxs := x * hfx
	r1 := 1 + float64(hxs*(fdQ1+float64(hxs*(fdQ2+float64(hxs*(fdQ3+float64(hxs*(fdQ4+float64(hxs*fdQ5)))))))))
	t := 3.0 - float64(r1*hfx)
	e := hxs * ((r1 - t) / (6.0 - float64(x*t)))
	if k == 0 {
		return x - (float64(x*e) - hxs)
	}
	e = float64(x*(e-c)) - c
	e -= hxs
	switch {
	case k == -1:
		return float64(0.5*(x-e)) - 0.5
	case k == 1:
		if x < -0.25 {
			return -2.0 * (e - (x + 0.5))
		}
		return 1 + float64(2.0*(x-e))
	case k <= -2 || k > 56:
		y := 1 - (e - x)
		y = fdWithHi(y, fdHi(y)+int32(k<<20))
		return y - 1
	case k < 20:
		t := math.Float64frombits(uint64(uint32(0x3ff00000-(0x200000>>k))) << 32) // 1 - 2^-k
		y := t - (e - x)
		return fdWithHi(y, fdHi(y)+int32(k<<20))
	}
	t = math.Float64frombits(uint64(uint32((0x3ff-k)<<20)) << 32) // 2^-k
	y := x - (e + t)
	y++
	return fdWithHi(y, fdHi(y)+int32(k<<20))
}

// fdlibmTanh is StrictMath.tanh (s_tanh.c). Spark's Tanh calls
// scala.math.tanh, that is java.lang.Math.tanh, which in JDK 17 delegates
// to StrictMath.tanh and is no HotSpot intrinsic (JDK 24 added one on
// x86_64).
func fdlibmTanh(x float64) float64 {
	jx := fdHi(x)
	ix := jx & 0x7fffffff
	if ix >= 0x7ff00000 { // Inf or NaN
		if jx >= 0 {
			return 1/x + 1
		}
		return 1/x - 1
	}
	var z float64
	switch {
	case ix >= 0x40360000: // |x| >= 22
		z = 1
	case ix < 0x3c800000: // |x| < 2**-55
		return x * (1 + x)
	case ix >= 0x3ff00000: // |x| >= 1
		t := fdlibmExpm1(2 * math.Abs(x))
		z = 1 - 2/(t+2)
	default:
		t := fdlibmExpm1(-2 * math.Abs(x))
		z = -t / (t + 2)
	}
	if jx >= 0 {
		return z
	}
	return -z
}

const (
	fdCbrtB1 = 715094163                   // (682-0.03306235651)*2**20
	fdCbrtB2 = 696219795                   // (664-0.03306235651)*2**20
	fdCbrtC  = 5.42857142857142815906e-01  // 19/35
	fdCbrtD  = -7.05306122448979611050e-01 // -864/1225
	fdCbrtE  = 1.41428571428571436819e+00  // 99/70
	fdCbrtF  = 1.60714285714285720630e+00  // 45/28
	fdCbrtG  = 3.57142857142857150787e-01  // 5/14
)

// fdlibmCbrt is StrictMath.cbrt (s_cbrt.c). Spark's Cbrt calls
// scala.math.cbrt, that is java.lang.Math.cbrt, which in JDK 17 delegates
// to StrictMath.cbrt and is no HotSpot intrinsic.
func fdlibmCbrt(x float64) float64 {
	hx := fdHi(x)
	sign := hx & -0x80000000
	hx ^= sign
	if hx >= 0x7ff00000 { // NaN, Inf
		return x + x
	}
	if uint32(hx)|fdLo(x) == 0 { // +-0
		return x
	}
	x = fdWithHi(x, hx) // |x|
	var t float64
	if hx < 0x00100000 { // subnormal: scale by 2**54 first
		t = math.Float64frombits(0x4350000000000000) * x
		t = fdWithHi(t, fdHi(t)/3+fdCbrtB2)
	} else {
		t = fdWithHi(0, hx/3+fdCbrtB1)
	}
	// to 23 bits
	r := float64(t*t) / x
	s := fdCbrtC + float64(r*t)
	t *= fdCbrtG + fdCbrtF/(s+fdCbrtE+fdCbrtD/s)
	// chopped to 20 bits and made larger than cbrt(x)
	t = math.Float64frombits(uint64(uint32(fdHi(t)+1)) << 32)
	// one Newton step to 53 bits
	s = t * t
	r = x / s
	w := t + t
	r = (r - t) / (w + r)
	t += float64(t * r)
	return fdWithHi(t, fdHi(t)|sign)
}
