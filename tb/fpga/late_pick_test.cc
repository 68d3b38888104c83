// SPDX-License-Identifier: Apache-2.0
// Tests of rtl/sgu_late_pick.sv in its ECP5 build (SGU_ECP5: one LUT4 per bit with a hand-made
// INIT, simulated with the behavioural LUT4 of tb/fpga/lut4_model.sv) and its default build, with
// and without the enable, with b taken as zero, and with a second select: every combination of
// selects, choices and enable on each bit must give en && (sel ? a : b), or (sel && sel2) ? a : b,
// computed here.
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdint>
#include <memory>

#include "Vsgu_late_pick_ecp5.h"
#include "Vsgu_late_pick_ecp5_en.h"
#include "Vsgu_late_pick_ecp5_zero.h"
#include "Vsgu_late_pick_generic_en.h"
#include "Vsgu_late_pick_ecp5_sel2.h"
#include "Vsgu_late_pick_generic_sel2.h"

namespace sgu::tb {
namespace {

constexpr int kWidth = 3;  // the models' Width
constexpr uint32_t kMask = (1u << kWidth) - 1;

uint32_t Expected(bool sel, uint32_t a, uint32_t b, uint32_t en) {
  return (sel ? a : b) & en & kMask;
}

struct Mode {
  bool has_en;
  bool zero_b;
};

// Every select and every a, b and enable pattern over kWidth bits: 2 * 8^3 cases.
template <typename M>
void CheckAll(M& m, Mode mode) {
  for (int sel = 0; sel < 2; sel++) {
    for (uint32_t a = 0; a <= kMask; a++) {
      for (uint32_t b = 0; b <= kMask; b++) {
        for (uint32_t en = 0; en <= kMask; en++) {
          m.sel_i = sel;
          m.a_i = a;
          m.b_i = b;
          m.en_i = en;
          m.eval();
          const uint32_t want =
              Expected(sel, a, mode.zero_b ? 0 : b, mode.has_en ? en : kMask);
          ASSERT_EQ(m.y_o, want) << "sel " << sel << " a " << a << " b " << b << " en " << en;
        }
      }
    }
  }
}

// Sel2: both selects and every a, b (the enable ignored: random patterns).
template <typename M>
void CheckAllSel2(M& m) {
  for (int sel = 0; sel < 2; sel++) {
    for (int sel2 = 0; sel2 < 2; sel2++) {
      for (uint32_t a = 0; a <= kMask; a++) {
        for (uint32_t b = 0; b <= kMask; b++) {
          m.sel_i = sel;
          m.sel2_i = sel2;
          m.a_i = a;
          m.b_i = b;
          m.en_i = (a * 5 + b * 3 + sel) & kMask;
          m.eval();
          ASSERT_EQ(m.y_o, Expected(sel && sel2, a, b, kMask))
              << "sel " << sel << " sel2 " << sel2 << " a " << a << " b " << b;
        }
      }
    }
  }
}

TEST(LatePickTest, EcpBuildWithoutEnableIsTheMultiplexer) {
  auto ctx = std::make_unique<VerilatedContext>();
  Vsgu_late_pick_ecp5 m(ctx.get());
  CheckAll(m, {false, false});
}

TEST(LatePickTest, EcpBuildWithEnableClearsWhereTheEnableIsClear) {
  auto ctx = std::make_unique<VerilatedContext>();
  Vsgu_late_pick_ecp5_en m(ctx.get());
  CheckAll(m, {true, false});
}

TEST(LatePickTest, EcpBuildWithZeroBIsTheSelectAndA) {
  auto ctx = std::make_unique<VerilatedContext>();
  Vsgu_late_pick_ecp5_zero m(ctx.get());
  CheckAll(m, {false, true});
}

TEST(LatePickTest, EcpBuildWithSel2SelectsOnBoth) {
  auto ctx = std::make_unique<VerilatedContext>();
  Vsgu_late_pick_ecp5_sel2 m(ctx.get());
  CheckAllSel2(m);
}

TEST(LatePickTest, DefaultBuildWithSel2SelectsOnBoth) {
  auto ctx = std::make_unique<VerilatedContext>();
  Vsgu_late_pick_generic_sel2 m(ctx.get());
  CheckAllSel2(m);
}

TEST(LatePickTest, DefaultBuildWithEnable) {
  auto ctx = std::make_unique<VerilatedContext>();
  Vsgu_late_pick_generic_en m(ctx.get());
  CheckAll(m, {true, false});
}

}  // namespace
}  // namespace sgu::tb
