// SPDX-License-Identifier: Apache-2.0
// SGU disassembler: canonical text that the assembler turns back into the same word.
#include <cinttypes>
#include <cstdio>
#include <string>

#include "sgu/asm.h"
#include "sgu/insn.h"

namespace sgu {

namespace {

using isa::Form;
using isa::InsnInfo;
using isa::Op;

std::string Reg(unsigned r) { return isa::RegName(r); }

// "[v2]", "[v2 + 16]", "[s3 - 8]".
std::string Mem(unsigned r, int32_t imm) {
  if (imm == 0) return "[" + Reg(r) + "]";
  if (imm < 0) return "[" + Reg(r) + " - " + std::to_string(-static_cast<int64_t>(imm)) + "]";
  return "[" + Reg(r) + " + " + std::to_string(imm) + "]";
}

// Mnemonic with suffixes: the type unless it is the op's default (cvt: always both types), the
// modifier name when the op has a modifier set, the shfl group width when not the full width.
std::string Mnemonic(const isa::Insn& i, const InsnInfo& info) {
  std::string m = info.name;
  unsigned default_dt = 0;
  while ((info.dtypes >> default_dt & 1) == 0) ++default_dt;
  if (info.op == Op::kCvt) {
    return m + "." + isa::kDtypes[i.dt()].name + "." + isa::kDtypes[i.mod()].name;
  }
  if (i.dt() != default_dt) m += std::string(".") + isa::kDtypes[i.dt()].name;
  if (info.mod_names[0] != nullptr) m += std::string(".") + info.mod_names[i.mod()];
  if (info.imm_rule == isa::ImmRule::kGroupWidth && i.imm() != 0) {
    m += ".w" + std::to_string(1u << i.imm());
  }
  return m;
}

}  // namespace

std::string Disassemble(uint64_t word) {
  if (std::optional<std::string> why = IllegalReason(word, 32)) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "0x%016" PRIx64, word);
    return std::string(".dword ") + buf + "  # illegal: " + *why;
  }
  const isa::Insn i(word);
  const InsnInfo& info = *i.info();
  const std::string m = Mnemonic(i, info);
  const std::string imm = std::to_string(i.imm());
  switch (info.form) {
    case Form::kN:
      return m;
    case Form::kI:
      return m + " " + imm;
    case Form::kL:
      return m + " " + imm;
    case Form::kRL:
      return m + " " + Reg(i.rs1()) + ", " + imm;
    case Form::kS:
      return m + " " + Reg(i.rs1());
    case Form::kR:
      return m + " " + Reg(i.rd());
    case Form::kRR:
      return m + " " + Reg(i.rd()) + ", " + Reg(i.rs1());
    case Form::kRI:
      if (info.imm_rule == isa::ImmRule::kSpecial) {
        return m + " " + Reg(i.rd()) + ", " + isa::kSpecialNames[i.imm()];
      }
      return m + " " + Reg(i.rd()) + ", " + imm;
    case Form::kRRR:
      return m + " " + Reg(i.rd()) + ", " + Reg(i.rs1()) + ", " + Reg(i.rs2());
    case Form::kRRRR:
      return m + " " + Reg(i.rd()) + ", " + Reg(i.rs1()) + ", " + Reg(i.rs2()) + ", " +
             Reg(i.rs3());
    case Form::kRRI:
      return m + " " + Reg(i.rd()) + ", " + Reg(i.rs1()) + ", " + imm;
    case Form::kSHFL: {
      std::string s = m + " " + Reg(i.rd()) + ", " + Reg(i.rs1()) + ", " + Reg(i.rs2());
      const auto mode = static_cast<isa::ModShfl>(i.mod());
      const bool two_regs = mode == isa::ModShfl::kDown2 || mode == isa::ModShfl::kUp2;
      if (two_regs || i.rs3() != isa::kRegS0) s += ", " + Reg(i.rs3());
      return s;
    }
    case Form::kLD:
      return m + " " + Reg(i.rd()) + ", " + Mem(i.rs1(), i.imm());
    case Form::kST:
      return m + " " + Mem(i.rs1(), i.imm()) + ", " + Reg(i.rs2());
  }
  return m;
}

}  // namespace sgu
