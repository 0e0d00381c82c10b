package udf

import (
	"slices"
	"testing"
)

// sqlIndexNames are registered names of every shape SQLCalls handles:
// plain, dotted, mixed case, non-ASCII, and with bytes that are not
// identifier bytes.
var sqlIndexNames = []string{"f", "to_fahrenheit", "F", "db.f", "ÄÖ", "a-b", "x y", "ff", "`f`"}

// TestSQLCallIndexAgreesWithSQLCalls: the one-pass index finds exactly
// the names SQLCalls finds one by one.
func TestSQLCallIndexAgreesWithSQLCalls(t *testing.T) {
	for _, sql := range []string{
		"SELECT to_fahrenheit(t) FROM r", "SELECT `f`(x), ff (y)", "x`f`(", "`f(", "f`(", "db.f(1)", "f.g(",
		"äö(1)", "ÄÖ\n(", "a-b(1)", "x y (", "`to_fahrenheit` (x)", "", "f", "(f)(", "F\t\r\n(", "`ff`(",
	} {
		checkSQLIndex(t, sql)
	}
}

func FuzzSQLCallIndex(f *testing.F) {
	f.Add("SELECT `f`(x), ff (y), db.f(z), a-b(1)")
	f.Fuzz(checkSQLIndex)
}

func checkSQLIndex(t *testing.T, sql string) {
	var x SQLCallIndex[int]
	for i, n := range sqlIndexNames {
		x.Add(n, i)
	}
	x.Add("f", 0) // a second name for a value: found once
	var want []int
	for i, n := range sqlIndexNames {
		if SQLCalls(sql, n) {
			want = append(want, i)
		}
	}
	if got := x.Calls(sql); !slices.Equal(got, want) {
		t.Errorf("Calls(%q) = %v, SQLCalls says %v", sql, got, want)
	}
}
