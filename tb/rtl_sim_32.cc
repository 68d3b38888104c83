// SPDX-License-Identifier: Apache-2.0
// RtlSim for the SIMD32 model (AXI data width 512 bits), compiled in its own unit.
#include "Vsgu_top32.h"
#include "rtl_sim_impl.h"

namespace sgu::tb {

std::unique_ptr<RtlSim> CreateRtlSim32(const RtlSimOptions& opts, Memory* mem) {
  return std::make_unique<RtlSimImpl<Vsgu_top32, 32, AxiDataBitsFor(32)>>(opts, mem);
}

}  // namespace sgu::tb
