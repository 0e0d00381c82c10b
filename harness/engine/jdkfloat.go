package engine

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// JDK 17's Float.toString and Double.toString (and java.text.DecimalFormat,
// which formats from the same FloatingDecimal digits) do not always print
// the shortest decimal that reads back as the value: 1.0E23 prints as
// 9.999999999999999E22, 9.0E9f as 8.9999995E9, Float.MIN_NORMAL as
// 1.17549435E-38. JDK 19 and later print the shortest (JDK-4511638), so the
// answer depends on the JVM that runs Spark, which the engine does not know.
// The engine prints the shortest form and so accepts only the values for
// which JDK 17 prints it too, in classes checked exhaustively (every value
// whose shortest form has that many digits at those decimal exponents) on
// JDK 17 and JDK 25 by testdata/jdkfloat/JdkFloatClasses.java (no value
// printed otherwise, byte-identical output on both):
//
//   - double: at most 7 significant digits, 1e-3 <= |v| < 1e7 (the plain,
//     non-E notation; 90,000,000 values);
//   - float: at most 6 significant digits, 1e-3 <= |v| < 1e7 (9,000,000);
//   - double: at most 4 significant digits at decimal exponents -307..20
//     and 26..308 (JDK 17 fails on 1E23, 5E22, 9.5E21, ... at exponents
//     21 to 25);
//   - float: at most 5 significant digits at decimal exponents -37..7 and
//     19..38 (JDK 17 fails broadly at exponents 8 to 18).
//
// Zero, NaN and the infinities print the same everywhere. Every other
// value is refused per row.
func jdkPortableString(d float64, bits int) bool {
	if d == 0 || math.IsNaN(d) || math.IsInf(d, 0) {
		return true
	}
	s := strconv.FormatFloat(math.Abs(d), 'e', -1, bits)
	mant, expS, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expS)
	nd := len(mant)
	if strings.Contains(mant, ".") {
		nd--
	}
	switch {
	case exp >= -3 && exp <= 6 && (nd <= 6 || bits == 64 && nd <= 7):
		return true
	case bits == 64:
		return nd <= 4 && (exp >= -307 && exp <= 20 || exp >= 26 && exp <= 308)
	}
	return nd <= 5 && (exp >= -37 && exp <= 7 || exp >= 19 && exp <= 38)
}

// formatNumberPortable reports whether format_number of the double d with
// maxFrac fraction digits comes out the same whatever digits the JVM's
// FloatingDecimal produces for d. Either those digits are known (the value
// is in jdkPortableString's classes), or the result is d rounded at
// maxFrac digits and no candidate digit string can round differently: the
// interval of one ulp on either side of d (wider than the half-ulp in
// which every JDK's digits lie) holds neither a decimal of maxFrac
// fraction digits (which DecimalFormat would print as is) nor a rounding
// midpoint between two of them.
func formatNumberPortable(d float64, maxFrac int) bool {
	if jdkPortableString(d, 64) {
		return true
	}
	a := math.Abs(d)
	ulp := math.Nextafter(a, math.Inf(1)) - a
	if math.IsInf(ulp, 0) {
		ulp = a - math.Nextafter(a, 0)
	}
	scale := new(big.Rat).SetInt(pow10(maxFrac))
	scale.Mul(scale, big.NewRat(2, 1))
	lo := new(big.Rat).SetFloat64(a - 0) // exact
	u := new(big.Rat).SetFloat64(ulp)
	hi := new(big.Rat).Add(lo, u)
	lo.Sub(lo, u)
	lo.Mul(lo, scale)
	hi.Mul(hi, scale)
	// Multiples of 1/2 at maxFrac digits are the integers of 2 * 10^maxFrac * v.
	fl := new(big.Int).Quo(lo.Num(), lo.Denom())
	if lo.Sign() < 0 {
		return false
	}
	if new(big.Rat).SetInt(fl).Cmp(lo) == 0 {
		return false
	}
	fh := new(big.Int).Quo(hi.Num(), hi.Denom())
	return fl.Cmp(fh) == 0
}
