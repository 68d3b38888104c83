// SPDX-License-Identifier: Apache-2.0
// Every instruction at every SIMD width, in lockstep with the golden model.
//
// Each instruction with a destination or a memory access gets a program that runs every legal
// variant of it (GenerateInstructionProgram: all of its types and modifiers, vector and scalar
// operands, ruled immediates, from the attributes of isa/sgu_isa.txt) with all lanes on and
// again under a divergent mask; each control-flow instruction gets a directed program that runs
// it taken and not taken (ControlProgram). The expected value of every retired instruction is
// the golden model's (the model itself is tested against independent computations in sw/tests).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "sgu/insn.h"
#include "tb_test_util.h"

namespace sgu::tb {
namespace {

std::vector<std::string> AllInstructionNames() {
  std::vector<std::string> v;
  for (const isa::InsnInfo& i : isa::kInsns) v.push_back(i.name);
  return v;
}

// ------------------------------------------------------------------ control-flow programs
//
// One directed program per control-flow instruction. Each runs its instruction taken and not
// taken (branches: forward and backward, under a full, a partial and an empty exec mask;
// split/mbrk: vector and scalar conditions that select all, some and no lanes; else/join/mpush
// nested), stores what it computed and halts (trap: ends in the trap). ControlCoverage checks on
// the golden model alone that the program does what this comment says before the lockstep run.

const char* const kControlPrologue = R"(
  lane v31
  shli v30, v31, 3
  li s31, 0x8000
  add v30, v30, s31
  li v1, 0
  li v2, 0
  li v3, 0
  andi v10, v31, 1           # odd lanes
  cmpi.u32.lt v11, v31, 64   # every lane
  li v12, 0                  # no lane
)";

const char* const kControlEpilogue = R"(
  st.i32 [v30 + 0x5000], v1
  st.i32 [v30 + 0x5100], v2
  st.i32 [v30 + 0x5200], v3
  halt
)";

// Conditional branches on a scalar (bz: taken on zero, bnz: taken on non-zero).
std::string ScalarBranchProgram(const std::string& op) {
  const bool on_zero = op == "bz";
  const std::string zero_taken = on_zero ? "s0" : "s9", zero_not = on_zero ? "s9" : "s0";
  return R"(
  li s9, -7
  )" + op + " " + zero_taken + R"(, f1    # forward, taken
  trap 1
f1:
  )" + op + " " + zero_not + R"(, f2     # forward, not taken
  addi v1, v1, 1
f2:
  li s2, 4                   # backward, taken 3 times then not taken: s5 = (s2 == 0) for bz
back:
  addi v2, v2, 3
  addi s2, s2, -1
  cmpi.)" + (on_zero ? "eq" : "ne") + R"( s5, s2, 0
  )" + op + R"( s5, back
  split v10                  # partial exec
  )" + op + " " + zero_taken + R"(, f3
  trap 2
f3:
  )" + op + " " + zero_not + R"(, f4
  addi v3, v3, 5
f4:
  else
  split v12                  # empty exec: a uniform branch still goes
  )" + op + " " + zero_taken + R"(, f5
  trap 3
f5:
  )" + op + " " + zero_not + R"(, f6
  addi v3, v3, 7
f6:
  join
  join
  )" + op + R"( s1, f7        # ARG0: random, either way
  addi v1, v1, 10
f7:
)";
}

// Branches on the exec mask (bexz: taken when no lane is active, bexnz: when one is).
std::string ExecBranchProgram(const std::string& op) {
  const bool on_empty = op == "bexz";
  return R"(
  )" + op + R"( f1              # full exec
  addi v1, v1, 1
f1:
  split v10                  # partial exec
  )" + op + R"( f2
  addi v1, v1, 2
f2:
  split v12                  # empty exec
  )" + op + R"( f3
  addi v1, v1, 4
f3:
  join
  join
  mpush                      # backward: a divergent loop, lane i runs i+1 times
  li v4, 0
loop:
  addi v4, v4, 1
  cmp.gt v5, v4, v31
  mbrk v5
  )" + (on_empty ? "bexz done\n  br loop\ndone:" : "bexnz loop") + R"(
  join
  add v2, v2, v4
)";
}

std::string ControlProgram(const std::string& op) {
  std::string body;
  if (op == "br") {
    body = R"(
  br f1                      # forward
  trap 1
f1:
  br 1                       # to the next instruction
  li s2, 3
back:
  addi v1, v1, 1
  addi s2, s2, -1
  bz s2, out
  br back                    # backward
out:
  split v10
  br f2                      # under a partial mask: uniform
  trap 2
f2:
  split v12
  br f3                      # under an empty mask
  trap 3
f3:
  join
  join
)";
  } else if (op == "bz" || op == "bnz") {
    body = ScalarBranchProgram(op);
  } else if (op == "bexz" || op == "bexnz") {
    body = ExecBranchProgram(op);
  } else if (op == "split" || op == "else" || op == "join") {
    // Every kind of condition, nested three deep, with both sides taken and skipped.
    body = R"(
  li s4, 1
  split v10                  # some lanes
  bexz e1
  addi v1, v1, 1
  split v11                  # all of them
  addi v1, v1, 2
  split s0                   # scalar zero: none
  bexz e3
  addi v1, v1, 1000
e3:
  else
  addi v1, v1, 4
  join
  else                       # nothing pending
  addi v1, v1, 1000
  join
e1:
  else                       # the other lanes
  bexz j1
  addi v2, v2, 8
  split s4                   # scalar non-zero: all
  addi v2, v2, 16
  else
  addi v2, v2, 1000
  else                       # a second else: nothing is pending any more
  addi v2, v2, 1000
  join
j1:
  join
  split v12                  # no lane: then side skipped
  bexnz t1
  br t2
t1:
  addi v3, v3, 1000
t2:
  else
  addi v3, v3, 32
  join
)";
  } else if (op == "mpush" || op == "mbrk") {
    // Loops: lanes leave by a vector condition, all at once by a scalar one, none, or all.
    body = R"(
  mpush
  li v4, 0
l1:
  addi v4, v4, 1
  cmp.gt v5, v4, v31         # lane i leaves after i+1 iterations
  mbrk v5
  mbrk v12                   # no lane leaves
  bexnz l1
  join
  add v1, v1, v4
  li s2, 0
  mpush
l2:
  addi v2, v2, 1
  addi s2, s2, 1
  cmpi.eq s3, s2, 3
  mbrk s3                    # every lane leaves at once after 3 iterations
  bexnz l2
  join
  mpush
  mpush
  mpush                      # nested loop entries
  mbrk v11                   # every lane leaves
  mbrk s0                    # none (scalar zero)
  join
  join
  join
  split v10
  mpush                      # under a partial mask
  mbrk v11
  join
  join
  addi v3, v3, 1
)";
  } else if (op == "nop") {
    body = R"(
  nop
  split v10
  nop
  split v12
  nop
  join
  join
  nop
  addi v1, v1, 1
)";
  } else if (op == "halt") {
    // Stops with a partial mask and a non-empty mask stack (stores first: nothing after halt).
    return std::string(kControlPrologue) + R"(
  split v10
  addi v1, v1, 1
  st.i32 [v30 + 0x5000], v1
  halt
  trap 1
)";
  } else if (op == "trap") {
    // Skipped twice (branched over, and under an empty mask it still traps: not skipped by exec),
    // then taken with a negative immediate.
    return std::string(kControlPrologue) + R"(
  br over
  trap 1
over:
  bz s0, over2
  trap 2
over2:
  split v12
  addi v1, v1, 1
  st.i32 [v30 + 0x5000], v1
  trap -8388608
)";
  }
  return std::string(kControlPrologue) + body + kControlEpilogue;
}

// What the program does with instruction `op`, on the golden model alone.
struct ControlStats {
  unsigned executed = 0, taken = 0, not_taken = 0;
  unsigned scalar_cond = 0, vector_cond = 0;
  bool trapped = false;
  isa::Cause cause = isa::Cause::kNone;
};

ControlStats ControlCoverage(const std::string& program, const isa::InsnInfo& info,
                             unsigned lanes) {
  Rng rng(1);
  Memory mem = MakeImage(program, rng);
  Model model(lanes, &mem);
  model.Start(MakeLaunch(lanes, false, rng));
  ControlStats st;
  while (model.running()) {
    const uint32_t pc = model.pc();
    const Retire r = model.Step();
    if (r.trap) {
      st.trapped = true;
      st.cause = r.cause;
    }
    const isa::Insn insn(r.insn);
    if (insn.info() != &info) continue;
    ++st.executed;
    if (r.trap) continue;
    (model.running() && model.pc() != pc + 8 ? st.taken : st.not_taken)++;
    if ((info.uses & isa::kUseRs1) != 0) {
      (isa::IsScalarReg(insn.rs1()) ? st.scalar_cond : st.vector_cond)++;
    }
  }
  return st;
}

class IsaTest : public testing::TestWithParam<std::tuple<unsigned, std::string>> {};

TEST_P(IsaTest, Lockstep) {
  const auto [lanes, name] = GetParam();
  const isa::InsnInfo* info = nullptr;
  for (const isa::InsnInfo& i : isa::kInsns) {
    if (name == i.name) info = &i;
  }
  ASSERT_NE(info, nullptr);
  std::string program;
  CosimStatus want = CosimStatus::kHalted;
  switch (info->form) {
    case isa::Form::kN:
    case isa::Form::kI:
    case isa::Form::kL:
    case isa::Form::kRL:
    case isa::Form::kS: {
      program = ControlProgram(name);
      const ControlStats st = ControlCoverage(program, *info, lanes);
      ASSERT_GT(st.executed, 0u) << name << " never executes";
      if (info->op == isa::Op::kTrap) {
        want = CosimStatus::kTrapped;
        EXPECT_EQ(st.cause, isa::Cause::kSwTrap);
      } else {
        EXPECT_FALSE(st.trapped) << "the " << name << " program traps";
      }
      if (info->form == isa::Form::kL || info->form == isa::Form::kRL) {
        EXPECT_GT(st.taken, 0u) << name << " is never taken";
        EXPECT_GT(st.not_taken, 0u) << name << " always jumps";
      }
      // Each register kind the instruction's line allows for its condition.
      if ((info->uses & isa::kUseRs1) != 0) {
        const isa::RegKind k = info->regs[isa::kRegRs1].kind;
        if (k != isa::RegKind::kVector) {
          EXPECT_GT(st.scalar_cond, 0u) << name;
        }
        if (k != isa::RegKind::kScalar) {
          EXPECT_GT(st.vector_cond, 0u) << name;
        }
      }
      break;
    }
    default: {
      Rng rng(BaseSeed() ^ (static_cast<uint64_t>(lanes) << 40) ^ std::hash<std::string>{}(name));
      program = GenerateInstructionProgram(*info, lanes, rng);
    }
  }
  for (int variant = 0; variant < 2; ++variant) {
    const uint64_t seed = BaseSeed() + variant + std::hash<std::string>{}(name);
    const LockstepRun run = RunLockstep(program, lanes, seed, /*partial=*/variant == 1,
                                        /*random_axi=*/variant == 1);
    EXPECT_EQ(run.result.status, want) << Describe(run, lanes, seed);
    if (want == CosimStatus::kTrapped) {
      EXPECT_EQ(run.result.last.cause, isa::Cause::kSwTrap);
    }
  }
}

// ------------------------------------------------------------------ forwarding and hazards
//
// Directed program for the paths between a result and the next instructions that read it
// (docs/architecture.md "Pipeline"): the X-input forward of a short result's low word (rs1,
// rs2), the cases that instead wait in R (a 64-bit result read as a pair, a pair's high half
// read alone, an odd register written then its pair read, rs3), distance-2 reads (the low-word
// forward from fw3_q, and the cases that wait in R for the register file's bypass), shuffle
// results at distances 1 and 2, scalar results, load
// results (also under an empty mask, where a load writes nothing and must forward nothing),
// store data and load addresses just computed, short results feeding long operations
// (which hold X for LanesPerMfu passes while the forwarded value must stay), and long results
// read by short ones. Every retired value is checked against the golden model, under a full
// and a partial launch mask (a forwarded result must reach only the lanes it was written in).
const char* const kForwardProgram = R"(
  lane v31
  shli v30, v31, 3
  li s31, 0x8000
  add v30, v30, s31
  lane v1
  addi v1, v1, 3
  li v2, 5
  li s2, 1
  add v3, v1, v2             # chain through rs1 and rs2
  add v3, v3, v3
  sub v3, v2, v3
  li.i64 v4, -0x123457
  shli.i64 v4, v4, 21
  add.i64 v4, v4, v4         # 64-bit chain: a pair waits one cycle
  add.i64 v4, v4, v6
  add v5, v1, v3             # odd register, then its pair
  add.i64 v6, v4, v4
  add.i64 v8, v4, v6         # a pair, then its high half alone
  add v10, v9, v1
  add.i64 v8, v8, v8         # a pair, then its low half alone (forwarded)
  add v10, v8, v1
  add v11, v1, v2            # rs3 just written
  sel v12, v1, v2, v11
  sel v13, s0, v2, v11
  add v14, v1, v1            # shuffle operands just written
  shfl.down2 v15, v14, s2, v14
  shfl.idx v16, v14, v1, v2
  li s3, 7                   # scalar results
  add s4, s3, s3
  add v17, v1, s4
  add v18, v1, v2            # store data and load address just computed
  st.i32 [v30 + 0x100], v18
  addi v19, v30, 0x100
  ld.i32 v20, [v19 + 0]
  add v21, v20, v20          # a load result
  li s5, 11                  # loads under an empty mask make no access and write nothing, so
  li v29, 0                  #   the reader right behind takes the register, not the forward
  split v29                  #   of the LSU's last load data
  ld.i32 s5, [s31 + 0x100]
  add s6, s5, s5
  ld.i32 v20, [v19 + 0]
  add v21, v20, v20
  join
  add v29, v21, s6
  add v22, v1, v2            # distance 2 (the forward from fw3_q)
  nop
  add v23, v22, v22
  add.i64 v4, v4, v4         # distance 2: a pair, rs3, a high half (wait in R)
  nop
  add.i64 v6, v4, v4
  add v11, v1, v2
  nop
  sel v12, v1, v2, v11
  add.i64 v8, v4, v4
  nop
  add v10, v9, v1
  shfl.xor v14, v1, s2       # a shuffle's result at distance 1 (waits) and 2
  add v15, v14, v1
  shfl.xor v16, v15, s2
  nop
  add v17, v16, v16
  csrr s7, Exec              # uniform values (made in L2) at distance 1 and 2, into sel's
  sel v12, s7, v1, v2        #   condition (a flag from L2 would miss them) and into an add
  csrr s7, LaunchMask
  add v13, s7, v1
  first s8, v1
  nop
  sel v12, s8, v2, v1
  li v28, 0
  first s8, v28              # a uniform 0 (the last load's data, nonzero, is in every lane)
  sel v12, s8, v2, v1
  first.i64 s8, v4           # a 64-bit uniform value (its high word from L2 as well)
  add.i64 v8, s8, v4
  vote.ballot s9, v1
  sel v13, s9, v1, v2
  add v24, v1, v2            # a short result into long operations
  mul.i32 v25, v24, v24
  cvt.f32.i32 v26, v24
  fadd v27, v26, v26
  add v28, v27, v1           # a long result read by a short operation
  li.i64 v4, -3
  mul.i64 v6, v4, v4
  add.i64 v8, v6, v4
  st.i32 [v30 + 0x200], v28
  halt
)";

// Votes over a single set lane and a single zero lane, at every lane position: random
// conditions are almost never zero, so they leave any / all over few lanes untested (the vote
// unit reduces groups of four lanes before L2: sgu_vote).
const char* const kVoteProgram = R"(
  lane v1
  csrr s7, NumLanes
  li s1, 0
loop:
  cmp.i32.eq v2, v1, s1      # only lane s1 set
  vote.any s2, v2
  vote.all s3, v2
  vote.ballot s4, v2
  cmp.i32.ne v3, v1, s1      # only lane s1 zero
  vote.any s5, v3
  vote.all s6, v3
  vote.ballot v4, v3
  addi s1, s1, 1
  sub s8, s7, s1
  bnz s8, loop
  halt
)";

// Runs `program` in lockstep at every width, with a full launch and fixed AXI timing, then with
// a partial launch and random AXI timing; each run must halt with every record matching.
void ExpectLockstepAllWidths(const char* program) {
  for (unsigned lanes : {8u, 16u, 32u}) {
    for (int variant = 0; variant < 2; ++variant) {
      const uint64_t seed = BaseSeed() + variant;
      const LockstepRun run = RunLockstep(program, lanes, seed, /*partial=*/variant == 1,
                                          /*random_axi=*/variant == 1);
      EXPECT_EQ(run.result.status, CosimStatus::kHalted) << Describe(run, lanes, seed);
    }
  }
}

TEST(ForwardTest, LockstepAllWidths) { ExpectLockstepAllWidths(kForwardProgram); }

TEST(VoteTest, OneLaneLockstepAllWidths) { ExpectLockstepAllWidths(kVoteProgram); }

// The crossbar's two forms of down2 / up2 (docs/architecture.md "Crossbar"): with a scalar
// delta one pass, B or A chosen per source lane by a thermometer of the delta (its boundaries:
// 0, N - 1, N, 2N - 1, 2N, a negative delta); with a vector delta two passes, for deltas that
// want A[k] and B[k] of one source k in two lanes (lane l: 5 + 15 * (l & 1), so lanes 0 and 1
// want A[5] and B[5] at SIMD16), back to back, behind a long operation (it must not leave X
// while a long writer is in L6) and behind a one-pass shuffle, read right after by a lane
// operation and a shuffle, and under a split mask. Every retired value is checked against the
// golden model, under a full and a partial launch mask.
const char* const kShuffleTwoPassProgram = R"(
  lane v31
  shli v30, v31, 3
  li s31, 0x8000
  add v30, v30, s31
  lane v1
  muli v2, v1, 7
  addi v2, v2, 100           # B: lane l holds 100 + 7l
  addi v1, v1, 1             # A: lane l holds l + 1
  lane v3
  andi v3, v3, 1
  muli v3, v3, 15
  addi v3, v3, 5             # per-lane delta 5 or 20
  shfl.down2 v4, v1, v3, v2
  shfl.up2 v5, v1, v3, v2
  add v6, v4, v5             # read right after the second pass
  lane v7
  xori v7, v7, 3             # deltas l ^ 3 (a permutation of small values)
  shfl.down2 v8, v1, v7, v2
  shfl.up2 v9, v2, v7, v1
  shfl.idx v10, v8, v7, v9   # a one-pass shuffle of two-pass results
  shfl.xor v27, v1, v7       # a one-pass shuffle, then an independent two-pass one: it
  shfl.up2 v28, v2, v3, v1   # enters X while the first is in L2
  mul.i32 v11, v1, v1        # a long writer, then a two-pass shuffle behind it
  shfl.down2 v12, v11, v3, v1
  shfl.rotdn v13, v12, s0    # one-pass behind two-pass
  shfl.down2 v14, v13, v7, v12
  li s5, 0
  shfl.down2 v15, v1, s5, v2 # scalar deltas: 0, N - 1, N, 2N - 1, 2N, -1
  shfl.up2 v16, v1, s5, v2
  csrr s6, NumLanes          # s6 = N
  addi s7, s6, -1
  shfl.down2 v17, v1, s7, v2
  shfl.up2 v18, v1, s7, v2
  shfl.down2 v19, v1, s6, v2
  shfl.up2 v20, v1, s6, v2
  add s8, s6, s7
  shfl.down2 v21, v1, s8, v2
  shfl.up2 v22, v1, s8, v2
  add s9, s6, s6
  shfl.down2 v23, v1, s9, v2
  shfl.up2 v24, v1, s9, v2
  li s10, -1
  shfl.down2 v25, v1, s10, v2
  shfl.up2 v26, v1, s10, v2
  andi v27, v31, 2
  split v27                  # lanes with bit 1 of the lane index
  shfl.down2 v28, v1, v7, v2
  shfl.up2 v29, v1, v3, v2
  join
  st.i32 [v30 + 0x100], v28
  st.i32 [v30 + 0x200], v29
  halt
)";

TEST(ShuffleTest, TwoPassLockstepAllWidths) { ExpectLockstepAllWidths(kShuffleTwoPassProgram); }

INSTANTIATE_TEST_SUITE_P(
    AllWidths, IsaTest,
    testing::Combine(testing::Values(8u, 16u, 32u), testing::ValuesIn(AllInstructionNames())),
    [](const testing::TestParamInfo<IsaTest::ParamType>& p) {
      return "simd" + std::to_string(std::get<0>(p.param)) + "_" + std::get<1>(p.param);
    });

}  // namespace
}  // namespace sgu::tb
