// Code generated from templates/cuda by TestTemplatesMatchTheFolder -update; DO NOT EDIT.

package cuda

// templateFiles are the files of templates/cuda by name.
var templateFiles = map[string]string{
	"CMakeLists.txt.tmpl": "{{.Marker}}\n" +
		"# Builds lib{{.Lib}}.so, the CUDA rewrite of {{.UDF}}, against libcudf.\n" +
		"#\n" +
		"# Exactness: the kernel must compute what the JVM computes, bit for bit.\n" +
		"# nvcc contracts a*b+c into one fused multiply-add by default, which rounds\n" +
		"# once where the JVM rounds twice: --fmad=false forbids it. --prec-div,\n" +
		"# --prec-sqrt and --ftz=false keep IEEE division, square root and\n" +
		"# subnormals (never --use_fast_math). Host code gets -ffp-contract=off for\n" +
		"# the same reason; udfx's host differential test builds udf_row.h with\n" +
		"# g++ -std=c++17 -O2 -ffp-contract=off. C++20: the cuDF 26.08 headers need\n" +
		"# it (std::span). udfx's tests build the same sources with nvcc -std=c++20\n" +
		"# -Werror all-warnings for sm_90 and compute_90 (templates/cuda.BuildLibrary).\n" +
		"cmake_minimum_required(VERSION 3.26)\n" +
		"project({{.Lib}} LANGUAGES CXX CUDA)\n" +
		"\n" +
		"set(CMAKE_CXX_STANDARD 20)\n" +
		"set(CMAKE_CXX_STANDARD_REQUIRED ON)\n" +
		"set(CMAKE_CUDA_STANDARD 20)\n" +
		"set(CMAKE_CUDA_STANDARD_REQUIRED ON)\n" +
		"\n" +
		"find_package(cudf REQUIRED)\n" +
		"find_package(JNI REQUIRED)\n" +
		"\n" +
		"add_library({{.Lib}} SHARED udf_kernel.cu udf_jni.cpp)\n" +
		"target_include_directories({{.Lib}} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${JNI_INCLUDE_DIRS})\n" +
		"target_compile_options({{.Lib}} PRIVATE\n" +
		"  $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false --prec-div=true --prec-sqrt=true --ftz=false>\n" +
		"  $<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off>)\n" +
		"target_link_libraries({{.Lib}} PRIVATE cudf::cudf)\n",
	"RapidsUDF.java.tmpl": "{{.Marker}}\n" +
		"package udfx.cuda;\n" +
		"\n" +
		"import ai.rapids.cudf.ColumnVector;\n" +
		"import com.nvidia.spark.RapidsUDF;\n" +
		"import org.apache.spark.sql.api.java.{{.IfaceName}};\n" +
		"\n" +
		"/**\n" +
		" * {{.UDF}}, rewritten by udfx: on the GPU the RAPIDS Accelerator calls\n" +
		" * {@link #evaluateColumnar}, which runs the CUDA kernel of udf_kernel.cu;\n" +
		" * elsewhere Spark calls {@link #call}, the same per-row logic in Java.\n" +
		" */\n" +
		"public class {{.Class}} implements {{.Iface}}, RapidsUDF {\n" +
		"  private static final long serialVersionUID = 1L;\n" +
		"\n" +
		"  @Override\n" +
		"  public {{.Ret.Boxed}} call({{range $i, $p := .Params}}{{if $i}}, {{end}}{{$p.S.Boxed}} p{{$p.Index}}{{end}}) {\n" +
		"{{- range .Params}}\n" +
		"    final boolean in{{.Index}}_valid = p{{.Index}} != null;\n" +
		"    final {{.S.Java}} in{{.Index}} = in{{.Index}}_valid ? p{{.Index}} : {{.S.JavaZero}};\n" +
		"{{- end}}\n" +
		"{{- range .Java}}\n" +
		"    {{.}}\n" +
		"{{- end}}\n" +
		"    return {{.JavaResult.OK}} ? {{.Ret.Boxed}}.valueOf({{.JavaResult.Val}}) : null;\n" +
		"  }\n" +
		"\n" +
		"  @Override\n" +
		"  public ColumnVector evaluateColumnar(int numRows, ColumnVector... args) {\n" +
		"    if (args.length != {{len .Params}}) {\n" +
		"      throw new IllegalArgumentException(\"{{.Class}}: want {{len .Params}} input columns, got \" + args.length);\n" +
		"    }\n" +
		"    return new ColumnVector(Native.evaluate(numRows{{range .Params}}, args[{{.Index}}].getNativeView(){{end}}));\n" +
		"  }\n" +
		"\n" +
		"  /**\n" +
		"   * Loads the kernel's library only when the GPU path is taken: from\n" +
		"   * java.library.path, else from the jar udfx packaged\n" +
		"   * (udfx/native/lib{{.Lib}}.so), copied to a temporary file first.\n" +
		"   */\n" +
		"  private static final class Native {\n" +
		"    static {\n" +
		"      try {\n" +
		"        System.loadLibrary(\"{{.Lib}}\");\n" +
		"      } catch (UnsatisfiedLinkError notOnPath) {\n" +
		"        try (java.io.InputStream in = {{.Class}}.class.getResourceAsStream(\"/udfx/native/lib{{.Lib}}.so\")) {\n" +
		"          if (in == null) {\n" +
		"            throw notOnPath;\n" +
		"          }\n" +
		"          java.nio.file.Path tmp = java.nio.file.Files.createTempFile(\"lib{{.Lib}}\", \".so\");\n" +
		"          tmp.toFile().deleteOnExit();\n" +
		"          java.nio.file.Files.copy(in, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);\n" +
		"          System.load(tmp.toString());\n" +
		"        } catch (java.io.IOException e) {\n" +
		"          throw new UnsatisfiedLinkError(\"{{.Class}}: cannot extract lib{{.Lib}}.so from its jar: \" + e);\n" +
		"        }\n" +
		"      }\n" +
		"    }\n" +
		"\n" +
		"    static native long evaluate(int numRows{{range .Params}}, long view{{.Index}}{{end}});\n" +
		"  }\n" +
		"}\n",
	"udf_jni.cpp.tmpl": "{{.Marker}}\n" +
		"// The JNI bridge of {{.UDF}}: the RAPIDS Accelerator hands the Java class\n" +
		"// cuDF column views (ColumnVector.getNativeView()); the result column goes\n" +
		"// back as an owned cudf::column* that the Java ColumnVector takes over.\n" +
		"#include <jni.h>\n" +
		"\n" +
		"#include <cudf/column/column.hpp>\n" +
		"#include <cudf/column/column_view.hpp>\n" +
		"#include <cudf/utilities/default_stream.hpp>\n" +
		"#include <rmm/cuda_stream_view.hpp>\n" +
		"\n" +
		"#include <exception>\n" +
		"#include <stdexcept>\n" +
		"#include <memory>\n" +
		"\n" +
		"namespace udfx {\n" +
		"std::unique_ptr<cudf::column> evaluate(\n" +
		"{{- range .Params}}cudf::column_view const& in{{.Index}}, {{end -}}\n" +
		"cudf::size_type num_rows, rmm::cuda_stream_view stream);\n" +
		"}\n" +
		"\n" +
		"extern \"C\" JNIEXPORT jlong JNICALL {{.JNIName}}(JNIEnv* env, jclass, jint num_rows{{range .Params}}, jlong view{{.Index}}{{end}}) {\n" +
		"  try {\n" +
		"{{- range .Params}}\n" +
		"    if (view{{.Index}} == 0) throw std::invalid_argument(\"udfx: parameter {{.Index}} ({{.Name}}) has no column view\");\n" +
		"    auto const* in{{.Index}} = reinterpret_cast<cudf::column_view const*>(view{{.Index}});\n" +
		"{{- end}}\n" +
		"    auto out = udfx::evaluate({{range .Params}}*in{{.Index}}, {{end}}num_rows, cudf::get_default_stream());\n" +
		"    return reinterpret_cast<jlong>(out.release());\n" +
		"  } catch (std::exception const& e) {\n" +
		"    jclass cls = env->FindClass(\"java/lang/RuntimeException\");\n" +
		"    if (cls != nullptr) env->ThrowNew(cls, e.what());\n" +
		"    return 0;\n" +
		"  }\n" +
		"}\n",
	"udf_kernel.cu.tmpl": "{{.Marker}}\n" +
		"// The CUDA kernel of {{.UDF}}: one thread per row (grid-stride), reading\n" +
		"// cuDF columns and calling the per-row function of udf_row.h.\n" +
		"#include <cudf/column/column.hpp>\n" +
		"#include <cudf/column/column_device_view.cuh>\n" +
		"#include <cudf/column/column_factories.hpp>\n" +
		"#include <cudf/null_mask.hpp>\n" +
		"#include <cudf/utilities/bit.hpp>\n" +
		"#include <cudf/utilities/default_stream.hpp>\n" +
		"#include <cudf/utilities/error.hpp>\n" +
		"#include <rmm/cuda_stream_view.hpp>\n" +
		"\n" +
		"#include <memory>\n" +
		"\n" +
		"#include \"udf_row.h\"\n" +
		"\n" +
		"namespace udfx {\n" +
		"\n" +
		"__global__ void udfx_kernel(\n" +
		"{{- range .Params}}cudf::column_device_view in{{.Index}}, {{end -}}\n" +
		"cudf::mutable_column_device_view out) {\n" +
		"  const cudf::size_type n = out.size();\n" +
		"  for (cudf::size_type i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {\n" +
		"{{- range .Params}}\n" +
		"    const bool valid{{.Index}} = in{{.Index}}.is_valid(i);\n" +
		"    const {{.S.Cpp}} x{{.Index}} = valid{{.Index}} ? in{{.Index}}.element<{{.S.Cpp}}>(i) : {{.S.CppZero}};\n" +
		"{{- end}}\n" +
		"    {{.Ret.Cpp}} r;\n" +
		"    const bool valid = udfx_row({{range .Params}}x{{.Index}}, valid{{.Index}}, {{end}}&r);\n" +
		"    out.element<{{.Ret.Cpp}}>(i) = r;\n" +
		"    // The mask starts all null; set_bit is atomic, as neighbouring rows\n" +
		"    // share a mask word.\n" +
		"    if (valid) cudf::set_bit(out.null_mask(), i);\n" +
		"  }\n" +
		"}\n" +
		"\n" +
		"// Evaluates {{.UDF}} over the columns; they must all have num_rows rows.\n" +
		"std::unique_ptr<cudf::column> evaluate(\n" +
		"{{- range .Params}}cudf::column_view const& in{{.Index}}, {{end -}}\n" +
		"cudf::size_type num_rows, rmm::cuda_stream_view stream) {\n" +
		"{{- range .Params}}\n" +
		"  CUDF_EXPECTS(in{{.Index}}.type().id() == cudf::type_id::{{.S.Cudf}}, \"udfx: parameter {{.Index}} ({{.Name}}) must be {{.S.Cudf}}\");\n" +
		"  CUDF_EXPECTS(in{{.Index}}.size() == num_rows, \"udfx: parameter {{.Index}} ({{.Name}}) has the wrong number of rows\");\n" +
		"{{- end}}\n" +
		"  auto out = cudf::make_fixed_width_column(cudf::data_type{cudf::type_id::{{.Ret.Cudf}}}, num_rows,\n" +
		"                                           cudf::mask_state::ALL_NULL, stream);\n" +
		"  if (num_rows == 0) return out;\n" +
		"{{- range .Params}}\n" +
		"  auto d{{.Index}} = cudf::column_device_view::create(in{{.Index}}, stream);\n" +
		"{{- end}}\n" +
		"  auto dout = cudf::mutable_column_device_view::create(out->mutable_view(), stream);\n" +
		"  constexpr int block = 256;\n" +
		"  const int grid = (num_rows + block - 1) / block;\n" +
		"  udfx_kernel<<<grid, block, 0, stream.value()>>>({{range .Params}}*d{{.Index}}, {{end}}*dout);\n" +
		"  CUDF_CUDA_TRY(cudaGetLastError());\n" +
		"  out->set_null_count(cudf::null_count(out->view().null_mask(), 0, num_rows, stream));\n" +
		"  return out;\n" +
		"}\n" +
		"\n" +
		"}  // namespace udfx\n",
	"udf_row.h.tmpl": "{{.Marker}}\n" +
		"// The per-row logic of {{.UDF}}, generated by udfx from its body. The same\n" +
		"// function runs in the CUDA kernel (udf_kernel.cu) and, built with g++, in\n" +
		"// udfx's host differential test. It returns whether the result is valid\n" +
		"// (non-null) and stores the result in *out (0 when null).\n" +
		"#ifndef UDFX_UDF_ROW_H\n" +
		"#define UDFX_UDF_ROW_H\n" +
		"\n" +
		"#include \"udfx_jvm.h\"\n" +
		"\n" +
		"__host__ __device__ inline bool udfx_row(\n" +
		"{{- range .Params}}{{.S.Cpp}} in{{.Index}}, bool in{{.Index}}_valid /* {{.Name}} */, {{end -}}\n" +
		"{{.Ret.Cpp}}* out) {\n" +
		"{{- range .Cpp}}\n" +
		"  {{.}}\n" +
		"{{- end}}\n" +
		"  *out = {{.CppResult.OK}} ? {{.CppResult.Val}} : {{.Ret.CppZero}};\n" +
		"  return {{.CppResult.OK}};\n" +
		"}\n" +
		"\n" +
		"#ifdef UDFX_HOST_DRIVER\n" +
		"// The test driver's side (gpu/host/driver.cpp, built with g++ or nvcc):\n" +
		"// cells to typed arguments and the result back to a cell. Returns a\n" +
		"// message for a cell of the wrong kind, nullptr otherwise.\n" +
		"#define UDFX_NPARAMS {{len .Params}}\n" +
		"__host__ __device__ inline const char* udfx_host_call(const udfx_cell* in, udfx_cell* out) {\n" +
		"{{- range .Params}}\n" +
		"  {{.S.Cpp}} a{{.Index}} = {{.S.CppZero}};\n" +
		"  if (in[{{.Index}}].valid) {\n" +
		"    if (in[{{.Index}}].kind != '{{printf \"%c\" .S.Token}}') return \"parameter {{.Index}} wants a {{.S.Java}} token\";\n" +
		"{{- if eq .S.Cpp \"double\"}}\n" +
		"    a{{.Index}} = udfx_f64(in[{{.Index}}].bits);\n" +
		"{{- else if eq .S.Cpp \"float\"}}\n" +
		"    a{{.Index}} = udfx_f32((uint32_t)in[{{.Index}}].bits);\n" +
		"{{- else if eq .S.Cpp \"int32_t\"}}\n" +
		"    if (in[{{.Index}}].i < INT32_MIN || in[{{.Index}}].i > INT32_MAX) return \"parameter {{.Index}} is out of the int range\";\n" +
		"    a{{.Index}} = (int32_t)in[{{.Index}}].i;\n" +
		"{{- else if eq .S.Cpp \"int64_t\"}}\n" +
		"    a{{.Index}} = in[{{.Index}}].i;\n" +
		"{{- else}}\n" +
		"    a{{.Index}} = in[{{.Index}}].b;\n" +
		"{{- end}}\n" +
		"  }\n" +
		"{{- end}}\n" +
		"  {{.Ret.Cpp}} r = {{.Ret.CppZero}};\n" +
		"  out->valid = udfx_row({{range .Params}}a{{.Index}}, in[{{.Index}}].valid, {{end}}&r);\n" +
		"  out->kind = '{{printf \"%c\" .Ret.Token}}';\n" +
		"{{- if eq .Ret.Cpp \"double\"}}\n" +
		"  memcpy(&out->bits, &r, sizeof r);\n" +
		"{{- else if eq .Ret.Cpp \"float\"}}\n" +
		"  uint32_t bits;\n" +
		"  memcpy(&bits, &r, sizeof r);\n" +
		"  out->bits = bits;\n" +
		"{{- else if eq .Ret.Cpp \"bool\"}}\n" +
		"  out->b = r;\n" +
		"{{- else}}\n" +
		"  out->i = r;\n" +
		"{{- end}}\n" +
		"  return nullptr;\n" +
		"}\n" +
		"#endif  // UDFX_HOST_DRIVER\n" +
		"\n" +
		"#endif  // UDFX_UDF_ROW_H\n",
}
