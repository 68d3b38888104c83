// SPDX-License-Identifier: Apache-2.0
// Compiler tests: small OpenCL C kernels, each exercising one part of the SPIR-V coverage
// (integer widths, division, conversions, vectors, private arrays, switch, divergent loops with
// break/continue/return, shuffles, votes), compiled with the real clang-15 and llvm-spirv-15,
// run through the driver, and compared with the same computation written here in C++. Also the
// compiler's error messages for what it does not support.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "sgu/compiler.h"
#include "sgu/driver.h"

namespace sgu {
namespace {

std::string WriteKernel(const std::string& name, const std::string& src) {
  const std::string path = ::testing::TempDir() + "/sgu_ct_" + name + ".cl";
  std::ofstream(path) << src;
  return path;
}

Binary Compile(const std::string& name, const std::string& src, bool schedule = true) {
  compiler::Options o;
  o.schedule = schedule;
  return compiler::CompileFile(WriteKernel(name, src), o);
}

std::vector<uint8_t> Bytes(const std::vector<uint32_t>& w) {
  std::vector<uint8_t> b(w.size() * 4);
  std::memcpy(b.data(), w.data(), b.size());
  return b;
}
std::vector<uint32_t> Words(const std::vector<uint8_t>& b) {
  std::vector<uint32_t> w(b.size() / 4);
  std::memcpy(w.data(), b.data(), w.size() * 4);
  return w;
}

// Runs kernel `k` (arguments: __global uint* in, __global uint* out) over `n` work-items with
// in[i] = input(i) and compares out with want(i, in); the driver's result in *result if given.
void RunAndCheck(const Binary& bin, driver::Backend backend, unsigned simd, uint32_t n,
                 uint32_t local, std::function<uint32_t(uint32_t)> input,
                 std::function<uint32_t(uint32_t, const std::vector<uint32_t>&)> want,
                 driver::Result* result = nullptr) {
  driver::DeviceOptions o;
  o.backend = backend;
  o.simd = simd;
  o.watchdog_cycles = 20000000;
  driver::Device dev(o);
  driver::Launch l(dev, bin, "k");
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = input(i);
  l.SetBuffer("in", Bytes(in));
  l.SetZeros("out", n * 4);
  const driver::Result r = l.Run({n}, {local});
  if (result != nullptr) *result = r;
  ASSERT_EQ(r.status, driver::Status::kOk) << r.Message();
  const std::vector<uint32_t> out = Words(l.Contents("out"));
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(out[i], want(i, in)) << "work-item " << i << " (in " << in[i] << ") SIMD " << simd;
  }
}

struct Case {
  const char* name;
  const char* src;
  std::function<uint32_t(uint32_t)> input;
  std::function<uint32_t(uint32_t, const std::vector<uint32_t>&)> want;
};

uint32_t Mix(uint32_t i) { return i * 2654435761u ^ (i >> 3) * 40503u; }

const Case kCases[] = {
    {"div_rem",
     "__kernel void k(__global const uint* in, __global uint* out) {\n"
     "  uint i = get_global_id(0); int x = (int)in[i]; int d = (int)(i % 13) - 6;\n"
     "  if (d == 0) d = 7;\n"
     "  out[i] = (uint)(x / d) ^ ((uint)(x % d) << 8) ^ (in[i] / 10u) ^ (in[i] % 7u) ^\n"
     "           (uint)(x / -3) ^ (in[i] / (i + 1));\n}\n",
     [](uint32_t i) { return Mix(i); },
     [](uint32_t i, const std::vector<uint32_t>& in) {
       const int32_t x = static_cast<int32_t>(in[i]);
       int32_t d = static_cast<int32_t>(i % 13) - 6;
       if (d == 0) d = 7;
       return static_cast<uint32_t>(x / d) ^ (static_cast<uint32_t>(x % d) << 8) ^ (in[i] / 10u) ^
              (in[i] % 7u) ^ static_cast<uint32_t>(x / -3) ^ (in[i] / (i + 1));
     }},
    {"narrow_and_wide",
     "__kernel void k(__global const uint* in, __global uint* out) {\n"
     "  uint i = get_global_id(0); uchar a = (uchar)in[i]; short b = (short)(in[i] >> 8);\n"
     "  ulong w = (ulong)in[i] * 0x10001ul + ((ulong)i << 40); long s = -(long)w >> 3;\n"
     "  uchar c = a * 3 + 7; short e = b >> 2;\n"
     "  out[i] = (uint)c + (uint)(int)e + (uint)(w >> 20) + (uint)(s >> 33) + (a < 100 ? 1u : 0u);\n"
     "}\n",
     [](uint32_t i) { return Mix(i + 5); },
     [](uint32_t i, const std::vector<uint32_t>& in) {
       const uint8_t a = static_cast<uint8_t>(in[i]);
       const int16_t b = static_cast<int16_t>(in[i] >> 8);
       const uint64_t w = static_cast<uint64_t>(in[i]) * 0x10001ull + (static_cast<uint64_t>(i) << 40);
       const int64_t s = -static_cast<int64_t>(w) >> 3;
       const uint8_t c = static_cast<uint8_t>(a * 3 + 7);
       const int16_t e = static_cast<int16_t>(b >> 2);
       return static_cast<uint32_t>(c) + static_cast<uint32_t>(static_cast<int32_t>(e)) +
              static_cast<uint32_t>(w >> 20) + static_cast<uint32_t>(s >> 33) + (a < 100 ? 1u : 0u);
     }},
    {"float_vectors",
     "__kernel void k(__global const uint* in, __global uint* out) {\n"
     "  uint i = get_global_id(0); float4 v = (float4)((float)i, 0.5f, -(float)(in[i] & 255), 3.0f);\n"
     "  float4 w = v * 2.0f + (float4)(1.0f);\n"
     "  float d = dot(w, (float4)(1.0f, 2.0f, 0.25f, -1.0f));\n"
     "  int t = (int)(w.z * 0.5f); uint u = (uint)fabs(w.z);\n"
     "  out[i] = as_uint(fmax(d, -100.0f)) ^ (uint)t ^ (u << 16) ^ (w.x > 9.0f ? 0x80000000u : 0u);\n"
     "}\n",
     [](uint32_t i) { return Mix(i + 9); },
     [](uint32_t i, const std::vector<uint32_t>& in) {
       const float v[4] = {static_cast<float>(i), 0.5f, -static_cast<float>(in[i] & 255), 3.0f};
       float w[4];
       for (int j = 0; j < 4; ++j) w[j] = v[j] * 2.0f + 1.0f;
       const float m[4] = {1.0f, 2.0f, 0.25f, -1.0f};
       // OpDot: products summed left to right, each rounded (the SGU's lowering of dot()).
       float d = w[0] * m[0];
       for (int j = 1; j < 4; ++j) d = d + w[j] * m[j];
       const float f = d > -100.0f ? d : -100.0f;
       uint32_t fb;
       std::memcpy(&fb, &f, 4);
       const int32_t t = static_cast<int32_t>(w[2] * 0.5f);
       const uint32_t u = static_cast<uint32_t>(w[2] < 0 ? -w[2] : w[2]);
       return fb ^ static_cast<uint32_t>(t) ^ (u << 16) ^ (w[0] > 9.0f ? 0x80000000u : 0u);
     }},
    {"private_array_and_switch",
     "__kernel void k(__global const uint* in, __global uint* out) {\n"
     "  uint i = get_global_id(0); uint a[8];\n"
     "  for (int j = 0; j < 8; ++j) a[j] = in[i] * (uint)j + (uint)j;\n"
     "  uint r = a[in[i] % 8] + a[(i * 3) % 8];\n"
     "  switch (i % 5) { case 0: r += 1; break; case 1: r ^= 0xff; break;\n"
     "                  case 3: r *= 3; /* fall through */ case 4: r -= 2; break; default: r = 0; }\n"
     "  out[i] = r;\n}\n",
     [](uint32_t i) { return Mix(i + 17); },
     [](uint32_t i, const std::vector<uint32_t>& in) {
       uint32_t a[8];
       for (uint32_t j = 0; j < 8; ++j) a[j] = in[i] * j + j;
       uint32_t r = a[in[i] % 8] + a[(i * 3) % 8];
       switch (i % 5) {
         case 0: r += 1; break;
         case 1: r ^= 0xff; break;
         case 3: r *= 3; r -= 2; break;
         case 4: r -= 2; break;
         default: r = 0;
       }
       return r;
     }},
    {"private_zero_init",
     // `uint h[8] = {0}` becomes a copy from a zero constant (OpCopyMemorySized); the float
     // array's zero constant is a module-scope variable missing from the entry point interface.
     "__kernel void k(__global const uint* in, __global uint* out) {\n"
     "  uint i = get_global_id(0); uint h[8] = {0}; float acc[16];\n"
     "  for (int l = 0; l < 16; ++l) acc[l] = 0.0f;\n"
     "  for (int j = 0; j < 10; ++j) h[(in[i] >> (3 * j)) & 7]++;\n"
     "  for (int l = 0; l < 16; ++l) acc[(i * 7 + (uint)l) & 15] += (float)(l * (int)(in[i] & 3));\n"
     "  uint r = 0; for (int b = 0; b < 8; ++b) r |= h[b] << (4 * b);\n"
     "  out[i] = r ^ (uint)acc[i & 15] ^ ((uint)acc[3] << 20);\n}\n",
     [](uint32_t i) { return Mix(i + 41); },
     [](uint32_t i, const std::vector<uint32_t>& in) {
       uint32_t h[8] = {0};
       float acc[16] = {0};
       for (int j = 0; j < 10; ++j) h[(in[i] >> (3 * j)) & 7]++;
       for (int l = 0; l < 16; ++l)
         acc[(i * 7 + static_cast<uint32_t>(l)) & 15] += static_cast<float>(l * static_cast<int>(in[i] & 3));
       uint32_t r = 0;
       for (int b = 0; b < 8; ++b) r |= h[b] << (4 * b);
       return r ^ static_cast<uint32_t>(acc[i & 15]) ^ (static_cast<uint32_t>(acc[3]) << 20);
     }},
    {"conversions",
     "__kernel void k(__global const uint* in, __global uint* out) {\n"
     "  uint i = get_global_id(0); int x = (int)in[i];\n"
     "  float f = (float)(x % 100000) * 0.015625f;\n"
     "  uchar a = convert_uchar_sat_rte(f * 0.01f);\n"
     "  int b = convert_int_rtn(f) - convert_int_rtp(f) + convert_int_rte(f * 0.5f);\n"
     "  char c = convert_char_sat(x >> 20);\n"
     "  ushort d = convert_ushort_sat(x >> 8);\n"
     "  uint e = convert_uint_sat(x);\n"
     "  out[i] = (uint)a ^ ((uint)b << 8) ^ ((uint)(int)c << 16) ^ ((uint)d << 3) ^ e;\n}\n",
     [](uint32_t i) { return Mix(i + 57); },
     [](uint32_t i, const std::vector<uint32_t>& in) {
       const int32_t x = static_cast<int32_t>(in[i]);
       const float f = static_cast<float>(x % 100000) * 0.015625f;
       auto clampf = [](float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; };
       const uint8_t a = static_cast<uint8_t>(std::nearbyint(clampf(f * 0.01f, 0.0f, 255.0f)));
       const int32_t b = static_cast<int32_t>(std::floor(f)) - static_cast<int32_t>(std::ceil(f)) +
                         static_cast<int32_t>(std::nearbyint(f * 0.5f));
       const int32_t cs = x >> 20;
       const int8_t c = static_cast<int8_t>(cs < -128 ? -128 : cs > 127 ? 127 : cs);
       const int32_t ds = x >> 8;
       const uint16_t d = static_cast<uint16_t>(ds < 0 ? 0 : ds > 65535 ? 65535 : ds);
       const uint32_t e = x < 0 ? 0u : static_cast<uint32_t>(x);
       return static_cast<uint32_t>(a) ^ (static_cast<uint32_t>(b) << 8) ^
              (static_cast<uint32_t>(static_cast<int32_t>(c)) << 16) ^ (static_cast<uint32_t>(d) << 3) ^ e;
     }},
    {"bit_counts",
     "__kernel void k(__global const uint* in, __global uint* out) {\n"
     "  uint i = get_global_id(0); uint x = in[i] >> (i % 32); uchar c = (uchar)(in[i] >> 5);\n"
     "  ushort s = (ushort)(in[i] >> 3); ulong w = ((ulong)in[i] << 29) ^ (ulong)i;\n"
     "  out[i] = popcount(x) | (clz(x) << 6) | (ctz(x) << 12) | ((uint)clz(c) << 18) |\n"
     "           ((uint)ctz(s) << 22) | ((uint)popcount(w) << 26);\n}\n",
     [](uint32_t i) { return i % 7 == 0 ? 0u : Mix(i + 77); },
     [](uint32_t i, const std::vector<uint32_t>& in) {
       const uint32_t x = in[i] >> (i % 32);
       const uint8_t c = static_cast<uint8_t>(in[i] >> 5);
       const uint16_t sv = static_cast<uint16_t>(in[i] >> 3);
       const uint64_t w = (static_cast<uint64_t>(in[i]) << 29) ^ i;
       auto pop = [](uint64_t v) { uint32_t n = 0; for (; v; v &= v - 1) ++n; return n; };
       auto clz = [](uint64_t v, unsigned bits) { unsigned n = 0; for (int b = static_cast<int>(bits) - 1; b >= 0 && !((v >> b) & 1); --b) ++n; return n; };
       auto ctz = [](uint64_t v, unsigned bits) { unsigned n = 0; while (n < bits && !((v >> n) & 1)) ++n; return n; };
       return pop(x) | (clz(x, 32) << 6) | (ctz(x, 32) << 12) | (clz(c, 8) << 18) |
              (ctz(sv, 16) << 22) | (pop(w) << 26);
     }},
    {"divergent_loops",
     "__kernel void k(__global const uint* in, __global uint* out) {\n"
     "  uint i = get_global_id(0); uint x = in[i] % 97 + 1; uint steps = 0;\n"
     "  if (i % 7 == 3) { out[i] = 12345; return; }\n"
     "  while (x != 1) {\n"
     "    if (steps > 60) break;\n"
     "    x = (x & 1) ? 3 * x + 1 : x / 2; ++steps;\n"
     "    if ((x & 7) == 5) continue;\n"
     "    for (uint j = 0; j < (x & 3); ++j) { steps += j; if (j == 2 && (i & 1)) break; }\n"
     "  }\n"
     "  out[i] = steps * 1000 + x;\n}\n",
     [](uint32_t i) { return Mix(i + 23); },
     [](uint32_t i, const std::vector<uint32_t>& in) {
       if (i % 7 == 3) return 12345u;
       uint32_t x = in[i] % 97 + 1, steps = 0;
       while (x != 1) {
         if (steps > 60) break;
         x = (x & 1) ? 3 * x + 1 : x / 2;
         ++steps;
         if ((x & 7) == 5) continue;
         for (uint32_t j = 0; j < (x & 3); ++j) {
           steps += j;
           if (j == 2 && (i & 1)) break;
         }
       }
       return steps * 1000 + x;
     }},
};

class CompilerExecTest : public ::testing::TestWithParam<size_t> {};

TEST_P(CompilerExecTest, GoldenMatchesHost) {
  const Case& c = kCases[GetParam()];
  const Binary bin = Compile(c.name, c.src);
  for (unsigned simd : {8u, 16u, 32u}) {
    // A local size that leaves a partial sub-group at every width.
    RunAndCheck(bin, driver::Backend::kGolden, simd, 120, 40, c.input, c.want);
  }
}

TEST_P(CompilerExecTest, CosimMatchesHost) {
  const Case& c = kCases[GetParam()];
  const Binary bin = Compile(c.name, c.src);
  RunAndCheck(bin, driver::Backend::kCosim, 16, 40, 20, c.input, c.want);
}

// The instruction scheduler changes the order of the code, not what it computes: every case
// compiled without it (--no-schedule) gives the host's results too.
TEST_P(CompilerExecTest, UnscheduledGoldenMatchesHost) {
  const Case& c = kCases[GetParam()];
  const Binary bin = Compile(std::string(c.name) + "_nosched", c.src, /*schedule=*/false);
  for (unsigned simd : {8u, 16u, 32u}) {
    RunAndCheck(bin, driver::Backend::kGolden, simd, 120, 40, c.input, c.want);
  }
}

INSTANTIATE_TEST_SUITE_P(Features, CompilerExecTest, ::testing::Range<size_t>(0, std::size(kCases)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return std::string(kCases[p.param].name);
                         });

// Shuffles and votes: lane l of each sub-group, against the SGU's documented semantics.
TEST(CompilerSubgroupTest, ShufflesAndVotes) {
  const Binary bin = Compile(
      "subgroup",
      "__kernel void k(__global const uint* in, __global uint* out) {\n"
      "  uint i = get_global_id(0); uint v = in[i];\n"
      "  uint a = intel_sub_group_shuffle(v, (get_sub_group_local_id() + 1) % get_max_sub_group_size());\n"
      "  uint b = intel_sub_group_shuffle_xor(v, 1u);\n"
      "  uint c = intel_sub_group_shuffle_down(v, v + 1000u, 3u);\n"
      "  uint d = sub_group_broadcast(v, 2u);\n"
      "  uint e = sub_group_any(v > 3000000000u) + 2 * sub_group_all(v != 0u);\n"
      "  out[i] = a * 3u + b * 5u + c * 7u + d * 11u + e;\n}\n");
  for (unsigned simd : {8u, 16u, 32u}) {
    const uint32_t n = simd * 4;
    RunAndCheck(
        bin, driver::Backend::kGolden, simd, n, simd, [](uint32_t i) { return Mix(i + 31) | 1u; },
        [simd](uint32_t i, const std::vector<uint32_t>& in) {
          const uint32_t base = i / simd * simd, l = i % simd;
          auto at = [&](uint32_t lane) { return in[base + lane]; };
          const uint32_t a = at((l + 1) % simd), b = at(l ^ 1u);
          const uint32_t c = l + 3 < simd ? at(l + 3) : at(l + 3 - simd) + 1000u;
          const uint32_t d = at(2);
          bool any = false, all = true;
          for (uint32_t j = 0; j < simd; ++j) {
            any = any || at(j) > 3000000000u;
            all = all && at(j) != 0u;
          }
          const uint32_t e = (any ? 1u : 0u) + 2u * (all ? 1u : 0u);
          return a * 3u + b * 5u + c * 7u + d * 11u + e;
        });
  }
}

// Independent multiply chains in a loop, the scheduler's case (docs/compiler.md "Instruction
// scheduling"): with and without it, the same results as the host on the golden model at every
// width and in lockstep on the RTL, the same instructions retired in another order, and fewer
// cycles with it.
TEST(CompilerScheduleTest, SameResultsFewerCycles) {
  const char* src =
      "__kernel void k(__global const uint* in, __global uint* out) {\n"
      "  uint i = get_global_id(0); uint a = in[i], b = a ^ 0x9e3779b9u, c = i, d = 7u;\n"
      "  float f = (float)(a & 0xffffu);\n"
      "  for (int j = 0; j < 12; ++j) {\n"
      "    a = a * 2654435761u + 1u; b = b * 40503u + (uint)j;\n"
      "    c = (c ^ a) * 3u; d = d + (b >> 3);\n"
      "    f = f * 0.5f; f = f + 3.0f;\n"
      "  }\n"
      "  out[i] = a ^ b ^ c ^ d ^ as_uint(f);\n}\n";
  auto input = [](uint32_t i) { return Mix(i + 99); };
  auto want = [](uint32_t i, const std::vector<uint32_t>& in) {
    uint32_t a = in[i], b = a ^ 0x9e3779b9u, c = i, d = 7u;
    float f = static_cast<float>(a & 0xffffu);
    for (uint32_t j = 0; j < 12; ++j) {
      a = a * 2654435761u + 1u;
      b = b * 40503u + j;
      c = (c ^ a) * 3u;
      d = d + (b >> 3);
      f = f * 0.5f;
      f = f + 3.0f;
    }
    uint32_t fb;
    std::memcpy(&fb, &f, 4);
    return a ^ b ^ c ^ d ^ fb;
  };
  const Binary on = Compile("sched_on", src), off = Compile("sched_off", src, false);
  ASSERT_EQ(on.kernels.size(), 1u);
  ASSERT_EQ(off.kernels.size(), 1u);
  EXPECT_EQ(on.kernels[0].code.size(), off.kernels[0].code.size());
  EXPECT_NE(on.kernels[0].code, off.kernels[0].code) << "the scheduler moved nothing";
  for (unsigned simd : {8u, 16u, 32u}) {
    RunAndCheck(on, driver::Backend::kGolden, simd, 120, 40, input, want);
    RunAndCheck(off, driver::Backend::kGolden, simd, 120, 40, input, want);
  }
  driver::Result r_on, r_off;
  RunAndCheck(on, driver::Backend::kCosim, 16, 40, 20, input, want, &r_on);
  RunAndCheck(off, driver::Backend::kCosim, 16, 40, 20, input, want, &r_off);
  EXPECT_EQ(r_on.instructions, r_off.instructions);
  EXPECT_LT(r_on.cycles, r_off.cycles);
  std::printf("multiply chains at SIMD16: %llu cycles scheduled, %llu not\n",
              static_cast<unsigned long long>(r_on.cycles),
              static_cast<unsigned long long>(r_off.cycles));
}

// What the compiler cannot do is an error naming the built-in and the source line.
// A kernel compiles to the same bytes every time: the private temporary directory of the SGU
// header (its line table entries) does not reach the binary, and no other run-specific state.
TEST(CompilerReproducibleTest, SameKernelSameBytes) {
  const std::string src = R"(
    __kernel void k(__global float* in, __global float* out) {
      uint i = get_global_id(0);
      float x = in[i];
      // A constant lane mask and default, and fmin/fmax with constants: operands that are
      // materialised as they are lowered (the order GCC and Clang used to differ on).
      float s = x + qcom_sub_group_shuffle_xor(x, 1, CLK_SUB_GROUP_SHUFFLE_WIDTH_W4_QCOM, 0.0f);
      out[i] = fmin(fmax(s, 1.5f), 2.5f) + intel_sub_group_shuffle_xor(s, 1u);
    })";
  const std::string a = WriteBinary(Compile("repro", src));
  const std::string b = WriteBinary(Compile("repro", src));
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.find("sgu-cc-"), std::string::npos) << "the temporary directory is in the binary";
  EXPECT_NE(a.find("<sgu>/sgu_kernel.h"), std::string::npos);
}

TEST(CompilerErrorTest, UnsupportedBuiltinNamesItAndTheLine) {
  try {
    Compile("reduce",
            "__kernel void k(__global const uint* in, __global uint* out) {\n"
            "  uint i = get_global_id(0);\n"
            "  out[i] = sub_group_reduce_add(in[i]);\n}\n");
    FAIL() << "expected a CompileError";
  } catch (const compiler::CompileError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("sgu_ct_reduce.cl:3"), std::string::npos) << msg;
    EXPECT_NE(msg.find("sub_group_reduce"), std::string::npos) << msg;
  }
}

TEST(CompilerErrorTest, FloatDivisionIsAClearError) {
  try {
    Compile("fdiv",
            "__kernel void k(__global const float* in, __global float* out) {\n"
            "  uint i = get_global_id(0);\n"
            "  out[i] = in[i] / in[i + 1];\n}\n");
    FAIL() << "expected a CompileError";
  } catch (const compiler::CompileError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("sgu_ct_fdiv.cl:3"), std::string::npos) << msg;
    EXPECT_NE(msg.find("division"), std::string::npos) << msg;
  }
}

TEST(CompilerErrorTest, ClangDiagnosticsPassThrough) {
  try {
    Compile("syntax", "__kernel void k(__global uint* out) {\n  out[0] = undeclared_thing;\n}\n");
    FAIL() << "expected a CompileError";
  } catch (const compiler::CompileError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("undeclared_thing"), std::string::npos) << msg;
    EXPECT_NE(msg.find(":2:"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace sgu
