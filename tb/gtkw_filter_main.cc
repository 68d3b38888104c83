// SPDX-License-Identifier: Apache-2.0
// sgu-gtkw-filter: GTKWave translate filter process for the SGU instruction trace.
//
//   sgu-gtkw-filter [LINE_TABLE]
//
// GTKWave starts it once (the .gtkw names it in a "^>" line, with at most one argument), then
// writes one value per line on its stdin and reads one line of text back for each. A value is
// the hexadecimal instruction word, or the concatenation {pc, instruction word}; the answer is
// its disassembly, plus " ; file.cl:12" when LINE_TABLE (written by WriteGtkw) covers the pc.
// See gtkw_filter.h and docs/waveforms.md.
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <string>

#include "gtkw_filter.h"

int main(int argc, char** argv) {
  if (argc > 2 ||
      (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h"))) {
    std::cerr << "usage: sgu-gtkw-filter [LINE_TABLE]\n"
                 "GTKWave translate filter: reads hexadecimal instruction words (or {pc, word})\n"
                 "one per line on stdin, writes their disassembly (and source line) on stdout.\n";
    return argc > 2 ? 2 : 0;
  }
  std::unique_ptr<sgu::tb::LineTable> lines;
  if (argc == 2) {
    try {
      lines = std::make_unique<sgu::tb::LineTable>(sgu::tb::LineTable::Read(argv[1]));
    } catch (const std::exception& e) {
      // Keep translating without source lines: GTKWave would otherwise show raw hex.
      std::cerr << "sgu-gtkw-filter: " << e.what() << "\n";
    }
  }
  std::ios::sync_with_stdio(false);
  std::string value;
  while (std::getline(std::cin, value)) {
    std::string text;
    try {
      text = sgu::tb::FilterValue(value, lines.get());
    } catch (const std::exception&) {
      text = value;
    }
    // GTKWave waits for exactly one line per value: flush each one.
    std::cout << text << '\n' << std::flush;
  }
  return 0;
}
