// SPDX-License-Identifier: Apache-2.0
// Decoded-instruction accessors and the legality rules of docs/isa.md on crafted words.
#include "sgu/insn.h"

#include <gtest/gtest.h>

#include <string>

namespace sgu {
namespace {

using isa::Encode;
using isa::Fields;
using isa::Op;

constexpr unsigned kV = 0;   // v-register base
constexpr unsigned kS = 32;  // s-register base

uint8_t Opc(Op op) { return static_cast<uint8_t>(op); }

TEST(Insn, FieldAccessorsFollowTheWordLayout) {
  // imm 63:40, rs3 39:34, rs2 33:28, rs1 27:22, rd 21:16, mod 15:12, dt 11:8, opcode 7:0.
  const uint64_t w = (uint64_t{0xfffffe} << 40) | (uint64_t{0x2a} << 34) | (uint64_t{0x15} << 28) |
                     (uint64_t{0x3f} << 22) | (uint64_t{0x21} << 16) | (uint64_t{0x7} << 12) |
                     (uint64_t{0x3} << 8) | 0x50;
  const isa::Insn i(w);
  EXPECT_EQ(i.opcode(), 0x50);
  EXPECT_EQ(i.dt(), 3u);
  EXPECT_EQ(i.mod(), 7u);
  EXPECT_EQ(i.rd(), 0x21u);
  EXPECT_EQ(i.rs1(), 0x3fu);
  EXPECT_EQ(i.rs2(), 0x15u);
  EXPECT_EQ(i.rs3(), 0x2au);
  EXPECT_EQ(i.imm(), -2);
  EXPECT_EQ(i.imm_field(), 0xfffffeu);
  EXPECT_EQ(Encode(i.fields()), w);
  EXPECT_EQ(isa::Insn(Encode({0x2a, 0, 0, 1, 0, 0, 0, (1 << 23) - 1})).imm(), (1 << 23) - 1);
  EXPECT_EQ(isa::Insn(Encode({0x2a, 0, 0, 1, 0, 0, 0, -(1 << 23)})).imm(), -(1 << 23));
}

struct Case {
  const char* what;
  Fields f;
  bool legal;
  unsigned lanes = 32;
};

TEST(Insn, IllegalReasonOnCraftedWords) {
  const Case cases[] = {
      {"all-zero word", {0, 0, 0, 0, 0, 0, 0, 0}, false},
      {"reserved opcode 0x1d", {0x1d, 0, 0, 0, 0, 0, 0, 0}, false},
      {"nop", {Opc(Op::kNop), 0, 0, 0, 0, 0, 0, 0}, true},
      {"nop with dt", {Opc(Op::kNop), 1, 0, 0, 0, 0, 0, 0}, false},
      {"nop with rd", {Opc(Op::kNop), 0, 0, 1, 0, 0, 0, 0}, false},
      {"nop with imm", {Opc(Op::kNop), 0, 0, 0, 0, 0, 0, 1}, false},
      {"add with mod", {Opc(Op::kAdd), 0, 1, 1, 2, 3, 0, 0}, false},
      {"add with rs3", {Opc(Op::kAdd), 0, 0, 1, 2, 3, 4, 0}, false},
      {"add.f32", {Opc(Op::kAdd), 8, 0, 1, 2, 3, 0, 0}, false},
      {"add dt 9", {Opc(Op::kAdd), 9, 0, 1, 2, 3, 0, 0}, false},
      {"fadd.i32", {Opc(Op::kFadd), 0, 0, 1, 2, 3, 0, 0}, false},
      {"fadd.f32", {Opc(Op::kFadd), 8, 0, 1, 2, 3, 0, 0}, true},
      {"mulh.i8", {Opc(Op::kMulh), 2, 0, 1, 2, 3, 0, 0}, false},
      {"cmp mod 6", {Opc(Op::kCmp), 0, 6, 1, 2, 3, 0, 0}, false},
      {"fcmp uno", {Opc(Op::kFcmp), 8, 7, 1, 2, 3, 0, 0}, true},
      {"vote mod 3", {Opc(Op::kVote), 0, 3, 1, 2, 0, 0, 0}, false},
      // Scalar destination with vector sources.
      {"add s1, s2, v3", {Opc(Op::kAdd), 0, 0, kS + 1, kS + 2, kV + 3, 0, 0}, false},
      {"add s1, s2, s3", {Opc(Op::kAdd), 0, 0, kS + 1, kS + 2, kS + 3, 0, 0}, true},
      {"sel s1, v2, s3, s4", {Opc(Op::kSel), 0, 0, kS + 1, kV + 2, kS + 3, kS + 4, 0}, false},
      {"ffma s1, s2, s3, v4", {Opc(Op::kFfma), 8, 0, kS + 1, kS + 2, kS + 3, kV + 4, 0}, false},
      {"ld s1, [v2]", {Opc(Op::kLd), 0, 0, kS + 1, kV + 2, 0, 0, 0}, false},
      {"ld s1, [s2]", {Opc(Op::kLd), 0, 0, kS + 1, kS + 2, 0, 0, 0}, true},
      {"cvt s1, v2", {Opc(Op::kCvt), 8, 0, kS + 1, kV + 2, 0, 0, 0}, false},
      {"vote s1, v2", {Opc(Op::kVote), 0, 2, kS + 1, kV + 2, 0, 0, 0}, true},
      {"first s1, v2", {Opc(Op::kFirst), 0, 0, kS + 1, kV + 2, 0, 0, 0}, true},
      {"csrr s1", {Opc(Op::kCsrr), 0, 0, kS + 1, 0, 0, 0, 1}, true},
      {"lane s1", {Opc(Op::kLane), 0, 0, kS + 1, 0, 0, 0, 0}, false},
      {"shfl s1, s2, s3", {Opc(Op::kShfl), 0, 0, kS + 1, kS + 2, kS + 3, kS, 0}, false},
      {"st [v1], v2 (no rd)", {Opc(Op::kSt), 0, 0, 0, kV + 1, kV + 2, 0, 0}, true},
      {"st with rd", {Opc(Op::kSt), 0, 0, 5, kV + 1, kV + 2, 0, 0}, false},
      // Branch conditions.
      {"bz v1", {Opc(Op::kBz), 0, 0, 0, kV + 1, 0, 0, 3}, false},
      {"bz s1", {Opc(Op::kBz), 0, 0, 0, kS + 1, 0, 0, 3}, true},
      {"bnz s0", {Opc(Op::kBnz), 0, 0, 0, kS, 0, 0, -3}, true},
      // 64-bit operands: even and not s0.
      {"add.i64 v2, v4, v6", {Opc(Op::kAdd), 6, 0, 2, 4, 6, 0, 0}, true},
      {"add.i64 v3, v4, v6", {Opc(Op::kAdd), 6, 0, 3, 4, 6, 0, 0}, false},
      {"add.u64 v2, v5, v6", {Opc(Op::kAdd), 7, 0, 2, 5, 6, 0, 0}, false},
      {"add.i64 v2, v4, s0", {Opc(Op::kAdd), 6, 0, 2, 4, kS, 0, 0}, false},
      {"add.i64 v2, v4, s2", {Opc(Op::kAdd), 6, 0, 2, 4, kS + 2, 0, 0}, true},
      {"add.i64 v2, v4, s3", {Opc(Op::kAdd), 6, 0, 2, 4, kS + 3, 0, 0}, false},
      {"li.i64 v1", {Opc(Op::kLi), 6, 0, 1, 0, 0, 0, 5}, false},
      {"cmp.i64 v1 (result is a pair)", {Opc(Op::kCmp), 6, 0, 1, 2, 4, 0, 0}, false},
      {"ld.i64 v2, [v1] (address 32-bit)", {Opc(Op::kLd), 6, 0, 2, 1, 0, 0, 0}, true},
      {"ld.i64 v3, [v2]", {Opc(Op::kLd), 6, 0, 3, 2, 0, 0, 0}, false},
      {"st.i64 [v1], v2", {Opc(Op::kSt), 6, 0, 0, 1, 2, 0, 0}, true},
      {"st.i64 [v1], v3", {Opc(Op::kSt), 6, 0, 0, 1, 3, 0, 0}, false},
      {"sel.i64 v2, v1, v4, v6 (cond 32-bit)", {Opc(Op::kSel), 6, 0, 2, 1, 4, 6, 0}, true},
      {"sel.i64 v2, v1, v4, v7", {Opc(Op::kSel), 6, 0, 2, 1, 4, 7, 0}, false},
      {"sel.i64 v2, v1, s0, v6", {Opc(Op::kSel), 6, 0, 2, 1, kS, 6, 0}, false},
      {"first.i64 s2, v3", {Opc(Op::kFirst), 6, 0, kS + 2, 3, 0, 0, 0}, false},
      {"shl.i64 v2, v4, v5 (amount is 64-bit too)", {Opc(Op::kShl), 6, 0, 2, 4, 5, 0, 0}, false},
      // cvt: rd 64-bit iff dt is, rs1 iff mod is; no f32 <-> 64-bit.
      {"cvt.i64.i32 v2, v3", {Opc(Op::kCvt), 6, 0, 2, 3, 0, 0, 0}, true},
      {"cvt.i64.i32 v3, v2", {Opc(Op::kCvt), 6, 0, 3, 2, 0, 0, 0}, false},
      {"cvt.i32.u64 v3, v2", {Opc(Op::kCvt), 0, 7, 3, 2, 0, 0, 0}, true},
      {"cvt.i32.u64 v2, v3", {Opc(Op::kCvt), 0, 7, 2, 3, 0, 0, 0}, false},
      {"cvt.f32.i64", {Opc(Op::kCvt), 8, 6, 2, 2, 0, 0, 0}, false},
      {"cvt.u64.f32", {Opc(Op::kCvt), 7, 8, 2, 2, 0, 0, 0}, false},
      {"cvt.f32.f32", {Opc(Op::kCvt), 8, 8, 1, 2, 0, 0, 0}, true},
      {"cvt mod 9", {Opc(Op::kCvt), 0, 9, 1, 2, 0, 0, 0}, false},
      // csrr specials 0..3.
      {"csrr 3", {Opc(Op::kCsrr), 0, 0, 1, 0, 0, 0, 3}, true},
      {"csrr 4", {Opc(Op::kCsrr), 0, 0, 1, 0, 0, 0, 4}, false},
      {"csrr -1", {Opc(Op::kCsrr), 0, 0, 1, 0, 0, 0, -1}, false},
      // shfl group widths.
      {"shfl.idx imm 1", {Opc(Op::kShfl), 0, 0, 1, 2, 3, kS, 1}, false},
      {"shfl.down2 imm 0", {Opc(Op::kShfl), 0, 2, 1, 2, 3, 4, 0}, true},
      {"shfl.up2 imm 2", {Opc(Op::kShfl), 0, 3, 1, 2, 3, 4, 2}, false},
      {"shfl.xor.w32 at N=32", {Opc(Op::kShfl), 0, 1, 1, 2, 3, kS, 5}, true, 32},
      {"shfl.xor.w32 at N=16", {Opc(Op::kShfl), 0, 1, 1, 2, 3, kS, 5}, false, 16},
      {"shfl.up.w16 at N=16", {Opc(Op::kShfl), 0, 4, 1, 2, 3, kS, 4}, true, 16},
      {"shfl.rotdn.w16 at N=8", {Opc(Op::kShfl), 0, 7, 1, 2, 3, kS, 4}, false, 8},
      {"shfl.down.w8 at N=8", {Opc(Op::kShfl), 0, 5, 1, 2, 3, kS, 3}, true, 8},
      {"shfl.down imm 6", {Opc(Op::kShfl), 0, 5, 1, 2, 3, kS, 6}, false},
      {"shfl.down imm -1", {Opc(Op::kShfl), 0, 5, 1, 2, 3, kS, -1}, false},
      {"shfl dt u32", {Opc(Op::kShfl), 1, 0, 1, 2, 3, kS, 0}, false},
      // lui takes no type.
      {"lui.u32", {Opc(Op::kLui), 1, 0, 1, 0, 0, 0, 5}, false},
  };
  for (const Case& c : cases) {
    const uint64_t w = Encode(c.f);
    const std::optional<std::string> why = IllegalReason(w, c.lanes);
    EXPECT_EQ(!why.has_value(), c.legal) << c.what << (why ? ": " + *why : std::string());
  }
}

// CheckLegal names the first rule a word breaks (isa/sgu_isa.txt attributes, in isa::Rule order).
TEST(Insn, CheckLegalNamesTheRule) {
  const struct {
    Fields f;
    isa::Rule rule;
    unsigned lanes;
  } cases[] = {
      {{0x1d, 0, 0, 0, 0, 0, 0, 0}, isa::Rule::kOpcode, 32},
      {{Opc(Op::kFadd), 0, 0, 1, 2, 3, 0, 0}, isa::Rule::kDtype, 32},
      {{Opc(Op::kCmp), 0, 6, 1, 2, 3, 0, 0}, isa::Rule::kMod, 32},
      {{Opc(Op::kAdd), 0, 0, 1, 2, 3, 4, 0}, isa::Rule::kUnusedField, 32},
      {{Opc(Op::kCvt), 8, 7, 2, 2, 0, 0, 0}, isa::Rule::kForbiddenPair, 32},
      {{Opc(Op::kBnz), 0, 0, 0, kV + 4, 0, 0, 1}, isa::Rule::kRegKind, 32},
      {{Opc(Op::kLane), 0, 0, kS + 4, 0, 0, 0, 0}, isa::Rule::kRegKind, 32},
      {{Opc(Op::kSub), 0, 0, kS + 1, kS + 2, kV + 3, 0, 0}, isa::Rule::kScalarDestination, 32},
      {{Opc(Op::kLi), 7, 0, kS, 0, 0, 0, 1}, isa::Rule::kPair, 32},
      {{Opc(Op::kCsrr), 0, 0, 1, 0, 0, 0, isa::kNumSpecials}, isa::Rule::kImm, 32},
      {{Opc(Op::kShfl), 0, 6, 1, 2, 3, kS, 4}, isa::Rule::kImm, 8},
  };
  for (const auto& c : cases) {
    const std::optional<isa::Illegal> ill = isa::CheckLegal(Encode(c.f), c.lanes);
    ASSERT_TRUE(ill.has_value()) << isa::RuleName(c.rule);
    EXPECT_EQ(ill->rule, c.rule) << isa::RuleName(c.rule) << ": got " << isa::RuleName(ill->rule)
                                 << " (" << ill->reason << ")";
  }
}

TEST(Insn, PairOperands) {
  const isa::PairOperands p =
      isa::PairOperandsOf(isa::Insn(Encode({Opc(Op::kSel), 6, 0, 2, 1, 4, 6, 0})));
  EXPECT_TRUE(p.rd);
  EXPECT_FALSE(p.rs1);
  EXPECT_TRUE(p.rs2);
  EXPECT_TRUE(p.rs3);
  const isa::PairOperands q =
      isa::PairOperandsOf(isa::Insn(Encode({Opc(Op::kCvt), 0, 7, 3, 2, 0, 0, 0})));
  EXPECT_FALSE(q.rd);
  EXPECT_TRUE(q.rs1);
}

}  // namespace
}  // namespace sgu
