// SPDX-License-Identifier: Apache-2.0
// Every instruction at every SIMD width, in lockstep with the golden model.
//
// Each computational instruction gets a program that runs 48 random legal instances of it (all
// of its types and modifiers, vector and scalar operands) with all lanes on and again under a
// divergent mask; control-flow instructions are covered by a directed program. The expected
// value of every retired instruction is the golden model's (the model itself is tested against
// independent computations in sw/tests).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "tb_test_util.h"

namespace sgu::tb {
namespace {

std::vector<std::string> AllInstructionNames() {
  std::vector<std::string> v;
  for (const isa::InsnInfo& i : isa::kInsns) v.push_back(i.name);
  return v;
}

// Exercises every control-flow and mask instruction (halt ends it; trap is in trap_test.cc).
std::string ControlProgram(unsigned lanes) {
  return R"(
  lane v31
  shli v30, v31, 3
  li s31, 0x8000
  add v30, v30, s31
  nop
  li s1, 3
  li v1, 0
outer:                       # uniform loop: bnz/bz on a scalar
  andi v2, v31, 1
  split v2                   # odd lanes
  bexz skip_then
  addi v1, v1, 10
skip_then:
  else                       # even lanes
  bexz skip_else
  addi v1, v1, 100
skip_else:
  join
  addi s1, s1, -1
  bnz s1, outer
  bz s1, after
  trap 1                     # not reached
after:
  mpush                      # divergent loop: lane i runs i+1 iterations
  li v3, 0
loop:
  addi v3, v3, 1
  cmp.gt v4, v3, v31
  mbrk v4
  bexnz loop
  join
  li v5, 0
  cmpi.u32.lt v6, v31, )" + std::to_string(lanes) + R"(
  split v6                   # all lanes: the else side is empty and skipped
  bexz e1
  addi v5, v5, 1
e1:
  else
  bexz e2
  addi v5, v5, 1000
e2:
  join
  cmpi.u32.lt v7, v31, 0
  split v7                   # no lane: the then side is skipped with bexz
  bexnz t2
  br t3
t2:
  addi v5, v5, 7
t3:
  join
  br fwd
  trap 2                     # not reached
fwd:
  st.i32 [v30 + 0x5000], v1
  st.i32 [v30 + 0x5100], v3
  st.i32 [v30 + 0x5200], v5
  halt
)";
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
  switch (info->form) {
    case isa::Form::kN:
    case isa::Form::kI:
    case isa::Form::kL:
    case isa::Form::kRL:
    case isa::Form::kS:
      program = ControlProgram(lanes);
      break;
    default: {
      Rng rng(BaseSeed() ^ (static_cast<uint64_t>(lanes) << 40) ^ std::hash<std::string>{}(name));
      program = GenerateInstructionProgram(*info, lanes, rng);
    }
  }
  for (int variant = 0; variant < 2; ++variant) {
    const uint64_t seed = BaseSeed() + variant + std::hash<std::string>{}(name);
    const LockstepRun run = RunLockstep(program, lanes, seed, /*partial=*/variant == 1,
                                        /*random_axi=*/variant == 1);
    EXPECT_EQ(run.result.status, CosimStatus::kHalted) << Describe(run, lanes, seed);
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllWidths, IsaTest,
    testing::Combine(testing::Values(8u, 16u, 32u), testing::ValuesIn(AllInstructionNames())),
    [](const testing::TestParamInfo<IsaTest::ParamType>& p) {
      return "simd" + std::to_string(std::get<0>(p.param)) + "_" + std::get<1>(p.param);
    });

}  // namespace
}  // namespace sgu::tb
