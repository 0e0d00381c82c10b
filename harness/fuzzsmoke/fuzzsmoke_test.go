package fuzzsmoke

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/testsetup"
)

// targets lists each fuzz target with its execution budget: a few
// seconds each on a 2-core machine. FUZZ_EXECS multiplies them for a
// long run (FUZZ_EXECS=40 go test ./harness/fuzzsmoke).
var targets = []struct {
	pkg, name string
	execs     int
}{
	{"harness/udf", "FuzzParseType", 100000},
	{"harness/udf/scala", "FuzzParse", 30000},
	{"harness/udf/java", "FuzzParse", 30000},
	{"harness/udf/python", "FuzzParse", 30000},
	{"harness/value", "FuzzParseLine", 30000},
	{"harness/inputs", "FuzzCSVSamples", 10000},
	{"harness/inputs", "FuzzJSONLSamples", 10000},
	{"harness/engine", "FuzzCompile", 30000},
	{"harness/engine", "FuzzTextParsers", 30000},
	{"harness/translate", "FuzzTranslate", 3000},
	{"harness/plan", "FuzzParse", 30000},
	{"harness/skills", "FuzzParse", 20000},
	{"harness/agent", "FuzzToolCall", 5000},
	{"harness/runner/jvm", "FuzzCompileError", 20000},
	{"harness/runner/jvm", "FuzzReadResult", 20000},
	{"harness/evidence", "FuzzSpanText", 20000},
	{"internal/typeinfer", "FuzzParseSignature", 20000},
	{"internal/typeinfer", "FuzzSchemaText", 20000},
}

func TestFuzzTargetsBriefly(t *testing.T) {
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	factor := 1
	if f := os.Getenv("FUZZ_EXECS"); f != "" {
		_, err := fmt.Sscan(f, &factor)
		require.NoError(t, err, "FUZZ_EXECS=%q", f)
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	for _, tg := range targets {
		t.Run(strings.ReplaceAll(tg.pkg, "/", "_")+"_"+tg.name, func(t *testing.T) {
			cmd := exec.Command(goBin, "test", "-run", "^$", "-fuzz", "^"+tg.name+"$",
				"-fuzztime", fmt.Sprintf("%dx", tg.execs*factor), "./"+tg.pkg)
			cmd.Dir = root
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go test -fuzz %s ./%s: %v\n%s", tg.name, tg.pkg, err, tail(string(out), 6000))
			}
		})
	}
}

var fuzzFuncRE = regexp.MustCompile(`(?m)^func (Fuzz\w+)\(`)

// TestEveryFuzzTargetIsListed keeps the list above complete: a new fuzz
// target that is not listed would never run beyond its seeds.
func TestEveryFuzzTargetIsListed(t *testing.T) {
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	listed := map[string]bool{}
	for _, tg := range targets {
		listed[tg.pkg+" "+tg.name] = true
	}
	var missing []string
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		for _, m := range fuzzFuncRE.FindAllStringSubmatch(string(src), -1) {
			if key := filepath.ToSlash(rel) + " " + m[1]; !listed[key] {
				missing = append(missing, key)
			}
		}
		return nil
	})
	require.NoError(t, err)
	sort.Strings(missing)
	require.Empty(t, missing, "fuzz targets not in harness/fuzzsmoke's list")
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
