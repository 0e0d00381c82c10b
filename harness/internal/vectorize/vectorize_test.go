package vectorize

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/testsetup"
)

// TestMain links udfx's Python environment, whose interpreter the
// renderer runs in, the first time on a fresh machine.
func TestMain(m *testing.M) { os.Exit(testsetup.Main(m)) }

func python(t *testing.T) string {
	t.Helper()
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	return filepath.Join(root, ".venv", "bin", "python")
}

func vectorsFile(t *testing.T) string {
	t.Helper()
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	return filepath.Join(root, "examples", "python-vectors", "vectors.py")
}

func TestRendersTheVectorExamples(t *testing.T) {
	for _, c := range []struct {
		name, ret string
		want      []string
	}{
		// The accumulator is a Python float until its first float32
		// addend (numpy 2, NEP 50): the kernel keeps both and a flag.
		{"mean_pairwise_abs_diff", "float", []string{
			"_t5 = abs((v_x[v_i] - v_x[v_j]))\n            if v_tot_f:\n                v_tot_32 = v_tot_32 + _t5\n            else:\n                v_tot_32 = np.float32(v_tot_64) + _t5\n                v_tot_f = True",
			"_t6 = _add_int(v_cnt, np.int64(1))",
			`@pandas_udf("float")`,
		}},
		{"moving_average", "array<float>", []string{
			"if v_s_f:\n                v_s_32 = v_s_32 + _t10\n",
			"np.empty(_t2, dtype=np.float32)",
			`@pandas_udf("array<float>")`,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := Render(context.Background(), python(t), Request{
				File: vectorsFile(t), RelFile: "examples/python-vectors/vectors.py", Name: c.name,
				Kind: "pandas-udf", Flavor: "series-to-series", ReturnType: c.ret, ParamTypes: []string{"array<float>"},
				Marker: "# udfx:rewrite udfx-rewrites/x/evidence.json",
			})
			require.NoError(t, err)
			s := string(src)
			assert.True(t, strings.HasPrefix(s, "# udfx:rewrite udfx-rewrites/x/evidence.json\n"))
			assert.Contains(t, s, "@numba.njit(cache=True, error_model=\"numpy\")\ndef _"+c.name+"_kernel(v_x):")
			assert.NotContains(t, s, "fastmath=")
			// The original's per-row function, copied for the rows the
			// kernel leaves to it.
			assert.Contains(t, s, "def _"+c.name+"_original(x):")
			for _, w := range c.want {
				assert.Contains(t, s, w)
			}
		})
	}
}

// TestDeclines: what cannot be rendered exactly is declined with where
// and why, never approximated.
func TestDeclines(t *testing.T) {
	const head = "import numpy as np\nimport pandas as pd\nfrom pyspark.sql.functions import pandas_udf\nK = 3\n\n\n"
	wrap := func(body string) string {
		return head + "@pandas_udf(\"double\")\ndef u(v: pd.Series) -> pd.Series:\n    def f(x):\n" + body + "\n    return v.apply(f)\n"
	}
	for _, c := range []struct {
		name, src, flavor, want string
	}{
		{"global", wrap("        return x[0] * K"), "series-to-series", "reads K from outside itself"},
		{"float floor division", wrap("        return x[0] // 2.0"), "series-to-series", "// and % are rendered for ints only"},
		{"power", wrap("        return x[0] ** 2"), "series-to-series", "** is not rendered"},
		{"mixed comparison", wrap("        if x[0] > 0:\n            return 1.0\n        return 0.0"), "series-to-series", "comparing a numpy float64 with a Python int"},
		{"int and float", wrap("        s = 0\n        for i in range(len(x)):\n            s = s + 0.5\n        return s"), "series-to-series", "s is sometimes a Python int and sometimes a Python float"},
		{"while else", wrap("        i = 0\n        while i < 3:\n            i += 1\n        else:\n            i = 0\n        return x[i]"), "series-to-series", "while ... else is not rendered"},
		{"method call", wrap("        return x.sum()"), "series-to-series", "call of x.sum is not rendered"},
		{"series to scalar", wrap("        return 0.0"), "series-to-scalar", "renders pandas_udfs of the series-to-series shape"},
		{"not apply", head + "@pandas_udf(\"double\")\ndef u(v: pd.Series) -> pd.Series:\n    return v * 2\n", "series-to-series", "is not `def f(x): ...` then `return v.apply(f)`"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "m.py")
			require.NoError(t, os.WriteFile(file, []byte(c.src), 0o644))
			_, err := Render(context.Background(), python(t), Request{
				File: file, RelFile: "m.py", Name: "u", Kind: "pandas-udf", Flavor: c.flavor,
				ReturnType: "double", ParamTypes: []string{"array<double>"}, Marker: "# m",
			})
			var de *DeclineError
			require.ErrorAs(t, err, &de)
			assert.Contains(t, de.Reason, c.want)
		})
	}
}

// TestFastForms renders the fast forms of both examples and runs them on
// the published benchmark's data (np.random.seed(42), rand(1536) as
// float32): the fast kernel takes every such row (so a test on such rows
// proves it, not the exact kernel behind it), stays within the tolerance
// the examples' udfx.yaml entries would declare, and leaves a row with a
// NaN to the exact kernel, bit for bit.
func TestFastForms(t *testing.T) {
	for _, c := range []struct {
		name, ret string
		rows      int
		rel       float64
	}{
		{"moving_average", "array<float>", 50, 1e-5},
		{"mean_pairwise_abs_diff", "float", 2, 1e-3},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := Render(context.Background(), python(t), Request{
				File: vectorsFile(t), RelFile: "examples/python-vectors/vectors.py", Name: c.name,
				Kind: "pandas-udf", Flavor: "series-to-series", ReturnType: c.ret, ParamTypes: []string{"array<float>"},
				Marker: "# m", Fast: true,
			})
			require.NoError(t, err)
			s := string(src)
			assert.Contains(t, s, "the fast form: NOT bit-exact")
			assert.Contains(t, s, "def _"+c.name+"_fast(x):")
			assert.NotContains(t, s, "fastmath=")
			mod := filepath.Join(t.TempDir(), "fast.py")
			require.NoError(t, os.WriteFile(mod, src, 0o644))
			script := fmt.Sprintf(`import sys, numpy as np
import pyspark.sql.functions as F
F.pandas_udf = lambda *a, **k: (lambda f: f)
ns = {"__name__": "fast"}
exec(compile(open(sys.argv[1]).read(), sys.argv[1], "exec"), ns)
fast, exact, orig, row = (ns["_%[1]s_" + k] for k in ("fast", "kernel", "original", "row"))
np.random.seed(42)
worst = 0.0
for _ in range(%[2]d):
    x = np.random.rand(1536).astype(np.float32)
    f = np.asarray(fast(x), dtype=np.float64)  # raises if the row were outside its range
    o = np.asarray(orig(x), dtype=np.float64)
    worst = max(worst, float(np.max(np.abs(f - o) / np.maximum(np.abs(f), np.abs(o)))))
x[7] = np.nan
try:
    fast(x)
    sys.exit("the fast kernel took a row with a NaN")
except ArithmeticError:
    pass
a, b = np.asarray(row(x)), np.asarray(exact(x))
assert a.tobytes() == b.tobytes(), "a NaN row is not the exact kernel's"
print(worst)
`, c.name, c.rows)
			cmd := exec.Command(python(t), "-c", script, mod)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, string(out))
			worst, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
			require.NoError(t, err, string(out))
			assert.Greater(t, worst, 0.0, "the fast form rounds differently: else it would be no faster form")
			assert.LessOrEqual(t, worst, c.rel)
			t.Logf("%s: largest relative difference from the original on %d rows: %.3g", c.name, c.rows, worst)
		})
	}
}

// TestFastFormsByShape: a fast form is found by the function's shape
// (other names, another window), and a function of another shape is
// declined, never approximated.
func TestFastFormsByShape(t *testing.T) {
	const head = "import numpy as np\nimport pandas as pd\nfrom pyspark.sql.functions import pandas_udf\n\n\n"
	moving := func(loop string) string {
		return head + "@pandas_udf(\"array<float>\")\ndef u(col: pd.Series) -> pd.Series:\n    def g(vec):\n        win = 64\n        size = len(vec)\n" +
			"        out = np.empty(size - win + 1, dtype=vec.dtype)\n        for a in range(size - win + 1):\n            acc = 0.0\n" +
			"        " + loop + "\n                acc += vec[b]\n            out[a] = acc / win\n        return out\n\n    return col.apply(g)\n"
	}
	for _, c := range []struct {
		name, src, want, decline string
	}{
		{"renamed, window 64", moving("    for b in range(a, a + win):"), "m = n - 64 + 1", ""},
		{"one more element", moving("    for b in range(a, a + win + 1):"), "", "no faster form with a stated tolerance"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "m.py")
			require.NoError(t, os.WriteFile(file, []byte(c.src), 0o644))
			src, err := Render(context.Background(), python(t), Request{
				File: file, RelFile: "m.py", Name: "u", Kind: "pandas-udf", Flavor: "series-to-series",
				ReturnType: "array<float>", ParamTypes: []string{"array<float>"}, Marker: "# m", Fast: true,
			})
			if c.decline != "" {
				var de *DeclineError
				require.ErrorAs(t, err, &de)
				assert.Contains(t, de.Reason, c.decline)
				return
			}
			require.NoError(t, err)
			assert.Contains(t, string(src), c.want)
		})
	}
}

func loopsFile(t *testing.T) string {
	t.Helper()
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	return filepath.Join(root, "examples", "python-loops", "loops.py")
}

// TestRendersPlainUDFs renders the plain @udfs of examples/python-loops
// and runs them in CPython against their originals on ints around every
// 64-bit edge: equal values (the kernel's, or the original's where the
// kernel leaves the row to it), and the kernel takes the small ones.
// The int helpers are checked at their edges too: _mul_int once gave 0
// for 2**32 * 2**32, as LLVM folded its overflow check away.
func TestRendersPlainUDFs(t *testing.T) {
	for _, name := range []string{"collatz_steps", "digit_sum"} {
		t.Run(name, func(t *testing.T) {
			src, err := Render(context.Background(), python(t), Request{
				File: loopsFile(t), RelFile: "examples/python-loops/loops.py", Name: name,
				Kind: "python-udf", ReturnType: "int", ParamTypes: []string{"bigint"}, Marker: "# m",
			})
			require.NoError(t, err)
			s := string(src)
			assert.Contains(t, s, "def _"+name+"_kernel(v_n):")
			assert.Contains(t, s, "@udf('int')\ndef "+name+"(n):\n    return _"+name+"_row(n)\n")
			mod := filepath.Join(t.TempDir(), "plain.py")
			require.NoError(t, os.WriteFile(mod, src, 0o644))
			script := fmt.Sprintf(`import sys
import pyspark.sql.functions as F
F.udf = lambda *a, **k: (lambda f: f)
ns = {"__name__": "plain"}
exec(compile(open(sys.argv[1]).read(), sys.argv[1], "exec"), ns)
kernel, orig, row = (ns["_%[1]s_" + k] for k in ("kernel", "original", "row"))
M = 2**63 - 1
edges = [0, 1, 2, 3, 7, 27, 97, 871, 10**6 + 1, -1, -5, 2**31, 2**32 + 1, 2**62 - 1, M // 3, M // 3 + 1, M - 1, M, -M, -M - 1]
for n in edges:
    assert row(n) == orig(n), (n, row(n), orig(n))
for n in range(1, 3000):
    assert kernel(n) == orig(n), n
mul = ns["_mul_int"]
assert mul(3, 10**18) == 3 * 10**18 and mul(-3, 10**18) == -3 * 10**18
for a, b in [(2**32, 2**32), (3, M - 1), (M - 1, 3), (-(2**32), 2**32), (2**62, 2)]:
    try:
        mul(a, b)
        sys.exit("mul(%%d, %%d) did not raise" %% (a, b))
    except ArithmeticError:
        pass
print("ok")
`, name)
			out, err := exec.Command(python(t), "-c", script, mod).CombinedOutput()
			require.NoError(t, err, string(out))
			assert.Equal(t, "ok", strings.TrimSpace(string(out)))
		})
	}
}
