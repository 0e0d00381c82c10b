// Package casemaptest runs the scripts that compare a runtime's case
// mapping with Spark's over all of Unicode, for the tests that generate
// and check package pycase's and jdkcase's tables.
package casemaptest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Run runs script with python, handing it forms (name → Spark SQL) in a
// JSON file, with env added to the environment, and decodes the JSON it
// prints into out.
func Run(t testing.TB, python, script string, env []string, forms map[string]string, out any) {
	t.Helper()
	b, err := json.Marshal(forms)
	require.NoError(t, err)
	formsFile := filepath.Join(t.TempDir(), "forms.json")
	require.NoError(t, os.WriteFile(formsFile, b, 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, script, formsFile)
	cmd.Env = append(append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1"), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	require.NoError(t, err, "%s %s: %s", python, script, tail(stderr.String()))
	require.NoError(t, json.Unmarshal(stdout, out))
}

// SortedKeys are the code points a script's map is keyed by, in order.
func SortedKeys[V any](m map[string]V) []rune {
	out := make([]rune, 0, len(m))
	for k := range m {
		n, err := strconv.Atoi(k)
		if err != nil {
			panic(err)
		}
		out = append(out, rune(n))
	}
	slices.Sort(out)
	return out
}

func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return strings.TrimSpace(s)
}

// Inputs are the expressions of the string s the forms are written for,
// by the suffix of their names: the column itself, a short expression the
// SQL writes out where it needs it, and one holding a lambda, which the
// SQL binds to a lambda variable.
var Inputs = map[string]string{"": "`s`", "_bound": "concat(`s`, '')", "_lambda": "element_at(transform(array(`s`), udfx_q -> udfx_q), 1)"}

// Forms is the SQL of lower and upper (the mapping functions of a case
// package) over each of Inputs, as "lower"/"upper" with its suffix.
// A mapping without exact SQL fails the test unless the tables are being
// regenerated (update), where Spark's own function stands in so that the
// new tables can be reviewed.
func Forms(t testing.TB, update bool, lower, upper func(string) (string, error)) map[string]string {
	t.Helper()
	sqls := map[string]string{}
	for name, fn := range map[string]func(string) (string, error){"lower": lower, "upper": upper} {
		for suffix, x := range Inputs {
			sql, err := fn(x)
			if err != nil {
				require.True(t, update, "%v", err)
				sql = name + "(" + x + ")"
			}
			sqls[name+suffix] = sql
		}
	}
	return sqls
}
