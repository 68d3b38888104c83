// SPDX-License-Identifier: Apache-2.0
// RtlSim factory: picks the Verilated model of the requested SIMD width.
#include "rtl_sim.h"

namespace sgu::tb {

std::unique_ptr<RtlSim> CreateRtlSim8(const RtlSimOptions& opts, Memory* mem);
std::unique_ptr<RtlSim> CreateRtlSim16(const RtlSimOptions& opts, Memory* mem);
std::unique_ptr<RtlSim> CreateRtlSim32(const RtlSimOptions& opts, Memory* mem);

std::unique_ptr<RtlSim> RtlSim::Create(const RtlSimOptions& opts, Memory* mem) {
  switch (opts.num_lanes) {
    case 8: return CreateRtlSim8(opts, mem);
    case 16: return CreateRtlSim16(opts, mem);
    case 32: return CreateRtlSim32(opts, mem);
    default:
      throw std::invalid_argument("SIMD width must be 8, 16 or 32, not " +
                                  std::to_string(opts.num_lanes));
  }
}

}  // namespace sgu::tb
