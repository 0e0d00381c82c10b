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
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/testsetup"
)

// targets lists each fuzz target with its execution budget: a few seconds
// each on a 2-core machine under load, the seeds' coverage included
// (measured: from 10,000 executions a second for FuzzParseType down to
// under 1,000 for FuzzCSVSamples and FuzzCompile, whose 140 seeds take
// seconds before the first new input). FUZZ_EXECS multiplies them for a
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
	{pkg: "harness/udf", name: "FuzzParseType", execs: 30000},
	{pkg: "harness/udf", name: "FuzzSQLCallIndex", execs: 5000},
	{pkg: "harness/udf", name: "FuzzLines", execs: 20000},
	{pkg: "harness/udf/scala", name: "FuzzParse", execs: 10000},
	{pkg: "harness/udf/scala", name: "FuzzPlainLiteral", execs: 10000},
	{pkg: "harness/udf/java", name: "FuzzParse", execs: 10000},
	{pkg: "harness/udf/python", name: "FuzzParse", execs: 10000},
	{pkg: "harness/value", name: "FuzzParseLine", execs: 20000},
	{pkg: "harness/inputs", name: "FuzzCSVSamples", execs: 3000},
	{pkg: "harness/inputs", name: "FuzzJSONLSamples", execs: 5000},
	{pkg: "harness/engine", name: "FuzzCompile", execs: 5000},
	{pkg: "harness/engine", name: "FuzzTextParsers", execs: 5000},
	{pkg: "harness/engine", name: "FuzzJavaRegex", execs: 5000},
	{pkg: "harness/translate", name: "FuzzTranslate", execs: 3000},
	{pkg: "harness/translate", name: "FuzzJVMRegexSubset", execs: 30000},
	{pkg: "harness/translate", name: "FuzzStrftimeFormat", execs: 10000},
	{pkg: "harness/translate", name: "FuzzPyFormatTemplate", execs: 3000},
	{pkg: "harness/translate", name: "FuzzPyRegexMatchForms", execs: 10000},
	{pkg: "harness/translate/ir", name: "FuzzParseSimpleDateFormat", execs: 20000},
	{pkg: "harness/translate/ir", name: "FuzzParseDateTimeFormatter", execs: 20000},
	{pkg: "harness/plan", name: "FuzzParse", execs: 20000},
	{pkg: "harness/skills", name: "FuzzParse", execs: 20000},
	{pkg: "harness/agent", name: "FuzzToolCall", execs: 5000, longOnly: true},
	{pkg: "harness/buildpath", name: "FuzzPom", execs: 3000},
	{pkg: "harness/buildpath", name: "FuzzSbt", execs: 3000},
	{pkg: "harness/buildpath", name: "FuzzGradle", execs: 3000},
	{pkg: "internal/notebook", name: "FuzzNotebook", execs: 5000},
	{pkg: "harness/runner/jvm", name: "FuzzCompileError", execs: 10000},
	{pkg: "harness/runner/jvm", name: "FuzzReadResult", execs: 20000},
	{pkg: "harness/evidence", name: "FuzzSpanText", execs: 20000},
	{pkg: "internal/typeinfer", name: "FuzzParseSignature", execs: 5000},
	{pkg: "internal/typeinfer", name: "FuzzSchemaText", execs: 5000},
	{pkg: "internal/confine", name: "FuzzJoin", execs: 20000},
	{pkg: "internal/termsafe", name: "FuzzString", execs: 20000},
	{pkg: "internal/sparkversion", name: "FuzzRequirements", execs: 5000},
	{pkg: "internal/sparkversion", name: "FuzzPyproject", execs: 5000},
	{pkg: "internal/sparkversion", name: "FuzzPom", execs: 5000},
	{pkg: "internal/sparkversion", name: "FuzzSbt", execs: 5000},
	{pkg: "internal/sparkversion", name: "FuzzGradle", execs: 5000},
	{pkg: "internal/sparkversion", name: "FuzzUdfxYAML", execs: 5000},
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
	// The corpus of interesting inputs a run finds: a long run keeps it
	// where go test -fuzz does (GOCACHE/fuzz/<import path>), so that long
	// runs build on each other. The short run starts from the seeds each
	// time: replaying every input earlier runs kept would make it slower
	// with each run on a developer's machine (a few hundred inputs per
	// target after a day), while CI's cold cache has none anyway; crashers
	// are in testdata/fuzz, which the packages' own tests replay.
	corpus := func(t *testing.T, pkg string) string { return t.TempDir() }
	if long {
		cacheOut, err := exec.Command(goBin, "env", "GOCACHE").Output()
		require.NoError(t, err, "go env GOCACHE")
		modOut, err := exec.Command(goBin, "list", "-m").Output()
		require.NoError(t, err, "go list -m")
		fuzzCache := filepath.Join(strings.TrimSpace(string(cacheOut)), "fuzz", strings.TrimSpace(string(modOut)))
		corpus = func(_ *testing.T, pkg string) string { return filepath.Join(fuzzCache, pkg) }
	}
	bins := t.TempDir()

	// Each package's instrumented test binary is built once (most of a
	// go test -fuzz run's time is the build and its link) and runs each
	// of its targets in a process of its own, as go test -fuzz would.
	built := map[string]string{}
	for _, tg := range targets {
		if tg.longOnly && !long {
			continue
		}
		t.Run(strings.ReplaceAll(tg.pkg, "/", "_")+"_"+tg.name, func(t *testing.T) {
			bin, ok := built[tg.pkg]
			if !ok {
				bin = filepath.Join(bins, strings.ReplaceAll(tg.pkg, "/", "_")+".test")
				start := time.Now()
				require.NoError(t, buildFuzzBinary(goBin, root, "./"+tg.pkg, bin))
				built[tg.pkg] = bin
				t.Logf("built ./%s in %.1fs", tg.pkg, time.Since(start).Seconds())
			}
			start := time.Now()
			err := runFuzzTarget(bin, filepath.Join(root, filepath.FromSlash(tg.pkg)), tg.name, tg.execs*factor, corpus(t, tg.pkg))
			require.NoError(t, err)
			t.Logf("fuzzed %s %d times in %.1fs", tg.name, tg.execs*factor, time.Since(start).Seconds())
		})
	}
}

// buildFuzzBinary builds the test binary of the package pkg (relative to
// dir) instrumented for fuzzing, as go test -fuzz does, into bin.
func buildFuzzBinary(goBin, dir, pkg, bin string) error {
	// The pattern only makes go test build for fuzzing; each run of the
	// binary names its target.
	// Without DWARF and the symbol table the link takes half the time;
	// a crash's stack trace still names functions and lines.
	cmd := exec.Command(goBin, "test", "-c", "-fuzz", ".", "-ldflags", "-s -w", "-o", bin, pkg)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go test -c -fuzz %s: %v\n%s", pkg, err, tail(string(out), 6000))
	}
	return nil
}

// runFuzzTarget runs the fuzz target name of a binary built by
// buildFuzzBinary for execs new inputs, where go test -fuzz runs it: in
// the package's folder dir, so that a crasher is written to its
// testdata/fuzz, with cacheDir as the corpus cache. A crash, a failing
// seed or a hang past ten minutes is an error with the end of the
// output.
func runFuzzTarget(bin, dir, name string, execs int, cacheDir string) error {
	cmd := exec.Command(bin, "-test.run", "^$", "-test.fuzz", "^"+name+"$", "-test.fuzztime", fmt.Sprintf("%dx", execs),
		"-test.fuzzcachedir", cacheDir, "-test.timeout", "10m", "-test.paniconexit0")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("fuzzing %s in %s: %v\n%s", name, dir, err, tail(string(out), 6000))
	}
	return nil
}

// TestACrashFailsTheRun runs a target that crashes on some new input
// (testdata/fuzzcrash, in a module of its own) the way
// TestFuzzTargetsBriefly runs the listed ones: the run fails with the
// panic, and the crasher is in the package's testdata/fuzz for go test
// to replay, as go test -fuzz leaves it.
func TestACrashFailsTheRun(t *testing.T) {
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	goMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	goLine := regexp.MustCompile(`(?m)^go \S+$`).Find(goMod)
	require.NotNil(t, goLine, "go.mod has no go line")
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module fuzzcrash\n\n"+string(goLine)+"\n"), 0o644))
	src, err := os.ReadFile(filepath.Join("testdata", "fuzzcrash", "crash_test.go"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "crash_test.go"), src, 0o644))
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	bin := filepath.Join(t.TempDir(), "fuzzcrash.test")
	require.NoError(t, buildFuzzBinary(goBin, dir, ".", bin))
	err = runFuzzTarget(bin, dir, "FuzzCrash", 100000, t.TempDir())
	require.Error(t, err, "the target crashes on any input longer than 3 bytes")
	assert.Contains(t, err.Error(), "crashed on a long input")
	crashers, _ := filepath.Glob(filepath.Join(dir, "testdata", "fuzz", "FuzzCrash", "*"))
	assert.Len(t, crashers, 1, "the crasher is saved for go test to replay")
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
