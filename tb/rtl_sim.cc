// SPDX-License-Identifier: Apache-2.0
// RtlSim factory: picks the Verilated model of the requested SIMD width and build.
#include "rtl_sim.h"

namespace sgu::tb {

// tb/rtl_sim_model.cc.in, one per build and width (tb/CMakeLists.txt).
std::unique_ptr<RtlSim> CreateRtlSimChecked8(const RtlSimOptions& opts, Memory* mem);
std::unique_ptr<RtlSim> CreateRtlSimChecked16(const RtlSimOptions& opts, Memory* mem);
std::unique_ptr<RtlSim> CreateRtlSimChecked32(const RtlSimOptions& opts, Memory* mem);
#ifdef SGU_RTL_FAST
std::unique_ptr<RtlSim> CreateRtlSimFast8(const RtlSimOptions& opts, Memory* mem);
std::unique_ptr<RtlSim> CreateRtlSimFast16(const RtlSimOptions& opts, Memory* mem);
std::unique_ptr<RtlSim> CreateRtlSimFast32(const RtlSimOptions& opts, Memory* mem);
#endif

std::unique_ptr<RtlSim> RtlSim::Create(const RtlSimOptions& opts, Memory* mem) {
#ifdef SGU_RTL_FAST
  // The tools' library (sgu_rtl_fast): the fast models, built without waveform support
  // (Verilator's --trace keeps every signal in memory and flags its changes at every edge:
  // 12 % of the SIMD16 model's instructions, docs/performance.md). A run that writes a
  // waveform takes the checking build instead (assertions on, X random from the run's seed).
  if (opts.trace_path.empty()) {
    switch (opts.num_lanes) {
      case 8: return CreateRtlSimFast8(opts, mem);
      case 16: return CreateRtlSimFast16(opts, mem);
      case 32: return CreateRtlSimFast32(opts, mem);
      default: break;  // the error below
    }
  }
#endif
  switch (opts.num_lanes) {
    case 8: return CreateRtlSimChecked8(opts, mem);
    case 16: return CreateRtlSimChecked16(opts, mem);
    case 32: return CreateRtlSimChecked32(opts, mem);
    default:
      throw std::invalid_argument("SIMD width must be 8, 16 or 32, not " +
                                  std::to_string(opts.num_lanes));
  }
}

}  // namespace sgu::tb
