// SPDX-License-Identifier: Apache-2.0
// Marked sections of a Markdown file (bench_doc.h).
#include "bench_doc.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sgu::tb {

void WriteDocSection(const std::string& path, const std::string& title, const std::string& name,
                     const std::string& body) {
  std::string text;
  {
    std::ifstream f(path, std::ios::binary);
    if (f) {
      std::stringstream ss;
      ss << f.rdbuf();
      text = ss.str();
    } else {
      text = title + "\n";
    }
  }
  const std::string begin = "<!-- " + name + ": begin";
  const std::string end = "<!-- " + name + ": end -->";
  std::string section = body;
  if (!section.empty() && section.back() != '\n') section += '\n';
  const size_t b = text.find(begin);
  if (b == std::string::npos) {
    if (!text.empty() && text.back() != '\n') text += '\n';
    text += "\n" + begin + " (written by " + name + "; edits up to the end marker are lost) -->\n" +
            section + end + "\n";
  } else {
    const size_t b_eol = text.find('\n', b);
    const size_t e = text.find(end, b);
    if (b_eol == std::string::npos || e == std::string::npos || e < b_eol) {
      throw std::runtime_error(path + ": '" + begin + "' without '" + end + "'");
    }
    text = text.substr(0, b_eol + 1) + section + text.substr(e);
  }
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    if (!f) throw std::runtime_error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot write " + path);
  }
}

std::string CpuName() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  }
  return "unknown CPU";
}

}  // namespace sgu::tb
