// SPDX-License-Identifier: Apache-2.0
// `sgu run`: compile (or load) a kernel, bind its arguments by name from --arg specs, run an
// NDRange on the golden model, the RTL or both in lockstep (sgu/driver.h), and write the
// results (docs/user-guide.md "sgu run").
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "cli.h"
#include "gtkw.h"
#include "sgu/binary.h"
#include "sgu/compiler.h"
#include "sgu/driver.h"

namespace sgu {
namespace cli {

namespace {

using driver::Backend;
using driver::Result;
using driver::Status;

const char kRunHelp[] =
    "usage: sgu run K.cl|K.spv|K.sgubin --global X[,Y[,Z]] [--local X[,Y[,Z]]]\n"
    "               [--kernel NAME] [--arg NAME=SPEC]... [--simd 8|16|32]\n"
    "               [--backend golden|rtl|cosim] [--out DIR] [--json] [--trace K.fst]\n"
    "               [--strict] [--seed S] [--random-axi] [--watchdog N] [--progress]\n"
    "               [-D NAME[=VALUE]]... [-I DIR]... [-cl-std=CLx.y] [-cl-...]\n"
    "               [--no-schedule]\n\n"
    "Runs one kernel over an NDRange. A .cl or .spv file is compiled first (with the -D, -I\n"
    "and -cl-* build options); a .sgubin is loaded as it is.\n\n"
    "  --kernel NAME      the kernel to run (needed when the file holds more than one)\n"
    "  --global X[,Y[,Z]] global size, 1 to 3 dimensions\n"
    "  --local X[,Y[,Z]]  work-group size; it must divide the global size. Default: the\n"
    "                     driver picks one (largest divisor of the global size, at most 256\n"
    "                     work-items, or the SIMD width for a kernel that uses barrier())\n"
    "  --arg NAME=SPEC    the argument of parameter NAME; every parameter needs one:\n"
    "                       scalars   int:V uint:V long:V ulong:V short:V ushort:V char:V\n"
    "                                 uchar:V float:V (V decimal or 0x hex, range-checked);\n"
    "                                 vectors and structs by value: @FILE with their bytes\n"
    "                       buffers   @FILE (its bytes) or zeros:BYTES\n"
    "                       __local   local:BYTES (the region each work-group gets)\n"
    "                       images    image:WxH:FORMAT[:@FILE], FORMAT r8 r16 r32 rgba8 r32f\n"
    "                                 rgba16 yuyv; FILE holds packed rows (W*H*texel bytes)\n"
    "  --simd N           SIMD width 8, 16 or 32. Default: the kernel's required sub-group\n"
    "                     size, else 16; a --simd that conflicts with it is an error\n"
    "  --backend B        golden (model, default), rtl (Verilated RTL driven through its\n"
    "                     AXI4-Lite registers) or cosim (RTL in lockstep with the model)\n"
    "  --out DIR          after a successful run write every buffer and image argument to\n"
    "                     DIR/NAME.bin (images as packed rows). DIR is created if missing; if\n"
    "                     it exists, files of those names are replaced and nothing else in it\n"
    "                     is touched. A failed run writes nothing\n"
    "  --json             print the result as one JSON object on stdout\n"
    "  --trace K.fst      rtl/cosim: FST waveform of the run, and K.gtkw beside it\n"
    "  --strict           a sanitizer diagnostic is an error\n"
    "  --seed S           rtl/cosim: seed of the AXI timing randomness (default 1)\n"
    "  --random-axi       rtl/cosim: random AXI latency and backpressure\n"
    "  --watchdog N       per sub-group: RTL cycles (rtl/cosim) or instructions (golden),\n"
    "                     default 100000000, 0 = none\n"
    "  --progress         report progress on stderr even when it is not a terminal\n"
    "  --no-schedule      compiling: keep the instructions in the lowering's order (as\n"
    "                     sgu compile --no-schedule)\n\n"
    "Exit status: 0 ok, 1 error, kernel fault, hang, cosim mismatch or strict diagnostic,\n"
    "2 usage error.\n";

// ---- argument specs ------------------------------------------------------------------------

struct ScalarType {
  const char* name;
  unsigned size;
  bool is_signed;
  bool is_float;
};
const ScalarType kScalarTypes[] = {
    {"char", 1, true, false},   {"uchar", 1, false, false}, {"short", 2, true, false},
    {"ushort", 2, false, false}, {"int", 4, true, false},    {"uint", 4, false, false},
    {"long", 8, true, false},   {"ulong", 8, false, false}, {"float", 4, true, true},
};

const char* KindText(ArgKind k) {
  switch (k) {
    case ArgKind::kScalar: return "scalar";
    case ArgKind::kGlobalBuffer: return "__global buffer";
    case ArgKind::kConstantBuffer: return "__constant buffer";
    case ArgKind::kLocalBuffer: return "__local pointer";
    case ArgKind::kImage: return "image";
  }
  return "?";
}

// What a parameter accepts, as an example spec.
std::string SpecExample(const KernelArg& a) {
  switch (a.kind) {
    case ArgKind::kScalar: {
      for (const ScalarType& t : kScalarTypes) {
        if (a.type_name == t.name) return std::string(t.name) + ":VALUE";
      }
      if (a.size > 8) return "@FILE (its " + std::to_string(a.size) + " bytes)";
      return a.is_float ? "float:VALUE" : "int:VALUE";
    }
    case ArgKind::kGlobalBuffer:
    case ArgKind::kConstantBuffer: return "@FILE or zeros:BYTES";
    case ArgKind::kLocalBuffer: return "local:BYTES";
    case ArgKind::kImage: return "image:WxH:FORMAT[:@FILE]";
  }
  return "?";
}

std::string ParamText(const KernelArg& a) {
  return "parameter '" + a.name + "' (" + a.type_name + ", " + KindText(a.kind) + ")";
}

// Bytes of one element of a pointer parameter from its type name ("const float4*" -> 16), or 0
// when the name is not a built-in OpenCL C type.
uint32_t ElementBytes(const std::string& type_name) {
  std::string t = type_name;
  while (!t.empty() && (t.back() == '*' || t.back() == ' ')) t.pop_back();
  const size_t sp = t.find_last_of(' ');
  if (sp != std::string::npos) t = t.substr(sp + 1);
  size_t digits = t.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(t[digits - 1]))) --digits;
  const std::string base = t.substr(0, digits);
  const unsigned n = digits < t.size() ? static_cast<unsigned>(std::atoi(t.c_str() + digits)) : 1;
  static const std::map<std::string, uint32_t> kSizes = {
      {"char", 1}, {"uchar", 1}, {"bool", 1}, {"short", 2}, {"ushort", 2}, {"half", 2},
      {"int", 4},  {"uint", 4},  {"float", 4}, {"long", 8}, {"ulong", 8},  {"double", 8}};
  auto it = kSizes.find(base);
  if (it == kSizes.end() || !(n == 1 || n == 2 || n == 3 || n == 4 || n == 8 || n == 16)) return 0;
  return it->second * (n == 3 ? 4 : n);
}

uint64_t ParseBytes(const std::string& text, const std::string& what) {
  const uint64_t v = ParseUnsigned(text, 0xc0000000u, what);
  if (v == 0) throw UsageError(what + " must be at least 1 byte");
  return v;
}

std::vector<uint8_t> ScalarBytes(const KernelArg& a, const std::string& spec) {
  const size_t colon = spec.find(':');
  const ScalarType* type = nullptr;
  if (colon != std::string::npos) {
    for (const ScalarType& t : kScalarTypes) {
      if (spec.compare(0, colon, t.name) == 0 && std::strlen(t.name) == colon) type = &t;
    }
  }
  if (type == nullptr) {
    throw UsageError("--arg " + a.name + "=" + spec + ": " + ParamText(a) +
                     " takes a scalar such as " + SpecExample(a));
  }
  const std::string value = spec.substr(colon + 1);
  const std::string where = "--arg " + a.name + "=" + spec;
  if (a.size > 8) {
    throw UsageError(where + ": " + ParamText(a) +
                     " is a vector or struct: pass its bytes with @FILE");
  }
  std::vector<uint8_t> bytes(a.size, 0);
  if (type->is_float) {
    if (!a.is_float) {
      throw UsageError(where + ": " + ParamText(a) + " is an integer; use " + SpecExample(a));
    }
    errno = 0;
    char* end = nullptr;
    const double d = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0') throw UsageError(where + ": bad float '" + value + "'");
    const float f = static_cast<float>(d);
    if (std::isinf(f) && !std::isinf(d)) {
      throw UsageError(where + ": " + value + " overflows float");
    }
    if (a.size == 4) {
      std::memcpy(bytes.data(), &f, 4);
    } else if (a.size == 8) {
      const double fd = f;
      std::memcpy(bytes.data(), &fd, 8);
    } else {
      throw UsageError(where + ": " + ParamText(a) + " does not take a float");
    }
    return bytes;
  }
  if (a.is_float) {
    throw UsageError(where + ": " + ParamText(a) + " is a floating-point parameter; use float:V");
  }
  if (type->size > a.size) {
    throw UsageError(where + ": a " + type->name + " does not fit " + ParamText(a) + " (" +
                     std::to_string(a.size) + " bytes)");
  }
  const bool neg = !value.empty() && value[0] == '-';
  const unsigned bits = 8 * type->size;
  const uint64_t umax = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t smax = umax >> 1;
  const std::string range =
      type->is_signed ? "-" + std::to_string(smax + 1) + ".." + std::to_string(smax)
                      : "0.." + std::to_string(umax);
  uint64_t mag = 0;
  try {
    const uint64_t max = type->is_signed ? (neg ? smax + 1 : smax) : umax;
    mag = ParseUnsigned(neg ? value.substr(1) : value, max, std::string(type->name) + " value");
  } catch (const UsageError&) {
    throw UsageError(where + ": '" + value + "' is not a " + type->name + " (" + range + ")");
  }
  if (neg && !type->is_signed) {
    throw UsageError(where + ": '" + value + "' is not a " + type->name + " (" + range + ")");
  }
  const uint64_t bits_value = neg ? ~mag + 1 : mag;  // sign-extended to 64 bits when negative
  for (unsigned i = 0; i < a.size; ++i) bytes[i] = static_cast<uint8_t>(bits_value >> (8 * i));
  return bytes;
}

std::vector<uint8_t> FileBytes(const std::string& path) {
  const std::string s = ReadFile(path);
  return std::vector<uint8_t>(s.begin(), s.end());
}

// Applies one --arg spec to parameter `index`.
void ApplyArg(driver::Launch& l, size_t index, const std::string& spec) {
  const KernelArg& a = l.kernel().args[index];
  const std::string where = "--arg " + a.name + "=" + spec;
  auto wrong = [&]() {
    return UsageError(where + ": " + ParamText(a) + " takes " + SpecExample(a));
  };
  switch (a.kind) {
    case ArgKind::kScalar:
      if (spec.rfind("@", 0) == 0) {
        // Vectors and structs passed by value: the raw little-endian bytes from a file.
        std::vector<uint8_t> bytes = FileBytes(spec.substr(1));
        if (bytes.size() != a.size) {
          throw ToolError(where + ": '" + spec.substr(1) + "' holds " +
                          std::to_string(bytes.size()) + " bytes but " + ParamText(a) +
                          " takes exactly " + std::to_string(a.size));
        }
        l.SetScalarBytes(index, bytes);
        return;
      }
      l.SetScalarBytes(index, ScalarBytes(a, spec));
      return;
    case ArgKind::kGlobalBuffer:
    case ArgKind::kConstantBuffer: {
      std::vector<uint8_t> bytes;
      if (spec.rfind("@", 0) == 0) {
        bytes = FileBytes(spec.substr(1));
        if (bytes.empty()) throw ToolError(where + ": '" + spec.substr(1) + "' is empty");
      } else if (spec.rfind("zeros:", 0) == 0) {
        bytes.assign(ParseBytes(spec.substr(6), where + ": zeros:BYTES"), 0);
      } else {
        throw wrong();
      }
      const uint32_t elem = ElementBytes(a.type_name);
      if (elem != 0 && bytes.size() % elem != 0) {
        throw ToolError(where + ": buffer of " + std::to_string(bytes.size()) + " bytes for " +
                        ParamText(a) + ", which is not a whole number of " +
                        std::to_string(elem) + "-byte elements");
      }
      l.SetBuffer(index, bytes);
      return;
    }
    case ArgKind::kLocalBuffer:
      if (spec.rfind("local:", 0) != 0) throw wrong();
      l.SetLocal(index, static_cast<uint32_t>(ParseBytes(spec.substr(6), where + ": local:BYTES")));
      return;
    case ArgKind::kImage: {
      // image:WxH:FORMAT[:@FILE]
      if (spec.rfind("image:", 0) != 0) throw wrong();
      const std::string rest = spec.substr(6);
      const size_t c1 = rest.find(':');
      if (c1 == std::string::npos) throw UsageError(where + ": expected image:WxH:FORMAT[:@FILE]");
      const std::string dims = rest.substr(0, c1);
      const size_t x = dims.find('x');
      if (x == std::string::npos) {
        throw UsageError(where + ": image size must be WxH, got '" + dims + "'");
      }
      driver::ImageDesc d;
      d.width = static_cast<uint32_t>(
          ParseUnsigned(dims.substr(0, x), 65536, where + ": image width"));
      d.height = static_cast<uint32_t>(
          ParseUnsigned(dims.substr(x + 1), 65536, where + ": image height"));
      if (d.width == 0 || d.height == 0) throw UsageError(where + ": image size must not be 0");
      const size_t c2 = rest.find(':', c1 + 1);
      const std::string fmt = rest.substr(c1 + 1, c2 == std::string::npos ? c2 : c2 - c1 - 1);
      try {
        d.format = driver::ParseImageFormat(fmt);
      } catch (const driver::DriverError& e) {
        throw UsageError(where + ": " + e.what());
      }
      std::vector<uint8_t> packed;
      if (c2 != std::string::npos) {
        const std::string file = rest.substr(c2 + 1);
        if (file.rfind("@", 0) != 0 || file.size() < 2) {
          throw UsageError(where + ": the image contents are @FILE, got '" + file + "'");
        }
        packed = FileBytes(file.substr(1));
        const uint64_t want = uint64_t{d.width} * d.height * driver::TexelBytes(d.format);
        if (packed.size() != want) {
          throw ToolError(where + ": '" + file.substr(1) + "' has " +
                          std::to_string(packed.size()) + " bytes; a " + dims + " " + fmt +
                          " image needs " + std::to_string(want) + " (" + dims + " x " +
                          std::to_string(driver::TexelBytes(d.format)) + " bytes per texel)");
        }
      }
      l.SetImage(index, d, packed);
      return;
    }
  }
}

// ---- output --------------------------------------------------------------------------------

std::string JsonString(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      case '\r': o += "\\r"; break;
      default:
        if (c < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else {
          o += static_cast<char>(c);
        }
    }
  }
  return o + "\"";
}

std::string JsonSizes(const std::vector<uint32_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string SizesText(const std::vector<uint32_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

bool IsDir(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool Exists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

std::string Parent(const std::string& p) {
  const size_t slash = p.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : p.substr(0, slash);
}

// Checked before the run, so that a long run does not end in an unwritable folder.
void CheckOutDir(const std::string& dir) {
  if (Exists(dir) && !IsDir(dir)) {
    throw ToolError("--out '" + dir + "' exists and is not a directory");
  }
  if (!IsDir(Parent(dir))) {
    throw ToolError("--out '" + dir + "': the directory '" + Parent(dir) + "' does not exist");
  }
  if (access(Parent(dir).c_str(), W_OK) != 0 || (IsDir(dir) && access(dir.c_str(), W_OK) != 0)) {
    throw ToolError("--out '" + dir + "': not writable");
  }
}

void RemoveTree(const std::string& tmp, const std::vector<std::string>& names) {
  for (const std::string& n : names) unlink((tmp + "/" + n).c_str());
  rmdir(tmp.c_str());
}

// Writes every file into a temporary sibling directory first, then moves it into place: a new
// DIR by renaming the directory, an existing DIR by renaming file by file (same names replaced,
// everything else in DIR left alone). On an error nothing is left behind.
void WriteOutDir(const std::string& dir,
                 const std::vector<std::pair<std::string, std::string>>& files) {
  std::string tmp = dir + ".tmp.XXXXXX";
  if (mkdtemp(tmp.data()) == nullptr) {
    throw ToolError("cannot create a directory next to '" + dir + "': " + std::strerror(errno));
  }
  std::vector<std::string> written;
  try {
    for (const auto& [name, bytes] : files) {
      const std::string path = tmp + "/" + name;
      std::FILE* f = std::fopen(path.c_str(), "wb");
      if (f == nullptr) throw ToolError("cannot write '" + path + "': " + std::strerror(errno));
      written.push_back(name);
      const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
      if (std::fclose(f) != 0 || !ok) throw ToolError("cannot write '" + path + "'");
    }
    if (!Exists(dir)) {
      if (std::rename(tmp.c_str(), dir.c_str()) == 0) return;
      if (!IsDir(dir)) throw ToolError("cannot create '" + dir + "': " + std::strerror(errno));
    }
    for (const std::string& name : written) {
      if (std::rename((tmp + "/" + name).c_str(), (dir + "/" + name).c_str()) != 0) {
        throw ToolError("cannot write '" + dir + "/" + name + "': " + std::strerror(errno));
      }
    }
    rmdir(tmp.c_str());
  } catch (...) {
    RemoveTree(tmp, written);
    throw;
  }
}

std::string OutName(const std::string& arg) {
  std::string n = arg;
  for (char& c : n) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) c = '_';
  }
  return n + ".bin";
}

std::string GtkwPath(const std::string& trace) {
  const size_t dot = trace.find_last_of('.');
  const size_t slash = trace.find_last_of('/');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) {
    return trace.substr(0, dot) + ".gtkw";
  }
  return trace + ".gtkw";
}

Binary LoadProgramFile(const std::string& path, const compiler::Options& copts) {
  const std::string bytes = ReadFile(path);  // a missing file gets the file error
  if (IsBinary(bytes)) {
    if (!copts.build_options.empty()) {
      throw UsageError("build options (-D, -I, -cl-*) apply when compiling; '" + path +
                       "' is already compiled");
    }
    if (!copts.schedule) {
      throw UsageError("--no-schedule applies when compiling; '" + path + "' is already compiled");
    }
    try {
      return ReadBinary(bytes);
    } catch (const BinaryError& e) {
      throw ToolError("'" + path + "' is not a valid .sgubin: " + e.what());
    }
  }
  return compiler::CompileFile(path, copts);
}

int RunRun(const std::vector<std::string>& argv_in) {
  std::vector<std::string> argv = argv_in;
  compiler::Options copts;
  copts.build_options = TakeBuildOptions(argv);
  const Args args(argv,
                  {"--kernel", "--simd", "--global", "--local", "--arg", "--backend", "--out",
                   "--trace", "--seed", "--watchdog"},
                  {"--json", "--strict", "--random-axi", "--progress", "--no-schedule"});
  if (args.help()) {
    std::fputs(kRunHelp, stdout);
    return 0;
  }
  // ---- the command line alone --------------------------------------------------------------
  if (args.positional().size() != 1) {
    throw UsageError(args.positional().empty() ? "expected a kernel file (.cl, .spv or .sgubin)"
                                               : "expected one kernel file, got " +
                                                     std::to_string(args.positional().size()));
  }
  const std::string path = args.positional()[0];
  copts.schedule = !args.Flag("--no-schedule");
  if (!args.Has("--global")) throw UsageError("--global X[,Y[,Z]] is required");
  const std::vector<uint32_t> global = ParseSizes(args.Get("--global"), "--global");
  std::vector<uint32_t> local;
  if (args.Has("--local")) local = ParseSizes(args.Get("--local"), "--local");
  driver::DeviceOptions dopts;
  try {
    dopts.backend = driver::ParseBackend(args.Get("--backend", "golden"));
  } catch (const driver::DriverError& e) {
    throw UsageError(std::string("--backend: ") + e.what());
  }
  unsigned simd = 0;
  if (args.Has("--simd")) {
    simd = static_cast<unsigned>(ParseUnsigned(args.Get("--simd"), 64, "--simd"));
    if (simd != 8 && simd != 16 && simd != 32) throw UsageError("--simd must be 8, 16 or 32");
  }
  dopts.trace_path = args.Get("--trace");
  if (!dopts.trace_path.empty() && dopts.backend == Backend::kGolden) {
    throw UsageError("--trace needs --backend rtl or cosim (the golden model has no waveform)");
  }
  dopts.seed = ParseUnsigned(args.Get("--seed", "1"), ~uint64_t{0}, "--seed");
  dopts.random_axi = args.Flag("--random-axi");
  dopts.strict = args.Flag("--strict");
  const uint64_t max_watchdog = dopts.backend == Backend::kGolden ? ~uint64_t{0} : 0xffffffffu;
  dopts.watchdog_cycles =
      ParseUnsigned(args.Get("--watchdog", "100000000"), max_watchdog, "--watchdog");
  std::map<std::string, std::string> specs;
  std::vector<std::string> spec_order;
  for (const std::string& a : args.All("--arg")) {
    const size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw UsageError("--arg wants NAME=SPEC, got '" + a + "'");
    }
    const std::string name = a.substr(0, eq);
    if (specs.count(name)) throw UsageError("--arg " + name + " given twice");
    specs[name] = a.substr(eq + 1);
    spec_order.push_back(name);
  }
  const bool json = args.Flag("--json");
  std::string out_dir = args.Get("--out");
  if (args.Has("--out") && out_dir.empty()) throw UsageError("--out needs a directory");
  while (out_dir.size() > 1 && out_dir.back() == '/') out_dir.pop_back();
  if (!out_dir.empty()) CheckOutDir(out_dir);

  // ---- program and kernel ------------------------------------------------------------------
  const Binary bin = LoadProgramFile(path, copts);
  const Kernel* kernel = nullptr;
  std::string names;
  for (const Kernel& k : bin.kernels) names += (names.empty() ? "" : ", ") + k.name;
  if (args.Has("--kernel")) {
    for (const Kernel& k : bin.kernels) {
      if (k.name == args.Get("--kernel")) kernel = &k;
    }
    if (kernel == nullptr) {
      throw ToolError("no kernel '" + args.Get("--kernel") + "' in '" + path + "' (kernels: " +
                      (names.empty() ? "none" : names) + ")");
    }
  } else if (bin.kernels.size() == 1) {
    kernel = &bin.kernels[0];
  } else {
    throw ToolError("'" + path + "' holds " + std::to_string(bin.kernels.size()) + " kernels" +
                    (names.empty() ? "" : " (" + names + "); choose one with --kernel NAME"));
  }
  if (kernel->required_simd != 0) {
    if (kernel->required_simd != 8 && kernel->required_simd != 16 && kernel->required_simd != 32) {
      throw ToolError("kernel '" + kernel->name + "' requires a sub-group size of " +
                      std::to_string(kernel->required_simd) +
                      "; the SGU runs sub-groups of 8, 16 or 32");
    }
    if (simd != 0 && simd != kernel->required_simd) {
      throw ToolError("kernel '" + kernel->name + "' requires a sub-group size of " +
                      std::to_string(kernel->required_simd) + " but --simd " +
                      std::to_string(simd) + " was given; use --simd " +
                      std::to_string(kernel->required_simd) + " or leave --simd out");
    }
    simd = kernel->required_simd;
  }
  dopts.simd = simd ? simd : 16;

  // ---- progress ----------------------------------------------------------------------------
  const bool tty = isatty(fileno(stderr)) != 0;
  const bool progress = tty || args.Flag("--progress");
  const auto start = std::chrono::steady_clock::now();
  auto last_report = start;
  bool shown = false;
  if (progress) {
    dopts.progress = [&](uint64_t done, uint64_t total) {
      const auto now = std::chrono::steady_clock::now();
      if (now - start < std::chrono::seconds(1)) return;
      const auto gap = tty ? std::chrono::milliseconds(100) : std::chrono::milliseconds(1000);
      if (now - last_report < gap && done != total) return;
      last_report = now;
      std::fprintf(stderr, tty ? "\rsgu run: sub-group %" PRIu64 "/%" PRIu64
                               : "sgu run: sub-group %" PRIu64 "/%" PRIu64 "\n",
                   done, total);
      shown = true;
    };
  }

  // ---- arguments, run ------------------------------------------------------------------------
  driver::Device dev(dopts);
  driver::Launch launch(dev, bin, kernel->name);
  for (const std::string& name : spec_order) {
    ApplyArg(launch, launch.ArgIndex(name), specs[name]);
  }
  for (const KernelArg& a : kernel->args) {
    if (!specs.count(a.name)) {
      throw ToolError("missing argument for " + ParamText(a) + " of kernel '" + kernel->name +
                      "': add --arg " + a.name + "=" + SpecExample(a));
    }
  }
  const Result r = launch.Run(global, local);
  if (shown && tty) std::fputs("\r\033[K", stderr);

  std::string gtkw;
  if (!dopts.trace_path.empty()) {
    gtkw = GtkwPath(dopts.trace_path);
    tb::GtkwOptions g;
    g.num_lanes = dopts.simd;
    g.code.push_back({r.code_address, static_cast<uint32_t>(kernel->code.size() * 8),
                      kernel->lines, bin.files});
    tb::WriteGtkw(gtkw, dopts.trace_path, g);
  }
  std::vector<std::pair<std::string, std::string>> outputs;  // arg name, path
  if (r.status == Status::kOk && !out_dir.empty()) {
    std::vector<std::pair<std::string, std::string>> files;
    for (size_t i = 0; i < kernel->args.size(); ++i) {
      const KernelArg& a = kernel->args[i];
      if (a.kind != ArgKind::kGlobalBuffer && a.kind != ArgKind::kConstantBuffer &&
          a.kind != ArgKind::kImage) {
        continue;
      }
      const std::vector<uint8_t> c = launch.Contents(i);
      files.emplace_back(OutName(a.name), std::string(c.begin(), c.end()));
      outputs.emplace_back(a.name, out_dir + "/" + OutName(a.name));
    }
    WriteOutDir(out_dir, files);
  }

  // ---- report --------------------------------------------------------------------------------
  if (json) {
    std::string j = "{";
    j += "\"status\": " + JsonString(driver::StatusName(r.status));
    j += ", \"message\": " + JsonString(r.Message());
    j += ", \"backend\": " + JsonString(driver::BackendName(r.backend));
    j += ", \"kernel\": " + JsonString(r.kernel);
    j += ", \"simd\": " + std::to_string(r.simd);
    j += ", \"global\": " + JsonSizes(r.global);
    j += ", \"local\": " + JsonSizes(r.local);
    j += ", \"work_groups\": " + std::to_string(r.work_groups);
    j += ", \"sub_groups\": " + std::to_string(r.sub_groups);
    j += ", \"sub_groups_total\": " + std::to_string(r.sub_groups_total);
    j += ", \"cycles\": " + std::to_string(r.cycles);
    j += ", \"instructions\": " + std::to_string(r.instructions);
    j += ", \"diagnostic_count\": " + std::to_string(r.diagnostic_count);
    j += ", \"diagnostics\": [";
    for (size_t i = 0; i < r.diagnostics.size(); ++i) {
      j += (i ? ", " : "") + JsonString(r.diagnostics[i]);
    }
    j += "]";
    if (r.status == Status::kOk) {
      j += ", \"fault\": null";
    } else {
      const driver::Fault& f = r.fault;
      j += ", \"fault\": {\"cause\": " + JsonString(isa::CauseName(f.cause)) +
           ", \"pc\": " + std::to_string(f.pc) + ", \"pc_offset\": " + std::to_string(f.pc_offset) +
           ", \"tval\": " + std::to_string(f.tval) + ", \"source\": " + JsonString(f.source) +
           ", \"buffer\": " + JsonString(f.buffer) + ", \"where\": " + JsonString(f.where) +
           ", \"group_id\": " + JsonSizes({f.group_id[0], f.group_id[1], f.group_id[2]}) +
           ", \"sub_group_id\": " + std::to_string(f.sub_group_id) + "}";
    }
    j += ", \"report\": " + JsonString(r.report);
    j += ", \"outputs\": {";
    for (size_t i = 0; i < outputs.size(); ++i) {
      j += (i ? ", " : "") + JsonString(outputs[i].first) + ": " + JsonString(outputs[i].second);
    }
    j += "}";
    if (!dopts.trace_path.empty()) {
      j += ", \"trace\": " + JsonString(dopts.trace_path) + ", \"gtkw\": " + JsonString(gtkw);
    }
    j += "}\n";
    std::fputs(j.c_str(), stdout);
  } else {
    std::printf("%s on %s at SIMD%u: %s\n", r.kernel.c_str(), driver::BackendName(r.backend),
                r.simd, r.status == Status::kOk ? "ok" : r.Message().c_str());
    std::printf("  global %s, local %s: %" PRIu64 " work-groups, %" PRIu64 " of %" PRIu64
                " sub-groups run\n",
                SizesText(r.global).c_str(), SizesText(r.local).c_str(), r.work_groups,
                r.sub_groups, r.sub_groups_total);
    std::printf("  instructions %" PRIu64, r.instructions);
    if (r.backend != Backend::kGolden) {
      std::printf(", cycles %" PRIu64 ", IPC %.2f", r.cycles,
                  r.cycles ? double(r.instructions) / double(r.cycles) : 0.0);
    }
    std::printf("\n");
    if (r.diagnostic_count) {
      constexpr size_t kShown = 8;
      std::printf("  %" PRIu64 " sanitizer diagnostic(s):\n", r.diagnostic_count);
      for (size_t i = 0; i < r.diagnostics.size() && i < kShown; ++i) {
        std::printf("    %s\n", r.diagnostics[i].c_str());
      }
      if (r.diagnostic_count > kShown) {
        std::printf("    ... %" PRIu64 " more (--json lists the first %zu)\n",
                    r.diagnostic_count - kShown, dopts.max_diagnostics);
      }
    }
    if (!outputs.empty()) {
      std::printf("  wrote");
      for (const auto& o : outputs) std::printf(" %s", o.second.c_str());
      std::printf("\n");
    }
    if (!dopts.trace_path.empty()) {
      std::printf("  waveform %s, GTKWave save file %s (gtkwave %s)\n",
                  dopts.trace_path.c_str(), gtkw.c_str(), gtkw.c_str());
    }
  }
  std::fflush(stdout);
  if (r.status != Status::kOk) {
    std::fprintf(stderr, "sgu run: %s\n", r.Message().c_str());
    if (r.status == Status::kMismatch && !r.report.empty()) {
      std::fprintf(stderr, "%s\n", r.report.c_str());
    }
    return 1;
  }
  return 0;
}

}  // namespace

const Command kRunCommand = {"run", "run a kernel over an NDRange (golden, rtl or cosim)",
                             kRunHelp, RunRun};

}  // namespace cli
}  // namespace sgu
