// bandwidth.cu: the achieved memory bandwidth of a one-double-in,
// one-double-out per-row function (udf_row.h of a case, e.g. ToFahrenheit)
// run as udfx's kernels run it: one thread per row, grid-stride, the
// result and its validity bit written as cuDF writes a column.
//
// Usage: bandwidth ROWS RUNS. Prints one line of JSON: rows, runs, the
// median kernel time, the bytes moved per run (8 read + 8 written per row
// and the validity mask), the achieved GB/s and the device's peak GB/s
// (2 x memory clock x bus width, the DDR rule).
//
// Build: nvcc -std=c++17 -O2 --fmad=false --prec-div=true --prec-sqrt=true
//        --ftz=false -I<case dir> -I gpu/include bandwidth.cu
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "udf_row.h"

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e_ = (x);                                                     \
    if (e_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "bandwidth: %s: %s\n", #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

__global__ void row_kernel(const double* in, double* out, uint32_t* mask, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    double r;
    if (udfx_row(in[i], true, &r)) atomicOr(&mask[i / 32], 1u << (i % 32));
    out[i] = r;
  }
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: bandwidth ROWS RUNS\n");
    return 2;
  }
  const long n = std::atol(argv[1]);
  const int runs = std::atoi(argv[2]);
  if (n <= 0 || runs <= 0) {
    std::fprintf(stderr, "bandwidth: ROWS and RUNS must be positive\n");
    return 2;
  }
  double *in, *out;
  uint32_t* mask;
  const size_t words = (n + 31) / 32;
  CHECK(cudaMalloc(&in, n * sizeof(double)));
  CHECK(cudaMalloc(&out, n * sizeof(double)));
  CHECK(cudaMalloc(&mask, words * sizeof(uint32_t)));
  std::vector<double> host(n);
  for (long i = 0; i < n; i++) host[i] = (double)(i % 2001) * 0.05 - 50.0;
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  int dev = 0, sms = 0, clock_khz = 0, bus_bits = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev));
  CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, dev));
  const int block = 256;
  const int grid = sms * 32;
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int r = 0; r <= runs; r++) {  // run 0 warms up
    CHECK(cudaMemset(mask, 0, words * sizeof(uint32_t)));
    CHECK(cudaEventRecord(a));
    row_kernel<<<grid, block>>>(in, out, mask, n);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    CHECK(cudaGetLastError());
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, a, b));
    if (r > 0) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  const double median_s = ms[ms.size() / 2] / 1e3;
  const double bytes = 16.0 * n + 4.0 * words;
  const double peak = 2.0 * clock_khz * 1e3 * bus_bits / 8.0;
  std::printf("{\"device\":\"%s\",\"rows\":%ld,\"runs\":%d,\"kernel_median_s\":%.9f,\"bytes\":%.0f,"
              "\"achieved_gbps\":%.3f,\"peak_gbps\":%.3f,\"share_of_peak\":%.4f}\n",
              prop.name, n, runs, median_s, bytes, bytes / median_s / 1e9, peak / 1e9, bytes / median_s / peak);
  return 0;
}
