// SPDX-License-Identifier: Apache-2.0
// Lockstep co-simulation: the Verilated RTL and the golden model run the same kernel; every RTL
// retire record steps the model once and is compared with the model's record (Ibex-style cosim).
#ifndef SGU_TB_COSIM_H_
#define SGU_TB_COSIM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rtl_sim.h"
#include "sgu/model.h"

namespace sgu::tb {

struct CosimOptions {
  RtlSimOptions rtl;                 // SIMD width, AXI randomness, waveform
  uint32_t watchdog_cycles = 0;      // WATCHDOG register (0: none)
  uint64_t hang_cycles = 200000;     // host-side stop: cycles without a retire record
  uint64_t max_instructions = 0;     // host-side stop after this many records (0: none)
  bool check = true;                 // false: run the RTL alone (benchmarks)
};

enum class CosimStatus {
  kHalted,      // halt retired, every record matched
  kTrapped,     // a trap retired (both sides agree), every record before matched
  kWatchdog,    // the RTL watchdog stopped the kernel
  kMismatch,    // RTL and model disagree: see report
  kHang,        // the RTL stopped retiring
  kLimit,       // max_instructions reached
};

const char* CosimStatusName(CosimStatus s);

struct CosimResult {
  CosimStatus status = CosimStatus::kHalted;
  std::string report;                // mismatch / hang description, empty otherwise
  Retire last;                       // last RTL record (halt, trap, or where it stopped)
  uint64_t cycles = 0;               // cycles from start to the last record
  uint64_t instructions = 0;         // retire records
  std::vector<Diagnostic> diagnostics;  // from the golden model
};

class Cosim {
 public:
  // image: the initial memory (program and data, error ranges); both sides get a copy. The
  // memories persist across Run() calls, so one Cosim can run many launches (the driver runs
  // every sub-group of an NDRange on one).
  Cosim(const CosimOptions& opts, const Memory& image);
  // The options of the next Run (watchdog, limits, checking).
  CosimOptions& options() { return opts_; }
  ~Cosim();

  // One launch: starts the RTL (through its AXI4-Lite registers) and the model, runs to halt,
  // trap or a stop, then compares the whole memory of both sides.
  CosimResult Run(const LaunchParams& launch);

  // Host writes between launches (like host DMA into the memory the unit reads): the bytes go
  // into both memories. Only while no launch runs. Throws std::out_of_range beyond the memory.
  void HostWrite(uint32_t addr, const uint8_t* bytes, size_t n);

  const Memory& rtl_memory() const { return rtl_mem_; }
  const Memory& model_memory() const { return model_mem_; }
  RtlSim& rtl() { return *rtl_; }

 private:
  // Compares one record; returns an empty string when equal, else the report.
  std::string Compare(const RtlRetire& got, const Retire& want) const;

  CosimOptions opts_;
  Memory rtl_mem_;
  Memory model_mem_;
  std::unique_ptr<RtlSim> rtl_;
  Model model_;
};

}  // namespace sgu::tb

#endif  // SGU_TB_COSIM_H_
