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
//
// longOnly targets run only in a long run (FUZZ_EXECS set, task fuzz):
// their instrumented build alone takes minutes on 2 cores (FuzzToolCall
// instruments all of openai-go), while their seeds run in every go test.
var targets = []struct {
	pkg, name string
	execs     int
	longOnly  bool
}{
	{pkg: "harness/udf", name: "FuzzParseType", execs: 100000},
	{pkg: "harness/udf/scala", name: "FuzzParse", execs: 10000},
	{pkg: "harness/udf/java", name: "FuzzParse", execs: 30000},
	{pkg: "harness/udf/python", name: "FuzzParse", execs: 30000},
	{pkg: "harness/value", name: "FuzzParseLine", execs: 30000},
	{pkg: "harness/inputs", name: "FuzzCSVSamples", execs: 10000},
	{pkg: "harness/inputs", name: "FuzzJSONLSamples", execs: 10000},
	{pkg: "harness/engine", name: "FuzzCompile", execs: 30000},
	{pkg: "harness/engine", name: "FuzzTextParsers", execs: 30000},
	{pkg: "harness/translate", name: "FuzzTranslate", execs: 3000},
	{pkg: "harness/plan", name: "FuzzParse", execs: 30000},
	{pkg: "harness/skills", name: "FuzzParse", execs: 20000},
	{pkg: "harness/agent", name: "FuzzToolCall", execs: 5000, longOnly: true},
	{pkg: "harness/runner/jvm", name: "FuzzCompileError", execs: 20000},
	{pkg: "harness/runner/jvm", name: "FuzzReadResult", execs: 20000},
	{pkg: "harness/evidence", name: "FuzzSpanText", execs: 20000},
	{pkg: "internal/typeinfer", name: "FuzzParseSignature", execs: 20000},
	{pkg: "internal/typeinfer", name: "FuzzSchemaText", execs: 20000},
	{pkg: "harness/udf", name: "FuzzSQLCallIndex", execs: 20000},
}

func TestFuzzTargetsBriefly(t *testing.T) {
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	factor, long := 1, false
	if f := os.Getenv("FUZZ_EXECS"); f != "" {
		long = true
		_, err := fmt.Sscan(f, &factor)
		require.NoError(t, err, "FUZZ_EXECS=%q", f)
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	for _, tg := range targets {
		if tg.longOnly && !long {
			continue
		}
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
