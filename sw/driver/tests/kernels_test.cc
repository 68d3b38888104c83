// SPDX-License-Identifier: Apache-2.0
// The example kernels of sw/kernels/ (OpenCL C as written for Intel and Qualcomm GPUs),
// compiled with the real front end (clang-15, llvm-spirv-15, the SGU compiler) and run through
// the driver on the golden model, the RTL and both in lockstep at every SIMD width the kernel
// allows. Every result is checked against a reference computed here in plain C++, from the
// inputs alone.
//
// Tests are named Kernels/<Kernel>.<Backend>Simd<N>, e.g. Kernels/Transpose.CosimSimd16; a
// kernel with intel_reqd_sub_group_size(N) is registered at N only. The problem sizes are
// chosen per width so that one run stays within a few thousand instructions (the lockstep RTL
// runs about 40k instructions per second). Inputs come from one 64-bit seed per test (printed
// on failure), mapped from std::mt19937_64 output by hand. Compiled kernels are cached in the
// build tree across test processes (see Compiled).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sgu/binary.h"
#include "sgu/compiler.h"
#include "sgu/driver.h"

#ifndef SGU_KERNELS_DIR
#error "SGU_KERNELS_DIR must name the sw/kernels directory"
#endif
#ifndef SGU_KERNELS_CACHE
#error "SGU_KERNELS_CACHE must name a directory for compiled kernels"
#endif

namespace sgu::driver {
namespace {

// ---- helpers --------------------------------------------------------------------------------

struct Config {
  Backend backend;
  unsigned simd;
  uint64_t seed = 1;  // the test's seed: inputs, and AXI timing of cosim runs
};

std::string ConfigName(const Config& c) {
  std::string b = BackendName(c.backend);
  b[0] = static_cast<char>(b[0] - 'a' + 'A');
  return b + "Simd" + std::to_string(c.simd);
}

std::string ReadFileBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// What decides a compilation's result: the kernel's text, the build options, the compiler
// (linked into this executable, so its size and modification time stand for it) and the tools
// the front end runs.
std::string CompileKey(const std::string& path, const std::vector<std::string>& options) {
  std::string key = path + "\n" + ReadFileBytes(path) + "\n";
  for (const std::string& o : options) key += o + "\n";
  struct stat st {};
  if (stat("/proc/self/exe", &st) == 0) {
    key += std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec) + "\n";
  }
  for (const char* env : {"SGU_CLANG", "SGU_LLVM_SPIRV", "PATH"}) {
    const char* v = std::getenv(env);
    key += std::string(env) + "=" + (v ? v : "") + "\n";
  }
  return key;
}

// sw/kernels/<file> compiled with `options`. ctest runs every test in its own process and the
// front end (three runs of clang-15 and llvm-spirv-15) costs more than most runs, so compiled
// kernels are kept in SGU_KERNELS_CACHE (in the build tree) under a hash of CompileKey, the
// key itself stored in front of the binary; a compile error is never cached.
const Binary& Compiled(const std::string& file, const std::vector<std::string>& options = {}) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Binary>> cache;
  const std::string path = std::string(SGU_KERNELS_DIR) + "/" + file;
  const std::string key = CompileKey(path, options);
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[key];
  if (slot) return *slot;

  char hash[32];
  std::snprintf(hash, sizeof hash, "%016zx", std::hash<std::string>()(key));
  const std::string cached = std::string(SGU_KERNELS_CACHE) + "/" + file + "." + hash + ".sgubin";
  const std::string bytes = ReadFileBytes(cached);
  if (bytes.size() > key.size() && bytes.compare(0, key.size(), key) == 0) {
    try {
      slot = std::make_unique<Binary>(ReadBinary(bytes.substr(key.size())));
      return *slot;
    } catch (const BinaryError&) {
      // Unreadable: compile again and replace it.
    }
  }
  compiler::Options opts;
  opts.build_options = options;
  slot = std::make_unique<Binary>(compiler::CompileFile(path, opts));
  // Written under a unique name and renamed, so that parallel tests never read half a file.
  std::error_code ec;
  std::filesystem::create_directories(SGU_KERNELS_CACHE, ec);
  const std::string tmp = cached + "." + std::to_string(getpid()) + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f << key << WriteBinary(*slot);
  }
  std::filesystem::rename(tmp, cached, ec);
  if (ec) std::filesystem::remove(tmp, ec);
  // Entries older than this executable came from an earlier build and can never match again.
  const auto exe_time = std::filesystem::last_write_time("/proc/self/exe", ec);
  if (!ec) {
    for (const auto& e : std::filesystem::directory_iterator(SGU_KERNELS_CACHE, ec)) {
      std::error_code ignored;
      if (e.path().extension() == ".sgubin" && e.last_write_time(ignored) < exe_time) {
        std::filesystem::remove(e.path(), ignored);
      }
    }
  }
  return *slot;
}

DeviceOptions DeviceFor(const Config& c) {
  DeviceOptions o;
  o.backend = c.backend;
  o.simd = c.simd;
  o.watchdog_cycles = 2000000;  // far above any of these kernels; a hang fails fast
  // In lockstep, random AXI latency and backpressure cost nothing in certainty (the model
  // checks every retired instruction) and exercise the RTL's stalls; rtl keeps fixed timing.
  o.random_axi = c.backend == Backend::kCosim;
  o.seed = c.seed;
  return o;
}

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <typename T>
std::vector<T> As(const std::vector<uint8_t>& b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

// Reproducible inputs: raw mt19937_64 output mapped by hand (STYLE.md rule 15).
class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  // Uniform-enough integer in [lo, hi] (the modulo bias is irrelevant for test data).
  int64_t Int(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(gen_() % static_cast<uint64_t>(hi - lo + 1));
  }

 private:
  std::mt19937_64 gen_;
};

// Runs the launch and checks that it finished without sanitizer diagnostics, except those that
// contain `expected_diagnostic` (when not empty); prints the counts for the record.
Result RunOk(Launch& l, const Config& c, const std::vector<uint32_t>& global,
             const std::vector<uint32_t>& local, const std::string& expected_diagnostic = "") {
  const Result r = l.Run(global, local);
  EXPECT_EQ(r.status, Status::kOk) << r.Message() << "\n" << r.report;
  if (expected_diagnostic.empty()) {
    EXPECT_EQ(r.diagnostic_count, 0u) << (r.diagnostics.empty() ? "" : r.diagnostics[0]);
  }
  for (const std::string& d : r.diagnostics) {
    if (d.find(expected_diagnostic) == std::string::npos) ADD_FAILURE() << d;
  }
  std::cout << "  " << l.kernel().name << " " << BackendName(c.backend) << " simd" << c.simd
            << ": " << r.sub_groups << " sub-groups, " << r.instructions << " instructions";
  if (c.backend != Backend::kGolden) std::cout << ", " << r.cycles << " cycles";
  std::cout << "\n";
  ::testing::Test::RecordProperty("instructions", std::to_string(r.instructions));
  ::testing::Test::RecordProperty("cycles", std::to_string(r.cycles));
  return r;
}

// ---- transpose.cl ---------------------------------------------------------------------------

void Transpose(const Config& c, uint64_t seed) {
  const Binary& bin = Compiled("transpose.cl");
  const uint32_t S = c.simd;
  // One tile row of S rows; at least two tiles side by side, so the matrix is never square.
  const uint32_t rows = S, cols = std::max(32u, 2 * S);
  Rng rng(seed);
  std::vector<float> in(rows * cols);
  for (float& x : in) x = static_cast<float>(rng.Int(-1000000, 1000000)) / 16.0f;

  Device dev(DeviceFor(c));
  Launch l(dev, bin, "transpose");
  l.SetBuffer("in", Bytes(in));
  l.SetZeros("out", in.size() * 4);
  l.SetScalar("rows", int32_t(rows));
  l.SetScalar("cols", int32_t(cols));
  // Two sub-groups per work-group.
  if (RunOk(l, c, {cols, rows / S}, {std::min(cols, 2 * S), 1}).status != Status::kOk) return;

  const std::vector<float> out = As<float>(l.Contents("out"));
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t col = 0; col < cols; ++col) {
      ASSERT_EQ(out[col * rows + r], in[r * cols + col]) << "in[" << r << "][" << col << "]";
    }
  }
}

// ---- sgemm.cl -------------------------------------------------------------------------------

// Small integers as floats, so that every product and sum is exact in float and the host
// reference (in double) equals the kernel's result bit for bit whatever the order of the
// additions or whether they are fused.
struct Gemm {
  uint32_t M, N, K;
  float alpha, beta;
  std::vector<float> A, B, C;

  Gemm(uint32_t m, uint32_t n, uint32_t k, uint64_t seed) : M(m), N(n), K(k) {
    Rng rng(seed);
    alpha = 1.5f;
    beta = -0.5f;
    A.resize(M * K);
    B.resize(K * N);
    C.resize(M * N);
    for (float& x : A) x = static_cast<float>(rng.Int(-4, 4));
    for (float& x : B) x = static_cast<float>(rng.Int(-4, 4));
    for (float& x : C) x = static_cast<float>(rng.Int(-8, 8));
  }

  std::vector<float> Reference() const {
    std::vector<float> R(M * N);
    for (uint32_t i = 0; i < M; ++i) {
      for (uint32_t j = 0; j < N; ++j) {
        double dot = 0;
        for (uint32_t k = 0; k < K; ++k) dot += double(A[i * K + k]) * double(B[k * N + j]);
        R[i * N + j] = static_cast<float>(double(alpha) * dot + double(beta) * C[i * N + j]);
      }
    }
    return R;
  }

  void Bind(Launch& l) const {
    l.SetBuffer("A", Bytes(A));
    l.SetBuffer("B", Bytes(B));
    l.SetBuffer("C", Bytes(C));
    l.SetScalar("M", int32_t(M));
    l.SetScalar("N", int32_t(N));
    l.SetScalar("K", int32_t(K));
    l.SetScalar("alpha", alpha);
    l.SetScalar("beta", beta);
  }

  void Check(const Launch& l) const {
    const std::vector<float> got = As<float>(l.Contents("C"));
    const std::vector<float> want = Reference();
    for (uint32_t i = 0; i < M; ++i) {
      for (uint32_t j = 0; j < N; ++j) {
        ASSERT_EQ(got[i * N + j], want[i * N + j]) << "C[" << i << "][" << j << "]";
      }
    }
  }
};

constexpr uint32_t kTileM = 4;  // sgemm.cl's default TILE_M

void Sgemm(const Config& c, uint64_t seed) {
  const Binary& bin = Compiled("sgemm.cl");
  // N and K multiples of S: one or two column tiles, two row tiles of TILE_M.
  const uint32_t nk = std::max(16u, c.simd);
  const Gemm g(2 * kTileM, nk, nk, seed);
  Device dev(DeviceFor(c));
  Launch l(dev, bin, "sgemm");
  g.Bind(l);
  if (RunOk(l, c, {g.N, g.M / kTileM}, {g.N, 1}).status != Status::kOk) return;
  g.Check(l);
}

void SgemmSimd8(const Config& c, uint64_t seed) {
  const Binary& bin = Compiled("sgemm.cl");
  const Kernel* k = bin.Find("sgemm_simd8");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->required_simd, 8u);
  const Gemm g(16, 32, 16, seed);  // two 8 x 32 tiles, two steps of 8 along K
  Device dev(DeviceFor(c));
  Launch l(dev, bin, "sgemm_simd8");
  g.Bind(l);
  if (RunOk(l, c, {g.N / 4, g.M / 8}, {8, 1}).status != Status::kOk) return;
  g.Check(l);
}

// ---- reduce_qcom.cl -------------------------------------------------------------------------

// qcom shuffles pass their default explicitly (defined behaviour): the compiler never uses s0
// for it, so the golden model's sanitizer reports nothing for these kernels.

void ReduceQcom(const Config& c, uint64_t seed) {
  const Binary& bin = Compiled("reduce_qcom.cl");
  const uint32_t S = c.simd;
  const uint32_t n = 100, global = 128, local = 64;  // lanes at or past n add 0
  Rng rng(seed);
  std::vector<float> in(n);
  for (float& x : in) x = static_cast<float>(rng.Int(-50, 50));
  const float kUnwritten = -12345.0f;

  Device dev(DeviceFor(c));
  Launch l(dev, bin, "reduce_qcom");
  l.SetBuffer("in", Bytes(in));
  l.SetBuffer("sum4", Bytes(std::vector<float>(global / 4, kUnwritten)));
  l.SetBuffer("sum8", Bytes(std::vector<float>(global / 8, kUnwritten)));
  l.SetBuffer("sumsg", Bytes(std::vector<float>(global / 8, kUnwritten)));
  l.SetScalar("n", int32_t(n));
  if (RunOk(l, c, {global}, {local}).status != Status::kOk) return;

  // Sums of in[first .. first + count - 1], 0 past n (integers: exact in any order).
  auto sum = [&](uint32_t first, uint32_t count) {
    double s = 0;
    for (uint32_t i = first; i < first + count && i < n; ++i) s += in[i];
    return static_cast<float>(s);
  };
  const std::vector<float> s4 = As<float>(l.Contents("sum4"));
  const std::vector<float> s8 = As<float>(l.Contents("sum8"));
  const std::vector<float> sg = As<float>(l.Contents("sumsg"));
  for (uint32_t g = 0; g < global / 4; ++g) ASSERT_EQ(s4[g], sum(4 * g, 4)) << "sum4[" << g << "]";
  for (uint32_t g = 0; g < global / 8; ++g) ASSERT_EQ(s8[g], sum(8 * g, 8)) << "sum8[" << g << "]";
  for (uint32_t g = 0; g < global / 8; ++g) {
    // One entry per sub-group; the rest of the buffer is left alone.
    ASSERT_EQ(sg[g], g < global / S ? sum(S * g, S) : kUnwritten) << "sumsg[" << g << "]";
  }
}

void Scan8Qcom(const Config& c, uint64_t seed) {
  const Binary& bin = Compiled("reduce_qcom.cl");
  const uint32_t global = 128, local = 32;
  Rng rng(seed);
  std::vector<int32_t> in(global);
  for (int32_t& x : in) x = static_cast<int32_t>(rng.Int(-1000, 1000));

  Device dev(DeviceFor(c));
  Launch l(dev, bin, "scan8_qcom");
  l.SetBuffer("in", Bytes(in));
  l.SetZeros("out", global * 4);
  if (RunOk(l, c, {global}, {local}).status != Status::kOk) return;

  const std::vector<int32_t> out = As<int32_t>(l.Contents("out"));
  for (uint32_t i = 0; i < global; ++i) {
    int32_t want = 0;
    for (uint32_t j = i & ~7u; j <= i; ++j) want += in[j];
    ASSERT_EQ(out[i], want) << "out[" << i << "]";
  }
}

// ---- compact.cl -----------------------------------------------------------------------------

// compact and compact_scan: the same arguments and results.
void CompactWith(const char* kernel, const Config& c, uint64_t seed) {
  const Binary& bin = Compiled("compact.cl");
  const uint32_t S = c.simd;
  const uint32_t n = 100, global = 128, local = 64;
  const int32_t threshold = -20;
  const int32_t kUnwritten = 0x7eadbeef;
  Rng rng(seed);
  std::vector<int32_t> in(n);
  for (int32_t& x : in) x = static_cast<int32_t>(rng.Int(-100, 100));
  // A sub-group that keeps everything and one that keeps nothing.
  for (uint32_t i = 0; i < 8; ++i) in[i] = 2 * static_cast<int32_t>(i);
  for (uint32_t i = 32; i < 64; ++i) in[i] = -31;

  Device dev(DeviceFor(c));
  Launch l(dev, bin, kernel);
  l.SetBuffer("in", Bytes(in));
  l.SetBuffer("out", Bytes(std::vector<int32_t>(global, kUnwritten)));
  l.SetBuffer("counts", Bytes(std::vector<uint32_t>(global / 8, 0xffffffffu)));
  l.SetScalar("n", int32_t(n));
  l.SetScalar("threshold", threshold);
  if (RunOk(l, c, {global}, {local}).status != Status::kOk) return;

  const std::vector<int32_t> out = As<int32_t>(l.Contents("out"));
  const std::vector<uint32_t> counts = As<uint32_t>(l.Contents("counts"));
  for (uint32_t s = 0; s < global / 8; ++s) {
    if (s >= global / S) {
      ASSERT_EQ(counts[s], 0xffffffffu) << "counts[" << s << "] (no such sub-group)";
      continue;
    }
    std::vector<int32_t> kept;
    for (uint32_t i = s * S; i < s * S + S && i < n; ++i) {
      if (in[i] > threshold && in[i] % 2 == 0) kept.push_back(in[i]);
    }
    ASSERT_EQ(counts[s], kept.size()) << "counts[" << s << "]";
    for (uint32_t j = 0; j < S; ++j) {
      ASSERT_EQ(out[s * S + j], j < kept.size() ? kept[j] : kUnwritten)
          << "out[" << s * S + j << "] (sub-group " << s << ", place " << j << ")";
    }
  }
}

void Compact(const Config& c, uint64_t seed) { CompactWith("compact", c, seed); }
void CompactScan(const Config& c, uint64_t seed) { CompactWith("compact_scan", c, seed); }

// ---- divergent.cl ---------------------------------------------------------------------------

void Collatz(const Config& c, uint64_t seed) {
  const Binary& bin = Compiled("divergent.cl");
  const uint32_t global = 32, cap = 40;
  const uint32_t kUnwritten = 0xdeadbeef;
  Rng rng(seed);
  std::vector<uint32_t> start(global);
  for (uint32_t& x : start) x = static_cast<uint32_t>(rng.Int(1, 200));
  start[0] = 0;    // early return
  start[1] = 1;    // no step at all
  start[2] = 27;   // 111 steps: capped
  start[5] = 0;
  start[9] = 16;   // straight down

  Device dev(DeviceFor(c));
  Launch l(dev, bin, "collatz");
  l.SetBuffer("start", Bytes(start));
  l.SetBuffer("steps", Bytes(std::vector<uint32_t>(global, kUnwritten)));
  l.SetBuffer("peak", Bytes(std::vector<uint32_t>(global, kUnwritten)));
  l.SetScalar("cap", cap);
  if (RunOk(l, c, {global}, {}).status != Status::kOk) return;

  const std::vector<uint32_t> steps = As<uint32_t>(l.Contents("steps"));
  const std::vector<uint32_t> peak = As<uint32_t>(l.Contents("peak"));
  for (uint32_t i = 0; i < global; ++i) {
    uint32_t want_steps = 0xffffffffu, want_peak = kUnwritten;
    if (start[i] != 0) {
      uint64_t x = start[i], top = x;
      want_steps = 0;
      while (x != 1 && want_steps < cap) {
        x = x % 2 ? 3 * x + 1 : x / 2;
        top = std::max(top, x);
        ++want_steps;
      }
      want_peak = static_cast<uint32_t>(top);
    }
    ASSERT_EQ(steps[i], want_steps) << "steps[" << i << "], start " << start[i];
    ASSERT_EQ(peak[i], want_peak) << "peak[" << i << "], start " << start[i];
  }
}

void Nested(const Config& c, uint64_t seed) {
  const Binary& bin = Compiled("divergent.cl");
  const uint32_t global = 32;
  const int32_t limit = 60;
  const int32_t kUnwritten = -7;
  Rng rng(seed);
  std::vector<int32_t> rows(global);
  for (int32_t& r : rows) r = static_cast<int32_t>(rng.Int(-2, 8));
  rows[0] = -1;
  rows[1] = 0;
  rows[2] = 8;

  Device dev(DeviceFor(c));
  Launch l(dev, bin, "nested");
  l.SetBuffer("rows", Bytes(rows));
  l.SetBuffer("out", Bytes(std::vector<int32_t>(global, kUnwritten)));
  l.SetScalar("limit", limit);
  if (RunOk(l, c, {global}, {}).status != Status::kOk) return;

  const std::vector<int32_t> out = As<int32_t>(l.Contents("out"));
  for (int32_t i = 0; i < static_cast<int32_t>(global); ++i) {
    int32_t want = kUnwritten;
    if (rows[i] >= 0) {
      want = 0;
      for (int32_t a = 0; a < rows[i]; ++a) {
        if (a % 3 == 1) continue;
        for (int32_t b = 0; b <= a; ++b) {
          if ((a + b + i) % 5 == 0) continue;
          want += a * b + 1;
          if (want > limit) break;
        }
        if (want > 2 * limit) break;
      }
    }
    ASSERT_EQ(out[i], want) << "out[" << i << "], rows " << rows[i];
  }
}

void FindFirst(const Config& c, uint64_t seed) {
  const Binary& bin = Compiled("divergent.cl");
  const uint32_t global = 32, stride = 16;
  const int32_t key = 7;
  Rng rng(seed);
  std::vector<int32_t> data(global * stride), len(global);
  for (int32_t& x : data) x = static_cast<int32_t>(rng.Int(0, 40));
  for (int32_t& m : len) m = static_cast<int32_t>(rng.Int(0, stride));

  Device dev(DeviceFor(c));
  Launch l(dev, bin, "find_first");
  l.SetBuffer("data", Bytes(data));
  l.SetBuffer("len", Bytes(len));
  l.SetZeros("out", global * 4);
  l.SetScalar("stride", int32_t(stride));
  l.SetScalar("key", key);
  if (RunOk(l, c, {global}, {}).status != Status::kOk) return;

  const std::vector<int32_t> out = As<int32_t>(l.Contents("out"));
  for (uint32_t i = 0; i < global; ++i) {
    int32_t want = -1;
    for (int32_t j = 0; j < len[i]; ++j) {
      if (data[i * stride + j] == key) {
        want = j;
        break;
      }
    }
    ASSERT_EQ(out[i], want) << "out[" << i << "], len " << len[i];
  }
}

// ---- local_mem.cl ---------------------------------------------------------------------------

void ReverseTile(const Config& c, uint64_t seed) {
  const Binary& bin = Compiled("local_mem.cl");
  const Kernel* k = bin.Find("reverse_tile");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->uses_barrier);
  EXPECT_GE(k->local_bytes, 32u * 4);
  // A full sub-group per work-group, then a partial one (its tail lanes off).
  for (const uint32_t L : {c.simd, c.simd / 2 + 1}) {
    SCOPED_TRACE("local size " + std::to_string(L));
    const uint32_t global = 4 * L;
    Rng rng(seed + L);
    std::vector<int32_t> in(global);
    for (int32_t& x : in) x = static_cast<int32_t>(rng.Int(-1000000, 1000000));
    Device dev(DeviceFor(c));
    Launch l(dev, bin, "reverse_tile");
    l.SetBuffer("in", Bytes(in));
    l.SetZeros("out", global * 4);
    if (RunOk(l, c, {global}, {L}).status != Status::kOk) return;
    const std::vector<int32_t> out = As<int32_t>(l.Contents("out"));
    for (uint32_t i = 0; i < global; ++i) {
      const uint32_t g = i / L, j = i % L;
      ASSERT_EQ(out[i], in[g * L + L - 1 - j]) << "out[" << i << "]";
    }
  }
}

void Stencil3(const Config& c, uint64_t seed) {
  const Binary& bin = Compiled("local_mem.cl");
  const uint32_t L = c.simd, n = 4 * L;
  Rng rng(seed);
  std::vector<float> in(n);
  for (float& x : in) x = static_cast<float>(rng.Int(-10000, 10000));

  Device dev(DeviceFor(c));
  Launch l(dev, bin, "stencil3");
  l.SetBuffer("in", Bytes(in));
  l.SetZeros("out", n * 4);
  l.SetLocal("tile", (L + 2) * 4);
  l.SetScalar("n", int32_t(n));
  if (RunOk(l, c, {n}, {L}).status != Status::kOk) return;

  const std::vector<float> out = As<float>(l.Contents("out"));
  for (uint32_t i = 0; i < n; ++i) {
    const double left = i > 0 ? in[i - 1] : 0.0, right = i + 1 < n ? in[i + 1] : 0.0;
    const float want = static_cast<float>(0.25 * left + 0.5 * in[i] + 0.25 * right);
    ASSERT_EQ(out[i], want) << "out[" << i << "]";
  }
}

// ---- registration ---------------------------------------------------------------------------

struct KernelTest {
  const char* suite;                                 // Kernels/<suite>
  std::function<void(const Config&, uint64_t)> run;
  std::vector<unsigned> widths;                      // the SIMD widths the kernel allows
  uint64_t seed;
};

const std::vector<unsigned> kAllWidths = {8, 16, 32};

const std::vector<KernelTest>& AllKernelTests() {
  static const std::vector<KernelTest> tests = {
      {"Transpose", Transpose, kAllWidths, 0x5eed000000000001},
      {"Sgemm", Sgemm, kAllWidths, 0x5eed000000000002},
      {"SgemmSimd8", SgemmSimd8, {8}, 0x5eed000000000003},
      {"ReduceQcom", ReduceQcom, kAllWidths, 0x5eed000000000004},
      {"Scan8Qcom", Scan8Qcom, kAllWidths, 0x5eed000000000005},
      {"Compact", Compact, kAllWidths, 0x5eed000000000006},
      {"CompactScan", CompactScan, kAllWidths, 0x5eed000000000007},
      {"Collatz", Collatz, kAllWidths, 0x5eed000000000008},
      {"Nested", Nested, kAllWidths, 0x5eed000000000009},
      {"FindFirst", FindFirst, kAllWidths, 0x5eed00000000000a},
      {"ReverseTile", ReverseTile, kAllWidths, 0x5eed00000000000b},
      {"Stencil3", Stencil3, kAllWidths, 0x5eed00000000000c},
  };
  return tests;
}

class KernelRun : public ::testing::Test {
 public:
  KernelRun(const KernelTest& t, const Config& c) : test_(t), config_(c) {}
  void TestBody() override {
    char seed[32];
    std::snprintf(seed, sizeof seed, "seed 0x%016llx", static_cast<unsigned long long>(test_.seed));
    SCOPED_TRACE(seed);
    try {
      test_.run(config_, test_.seed);
    } catch (const compiler::CompileError& e) {
      FAIL() << "compile error:\n" << e.what();
    } catch (const DriverError& e) {
      FAIL() << "driver error: " << e.what();
    }
  }

 private:
  const KernelTest& test_;
  Config config_;
};

// Kernels/<Kernel>.<Backend>Simd<N> for every backend and allowed width.
[[maybe_unused]] const bool kRegistered = [] {
  for (const KernelTest& t : AllKernelTests()) {
    for (const Backend b : {Backend::kGolden, Backend::kRtl, Backend::kCosim}) {
      for (const unsigned simd : t.widths) {
        const Config c{b, simd, t.seed};
        ::testing::RegisterTest(("Kernels/" + std::string(t.suite)).c_str(),
                                ConfigName(c).c_str(), nullptr, nullptr, __FILE__, __LINE__,
                                [&t, c]() -> ::testing::Test* { return new KernelRun(t, c); });
      }
    }
  }
  return true;
}();

// A kernel that requires a sub-group size runs at that size only: the driver refuses others.
TEST(KernelsRequiredSize, SgemmSimd8RefusesOtherWidths) {
  const Binary& bin = Compiled("sgemm.cl");
  for (const unsigned simd : {16u, 32u}) {
    Device dev(DeviceFor({Backend::kGolden, simd}));
    EXPECT_THROW({ Launch l(dev, bin, "sgemm_simd8"); }, DriverError) << "simd " << simd;
  }
  // The other kernel of the file runs anywhere.
  Device dev(DeviceFor({Backend::kGolden, 16}));
  EXPECT_NO_THROW({ Launch l(dev, bin, "sgemm"); });
}

}  // namespace
}  // namespace sgu::driver
