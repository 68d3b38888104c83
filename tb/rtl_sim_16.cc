// SPDX-License-Identifier: Apache-2.0
// RtlSim for the SIMD16 model (AXI data width 256 bits), compiled in its own unit.
#include "Vsgu_top16.h"
#include "rtl_sim_impl.h"

namespace sgu::tb {

std::unique_ptr<RtlSim> CreateRtlSim16(const RtlSimOptions& opts, Memory* mem) {
  return std::make_unique<RtlSimImpl<Vsgu_top16, 16, AxiDataBitsFor(16)>>(opts, mem);
}

}  // namespace sgu::tb
