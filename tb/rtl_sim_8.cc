// SPDX-License-Identifier: Apache-2.0
// RtlSim for the SIMD8 model (AXI data width 64 bits), compiled in its own unit.
#include "Vsgu_top8.h"
#include "rtl_sim_impl.h"

namespace sgu::tb {

std::unique_ptr<RtlSim> CreateRtlSim8(const RtlSimOptions& opts, Memory* mem) {
  return std::make_unique<RtlSimImpl<Vsgu_top8, 8, AxiDataBitsFor(8)>>(opts, mem);
}

}  // namespace sgu::tb
