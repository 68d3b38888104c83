// SPDX-License-Identifier: Apache-2.0
// Execution mask and mask stack (split/else/join, mpush/mbrk loops), branches, votes, first,
// lane and csrr, with expected values derived by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.h"

namespace sgu {
namespace test {
namespace {

std::vector<uint32_t> VReg(const Machine& m, unsigned r) {
  std::vector<uint32_t> v;
  for (unsigned l = 0; l < m.n; ++l) v.push_back(m.model.vreg(r, l));
  return v;
}

// if (lane < 3) x = 1; else if (lane odd) x = 2; else x = 3;
TEST(ModelMask, NestedIfElse) {
  Machine m(8);
  m.Load(
      "  lane v0\n"
      "  cmpi.lt v1, v0, 3\n"
      "  split v1\n"  // exec = lanes 0..2
      "  li v2, 1\n"
      "  else\n"  // exec = lanes 3..7
      "  andi v3, v0, 1\n"
      "  split v3\n"  // exec = 3, 5, 7
      "  li v2, 2\n"
      "  else\n"  // exec = 4, 6
      "  li v2, 3\n"
      "  join\n"
      "  join\n"
      "  halt\n");
  const Retire& end = m.Run();
  ASSERT_TRUE(end.halt);
  EXPECT_EQ(VReg(m, 2), (std::vector<uint32_t>{1, 1, 1, 2, 3, 2, 3, 2}));
  EXPECT_EQ(m.At(16).exec, 0x07u);
  EXPECT_EQ(m.At(32).exec, 0xf8u);
  EXPECT_EQ(m.At(48).exec, 0xa8u);
  EXPECT_EQ(m.At(56).lane_mask, 0xa8u);
  EXPECT_EQ(m.At(64).exec, 0x50u);
  EXPECT_EQ(m.At(80).exec, 0xf8u);
  EXPECT_EQ(m.At(88).exec, 0xffu);
  EXPECT_EQ(m.model.mask_depth(), 0u);
}

// An empty side is skipped with bexz; a vector write with exec == 0 writes nothing.
TEST(ModelMask, BexzSkipsEmptySide) {
  Machine m(8);
  m.Load(
      "  li v1, 1\n"
      "  split v1\n"  // all lanes take the then side
      "  li v2, 5\n"
      "  else\n"    // exec = 0
      "  bexz 2\n"  // skip the next instruction
      "  li v2, 6\n"
      "  join\n"
      "  li v3, 9\n"
      "  else\n"  // outside any split: underflow
      "  halt\n");
  const Retire& end = m.Run();
  EXPECT_EQ(m.At(24).exec, 0u);
  EXPECT_EQ(m.trace.size(), 8u);  // li, split, li, else, bexz, join, li, else(trap)
  EXPECT_EQ(m.trace[5].pc, kCode + 48);
  EXPECT_EQ(VReg(m, 2), std::vector<uint32_t>(8, 5));
  EXPECT_TRUE(end.trap);
  EXPECT_EQ(end.cause, isa::Cause::kMaskUnderflow);
  EXPECT_EQ(end.tval, 0u);
}

TEST(ModelMask, VectorWriteWithNoActiveLaneIsNoWrite) {
  Machine m(8);
  m.Load("  split s0\n  li v1, 3\n  lane v2\n  first s1, v2\n  join\n  halt\n");
  m.Run();
  EXPECT_EQ(m.At(0).exec, 0u);
  EXPECT_FALSE(m.At(8).rd_we);
  EXPECT_EQ(m.At(8).lane_mask, 0u);
  EXPECT_FALSE(m.At(16).rd_we);
  // first with no active lane: 0, and a scalar destination is always written.
  EXPECT_TRUE(m.At(24).rd_we);
  EXPECT_EQ(m.At(24).rd, 33);
  EXPECT_EQ(m.At(24).data_lo[0], 0u);
  EXPECT_EQ(m.At(32).exec, 0xffu);
}

// for (i = 0; i < lane + 1; ++i) sum += i  -> sum = lane * (lane + 1) / 2, lanes leave the loop
// at different trips through mbrk; the loop ends when exec is empty.
TEST(ModelMask, LoopWithMbrk) {
  Machine m(16);
  m.Load(
      "  lane v0\n"
      "  li v1, 0\n"  // i
      "  li v2, 0\n"  // sum
      "  mpush\n"
      "head:\n"
      "  cmp.gt v3, v1, v0\n"  // i > lane: leave
      "  mbrk v3\n"
      "  bexz done\n"
      "  add v2, v2, v1\n"
      "  addi v1, v1, 1\n"
      "  bexnz head\n"
      "done:\n"
      "  join\n"
      "  halt\n");
  const Retire& end = m.Run();
  ASSERT_TRUE(end.halt);
  std::vector<uint32_t> want;
  for (uint32_t l = 0; l < 16; ++l) want.push_back(l * (l + 1) / 2);
  EXPECT_EQ(VReg(m, 2), want);
  EXPECT_EQ(m.model.exec(), 0xffffu);
  EXPECT_EQ(m.model.mask_depth(), 0u);
}

TEST(ModelMask, UniformBranches) {
  Machine m(8);
  m.params.args[0] = 4;  // s1 = loop count
  m.Load(
      "  li s2, 0\n"
      "loop:\n"
      "  addi s2, s2, 10\n"
      "  addi s1, s1, -1\n"
      "  bnz s1, loop\n"
      "  bz s1, skip\n"
      "  trap 1\n"
      "skip:\n"
      "  br end\n"
      "  trap 2\n"
      "end:\n"
      "  j fin\n"
      "  trap 3\n"
      "fin: halt\n");
  const Retire& end = m.Run();
  ASSERT_TRUE(end.halt) << isa::CauseName(end.cause);
  EXPECT_EQ(m.model.sreg(2), 40u);
  EXPECT_EQ(end.pc, kCode + 8 * 10);
  EXPECT_EQ(m.model.pc(), kCode + 8 * 10);
}

TEST(ModelMask, VotesFirstLaneCsrr) {
  Machine m(16);
  m.params.lanes = 12;
  m.Load(
      "  lane v0\n"
      "  andi v1, v0, 1\n"      // odd lanes
      "  vote.any s1, v1\n"     // 1
      "  vote.all s2, v1\n"     // 0
      "  vote.ballot s3, v1\n"  // odd lanes among 0..11: 0xaaa
      "  cmpi.lt v2, v0, 20\n"
      "  vote.all s4, v2\n"     // 1
      "  vote.ballot v3, v1\n"  // vector destination: uniform value in active lanes
      "  split v1\n"
      "  first s5, v0\n"     // lowest active lane: 1
      "  vote.all s6, s0\n"  // no active lane has rs1 != 0 but some are active: 0
      "  csrr s7, Exec\n"    // 0xaaa
      "  join\n"
      "  csrr s8, NumLanes\n"
      "  csrr s9, LaunchMask\n"
      "  csrr s10, LaunchSize\n"
      "  csrr v4, 3\n"
      "  li v5, 0\n"
      "  split v5\n"
      "  vote.all s11, v1\n"  // no active lane: 1
      "  vote.any s12, v0\n"  // no active lane: 0
      "  join\n"
      "  halt\n");
  ASSERT_TRUE(m.Run().halt);
  EXPECT_EQ(m.model.sreg(1), 1u);
  EXPECT_EQ(m.model.sreg(2), 0u);
  EXPECT_EQ(m.model.sreg(3), 0xaaau);
  EXPECT_EQ(m.model.sreg(4), 1u);
  EXPECT_EQ(m.At(56).lane_mask, 0xfffu);
  EXPECT_EQ(m.At(56).data_lo[11], 0xaaau);
  EXPECT_EQ(m.At(56).data_lo[12], 0u);
  EXPECT_EQ(m.model.sreg(5), 1u);
  EXPECT_EQ(m.model.sreg(6), 0u);
  EXPECT_EQ(m.model.sreg(7), 0xaaau);
  EXPECT_EQ(m.model.sreg(8), 16u);
  EXPECT_EQ(m.model.sreg(9), 0xfffu);
  EXPECT_EQ(m.model.sreg(10), 12u);
  EXPECT_EQ(m.model.vreg(4, 11), 12u);
  EXPECT_EQ(m.model.vreg(4, 12), 0u);
  EXPECT_EQ(m.model.sreg(11), 1u);
  EXPECT_EQ(m.model.sreg(12), 0u);
}

TEST(ModelMask, FirstOf64BitAndNarrow) {
  Machine m(8);
  m.params.lanes = 0;
  m.Load(
      "  lane v0\n"
      "  addi v2, v0, -3\n"  // lane 3: 0
      "  li.i64 v4, -7\n"
      "  cmpi.ge v6, v0, 3\n"
      "  split v6\n"          // lanes 3..7
      "  first.i64 s2, v4\n"  // pair {0xfffffff9, 0xffffffff}
      "  first.u8 v7, v2\n"   // lane 3: 0
      "  join\n"
      "  halt\n");
  ASSERT_TRUE(m.Run().halt);
  EXPECT_TRUE(m.At(40).rd_pair);
  EXPECT_EQ(m.At(40).rd, 34);
  EXPECT_EQ(m.model.sreg(2), 0xfffffff9u);
  EXPECT_EQ(m.model.sreg(3), 0xffffffffu);
  EXPECT_EQ(m.At(48).lane_mask, 0xf8u);
  EXPECT_EQ(m.At(48).data_lo[4], 0u);
}

TEST(ModelMask, LanesRegister) {
  for (unsigned n : {8u, 16u, 32u}) {
    for (uint32_t lanes : {0u, 1u, 5u, n, n + 1, 100u}) {
      Machine m(n);
      m.params.lanes = lanes;
      m.Load("  csrr s1, LaunchSize\n  halt\n");
      m.Run();
      const uint32_t k = (lanes == 0 || lanes > n) ? n : lanes;
      EXPECT_EQ(m.model.sreg(1), k);
      EXPECT_EQ(m.model.exec(), k == 32 ? 0xffffffffu : (1u << k) - 1);
    }
  }
}

TEST(ModelMask, StartResetsState) {
  Machine m(8);
  m.params.args = {1, 2, 3, 4, 5, 6, 7, 8};
  m.Load("  lane v5\n  li s9, 9\n  mpush\n  halt\n");
  m.Run();
  EXPECT_EQ(m.model.mask_depth(), 1u);
  m.params.args = {};
  m.LoadWords(Assemble("  halt\n").words);
  m.Run();
  EXPECT_EQ(m.model.mask_depth(), 0u);
  EXPECT_EQ(m.model.vreg(5, 7), 0u);
  for (unsigned r = 0; r < 32; ++r) EXPECT_EQ(m.model.sreg(r), 0u) << r;
  EXPECT_EQ(m.model.instret(), 1u);
}

}  // namespace
}  // namespace test
}  // namespace sgu
