package inputs

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// parseText reads one value of type t from its text form, as sample
// files write it (CSV cells, JSON strings and map keys):
//
//   - boolean: true or false, in any case;
//   - integers: decimal digits with an optional sign, nothing else;
//   - float, double: Go/Java-style numbers, hex floats, NaN, Infinity,
//     -0.0, and NaN(0x7ff8000000000001) for an exact NaN bit pattern;
//   - decimal: a plain or exponent decimal number that fits decimal(p,s)
//     exactly (a value needing rounding is an error, never rounded);
//   - string: the text as is (valid UTF-8);
//   - binary: hex digits, optionally as 0x… or X'…';
//   - date: YYYY-MM-DD (proleptic Gregorian, 0001-01-01..9999-12-31);
//   - timestamp: YYYY-MM-DD[ T]hh:mm:ss[.ffffff][Z|±hh:mm], UTC when no
//     zone is given, at most microsecond precision;
//   - array, map, struct: JSON text (see fromJSON).
//
// Leading or trailing spaces are not trimmed: they are part of the value
// and an error for non-string types.
func parseText(s string, t *udf.Type) (value.Value, error) {
	switch t.Kind {
	case udf.Boolean:
		switch {
		case strings.EqualFold(s, "true"):
			return value.BoolOf(true), nil
		case strings.EqualFold(s, "false"):
			return value.BoolOf(false), nil
		}
		return value.Value{}, errors.New("not a boolean (true or false)")
	case udf.Byte, udf.Short, udf.Int, udf.Long:
		return parseInt(s, t)
	case udf.Float:
		b, err := parseFloatBits(s, 32)
		return value.FloatBits(uint32(b)), err
	case udf.Double:
		b, err := parseFloatBits(s, 64)
		return value.DoubleBits(b), err
	case udf.Decimal:
		return parseDecimal(s, t.Precision, t.Scale)
	case udf.String:
		if !utf8.ValidString(s) {
			return value.Value{}, errors.New("not valid UTF-8")
		}
		return value.StringOf(s), nil
	case udf.Binary:
		return parseHex(s)
	case udf.Date:
		return parseDate(s)
	case udf.Timestamp:
		return parseTimestamp(s)
	case udf.Array, udf.Map, udf.Struct:
		n, err := parseJSON([]byte(s))
		if err != nil {
			return value.Value{}, err
		}
		return fromJSON(n, t)
	}
	return value.Value{}, fmt.Errorf("type %s is not supported", t)
}

var intBits = map[udf.TypeKind]int{udf.Byte: 8, udf.Short: 16, udf.Int: 32, udf.Long: 64}

func parseInt(s string, t *udf.Type) (value.Value, error) {
	n, err := strconv.ParseInt(s, 10, intBits[t.Kind])
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return value.Value{}, fmt.Errorf("out of range for %s", t)
		}
		return value.Value{}, fmt.Errorf("not a %s (decimal digits with an optional sign)", t)
	}
	return value.IntOf(n), nil
}

// parseFloatBits reads a float (size 32) or double (64) and returns its
// bits. Go's ParseFloat turns "NaN" into 0x7ff8000000000001, so a NaN
// read as text becomes the canonical NaN of Java and Python instead;
// NaN(0x…) gives any other pattern exactly.
func parseFloatBits(s string, size int) (uint64, error) {
	if rest, ok := strings.CutPrefix(s, "NaN(0x"); ok && strings.HasSuffix(rest, ")") {
		b, err := strconv.ParseUint(strings.TrimSuffix(rest, ")"), 16, size)
		if err != nil {
			return 0, fmt.Errorf("NaN(0x…) needs %d hex digits at most", size/4)
		}
		if size == 32 && !math.IsNaN(float64(math.Float32frombits(uint32(b)))) ||
			size == 64 && !math.IsNaN(math.Float64frombits(b)) {
			return 0, fmt.Errorf("bit pattern %#x is not a NaN", b)
		}
		return b, nil
	}
	f, err := strconv.ParseFloat(s, size)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("out of range for %s", map[int]string{32: "float", 64: "double"}[size])
		}
		return 0, errors.New("not a number")
	}
	switch {
	case math.IsNaN(f) && size == 32:
		return uint64(canonicalNaN32), nil
	case math.IsNaN(f):
		return canonicalNaN64, nil
	case size == 32:
		return uint64(math.Float32bits(float32(f))), nil
	}
	return math.Float64bits(f), nil
}

// parseDecimal reads a decimal number exactly at scale s.
func parseDecimal(text string, p, s int) (value.Value, error) {
	str := text
	neg := false
	if str != "" && (str[0] == '+' || str[0] == '-') {
		neg = str[0] == '-'
		str = str[1:]
	}
	mant, exp := str, 0
	if i := strings.IndexAny(str, "eE"); i >= 0 {
		mant = str[:i]
		e, err := strconv.Atoi(str[i+1:])
		if err != nil || e > 1000 || e < -1000 {
			return value.Value{}, errors.New("not a decimal number (bad exponent)")
		}
		exp = e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	if digits == "" || strings.Trim(digits, "0123456789") != "" || strings.Count(mant, ".") > 1 {
		return value.Value{}, errors.New("not a decimal number")
	}
	u, _ := new(big.Int).SetString(digits, 10)
	shift := s - len(frac) + exp // unscaled = digits × 10^shift
	if shift >= 0 {
		u.Mul(u, pow10(shift))
	} else {
		q, r := new(big.Int).QuoRem(u, pow10(-shift), new(big.Int))
		if r.Sign() != 0 {
			return value.Value{}, fmt.Errorf("has more than %d fractional digits: decimal(%d,%d) cannot hold it without rounding", s, p, s)
		}
		u = q
	}
	if u.Cmp(pow10(p)) >= 0 {
		return value.Value{}, fmt.Errorf("does not fit decimal(%d,%d)", p, s)
	}
	if neg {
		u.Neg(u)
	}
	return value.DecimalOf(u, int32(s)), nil
}

func parseHex(s string) (value.Value, error) {
	h := s
	switch {
	case strings.HasPrefix(h, "0x") || strings.HasPrefix(h, "0X"):
		h = h[2:]
	case len(h) >= 3 && (h[0] == 'X' || h[0] == 'x') && h[1] == '\'' && h[len(h)-1] == '\'':
		h = h[2 : len(h)-1]
	}
	b, err := hex.DecodeString(h)
	if err != nil {
		return value.Value{}, errors.New("not hex bytes (like 00ff, 0x00ff or X'00FF')")
	}
	return value.BinaryOf(b), nil
}

func parseDate(s string) (value.Value, error) {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return value.Value{}, errors.New("not a date (YYYY-MM-DD)")
	}
	days := t.Unix() / 86400 // t is midnight UTC: exact
	if days < minDate || days > maxDate {
		return value.Value{}, errors.New("outside Spark's dates 0001-01-01..9999-12-31")
	}
	return value.DateOf(days), nil
}

var timestampLayouts = []string{
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999",
}

func parseTimestamp(s string) (value.Value, error) {
	for _, layout := range timestampLayouts {
		t, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		if t.Nanosecond()%1000 != 0 {
			return value.Value{}, errors.New("finer than a microsecond, which Spark cannot hold")
		}
		us := t.Unix()*1_000_000 + int64(t.Nanosecond()/1000)
		if us < minTimestamp || us > maxTimestamp {
			return value.Value{}, errors.New("outside Spark's timestamps 0001-01-01..9999-12-31")
		}
		return value.TimestampOf(us), nil
	}
	return value.Value{}, errors.New("not a timestamp (YYYY-MM-DD hh:mm:ss[.ffffff][Z|±hh:mm])")
}

// checkMapKey rejects map keys Spark would not keep as they are: -0.0
// and NaNs other than the canonical one are normalised by Spark
// (spark_facts.txt), so a sample holding one could not reach the UDF.
func checkMapKey(k value.Value) error {
	if containsFloatKeyTrap(k) {
		return fmt.Errorf("map key %s: Spark normalises -0.0 and NaN map keys, so this key cannot reach a UDF", k)
	}
	return nil
}
