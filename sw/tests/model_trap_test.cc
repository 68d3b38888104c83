// SPDX-License-Identifier: Apache-2.0
// Trap causes raised by the model (Watchdog belongs to the driver), trap record contents,
// precise traps, and the model's API contract.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "sgu/insn.h"
#include "test_util.h"

namespace sgu {
namespace test {
namespace {

using isa::Cause;

TEST(ModelTrap, IllegalInstructionIsPrecise) {
  Machine m(8);
  const uint64_t bad = isa::Encode({static_cast<uint8_t>(isa::Op::kAdd), 6, 0, 3, 2, 4, 0, 0});
  m.Load("  lane v3\n  split v3\n");  // exec = lanes 1..7
  m.LoadWords({bad, Assemble("halt").words[0]}, kCode + 16);
  const Retire& end = m.Run();
  ASSERT_TRUE(end.trap);
  EXPECT_EQ(end.cause, Cause::kIllegalInsn);
  EXPECT_EQ(end.tval, static_cast<uint32_t>(bad));
  EXPECT_EQ(end.insn, bad);
  EXPECT_EQ(end.pc, kCode + 16);
  EXPECT_EQ(end.order, 2u);
  EXPECT_FALSE(end.rd_we);
  EXPECT_EQ(end.exec, 0xfeu);  // unchanged
  EXPECT_EQ(m.model.instret(), 3u);
  EXPECT_FALSE(m.model.running());
  EXPECT_EQ(m.model.vreg(3, 5), 5u);
  EXPECT_THROW(m.model.Step(), std::logic_error);
}

TEST(ModelTrap, ZeroWordIsIllegal) {
  Machine m(16);
  m.Load("  nop\n");  // then runs into zeroed memory
  const Retire& end = m.Run();
  EXPECT_EQ(end.cause, Cause::kIllegalInsn);
  EXPECT_EQ(end.tval, 0u);
  EXPECT_EQ(end.pc, kCode + 8);
}

TEST(ModelTrap, IllegalDependsOnWidth) {
  // shfl.xor.w16 is legal with 16 or 32 lanes, illegal with 8.
  const std::vector<uint64_t> prog = Assemble("  shfl.xor.w16 v1, v2, s1\n  halt\n").words;
  for (unsigned n : {8u, 16u, 32u}) {
    Machine m(n);
    m.LoadWords(prog);
    const Retire& end = m.Run();
    EXPECT_EQ(end.trap, n == 8) << n;
    if (n == 8) {
      EXPECT_EQ(end.cause, Cause::kIllegalInsn);
    }
  }
}

TEST(ModelTrap, SoftwareTrap) {
  Machine m(8);
  m.Load("  trap -2\n");
  const Retire& end = m.Run();
  EXPECT_EQ(end.cause, Cause::kSwTrap);
  EXPECT_EQ(end.tval, 0xfffffffeu);  // imm sign-extended
}

TEST(ModelTrap, MaskOverflowAndUnderflow) {
  {
    Machine m(8);
    std::string src;
    for (unsigned i = 0; i < isa::kMaskStackDepth; ++i) src += i % 2 ? "  mpush\n" : "  split v0\n";
    m.Load(src + "  mpush\n  halt\n");
    const Retire& end = m.Run();
    EXPECT_EQ(end.cause, Cause::kMaskOverflow);
    EXPECT_EQ(end.tval, isa::kMaskStackDepth);
    EXPECT_EQ(end.pc, kCode + 8 * isa::kMaskStackDepth);
    EXPECT_EQ(m.model.mask_depth(), isa::kMaskStackDepth);
    EXPECT_EQ(end.exec, 0u);  // the first split turned every lane off (v0 = 0)
  }
  {
    Machine m(8);
    std::string src;
    for (unsigned i = 0; i < isa::kMaskStackDepth; ++i) src += "  mpush\n";
    m.Load(src + "  split v0\n");
    EXPECT_EQ(m.Run().cause, Cause::kMaskOverflow);
  }
  {
    Machine m(8);
    m.Load("  mpush\n  join\n  join\n  halt\n");
    const Retire& end = m.Run();
    EXPECT_EQ(end.cause, Cause::kMaskUnderflow);
    EXPECT_EQ(end.tval, 0u);
    EXPECT_EQ(end.pc, kCode + 16);
  }
}

TEST(ModelTrap, FetchFaults) {
  {
    Machine m(8);  // pc not a multiple of 8
    m.params.pc_start = kCode + 4;
    const Retire& end = m.Run();
    EXPECT_EQ(end.cause, Cause::kFetchFault);
    EXPECT_EQ(end.tval, kCode + 4);
    EXPECT_EQ(end.insn, 0u);
    EXPECT_EQ(end.order, 0u);
  }
  {
    Machine m(8);  // pc below the window
    m.params.mem_base = 0x2000;
    m.Load("  halt\n");
    EXPECT_EQ(m.Run().cause, Cause::kFetchFault);
  }
  {
    Machine m(8);  // runs off the end of the window
    m.params.mem_limit = kCode + 8;
    m.Load("  nop\n  halt\n");
    const Retire& end = m.Run();
    EXPECT_EQ(end.cause, Cause::kFetchFault);
    EXPECT_EQ(end.tval, kCode + 8);
    EXPECT_EQ(m.trace.size(), 2u);
  }
  {
    Machine m(8);  // branch to a bus-error region
    m.mem.AddErrorRange(0x2004, 0x2005);
    m.Load("  br 0x200\n");  // kCode + 8 * 0x200 = 0x2000
    const Retire& end = m.Run();
    EXPECT_EQ(end.cause, Cause::kFetchBusError);
    EXPECT_EQ(end.tval, 0x2000u);
    EXPECT_EQ(end.insn, 0u);
  }
  {
    Machine m(8, 0x1008);  // window beyond the memory: bus error
    m.params.mem_limit = 0x2000;
    m.Load("  nop\n");
    EXPECT_EQ(m.Run().cause, Cause::kFetchBusError);
  }
}

TEST(ModelTrap, HaltRecord) {
  Machine m(8);
  m.Load("  nop\n  halt\n");
  const Retire& end = m.Run();
  EXPECT_TRUE(end.halt);
  EXPECT_FALSE(end.trap);
  EXPECT_EQ(end.cause, Cause::kNone);
  EXPECT_EQ(end.order, 1u);
  EXPECT_EQ(end.insn, Assemble("halt").words[0]);
  EXPECT_EQ(end.exec, 0xffu);
  EXPECT_FALSE(m.model.running());
  EXPECT_EQ(m.model.pc(), kCode + 8);
  EXPECT_EQ(m.model.instret(), 2u);
}

TEST(ModelTrap, ApiContract) {
  Memory mem(0x100);
  EXPECT_THROW(Model(4, &mem), std::invalid_argument);
  EXPECT_THROW(Model(64, &mem), std::invalid_argument);
  EXPECT_THROW(Model(8, nullptr), std::invalid_argument);
  Model model(32, &mem);
  EXPECT_EQ(model.num_lanes(), 32u);
  EXPECT_FALSE(model.running());
  EXPECT_THROW(model.Step(), std::logic_error);
  EXPECT_THROW(model.vreg(32, 0), std::out_of_range);
  EXPECT_THROW(model.vreg(0, 32), std::out_of_range);
  EXPECT_THROW(model.sreg(32), std::out_of_range);
  LaunchParams p;
  p.mem_limit = 0x100;
  model.Start(p);
  EXPECT_EQ(model.exec(), 0xffffffffu);
  EXPECT_TRUE(model.running());
  const Retire r = model.Step();  // zero word at 0
  EXPECT_EQ(r.cause, Cause::kIllegalInsn);
}

}  // namespace
}  // namespace test
}  // namespace sgu
