// SPDX-License-Identifier: Apache-2.0
// The compiler's entry points (sgu/compiler.h): module layout, one kernel at a time through
// lowering, register allocation and scheduling, then encoding with the line table.
#include <map>
#include <string>

#include "lower.h"
#include "mir.h"
#include "sgu/compiler.h"
#include "sgu/insn.h"
#include "spirv_module.h"

namespace sgu::compiler {

namespace {

// Encodes an allocated function: resolves labels and branch offsets, fills the line table.
void Emit(const MFunction& f, Kernel* k) {
  std::map<int, uint32_t> label_off;
  uint32_t off = 0;
  for (const MBlock& b : f.blocks) {
    for (const MInsn& mi : b.insns) {
      if (mi.is_label()) label_off[mi.label] = off;
      else off += 8;
    }
  }
  off = 0;
  uint32_t last_file = ~0u, last_line = ~0u;
  for (const MBlock& b : f.blocks) {
    for (const MInsn& mi : b.insns) {
      if (mi.is_label()) continue;
      isa::Fields fl;
      fl.opcode = static_cast<uint8_t>(mi.op);
      fl.dt = mi.dt;
      fl.mod = mi.mod;
      auto reg = [&](const Opnd& o) -> unsigned {
        if (o.kind == Opnd::kNone) return 0;
        if (o.kind != Opnd::kPhys || o.idx < 0 || o.idx > 63) {
          throw CompileError("error: kernel '" + f.kernel_name +
                             "': internal compiler error: unallocated operand");
        }
        return static_cast<unsigned>(o.idx);
      };
      fl.rd = reg(mi.rd);
      fl.rs1 = reg(mi.rs1);
      fl.rs2 = reg(mi.rs2);
      fl.rs3 = reg(mi.rs3);
      fl.imm = mi.imm;
      if (mi.imm_private_bytes) fl.imm = static_cast<int32_t>(f.private_bytes);
      if (mi.target >= 0) {
        const int64_t delta = (static_cast<int64_t>(label_off.at(mi.target)) - off) / 8;
        if (delta < -(1 << 23) || delta >= (1 << 23)) {
          throw CompileError("error: kernel '" + f.kernel_name + "': branch out of range");
        }
        fl.imm = static_cast<int32_t>(delta);
      }
      const uint64_t word = isa::Encode(fl);
      if (auto why = IllegalReason(word, 32)) {
        throw CompileError("error: kernel '" + f.kernel_name +
                           "': internal compiler error: generated an illegal instruction at "
                           "offset " + std::to_string(off) + ": " + *why);
      }
      k->code.push_back(word);
      if (mi.file != last_file || mi.line != last_line) {
        k->lines.push_back(LineEntry{off, mi.file, mi.line});
        last_file = mi.file;
        last_line = mi.line;
      }
      off += 8;
    }
  }
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Binary CompileSpirv(const std::vector<uint32_t>& words, const Options& opts) {
  if (opts.validate) ValidateSpirv(words);
  SpvModule m(words);
  Binary bin;
  ModuleLayout layout = LayoutModule(m, &bin.files);
  // Source files named by OpLine, in a stable order.
  for (const SpvEntryPoint& ep : m.entry_points()) (void)ep;
  {
    std::map<std::string, uint32_t> by_name;
    // Every OpString may be a file; only those used by OpLine matter, but the table is small.
    for (uint32_t id = 1; id < m.bound(); ++id) {
      const std::string s = m.String(id);
      if (s.empty() || s.rfind("kernel_arg", 0) == 0 || s.rfind("//__CSK", 0) == 0) continue;
      if (!EndsWith(s, ".cl") && !EndsWith(s, ".h") && !EndsWith(s, ".clh") &&
          s.find('/') == std::string::npos)
        continue;
      auto it = by_name.find(s);
      if (it == by_name.end()) {
        bin.files.push_back(s);
        it = by_name.emplace(s, static_cast<uint32_t>(bin.files.size() - 1)).first;
      }
      layout.file_index[id] = it->second;
    }
  }
  bin.constants = layout.constants;
  if (m.entry_points().empty()) {
    throw CompileError("error: the module has no kernel (no OpEntryPoint Kernel)");
  }
  for (const SpvEntryPoint& ep : m.entry_points()) {
    Kernel k;
    MFunction f = LowerKernel(m, ep, layout, &k);
    AllocateRegisters(f);
    if (opts.schedule) ScheduleInstructions(f);
    f.private_bytes = (f.private_bytes + 7) / 8 * 8;
    k.private_bytes = f.private_bytes;
    k.scalar_spill_bytes = f.scalar_spill_bytes;
    Emit(f, &k);
    bin.kernels.push_back(std::move(k));
  }
  return bin;
}

Binary CompileFile(const std::string& path, const Options& opts) {
  if (EndsWith(path, ".spv")) return CompileSpirv(ReadSpirvFile(path), opts);
  std::vector<uint32_t> words = OpenClToSpirv(path, opts);
  return CompileSpirv(words, opts);
}

}  // namespace sgu::compiler
