// SPDX-License-Identifier: Apache-2.0
// Tests of the SGU's 32 x 32 multiplier (rtl/sgu_mul32.sv) in both of its builds: the default one
// (operand registers and `*`, what every other simulation runs) and the ECP5 one (SGU_ECP5: four
// MULT18X18D with their input registers, the partial products summed in the fabric), the latter
// with the behavioural MULT18X18D of tb/fpga/mult18x18d_model.sv. Both are driven with the same
// random operands and enables; after every edge each build's product and registered operands
// must equal an independent computation: the operands of the last enabled edge, multiplied as
// 64-bit unsigned integers.
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdint>
#include <memory>
#include <random>

#include "Vsgu_mul32_ecp5.h"
#include "Vsgu_mul32_generic.h"
#include "fpga_test_util.h"

namespace sgu::tb {
namespace {

template <typename M>
void Drive(M& m, bool en, uint32_t a, uint32_t b) {
  m.en_i = en;
  m.a_i = a;
  m.b_i = b;
  m.clk_i = 0;
  m.eval();
  m.clk_i = 1;
  m.eval();
}

// Operands with the patterns a split into 16-bit halves gets wrong first: carries out of the
// middle sum (both cross products near 2^32), zero halves, all-ones halves.
uint32_t Operand(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0: return 0xFFFFFFFFu;
    case 1: return static_cast<uint32_t>(rng()) & 0xFFFF0000u;
    case 2: return static_cast<uint32_t>(rng()) & 0x0000FFFFu;
    case 3: return 0xFFFF0000u | static_cast<uint32_t>(rng() & 0xFFFF);
    default: return static_cast<uint32_t>(rng());
  }
}

TEST(Mul32Test, EcpBuildMatchesTheProductOfTheRegisteredOperands) {
  auto ctx = std::make_unique<VerilatedContext>();
  Vsgu_mul32_generic gen(ctx.get());
  Vsgu_mul32_ecp5 ecp(ctx.get());
  const uint64_t seed = SeedFromEnv(0x5a17);
  std::mt19937_64 rng(seed);
  uint32_t ra = 0, rb = 0;
  bool loaded = false;
  for (int i = 0; i < 200000; i++) {
    const bool en = (rng() % 4) != 0 || !loaded;
    const uint32_t a = Operand(rng), b = Operand(rng);
    Drive(gen, en, a, b);
    Drive(ecp, en, a, b);
    if (en) {
      ra = a;
      rb = b;
      loaded = true;
    }
    const uint64_t want = static_cast<uint64_t>(ra) * rb;
    ASSERT_EQ(gen.p_o, want) << "default build, cycle " << i << ", seed " << seed;
    ASSERT_EQ(ecp.p_o, want) << "ECP5 build, cycle " << i << ", seed " << seed << ", a 0x"
                             << std::hex << ra << " b 0x" << rb;
    ASSERT_EQ(ecp.a_q_o, ra);
    ASSERT_EQ(ecp.b_q_o, rb);
    ASSERT_EQ(gen.a_q_o, ra);
    ASSERT_EQ(gen.b_q_o, rb);
  }
}

}  // namespace
}  // namespace sgu::tb
