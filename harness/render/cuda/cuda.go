// Package cuda renders the CUDA rewrite of a UDF from the translator's IR:
// a per-row function written once as `__host__ __device__` C++, a kernel
// over cuDF columns that calls it, the JNI bridge, the Java RapidsUDF the
// RAPIDS Accelerator calls, and the CMake file that builds the library.
//
// The per-row function reproduces each IR node's meaning (the original
// language's) exactly or the node is refused with *ir.RenderError. So that
// the differential test can judge it on a machine without a GPU,
// gpu/native builds the same function with g++ and runs it as a
// runner.Runner. The templates are those of templates/cuda.
package cuda

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"text/template"
	"unicode"

	"github.com/udfx/udfx/gpu"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/tmplsrc"
)

// File is one rendered file: Path is relative to the rewrite's folder.
type File struct {
	Path    string
	Content []byte
}

// The files every CUDA rewrite has, besides the Java class.
const (
	RowHeader = "udf_row.h"
	JVMHeader = "udfx_jvm.h"
	Kernel    = "udf_kernel.cu"
	JNI       = "udf_jni.cpp"
	CMake     = "CMakeLists.txt"
)

// tmpls are the templates of templates/cuda (templates.go, generated).
var tmpls = tmplsrc.Parse(template.New("cuda").Funcs(template.FuncMap{
	"join": strings.Join,
}), templateFiles)

// param is one UDF parameter as the templates see it.
type param struct {
	Index int
	Name  string // the Spark column, for comments
	S     scalar
}

// data is what the templates are executed with.
type data struct {
	Marker    string
	UDF       string
	Class     string // the Java class, in package udfx.cuda
	Lib       string // the shared library's name
	JNIName   string // the native method's C symbol
	Iface     string // org.apache.spark.sql.api.java.UDFn with its type arguments
	IfaceName string // UDFn
	Params    []param
	Ret       scalar
	// The per-row function's body and result, in C++ and in Java.
	Cpp, Java             []string
	CppResult, JavaResult operand
}

// Render renders the CUDA rewrite of u, whose body translated to e. Each
// file carries the marker naming recordPath. A type other than double,
// float, int, bigint or boolean, or an IR node without an exact C++ form,
// is a *ir.RenderError.
func Render(u *udf.UDF, e ir.Expr, recordPath string) ([]File, error) {
	if u == nil || e == nil {
		return nil, fmt.Errorf("render CUDA: no UDF or no expression")
	}
	d := data{UDF: u.Name, Class: className(u.Name)}
	d.Lib = "udfx_" + strings.ToLower(d.Class)
	// JNI mangles the nested class's '$' as _00024; the class name has no
	// '_' to escape (className keeps letters and digits only).
	d.JNIName = "Java_udfx_cuda_" + d.Class + "_00024Native_evaluate"
	if len(u.Params) > 22 {
		return nil, renderErr(fmt.Sprintf("a UDF of %d parameters (Spark's Java UDF interfaces stop at 22)", len(u.Params)))
	}
	names := make(map[string]int, len(u.Params))
	var boxes []string
	for i, p := range u.Params {
		s, err := scalarOf(p.Type, "the parameter "+p.Name)
		if err != nil {
			return nil, err
		}
		names[p.Name] = i
		d.Params = append(d.Params, param{Index: i, Name: p.Name, S: s})
		boxes = append(boxes, s.Boxed)
	}
	ret, err := scalarOf(u.Return, "the return value")
	if err != nil {
		return nil, err
	}
	if !e.Type().Equal(u.Return) {
		return nil, fmt.Errorf("render CUDA %s: the expression has type %s but the UDF returns %s", u.Name, e.Type(), u.Return)
	}
	d.Ret = ret
	d.IfaceName = fmt.Sprintf("UDF%d", len(u.Params))
	d.Iface = fmt.Sprintf("UDF%d<%s>", len(u.Params), strings.Join(append(boxes, ret.Boxed), ", "))

	cpp := &gen{params: names}
	if d.CppResult, err = cpp.expr(e); err != nil {
		return nil, err
	}
	java := &gen{java: true, params: names}
	if d.JavaResult, err = java.expr(e); err != nil {
		return nil, err
	}
	d.Cpp, d.Java = cpp.lines, java.lines

	javaPath := path.Join("java", "udfx", "cuda", d.Class+".java")
	var files []File
	for _, f := range []struct{ path, tmpl string }{
		{RowHeader, "udf_row.h.tmpl"},
		{Kernel, "udf_kernel.cu.tmpl"},
		{JNI, "udf_jni.cpp.tmpl"},
		{javaPath, "RapidsUDF.java.tmpl"},
		{CMake, "CMakeLists.txt.tmpl"},
	} {
		d.Marker = evidence.MarkerLine(path.Ext(f.path), recordPath)
		var b bytes.Buffer
		if err := tmpls.ExecuteTemplate(&b, f.tmpl, d); err != nil {
			return nil, fmt.Errorf("render CUDA %s: %s: %w", u.Name, f.path, err)
		}
		files = append(files, File{Path: f.path, Content: b.Bytes()})
	}
	// The shared JVM arithmetic header travels with the rewrite, so the
	// folder builds on its own.
	hdr := evidence.MarkerLine(".h", recordPath) + "\n" + gpu.JVMHeader
	files = append(files, File{Path: JVMHeader, Content: []byte(hdr)})
	return files, nil
}

// className makes a Java class name from the UDF's name: its letters and
// digits, capitalized, with "Cuda" after it.
func className(name string) string {
	var b strings.Builder
	up := true
	for _, r := range name {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if up {
				r = unicode.ToUpper(r)
			}
			b.WriteRune(r)
			up = false
			continue
		}
		up = true
	}
	s := b.String()
	if s == "" || unicode.IsDigit(rune(s[0])) {
		s = "Udf" + s
	}
	return s + "Cuda"
}
