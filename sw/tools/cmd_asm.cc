// SPDX-License-Identifier: Apache-2.0
// `sgu asm` and `sgu disasm`.
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.h"
#include "sgu/asm.h"

namespace sgu {
namespace cli {

namespace {

const char kAsmHelp[] =
    "usage: sgu asm PROG.s [-o PROG.bin]\n\n"
    "Assembles PROG.s into raw little-endian 64-bit words. The output defaults to PROG.s with\n"
    "its extension replaced by .bin; it is written atomically (nothing is left on an error).\n";

int RunAsm(const std::vector<std::string>& argv) {
  const Args args(argv, {"-o", "--output"}, {});
  if (args.help()) {
    std::fputs(kAsmHelp, stdout);
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("expected one source file");
  const std::string& in = args.positional()[0];
  std::string out = args.Get("-o", args.Get("--output"));
  if (out.empty()) {
    const size_t dot = in.find_last_of('.');
    const size_t slash = in.find_last_of('/');
    out = (dot != std::string::npos && (slash == std::string::npos || dot > slash))
              ? in.substr(0, dot) + ".bin"
              : in + ".bin";
  }
  const Program prog = Assemble(ReadFile(in), in);
  std::string bytes;
  bytes.reserve(prog.words.size() * 8);
  for (uint64_t w : prog.words) {
    for (unsigned b = 0; b < 8; ++b) bytes.push_back(static_cast<char>(w >> (8 * b)));
  }
  WriteFileAtomic(out, bytes);
  return 0;
}

const char kDisasmHelp[] =
    "usage: sgu disasm PROG.bin [--base ADDR]\n\n"
    "Prints one line per 64-bit word: address (from ADDR, default 0), word, instruction.\n"
    "Illegal words print as '.dword 0x...  # illegal: reason'.\n";

int RunDisasm(const std::vector<std::string>& argv) {
  const Args args(argv, {"--base"}, {});
  if (args.help()) {
    std::fputs(kDisasmHelp, stdout);
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("expected one binary file");
  const uint32_t base =
      static_cast<uint32_t>(ParseUnsigned(args.Get("--base", "0"), 0xffffffffu, "--base"));
  std::string path = args.positional()[0];
  const std::string bytes = ReadFile(path);
  if (bytes.size() % 8 != 0) {
    throw ToolError("'" + path + "' is not a whole number of 64-bit words");
  }
  for (size_t i = 0; i < bytes.size() / 8; ++i) {
    uint64_t w = 0;
    for (unsigned b = 0; b < 8; ++b) {
      w |= uint64_t{static_cast<uint8_t>(bytes[8 * i + b])} << (8 * b);
    }
    std::printf("0x%08" PRIx32 "  %016" PRIx64 "  %s\n", static_cast<uint32_t>(base + 8 * i), w,
                Disassemble(w).c_str());
  }
  return 0;
}

}  // namespace

const Command kAsmCommand = {"asm", "assemble a source file into raw 64-bit words", kAsmHelp,
                             RunAsm};
const Command kDisasmCommand = {"disasm", "disassemble raw 64-bit words", kDisasmHelp, RunDisasm};

}  // namespace cli
}  // namespace sgu
