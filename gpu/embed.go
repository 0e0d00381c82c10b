// Package gpu holds the C++ that udfx's CUDA rewrites share: the JVM
// arithmetic header every generated per-row function includes, and the
// host driver that runs a per-row function built with g++ so the
// differential test can check it on a machine without a GPU.
package gpu

import _ "embed"

// JVMHeader is include/udfx_jvm.h: exact JVM integer wrapping, division
// and double-to-integer conversion for host and device code.
//
//go:embed include/udfx_jvm.h
var JVMHeader string

// HostDriver is host/driver.cpp: reads rows as value tokens on stdin,
// calls the per-row function of udf_row.h, writes result tokens.
//
//go:embed host/driver.cpp
var HostDriver string
