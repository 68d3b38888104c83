// SPDX-License-Identifier: Apache-2.0
// RtlSim: one Verilated SGU (sgu_top at SIMD 8, 16 or 32) with its AXI memory, driven cycle by cycle.
#ifndef SGU_TB_RTL_SIM_H_
#define SGU_TB_RTL_SIM_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "axi_mem.h"
#include "sgu/model.h"

namespace sgu::tb {

// Waveform time: the FST counts in ns and one clock cycle lasts kClockPeriodNs (100 MHz), the
// clock low in its first half. Cycle c spans [c * kClockPeriodNs, (c + 1) * kClockPeriodNs).
inline constexpr uint64_t kClockPeriodNs = 10;

// AXI4 data width of the Verilated model of each SIMD width (-GAxiDataWidth in tb/CMakeLists.txt):
// both ends of the 64..512-bit range are exercised by every test run.
constexpr unsigned AxiDataBitsFor(unsigned num_lanes) {
  return num_lanes == 8 ? 64 : num_lanes == 16 ? 256 : 512;
}

// Options of one simulated unit.
struct RtlSimOptions {
  unsigned num_lanes = 16;        // 8, 16 or 32: selects the Verilated model
  uint64_t seed = 1;              // AXI memory latency / backpressure randomness
  unsigned max_latency = 0;       // AXI memory: extra random cycles per burst
  unsigned ready_percent = 100;   // AXI memory: probability of ready / data offered per cycle
  unsigned lite_max_delay = 0;    // AXI4-Lite master: BREADY/RREADY held low for a random 0..this
                                  // many cycles of a raised BVALID/RVALID, AWVALID/WVALID raised
                                  // after 0..this many cycles each (seeded by `seed`)
  std::string trace_path;         // non-empty: write an FST waveform here
};

// A retire record of the RTL plus the cycle it appeared in and the AXI writes performed since
// the previous record (the stores of this instruction).
struct RtlRetire {
  uint64_t cycle = 0;
  Retire rec;                       // same shape as the golden model's record (mem_writes unused)
  std::vector<AxiWrite> axi_writes;
};

class RtlSimError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RtlSim {
 public:
  virtual ~RtlSim() = default;

  // Creates the model for opts.num_lanes (8/16/32; std::invalid_argument otherwise). The memory
  // mem (shared with nothing else) must outlive the simulator.
  static std::unique_ptr<RtlSim> Create(const RtlSimOptions& opts, Memory* mem);

  virtual unsigned num_lanes() const = 0;
  virtual unsigned axi_data_bits() const = 0;
  // Holds reset for a few cycles and releases it.
  virtual void Reset() = 0;
  // AXI4-Lite register access through the slave port (takes a few cycles each).
  virtual void WriteCsr(uint32_t addr, uint32_t value) = 0;
  virtual uint32_t ReadCsr(uint32_t addr) = 0;
  // Writes the launch registers and CTRL.start.
  virtual void Launch(const LaunchParams& p, uint32_t watchdog_cycles) = 0;
  // Advances one clock cycle; returns the retire record if one appeared in it. Records that
  // appeared during a WriteCsr/ReadCsr come first, one per call, without advancing the clock.
  virtual std::optional<RtlRetire> Tick() = 0;
  virtual bool irq() const = 0;           // irq_o: a run finished (halt or trap) since the last start
  virtual uint64_t cycle() const = 0;     // cycles since construction
  virtual const AxiMemory& axi() const = 0;
  // Clock edges at which the AXI4-Lite slave held a response (BVALID or RVALID) that the
  // master did not take (READY low): the trigger of the CSR block's stability assertions.
  virtual uint64_t lite_response_stalls() const = 0;
  // Flushes and closes the waveform (also done by the destructor).
  virtual void Finish() = 0;
};

}  // namespace sgu::tb

#endif  // SGU_TB_RTL_SIM_H_
