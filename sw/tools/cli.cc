// SPDX-License-Identifier: Apache-2.0
// Argument parsing and file helpers of the `sgu` tool.
#include "cli.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "sgu/asm.h"

namespace sgu {
namespace cli {

namespace {
bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}
}  // namespace

Args::Args(const std::vector<std::string>& argv, const std::vector<std::string>& value_opts,
           const std::vector<std::string>& flag_opts) {
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--help" || a == "-h") {
      help_ = true;
      continue;
    }
    if (a.size() < 2 || a[0] != '-' || a == "--") {
      if (a == "--") {
        positional_.insert(positional_.end(), argv.begin() + static_cast<long>(i) + 1, argv.end());
        break;
      }
      positional_.push_back(a);
      continue;
    }
    std::string name = a, value;
    bool has_value = false;
    const size_t eq = a.find('=');
    if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
      has_value = true;
    }
    if (Contains(flag_opts, name)) {
      if (has_value) throw UsageError("option " + name + " takes no value");
      flags_[name] = true;
    } else if (Contains(value_opts, name)) {
      if (!has_value) {
        if (i + 1 >= argv.size()) throw UsageError("option " + name + " needs a value");
        value = argv[++i];
      }
      values_[name].push_back(value);
    } else {
      throw UsageError("unknown option '" + a + "'");
    }
  }
}

std::string Args::Get(const std::string& name, const std::string& def) const {
  auto it = values_.find(name);
  return it == values_.end() ? def : it->second.back();
}

const std::vector<std::string>& Args::All(const std::string& name) const {
  static const std::vector<std::string> kEmpty;
  auto it = values_.find(name);
  return it == values_.end() ? kEmpty : it->second;
}

uint64_t ParseUnsigned(const std::string& text, uint64_t max, const std::string& what) {
  errno = 0;
  char* end = nullptr;
  const bool hex = text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0;
  if (text.empty() || text[0] == '-' || text[0] == '+') {
    throw UsageError("bad " + what + " '" + text + "'");
  }
  const unsigned long long v = std::strtoull(text.c_str(), &end, hex ? 16 : 10);
  if (end != text.c_str() + text.size() || errno == ERANGE || v > max) {
    throw UsageError("bad " + what + " '" + text + "' (0.." + std::to_string(max) + ")");
  }
  return v;
}

uint32_t ParseWord(const std::string& text, const std::string& what) {
  if (!text.empty() && text[0] == '-') {
    const uint64_t mag = ParseUnsigned(text.substr(1), uint64_t{1} << 31, what);
    return static_cast<uint32_t>(-static_cast<int64_t>(mag));
  }
  return static_cast<uint32_t>(ParseUnsigned(text, 0xffffffffu, what));
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ToolError("cannot open '" + path + "': " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw ToolError("cannot read '" + path + "'");
  return ss.str();
}

void WriteFileAtomic(const std::string& path, const std::string& bytes) {
  std::string tmpl = path + ".tmp.XXXXXX";
  const int fd = mkstemp(tmpl.data());
  if (fd < 0)
    throw ToolError("cannot create a file next to '" + path + "': " + std::strerror(errno));
  // mkstemp creates the file 0600; give it the usual 0666 & ~umask.
  const mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string err = std::strerror(errno);
      close(fd);
      unlink(tmpl.c_str());
      throw ToolError("cannot write '" + path + "': " + err);
    }
    done += static_cast<size_t>(n);
  }
  if (close(fd) != 0 || std::rename(tmpl.c_str(), path.c_str()) != 0) {
    const std::string err = std::strerror(errno);
    unlink(tmpl.c_str());
    throw ToolError("cannot write '" + path + "': " + err);
  }
}

std::vector<uint64_t> LoadProgram(const std::string& path) {
  const std::string bytes = ReadFile(path);
  const bool raw = path.size() >= 4 && path.compare(path.size() - 4, 4, ".bin") == 0;
  if (!raw) return Assemble(bytes, path).words;  // AsmError carries file:line:col
  if (bytes.size() % 8 != 0) {
    throw ToolError("'" + path + "' is not a whole number of 64-bit words (" +
                    std::to_string(bytes.size()) + " bytes)");
  }
  std::vector<uint64_t> words(bytes.size() / 8);
  for (size_t i = 0; i < words.size(); ++i) {
    uint64_t w = 0;
    for (unsigned b = 0; b < 8; ++b) {
      w |= uint64_t{static_cast<uint8_t>(bytes[8 * i + b])} << (8 * b);
    }
    words[i] = w;
  }
  return words;
}

std::vector<std::string> TakeBuildOptions(std::vector<std::string>& argv) {
  std::vector<std::string> opts, rest;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--") {
      rest.insert(rest.end(), argv.begin() + static_cast<long>(i), argv.end());
      break;
    }
    if (a == "-D" || a == "-I") {
      if (i + 1 >= argv.size()) throw UsageError("option " + a + " needs a value");
      opts.push_back(a + argv[++i]);
    } else if ((a.rfind("-D", 0) == 0 || a.rfind("-I", 0) == 0) && a.size() > 2) {
      opts.push_back(a);
    } else if (a.rfind("-cl-", 0) == 0 && a.size() > 4) {
      opts.push_back(a);
    } else {
      rest.push_back(a);
    }
  }
  argv = rest;
  return opts;
}

std::vector<uint32_t> ParseSizes(const std::string& text, const std::string& what) {
  std::vector<uint32_t> sizes;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    const std::string part = text.substr(start, comma == std::string::npos ? comma : comma - start);
    const uint64_t v = ParseUnsigned(part, 0xffffffffu, what + " size");
    if (v == 0) throw UsageError(what + " sizes must be at least 1, got '" + text + "'");
    sizes.push_back(static_cast<uint32_t>(v));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (sizes.size() > 3) {
    throw UsageError(what + " takes 1 to 3 sizes X[,Y[,Z]], got '" + text + "'");
  }
  return sizes;
}

}  // namespace cli
}  // namespace sgu
