// SPDX-License-Identifier: Apache-2.0
// GTKWave save file (.gtkw) for an SGU waveform: the signals a person looks at first, grouped.
#ifndef SGU_TB_GTKW_H_
#define SGU_TB_GTKW_H_

#include <string>

namespace sgu::tb {

// Writes `path`: opens `fst_path`, with groups Control (clock, reset, state, pc, exec, fetch),
// Retire port, AXI4 master, AXI4-Lite, and one group per lane (operands, result, written value).
// Throws std::runtime_error when the file cannot be written.
void WriteGtkw(const std::string& path, const std::string& fst_path, unsigned num_lanes);

}  // namespace sgu::tb

#endif  // SGU_TB_GTKW_H_
