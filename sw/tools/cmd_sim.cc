// SPDX-License-Identifier: Apache-2.0
// `sgu sim`: runs a program on the golden model alone.
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.h"
#include "sgu/asm.h"
#include "sgu/insn.h"
#include "sgu/model.h"

namespace sgu {
namespace cli {

namespace {

constexpr uint32_t kLoadAddress = 0x1000;  // where `sgu sim` puts the program (PC_START)

const char kSimHelp[] =
    "usage: sgu sim PROG.s|PROG.bin --simd 8|16|32 [--lanes K] [--arg N=VALUE ...]\n"
    "               [--mem BYTES] [--max-insns N] [--trace] [--regs]\n\n"
    "Runs a program on the golden model alone. A file ending in .bin is raw little-endian\n"
    "words, anything else is assembled. The program is loaded at 0x1000 (PC_START), memory is\n"
    "BYTES bytes (default 0x100000), the kernel may access all of it (MEM_BASE 0, MEM_LIMIT\n"
    "BYTES), and ARGn sets s(n+1).\n\n"
    "  --simd N        SIMD width (required)\n"
    "  --lanes K       LANES register: lanes 0..K-1 start active (default 0 = all)\n"
    "  --arg N=VALUE   kernel argument N (0..7), VALUE decimal or 0x hex, may be negative\n"
    "  --mem BYTES     memory size (default 0x100000)\n"
    "  --max-insns N   stop after N instructions (default 1000000)\n"
    "  --trace         print one line per retired instruction\n"
    "  --regs          print the non-zero registers at the end\n\n"
    "Prints the status (halted, or trapped with cause, pc and tval), the instruction count and\n"
    "any sanitizer diagnostics. Exit status 0 if the program halted, 1 if it trapped or ran out\n"
    "of instructions.\n";

std::string RegText(unsigned rd, bool pair) {
  std::string s = isa::RegName(rd);
  if (pair) s += ":" + isa::RegName(rd + 1);
  return s;
}

std::string Hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08" PRIx32, v);
  return buf;
}

// One trace line per retire record.
void PrintTrace(const Retire& r, unsigned n) {
  std::string line;
  char head[96];
  std::snprintf(head, sizeof head, "%8" PRIu64 "  %s  %016" PRIx64 "  ", r.order,
                Hex32(r.pc).c_str(), r.insn);
  line = head;
  std::string text = r.trap && r.insn == 0 ? "(no instruction)" : Disassemble(r.insn);
  if (text.size() < 28) text.resize(28, ' ');
  line += text;
  if (r.trap) {
    line += "  TRAP " + std::string(isa::CauseName(r.cause)) + " tval=" + Hex32(r.tval);
  }
  if (r.halt) line += "  HALT";
  if (r.rd_we) {
    line += "  " + RegText(r.rd, r.rd_pair) + " =";
    auto value = [&](unsigned l) {
      char buf[40];
      if (r.rd_pair) {
        std::snprintf(buf, sizeof buf, "0x%08" PRIx32 "%08" PRIx32, r.data_hi[l], r.data_lo[l]);
      } else {
        std::snprintf(buf, sizeof buf, "0x%" PRIx32, r.data_lo[l]);
      }
      return std::string(buf);
    };
    if (isa::IsScalarReg(r.rd)) {
      line += " " + value(0);
    } else {
      line += " {";
      bool first = true;
      for (unsigned l = 0; l < n; ++l) {
        if ((r.lane_mask >> l & 1) == 0) continue;
        line += (first ? "" : " ") + std::to_string(l) + ":" + value(l);
        first = false;
      }
      line += "}";
    }
  }
  for (const MemWrite& w : r.mem_writes) {
    char buf[80];
    std::snprintf(buf, sizeof buf, "  mem[%s].%u = 0x%" PRIx64, Hex32(w.addr).c_str(), w.size,
                  w.data);
    line += buf;
  }
  line += "  exec=" + Hex32(r.exec);
  std::printf("%s\n", line.c_str());
}

void PrintRegs(const Model& m) {
  for (unsigned r = 1; r < 32; ++r) {
    if (m.sreg(r) != 0) std::printf("  s%-2u = %s\n", r, Hex32(m.sreg(r)).c_str());
  }
  for (unsigned r = 0; r < 32; ++r) {
    bool any = false;
    for (unsigned l = 0; l < m.num_lanes(); ++l) any = any || m.vreg(r, l) != 0;
    if (!any) continue;
    std::printf("  v%-2u =", r);
    for (unsigned l = 0; l < m.num_lanes(); ++l) std::printf(" %" PRIx32, m.vreg(r, l));
    std::printf("\n");
  }
}

int RunSim(const std::vector<std::string>& argv) {
  const Args args(argv, {"--simd", "--lanes", "--arg", "--mem", "--max-insns"},
                  {"--trace", "--regs"});
  if (args.help()) {
    std::fputs(kSimHelp, stdout);
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("expected one program file");
  if (!args.Has("--simd")) throw UsageError("--simd 8|16|32 is required");
  const unsigned simd = static_cast<unsigned>(ParseUnsigned(args.Get("--simd"), 64, "--simd"));
  if (simd != 8 && simd != 16 && simd != 32) throw UsageError("--simd must be 8, 16 or 32");
  LaunchParams p;
  p.pc_start = kLoadAddress;
  p.lanes = static_cast<uint32_t>(ParseUnsigned(args.Get("--lanes", "0"), simd, "--lanes"));
  const uint64_t mem_size = ParseUnsigned(args.Get("--mem", "0x100000"), 0xffffffc0u, "--mem");
  const uint64_t max_insns =
      ParseUnsigned(args.Get("--max-insns", "1000000"), ~uint64_t{0}, "--max-insns");
  for (const std::string& a : args.All("--arg")) {
    const size_t eq = a.find('=');
    if (eq == std::string::npos) throw UsageError("--arg wants N=VALUE, got '" + a + "'");
    const unsigned idx = static_cast<unsigned>(ParseUnsigned(a.substr(0, eq), 7, "--arg index"));
    p.args[idx] = ParseWord(a.substr(eq + 1), "--arg value");
  }
  const std::vector<uint64_t> words = LoadProgram(args.positional()[0]);
  if (kLoadAddress + 8 * uint64_t{words.size()} > mem_size) {
    throw ToolError("the program (" + std::to_string(words.size()) +
                    " words at 0x1000) does not fit in " + std::to_string(mem_size) +
                    " bytes of memory (--mem)");
  }
  Memory mem(static_cast<uint32_t>(mem_size));
  for (size_t i = 0; i < words.size(); ++i) mem.Store(kLoadAddress + 8 * i, 8, words[i]);
  p.mem_base = 0;
  p.mem_limit = static_cast<uint32_t>(mem_size);

  Model model(simd, &mem);
  model.Start(p);
  Retire last;
  while (model.running() && model.instret() < max_insns) {
    last = model.Step();
    if (args.Flag("--trace")) PrintTrace(last, simd);
  }
  int rc = 0;
  if (model.running()) {
    std::printf("status: stopped after %" PRIu64 " instructions (--max-insns) at pc %s\n",
                model.instret(), Hex32(model.pc()).c_str());
    rc = 1;
  } else if (last.trap) {
    std::printf("status: trapped: %s at pc %s, tval %s\n", isa::CauseName(last.cause),
                Hex32(last.pc).c_str(), Hex32(last.tval).c_str());
    rc = 1;
  } else {
    std::printf("status: halted at pc %s\n", Hex32(last.pc).c_str());
  }
  std::printf("instructions: %" PRIu64 "\n", model.instret());
  for (const Diagnostic& d : model.diagnostics()) {
    std::printf("diagnostic: #%" PRIu64 " pc %s lane %u: %s\n", d.order, Hex32(d.pc).c_str(),
                d.lane, d.what.c_str());
  }
  if (args.Flag("--regs")) PrintRegs(model);
  return rc;
}

}  // namespace

const Command kSimCommand = {"sim", "run a program on the golden model", kSimHelp, RunSim};

}  // namespace cli
}  // namespace sgu
