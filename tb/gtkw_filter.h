// SPDX-License-Identifier: Apache-2.0
// The text of the instruction trace in GTKWave: sgu-gtkw-filter turns the retire port's
// instruction word (and pc) into disassembly and, where a line table covers the pc, the source
// line ("fadd v3, v1, v2 ; saxpy.cl:12"). GTKWave runs it as a translate filter process.
#ifndef SGU_TB_GTKW_FILTER_H_
#define SGU_TB_GTKW_FILTER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sgu/binary.h"

namespace sgu::tb {

// pc -> source line of the compiled code loaded into the unit's memory.
//
// File format (one text file, written by WriteGtkw beside the .gtkw, read by the filter):
//   # comment lines
//   BEGIN END LINE FILE      one row per range: pcs in [BEGIN, END) (hex) come from FILE:LINE
// FILE is the rest of the line (it may contain spaces). Rows do not overlap.
class LineTable {
 public:
  struct Row {
    uint32_t begin = 0, end = 0;  // byte addresses, end exclusive
    uint32_t line = 0;
    std::string file;
  };

  // Adds the rows of one kernel loaded at `base` whose code is `size` bytes long: `lines` are
  // Kernel::lines (offsets from base, sorted), `files` Binary::files. Rows with line 0 (no
  // source) are left out. Throws std::invalid_argument for a file index out of range.
  void Add(uint32_t base, uint32_t size, const std::vector<LineEntry>& lines,
           const std::vector<std::string>& files);

  // "saxpy.cl:12" (file name without its directories) for the row covering pc, else "".
  std::string Lookup(uint32_t pc) const;

  bool empty() const { return rows_.empty(); }
  const std::vector<Row>& rows() const { return rows_; }

  // Throws std::runtime_error when the file cannot be written / read or a row is malformed.
  void Write(const std::string& path) const;
  static LineTable Read(const std::string& path);

 private:
  std::vector<Row> rows_;  // sorted by begin
};

// One value of the instruction trace as GTKWave hands it to the filter: hexadecimal digits of
// the 64-bit instruction word, optionally preceded by the digits of the 32-bit pc (the trace is
// then the concatenation {pc, insn}). Returns the disassembly, with " ; file:line" appended when
// `lines` (may be null) covers the pc. All-zero values (nothing retired yet) give "-"; text that
// is not hexadecimal (x, z) comes back unchanged.
std::string FilterValue(const std::string& value, const LineTable* lines);

}  // namespace sgu::tb

#endif  // SGU_TB_GTKW_FILTER_H_
