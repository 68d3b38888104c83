// SPDX-License-Identifier: Apache-2.0
// The compiler's post-allocation scheduler (sw/compiler/schedule.cc): its latency table against
// the core's hazard rules, which instructions are barriers, hand-made regions whose best order
// is known, and random programs: every reordering keeps barriers in place and every pair of
// instructions that share a register (pairs, partial definitions, s0 aside) in order, checked by
// a dependence test written here, and the scheduled program leaves the golden model in the
// same state as the original at SIMD 8, 16 and 32 with partial launches.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "mir.h"
#include "sgu/insn.h"
#include "sgu/model.h"
#include "test_util.h"

namespace sgu::compiler {
namespace {

using isa::Op;

constexpr unsigned kI32 = static_cast<unsigned>(isa::Dtype::kI32);
constexpr unsigned kU32 = static_cast<unsigned>(isa::Dtype::kU32);
constexpr unsigned kI64 = static_cast<unsigned>(isa::Dtype::kI64);
constexpr unsigned kF32 = static_cast<unsigned>(isa::Dtype::kF32);
constexpr int kNo = -1;
constexpr unsigned V(unsigned r) { return r; }
constexpr unsigned S(unsigned r) { return 32 + r; }

// One machine instruction over physical registers (kNo: field unused).
MInsn I(Op op, unsigned dt, int rd, int rs1 = kNo, int rs2 = kNo, int rs3 = kNo, int32_t imm = 0,
        unsigned mod = 0) {
  MInsn mi;
  mi.op = op;
  mi.dt = dt;
  mi.mod = mod;
  auto reg = [](int r) { return r < 0 ? Opnd{} : Opnd::Phys(static_cast<unsigned>(r)); };
  mi.rd = reg(rd);
  mi.rs1 = reg(rs1);
  mi.rs2 = reg(rs2);
  mi.rs3 = reg(rs3);
  mi.imm = imm;
  return mi;
}

MInsn Label(int id) {
  MInsn mi;
  mi.label = id;
  return mi;
}

// A function of one block; each instruction's `line` is its position, to follow it.
MFunction OneBlock(std::vector<MInsn> insns) {
  MFunction f;
  f.blocks.emplace_back();
  for (size_t i = 0; i < insns.size(); ++i) insns[i].line = static_cast<uint32_t>(i);
  f.blocks[0].insns = std::move(insns);
  return f;
}

std::vector<uint32_t> Order(const MFunction& f) {
  std::vector<uint32_t> o;
  for (const MBlock& b : f.blocks) {
    for (const MInsn& mi : b.insns) o.push_back(mi.line);
  }
  return o;
}

// ---- the dependence test of these tests (independent of the scheduler's graph) --------------

struct Access {
  uint64_t reads = 0, writes = 0;
};

uint64_t Bits(unsigned r, bool pair) {
  uint64_t b = 0;
  if (r != S(0)) b |= uint64_t{1} << r;
  if (pair) b |= uint64_t{1} << (r + 1);
  return b;
}

// The registers mi reads and writes, from the ISA's operand table: a pair covers r and r+1, s0
// is no register, a partial definition reads its destination.
Access AccessOf(const MInsn& mi) {
  Access a;
  if (mi.is_label()) return a;
  const isa::InsnInfo* info = isa::LookupOpcode(static_cast<uint8_t>(mi.op));
  auto r = [](const Opnd& o) { return o.none() ? 0u : static_cast<unsigned>(o.idx); };
  isa::Fields fl{static_cast<uint8_t>(mi.op), mi.dt, mi.mod, r(mi.rd), r(mi.rs1), r(mi.rs2),
                 r(mi.rs3), 0};
  const isa::PairOperands p = isa::PairOperandsOf(isa::Insn(isa::Encode(fl)));
  if (info->uses & isa::kUseRs1) a.reads |= Bits(fl.rs1, p.rs1);
  if (info->uses & isa::kUseRs2) a.reads |= Bits(fl.rs2, p.rs2);
  if (info->uses & isa::kUseRs3) a.reads |= Bits(fl.rs3, p.rs3);
  if (info->uses & isa::kUseRd) a.writes |= Bits(fl.rd, p.rd);
  if (mi.rd_partial) a.reads |= a.writes;
  return a;
}

bool Conflict(const MInsn& x, const MInsn& y) {
  const Access a = AccessOf(x), b = AccessOf(y);
  return (a.writes & (b.reads | b.writes)) != 0 || (a.reads & b.writes) != 0;
}

// `after` is a reordering of `before` (instructions identified by `line`) that keeps every
// barrier where it was, moves nothing across one, and keeps the order of conflicting pairs.
void ExpectLegalReorder(const MFunction& before, const MFunction& after) {
  ASSERT_EQ(before.blocks.size(), after.blocks.size());
  for (size_t bi = 0; bi < before.blocks.size(); ++bi) {
    const std::vector<MInsn>& x = before.blocks[bi].insns;
    const std::vector<MInsn>& y = after.blocks[bi].insns;
    ASSERT_EQ(x.size(), y.size()) << "block " << bi;
    std::map<uint32_t, size_t> pos;  // line -> position after
    for (size_t i = 0; i < y.size(); ++i) pos[y[i].line] = i;
    ASSERT_EQ(pos.size(), y.size()) << "block " << bi << ": duplicated instructions";
    // Region number of each original position (barriers have their own).
    std::vector<int> region(x.size());
    int reg = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      ASSERT_TRUE(pos.count(x[i].line)) << "block " << bi << ": lost line " << x[i].line;
      if (IsSchedulingBarrier(x[i])) {
        EXPECT_EQ(pos[x[i].line], i) << "block " << bi << ": barrier moved from " << i;
        region[i] = ++reg;
        ++reg;
      } else {
        region[i] = reg;
      }
    }
    for (size_t i = 0; i < x.size(); ++i) {
      // Everything stays between the barriers it was between.
      const size_t p = pos[x[i].line];
      EXPECT_EQ(region[p], region[i]) << "block " << bi << ": line " << x[i].line
                                      << " crossed a barrier";
      for (size_t j = i + 1; j < x.size(); ++j) {
        if (Conflict(x[i], x[j])) {
          EXPECT_LT(pos[x[i].line], pos[x[j].line])
              << "block " << bi << ": lines " << x[i].line << " and " << x[j].line
              << " share a register and were swapped";
        }
      }
    }
  }
}

// ---- latencies -------------------------------------------------------------------------------

// The distances of docs/architecture.md "Pipeline" (sgu_core hz, xf_stall, rs3's re-read), on a
// core without the distance-1 forward.
TEST(ScheduleLatency, ShortResults) {
  const MInsn add = I(Op::kAdd, kU32, V(3), V(1), V(2));
  // Read as rs1 or rs2: the distance-2 forward.
  EXPECT_EQ(SchedulingLatency(add, I(Op::kAddi, kU32, V(4), V(3))), 2);
  EXPECT_EQ(SchedulingLatency(add, I(Op::kSub, kU32, V(4), V(0), V(3))), 2);
  // sel's condition: the nonzero flag, from the row or the distance-2 forward.
  EXPECT_EQ(SchedulingLatency(add, I(Op::kSel, kU32, V(4), V(3), V(0), V(1))), 2);
  // As rs3 (no forward, no bypass): the RAM read after the write, one edge after L2.
  EXPECT_EQ(SchedulingLatency(add, I(Op::kSel, kU32, V(4), V(0), V(1), V(3))), 4);
  EXPECT_EQ(SchedulingLatency(add, I(Op::kFfma, kF32, V(4), V(0), V(1), V(3))), 4);
  // Nothing shared.
  EXPECT_EQ(SchedulingLatency(add, I(Op::kAddi, kU32, V(5), V(4))), 1);
  EXPECT_EQ(SchedulingLatency(add, I(Op::kAddi, kU32, V(3), V(4))), 1);  // WAW, short
  // s0 is no register.
  EXPECT_EQ(SchedulingLatency(I(Op::kAddi, kU32, S(0), S(3), kNo, kNo, 1),
                              I(Op::kAddi, kU32, S(4), S(0), kNo, kNo, 1)),
            1);
}

TEST(ScheduleLatency, LateAndFarResults) {
  // A compare (the lane's late result): distance 2. A shift is made in L2 and not forwarded
  // (l2_far): 3.
  EXPECT_EQ(SchedulingLatency(I(Op::kCmp, kU32, V(3), V(1), V(2)), I(Op::kAddi, kU32, V(4), V(3))),
            2);
  EXPECT_EQ(SchedulingLatency(I(Op::kShli, kU32, V(3), V(1), kNo, kNo, 3),
                              I(Op::kAddi, kU32, V(4), V(3))),
            3);
  // ... and neither is sel's flag from it: 3.
  EXPECT_EQ(SchedulingLatency(I(Op::kShli, kU32, V(3), V(1), kNo, kNo, 3),
                              I(Op::kSel, kU32, V(4), V(3), V(0), V(1))),
            3);
  EXPECT_EQ(SchedulingLatency(I(Op::kCmp, kU32, V(3), V(1), V(2)),
                              I(Op::kSel, kU32, V(4), V(3), V(0), V(1))),
            2);
  // A shuffle's result, a vote's and csrr's are not forwarded at all: 3.
  const MInsn shfl = I(Op::kShfl, kI32, V(3), V(1), S(3), S(0), 0,
                       static_cast<unsigned>(isa::ModShfl::kXor));
  EXPECT_EQ(SchedulingLatency(shfl, I(Op::kAddi, kU32, V(4), V(3))), 3);
  EXPECT_EQ(SchedulingLatency(I(Op::kVote, kI32, S(3), V(1)), I(Op::kAddi, kU32, S(4), S(3))), 3);
  EXPECT_EQ(SchedulingLatency(I(Op::kCsrr, kI32, S(3), kNo, kNo, kNo, 0),
                              I(Op::kAddi, kU32, S(4), S(3))),
            3);
  // A one-pass down2's scalar delta (rs2's big flag).
  const MInsn down2 = I(Op::kShfl, kI32, V(5), V(1), S(3), V(2), 0,
                        static_cast<unsigned>(isa::ModShfl::kDown2));
  EXPECT_EQ(SchedulingLatency(I(Op::kLi, kI32, S(3), kNo, kNo, kNo, 1), down2), 2);
  EXPECT_EQ(SchedulingLatency(I(Op::kShli, kU32, S(3), S(4), kNo, kNo, 1), down2), 3);
}

TEST(ScheduleLatency, LongResults) {
  const MInsn fmul = I(Op::kFmul, kF32, V(3), V(1), V(2));
  // Written at the end of L7: readers wait while it is in X .. L7.
  EXPECT_EQ(SchedulingLatency(fmul, I(Op::kFadd, kF32, V(4), V(3), V(0))), 8);
  EXPECT_EQ(SchedulingLatency(fmul, I(Op::kAddi, kU32, V(4), V(3))), 8);
  EXPECT_EQ(SchedulingLatency(fmul, I(Op::kFfma, kF32, V(4), V(0), V(1), V(3))), 9);
  // A short writer of the same register waits until the long one is past L4 (WAW).
  EXPECT_EQ(SchedulingLatency(fmul, I(Op::kLi, kI32, V(3), kNo, kNo, kNo, 1)), 5);
  // A long writer of it does not (the same pipe).
  EXPECT_EQ(SchedulingLatency(fmul, I(Op::kFmul, kF32, V(3), V(0), V(0))), 1);
  // 64-bit adds and shifts are long; a 32-bit multiply too.
  EXPECT_EQ(SchedulingLatency(I(Op::kAdd, kI64, V(4), V(0), V(2)),
                              I(Op::kAddi, kU32, V(6), V(5))),
            8);
  EXPECT_EQ(SchedulingLatency(I(Op::kMuli, kU32, V(3), V(1), kNo, kNo, 3),
                              I(Op::kAddi, kU32, V(4), V(3))),
            8);
}

TEST(ScheduleLatency, PairsAndHalves) {
  // A 64-bit short result: its low word is forwarded, its high word and the pair read as a
  // pair are not (distance 3, from the register file's bypass).
  const MInsn li64 = I(Op::kLi, kI64, V(4), kNo, kNo, kNo, 7);
  EXPECT_EQ(SchedulingLatency(li64, I(Op::kAddi, kU32, V(6), V(4))), 2);
  EXPECT_EQ(SchedulingLatency(li64, I(Op::kAddi, kU32, V(6), V(5))), 3);
  EXPECT_EQ(SchedulingLatency(li64, I(Op::kSel, kI64, V(6), V(0), V(4), V(8))), 3);
  // A 32-bit write of a pair's high half, then the pair read.
  EXPECT_EQ(SchedulingLatency(I(Op::kLi, kI32, V(5), kNo, kNo, kNo, 7),
                              I(Op::kSel, kI64, V(6), V(0), V(4), V(8))),
            3);
}

// ---- barriers --------------------------------------------------------------------------------

TEST(ScheduleBarrier, WhatMayMove) {
  // Pure register operations move.
  for (const MInsn& mi :
       {I(Op::kAdd, kU32, V(1), V(2), V(3)), I(Op::kAddi, kU32, V(1), V(2)),
        I(Op::kLi, kI64, V(2)), I(Op::kLui, kI32, S(3)), I(Op::kSel, kU32, V(1), V(2), V(3), V(4)),
        I(Op::kFfma, kF32, V(1), V(2), V(3), V(4)), I(Op::kCmpi, kU32, V(1), V(2), kNo, kNo, 3),
        I(Op::kShfl, kI32, V(1), V(2), S(3), S(0)), I(Op::kMul, kI64, V(2), V(4), V(6))}) {
    EXPECT_FALSE(IsSchedulingBarrier(mi)) << isa::LookupOpcode(static_cast<uint8_t>(mi.op))->name;
  }
  // Control flow, the mask and its stack, memory, uniform values from the machine state,
  // labels: never.
  for (const MInsn& mi :
       {I(Op::kNop, kI32, kNo), I(Op::kHalt, kI32, kNo), I(Op::kTrap, kI32, kNo),
        I(Op::kBr, kI32, kNo), I(Op::kBz, kI32, kNo, S(3)), I(Op::kBnz, kI32, kNo, S(3)),
        I(Op::kBexz, kI32, kNo), I(Op::kBexnz, kI32, kNo), I(Op::kSplit, kI32, kNo, V(1)),
        I(Op::kElse, kI32, kNo), I(Op::kJoin, kI32, kNo), I(Op::kMpush, kI32, kNo),
        I(Op::kMbrk, kI32, kNo, V(1)), I(Op::kLd, kU32, V(1), S(3)),
        I(Op::kSt, kU32, kNo, S(3), V(1)), I(Op::kCsrr, kI32, S(3)), I(Op::kVote, kI32, S(3), V(1)),
        I(Op::kFirst, kU32, S(3), V(1)), I(Op::kLane, kI32, V(1)), Label(0)}) {
    EXPECT_TRUE(IsSchedulingBarrier(mi))
        << (mi.is_label() ? "label" : isa::LookupOpcode(static_cast<uint8_t>(mi.op))->name);
  }
  // A branch by its target, an unallocated operand: never.
  MInsn br = I(Op::kAdd, kU32, V(1), V(2), V(3));
  br.target = 0;
  EXPECT_TRUE(IsSchedulingBarrier(br));
  MInsn virt = I(Op::kAdd, kU32, V(1), V(2), V(3));
  virt.rs1 = Opnd::Virt(7);
  EXPECT_TRUE(IsSchedulingBarrier(virt));
}

// ---- hand-made regions -----------------------------------------------------------------------

// A multiply's reader waits for independent work to fill its latency.
TEST(ScheduleRegion, FillsALongLatency) {
  MFunction f = OneBlock({I(Op::kFmul, kF32, V(2), V(0), V(1)),        // 0
                          I(Op::kFadd, kF32, V(3), V(2), V(0)),        // 1 reads 0
                          I(Op::kAddi, kU32, V(4), V(0), kNo, kNo, 1),  // 2
                          I(Op::kAddi, kU32, V(5), V(1), kNo, kNo, 2),  // 3
                          I(Op::kXori, kU32, V(6), V(0), kNo, kNo, 3)});  // 4
  const MFunction before = f;
  ScheduleInstructions(f);
  EXPECT_EQ(Order(f), (std::vector<uint32_t>{0, 2, 3, 4, 1}));
  ExpectLegalReorder(before, f);
  EXPECT_LT(ModelCycles(f.blocks[0].insns), ModelCycles(before.blocks[0].insns));
}

// Two dependent chains interleave.
TEST(ScheduleRegion, InterleavesChains) {
  MFunction f = OneBlock({I(Op::kAddi, kU32, V(2), V(0), kNo, kNo, 1),   // 0
                          I(Op::kAddi, kU32, V(2), V(2), kNo, kNo, 1),   // 1
                          I(Op::kAddi, kU32, V(2), V(2), kNo, kNo, 1),   // 2
                          I(Op::kAddi, kU32, V(3), V(1), kNo, kNo, 1),   // 3
                          I(Op::kAddi, kU32, V(3), V(3), kNo, kNo, 1),   // 4
                          I(Op::kAddi, kU32, V(3), V(3), kNo, kNo, 1)});  // 5
  const MFunction before = f;
  ScheduleInstructions(f);
  EXPECT_EQ(Order(f), (std::vector<uint32_t>{0, 3, 1, 4, 2, 5}));
  ExpectLegalReorder(before, f);
}

// Nothing crosses a barrier, even when it would fill a latency.
TEST(ScheduleRegion, BarriersStay) {
  for (const MInsn& barrier :
       {I(Op::kSt, kU32, kNo, S(3), V(7)), I(Op::kSplit, kI32, kNo, V(7)), I(Op::kJoin, kI32, kNo),
        I(Op::kVote, kI32, S(5), V(7)), I(Op::kCsrr, kI32, S(5)), Label(3),
        I(Op::kLd, kU32, V(9), S(3))}) {
    MFunction f = OneBlock({I(Op::kFmul, kF32, V(2), V(0), V(1)),  // 0
                            I(Op::kFadd, kF32, V(3), V(2), V(0)),  // 1
                            barrier,                               // 2
                            I(Op::kAddi, kU32, V(4), V(0), kNo, kNo, 1),
                            I(Op::kAddi, kU32, V(5), V(1), kNo, kNo, 2)});
    const MFunction before = f;
    ScheduleInstructions(f);
    EXPECT_EQ(Order(f), (std::vector<uint32_t>{0, 1, 2, 3, 4}));
    ExpectLegalReorder(before, f);
  }
}

// The halves of a pair are registers of their own: a reader of the high half follows the pair's
// writer (RAW), a pair's writer follows the reader of its high half (WAR) and the earlier writer
// of it (WAW).
TEST(ScheduleRegion, PairHalves) {
  const MInsn fmul = I(Op::kFmul, kF32, V(2), V(0), V(1));
  const MInsn fadd = I(Op::kFadd, kF32, V(3), V(2), V(0));
  const MInsn li64 = I(Op::kLi, kI64, V(4), kNo, kNo, kNo, 7);
  {
    MFunction f = OneBlock({fmul, fadd, li64, I(Op::kAddi, kU32, V(6), V(5), kNo, kNo, 1)});
    const MFunction before = f;
    ScheduleInstructions(f);
    EXPECT_EQ(Order(f), (std::vector<uint32_t>{0, 2, 3, 1}));
    ExpectLegalReorder(before, f);
  }
  {
    MFunction f = OneBlock({fmul, fadd, I(Op::kAddi, kU32, V(6), V(5), kNo, kNo, 1), li64});
    const MFunction before = f;
    ScheduleInstructions(f);
    EXPECT_EQ(Order(f), (std::vector<uint32_t>{0, 2, 3, 1}));
    ExpectLegalReorder(before, f);
  }
  {
    MFunction f = OneBlock({fmul, fadd, I(Op::kLi, kI32, V(5), kNo, kNo, kNo, 1), li64,
                            I(Op::kAddi, kU32, V(7), V(5), kNo, kNo, 1)});
    const MFunction before = f;
    ScheduleInstructions(f);
    ExpectLegalReorder(before, f);
    const std::vector<uint32_t> o = Order(f);
    EXPECT_EQ(o.front(), 0u);
    EXPECT_EQ(o.back(), 1u);
  }
}

// A partial definition (rd_partial: the sel-based copies of conditional phi edges) reads its
// destination: an earlier reader or writer of it keeps its place before it, a later reader
// after it.
TEST(ScheduleRegion, PartialDefinitions) {
  MInsn partial = I(Op::kSel, kU32, V(6), V(7), V(8), V(6));
  partial.rd_partial = true;
  MInsn partial_li = I(Op::kLi, kI32, V(6), kNo, kNo, kNo, 5);  // rd is not among its fields
  partial_li.rd_partial = true;
  for (const MInsn& p : {partial, partial_li}) {
    MFunction f = OneBlock({I(Op::kFmul, kF32, V(2), V(0), V(1)),
                            I(Op::kFadd, kF32, V(3), V(2), V(0)),
                            I(Op::kAddi, kU32, V(6), V(1), kNo, kNo, 1),  // writes rd
                            I(Op::kAddi, kU32, V(9), V(6), kNo, kNo, 1),  // reads rd
                            p,
                            I(Op::kAddi, kU32, V(10), V(6), kNo, kNo, 1)});  // reads the result
    const MFunction before = f;
    ScheduleInstructions(f);
    ExpectLegalReorder(before, f);
  }
}

// A very long region (a fully unrolled loop) is scheduled in pieces, legally and quickly.
TEST(ScheduleRegion, LongRegion) {
  std::vector<MInsn> insns;
  for (unsigned k = 0; k < 1500; ++k) {
    const unsigned a = 2 + 2 * (k % 6);
    insns.push_back(I(Op::kFmul, kF32, V(a), V(a), V(1)));
    insns.push_back(I(Op::kAddi, kU32, V(a + 1), V(a), kNo, kNo, static_cast<int32_t>(k)));
  }
  MFunction f = OneBlock(insns);
  const MFunction before = f;
  ScheduleInstructions(f);
  ExpectLegalReorder(before, f);
  EXPECT_LT(ModelCycles(f.blocks[0].insns), ModelCycles(before.blocks[0].insns));
}

// ---- random programs -------------------------------------------------------------------------

// Random straight-line programs with barriers (labels, forward branches, split/else/join,
// mpush/mbrk, votes, csrr, first, lane, loads and stores), over few registers so that almost
// every instruction depends on another.
class Gen {
 public:
  explicit Gen(test::Rng& rng) : rng_(rng) {}

  MFunction Program(unsigned length) {
    MFunction f;
    f.blocks.emplace_back();
    cur_ = &f.blocks.back();
    // Every register gets a lane-dependent value; s12 is the data area's address.
    Add(I(Op::kLane, kI32, V(0)));
    for (unsigned r = 1; r < kVecs; ++r) {
      const int32_t odd = static_cast<int32_t>(rng_.Below(1 << 20)) | 1;
      Add(I(Op::kMuli, kU32, V(r), V(r - 1), kNo, kNo, odd));
      Add(I(Op::kXori, kU32, V(r), V(r), kNo, kNo, static_cast<int32_t>(rng_.Below(1 << 23))));
    }
    for (unsigned r = 3; r < 12; ++r) {
      Add(I(Op::kLi, kI32, S(r), kNo, kNo, kNo,
            static_cast<int32_t>(rng_.Below(1 << 24)) - (1 << 23)));
    }
    Add(I(Op::kLi, kI32, S(12), kNo, kNo, kNo, static_cast<int32_t>(test::kData)));
    unsigned depth = 0;  // mask stack entries pushed by this program
    while (length-- > 0) {
      const uint64_t k = rng_.Below(100);
      if (k < 72) {
        Add(RandomOp());
      } else if (k < 75) {
        PlacePending();
        cur_->insns.push_back(Label(f.num_labels++));
        if (rng_.Below(2) == 0) {  // a new block
          f.blocks.emplace_back();
          cur_ = &f.blocks.back();
        }
      } else if (k < 78) {
        const int target = f.num_labels++;
        MInsn br = rng_.Below(2) ? I(Op::kBexz, kI32, kNo) : I(Op::kBz, kI32, kNo, Scalar());
        br.target = target;
        Add(br);
        pending_.push_back(target);
      } else if (k < 83 && depth < 12) {
        PlacePending();
        Add(rng_.Below(3) ? I(Op::kSplit, kI32, kNo, AnyReg()) : I(Op::kMpush, kI32, kNo));
        ++depth;
      } else if (k < 87 && depth > 0) {
        PlacePending();
        const uint64_t w = rng_.Below(3);
        if (w == 0) {
          Add(I(Op::kElse, kI32, kNo));
        } else if (w == 1) {
          Add(I(Op::kMbrk, kI32, kNo, AnyReg()));
        } else {
          Add(I(Op::kJoin, kI32, kNo));
          --depth;
        }
      } else if (k < 99) {
        // Operands drawn one by one: the order in which a call's arguments are evaluated is
        // unspecified, and the programs of a seed must not depend on the host compiler.
        const unsigned dt = RandomDt(true), ra = AnyReg(), rb = AnyReg();
        const int32_t off = static_cast<int32_t>(8 * rng_.Below(32));
        const unsigned sel = static_cast<unsigned>(rng_.Below(4));
        if (k < 90) {
          Add(I(Op::kSt, dt, kNo, S(12), ra, kNo, off));
        } else if (k < 93) {
          Add(I(Op::kLd, dt, ra, S(12), kNo, kNo, off));
        } else if (k < 95) {
          Add(I(Op::kVote, kI32, ra, rb, kNo, kNo, 0, sel % 3));
        } else if (k < 97) {
          Add(I(Op::kCsrr, kI32, ra, kNo, kNo, kNo, static_cast<int32_t>(sel)));
        } else {
          Add(I(Op::kFirst, dt, ra, rb));
        }
      } else {
        Add(I(Op::kLane, kI32, Vector()));
      }
    }
    PlacePending();
    while (depth-- > 0) Add(I(Op::kJoin, kI32, kNo));
    // Every register to memory, so that the comparison sees them in memory as well.
    for (unsigned r = 0; r < kVecs; ++r) {
      Add(I(Op::kSt, kU32, kNo, S(12), V(r), kNo, static_cast<int32_t>(512 + 8 * r)));
    }
    Add(I(Op::kHalt, kI32, kNo));
    uint32_t line = 0;
    for (MBlock& b : f.blocks) {
      for (MInsn& mi : b.insns) mi.line = line++;
    }
    return f;
  }

 private:
  static constexpr unsigned kVecs = 12;  // v0..v11, s3..s11 (s12: the data address)

  // Adds mi after clearing the fields it does not use and rounding its 64-bit operands down to
  // even registers; drops it if it is still illegal.
  void Add(MInsn mi) {
    if (Legalize(mi)) cur_->insns.push_back(mi);
  }
  static bool Legalize(MInsn& mi) {
    const isa::InsnInfo* info = isa::LookupOpcode(static_cast<uint8_t>(mi.op));
    auto clear_unused = [&](Opnd& o, uint8_t use) {
      if ((info->uses & use) == 0) o = Opnd{};
    };
    clear_unused(mi.rd, isa::kUseRd);
    clear_unused(mi.rs1, isa::kUseRs1);
    clear_unused(mi.rs2, isa::kUseRs2);
    clear_unused(mi.rs3, isa::kUseRs3);
    if ((info->uses & isa::kUseImm) == 0 && mi.target < 0) mi.imm = 0;
    auto r = [](const Opnd& o) { return o.none() ? 0u : static_cast<unsigned>(o.idx); };
    isa::Fields fl{static_cast<uint8_t>(mi.op), mi.dt, mi.mod, r(mi.rd), r(mi.rs1), r(mi.rs2),
                   r(mi.rs3), mi.target < 0 ? mi.imm : 0};
    const isa::PairOperands p = isa::PairOperandsOf(isa::Insn(isa::Encode(fl)));
    auto even = [](Opnd& o, bool pair) {
      if (pair && !o.none()) o.idx &= ~1;
    };
    even(mi.rd, p.rd);
    even(mi.rs1, p.rs1);
    even(mi.rs2, p.rs2);
    even(mi.rs3, p.rs3);
    fl = isa::Fields{static_cast<uint8_t>(mi.op), mi.dt, mi.mod, r(mi.rd), r(mi.rs1), r(mi.rs2),
                     r(mi.rs3), mi.target < 0 ? mi.imm : 0};
    return !IllegalReason(isa::Encode(fl), 8);
  }
  void PlacePending() {
    for (int l : pending_) cur_->insns.push_back(Label(l));
    pending_.clear();
  }
  unsigned Vector() { return V(static_cast<unsigned>(rng_.Below(kVecs))); }
  unsigned Scalar() { return S(3 + static_cast<unsigned>(rng_.Below(9))); }
  unsigned AnyReg() {
    const uint64_t k = rng_.Below(20);
    return k == 0 ? S(0) : k < 14 ? Vector() : Scalar();
  }
  unsigned RandomDt(bool with_f32) {
    static const unsigned kDts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    return kDts[rng_.Below(with_f32 ? 9 : 8)];
  }

  // A legal pure register operation with random operands.
  MInsn RandomOp() {
    static const Op kOps[] = {Op::kAdd,  Op::kSub,  Op::kMul,  Op::kMulh, Op::kAnd,  Op::kOr,
                              Op::kXor,  Op::kShl,  Op::kShr,  Op::kMin,  Op::kMax,  Op::kCmp,
                              Op::kSel,  Op::kAddi, Op::kMuli, Op::kAndi, Op::kOri,  Op::kXori,
                              Op::kShli, Op::kShri, Op::kMini, Op::kMaxi, Op::kCmpi, Op::kLi,
                              Op::kLui,  Op::kFadd, Op::kFsub, Op::kFmul, Op::kFfma, Op::kFmin,
                              Op::kFmax, Op::kFcmp, Op::kCvt,  Op::kShfl};
    for (;;) {
      const Op op = kOps[rng_.Below(sizeof kOps / sizeof kOps[0])];
      const int32_t imm = static_cast<int32_t>((rng_.Interesting32() & 0xffffff) << 8) >> 8;
      const unsigned dt = RandomDt(true), rd = AnyReg(), rs1 = AnyReg(), rs2 = AnyReg(),
                     rs3 = AnyReg(), mod = static_cast<unsigned>(rng_.Below(16));
      MInsn mi = I(op, dt, rd, rs1, rs2, rs3, imm, mod);
      if (op == Op::kShfl) mi.imm = static_cast<int32_t>(rng_.Below(4));
      if (!Legalize(mi)) continue;
      // Some writes are partial definitions (that only adds reads of rd).
      mi.rd_partial = rng_.Below(8) == 0;
      return mi;
    }
  }

  test::Rng& rng_;
  MBlock* cur_ = nullptr;
  std::vector<int> pending_;
};

// The code words of f (labels resolved), as the compiler's Emit writes them.
std::vector<uint64_t> Encode(const MFunction& f) {
  std::map<int, uint32_t> label_at;
  uint32_t n = 0;
  for (const MBlock& b : f.blocks) {
    for (const MInsn& mi : b.insns) {
      if (mi.is_label()) label_at[mi.label] = n;
      else ++n;
    }
  }
  std::vector<uint64_t> words;
  for (const MBlock& b : f.blocks) {
    for (const MInsn& mi : b.insns) {
      if (mi.is_label()) continue;
      auto r = [](const Opnd& o) { return o.none() ? 0u : static_cast<unsigned>(o.idx); };
      isa::Fields fl{static_cast<uint8_t>(mi.op), mi.dt, mi.mod, r(mi.rd), r(mi.rs1),
                     r(mi.rs2), r(mi.rs3), mi.imm};
      if (mi.target >= 0) {
        fl.imm = static_cast<int32_t>(label_at.at(mi.target)) - static_cast<int32_t>(words.size());
      }
      words.push_back(isa::Encode(fl));
    }
  }
  return words;
}

// The state a program leaves: the last record, every register of every lane, the data area.
struct Final {
  Retire last;
  uint64_t instret = 0;
  std::vector<uint32_t> regs, data;
};

Final RunProgram(const MFunction& f, unsigned simd, uint32_t lanes) {
  test::Machine m(simd);
  m.params.lanes = lanes;
  m.LoadWords(Encode(f));
  Final out;
  out.last = m.Run(20000);
  out.instret = m.model.instret();
  for (unsigned r = 0; r < 32; ++r) {
    for (unsigned l = 0; l < simd; ++l) out.regs.push_back(m.model.vreg(r, l));
    out.regs.push_back(m.model.sreg(r));
  }
  for (uint32_t a = test::kData; a < test::kData + 1024; a += 4) out.data.push_back(m.Load32(a));
  return out;
}

TEST(ScheduleRandom, LegalAndSameResults) {
  test::Rng rng;
  SCOPED_TRACE(rng.Describe());
  int64_t cycles_before = 0, cycles_after = 0;
  unsigned changed = 0;
  constexpr unsigned kPrograms = 150;
  for (unsigned p = 0; p < kPrograms; ++p) {
    SCOPED_TRACE("program " + std::to_string(p));
    Gen gen(rng);
    const MFunction before = gen.Program(20 + static_cast<unsigned>(rng.Below(120)));
    MFunction after = before;
    ScheduleInstructions(after);
    ExpectLegalReorder(before, after);
    if (HasFailure()) return;
    if (Order(after) != Order(before)) ++changed;
    for (const MBlock& b : before.blocks) cycles_before += ModelCycles(b.insns);
    for (const MBlock& b : after.blocks) cycles_after += ModelCycles(b.insns);
    const unsigned simd = 8u << (p % 3);
    const uint32_t lanes = static_cast<uint32_t>(1 + rng.Below(simd));
    const Final x = RunProgram(before, simd, lanes), y = RunProgram(after, simd, lanes);
    ASSERT_EQ(x.last.halt, y.last.halt);
    ASSERT_EQ(x.last.trap, y.last.trap);
    ASSERT_EQ(x.last.cause, y.last.cause);
    ASSERT_EQ(x.instret, y.instret);
    ASSERT_EQ(x.regs, y.regs) << "SIMD " << simd << ", " << lanes << " lanes";
    ASSERT_EQ(x.data, y.data) << "SIMD " << simd << ", " << lanes << " lanes";
  }
  // The scheduler does something, and on its own model it gains.
  EXPECT_GT(changed, kPrograms / 2);
  EXPECT_LT(cycles_after, cycles_before);
}

// The same kernel compiles to the same order every time (the priority's ties go to the original
// order).
TEST(ScheduleRandom, Deterministic) {
  test::Rng rng;
  SCOPED_TRACE(rng.Describe());
  for (unsigned p = 0; p < 20; ++p) {
    Gen gen(rng);
    const MFunction f = gen.Program(100);
    MFunction a = f, b = f;
    ScheduleInstructions(a);
    ScheduleInstructions(b);
    EXPECT_EQ(Order(a), Order(b));
  }
}

}  // namespace
}  // namespace sgu::compiler
