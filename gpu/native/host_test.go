package native

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udfx/udfx/gpu"
	"github.com/udfx/udfx/harness/render/cuda"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// hostDir writes a host build's sources for the rendered ToFahrenheit
// (the device fixtures' per-row header) into a new folder.
func hostDir(t *testing.T) string {
	t.Helper()
	row, err := os.ReadFile("../../templates/cuda/testdata/device/ToFahrenheit/udf_row.h")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, b := range map[string][]byte{"udf_row.h": row, "udfx_jvm.h": []byte(gpu.JVMHeader), "driver.cpp": []byte(gpu.HostDriver)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The precompiled header only saves time: the binary is the same byte
// for byte, and a damaged one in the cache costs no build.
func TestTheHostBuildsPrecompiledHeaderChangesNoByte(t *testing.T) {
	cxx, err := exec.LookPath("g++")
	if err != nil {
		t.Fatalf("the host build needs g++ (CI installs it): %v", err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ver, err := exec.Command(cxx, "-dumpfullversion").Output()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	std := hostStdHeader(ctx, cxx, strings.TrimSpace(string(ver)))
	if std == "" {
		t.Fatal("no precompiled header was built")
	}
	if _, err := os.Stat(std + ".gch"); err != nil {
		t.Fatal(err)
	}
	// It covers the JVM header's includes too: <cmath> is a fifth of a
	// build.
	if text, err := os.ReadFile(std); err != nil || !strings.Contains(string(text), "#include <cmath>") || !strings.Contains(string(text), "#include <vector>") {
		t.Fatalf("the precompiled header lacks the driver's or the JVM header's includes: %q, %v", text, err)
	}
	plain, pre := hostDir(t), hostDir(t)
	if err := hostBuild(ctx, cxx, "", plain, filepath.Join(plain, "bin")); err != nil {
		t.Fatal(err)
	}
	if err := hostBuild(ctx, cxx, std, pre, filepath.Join(pre, "bin")); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(plain, "bin"))
	b, _ := os.ReadFile(filepath.Join(pre, "bin"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("the host binary differs with the precompiled header (%d and %d bytes)", len(a), len(b))
	}

	// A truncated precompiled header fails g++; HostRunner builds again
	// without it.
	gch, err := os.ReadFile(std + ".gch")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(std+".gch", gch[:len(gch)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := hostBuild(ctx, cxx, std, hostDir(t), filepath.Join(t.TempDir(), "bin")); err == nil {
		t.Fatal("g++ took a truncated precompiled header: the fallback below tests nothing")
	}
	row, _ := os.ReadFile(filepath.Join(plain, "udf_row.h"))
	files := []cuda.File{{Path: cuda.RowHeader, Content: row}, {Path: cuda.JVMHeader, Content: []byte(gpu.JVMHeader)}}
	r, err := HostRunner(ctx, files, &udf.UDF{Params: make([]udf.Param, 1)}, runner.DefaultLimits)
	if err != nil {
		t.Fatalf("HostRunner over a damaged precompiled header: %v", err)
	}
	defer r.Close()
	got, err := r.Run(ctx, [][]value.Value{{value.DoubleOf(100)}})
	if err != nil || len(got) != 1 || got[0].Float64() != 212 {
		t.Fatalf("ToFahrenheit(100) built over a damaged precompiled header: %v, %v; want 212", got, err)
	}
}
