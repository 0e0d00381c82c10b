package rewrite

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/udfx/udfx/gpu/native"
	"github.com/udfx/udfx/gpu/toolkit"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/internal/buildcache"
	"github.com/udfx/udfx/harness/mavenjar"
	"github.com/udfx/udfx/harness/render/cuda"
	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/harness/udf"
)

// Notes on the columnar and CUDA targets, as report.md and the record
// state them: how far each was checked. Neither ran on a GPU here.
const (
	ColumnarNote         = "compiled with javac against the cuDF and RAPIDS jars"
	ColumnarRenderedNote = "rendered only, not compiled (%s)"
	CUDANote             = "host-verified with g++; RapidsUDF compiled with javac; kernel and JNI bridge not built with nvcc here"
	CUDABuiltNote        = "host-verified with g++; RapidsUDF compiled with javac; kernel and JNI bridge compiled with nvcc (sm_90, compute_90)"
	CUDARenderedNote     = "host-verified with g++; RapidsUDF not compiled (%s); not built with nvcc here"
)

// NativePath is where the CUDA library lies in the RapidsUDF jar; the
// generated Java class loads it from there when it is not on
// java.library.path.
func NativePath(lib string) string { return "udfx/native/lib" + lib + ".so" }

// jarEpoch is every jar entry's time, so that the same classes make the
// same jar.
var jarEpoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// buildArtifact compiles the accepted columnar and CUDA rewrites'
// RapidsUDF classes against the cuDF and RAPIDS jars (one javac step for
// both) and packages them, with the CUDA library when opts.BuildNative
// and nvcc and the cuDF headers are found, into one jar in the workspace.
// Each target's note then says what was compiled; without the jars they
// stay rendered. Generated code that fails to compile is declined.
func buildArtifact(ctx context.Context, opts Options, out *Outcome) error {
	b := &artifactBuild{ctx: ctx, opts: opts, out: out}
	for _, r := range out.Rendered {
		if r.Accepted && (r.Target == TargetColumnar || r.Target == TargetCUDA) {
			b.rs = append(b.rs, r)
		}
	}
	if len(b.rs) == 0 {
		return nil
	}
	switch why, err := b.prepare(); {
	case errors.Is(err, errNothingToBuild):
		return nil
	case err != nil:
		return err
	case why != "":
		b.rendered(why)
		return nil
	}
	defer os.RemoveAll(b.work)
	origDir, err := jvm.CompileSource(ctx, &b.tools, opts.Limits, opts.UDF.Path(), filepath.Join(b.cacheDir, "jvm"))
	if err != nil {
		b.rendered("the original did not compile here: " + firstLine(err.Error()))
		return nil
	}
	srcs, cudaFiles, err := b.writeSources()
	if err != nil {
		return err
	}
	genDir, err := b.compileClasses(origDir, srcs)
	if err != nil || genDir == "" {
		return err
	}
	libs, err := b.buildLibraries(cudaFiles)
	if err != nil {
		return err
	}
	return b.packageJar(genDir, libs)
}

// artifactBuild is one build of the RapidsUDF jar, phase by phase.
type artifactBuild struct {
	ctx  context.Context
	opts Options
	out  *Outcome
	rs   []*Rendered // the accepted columnar and CUDA rewrites

	tools              jvm.Tools
	cudfJar, rapidsJar string
	cacheDir, work     string
	built              []string // what ran, for the record
}

// nativeLib is a built CUDA library: where it goes in the jar and where it
// lies in the build cache.
type nativeLib struct{ path, file string }

// rendered leaves every target rendered only, saying why.
func (b *artifactBuild) rendered(why string) {
	for _, r := range b.rs {
		if r.Target == TargetColumnar {
			r.Note = fmt.Sprintf(ColumnarRenderedNote, why)
		} else {
			r.Note = fmt.Sprintf(CUDARenderedNote, why)
		}
	}
}

// prepare finds the jars, the JDK and the cache and makes the work folder.
// A missing prerequisite is a reason to stay rendered, not an error.
func (b *artifactBuild) prepare() (why string, err error) {
	var ok1, ok2 bool
	b.cudfJar, ok1 = mavenjar.Find(mavenjar.CuDF)
	b.rapidsJar, ok2 = mavenjar.Find(mavenjar.Rapids)
	if !ok1 || !ok2 {
		return "the cuDF and RAPIDS jars are not in the local Maven repository; udfx setup --jars fetches them", nil
	}
	b.tools, err = jvm.Toolchain(os.Getenv)
	if err != nil || b.tools.SparkJars == "" || b.tools.Javac == "" {
		return "no JDK with Spark's jars to compile against", nil
	}
	b.cacheDir = b.opts.CacheDir
	if b.cacheDir == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("RapidsUDF build: no cache folder: %w", err)
		}
		b.cacheDir = filepath.Join(d, "udfx")
	}
	// The columnar class extends the original: its classes, as the JVM
	// runner compiled them for the scaffold (from its cache).
	switch b.opts.UDF.Language {
	case udf.Java:
	case udf.Scala:
		if len(b.tools.ScalaJars) == 0 {
			return "no Scala 2.13 compiler for the original", nil
		}
	default:
		return "", errNothingToBuild
	}
	b.work, err = os.MkdirTemp("", "udfx-rapidsudf-")
	if err != nil {
		return "", fmt.Errorf("RapidsUDF build: %w", err)
	}
	return "", nil
}

// errNothingToBuild ends a build that has nothing to compile (a UDF not on
// the JVM) without an error.
var errNothingToBuild = errors.New("nothing to build")

// writeSources writes every generated Java class under the work folder for
// one javac step and gathers each CUDA rewrite's native files.
func (b *artifactBuild) writeSources() (srcs []string, cudaFiles map[*Rendered][]cuda.File, err error) {
	srcDir := filepath.Join(b.work, "src")
	cudaFiles = map[*Rendered][]cuda.File{}
	for _, r := range b.rs {
		prefix := b.out.RewriteDir + "/" + r.Target + "/"
		for _, f := range r.Files {
			rel := strings.TrimPrefix(f.path, prefix)
			if r.Target == TargetCUDA {
				cudaFiles[r] = append(cudaFiles[r], cuda.File{Path: rel, Content: f.data})
			}
			if !strings.HasSuffix(f.path, ".java") {
				continue
			}
			p := filepath.Join(srcDir, r.Target, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return nil, nil, err
			}
			if err := os.WriteFile(p, f.data, 0o644); err != nil {
				return nil, nil, err
			}
			srcs = append(srcs, p)
		}
	}
	return srcs, cudaFiles, nil
}

// compileClasses compiles the generated classes in one javac step,
// warnings as errors, and returns the folder of classes. Classes that do
// not compile decline every target, and the folder is "".
func (b *artifactBuild) compileClasses(origDir string, srcs []string) (string, error) {
	sparkCP := filepath.Join(b.tools.SparkJars, "*")
	cp := strings.Join([]string{b.cudfJar, b.rapidsJar, origDir, sparkCP}, string(os.PathListSeparator))
	flags := jvm.GeneratedJavacLint
	// The classes are kept by what they are compiled from, so that the
	// same rewrite (udfx rewrite, then udfx rewrite --apply) runs javac
	// once. A compile that fails is not kept.
	key, err := rapidsKey(b.tools, flags, []string{b.cudfJar, b.rapidsJar, origDir}, filepath.Join(b.work, "src"), srcs)
	if err != nil {
		return "", fmt.Errorf("RapidsUDF build: %w", err)
	}
	classDir, _, err := buildcache.Dir(filepath.Join(b.cacheDir, "rapidsudf"), key, func(dir string) error {
		classes := filepath.Join(dir, "classes")
		if err := os.MkdirAll(classes, 0o755); err != nil {
			return err
		}
		args := append(append(append([]string{b.tools.Javac}, jvm.JavacFlags()...), flags...), "-d", classes, "-cp", cp)
		if msg, err := runTool(b.ctx, append(args, srcs...)); err != nil {
			return &javacError{msg}
		}
		return nil
	})
	var je *javacError
	if errors.As(err, &je) {
		for _, r := range b.rs {
			r.Accepted, r.Files = false, nil
			r.Reason = "the generated RapidsUDF does not compile against the cuDF and RAPIDS jars (javac -Werror): " + tail(je.output, 2000)
		}
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("RapidsUDF build: %w", err)
	}
	b.built = append(b.built, fmt.Sprintf("javac %s -Xlint:all -Werror against %s (%s) and %s (%s)",
		b.tools.JDKVersion, path.Base(filepath.ToSlash(b.cudfJar)), shortHash(b.cudfJar), path.Base(filepath.ToSlash(b.rapidsJar)), shortHash(b.rapidsJar)))
	return filepath.Join(classDir, "classes"), nil
}

// buildLibraries builds each CUDA rewrite's library when asked for and a
// toolkit is at hand, and sets each target's note to what was compiled.
// A library that does not build declines its target.
func (b *artifactBuild) buildLibraries(cudaFiles map[*Rendered][]cuda.File) ([]nativeLib, error) {
	var libs []nativeLib
	for _, r := range b.rs {
		r.Note = ColumnarNote
		if r.Target != TargetCUDA {
			continue
		}
		r.Note = CUDANote
		nvcc, okN := toolkit.Find(nil)
		hdr, okH := toolkit.CudfHeaders()
		if !b.opts.BuildNative || !okN || !okH {
			continue
		}
		name, err := native.LibraryName(cudaFiles[r])
		if err != nil {
			return nil, fmt.Errorf("CUDA build: %w", err)
		}
		// Kept like the classes: udfx rewrite --native, then --apply,
		// runs nvcc once.
		key, err := nativeKey(nvcc, hdr, b.tools.JavaHome, cudaFiles[r])
		if err != nil {
			return nil, fmt.Errorf("CUDA build: %w", err)
		}
		libDir, _, err := buildcache.Dir(filepath.Join(b.cacheDir, "cudalib"), key, func(dir string) error {
			_, err := native.BuildLibrary(b.ctx, nvcc, hdr, b.tools.JavaHome, cudaFiles[r], dir)
			return err
		})
		var be *native.BuildError
		if errors.As(err, &be) {
			r.Accepted, r.Files = false, nil
			r.Reason = "the kernel or JNI bridge does not build with nvcc: " + tail(err.Error(), 2000)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("CUDA build: %w", err)
		}
		libs = append(libs, nativeLib{NativePath(name), filepath.Join(libDir, "lib"+name+".so")})
		b.built = append(b.built, "nvcc "+strings.Join(native.DeviceFlags, " ")+" (from "+nvcc.From+")")
		r.Note = CUDABuiltNote
	}
	return libs, nil
}

// packageJar writes the jar (the generated classes and the libraries, in a
// fixed order) into the workspace and hands its record to the targets.
func (b *artifactBuild) packageJar(genDir string, libs []nativeLib) error {
	var entries []evidence.ArtifactEntry
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, data []byte) error {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: jarEpoch})
		if err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
		entries = append(entries, evidence.ArtifactEntry{Path: name, SHA256: evidence.SHA256(data)})
		return nil
	}
	addFile := func(name, file string) error {
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		return add(name, data)
	}
	if err := add("META-INF/MANIFEST.MF", []byte("Manifest-Version: 1.0\r\nCreated-By: "+b.opts.Tool+"\r\n\r\n")); err != nil {
		return err
	}
	var classes []string
	err := filepath.WalkDir(genDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			classes = append(classes, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	sort.Strings(classes)
	for _, p := range classes {
		rel, _ := filepath.Rel(genDir, p)
		if err := addFile(filepath.ToSlash(rel), p); err != nil {
			return err
		}
	}
	for _, l := range libs {
		if err := addFile(l.path, l.file); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	jarAbs := filepath.Join(b.opts.Workspace, "udfx-"+b.opts.UDF.Name+"-rapids.jar")
	if err := os.MkdirAll(filepath.Dir(jarAbs), 0o755); err != nil {
		return err
	}
	if err := evidence.WriteFileAtomic(jarAbs, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", jarAbs, err)
	}
	rel, err := filepath.Rel(b.opts.RepoRoot, jarAbs)
	if err != nil {
		return err
	}
	a := &evidence.Artifact{Path: filepath.ToSlash(rel), SHA256: evidence.SHA256(buf.Bytes()), Entries: entries, Built: b.built}
	for _, r := range b.rs {
		if r.Accepted {
			a.Targets = append(a.Targets, r.Target)
			r.Artifact = a
		}
	}
	return nil
}

// artifactsOf lists the artifacts of the rendered targets, once each.
func artifactsOf(rs []*Rendered) []evidence.Artifact {
	var out []evidence.Artifact
	seen := map[*evidence.Artifact]bool{}
	for _, r := range rs {
		if r.Accepted && r.Artifact != nil && !seen[r.Artifact] {
			seen[r.Artifact] = true
			out = append(out, *r.Artifact)
		}
	}
	return out
}

// javacError is javac's refusal of the generated classes, with its output.
type javacError struct{ output string }

func (e *javacError) Error() string { return "javac: " + firstLine(e.output) }

// rapidsKey names the RapidsUDF classes by what javac makes them from:
// javac and its flags, the jars and folders on the class path (where they
// are, with their sizes and times; the original's classes are a folder of
// the JVM runner's cache named by their own inputs, Spark's jars among
// them) and each source, by its path under srcDir and its content.
func rapidsKey(tools jvm.Tools, flags, classpath []string, srcDir string, srcs []string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "rapidsudf 1\x00%s\x00%s\x00%s\n", resolvedPath(tools.Javac), tools.JDKVersion, strings.Join(flags, " "))
	for _, p := range append(classpath, tools.SparkJars) {
		st, err := os.Stat(p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", resolvedPath(p), st.Size(), st.ModTime().UnixNano())
	}
	for _, src := range srcs {
		b, err := os.ReadFile(src)
		if err != nil {
			return "", err
		}
		rel, _ := filepath.Rel(srcDir, src)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:40], nil
}

// nativeKey names a CUDA library by what nvcc and g++ make it from: the
// compilers (where they are, with their sizes and times) and their flags,
// the cuDF headers' and the JDK's folders, and each native source by name
// and content.
func nativeKey(nvcc toolkit.NVCC, cudfHeaders []string, javaHome string, files []cuda.File) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "cudalib 1\x00%s\x00%s\x00%s\n", strings.Join(native.DeviceFlags, " "), strings.Join(native.JNIFlags, " "), strings.Join(native.DeviceArch, " "))
	gxx, err := exec.LookPath("g++")
	if err != nil {
		return "", err
	}
	for _, p := range []string{nvcc.Path, gxx} {
		st, err := os.Stat(p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", resolvedPath(p), st.Size(), st.ModTime().UnixNano())
	}
	for _, d := range append(append(append([]string{}, cudfHeaders...), nvcc.Include...), javaHome) {
		fmt.Fprintf(h, "%s\n", resolvedPath(d))
	}
	sorted := append([]cuda.File{}, files...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	for _, f := range sorted {
		fmt.Fprintf(h, "%s\x00%d\x00", f.Path, len(f.Content))
		h.Write(f.Content)
	}
	return hex.EncodeToString(h.Sum(nil))[:40], nil
}

func resolvedPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func runTool(ctx context.Context, args []string) (string, error) {
	out, err := exec.CommandContext(ctx, args[0], args[1:]...).CombinedOutput()
	if err == nil && len(bytes.TrimSpace(out)) > 0 && strings.HasSuffix(args[0], "javac") {
		err = fmt.Errorf("javac printed diagnostics")
	}
	return string(out), err
}

func shortHash(file string) string {
	b, err := os.ReadFile(file + ".sha1")
	if err == nil && len(bytes.TrimSpace(b)) >= 12 {
		return "sha1:" + string(bytes.TrimSpace(b))[:12]
	}
	return "?"
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
