// SPDX-License-Identifier: Apache-2.0
// Line table and value translation of sgu-gtkw-filter (see gtkw_filter.h).
#include "gtkw_filter.h"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sgu/asm.h"

namespace sgu::tb {

void LineTable::Add(uint32_t base, uint32_t size, const std::vector<LineEntry>& lines,
                    const std::vector<std::string>& files) {
  for (size_t i = 0; i < lines.size(); ++i) {
    const LineEntry& e = lines[i];
    const uint32_t end_offset = i + 1 < lines.size() ? lines[i + 1].offset : size;
    if (e.line == 0 || end_offset <= e.offset || e.offset >= size) continue;
    if (e.file >= files.size()) {
      throw std::invalid_argument("line table names file " + std::to_string(e.file) + " of " +
                                  std::to_string(files.size()));
    }
    rows_.push_back({base + e.offset, base + std::min(end_offset, size), e.line, files[e.file]});
  }
  std::sort(rows_.begin(), rows_.end(),
            [](const Row& a, const Row& b) { return a.begin < b.begin; });
}

std::string LineTable::Lookup(uint32_t pc) const {
  auto it = std::upper_bound(rows_.begin(), rows_.end(), pc,
                             [](uint32_t v, const Row& r) { return v < r.begin; });
  if (it == rows_.begin()) return "";
  --it;
  if (pc >= it->end) return "";
  const size_t slash = it->file.find_last_of('/');
  return (slash == std::string::npos ? it->file : it->file.substr(slash + 1)) + ":" +
         std::to_string(it->line);
}

void LineTable::Write(const std::string& path) const {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << "# SGU line table for sgu-gtkw-filter (tb/gtkw_filter.h): BEGIN END LINE FILE, pcs in\n"
    << "# [BEGIN, END) (hex) come from FILE:LINE\n";
  char buf[32];
  for (const Row& r : rows_) {
    std::snprintf(buf, sizeof buf, "%08" PRIx32 " %08" PRIx32 " ", r.begin, r.end);
    f << buf << r.line << " " << r.file << "\n";
  }
  if (!f) throw std::runtime_error("error writing " + path);
}

LineTable LineTable::Read(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read line table " + path);
  LineTable t;
  std::string text;
  for (int n = 1; std::getline(f, text); ++n) {
    if (text.empty() || text[0] == '#') continue;
    std::istringstream in(text);
    Row r;
    const bool numbers_ok =
        static_cast<bool>(in >> std::hex >> r.begin >> r.end >> std::dec >> r.line);
    if (numbers_ok) std::getline(in >> std::ws, r.file);
    if (!numbers_ok || r.file.empty() || r.end <= r.begin) {
      throw std::runtime_error(path + ":" + std::to_string(n) + ": malformed line table row");
    }
    t.rows_.push_back(std::move(r));
  }
  std::sort(t.rows_.begin(), t.rows_.end(),
            [](const Row& a, const Row& b) { return a.begin < b.begin; });
  return t;
}

std::string FilterValue(const std::string& value, const LineTable* lines) {
  // GTKWave sends the value as displayed: hex digits, possibly with leading zeros dropped.
  std::string digits;
  for (char c : value) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (!std::isxdigit(static_cast<unsigned char>(c))) return value;  // x, z, ...
    digits += c;
  }
  if (digits.empty()) return value;
  // The low 16 digits are the instruction word, the 8 before them (if any) the pc.
  const size_t n = digits.size();
  const uint64_t insn = std::stoull(n > 16 ? digits.substr(n - 16) : digits, nullptr, 16);
  const bool has_pc = n > 16;
  uint32_t pc = 0;
  if (has_pc) {
    const size_t pc_begin = n > 24 ? n - 24 : 0;
    pc = static_cast<uint32_t>(std::stoul(digits.substr(pc_begin, n - 16 - pc_begin), nullptr, 16));
  }
  // Zero: nothing retired yet, or a record without an instruction word (fetch fault,
  // watchdog); rvfi_trap_o and rvfi_cause_o tell which.
  if (insn == 0) return "-";
  std::string text = Disassemble(insn);
  if (lines && has_pc) {
    const std::string where = lines->Lookup(pc);
    if (!where.empty()) text += " ; " + where;
  }
  return text;
}

}  // namespace sgu::tb
