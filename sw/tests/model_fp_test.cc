// SPDX-License-Identifier: Apache-2.0
// FP32 instructions and cvt. Random fadd/fsub/fmul are checked against binary64 arithmetic
// rounded once to binary32 (exact for these operations: 53 >= 2*24 + 2), a different path from
// the model's binary32 arithmetic; ffma, fmin/fmax, fcmp and cvt against hand-derived values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "test_util.h"

namespace sgu {
namespace test {
namespace {

constexpr uint32_t kNan = 0x7fc00000u;

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float F(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// Runs `OP v3, v1, v2` (or with rs3 = v4) on N = 8 with lane inputs from memory; returns the
// result of each lane.
std::vector<uint32_t> RunLanes(const std::string& insn, const std::vector<uint32_t>& a,
                               const std::vector<uint32_t>& b,
                               const std::vector<uint32_t>& c = {}) {
  Machine m(8);
  for (unsigned l = 0; l < 8; ++l) {
    m.Store32(kData + 4 * l, l < a.size() ? a[l] : 0);
    m.Store32(kData + 0x100 + 4 * l, l < b.size() ? b[l] : 0);
    m.Store32(kData + 0x200 + 4 * l, l < c.size() ? c[l] : 0);
  }
  m.Load(
      "  lane v0\n  shli v0, v0, 2\n"
      "  ld v1, [v0 + 0x4000]\n  ld v2, [v0 + 0x4100]\n  ld v4, [v0 + 0x4200]\n  " +
      insn + "\n  halt\n");
  m.Run();
  const Retire& r = m.At(40);
  EXPECT_FALSE(r.trap);
  return std::vector<uint32_t>(r.data_lo.begin(), r.data_lo.begin() + 8);
}

uint32_t RandomFloatBits(Rng& rng) {
  static const uint32_t kEdges[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u,
                                    0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u,
                                    0x7f800001u, 0x00000001u, 0x80000001u, 0x007fffffu,
                                    0x00800000u, 0x7f7fffffu, 0xff7fffffu, 0x34000000u};
  switch (rng.Below(4)) {
    case 0:
      return kEdges[rng.Below(16)];
    case 1: {  // subnormal/tiny; one draw per statement (the operands of | are unsequenced)
      const uint32_t mag = static_cast<uint32_t>(rng.Below(0x01000000u));
      return mag | (rng.Next32() & 0x80000000u);
    }
    default:
      return rng.Next32();
  }
}

// binary64 reference: exact operation result rounded once to binary32; NaN -> canonical.
uint32_t Ref(char op, uint32_t a, uint32_t b) {
  const double x = F(a), y = F(b);
  double r = op == '+' ? x + y : op == '-' ? x - y : x * y;
  const float f = static_cast<float>(r);
  return std::isnan(f) ? kNan : Bits(f);
}

TEST(ModelFp, AddSubMulMatchBinary64Reference) {
  Rng rng;
  SCOPED_TRACE(rng.Describe());
  const struct {
    const char* insn;
    char op;
  } cases[] = {{"fadd v3, v1, v2", '+'}, {"fsub v3, v1, v2", '-'}, {"fmul v3, v1, v2", '*'}};
  for (const auto& c : cases) {
    for (int iter = 0; iter < 60; ++iter) {
      std::vector<uint32_t> a(8), b(8);
      for (unsigned l = 0; l < 8; ++l) {
        a[l] = RandomFloatBits(rng);
        b[l] = RandomFloatBits(rng);
      }
      const std::vector<uint32_t> got = RunLanes(c.insn, a, b);
      for (unsigned l = 0; l < 8; ++l) {
        EXPECT_EQ(got[l], Ref(c.op, a[l], b[l]))
            << c.insn << " a=" << std::hex << a[l] << " b=" << b[l];
      }
    }
  }
}

TEST(ModelFp, WorkedValues) {
  // x + (-x) = +0 under RNE; -0 + -0 = -0; NaN payload and sign dropped; inf - inf = NaN.
  EXPECT_EQ(RunLanes("fadd v3, v1, v2", {0x3f800000u, 0x80000000u, 0xffc00123u, 0x7f800000u},
                     {0xbf800000u, 0x80000000u, 0x3f800000u, 0xff800000u}),
            (std::vector<uint32_t>{0, 0x80000000u, kNan, kNan, 0, 0, 0, 0}));
  // Subnormal results are exact: min subnormal + min subnormal = 2 * min subnormal; 2^-126 / 2
  // via multiply by 0.5 = the largest-exponent subnormal 0x00400000.
  EXPECT_EQ(RunLanes("fadd v3, v1, v2", {1}, {1})[0], 2u);
  EXPECT_EQ(RunLanes("fmul v3, v1, v2", {0x00800000u}, {0x3f000000u})[0], 0x00400000u);
  // 0 * inf = NaN; -2 * 3 = -6.
  EXPECT_EQ(RunLanes("fmul v3, v1, v2", {0, 0xc0000000u}, {0x7f800000u, 0x40400000u}),
            (std::vector<uint32_t>{kNan, 0xc0c00000u, 0, 0, 0, 0, 0, 0}));
  // RNE tie: 1 + 2^-24 is exactly halfway between 1 and 1 + 2^-23 -> even (1.0);
  // (1 + 2^-23) + 2^-24 -> rounds up to 1 + 2^-22.
  EXPECT_EQ(RunLanes("fadd v3, v1, v2", {0x3f800000u, 0x3f800001u}, {0x33800000u, 0x33800000u}),
            (std::vector<uint32_t>{0x3f800000u, 0x3f800002u, 0, 0, 0, 0, 0, 0}));
}

TEST(ModelFp, FfmaRoundsOnce) {
  // a = 1 + 2^-12, a*a = 1 + 2^-11 + 2^-24. With c = -(1 + 2^-11) the fused result is exactly
  // 2^-24 (0x33800000); rounding the product first would give 1 + 2^-11 (tie to even) and 0.
  const uint32_t a = 0x3f800800u;  // 1 + 2^-12
  const uint32_t c = 0xbf801000u;  // -(1 + 2^-11)
  // Lanes 3, 4: a zero product plus a zero addend is -0 only when both are negative:
  // 0 * -1 + -0 = -0, 0 * 1 + -0 = +0.
  EXPECT_EQ(RunLanes("ffma v3, v1, v2, v4", {a, 0x7f800000u, 0x3f800000u, 0, 0},
                     {a, 0, 0x3f800000u, 0xbf800000u, 0x3f800000u},
                     {c, 0x3f800000u, 0xbf800000u, 0x80000000u, 0x80000000u}),
            (std::vector<uint32_t>{0x33800000u, kNan, 0, 0x80000000u, 0, 0, 0, 0}));
  // A nonzero product that rounds to zero keeps its sign: -2^-149 * 0.25 = -0.
  EXPECT_EQ(RunLanes("fmul v3, v1, v2", {0x80000001u}, {0x3e800000u})[0], 0x80000000u);
}

TEST(ModelFp, MinMax) {
  const uint32_t one = 0x3f800000u, two = 0x40000000u, neg = 0xbf800000u;
  const std::vector<uint32_t> a = {one, two, kNan, 0xff812345u, kNan, 0x80000000u, 0, neg};
  const std::vector<uint32_t> b = {two, one, one, 0xffc00000u, neg, 0, 0x80000000u, neg};
  EXPECT_EQ(RunLanes("fmin v3, v1, v2", a, b),
            (std::vector<uint32_t>{one, one, one, kNan, neg, 0x80000000u, 0x80000000u, neg}));
  EXPECT_EQ(RunLanes("fmax v3, v1, v2", a, b),
            (std::vector<uint32_t>{two, two, one, kNan, neg, 0, 0, neg}));
}

TEST(ModelFp, FcmpConditions) {
  // Lanes: 1<2, 2>1, 1==1, NaN vs 1, +0 vs -0, 1 vs NaN, -inf < inf, NaN vs NaN.
  const uint32_t one = 0x3f800000u, two = 0x40000000u;
  const std::vector<uint32_t> a = {one, two, one, kNan, 0, one, 0xff800000u, 0x7f800001u};
  const std::vector<uint32_t> b = {two, one, one, one, 0x80000000u, kNan, 0x7f800000u, kNan};
  const struct {
    const char* cond;
    std::vector<uint32_t> want;
  } cases[] = {
      {"eq", {0, 0, 1, 0, 1, 0, 0, 0}},  {"ne", {1, 1, 0, 1, 0, 1, 1, 1}},
      {"lt", {1, 0, 0, 0, 0, 0, 1, 0}},  {"le", {1, 0, 1, 0, 1, 0, 1, 0}},
      {"gt", {0, 1, 0, 0, 0, 0, 0, 0}},  {"ge", {0, 1, 1, 0, 1, 0, 0, 0}},
      {"ord", {1, 1, 1, 0, 1, 0, 1, 0}}, {"uno", {0, 0, 0, 1, 0, 1, 0, 1}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(RunLanes(std::string("fcmp.") + c.cond + " v3, v1, v2", a, b), c.want) << c.cond;
  }
}

TEST(ModelFp, CvtFloatToInt) {
  const std::vector<uint32_t> in = {Bits(-1.5f),          Bits(2.99f), kNan,
                                    Bits(3e9f),           Bits(-3e9f), Bits(2147483648.0f),
                                    Bits(-2147483648.0f), Bits(300.7f)};
  EXPECT_EQ(RunLanes("cvt.i32.f32 v3, v1", in, {}),
            (std::vector<uint32_t>{0xffffffffu, 2, 0, 0x7fffffffu, 0x80000000u, 0x7fffffffu,
                                   0x80000000u, 300}));
  EXPECT_EQ(RunLanes("cvt.u32.f32 v3, v1", in, {}),
            (std::vector<uint32_t>{0, 2, 0, 3000000000u, 0, 0x80000000u, 0, 300}));
  // Narrow destinations: convert to i32/u32 first, then keep 8/16 bits and extend.
  EXPECT_EQ(RunLanes("cvt.u8.f32 v3, v1", in, {}),
            (std::vector<uint32_t>{0, 2, 0, 3000000000u & 0xff, 0, 0, 0, 300 & 0xff}));
  EXPECT_EQ(RunLanes("cvt.i8.f32 v3, v1", in, {}),
            (std::vector<uint32_t>{0xffffffffu, 2, 0, 0xffffffffu, 0, 0xffffffffu, 0, 0x2c}));
  EXPECT_EQ(RunLanes("cvt.i16.f32 v3, v1", {Bits(40000.0f), Bits(-40000.0f)}, {}),
            (std::vector<uint32_t>{0xffff9c40u, 0x63c0u, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(RunLanes("cvt.u32.f32 v3, v1",
                     {Bits(4294967296.0f), Bits(-0.5f), 0x80000000u, Bits(0.9999f), 0xff800000u,
                      0x7f800000u},
                     {}),
            (std::vector<uint32_t>{0xffffffffu, 0, 0, 0, 0, 0xffffffffu, 0, 0}));
}

TEST(ModelFp, CvtIntToFloatRoundsToNearestEven) {
  // 2^24 + 1 is a tie between 2^24 and 2^24 + 2 -> 2^24 (even); 2^24 + 3 -> 2^24 + 4.
  const std::vector<uint32_t> in = {16777217u, 16777219u, 0xffffffffu, 0x80000000u, 7, 0, 0, 0};
  EXPECT_EQ(RunLanes("cvt.f32.i32 v3, v1", in, {}),
            (std::vector<uint32_t>{0x4b800000u, 0x4b800002u, Bits(-1.0f), Bits(-2147483648.0f),
                                   Bits(7.0f), 0, 0, 0}));
  EXPECT_EQ(RunLanes("cvt.f32.u32 v3, v1", in, {}),
            (std::vector<uint32_t>{0x4b800000u, 0x4b800002u, Bits(4294967296.0f),
                                   Bits(2147483648.0f), Bits(7.0f), 0, 0, 0}));
  // Narrow sources are extended from their width first (garbage above is ignored).
  EXPECT_EQ(RunLanes("cvt.f32.i8 v3, v1", {0x12345680u, 0x7fu}, {}),
            (std::vector<uint32_t>{Bits(-128.0f), Bits(127.0f), 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(RunLanes("cvt.f32.u16 v3, v1", {0xabcdffffu}, {})[0], Bits(65535.0f));
  // f32 -> f32 copies the bits (a NaN payload included).
  EXPECT_EQ(RunLanes("cvt.f32.f32 v3, v1", {0x7f812345u}, {})[0], 0x7f812345u);
}

TEST(ModelFp, CvtIntToInt) {
  Machine m(8);
  m.Load(
      "  li v1, 0x1234fff0\n"   // low half 0xfff0, low byte 0xf0
      "  cvt.i32.i8 v2, v1\n"   // -16
      "  cvt.u32.u8 v3, v1\n"   // 0xf0
      "  cvt.i64.i16 v4, v1\n"  // -16 as 64 bits
      "  cvt.u64.i32 v6, v1\n"  // 0x1234fff0 (positive)
      "  cvt.u8.i64 v8, v4\n"   // 0xf0
      "  cvt.i16.u64 v9, v6\n"  // 0xfff0 -> -16
      "  li v10, -1\n"
      "  cvt.u64.i32 v12, v10\n"  // sign-extend by the source: all ones
      "  cvt.u64.u32 v14, v10\n"  // zero-extend: {0xffffffff, 0}
      "  halt\n");
  m.Run();
  EXPECT_EQ(m.At(16).data_lo[2], 0xfffffff0u);
  EXPECT_EQ(m.At(24).data_lo[2], 0xf0u);
  EXPECT_EQ(m.At(32).data_lo[2], 0xfffffff0u);
  EXPECT_EQ(m.At(32).data_hi[2], 0xffffffffu);
  EXPECT_EQ(m.At(40).data_lo[2], 0x1234fff0u);
  EXPECT_EQ(m.At(40).data_hi[2], 0u);
  EXPECT_EQ(m.At(48).data_lo[2], 0xf0u);
  EXPECT_EQ(m.At(56).data_lo[2], 0xfffffff0u);
  EXPECT_EQ(m.At(72).data_hi[2], 0xffffffffu);
  EXPECT_EQ(m.At(80).data_lo[2], 0xffffffffu);
  EXPECT_EQ(m.At(80).data_hi[2], 0u);
}

}  // namespace
}  // namespace test
}  // namespace sgu
