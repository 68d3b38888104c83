// SPDX-License-Identifier: Apache-2.0
// The OpenCL C front end: clang-15 and llvm-spirv-15 as child processes, OpenCL C -> SPIR-V.
//
//   kernel.cl  --clang-15 -O2 -disable-llvm-passes -S-->  kernel.ll
//              --native integer widths in the data layout-->  kernel0.ll
//              --clang-15 -x ir -O2 -S-->  kernel.ll  --StripFreeze-->  kernel.ll
//              --clang-15 -x ir -O0 -c-->  kernel.bc  --llvm-spirv-15-->  kernel.spv
//              --StripDebugInfo-->  SPIR-V words
//
// The tools run without a shell (posix_spawn), stdin from /dev/null, stdout and stderr into
// files of a private mkdtemp directory that is removed afterwards, together with the SGU kernel
// header (written there from the copy compiled into this library). Why each clang flag is there
// is said where the command line is built (ClangCompileArgs).
#include "frontend.h"

#include <fcntl.h>
#include <spawn.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "sgu/compiler.h"

extern char** environ;

namespace sgu::compiler {

namespace {

// `s` without trailing blanks and line ends.
std::string TrimRight(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

}  // namespace

namespace internal {

namespace {

// ---- build options ----------------------------------------------------------------------------

// Options passed to clang unchanged.
// clang-format off
const char* const kPassThroughFlags[] = {
    "-cl-fast-relaxed-math",        "-cl-mad-enable",
    "-cl-finite-math-only",         "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations", "-cl-single-precision-constant",
    "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-uniform-work-group-size",
    "-cl-strict-aliasing",          "-w",
    "-Werror",
};
// clang-format on
// Options accepted and dropped: -cl-denorms-are-zero has no effect for the spir target (clang
// only warns that it is unused, which -Werror would turn into an error); -cl-no-subgroup-ifp
// is a hint clang-15 does not know; -cl-kernel-arg-info is always on (the SGU needs the
// parameter names); -cl-opt-disable cannot be honoured: the SGU compiler needs clang's
// inlining and SSA form.
const char* const kIgnoredFlags[] = {
    "-cl-denorms-are-zero",
    "-cl-no-subgroup-ifp",
    "-cl-kernel-arg-info",
    "-cl-opt-disable",
};

struct ClStd {
  const char* name;
  int version;
};
const ClStd kClStds[] = {
    {"CL1.0", 100}, {"CL1.1", 110}, {"CL1.2", 120}, {"CL2.0", 200}, {"CL3.0", 300},
};

std::string AcceptedOptions() {
  std::string s = "-D NAME[=VALUE], -I DIR, -cl-std=CL1.0|CL1.1|CL1.2|CL2.0|CL3.0, -g";
  for (const char* f : kPassThroughFlags) s += std::string(", ") + f;
  for (const char* f : kIgnoredFlags) s += std::string(", ") + f;
  return s;
}

[[noreturn]] void BadOption(const std::string& why) {
  throw CompileError("error: " + why + "\naccepted build options: " + AcceptedOptions());
}

bool StartsWith(const std::string& s, const char* prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

// The macro name of a -D argument ("NAME" or "NAME=VALUE").
std::string MacroName(const std::string& def) { return def.substr(0, def.find('=')); }

bool IsIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// ---- freeze -----------------------------------------------------------------------------------

bool IsSpace(char c) { return c == ' ' || c == '\t'; }

void SkipSpaces(const std::string& s, size_t& i) {
  while (i < s.size() && IsSpace(s[i])) ++i;
}

// Skips a balanced group starting at s[i] (one of ( [ { <), quotes included. False if unclosed.
bool SkipGroup(const std::string& s, size_t& i) {
  int depth = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"') {
      const size_t end = s.find('"', i + 1);
      if (end == std::string::npos) return false;
      i = end;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}' || c == '>') {
      if (--depth == 0) {
        ++i;
        return true;
      }
    }
  }
  return false;
}

// An LLVM local name at s[i]: %name, %123 or %"quoted". False if there is none.
bool SkipLocalName(const std::string& s, size_t& i) {
  if (i >= s.size() || s[i] != '%') return false;
  ++i;
  if (i < s.size() && s[i] == '"') {
    const size_t end = s.find('"', i + 1);
    if (end == std::string::npos) return false;
    i = end + 1;
    return true;
  }
  const size_t start = i;
  while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '-' ||
                          s[i] == '$' || s[i] == '.' || s[i] == '_')) {
    ++i;
  }
  return i > start;
}

// Parses the LLVM type at s[i]. Sets `aggregate` for struct and array types (literal, packed
// or named), which bitcast cannot take. False if it is not a type.
bool SkipType(const std::string& s, size_t& i, bool& aggregate) {
  SkipSpaces(s, i);
  if (i >= s.size()) return false;
  const char c = s[i];
  if (c == '<') {
    size_t j = i + 1;
    SkipSpaces(s, j);
    aggregate = j < s.size() && s[j] == '{';  // <{ ... }> is a packed struct
    if (!SkipGroup(s, i)) return false;
  } else if (c == '[' || c == '{') {
    aggregate = true;
    if (!SkipGroup(s, i)) return false;
  } else if (c == '%') {
    aggregate = true;  // identified types are structs
    if (!SkipLocalName(s, i)) return false;
  } else if (std::isalpha(static_cast<unsigned char>(c))) {
    aggregate = false;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
  } else {
    return false;
  }
  // Suffixes: address space, pointer, function parameters.
  for (;;) {
    size_t j = i;
    SkipSpaces(s, j);
    if (s.compare(j, 10, "addrspace(") == 0) {
      j += 9;
      if (!SkipGroup(s, j)) return false;
      i = j;
    } else if (j < s.size() && s[j] == '*') {
      aggregate = false;
      i = j + 1;
    } else if (j < s.size() && s[j] == '(') {
      if (!SkipGroup(s, j)) return false;
      i = j;
    } else {
      return true;
    }
  }
}

// The operand at s[i]: up to the first comma outside brackets and quotes, or the line's end.
size_t OperandEnd(const std::string& s, size_t i) {
  int depth = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"') {
      const size_t end = s.find('"', i + 1);
      if (end == std::string::npos) return s.size();
      i = end;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}' || c == '>') {
      --depth;
    } else if (c == ',' && depth == 0) {
      return i;
    }
  }
  return i;
}

}  // namespace

std::vector<std::string> SplitOptions(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  bool in_token = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\\' && i + 1 < s.size()) {
      cur += s[++i];
      in_token = true;
    } else if (c == '"' || c == '\'') {
      in_token = true;
      for (++i; i < s.size() && s[i] != c; ++i) {
        if (c == '"' && s[i] == '\\' && i + 1 < s.size()) ++i;
        cur += s[i];
      }
      if (i >= s.size()) BadOption("unterminated quote in build options: " + s);
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_token) out.push_back(cur);
      cur.clear();
      in_token = false;
    } else {
      cur += c;
      in_token = true;
    }
  }
  if (in_token) out.push_back(cur);
  return out;
}

BuildOptions ParseBuildOptions(const std::vector<std::string>& options) {
  std::vector<std::string> tokens;
  for (const std::string& o : options) {
    for (std::string& t : SplitOptions(o)) tokens.push_back(std::move(t));
  }
  BuildOptions b;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (t == "-D" || t == "-I") {
      if (i + 1 >= tokens.size()) BadOption("option " + t + " needs an argument");
      const std::string& arg = tokens[++i];
      if (t == "-D" && !IsIdentifier(MacroName(arg))) {
        BadOption("-D " + arg + ": '" + MacroName(arg) + "' is not a macro name");
      }
      if (t == "-D" && MacroName(arg) == "__OPENCL_VERSION__") b.defines_opencl_version = true;
      b.clang_args.push_back(t + arg);
    } else if (StartsWith(t, "-D")) {
      const std::string arg = t.substr(2);
      if (!IsIdentifier(MacroName(arg))) {
        BadOption(t + ": '" + MacroName(arg) + "' is not a macro name");
      }
      if (MacroName(arg) == "__OPENCL_VERSION__") b.defines_opencl_version = true;
      b.clang_args.push_back(t);
    } else if (StartsWith(t, "-I")) {
      b.clang_args.push_back(t);
    } else if (StartsWith(t, "-cl-std=")) {
      const std::string v = t.substr(8);
      bool found = false;
      for (const ClStd& s : kClStds) {
        if (strcasecmp(v.c_str(), s.name) == 0) {
          b.cl_std = s.name;
          b.opencl_version = s.version;
          found = true;
        }
      }
      if (!found) {
        BadOption("unsupported OpenCL C version in " + t +
                  " (the SGU takes CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0)");
      }
    } else if (t == "-g") {
      b.debug_info = true;
    } else {
      bool known = false;
      for (const char* f : kPassThroughFlags) {
        if (t == f) {
          b.clang_args.push_back(t);
          known = true;
        }
      }
      for (const char* f : kIgnoredFlags) {
        if (t == f) known = true;
      }
      if (!known) BadOption("unknown build option '" + t + "'");
    }
  }
  return b;
}

std::string StripFreeze(const std::string& ll, size_t* count) {
  std::string out;
  out.reserve(ll.size());
  size_t rewritten = 0;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos < ll.size()) {
    size_t eol = ll.find('\n', pos);
    const bool has_newline = eol != std::string::npos;
    if (!has_newline) eol = ll.size();
    const std::string line = ll.substr(pos, eol - pos);
    pos = has_newline ? eol + 1 : eol;
    ++line_no;

    // Cheap filter first: only instruction lines that mention freeze.
    size_t i = 0;
    SkipSpaces(line, i);
    const size_t name_start = i;
    const size_t freeze_at = line.find(" freeze ");
    if (freeze_at == std::string::npos || i >= line.size() || line[i] != '%') {
      out += line;
      if (has_newline) out += '\n';
      continue;
    }
    size_t j = i;
    bool is_freeze = SkipLocalName(line, j);
    const size_t name_end = j;
    if (is_freeze) {
      SkipSpaces(line, j);
      is_freeze = j < line.size() && line[j] == '=';
      ++j;
      SkipSpaces(line, j);
      is_freeze = is_freeze && line.compare(j, 7, "freeze ") == 0;
    }
    if (!is_freeze) {  // " freeze " somewhere else on the line (a name, a string)
      out += line;
      if (has_newline) out += '\n';
      continue;
    }
    j += 7;
    const std::string where = "line " + std::to_string(line_no) + " of the optimised LLVM IR";
    const size_t type_start = j;
    bool aggregate = false;
    if (!SkipType(line, j, aggregate)) {
      throw CompileError("error: cannot parse the freeze instruction at " + where + ":\n" + line);
    }
    const std::string type = line.substr(type_start, j - type_start);
    const size_t type_begin = type.find_first_not_of(" \t");
    const std::string clean_type = type.substr(type_begin);
    if (aggregate) {
      throw CompileError(
          "error: llvm-spirv-15 cannot translate LLVM 'freeze', and the SGU front "
          "end removes it only for scalar, vector and pointer values; " +
          where + " freezes the aggregate type " + clean_type + ":\n" + line);
    }
    SkipSpaces(line, j);
    const size_t operand_end = OperandEnd(line, j);
    std::string operand = TrimRight(line.substr(j, operand_end - j));
    if (operand.empty()) {
      throw CompileError("error: cannot parse the freeze instruction at " + where + ":\n" + line);
    }
    out += line.substr(0, name_start);
    out += line.substr(name_start, name_end - name_start);
    // A bool (or bool vector) bitcast becomes OpBitcast %bool, which SPIR-V forbids: an
    // exclusive or with false is the no-op llvm-spirv-15 turns into OpLogicalNotEqual.
    if (clean_type == "i1") {
      out += " = xor i1 " + operand + ", false";
    } else if (clean_type.find(" x i1>") != std::string::npos) {
      out += " = xor " + clean_type + " " + operand + ", zeroinitializer";
    } else {
      out += " = bitcast " + clean_type + " " + operand + " to " + clean_type;
    }
    out += line.substr(operand_end);
    if (has_newline) out += '\n';
    ++rewritten;
  }
  if (count) *count = rewritten;
  return out;
}

}  // namespace internal

namespace {

using internal::BuildOptions;

// ---- files and processes ----------------------------------------------------------------------

std::string ErrnoText(int err) { return std::strerror(err); }

// A private directory under $TMPDIR (or /tmp), removed with everything in it.
class TempDir {
 public:
  TempDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/sgu-cc-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) {
      throw CompileError("error: cannot create a temporary directory " + templ + ": " +
                         ErrnoText(errno));
    }
    path_ = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

bool ReadFile(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return !f.bad();
}

void WriteFile(const std::string& path, const std::string& data) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
  f.close();
  if (!f) throw CompileError("error: cannot write " + path + ": " + ErrnoText(errno));
}

struct RunResult {
  int exit_code = -1;  // valid when signal == 0
  int signal = 0;      // the signal that ended the process, or 0
  std::string out;
  std::string err;
};

// Runs `exe` with `args` (argv[1..]); stdout and stderr go to files in `dir`.
RunResult Run(const std::string& exe, const std::vector<std::string>& args, const TempDir& dir) {
  const std::string out_path = dir.File("stdout.txt");
  const std::string err_path = dir.File("stderr.txt");
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(exe.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw CompileError("error: cannot run " + exe + ": " + ErrnoText(rc));

  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw CompileError("error: waiting for " + exe + ": " + ErrnoText(errno));
  }
  RunResult r;
  if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
  }
  ReadFile(out_path, r.out);
  ReadFile(err_path, r.err);
  return r;
}

// ---- the tools --------------------------------------------------------------------------------

struct ToolSpec {
  const char* name;     // executable searched on PATH
  const char* package;  // Debian package that installs it
  const char* env;      // environment variable that overrides the executable
};
const ToolSpec kClang = {"clang-15", "clang-15", "SGU_CLANG"};
const ToolSpec kLlvmSpirv = {"llvm-spirv-15", "llvm-spirv-15", "SGU_LLVM_SPIRV"};

bool IsExecutableFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::string InstallHint(const ToolSpec& t) {
  return std::string("install the Debian package ") + t.package + " (sudo apt-get install " +
         t.package + ", or scripts/setup.sh, which installs everything the SGU needs)";
}

std::string FindTool(const ToolSpec& t) {
  const char* override_path = std::getenv(t.env);
  if (override_path && *override_path) {
    const std::string p = override_path;
    if (p.find('/') != std::string::npos) {
      if (IsExecutableFile(p)) return p;
      throw CompileError(std::string("error: ") + t.env + "=" + p +
                         " is not an executable file; unset it to use " + t.name +
                         " from PATH, or " + InstallHint(t));
    }
  }
  const std::string name = override_path && *override_path ? override_path : t.name;
  const char* path_env = std::getenv("PATH");
  const std::string path = path_env && *path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    const std::string dir = end > start ? path.substr(start, end - start) : ".";
    const std::string candidate = dir + "/" + name;
    if (IsExecutableFile(candidate)) return candidate;
    start = end + 1;
  }
  throw CompileError("error: " + name + " not found on PATH (" + path + "): the SGU front end " +
                     "runs it to compile OpenCL C; " + InstallHint(t));
}

// The major number after "version " in a --version text, or -1.
int MajorVersion(const std::string& text) {
  const size_t at = text.find("version ");
  if (at == std::string::npos) return -1;
  return std::atoi(text.c_str() + at + 8);
}

struct Toolchain {
  std::string clang;
  std::string llvm_spirv;
  std::string resource_dir;  // clang's, holds include/opencl-c.h
};

// Finds and checks both tools; the checks (three process runs) are done once per process for
// each pair of executables.
Toolchain FindToolchain(const TempDir& dir) {
  Toolchain tc;
  tc.clang = FindTool(kClang);
  tc.llvm_spirv = FindTool(kLlvmSpirv);

  static std::mutex mutex;
  static std::map<std::string, std::string> resource_dirs;  // key: clang + '\n' + llvm-spirv
  const std::string key = tc.clang + "\n" + tc.llvm_spirv;
  {
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = resource_dirs.find(key);
    if (it != resource_dirs.end()) {
      tc.resource_dir = it->second;
      return tc;
    }
  }

  const RunResult cv = Run(tc.clang, {"--version"}, dir);
  if (cv.signal != 0 || cv.exit_code != 0 || MajorVersion(cv.out) != 15) {
    throw CompileError("error: " + tc.clang + " is not clang 15 (--version says: " +
                       TrimRight(cv.out.substr(0, cv.out.find('\n'))) +
                       "); llvm-spirv-15 reads LLVM 15 only: " + InstallHint(kClang));
  }
  const RunResult sv = Run(tc.llvm_spirv, {"--version"}, dir);
  if (sv.signal != 0 || sv.exit_code != 0 || MajorVersion(sv.out) != 15) {
    throw CompileError("error: " + tc.llvm_spirv + " is not llvm-spirv 15 (--version says: " +
                       TrimRight(sv.out.substr(0, sv.out.find('\n'))) + "); " +
                       InstallHint(kLlvmSpirv));
  }
  const RunResult rd = Run(tc.clang, {"-print-resource-dir"}, dir);
  tc.resource_dir = TrimRight(rd.out);
  if (rd.signal != 0 || rd.exit_code != 0 || tc.resource_dir.empty() ||
      !std::filesystem::exists(tc.resource_dir + "/include/opencl-c.h")) {
    throw CompileError("error: clang's OpenCL header opencl-c.h is not in '" + tc.resource_dir +
                       "/include' (" + tc.clang + " -print-resource-dir); reinstall clang-15");
  }
  std::lock_guard<std::mutex> lock(mutex);
  resource_dirs[key] = tc.resource_dir;
  return tc;
}

// The extensions clang-15 knows among those the SGU kernels use. clang-15 enables them all for
// the spir target anyway; naming them keeps the command line self-describing. The driver's
// -cl-ext= is ignored ("argument unused"), so it goes to cc1 through -Xclang. clang-15 does not
// know cl_intel_subgroups_char, cl_intel_subgroups_long or cl_intel_required_subgroup_size
// (it would ignore them silently): the SGU kernel header provides those.
const char kClExtensions[] =
    "-cl-ext=+cl_khr_subgroups,+cl_intel_subgroups,+cl_intel_subgroups_short,"
    "+cl_khr_subgroup_extended_types,+cl_khr_subgroup_non_uniform_vote,"
    "+cl_khr_subgroup_ballot,+cl_khr_subgroup_non_uniform_arithmetic,"
    "+cl_khr_subgroup_shuffle,+cl_khr_subgroup_shuffle_relative,"
    "+cl_khr_subgroup_clustered_reduce,+cl_khr_subgroup_rotate";

// The SPIR-V extensions llvm-spirv-15 may use. Without them it rejects the Intel built-ins.
const char kSpirvExtensions[] = "--spirv-ext=+SPV_INTEL_subgroups,+SPV_INTEL_media_block_io";

std::vector<std::string> ClangCompileArgs(const BuildOptions& b, bool debug_info,
                                          const std::string& resource_dir,
                                          const std::string& header, const std::string& input,
                                          const std::string& output) {
  // clang-format off
  std::vector<std::string> a = {
      "-x", "cl",
      // 32-bit pointers: the SGU has 32-bit addresses.
      "-target", "spir",
      "-cl-std=" + b.cl_std,
      // llvm-spirv-15 reads typed pointers only.
      "-Xclang", "-no-opaque-pointers",
      // The IR of -O2, but no LLVM pass yet: the optimiser runs in a second step, on IR whose
      // data layout names the native integer widths (step 1b in OpenClToSpirv). Not -O0: at
      // -O0 clang marks every function noinline (optnone aside), and helpers would stay calls.
      "-O2", "-Xclang", "-disable-llvm-passes",
      // No switch lookup tables: SimplifyCFG would put them in address space 0 (private), and
      // llvm-spirv-15 writes a module-scope OpVariable of storage class Function, which is
      // invalid SPIR-V. The switch stays an OpSwitch.
      "-fno-jump-tables",
      "-emit-llvm", "-S",
      // Kernels that define helpers as plain `inline` (C99 semantics) would leave
      // unresolved imports.
      "-fgnu89-inline",
      // Kernel parameter names reach the SPIR-V (OpName of the entry point's parameters).
      "-cl-kernel-arg-info",
      "-Xclang", kClExtensions,
      // The full header, not -finclude-default-header: clang-15's built-in table lacks the
      // Intel shuffles and buffer block I/O.
      "-include", resource_dir + "/include/opencl-c.h",
      "-include", header,
  };
  // clang-format on
  // Headers written for real runtimes test __OPENCL_VERSION__, which clang does not define.
  if (!b.defines_opencl_version) {
    a.push_back("-D__OPENCL_VERSION__=" + std::to_string(b.opencl_version));
  }
  // Line tables only: the SGU needs source lines, and llvm-spirv-15 aborts on some of the
  // variable-location expressions full -g produces at -O2.
  if (debug_info || b.debug_info) {
    a.push_back("-gline-tables-only");
    // The SGU header's lines are named "<sgu>/sgu_kernel.h", not after the private temporary
    // directory: a kernel compiles to the same bytes every time.
    const std::string dir = header.substr(0, header.rfind('/'));
    a.push_back("-fdebug-prefix-map=" + dir + "=<sgu>");
  }
  a.insert(a.end(), b.clang_args.begin(), b.clang_args.end());
  a.push_back("-o");
  a.push_back(output);
  a.push_back(input);
  return a;
}

// A tool's stderr for a message: the temporary directory is not worth showing.
std::string CleanDiagnostics(const std::string& text, const TempDir& dir) {
  std::string s = text;
  const std::string prefix = dir.path() + "/";
  for (size_t at = s.find(prefix); at != std::string::npos; at = s.find(prefix, at)) {
    s.erase(at, prefix.size());
  }
  return TrimRight(s);
}

std::string Describe(const RunResult& r) {
  if (r.signal != 0) {
    return "crashed (signal " + std::to_string(r.signal) + ": " + strsignal(r.signal) + ")";
  }
  return "failed (exit status " + std::to_string(r.exit_code) + ")";
}

// Keeps the first lines of a long text (a crash's stack dump).
std::string FirstLines(const std::string& text, size_t max_lines) {
  size_t at = 0;
  for (size_t n = 0; n < max_lines; ++n) {
    at = text.find('\n', at);
    if (at == std::string::npos) return text;
    ++at;
  }
  return text.substr(0, at) + "...";
}

std::vector<uint32_t> WordsFromBytes(const std::string& bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  for (size_t i = 0; i < words.size(); ++i) {
    words[i] = static_cast<uint32_t>(static_cast<uint8_t>(bytes[4 * i])) |
               static_cast<uint32_t>(static_cast<uint8_t>(bytes[4 * i + 1])) << 8 |
               static_cast<uint32_t>(static_cast<uint8_t>(bytes[4 * i + 2])) << 16 |
               static_cast<uint32_t>(static_cast<uint8_t>(bytes[4 * i + 3])) << 24;
  }
  return words;
}

std::string BytesFromWords(const std::vector<uint32_t>& words) {
  std::string bytes(words.size() * 4, '\0');
  for (size_t i = 0; i < words.size(); ++i) {
    for (int b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<char>(words[i] >> (8 * b));
  }
  return bytes;
}

}  // namespace

std::vector<uint32_t> OpenClToSpirv(const std::string& cl_path, const Options& opts) {
  {
    std::ifstream probe(cl_path, std::ios::binary);
    if (!probe) throw CompileError("error: cannot read " + cl_path + ": " + ErrnoText(errno));
    if (std::filesystem::is_directory(cl_path)) {
      throw CompileError("error: cannot read " + cl_path + ": it is a directory");
    }
  }
  const BuildOptions build = internal::ParseBuildOptions(opts.build_options);
  TempDir dir;
  const Toolchain tc = FindToolchain(dir);

  const std::string header = dir.File("sgu_kernel.h");
  WriteFile(header, internal::kSguKernelHeader);

  // 1. OpenCL C -> optimised LLVM IR (text).
  const std::string ll = dir.File("kernel.ll");
  const RunResult cc =
      Run(tc.clang, ClangCompileArgs(build, opts.debug_info, tc.resource_dir, header, cl_path, ll),
          dir);
  if (cc.signal != 0 || cc.exit_code != 0) {
    std::string msg = CleanDiagnostics(cc.err, dir);
    if (cc.signal != 0 || msg.empty()) {
      msg = "error: " + tc.clang + " " + Describe(cc) + " compiling " + cl_path +
            (msg.empty() ? "" : ":\n" + FirstLines(msg, 20));
    }
    throw CompileError(msg);
  }

  // 1b. Optimise (-O2: inlined functions, values in SSA form). The spir data layout names no
  //     native integer widths, so InstCombine would shrink values to widths such as i3 (a
  //     switch on x % 5), which llvm-spirv-15 rejects: declare 8/16/32/64 native first.
  {
    std::string ir0;
    if (!ReadFile(ll, ir0)) throw CompileError("error: " + tc.clang + " wrote no LLVM IR");
    const std::string key = "target datalayout = \"";
    const size_t at = ir0.find(key);
    if (at != std::string::npos) {
      const size_t end = ir0.find('"', at + key.size());
      if (end != std::string::npos && ir0.substr(at, end - at).find("-n") == std::string::npos) {
        ir0.insert(end, "-n8:16:32:64");
      }
    }
    const std::string ll0 = dir.File("kernel0.ll");
    WriteFile(ll0, ir0);
    const RunResult opt = Run(tc.clang,
                              // No LLVM vectorisers: the SGU is SIMT (the compiler
                              // scalarises every vector), and their reductions leave
                              // bitcasts of <4 x i1> to i4, which llvm-spirv-15 rejects.
                              {"-x", "ir", "-target", "spir", "-Xclang", "-no-opaque-pointers",
                               "-O2", "-fno-vectorize", "-fno-slp-vectorize", "-S", "-emit-llvm",
                               "-o", ll, ll0},
                              dir);
    if (opt.signal != 0 || opt.exit_code != 0) {
      throw CompileError("error: " + tc.clang + " " + Describe(opt) + " optimising " + cl_path +
                         ":\n" + FirstLines(CleanDiagnostics(opt.err, dir), 20));
    }
  }

  // 2. Remove `freeze`, then assemble the IR into bitcode. -O0 on IR input adds nothing: no
  //    pass changes the module, and optnone/noinline come from source compiles only.
  std::string ir;
  if (!ReadFile(ll, ir)) throw CompileError("error: " + tc.clang + " wrote no LLVM IR");
  WriteFile(ll, internal::StripFreeze(ir));
  const std::string bc = dir.File("kernel.bc");
  const RunResult as = Run(tc.clang,
                           {"-x", "ir", "-target", "spir", "-Xclang", "-no-opaque-pointers", "-O0",
                            "-c", "-emit-llvm", "-o", bc, ll},
                           dir);
  if (as.signal != 0 || as.exit_code != 0) {
    throw CompileError("error: " + tc.clang + " " + Describe(as) + " assembling the LLVM IR of " +
                       cl_path + ":\n" + FirstLines(CleanDiagnostics(as.err, dir), 20));
  }

  // 3. LLVM bitcode -> SPIR-V. With -g, OpenCL.DebugInfo.100 (the default, and the only
  //    version whose output carries OpLine; "legacy" writes none).
  const std::string spv = dir.File("kernel.spv");
  const RunResult tr = Run(
      tc.llvm_spirv, {kSpirvExtensions, "--spirv-debug-info-version=ocl-100", bc, "-o", spv}, dir);
  if (tr.signal != 0 || tr.exit_code != 0) {
    throw CompileError("error: " + tc.llvm_spirv + " " + Describe(tr) + " translating " + cl_path +
                       " to SPIR-V:\n" + FirstLines(CleanDiagnostics(tr.err, dir), 20));
  }
  std::string bytes;
  if (!ReadFile(spv, bytes) || bytes.size() < 20 || bytes.size() % 4 != 0) {
    throw CompileError("error: " + tc.llvm_spirv + " wrote no valid SPIR-V module for " + cl_path);
  }
  const std::vector<uint32_t> words = internal::StripDebugInfo(WordsFromBytes(bytes));
  if (!opts.keep_spirv_path.empty()) {
    std::ofstream f(opts.keep_spirv_path, std::ios::binary | std::ios::trunc);
    const std::string out = BytesFromWords(words);
    f.write(out.data(), static_cast<std::streamsize>(out.size()));
    f.close();
    if (!f) {
      throw CompileError("error: cannot write the SPIR-V module to " + opts.keep_spirv_path + ": " +
                         ErrnoText(errno));
    }
  }
  return words;
}

}  // namespace sgu::compiler
