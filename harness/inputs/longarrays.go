package inputs

import (
	"math"
	"math/rand/v2"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// LongArrayLengths are the lengths of LongArrayRows' arrays: the
// generator's random arrays stay under 50 elements, and vector code
// (a window of 128, embeddings of hundreds of dimensions) only does its
// real work past that, and around the window's edge.
var LongArrayLengths = []int{126, 127, 128, 129, 130, 200, 256, 300}

// LongArrayKinds is how many rows LongArrayRows makes of each length.
const LongArrayKinds = 4

// LongArrayRows are extra rows for UDFs whose parameters are all arrays of
// float or double: for each length of LongArrayLengths, one array of
// uniform values in [0, 1) (as the published vector benchmarks use), one
// of normal values scaled by a random power of ten, one with the
// special values (NaN, ±Inf, -0.0, the extremes) at random places, and
// one of the normal values' magnitudes (one sign, as sums of which no
// cancellation spoils, which a vector rewrite may treat apart). They
// are seeded, so a re-run makes the same rows. Nil when a parameter is
// anything else.
func LongArrayRows(params []Param, seed int64) [][]value.Value {
	if len(params) == 0 {
		return nil
	}
	for _, p := range params {
		if p.Type == nil || p.Type.Kind != udf.Array || p.Type.Elem == nil ||
			(p.Type.Elem.Kind != udf.Float && p.Type.Elem.Kind != udf.Double) {
			return nil
		}
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x10a6a77a75))
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32}
	var rows [][]value.Value
	for _, n := range LongArrayLengths {
		for kind := 0; kind < LongArrayKinds; kind++ {
			row := make([]value.Value, len(params))
			for i, p := range params {
				xs := make([]float64, n)
				scale := math.Pow(10, float64(r.IntN(21)-10))
				for k := range xs {
					switch kind {
					case 0:
						xs[k] = r.Float64()
					case 3:
						xs[k] = math.Abs(r.NormFloat64()) * scale
					default:
						xs[k] = r.NormFloat64() * scale
					}
				}
				if kind == 2 {
					for range 1 + r.IntN(4) {
						xs[r.IntN(n)] = specials[r.IntN(len(specials))]
					}
				}
				elems := make([]value.Value, n)
				for k, x := range xs {
					if p.Type.Elem.Kind == udf.Float {
						elems[k] = value.FloatOf(float32(x))
					} else {
						elems[k] = value.DoubleOf(x)
					}
				}
				row[i] = value.ArrayOf(elems...)
			}
			rows = append(rows, row)
		}
	}
	return rows
}
