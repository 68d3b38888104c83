// SPDX-License-Identifier: Apache-2.0
// `sgu asm` and `sgu disasm`.
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.h"
#include "sgu/asm.h"
#include "sgu/binary.h"
#include "sgu/compiler.h"

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
    "usage: sgu disasm PROG.bin [--base ADDR]\n"
    "       sgu disasm K.sgubin [--kernel NAME]\n"
    "       sgu disasm K.spv\n\n"
    "Raw words (PROG.bin): one line per 64-bit word: address (from ADDR, default 0), word,\n"
    "instruction. Illegal words print as '.dword 0x...  # illegal: reason'.\n\n"
    "A compiled program (.sgubin, recognised by its contents): per kernel (or only NAME) its\n"
    "parameters with their launch-block offsets, its sizes, then each instruction with its\n"
    "byte offset in the kernel, and a '# file:line' comment where the line table changes.\n\n"
    "A SPIR-V module (.spv, recognised by its magic number): SPIRV-Tools' disassembly.\n";

const char* ArgKindName(ArgKind k) {
  switch (k) {
    case ArgKind::kScalar: return "scalar";
    case ArgKind::kGlobalBuffer: return "__global";
    case ArgKind::kConstantBuffer: return "__constant";
    case ArgKind::kLocalBuffer: return "__local";
    case ArgKind::kImage: return "image";
  }
  return "?";
}

void DisasmKernel(const Binary& bin, const Kernel& k) {
  std::printf("kernel %s\n", k.name.c_str());
  for (const KernelArg& a : k.args) {
    std::printf("  arg %-16s %-24s %-10s launch block +%u, %u bytes\n", a.name.c_str(),
                a.type_name.c_str(), ArgKindName(a.kind), a.offset, a.size);
  }
  std::printf("  launch block %u bytes", k.launch_block_size);
  if (k.required_simd) std::printf(", required sub-group size %u", k.required_simd);
  std::printf(", private %u bytes/lane, scalar spill %u bytes, static __local %u bytes%s\n",
              k.private_bytes, k.scalar_spill_bytes, k.local_bytes,
              k.uses_barrier ? ", uses barrier()" : "");
  size_t line = 0;  // next line-table row
  std::string last_src;
  for (size_t i = 0; i < k.code.size(); ++i) {
    const uint32_t off = static_cast<uint32_t>(8 * i);
    std::string src;
    while (line < k.lines.size() && k.lines[line].offset <= off) {
      const LineEntry& e = k.lines[line++];
      src = e.line == 0 ? std::string("-")
                        : (e.file < bin.files.size() ? bin.files[e.file] : std::string("?")) +
                              ":" + std::to_string(e.line);
    }
    std::string text = Disassemble(k.code[i]);
    if (!src.empty() && src != last_src && src != "-") {
      if (text.size() < 36) text.resize(36, ' ');
      text += "  # " + src;
    }
    if (!src.empty()) last_src = src;
    std::printf("  +0x%04" PRIx32 "  %016" PRIx64 "  %s\n", off, k.code[i], text.c_str());
  }
}

int RunDisasm(const std::vector<std::string>& argv) {
  const Args args(argv, {"--base", "--kernel"}, {});
  if (args.help()) {
    std::fputs(kDisasmHelp, stdout);
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("expected one binary file");
  const uint32_t base =
      static_cast<uint32_t>(ParseUnsigned(args.Get("--base", "0"), 0xffffffffu, "--base"));
  std::string path = args.positional()[0];
  const std::string bytes = ReadFile(path);
  // A SPIR-V module (either byte order): SPIRV-Tools' disassembly.
  if (bytes.size() >= 4 && (bytes.compare(0, 4, "\x03\x02\x23\x07") == 0 ||
                            bytes.compare(0, 4, "\x07\x23\x02\x03") == 0)) {
    if (args.Has("--base") || args.Has("--kernel")) {
      throw UsageError("--base and --kernel do not apply to a SPIR-V module");
    }
    std::fputs(compiler::DisassembleSpirv(compiler::ReadSpirvFile(path)).c_str(), stdout);
    return 0;
  }
  if (IsBinary(bytes)) {
    if (args.Has("--base")) throw UsageError("--base applies to raw words, not to a .sgubin");
    Binary bin;
    try {
      bin = ReadBinary(bytes);
    } catch (const BinaryError& e) {
      throw ToolError("'" + path + "' is not a valid .sgubin: " + e.what());
    }
    bool found = false;
    for (const Kernel& k : bin.kernels) {
      if (args.Has("--kernel") && k.name != args.Get("--kernel")) continue;
      if (found) std::printf("\n");
      DisasmKernel(bin, k);
      found = true;
    }
    if (args.Has("--kernel") && !found) {
      throw ToolError("no kernel '" + args.Get("--kernel") + "' in '" + path + "'");
    }
    if (!bin.constants.empty()) {
      std::printf("\nconstant data: %zu bytes\n", bin.constants.size());
    }
    return 0;
  }
  if (args.Has("--kernel")) throw UsageError("--kernel applies to a .sgubin");
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
const Command kDisasmCommand = {"disasm", "disassemble raw 64-bit words or a .sgubin", kDisasmHelp,
                                 RunDisasm};

}  // namespace cli
}  // namespace sgu
