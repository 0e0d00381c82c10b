// udfx_jvm.h: JVM arithmetic for udfx's generated per-row functions.
//
// Every helper reproduces a JVM bytecode's result exactly and is total:
// no undefined behaviour for any input, so a per-row function may compute
// every branch of a conditional before it selects one, and garbage in the
// data buffer under a null row cannot trap.
//
// Build rules that keep IEEE results identical to the JVM's: no fast-math,
// no FMA contraction (g++ -ffp-contract=off; nvcc --fmad=false), IEEE
// division and square root (nvcc --prec-div=true --prec-sqrt=true), no
// flush-to-zero (nvcc --ftz=false).
#ifndef UDFX_JVM_H
#define UDFX_JVM_H

#include <cmath>
#include <cstdint>
#include <cstring>

// Outside nvcc the CUDA qualifiers mean nothing: the same per-row function
// then builds with g++ for the host differential test.
#ifndef __CUDACC__
#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif
#endif

#define UDFX_HD __host__ __device__ inline

// Two's complement wrapping as the JVM's iadd/isub/imul/ineg and their
// long forms do: unsigned arithmetic is modular in C++, signed overflow is
// undefined. The conversion back is modular in g++ and nvcc (and by the
// standard since C++20).
UDFX_HD int32_t udfx_add_i32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
UDFX_HD int32_t udfx_sub_i32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
UDFX_HD int32_t udfx_mul_i32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a * (uint32_t)b); }
UDFX_HD int32_t udfx_neg_i32(int32_t a) { return (int32_t)(0u - (uint32_t)a); }
UDFX_HD int64_t udfx_add_i64(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
UDFX_HD int64_t udfx_sub_i64(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
UDFX_HD int64_t udfx_mul_i64(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
UDFX_HD int64_t udfx_neg_i64(int64_t a) { return (int64_t)(0ull - (uint64_t)a); }

// idiv/irem by a divisor the renderer proved non-zero. C++ truncates
// toward zero and gives the remainder the dividend's sign, as the JVM
// does; MIN / -1 and MIN % -1 overflow in C++ (x86 traps) where the JVM
// gives MIN and 0.
UDFX_HD int32_t udfx_div_i32(int32_t a, int32_t b) { return b == -1 ? udfx_neg_i32(a) : a / b; }
UDFX_HD int32_t udfx_rem_i32(int32_t a, int32_t b) { return b == -1 ? 0 : a % b; }
UDFX_HD int64_t udfx_div_i64(int64_t a, int64_t b) { return b == -1 ? udfx_neg_i64(a) : a / b; }
UDFX_HD int64_t udfx_rem_i64(int64_t a, int64_t b) { return b == -1 ? 0 : a % b; }

// d2i and d2l (JLS 5.1.3): NaN is 0, values beyond the range clamp to
// MIN/MAX, the rest truncate toward zero. A C++ cast of an out-of-range
// double is undefined, so the range is checked first; 2^31 and 2^63 are
// exact doubles.
UDFX_HD int32_t udfx_d2i(double x) {
  if (x != x) return 0;
  if (x >= 2147483648.0) return INT32_MAX;
  if (x <= -2147483648.0) return INT32_MIN;
  return (int32_t)x;
}
UDFX_HD int64_t udfx_d2l(double x) {
  if (x != x) return 0;
  if (x >= 9223372036854775808.0) return INT64_MAX;
  if (x <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)x;
}

// Literals by their bits, so NaN payloads and -0.0 are exact.
UDFX_HD double udfx_f64(uint64_t bits) {
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}
UDFX_HD float udfx_f32(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

// Math.max/min on ints and longs.
UDFX_HD int32_t udfx_max_i32(int32_t a, int32_t b) { return a >= b ? a : b; }
UDFX_HD int32_t udfx_min_i32(int32_t a, int32_t b) { return a <= b ? a : b; }
UDFX_HD int64_t udfx_max_i64(int64_t a, int64_t b) { return a >= b ? a : b; }
UDFX_HD int64_t udfx_min_i64(int64_t a, int64_t b) { return a <= b ? a : b; }

// Math.abs on an int or long: MIN_VALUE stays MIN_VALUE (two's complement
// negation wraps), where C++'s abs is undefined.
UDFX_HD int32_t udfx_abs_i32(int32_t a) { return a < 0 ? udfx_neg_i32(a) : a; }
UDFX_HD int64_t udfx_abs_i64(int64_t a) { return a < 0 ? udfx_neg_i64(a) : a; }

// Math.max and Math.min on doubles: a NaN operand is the result (the
// first one, as the JVM returns it), and of two zeros max is -0.0 only
// when both are, min 0.0 only when both are: IEEE addition of two zeros
// gives exactly that (with --fmad=false and -ffp-contract=off nothing
// fuses or reorders it).
UDFX_HD double udfx_max_f64(double a, double b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == 0.0 && b == 0.0) return a + b;
  return a >= b ? a : b;
}
UDFX_HD double udfx_min_f64(double a, double b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == 0.0 && b == 0.0) return -((-a) + (-b));
  return a <= b ? a : b;
}

// Math.round(double): the closest long, ties toward positive infinity, on
// the exact value (never x + 0.5, which rounds 0.49999999999999994 up).
// x - floor(x) is exact; NaN, infinities and out-of-range values go
// through udfx_d2l as the JVM's conversion does.
UDFX_HD int64_t udfx_round_d2l(double x) {
  const double f = floor(x);
  const double r = (x - f >= 0.5) ? f + 1.0 : f;
  return udfx_d2l(r);
}

// One value crossing the host driver's token protocol (host only).
struct udfx_cell {
  bool valid;
  char kind;      // 'd' double, 'f' float, 'i' integral, 'b' boolean
  uint64_t bits;  // 'd' and 'f': the IEEE bits
  int64_t i;      // 'i'
  bool b;         // 'b'
};

#endif  // UDFX_JVM_H
