// SPDX-License-Identifier: Apache-2.0
// The driver's view of one unit: a memory the host reads and writes between launches, and a
// launch that runs one sub-group to its end. One implementation per backend (golden, rtl, cosim).
#ifndef SGU_DRIVER_BACKEND_H_
#define SGU_DRIVER_BACKEND_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sgu/driver.h"
#include "sgu/model.h"

namespace sgu::driver::internal {

// How one sub-group launch ended.
struct LaunchOutcome {
  enum Kind { kHalted, kTrapped, kHang, kMismatch } kind = kHalted;
  isa::Cause cause = isa::Cause::kNone;  // kTrapped (and kHang from the RTL watchdog)
  uint32_t pc = 0;
  uint32_t tval = 0;
  uint64_t cycles = 0;        // the CYCLES register (rtl, cosim)
  uint64_t instructions = 0;  // retired instructions (the trapping one included)
  uint64_t icache_hits = 0, icache_misses = 0;  // ICACHE_HITS / ICACHE_MISSES (rtl, cosim)
  std::vector<Diagnostic> diagnostics;  // golden model sanitizer (golden, cosim)
  std::string report;         // kHang, kMismatch
};

class Unit {
 public:
  virtual ~Unit() = default;
  // Host access to the unit's memory while it is idle (host DMA).
  virtual void Write(uint32_t addr, const uint8_t* bytes, size_t n) = 0;
  virtual void Read(uint32_t addr, uint8_t* bytes, size_t n) const = 0;
  // Runs one sub-group: the launch registers of `p`, start, wait for the end.
  virtual LaunchOutcome Run(const LaunchParams& p) = 0;
  // Closes the waveform, if any.
  virtual void Finish() {}
};

// `image` is the initial memory (code, launch block, arguments, error ranges of the guard gaps).
std::unique_ptr<Unit> MakeGoldenUnit(const DeviceOptions& opts, Memory image);
std::unique_ptr<Unit> MakeRtlUnit(const DeviceOptions& opts, Memory image);
std::unique_ptr<Unit> MakeCosimUnit(const DeviceOptions& opts, const Memory& image);

// The WATCHDOG register value for a cycle budget (clamped to 32 bits).
uint32_t WatchdogRegister(uint64_t watchdog_cycles);

}  // namespace sgu::driver::internal

#endif  // SGU_DRIVER_BACKEND_H_
