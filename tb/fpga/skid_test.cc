// SPDX-License-Identifier: Apache-2.0
// Tests of the register slice of one valid/ready channel (rtl/sgu_skid.sv), verilated alone
// with a 16-bit payload: under random valid and ready timing every transfer the sender makes
// leaves, once, in order, with its payload; the slice takes one transfer per cycle while the
// receiver is always ready; the sender's valid and payload are held until their handshake, as
// AXI requires of a sender, and the slice's own output obeys the same rule (checked here and by
// its assertion Hold_A).
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <random>

#include "Vsgu_skid.h"
#include "fpga_test_util.h"

namespace sgu::tb {
namespace {

struct SkidRun {
  uint64_t sent = 0, received = 0, cycles = 0;
};

// Runs `transfers` transfers through the slice. valid_pct / ready_pct: the chance per cycle that
// an idle sender offers its next payload, and that the receiver is ready.
SkidRun RunSkid(uint64_t seed, unsigned valid_pct, unsigned ready_pct, uint64_t transfers) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(seed & 0x7fffffff));
  auto m = std::make_unique<Vsgu_skid>(ctx.get());
  std::mt19937_64 rng(seed);
  auto pct = [&](unsigned p) { return (rng() % 100) < p; };

  // Reset: a falling edge of rst_ni (the flip-flops' asynchronous reset; the inputs start at
  // random values), two clock edges in reset, then release.
  m->clk_i = 0;
  m->rst_ni = 1;
  m->s_valid_i = 0;
  m->m_ready_i = 0;
  m->eval();
  m->rst_ni = 0;
  m->eval();
  for (int i = 0; i < 2; ++i) {
    m->clk_i = 1;
    m->eval();
    m->clk_i = 0;
    m->eval();
  }
  m->rst_ni = 1;
  m->eval();

  std::deque<uint16_t> in_flight;  // sent, not yet received, in order
  SkidRun r;
  bool offering = false;
  uint16_t payload = 0;
  bool out_was_waiting = false;
  uint16_t out_held = 0;
  while (r.received < transfers) {
    if (!offering && r.sent < transfers && pct(valid_pct)) {
      offering = true;
      payload = static_cast<uint16_t>(rng());
    }
    m->s_valid_i = offering;
    m->s_data_i = payload;
    m->m_ready_i = pct(ready_pct);
    m->clk_i = 0;
    m->eval();
    // The slice's output keeps valid and payload until taken.
    if (out_was_waiting) {
      EXPECT_TRUE(m->m_valid_o) << "cycle " << r.cycles << ": valid dropped before its handshake";
      EXPECT_EQ(m->m_data_o, out_held) << "cycle " << r.cycles << ": payload changed while waiting";
    }
    const bool take_in = m->s_valid_i && m->s_ready_o;
    const bool take_out = m->m_valid_o && m->m_ready_i;
    if (take_out) {
      EXPECT_FALSE(in_flight.empty()) << "cycle " << r.cycles << ": a transfer nobody sent";
      if (!in_flight.empty()) {
        EXPECT_EQ(m->m_data_o, in_flight.front()) << "cycle " << r.cycles << ": transfer "
                                                  << r.received;
        in_flight.pop_front();
      }
      ++r.received;
    }
    out_was_waiting = m->m_valid_o && !m->m_ready_i;
    out_held = m->m_data_o;
    if (take_in) {
      in_flight.push_back(payload);
      ++r.sent;
      offering = false;
    }
    m->clk_i = 1;
    m->eval();
    ++r.cycles;
    EXPECT_LE(in_flight.size(), 2u) << "cycle " << r.cycles;
    if (r.cycles > 100 * (transfers + 10)) {
      ADD_FAILURE() << "stalled: " << r.sent << " sent, " << r.received << " received";
      break;
    }
  }
  m->final();
  return r;
}

TEST(SkidTest, RandomTimingKeepsEveryTransferInOrder) {
  for (unsigned valid_pct : {30u, 70u, 100u}) {
    for (unsigned ready_pct : {20u, 60u, 100u}) {
      SCOPED_TRACE(testing::Message() << "valid " << valid_pct << " %, ready " << ready_pct
                                      << " %");
      const SkidRun r =
          RunSkid(SeedFromEnv(1) + valid_pct * 1000 + ready_pct, valid_pct, ready_pct, 3000);
      EXPECT_EQ(r.sent, 3000u);
      EXPECT_EQ(r.received, 3000u);
    }
  }
}

TEST(SkidTest, OneTransferPerCycleWhenNeverStalled) {
  // Sender always valid, receiver always ready: the first transfer leaves one cycle after it
  // entered, then one per cycle.
  const SkidRun r = RunSkid(SeedFromEnv(1), 100, 100, 1000);
  EXPECT_EQ(r.received, 1000u);
  EXPECT_EQ(r.cycles, 1001u);
}

}  // namespace
}  // namespace sgu::tb
