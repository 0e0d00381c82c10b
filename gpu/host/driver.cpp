// driver.cpp: runs a generated per-row function on the host, for udfx's
// differential test on a machine without a GPU.
//
// Protocol (the token codec of udfx's harness/value): each stdin line is
// one row, one token per parameter; each stdout line is the row's result.
// With --expect FILE it prints nothing on stdout and compares its results
// with FILE's (one token a line) under udfx's bit-exact policy instead:
// exit 0 when all agree, 1 with the first mismatches on stderr.
//
// Built with nvcc (-x cu) the same file runs udfx_row in a CUDA kernel, one
// thread per row: the device check of gpu/README.md.
// Tokens: N null, T/F boolean, i<decimal> integral, f<8 hex> float bits,
// d<16 hex> double bits. A malformed line ends the driver with exit status
// 2 and the reason on stderr.
//
// Build: g++ -std=c++17 -O2 -ffp-contract=off -DUDFX_HOST_DRIVER -I<dir of udf_row.h> driver.cpp
//    or: nvcc -std=c++17 -O2 --fmad=false --prec-div=true --prec-sqrt=true --ftz=false -x cu -DUDFX_HOST_DRIVER -I<dir> driver.cpp
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "udf_row.h"

namespace {

[[noreturn]] void fail(long row, const char* what, const std::string& tok) {
  std::fprintf(stderr, "udfx host driver: row %ld: %s: %s\n", row, what, tok.c_str());
  std::exit(2);
}

bool parse_hex(const std::string& s, size_t digits, uint64_t* out) {
  if (s.size() != digits + 1) return false;
  uint64_t v = 0;
  for (size_t k = 1; k < s.size(); k++) {
    char c = s[k];
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return false;
    v = (v << 4) | (uint64_t)d;
  }
  *out = v;
  return true;
}

udfx_cell parse_cell(long row, const std::string& t) {
  udfx_cell c{};
  c.valid = true;
  if (t == "N") {
    c.valid = false;
  } else if (t == "T" || t == "F") {
    c.kind = 'b';
    c.b = t == "T";
  } else if (t[0] == 'i') {
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(t.c_str() + 1, &end, 10);
    if (t.size() < 2 || errno != 0 || *end != '\0') fail(row, "bad integral token", t);
    c.kind = 'i';
    c.i = v;
  } else if (t[0] == 'd') {
    if (!parse_hex(t, 16, &c.bits)) fail(row, "bad double token", t);
    c.kind = 'd';
  } else if (t[0] == 'f') {
    if (!parse_hex(t, 8, &c.bits)) fail(row, "bad float token", t);
    c.kind = 'f';
  } else {
    fail(row, "unsupported token", t);
  }
  return c;
}

void write_cell(FILE* f, const udfx_cell& c) {
  if (!c.valid) {
    std::fputs("N\n", f);
    return;
  }
  switch (c.kind) {
    case 'b': std::fputs(c.b ? "T\n" : "F\n", f); break;
    case 'i': std::fprintf(f, "i%" PRId64 "\n", c.i); break;
    case 'd': std::fprintf(f, "d%016" PRIx64 "\n", c.bits); break;
    case 'f': std::fprintf(f, "f%08" PRIx32 "\n", (uint32_t)c.bits); break;
  }
}

// same is udfx's bit-exact policy: NaN equals NaN whatever its payload
// (Spark keeps no payloads apart), everything else bit for bit.
bool same(const udfx_cell& a, const udfx_cell& b) {
  if (a.valid != b.valid) return false;
  if (!a.valid) return true;
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case 'b': return a.b == b.b;
    case 'i': return a.i == b.i;
    case 'd': {
      const uint64_t e = 0x7ff0000000000000ull, m = 0x000fffffffffffffull;
      const bool na = (a.bits & e) == e && (a.bits & m) != 0, nb = (b.bits & e) == e && (b.bits & m) != 0;
      return na || nb ? na && nb : a.bits == b.bits;
    }
    case 'f': {
      const uint64_t e = 0x7f800000u, m = 0x007fffffu;
      const bool na = (a.bits & e) == e && (a.bits & m) != 0, nb = (b.bits & e) == e && (b.bits & m) != 0;
      return na || nb ? na && nb : a.bits == b.bits;
    }
  }
  return false;
}

// read_line reads one whole line without its end; false at the end.
bool read_line(FILE* f, std::string* line) {
  char buf[1 << 16];
  line->clear();
  bool any = false;
  while (std::fgets(buf, sizeof buf, f) != nullptr) {
    any = true;
    line->append(buf);
    if (!line->empty() && line->back() == '\n') break;
  }
  while (!line->empty() && (line->back() == '\n' || line->back() == '\r')) line->pop_back();
  return any;
}

// split_cells parses a line's tokens into cells.
void split_cells(long row, const std::string& line, std::vector<udfx_cell>* out, int want) {
  int n = 0;
  size_t pos = 0;
  while (pos < line.size()) {
    size_t end = line.find(' ', pos);
    if (end == std::string::npos) end = line.size();
    if (end > pos) {
      if (n == want) fail(row, "too many values", line);
      out->push_back(parse_cell(row, line.substr(pos, end - pos)));
      n++;
    }
    pos = end + 1;
  }
  if (n != want) fail(row, "too few values", line);
}

#ifdef __CUDACC__
// One thread per row: the device build runs udfx_row on the GPU.
__global__ void rows_kernel(const udfx_cell* in, udfx_cell* out, bool* bad, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    bad[i] = udfx_host_call(in + i * (UDFX_NPARAMS > 0 ? UDFX_NPARAMS : 1), out + i) != nullptr;
  }
}

void check_cuda(cudaError_t err, const char* what) {
  if (err != cudaSuccess) {
    std::fprintf(stderr, "udfx device driver: %s: %s\n", what, cudaGetErrorString(err));
    std::exit(3);
  }
}

void evaluate(const std::vector<udfx_cell>& in, std::vector<udfx_cell>* out) {
  const long n = (long)out->size();
  const size_t width = UDFX_NPARAMS > 0 ? UDFX_NPARAMS : 1;
  std::vector<udfx_cell> padded(in);
  padded.resize(n * width);
  udfx_cell *din = nullptr, *dout = nullptr;
  bool* dbad = nullptr;
  check_cuda(cudaMalloc(&din, padded.size() * sizeof(udfx_cell) + 1), "cudaMalloc");
  check_cuda(cudaMalloc(&dout, n * sizeof(udfx_cell) + 1), "cudaMalloc");
  check_cuda(cudaMalloc(&dbad, n * sizeof(bool) + 1), "cudaMalloc");
  check_cuda(cudaMemcpy(din, padded.data(), padded.size() * sizeof(udfx_cell), cudaMemcpyHostToDevice), "copy in");
  const int block = 256;
  const long grid = n == 0 ? 1 : (n + block - 1) / block;
  rows_kernel<<<(unsigned)(grid < 65535 ? grid : 65535), block>>>(din, dout, dbad, n);
  check_cuda(cudaGetLastError(), "launch");
  check_cuda(cudaDeviceSynchronize(), "kernel");
  std::vector<char> bad(n);
  static_assert(sizeof(bool) == sizeof(char), "bool is one byte");
  check_cuda(cudaMemcpy(out->data(), dout, n * sizeof(udfx_cell), cudaMemcpyDeviceToHost), "copy out");
  check_cuda(cudaMemcpy(bad.data(), dbad, n * sizeof(bool), cudaMemcpyDeviceToHost), "copy out");
  cudaFree(din);
  cudaFree(dout);
  cudaFree(dbad);
  for (long i = 0; i < n; i++) {
    if (bad[i]) {
      udfx_cell tmp{};
      fail(i, udfx_host_call(in.data() + i * width, &tmp), "(the row's cells)");
    }
  }
}
#else
void evaluate(const std::vector<udfx_cell>& in, std::vector<udfx_cell>* out) {
  for (size_t i = 0; i < out->size(); i++) {
    const char* err = udfx_host_call(in.data() + i * UDFX_NPARAMS, &(*out)[i]);
    if (err != nullptr) fail((long)i, err, "(the row's cells)");
  }
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const char* expect = nullptr;
  if (argc == 3 && std::strcmp(argv[1], "--expect") == 0) {
    expect = argv[2];
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [--expect RESULTS] < ROWS\n", argv[0]);
    return 2;
  }
  std::vector<udfx_cell> in;
  std::string line;
  long rows = 0;
  while (read_line(stdin, &line)) split_cells(rows++, line, &in, UDFX_NPARAMS);
  std::vector<udfx_cell> out(rows);
  evaluate(in, &out);
  if (expect == nullptr) {
    for (const udfx_cell& c : out) write_cell(stdout, c);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }
  FILE* f = std::fopen(expect, "r");
  if (f == nullptr) {
    std::fprintf(stderr, "udfx driver: cannot open %s: %s\n", expect, std::strerror(errno));
    return 2;
  }
  std::vector<udfx_cell> want;
  long n = 0;
  while (read_line(f, &line)) split_cells(n++, line, &want, 1);
  std::fclose(f);
  if (n != rows) {
    std::fprintf(stderr, "udfx driver: %ld rows but %ld expected results\n", rows, n);
    return 1;
  }
  long bad = 0;
  for (long i = 0; i < rows; i++) {
    if (same(want[i], out[i])) continue;
    if (++bad <= 10) {
      std::fprintf(stderr, "row %ld: expected ", i);
      write_cell(stderr, want[i]);
      std::fputs("  got ", stderr);
      write_cell(stderr, out[i]);
    }
  }
  std::fprintf(stderr, "%ld rows, %ld mismatches\n", rows, bad);
  return bad == 0 ? 0 : 1;
}
