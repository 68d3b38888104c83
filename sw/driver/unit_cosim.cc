// SPDX-License-Identifier: Apache-2.0
// The cosim backend: tb::Cosim runs each sub-group on the Verilated RTL in lockstep with the
// golden model (every retire record compared, then the whole memory). One Cosim serves the whole
// NDRange; the host writes descriptors into both memories between launches.
#include <stdexcept>

#include "backend.h"
#include "cosim.h"

namespace sgu::driver::internal {
namespace {

class CosimUnit final : public Unit {
 public:
  CosimUnit(const DeviceOptions& opts, const Memory& image) {
    tb::CosimOptions co;
    co.rtl.num_lanes = opts.simd;
    co.rtl.seed = opts.seed;
    co.rtl.max_latency = opts.random_axi ? 4 : 0;
    co.rtl.ready_percent = opts.random_axi ? 60 : 100;
    co.rtl.trace_path = opts.trace_path;
    co.watchdog_cycles = WatchdogRegister(opts.watchdog_cycles);
    if (opts.hang_cycles) co.hang_cycles = opts.hang_cycles;
    cosim_ = std::make_unique<tb::Cosim>(co, image);
  }
  ~CosimUnit() override { Finish(); }

  void Write(uint32_t addr, const uint8_t* bytes, size_t n) override {
    cosim_->HostWrite(addr, bytes, n);
  }
  void Read(uint32_t addr, uint8_t* bytes, size_t n) const override {
    const Memory& m = cosim_->rtl_memory();
    if (uint64_t{addr} + n > m.size()) throw std::out_of_range("cosim unit: read beyond memory");
    for (size_t i = 0; i < n; ++i) bytes[i] = m.data()[addr + i];
  }

  LaunchOutcome Run(const LaunchParams& p) override {
    const tb::CosimResult r = cosim_->Run(p);
    LaunchOutcome out;
    out.instructions = r.instructions;
    out.cycles = r.cycles;
    out.diagnostics = r.diagnostics;
    out.pc = r.last.pc;
    out.report = r.report;
    switch (r.status) {
      case tb::CosimStatus::kHalted: out.kind = LaunchOutcome::kHalted; break;
      case tb::CosimStatus::kTrapped:
        out.kind = LaunchOutcome::kTrapped;
        out.cause = r.last.cause;
        out.tval = r.last.tval;
        break;
      case tb::CosimStatus::kWatchdog:
        out.kind = LaunchOutcome::kHang;
        out.cause = isa::Cause::kWatchdog;
        out.tval = r.last.tval;
        break;
      case tb::CosimStatus::kMismatch: out.kind = LaunchOutcome::kMismatch; break;
      case tb::CosimStatus::kHang:
      case tb::CosimStatus::kLimit: out.kind = LaunchOutcome::kHang; break;
    }
    if (out.kind == LaunchOutcome::kHalted || out.kind == LaunchOutcome::kTrapped) {
      // The unit's own counters, read over AXI4-Lite as the rtl backend does.
      tb::RtlSim& s = cosim_->rtl();
      out.cycles = s.ReadCsr(isa::csr::kCyclesLo) | uint64_t{s.ReadCsr(isa::csr::kCyclesHi)} << 32;
      out.icache_hits = s.ReadCsr(isa::csr::kIcacheHitsLo) |
                        uint64_t{s.ReadCsr(isa::csr::kIcacheHitsHi)} << 32;
      out.icache_misses = s.ReadCsr(isa::csr::kIcacheMissesLo) |
                          uint64_t{s.ReadCsr(isa::csr::kIcacheMissesHi)} << 32;
    }
    return out;
  }

  void Finish() override {
    if (cosim_) cosim_->rtl().Finish();
  }

 private:
  std::unique_ptr<tb::Cosim> cosim_;
};

}  // namespace

std::unique_ptr<Unit> MakeCosimUnit(const DeviceOptions& opts, const Memory& image) {
  return std::make_unique<CosimUnit>(opts, image);
}

}  // namespace sgu::driver::internal
