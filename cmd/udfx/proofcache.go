package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/batch"
	"github.com/udfx/udfx/internal/digest"
	"github.com/udfx/udfx/internal/patch"
)

// proofKeys derives the proof-cache key of each UDF of a folder run: the
// udfx binary itself, the flags, the runtimes (the Python environment's
// packages, the JDK, Scala and Spark found), and every file of the
// repository that can change what the UDF computes (digest.Sources).
// Anything missing from that list would let a stale verdict through, so
// what cannot be read makes the UDF uncached, never cached.
type proofKeys struct {
	base   string
	python string
	env    func(string) string

	mu      sync.Mutex
	digests map[string]string // root and family: digest, "" for none
	jvmKey  *string
}

// cachedFlags are the flags that do not change a UDF's proof.
var cachedFlags = map[string]bool{"jobs": true, "format": true, "lang": true, "kind": true, "name": true, "changed-since": true, "no-cache": true}

func newProofKeys(e *env, f *pflag.FlagSet, python string) (*proofKeys, error) {
	exe, err := executableSHA256()
	if err != nil {
		return nil, err
	}
	var flags []string
	f.VisitAll(func(fl *pflag.Flag) {
		if !cachedFlags[fl.Name] {
			flags = append(flags, fl.Name+"="+fl.Value.String())
		}
	})
	py, err := pythonKey(e, python)
	if err != nil {
		return nil, err
	}
	base := digest.Key("udfx proof cache", version, exe, strings.Join(flags, "\n"), py)
	return &proofKeys{base: base, python: python, env: e.getenv, digests: map[string]string{}}, nil
}

// pythonKey is what chooses and makes the Python a proof runs in: the
// environment variables that pick runtimes, the interpreter, its version
// and every package it has.
func pythonKey(e *env, python string) (string, error) {
	var vars []string
	for _, k := range []string{"PATH", "JAVA_HOME", "SPARK_HOME", "SCALA_HOME", "UDFX_PYTHON", "PYTHONPATH", "PYSPARK_PYTHON", "VIRTUAL_ENV", "TZ", "LANG", "LC_ALL"} {
		vars = append(vars, k+"="+e.getenv(k))
	}
	pkgs, err := pythonPackages(python, e.getenv)
	if err != nil {
		return "", err
	}
	return digest.Key(strings.Join(vars, "\n"), python, pkgs), nil
}

// key is it's cache key, and the workspace files its row stands on; ok
// is false when the UDF cannot be cached.
func (k *proofKeys) key(ctx context.Context, e *env, it *batch.Item) (key string, files []string, ok bool) {
	root := patch.RepoRoot(filepath.Dir(e.abs(it.UDF.File)))
	family, name := digest.PythonFamily, "python"
	runtimeKey := ""
	if it.UDF.Language != udf.Python {
		family, name = digest.JVMFamily, "jvm"
		if runtimeKey, ok = k.jvm(); !ok {
			return "", nil, false
		}
	}
	sources, ok := k.digest(ctx, root, name, family)
	if !ok {
		return "", nil, false
	}
	ws := filepath.Join(root, patch.WorkspaceDirName, patch.SafeName(it.UDF.Name))
	for _, f := range []string{"report.md", "evidence.json", "rewrite.patch", "spec.json", "inputs.arrow"} {
		files = append(files, filepath.Join(ws, f))
	}
	return digest.Key(k.base, runtimeKey, root, it.Ref, string(it.UDF.Kind), sources), files, true
}

func (k *proofKeys) digest(ctx context.Context, root, name string, family digest.Family) (string, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	id := root + "\x00" + name
	d, seen := k.digests[id]
	if !seen {
		var err error
		if d, err = digest.Sources(ctx, root, family); err != nil {
			d = ""
		}
		k.digests[id] = d
	}
	return d, d != ""
}

// jvm is the JDK, Scala compiler and Spark jars the JVM runner finds.
func (k *proofKeys) jvm() (string, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.jvmKey == nil {
		s := jvmKey(k.env)
		k.jvmKey = &s
	}
	return *k.jvmKey, *k.jvmKey != ""
}

// jvmKey names the JDK, Scala compiler and Spark jars the JVM runner
// finds; "" when it finds none.
func jvmKey(getenv func(string) string) string {
	t, err := jvm.Toolchain(getenv)
	if err != nil {
		return ""
	}
	return strings.Join([]string{t.JavaHome, t.JDKVersion, t.JDKVendor, strings.Join(t.ScalaJars, ":"), t.ScalaVersion, t.SparkJars, t.SparkVersion}, "\n")
}

// pythonPackages is the Python's version and every distribution it has,
// with versions, as it reports them.
func pythonPackages(python string, getenv func(string) string) (string, error) {
	cmd := exec.Command(python, "-c", "import importlib.metadata as m, sys\nprint(sys.version)\nfor d in m.distributions(): print(d.metadata['Name'], d.version)")
	// Not the repository: a module of it must not shadow the standard
	// library's.
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "PYTHONPATH="+getenv("PYTHONPATH"))
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("proof cache: listing the packages of %s: %w", python, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	sort.Strings(lines[1:])
	return strings.Join(lines, "\n"), nil
}

var executableSHA256 = sync.OnceValues(func() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("proof cache: %w", err)
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", fmt.Errorf("proof cache: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("proof cache: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
})
