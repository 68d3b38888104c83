// SPDX-License-Identifier: Apache-2.0
// GTKWave save file (.gtkw) for an SGU waveform: the signals a person looks at first, grouped,
// the whole run in view, and the retired instruction as disassembly text with its source line
// (docs/waveforms.md).
#ifndef SGU_TB_GTKW_H_
#define SGU_TB_GTKW_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sgu/binary.h"

namespace sgu::tb {

// Compiled code loaded into the unit's memory, for the source lines of the instruction trace:
// a pc in [base, base + size) maps through `lines` (offsets from base) to `files`.
struct GtkwCode {
  uint32_t base = 0;               // address of the kernel's first instruction
  uint32_t size = 0;               // bytes of code: Kernel::code.size() * 8
  std::vector<LineEntry> lines;    // Kernel::lines
  std::vector<std::string> files;  // Binary::files
};

struct GtkwOptions {
  unsigned num_lanes = 16;  // SIMD width of the traced model: 8, 16 or 32
  // Clock cycles in the waveform (RtlSim::cycle() at the end of the run): the view opens on all
  // of them. 0: the end time is read from the FST, which must be closed (RtlSim::Finish) by
  // then; if it cannot be read, GTKWave opens at its default zoom.
  uint64_t cycles = 0;
  // Kernels whose pcs map to source lines. Non-empty: the line table is written beside the
  // .gtkw (GtkwLineTablePath) and the instruction trace shows " ; file.cl:12" after each
  // instruction of them.
  std::vector<GtkwCode> code;
  // The translate filter process (sgu-gtkw-filter); empty: the one built with this testbench.
  // GTKWave runs it by this absolute path, which must not contain whitespace; when it is
  // missing GTKWave still opens the file and shows the instruction trace as hexadecimal.
  std::string filter;
};

// Writes the save file `path` for the waveform `fst_path`: groups Control, Retire port (with the
// "instruction" trace), AXI4 master (AR, R, AW, W, B), AXI4-Lite slave and one group per lane;
// time in ns (kClockPeriodNs per cycle), zoomed to show the whole run. Paths in the file are
// absolute, so GTKWave can be started from any directory. Throws std::runtime_error when a file
// cannot be written, std::invalid_argument for a bad SIMD width or line table.
void WriteGtkw(const std::string& path, const std::string& fst_path, const GtkwOptions& opts);

// The same with GtkwOptions{num_lanes}: no source lines, end time from the (closed) FST.
void WriteGtkw(const std::string& path, const std::string& fst_path, unsigned num_lanes);

// The line table written beside a save file: "dir/k.gtkw" -> "dir/k.lines".
std::string GtkwLineTablePath(const std::string& gtkw_path);

// The default filter executable (the sgu-gtkw-filter of this build).
std::string DefaultGtkwFilter();

// What an FST holds, as GTKWave names it: signals "TOP.sgu_top.rvfi_pc_o[31:0]" (scopes joined
// with '.', the vector range appended), time unit 10^timescale s, first and last time stamps.
struct FstHeader {
  int timescale = 0;
  uint64_t start_time = 0, end_time = 0;
  std::vector<std::string> signals;
};
// Throws std::runtime_error when `path` is not a readable FST.
FstHeader ReadFstHeader(const std::string& path);

}  // namespace sgu::tb

#endif  // SGU_TB_GTKW_H_
