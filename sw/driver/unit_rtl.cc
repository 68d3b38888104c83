// SPDX-License-Identifier: Apache-2.0
// The rtl backend: the Verilated unit driven only through its AXI4-Lite registers, as a host
// drives the real hardware: write PC_START, LANES, MEM_BASE, MEM_LIMIT, WATCHDOG, ARG0/ARG1 and
// CTRL.start, wait for irq, then read STATUS, CAUSE, TRAP_PC, TRAP_VAL, CYCLES and INSTRET.
// Host memory writes go straight into the memory the AXI memory model serves (host DMA).
#include <cstring>
#include <stdexcept>

#include "backend.h"
#include "rtl_sim.h"

namespace sgu::driver::internal {
namespace {

namespace csr = isa::csr;

constexpr uint32_t kStatusBusy = 1, kStatusDone = 2, kStatusTrapped = 4;

class RtlUnit final : public Unit {
 public:
  RtlUnit(const DeviceOptions& opts, Memory image) : opts_(opts), mem_(std::move(image)) {
    tb::RtlSimOptions ro;
    ro.num_lanes = opts.simd;
    ro.seed = opts.seed;
    ro.max_latency = opts.random_axi ? 4 : 0;
    ro.ready_percent = opts.random_axi ? 60 : 100;
    ro.trace_path = opts.trace_path;
    sim_ = tb::RtlSim::Create(ro, &mem_);
    sim_->Reset();
  }
  ~RtlUnit() override { Finish(); }

  void Write(uint32_t addr, const uint8_t* bytes, size_t n) override {
    if (uint64_t{addr} + n > mem_.size()) throw std::out_of_range("rtl unit: write beyond memory");
    if (n) std::memcpy(mem_.data() + addr, bytes, n);
  }
  void Read(uint32_t addr, uint8_t* bytes, size_t n) const override {
    if (uint64_t{addr} + n > mem_.size()) throw std::out_of_range("rtl unit: read beyond memory");
    if (n) std::memcpy(bytes, mem_.data() + addr, n);
  }

  LaunchOutcome Run(const LaunchParams& p) override {
    tb::RtlSim& s = *sim_;
    LaunchOutcome out;
    s.WriteCsr(csr::kPcStart, p.pc_start);
    s.WriteCsr(csr::kLanes, p.lanes);
    s.WriteCsr(csr::kMemBase, p.mem_base);
    s.WriteCsr(csr::kMemLimit, p.mem_limit);
    s.WriteCsr(csr::kWatchdog, WatchdogRegister(opts_.watchdog_cycles));
    s.WriteCsr(csr::kArg0, p.args[0]);
    s.WriteCsr(csr::kArg1, p.args[1]);
    s.WriteCsr(csr::kCtrl, 1);
    // Wait for the interrupt; a unit that retires nothing for hang_cycles is stuck.
    uint64_t last_retire = s.cycle();
    uint32_t last_pc = p.pc_start;
    while (!s.irq()) {
      if (auto r = s.Tick()) {
        last_retire = s.cycle();
        last_pc = r->rec.pc;
      } else if (opts_.hang_cycles && s.cycle() - last_retire > opts_.hang_cycles) {
        out.kind = LaunchOutcome::kHang;
        out.pc = last_pc;
        out.report = "the RTL retired nothing for " + std::to_string(opts_.hang_cycles) +
                     " cycles (last pc " + Hex(last_pc) + ")";
        return out;
      }
    }
    // The run is over; let the memory finish the traffic in flight before the host reads it.
    for (int i = 0; i < 10000 && !s.axi().Idle(); ++i) s.Tick();
    const uint32_t status = s.ReadCsr(csr::kStatus);
    out.cycles = s.ReadCsr(csr::kCyclesLo) | uint64_t{s.ReadCsr(csr::kCyclesHi)} << 32;
    out.instructions = s.ReadCsr(csr::kInstretLo) | uint64_t{s.ReadCsr(csr::kInstretHi)} << 32;
    out.icache_hits =
        s.ReadCsr(csr::kIcacheHitsLo) | uint64_t{s.ReadCsr(csr::kIcacheHitsHi)} << 32;
    out.icache_misses =
        s.ReadCsr(csr::kIcacheMissesLo) | uint64_t{s.ReadCsr(csr::kIcacheMissesHi)} << 32;
    if (status & kStatusBusy) {
      out.kind = LaunchOutcome::kHang;
      out.report = "irq raised while STATUS is busy (0x" + Hex(status) + ")";
    } else if (status & kStatusTrapped) {
      out.cause = static_cast<isa::Cause>(s.ReadCsr(csr::kCause));
      out.pc = s.ReadCsr(csr::kTrapPc);
      out.tval = s.ReadCsr(csr::kTrapVal);
      if (out.cause == isa::Cause::kWatchdog) {
        out.kind = LaunchOutcome::kHang;
        out.report = "watchdog: the sub-group did not halt within " +
                     std::to_string(WatchdogRegister(opts_.watchdog_cycles)) +
                     " cycles (stopped at pc " + Hex(out.pc) + ")";
      } else {
        out.kind = LaunchOutcome::kTrapped;
      }
    } else if (!(status & kStatusDone)) {
      out.kind = LaunchOutcome::kHang;
      out.report = "irq raised but STATUS shows neither done nor trapped (0x" + Hex(status) + ")";
    }
    return out;
  }

  void Finish() override {
    if (sim_) sim_->Finish();
  }

 private:
  static std::string Hex(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%08x", v);
    return b;
  }

  DeviceOptions opts_;
  Memory mem_;
  std::unique_ptr<tb::RtlSim> sim_;
};

}  // namespace

std::unique_ptr<Unit> MakeRtlUnit(const DeviceOptions& opts, Memory image) {
  return std::make_unique<RtlUnit>(opts, std::move(image));
}

}  // namespace sgu::driver::internal
