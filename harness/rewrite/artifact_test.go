package rewrite

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/gpu/native"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/render/cuda"
	"github.com/udfx/udfx/harness/testsetup"
	"github.com/udfx/udfx/harness/translate"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
)

// artifactCase renders the columnar and CUDA rewrites of the Java
// ToFahrenheit example as renderTargets does (the CUDA one without its
// host run, which templates/cuda tests) and returns the Options and
// Outcome buildArtifact takes, with cacheDir as its build cache (a fresh
// one runs javac).
func artifactCase(t *testing.T, cacheDir string) (Options, *Outcome) {
	t.Helper()
	testsetup.RapidsJars(t)
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	file := "examples/java-to-fahrenheit/ToFahrenheit.java"
	src, err := os.ReadFile(filepath.Join(root, file))
	require.NoError(t, err)
	fe := frontends.New(udf.Java)
	defer fe.Close()
	us, err := fe.Parse(file, src)
	require.NoError(t, err)
	var u *udf.UDF
	for i := range us {
		if us[i].Name == "ToFahrenheit" {
			u = &us[i]
		}
	}
	require.NotNil(t, u)
	u.Root = root
	res, err := translate.Translate(u, src)
	require.NoError(t, err)
	require.NotNil(t, res.IR)
	dir := "udfx-rewrites/ToFahrenheit"
	opts := Options{UDF: u, Source: src, RepoRoot: root, Workspace: t.TempDir(), Tool: "udfx test", CacheDir: cacheDir}
	out := &Outcome{RewriteDir: dir}
	col := &Rendered{Target: TargetColumnar}
	require.NoError(t, renderColumnar(opts, res.IR, dir, dir+"/evidence.json", col))
	require.True(t, col.Accepted, col.Reason)
	files, err := cuda.Render(u, res.IR, dir+"/evidence.json")
	require.NoError(t, err)
	cu := &Rendered{Target: TargetCUDA, Accepted: true}
	for _, f := range files {
		cu.Files = append(cu.Files, renderedFile{path: dir + "/cuda/" + f.Path, data: f.Content})
	}
	out.Rendered = []*Rendered{col, cu}
	return opts, out
}

// TestBuildArtifactCompilesAndPackages compiles the example's RapidsUDF
// classes with javac -Werror against the real cuDF and RAPIDS jars,
// packages them into the workspace's jar, labels both targets compiled
// and records every entry's hash; the jar's bytes are what the record
// says.
func TestBuildArtifactCompilesAndPackages(t *testing.T) {
	cache := t.TempDir()
	opts, out := artifactCase(t, cache)
	require.NoError(t, buildArtifact(context.Background(), opts, out))
	col, cu := out.Rendered[0], out.Rendered[1]
	require.True(t, col.Accepted, col.Reason)
	require.True(t, cu.Accepted, cu.Reason)
	assert.Equal(t, ColumnarNote, col.Note)
	assert.Equal(t, CUDANote, cu.Note, "BuildNative is off: the library is not built")
	arts := artifactsOf(out.Rendered)
	require.Len(t, arts, 1)
	a := arts[0]
	assert.Equal(t, []string{TargetColumnar, TargetCUDA}, a.Targets)
	assert.False(t, filepath.IsAbs(a.Path), a.Path)
	assert.Contains(t, a.Built[0], "-Werror")

	jarAbs := filepath.Join(opts.RepoRoot, filepath.FromSlash(a.Path))
	b, err := os.ReadFile(jarAbs)
	require.NoError(t, err)
	assert.Equal(t, evidence.SHA256(b), a.SHA256)
	z, err := zip.OpenReader(jarAbs)
	require.NoError(t, err)
	defer z.Close()
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
	}
	sort.Strings(names)
	assert.Equal(t, []string{"META-INF/MANIFEST.MF", "examples/temperature/ToFahrenheitRapidsUDF.class", "udfx/cuda/ToFahrenheitCuda$Native.class", "udfx/cuda/ToFahrenheitCuda.class"}, names)
	var recorded []string
	for _, e := range a.Entries {
		recorded = append(recorded, e.Path)
		assert.Len(t, e.SHA256, 64)
	}
	sort.Strings(recorded)
	assert.Equal(t, names, recorded)

	// Fixed entry times: the same classes make the same jar.
	for _, f := range z.File {
		assert.True(t, f.Modified.Equal(jarEpoch), "%s: %s", f.Name, f.Modified)
	}

	// The same rewrite again (udfx rewrite, then --apply) takes the
	// classes javac made from the cache: one build, the same jar.
	opts2, out2 := artifactCase(t, cache)
	require.NoError(t, buildArtifact(context.Background(), opts2, out2))
	arts2 := artifactsOf(out2.Rendered)
	require.Len(t, arts2, 1)
	assert.Equal(t, a.SHA256, arts2[0].SHA256)
	assert.Equal(t, a.Built, arts2[0].Built)
	builds, err := filepath.Glob(filepath.Join(cache, "rapidsudf", "*"))
	require.NoError(t, err)
	assert.Len(t, builds, 1, "one javac build for the two runs")
}

// TestBuildArtifactDeclinesWhatDoesNotCompile: generated code that javac
// rejects is declined with javac's words, never recorded as compiled.
func TestBuildArtifactDeclinesWhatDoesNotCompile(t *testing.T) {
	cache := t.TempDir()
	opts, out := artifactCase(t, cache)
	col := out.Rendered[0]
	for i, f := range col.Files {
		if strings.HasSuffix(f.path, ".java") {
			col.Files[i].data = []byte(strings.Replace(string(f.data), "implements RapidsUDF {", "implements RapidsUDF {\n  private java.util.List raw;", 1))
		}
	}
	require.NoError(t, buildArtifact(context.Background(), opts, out))
	for _, r := range out.Rendered {
		assert.False(t, r.Accepted, r.Target)
		assert.Contains(t, r.Reason, "does not compile against the cuDF and RAPIDS jars")
		assert.Contains(t, r.Reason, "rawtypes")
	}
	assert.Empty(t, artifactsOf(out.Rendered))
	builds, err := filepath.Glob(filepath.Join(cache, "rapidsudf", "*"))
	require.NoError(t, err)
	assert.Empty(t, builds, "what javac rejects is not kept")
}

// TestBuildArtifactBuildsTheNativeLibrary: with BuildNative (udfx rewrite
// --native) the CUDA target's kernel and JNI bridge are built with nvcc
// into the jar, the target is labelled compiled with nvcc, the record
// hashes the library, and the same rewrite again takes the library from
// the cache: one nvcc build for two runs.
func TestBuildArtifactBuildsTheNativeLibrary(t *testing.T) {
	ctx := context.Background()
	testsetup.NVCC(t)
	testsetup.CudfHeaders(t)
	cache := t.TempDir()
	var jars []evidence.Artifact
	for run := 0; run < 2; run++ {
		opts, out := artifactCase(t, cache)
		opts.BuildNative = true
		require.NoError(t, buildArtifact(ctx, opts, out))
		cu := out.Rendered[1]
		require.True(t, cu.Accepted, cu.Reason)
		assert.Equal(t, CUDABuiltNote, cu.Note)
		arts := artifactsOf(out.Rendered)
		require.Len(t, arts, 1)
		jars = append(jars, arts[0])
	}
	a := jars[0]
	assert.Equal(t, a.SHA256, jars[1].SHA256, "the same rewrite makes the same jar")
	var lib *evidence.ArtifactEntry
	for i, e := range a.Entries {
		if e.Path == NativePath("udfx_tofahrenheitcuda") {
			lib = &a.Entries[i]
		}
	}
	require.NotNil(t, lib, "the jar holds the library: %+v", a.Entries)
	libs, err := filepath.Glob(filepath.Join(cache, "cudalib", "*", "libudfx_tofahrenheitcuda.so"))
	require.NoError(t, err)
	require.Len(t, libs, 1, "one nvcc build for the two runs")
	b, err := os.ReadFile(libs[0])
	require.NoError(t, err)
	assert.Equal(t, evidence.SHA256(b), lib.SHA256, "the record hashes the library nvcc built")
	built := strings.Join(a.Built, "\n")
	for _, flag := range []string{"nvcc ", "--fmad=false", "--prec-div=true", "--prec-sqrt=true", "--ftz=false", "arch=compute_90,code=sm_90", "arch=compute_90,code=compute_90", "all-warnings"} {
		assert.Contains(t, built, flag)
	}
	assert.NotContains(t, built, "fast-math")
	ok, err := native.ExportsSymbol(libs[0], "Java_udfx_cuda_ToFahrenheitCuda_00024Native_evaluate")
	require.NoError(t, err)
	assert.True(t, ok, "the library exports the JNI entry point of udfx.cuda.ToFahrenheitCuda")
}
