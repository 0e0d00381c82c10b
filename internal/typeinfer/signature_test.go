package typeinfer

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSignature(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "price double, qty int", want: "(price double, qty int)"},
		{in: "double, int", want: "(double, int)"},
		{in: "(double) -> double", want: "(double) -> double"},
		{in: " ( string , string ) ->  string ", want: "(string, string) -> string"},
		{in: "() -> bigint", want: "() -> bigint"},
		{in: "-> string", want: "() -> string"},
		{in: "price: decimal(10, 2), tags array<string>", want: "(price decimal(10,2), tags array<string>)"},
		{in: "m map<string,int>", want: "(m map<string,int>)"},
		{in: "DoubleType(), T.StringType()", want: "(double, string)"},
		{in: "x DataTypes.LongType", want: "(x bigint)"},
		{in: "s struct<a:int,b:string>", want: "(s struct<a:int,b:string>)"},
		{in: "", err: "gives no type"},
		{in: "()", err: "gives no type"},
		{in: "x double, int", err: "not both"},
		{in: "x double, x int", err: "given twice"},
		{in: "x dubble", err: `unknown type "dubble"`},
		{in: "double,", err: "an empty entry"},
		{in: "(double) -> ", err: "return type"},
		{in: "1x double", err: "neither a type nor 'name type'"},
	} {
		sig, err := ParseSignature(tc.in)
		if tc.err != "" {
			require.Error(t, err, tc.in)
			assert.Contains(t, err.Error(), tc.err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, sig.String(), tc.in)
	}
}

// FuzzParseSignature: no input panics, and what parses prints as a
// signature that parses to the same thing.
func FuzzParseSignature(f *testing.F) {
	for _, s := range []string{"price double, qty int", "(double) -> double", "m map<string,array<int>>", "x decimal(38,18)", "((", "->->", "a: b: c", "struct<a:int>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sig, err := ParseSignature(s)
		if err != nil {
			return
		}
		again, err := ParseSignature(sig.String())
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", s, sig.String(), err)
		}
		if again.String() != sig.String() {
			t.Fatalf("%q: %q reparsed as %q", s, sig.String(), again.String())
		}
	})
}
