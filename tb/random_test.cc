// SPDX-License-Identifier: Apache-2.0
// Seeded random programs in lockstep: at least SGU_RANDOM_INSNS (default 100000) retired
// instructions per SIMD width per run. Longer runs: SGU_RANDOM_INSNS=5000000 ctest -R Random.
// A failure prints the seed and saves the program; SGU_SEED=<seed> reproduces the run.
#include <gtest/gtest.h>

#include "tb_test_util.h"

namespace sgu::tb {
namespace {

class RandomTest : public testing::TestWithParam<unsigned> {};

TEST_P(RandomTest, Lockstep) {
  const unsigned lanes = GetParam();
  const uint64_t target = EnvNumber("SGU_RANDOM_INSNS", 100000);
  uint64_t retired = 0, programs = 0, traps = 0;
  for (uint64_t i = 0; retired < target; ++i) {
    const uint64_t seed = BaseSeed() * 1000003 + lanes * 7919 + i;
    Rng rng(seed);
    RandomProgramConfig cfg;
    cfg.num_lanes = lanes;
    cfg.items = 150 + rng.Below(250);
    const std::string program = GenerateRandomProgram(cfg, rng);
    // One draw per statement (argument order is unspecified): the order GCC used before.
    const bool random_axi = rng.Percent(50);
    const bool partial = rng.Percent(30);
    const LockstepRun run = RunLockstep(program, lanes, seed, partial, random_axi);
    const CosimStatus s = run.result.status;
    ASSERT_TRUE(s == CosimStatus::kHalted || s == CosimStatus::kTrapped)
        << Describe(run, lanes, seed);
    retired += run.result.instructions;
    ++programs;
    traps += s == CosimStatus::kTrapped;
  }
  RecordProperty("retired", static_cast<int>(retired));
  std::printf("SIMD%u: %llu programs, %llu retired instructions in lockstep, %llu ended in a trap\n",
              lanes, static_cast<unsigned long long>(programs),
              static_cast<unsigned long long>(retired), static_cast<unsigned long long>(traps));
}

INSTANTIATE_TEST_SUITE_P(AllWidths, RandomTest, testing::Values(8u, 16u, 32u),
                         [](const testing::TestParamInfo<unsigned>& p) {
                           return "simd" + std::to_string(p.param);
                         });

}  // namespace
}  // namespace sgu::tb
