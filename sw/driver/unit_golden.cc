// SPDX-License-Identifier: Apache-2.0
// The golden backend: sgu::Model stepping each sub-group to its halt or trap. The watchdog is an
// instruction budget (the model has no cycles).
#include <cstring>
#include <stdexcept>

#include "backend.h"

namespace sgu::driver::internal {
namespace {

class GoldenUnit final : public Unit {
 public:
  GoldenUnit(const DeviceOptions& opts, Memory image)
      : budget_(opts.watchdog_cycles), mem_(std::move(image)), model_(opts.simd, &mem_) {}

  void Write(uint32_t addr, const uint8_t* bytes, size_t n) override {
    if (uint64_t{addr} + n > mem_.size()) throw std::out_of_range("golden unit: write too far");
    if (n) std::memcpy(mem_.data() + addr, bytes, n);
  }
  void Read(uint32_t addr, uint8_t* bytes, size_t n) const override {
    if (uint64_t{addr} + n > mem_.size()) throw std::out_of_range("golden unit: read too far");
    if (n) std::memcpy(bytes, mem_.data() + addr, n);
  }

  LaunchOutcome Run(const LaunchParams& p) override {
    LaunchOutcome out;
    model_.Start(p);
    Retire last;
    while (model_.running()) {
      if (budget_ != 0 && model_.instret() >= budget_) {
        out.kind = LaunchOutcome::kHang;
        out.pc = model_.pc();
        out.report = "the sub-group did not halt within " + std::to_string(budget_) +
                     " instructions (the golden backend's watchdog, --watchdog)";
        break;
      }
      last = model_.Step();
    }
    if (!model_.running()) {
      if (last.trap) {
        out.kind = LaunchOutcome::kTrapped;
        out.cause = last.cause;
        out.tval = last.tval;
      }
      out.pc = last.pc;
    }
    out.instructions = model_.instret();
    out.diagnostics = model_.diagnostics();
    return out;
  }

 private:
  uint64_t budget_;
  Memory mem_;
  Model model_;
};

}  // namespace

std::unique_ptr<Unit> MakeGoldenUnit(const DeviceOptions& opts, Memory image) {
  return std::make_unique<GoldenUnit>(opts, std::move(image));
}

uint32_t WatchdogRegister(uint64_t watchdog_cycles) {
  return watchdog_cycles > 0xffffffffu ? 0xffffffffu : static_cast<uint32_t>(watchdog_cycles);
}

}  // namespace sgu::driver::internal
