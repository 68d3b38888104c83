// SPDX-License-Identifier: Apache-2.0
// ld/st: sizes and extension, scalar and per-lane addressing, ordering, the access window and
// every memory trap, with expected values derived by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.h"

namespace sgu {
namespace test {
namespace {

TEST(ModelMem, LoadSizesAndExtension) {
  Machine m(8);
  const uint8_t bytes[16] = {0x81, 0x92, 0xa3, 0xb4, 0x05, 0x16, 0x27, 0x38,
                             0x49, 0x5a, 0x6b, 0x7c, 0x8d, 0x9e, 0xaf, 0xc0};
  for (unsigned i = 0; i < 16; ++i) m.mem.Store(kData + i, 1, bytes[i]);
  m.params.args[0] = kData;  // s1
  m.Load(
      "  ld.i8 v1, [s1]\n"       // 0x81 -> 0xffffff81
      "  ld.u8 v2, [s1 + 1]\n"   // 0x92
      "  ld.i16 v3, [s1 + 2]\n"  // 0xb4a3 -> 0xffffb4a3
      "  ld.u16 v4, [s1 + 2]\n"  // 0xb4a3
      "  ld v5, [s1 + 4]\n"      // 0x38271605
      "  ld.f32 v6, [s1 + 4]\n"
      "  ld.u64 v8, [s1 + 8]\n"  // {0x7c6b5a49, 0xc0af9e8d}
      "  ld s10, [s1 + 12]\n"    // scalar destination
      "  halt\n");
  ASSERT_TRUE(m.Run().halt);
  EXPECT_EQ(m.At(0).data_lo[7], 0xffffff81u);
  EXPECT_EQ(m.At(8).data_lo[7], 0x92u);
  EXPECT_EQ(m.At(16).data_lo[7], 0xffffb4a3u);
  EXPECT_EQ(m.At(24).data_lo[7], 0xb4a3u);
  EXPECT_EQ(m.At(32).data_lo[7], 0x38271605u);
  EXPECT_EQ(m.At(40).data_lo[7], 0x38271605u);
  EXPECT_TRUE(m.At(48).rd_pair);
  EXPECT_EQ(m.At(48).data_lo[7], 0x7c6b5a49u);
  EXPECT_EQ(m.At(48).data_hi[7], 0xc0af9e8du);
  EXPECT_EQ(m.At(56).lane_mask, 1u);
  EXPECT_EQ(m.model.sreg(10), 0xc0af9e8du);
}

TEST(ModelMem, GatherScatterInLaneOrder) {
  Machine m(8);
  m.params.lanes = 6;
  m.Load(
      "  lane v0\n"
      "  muli v1, v0, -4\n"  // addresses go down: base + 28 - 4*lane
      "  addi v2, v0, 100\n"
      "  st [v1 + 0x401c], v2\n"  // lanes 0..5 -> 0x401c, 0x4018, ..., 0x4008
      "  ld v3, [v1 + 0x401c]\n"
      "  li v4, 0\n"
      "  addi v5, v0, 7\n"
      "  st.u8 [v4 + 0x4100], v5\n"  // every lane the same byte: lane order, lane 5 last
      "  li s2, 0x4200\n"
      "  li s3, 0x1234\n"
      "  st.u16 [s2 + 2], s3\n"  // scalar address and data: one write
      "  halt\n");
  ASSERT_TRUE(m.Run().halt);
  const Retire& st = m.At(24);
  ASSERT_EQ(st.mem_writes.size(), 6u);
  for (unsigned l = 0; l < 6; ++l) {
    EXPECT_EQ(st.mem_writes[l].addr, 0x401cu - 4 * l);
    EXPECT_EQ(st.mem_writes[l].size, 4u);
    EXPECT_EQ(st.mem_writes[l].data, 100u + l);
  }
  EXPECT_EQ(m.Load32(0x4004), 0u);  // lane 6 inactive
  EXPECT_EQ(m.At(32).data_lo[5], 105u);
  const Retire& bytes = m.At(56);
  ASSERT_EQ(bytes.mem_writes.size(), 6u);
  EXPECT_EQ(bytes.mem_writes[5].data, 12u);
  EXPECT_EQ(m.mem.Load(0x4100, 1), 12u);
  const Retire& once = m.At(80);
  ASSERT_EQ(once.mem_writes.size(), 1u);
  EXPECT_EQ(once.mem_writes[0].addr, 0x4202u);
  EXPECT_EQ(once.mem_writes[0].size, 2u);
  EXPECT_EQ(once.mem_writes[0].data, 0x1234u);
  EXPECT_FALSE(once.rd_we);
}

TEST(ModelMem, Store64AndImmediateWraps) {
  Machine m(8);
  m.Load(
      "  li.i64 v2, -2\n"
      "  li s1, 0x4010\n"
      "  st.i64 [s1 - 8], v2\n"   // per lane (vector data) to the same address
      "  li s2, -16\n"            // 0xfffffff0
      "  ld s4, [s2 + 0x4010]\n"  // address wraps mod 2^32 to 0x4000
      "  halt\n");
  ASSERT_TRUE(m.Run().halt);
  const Retire& st = m.At(16);
  ASSERT_EQ(st.mem_writes.size(), 8u);
  EXPECT_EQ(st.mem_writes[0].addr, 0x4008u);
  EXPECT_EQ(st.mem_writes[0].size, 8u);
  EXPECT_EQ(st.mem_writes[0].data, 0xfffffffffffffffeull);
  EXPECT_EQ(m.mem.Load(0x4008, 8), 0xfffffffffffffffeull);
  EXPECT_EQ(m.model.sreg(4), 0u);
}

TEST(ModelMem, NoAccessWithoutActiveLanes) {
  Machine m(8);
  m.Load(
      "  split s0\n"
      "  li s1, 3\n"
      "  ld s2, [s1]\n"  // misaligned and would trap, but no lane is active
      "  st [s1], s1\n"
      "  join\n"
      "  halt\n");
  ASSERT_TRUE(m.Run().halt);
  EXPECT_FALSE(m.At(16).rd_we);
  EXPECT_TRUE(m.At(24).mem_writes.empty());
}

struct TrapCase {
  const char* name;
  std::string body;
  isa::Cause cause;
  uint32_t tval;
  std::vector<uint32_t> table = {};  // per-lane addresses at 0x5100 (lane l at 0x5100 + 4l)
  uint32_t limit = 0x10000;
};

// Loads per-lane addresses from the table into v1.
constexpr char kTable[] = "  lane v0\n  shli v0, v0, 2\n  ld v1, [v0 + 0x5100]\n";

TEST(ModelMem, Traps) {
  const TrapCase cases[] = {
      {"load misaligned", "  li v1, 0x4002\n  ld v2, [v1]\n", isa::Cause::kLoadMisaligned, 0x4002},
      {"store misaligned", "  li s1, 0x4001\n  st.i16 [s1], v0\n", isa::Cause::kStoreMisaligned,
       0x4001},
      {"access fault in an earlier lane than a misaligned one",
       std::string(kTable) + "  ld v2, [v1]\n",
       isa::Cause::kLoadAccess,
       0x100,
       {0x4000, 0x100, 0x4002, 0x4000, 0x4000, 0x4000, 0x4000, 0x4000}},
      {"misaligned in an earlier lane than an access fault",
       std::string(kTable) + "  st [v1 + 4], v0\n",
       isa::Cause::kStoreMisaligned,
       0x400a,
       {0x4000, 0x4006, 0x100, 0x4000, 0x4000, 0x4000, 0x4000, 0x4000}},
      {"load below base", "  li s1, 0x100\n  ld v2, [s1]\n", isa::Cause::kLoadAccess, 0x100},
      {"load at limit", "  li s1, 0xfffc\n  ld.i64 v2, [s1 + 4]\n", isa::Cause::kLoadAccess,
       0x10000},
      {"load crossing limit",
       "  li s1, 0xfff8\n  ld.i64 v2, [s1]\n",
       isa::Cause::kLoadAccess,
       0xfff8,
       {},
       0xfffc},
      {"store at limit", "  li s1, 0x10000\n  st [s1], v0\n", isa::Cause::kStoreAccess, 0x10000},
      {"wrapping address", "  li s1, -8\n  st.i64 [s1], v0\n", isa::Cause::kStoreAccess,
       0xfffffff8},
      {"load bus error (lowest lane)", "  lane v0\n  muli v1, v0, -4\n  ld v2, [v1 + 0x5000]\n",
       isa::Cause::kLoadBusError, 0x4ffc},
      {"inactive lanes are not checked",
       std::string(kTable) + "  cmpi.lt v3, v0, 8\n  split v3\n  ld v2, [v1]\n  join\n  trap 5\n",
       isa::Cause::kSwTrap,
       5,
       {0x4000, 0x4004, 0x3, 0x1, 0x1, 0x1, 0x1, 0x1}},
  };
  for (const TrapCase& c : cases) {
    SCOPED_TRACE(c.name);
    Machine m(8);
    m.params.mem_base = 0x200;
    m.params.mem_limit = c.limit;
    m.mem.AddErrorRange(0x4ff0, 0x4ffd);  // lanes 1..3 of the bus-error case
    for (size_t l = 0; l < c.table.size(); ++l)
      m.Store32(0x5100 + 4 * static_cast<uint32_t>(l), c.table[l]);
    m.Load(c.body + "  halt\n");
    const Retire& end = m.Run();
    ASSERT_TRUE(end.trap);
    EXPECT_EQ(end.cause, c.cause) << isa::CauseName(end.cause);
    EXPECT_EQ(end.tval, c.tval);
    EXPECT_FALSE(end.rd_we);
    EXPECT_TRUE(end.mem_writes.empty());
    EXPECT_FALSE(m.model.running());
    EXPECT_EQ(m.model.pc(), end.pc);
  }
}

TEST(ModelMem, AccessCheckUsesFullAddressRange) {
  Machine m(8);
  m.params.mem_base = 0;
  m.params.mem_limit = 0x10000;
  m.Load("  li s1, -4\n  ld v1, [s1]\n  halt\n");  // 0xfffffffc + 4 does not wrap to 0
  const Retire& end = m.Run();
  ASSERT_TRUE(end.trap);
  EXPECT_EQ(end.cause, isa::Cause::kLoadAccess);
  EXPECT_EQ(end.tval, 0xfffffffcu);
}

TEST(ModelMem, StoreBusErrorKeepsEarlierLanes) {
  Machine m(8);
  m.mem.AddErrorRange(0x400c, 0x4010);  // lane 3's word
  m.Load(
      "  lane v0\n"
      "  shli v1, v0, 2\n"
      "  addi v2, v0, 1\n"
      "  li s1, 77\n"
      "  st [v1 + 0x4000], v2\n"
      "  halt\n");
  const Retire& end = m.Run();
  ASSERT_TRUE(end.trap);
  EXPECT_EQ(end.cause, isa::Cause::kStoreBusError);
  EXPECT_EQ(end.tval, 0x400cu);
  ASSERT_EQ(end.mem_writes.size(), 3u);
  EXPECT_EQ(end.mem_writes[2].addr, 0x4008u);
  EXPECT_EQ(m.Load32(0x4000), 1u);
  EXPECT_EQ(m.Load32(0x4008), 3u);
  EXPECT_EQ(m.Load32(0x4010), 0u);  // lane 4 not written
}

TEST(ModelMem, BeyondMemoryIsBusError) {
  Machine m(8, 0x8000);
  m.params.mem_limit = 0x10000;  // window larger than the memory
  m.Load("  li s1, 0x9000\n  ld v1, [s1]\n  halt\n");
  const Retire& end = m.Run();
  ASSERT_TRUE(end.trap);
  EXPECT_EQ(end.cause, isa::Cause::kLoadBusError);
  EXPECT_EQ(end.tval, 0x9000u);
}

TEST(ModelMem, MemoryClass) {
  Memory mem(64);
  EXPECT_EQ(mem.size(), 64u);
  mem.Store(8, 8, 0x0807060504030201ull);
  EXPECT_EQ(mem.data()[8], 1);
  EXPECT_EQ(mem.data()[15], 8);
  EXPECT_EQ(mem.Load(9, 2), 0x0302u);
  EXPECT_FALSE(mem.IsError(56, 8));
  EXPECT_TRUE(mem.IsError(57, 8));
  EXPECT_TRUE(mem.IsError(0xfffffffcu, 8));
  mem.AddErrorRange(16, 20);
  EXPECT_TRUE(mem.IsError(12, 8));
  EXPECT_TRUE(mem.IsError(19, 1));
  EXPECT_FALSE(mem.IsError(20, 4));
  EXPECT_FALSE(mem.IsError(8, 8));
  EXPECT_THROW(mem.Load(60, 8), std::out_of_range);
}

}  // namespace
}  // namespace test
}  // namespace sgu
