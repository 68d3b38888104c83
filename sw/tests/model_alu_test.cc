// SPDX-License-Identifier: Apache-2.0
// Integer instructions against small reference formulas written here with the C++ types of each
// operand type (int8_t ... uint64_t), over random inputs whose unused high bits are garbage.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>

#include "sgu/insn.h"
#include "test_util.h"

namespace sgu {
namespace test {
namespace {

// The value a register (pair) holds for a result of C++ type T: narrow values extended to 32
// bits by the signedness of T, 64-bit values as the full pair.
template <typename T>
uint64_t Widen(T r) {
  if (sizeof(T) == 8) return static_cast<uint64_t>(r);
  return static_cast<uint32_t>(static_cast<int64_t>(r));
}

const char* const kConds[] = {"eq", "ne", "lt", "le", "gt", "ge"};

template <typename T>
bool CondHolds(unsigned cond, T a, T b) {
  switch (cond) {
    case 0:
      return a == b;
    case 1:
      return a != b;
    case 2:
      return a < b;
    case 3:
      return a <= b;
    case 4:
      return a > b;
    default:
      return a >= b;
  }
}

// Reference of op (without the trailing 'i' of the immediate forms) on raw register bits.
template <typename T>
uint64_t Ref(const std::string& op, unsigned cond, uint64_t a_raw, uint64_t b_raw) {
  using U = std::make_unsigned_t<T>;
  const T a = static_cast<T>(a_raw), b = static_cast<T>(b_raw);
  const unsigned bits = sizeof(T) * 8;
  const unsigned sh = static_cast<unsigned>(static_cast<U>(b) % bits);
  const uint64_t ua = static_cast<U>(a), ub = static_cast<U>(b);
  if (op == "add") return Widen(static_cast<T>(ua + ub));
  if (op == "sub") return Widen(static_cast<T>(ua - ub));
  if (op == "mul") return Widen(static_cast<T>(ua * ub));
  if (op == "and") return Widen(static_cast<T>(ua & ub));
  if (op == "or") return Widen(static_cast<T>(ua | ub));
  if (op == "xor") return Widen(static_cast<T>(ua ^ ub));
  if (op == "shl") return Widen(static_cast<T>(ua << sh));
  if (op == "shr") return Widen(static_cast<T>(a >> sh));  // arithmetic for signed T
  if (op == "min") return Widen(std::min(a, b));
  if (op == "max") return Widen(std::max(a, b));
  if (op == "cmp") return CondHolds(cond, a, b) ? 1 : 0;
  if (op == "mulh") {
    if (std::is_signed<T>::value) {
      return Widen(
          static_cast<int32_t>((int64_t{static_cast<int32_t>(a)} * static_cast<int32_t>(b)) >> 32));
    }
    return Widen(static_cast<uint32_t>(
        (uint64_t{static_cast<uint32_t>(a)} * static_cast<uint32_t>(b)) >> 32));
  }
  ADD_FAILURE() << "no reference for " << op;
  return 0;
}

uint64_t RefByType(const std::string& dt, const std::string& op, unsigned cond, uint64_t a,
                   uint64_t b) {
  if (dt == "i32") return Ref<int32_t>(op, cond, a, b);
  if (dt == "u32") return Ref<uint32_t>(op, cond, a, b);
  if (dt == "i8") return Ref<int8_t>(op, cond, a, b);
  if (dt == "u8") return Ref<uint8_t>(op, cond, a, b);
  if (dt == "i16") return Ref<int16_t>(op, cond, a, b);
  if (dt == "u16") return Ref<uint16_t>(op, cond, a, b);
  if (dt == "i64") return Ref<int64_t>(op, cond, a, b);
  return Ref<uint64_t>(op, cond, a, b);
}

const char* const kIntTypes[] = {"i32", "u32", "i8", "u8", "i16", "u16", "i64", "u64"};

unsigned RandomLanes(Rng& rng) { return 8u << rng.Below(3); }

// A random 64-bit operand: edge values in either half or fully random.
uint64_t RandomOperand(Rng& rng) {
  return uint64_t{rng.Interesting32()} | uint64_t{rng.Interesting32()} << 32;
}

// Stores per-lane 64-bit inputs at kData (a) and kData + 0x100 (b) and loads them into v2:v3 and
// v4:v5; `body` then runs with the record checked at `offset` 32.
constexpr char kPrologue[] =
    "  lane v0\n"
    "  shli v0, v0, 3\n"
    "  ld.i64 v2, [v0 + 0x4000]\n"
    "  ld.i64 v4, [v0 + 0x4100]\n";

void ExpectLanes(const Retire& r, unsigned rd, bool pair, uint32_t mask, unsigned n,
                 const std::function<uint64_t(unsigned)>& expected, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_FALSE(r.trap) << isa::CauseName(r.cause);
  ASSERT_TRUE(r.rd_we);
  EXPECT_EQ(r.rd, rd);
  EXPECT_EQ(r.rd_pair, pair);
  EXPECT_EQ(r.lane_mask, mask);
  for (unsigned l = 0; l < 32; ++l) {
    const bool written = l < n && (mask >> l & 1);
    const uint64_t e = written ? expected(l) : 0;
    EXPECT_EQ(r.data_lo[l], static_cast<uint32_t>(e)) << "lane " << l;
    EXPECT_EQ(r.data_hi[l], pair ? static_cast<uint32_t>(e >> 32) : 0u) << "lane " << l;
  }
}

TEST(ModelAlu, RegisterRegisterMatchesReference) {
  Rng rng;
  SCOPED_TRACE(rng.Describe());
  const char* const ops[] = {"add", "sub", "mul", "mulh", "and", "or",
                             "xor", "shl", "shr", "min",  "max", "cmp"};
  for (const char* op : ops) {
    for (const char* dt : kIntTypes) {
      const std::string sdt = dt;
      if (std::string(op) == "mulh" && sdt != "i32" && sdt != "u32") continue;
      const bool wide = sdt == "i64" || sdt == "u64";
      for (int iter = 0; iter < 6; ++iter) {
        const unsigned n = RandomLanes(rng);
        Machine m(n);
        m.params.lanes = static_cast<uint32_t>(rng.Below(n + 2));  // sometimes partial
        const unsigned k = (m.params.lanes == 0 || m.params.lanes > n) ? n : m.params.lanes;
        const uint32_t exec = k == 32 ? 0xffffffffu : (1u << k) - 1;
        uint64_t a[32], b[32];
        for (unsigned l = 0; l < n; ++l) {
          a[l] = RandomOperand(rng);
          b[l] = rng.Below(4) == 0 ? a[l] : RandomOperand(rng);
          m.mem.Store(kData + 8 * l, 8, a[l]);
          m.mem.Store(kData + 0x100 + 8 * l, 8, b[l]);
        }
        const unsigned cond = static_cast<unsigned>(rng.Below(6));
        std::string mnem = std::string(op) + "." + dt;
        if (std::string(op) == "cmp") mnem += std::string(".") + kConds[cond];
        m.Load(std::string(kPrologue) + "  " + mnem + " v6, v2, v4\n  halt\n");
        m.Run();
        ExpectLanes(
            m.At(32), 6, wide, exec, n,
            [&](unsigned l) { return RefByType(sdt, op, cond, a[l], b[l]); },
            mnem + " n=" + std::to_string(n));
      }
    }
  }
}

TEST(ModelAlu, RegisterImmediateMatchesReference) {
  Rng rng;
  SCOPED_TRACE(rng.Describe());
  const char* const ops[] = {"add", "mul", "and", "or", "xor", "shl", "shr", "min", "max", "cmp"};
  for (const char* op : ops) {
    for (const char* dt : kIntTypes) {
      const std::string sdt = dt;
      const bool wide = sdt == "i64" || sdt == "u64";
      for (int iter = 0; iter < 6; ++iter) {
        const unsigned n = RandomLanes(rng);
        Machine m(n);
        uint64_t a[32];
        for (unsigned l = 0; l < n; ++l) {
          a[l] = RandomOperand(rng);
          m.mem.Store(kData + 8 * l, 8, a[l]);
        }
        int32_t imm;
        switch (rng.Below(3)) {
          case 0:
            imm = -1;
            break;
          case 1:
            imm = static_cast<int32_t>(rng.Below(80)) - 40;
            break;
          default:
            imm = static_cast<int32_t>(rng.Below(1u << 24)) - (1 << 23);
            break;
        }
        const unsigned cond = static_cast<unsigned>(rng.Below(6));
        std::string mnem = std::string(op) + "i." + dt;
        if (std::string(op) == "cmp") mnem += std::string(".") + kConds[cond];
        m.Load(std::string(kPrologue) + "  " + mnem + " v6, v2, " + std::to_string(imm) +
               "\n  halt\n");
        m.Run();
        // The immediate is sign-extended to 64 bits and then treated like a register of type dt.
        const uint64_t b = static_cast<uint64_t>(int64_t{imm});
        ExpectLanes(
            m.At(32), 6, wide, n == 32 ? 0xffffffffu : (1u << n) - 1, n,
            [&](unsigned l) { return RefByType(sdt, op, cond, a[l], b); },
            mnem + " imm=" + std::to_string(imm));
      }
    }
  }
}

TEST(ModelAlu, WorkedNarrowExamples) {
  Machine m(8);
  m.Load(
      "  li v1, 0x1ff\n"             // low byte 0xff, garbage above
      "  andi.u8 v2, v1, -1\n"       // 0xff & 0xff = 0xff
      "  addi.i8 v3, v1, 1\n"        // -1 + 1 = 0
      "  addi.u8 v4, v1, 1\n"        // 255 + 1 = 256 -> 0x00
      "  shri.i8 v5, v1, 9\n"        // -1 >> (9 mod 8 = 1) = -1 -> 0xffffffff
      "  shri.u16 v6, v1, 17\n"      // 0x01ff >> 1 = 0xff
      "  cmpi.u8.gt v7, v1, -2\n"    // 255 > 254 -> 1
      "  cmpi.i8.gt v8, v1, -2\n"    // -1 > -2 -> 1
      "  cmpi.i16.lt v9, v1, 0\n"    // 511 < 0 -> 0
      "  li.u8 v10, -1\n"            // 0xff
      "  li.i16 v11, 0x8000\n"       // -32768 -> 0xffff8000
      "  lui v12, -1\n"              // 0xffffff00
      "  li.i64 v14, -2\n"           // pair {0xfffffffe, 0xffffffff}
      "  cmpi.i64.lt v16, v14, 0\n"  // pair {1, 0}
      "  halt\n");
  m.Run();
  auto v = [&](unsigned off) { return m.At(off).data_lo[3]; };
  EXPECT_EQ(v(8), 0xffu);
  EXPECT_EQ(v(16), 0u);
  EXPECT_EQ(v(24), 0u);
  EXPECT_EQ(v(32), 0xffffffffu);
  EXPECT_EQ(v(40), 0xffu);
  EXPECT_EQ(v(48), 1u);
  EXPECT_EQ(v(56), 1u);
  EXPECT_EQ(v(64), 0u);
  EXPECT_EQ(v(72), 0xffu);
  EXPECT_EQ(v(80), 0xffff8000u);
  EXPECT_EQ(v(88), 0xffffff00u);
  EXPECT_EQ(m.At(96).data_lo[0], 0xfffffffeu);
  EXPECT_EQ(m.At(96).data_hi[0], 0xffffffffu);
  EXPECT_TRUE(m.At(104).rd_pair);
  EXPECT_EQ(m.At(104).data_lo[5], 1u);
  EXPECT_EQ(m.At(104).data_hi[5], 0u);
}

TEST(ModelAlu, SelPicksPerLaneAtTheType) {
  Rng rng;
  SCOPED_TRACE(rng.Describe());
  const char* const types[] = {"i32", "u32", "i8", "u8", "i16", "u16", "i64", "u64", "f32"};
  for (const char* dt : types) {
    const std::string sdt = dt;
    const bool wide = sdt == "i64" || sdt == "u64";
    Machine m(16);
    uint64_t a[16], b[16];
    uint32_t c[16];
    for (unsigned l = 0; l < 16; ++l) {
      a[l] = RandomOperand(rng);
      b[l] = RandomOperand(rng);
      c[l] = rng.Below(2) ? 0u : rng.Next32() | 0x100u;  // non-zero above the low byte too
      m.mem.Store(kData + 8 * l, 8, a[l]);
      m.mem.Store(kData + 0x100 + 8 * l, 8, b[l]);
      m.mem.Store(kData + 0x200 + 4 * l, 4, c[l]);
    }
    m.Load(std::string(kPrologue) +
           "  lane v1\n  shli v1, v1, 2\n  ld v7, [v1 + 0x4200]\n"
           "  sel." +
           sdt + " v8, v7, v2, v4\n  halt\n");
    m.Run();
    ExpectLanes(
        m.At(56), 8, wide, 0xffff, 16,
        [&](unsigned l) {
          const uint64_t x = c[l] != 0 ? a[l] : b[l];
          if (sdt == "f32") return uint64_t{static_cast<uint32_t>(x)};
          return RefByType(sdt, "or", 0, x, 0);  // x extended per the type
        },
        "sel." + sdt);
  }
}

TEST(ModelAlu, ScalarDestinationAndBroadcast) {
  Machine m(8);
  m.params.args = {7, 5, 0, 0, 0, 0, 0, 0};  // s1 = 7, s2 = 5
  m.params.lanes = 3;
  m.Load(
      "  add s3, s1, s2\n"  // 12, scalar write (lane 0, mask 1)
      "  lane v1\n"
      "  mul v2, v1, s3\n"       // lanes 0..2: 0, 12, 24
      "  add zero, s1, s2\n"     // write to s0: no write reported
      "  mulh.u32 s4, s1, s2\n"  // 0
      "  halt\n");
  const Retire& end = m.Run();
  EXPECT_TRUE(end.halt);
  const Retire& r0 = m.At(0);
  EXPECT_TRUE(r0.rd_we);
  EXPECT_EQ(r0.rd, 32 + 3);
  EXPECT_EQ(r0.lane_mask, 1u);
  EXPECT_EQ(r0.data_lo[0], 12u);
  const Retire& r2 = m.At(16);
  EXPECT_EQ(r2.lane_mask, 0x7u);
  EXPECT_EQ(r2.data_lo[1], 12u);
  EXPECT_EQ(r2.data_lo[2], 24u);
  EXPECT_EQ(r2.data_lo[3], 0u);
  EXPECT_EQ(m.model.vreg(2, 3), 0u);  // inactive lanes keep their value
  EXPECT_FALSE(m.At(24).rd_we);
  EXPECT_EQ(m.model.sreg(0), 0u);
  EXPECT_EQ(m.model.sreg(3), 12u);
}

TEST(ModelAlu, MulhWorkedValues) {
  Machine m(8);
  m.Load(
      "  li v1, -1\n"
      "  li v2, 2\n"
      "  mulh v3, v1, v2\n"      // -1 * 2 = -2: high word 0xffffffff
      "  mulh.u32 v4, v1, v2\n"  // 0xffffffff * 2 = 0x1_fffffffe: high word 1
      "  li v5, 0x80000000\n"
      "  mulh v6, v5, v5\n"  // 2^62: high word 0x40000000
      "  halt\n");
  m.Run();
  EXPECT_EQ(m.At(16).data_lo[0], 0xffffffffu);
  EXPECT_EQ(m.At(24).data_lo[0], 1u);
  EXPECT_EQ(m.At(48).data_lo[7], 0x40000000u);
}

}  // namespace
}  // namespace test
}  // namespace sgu
