package sparkversion

import (
	"regexp"
	"strconv"
	"strings"
)

// sparkPythonPackages are the PyPI distributions Apache Spark releases in
// lockstep with itself, so their version is Spark's. Vendor packages
// (databricks-connect, EMR images) carry their own numbering and are out
// of scope.
var sparkPythonPackages = map[string]bool{
	"pyspark":         true,
	"pyspark-connect": true,
	"pyspark-client":  true,
}

var nameNorm = regexp.MustCompile(`[-_.]+`)

// normalizeName is PEP 503 normalisation: PySpark, pyspark and PYSPARK are
// one distribution.
func normalizeName(s string) string {
	return nameNorm.ReplaceAllString(strings.ToLower(s), "-")
}

var reqHead = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*`)

// parseRequirement splits a PEP 508 requirement into its normalised name
// and version specifier, dropping extras and environment markers. A
// direct reference (`pyspark @ https://…`) has no version to read: it
// returns ok false.
func parseRequirement(s string) (name, spec string, ok bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, ';'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	m := reqHead.FindStringSubmatchIndex(s)
	if m == nil {
		return "", "", false
	}
	name = normalizeName(s[m[2]:m[3]])
	rest := strings.TrimSpace(s[m[1]:])
	if strings.HasPrefix(rest, "@") {
		return name, "", false
	}
	// PEP 508 allows the specifier in parentheses; Poetry 2 writes it so.
	if strings.HasPrefix(rest, "(") {
		if !strings.HasSuffix(rest, ")") {
			return name, "", false
		}
		rest = strings.TrimSpace(rest[1 : len(rest)-1])
	}
	return name, rest, true
}

// dialect is whose rules a specifier follows.
type dialect int

const (
	pep440 dialect = iota // pip, PEP 621, setup.py, Pipfile
	poetry                // Poetry's own table: bare, ^ and ~ mean more
	conda                 // environment.yml match specs
)

type bound struct {
	v    []int
	incl bool
	set  bool
}

// cmpRel compares release tuples, padding the shorter with zeros as PEP
// 440 does (3.5 == 3.5.0).
func cmpRel(a, b []int) int {
	n := max(len(a), len(b))
	for i := 0; i < n; i++ {
		var x, y int
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// bump increments the component at index i and drops what follows:
// bump(3.5.1, 1) is 3.6, the exclusive top of the 3.5 line.
func bump(rel []int, i int) []int {
	out := append([]int(nil), rel[:i+1]...)
	out[i]++
	return out
}

type interval struct {
	lo, hi bound
	exact  string // the exact version as written, if a clause pins one
	exRel  []int
	bad    bool
}

func (iv *interval) lower(v []int, incl bool) {
	if !iv.lo.set || cmpRel(v, iv.lo.v) > 0 || (cmpRel(v, iv.lo.v) == 0 && !incl) {
		iv.lo = bound{v: v, incl: incl, set: true}
	}
}

func (iv *interval) upper(v []int, incl bool) {
	if !iv.hi.set || cmpRel(v, iv.hi.v) < 0 || (cmpRel(v, iv.hi.v) == 0 && !incl) {
		iv.hi = bound{v: v, incl: incl, set: true}
	}
}

func (iv *interval) pin(raw string, rel []int) {
	if iv.exact != "" && cmpRel(iv.exRel, rel) != 0 {
		iv.bad = true // two different pins: unsatisfiable, read nothing
	}
	if iv.exact == "" {
		iv.exact, iv.exRel = normalRelease(raw, rel), rel
	}
	iv.lower(rel, true)
	iv.upper(rel, true)
}

// normalRelease is raw with its release numbers written as rel, their
// value: PEP 440 reads 001.0 as 1.0, and Full must say the version the
// numbers are, not how they were padded.
func normalRelease(raw string, rel []int) string {
	end := strings.IndexFunc(raw, func(r rune) bool { return r != '.' && (r < '0' || r > '9') })
	if end < 0 {
		end = len(raw)
	}
	for end > 0 && raw[end-1] == '.' {
		end-- // the dot of 4.0.0.dev2 belongs to its suffix
	}
	parts := make([]string, len(rel))
	for i, n := range rel {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ".") + raw[end:]
}

// exactVersion is a PEP 440 version with an optional pre, post or dev
// suffix (4.0.0rc1, 4.0.0.dev2, 3.5.1.post1). Only its release numbers are
// compared; the suffix never moves a version to another minor.
var exactVersion = regexp.MustCompile(`(?i)^(\d{1,9}(?:\.\d{1,9}){1,7})((?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview|dev|post)[-_.]?\d{0,9}){0,3})$`)

func parseExact(s string) ([]int, bool) {
	m := exactVersion.FindStringSubmatch(s)
	if m == nil {
		return nil, false
	}
	return parseRelease(m[1])
}

var clauseRe = regexp.MustCompile(`^(===|==|!=|~=|<=|>=|<|>|\^|~|=)?\s*(\S+)$`)

// clause applies one comparison to iv; false when it cannot be read.
func (iv *interval) clause(c string, d dialect) bool {
	m := clauseRe.FindStringSubmatch(strings.TrimSpace(c))
	if m == nil {
		return false
	}
	op, ver := m[1], m[2]
	switch op {
	case "":
		switch d {
		case poetry, conda:
			// Poetry and conda read a bare version as an exact pin; pip
			// and Pipfile do not accept one, so it is no declaration.
			op = "=="
		default:
			return false
		}
	case "=":
		if d != conda {
			return false
		}
		// conda's `=3.5.1` is the fuzzy 3.5.1.*: one patch line, so one
		// minor, but only a full three-part version is reported as
		// Full.
		rel, ok := parseRelease(strings.TrimSuffix(ver, ".*"))
		if !ok {
			return false
		}
		if len(rel) == 3 && !strings.HasSuffix(ver, "*") {
			iv.pin(ver, rel)
			return true
		}
		iv.lower(rel, true)
		iv.upper(bump(rel, len(rel)-1), false)
		return true
	case "^", "~":
		if d != poetry {
			return false
		}
	}
	switch op {
	case "==", "===":
		if strings.HasSuffix(ver, ".*") {
			rel, ok := parseRelease(strings.TrimSuffix(ver, ".*"))
			if !ok {
				return false
			}
			iv.lower(rel, true)
			iv.upper(bump(rel, len(rel)-1), false)
			return true
		}
		rel, ok := parseExact(ver)
		if !ok {
			return false
		}
		iv.pin(ver, rel)
	case "!=":
		// Excluding one version never widens the range, so it never
		// changes which minor a range pins.
		if _, ok := parseExact(strings.TrimSuffix(ver, ".*")); !ok {
			if _, ok := parseRelease(strings.TrimSuffix(ver, ".*")); !ok {
				return false
			}
		}
	case "~=":
		// ~=3.5.0 is >=3.5.0,==3.5.*; ~=3.5 is >=3.5,==3.*: the last
		// number is the one allowed to grow.
		rel, ok := parseRelease(ver)
		if !ok || len(rel) < 2 {
			return false
		}
		iv.lower(rel, true)
		iv.upper(bump(rel, len(rel)-2), false)
	case ">=", ">", "<=", "<":
		rel, ok := parseRelease(ver)
		if !ok {
			return false // pre-release bounds have rules not worth guessing
		}
		switch op {
		case ">=":
			iv.lower(rel, true)
		case ">":
			iv.lower(rel, false)
		case "<=":
			iv.upper(rel, true)
		case "<":
			iv.upper(rel, false)
		}
	case "^":
		// Poetry's caret lets everything right of the first non-zero
		// number grow: ^3.5.0 is >=3.5.0,<4.0.0, which spans 3.5 to
		// 3.99, so a caret on a 3.x Spark pins no single minor (and the
		// single-minor check below says so).
		rel, ok := parseRelease(ver)
		if !ok {
			return false
		}
		i := 0
		for i < len(rel)-1 && rel[i] == 0 {
			i++
		}
		iv.lower(rel, true)
		iv.upper(bump(rel, i), false)
	case "~":
		// Poetry's tilde: ~3.5.1 and ~3.5 are >=…,<3.6; ~3 is <4.
		rel, ok := parseRelease(ver)
		if !ok {
			return false
		}
		i := 1
		if len(rel) == 1 {
			i = 0
		}
		iv.lower(rel, true)
		iv.upper(bump(rel, i), false)
	default:
		return false
	}
	return true
}

// specMinor reads a specifier set and returns the one major.minor every
// version it admits shares, with the exact version when it pins one. A
// set open at either end, or one whose ends lie in different minors,
// declares nothing: `>=3.3` would be satisfied by Spark 4.
func specMinor(spec string, d dialect) (version, full string, ok bool) {
	spec = strings.TrimSpace(spec)
	if spec == "" || strings.Contains(spec, "|") {
		return "", "", false // alternatives are not one version
	}
	var iv interval
	clauses := strings.Split(spec, ",")
	if d == conda && len(clauses) == 1 {
		// `pyspark 3.5.1 py_0`: version then build string.
		if f := strings.Fields(spec); len(f) == 2 && !strings.ContainsAny(f[0], "<>=!~") {
			clauses = f[:1]
		}
	}
	for _, c := range clauses {
		if !iv.clause(c, d) {
			return "", "", false
		}
	}
	if iv.bad || !iv.lo.set || !iv.hi.set {
		return "", "", false
	}
	c := cmpRel(iv.lo.v, iv.hi.v)
	if c > 0 || (c == 0 && !(iv.lo.incl && iv.hi.incl)) {
		return "", "", false // empty: nothing can satisfy it
	}
	lo := append(append([]int(nil), iv.lo.v...), 0, 0)
	hi := append(append([]int(nil), iv.hi.v...), 0, 0)
	mm, ok := majorMinor(lo[:2])
	if !ok {
		return "", "", false
	}
	same := hi[0] == lo[0] && hi[1] == lo[1]
	// <3.6 (or <3.6.0) is the exclusive top of the 3.5 line.
	nextTop := !iv.hi.incl && hi[0] == lo[0] && hi[1] == lo[1]+1 && cmpRel(hi[2:], nil) == 0
	if !same && !nextTop {
		return "", "", false
	}
	return mm, iv.exact, true
}

// pythonDecl reads one requirement string for a Spark distribution.
func pythonDecl(req, rel string, line int, text string) (Declared, bool) {
	name, spec, ok := parseRequirement(req)
	if !ok || !sparkPythonPackages[name] {
		return Declared{}, false
	}
	return specDecl(spec, pep440, rel, line, text)
}

func specDecl(spec string, d dialect, rel string, line int, text string) (Declared, bool) {
	v, full, ok := specMinor(spec, d)
	if !ok {
		return Declared{}, false
	}
	return Declared{Version: v, Full: full, File: rel, Line: line, Text: strings.TrimSpace(text)}, true
}
