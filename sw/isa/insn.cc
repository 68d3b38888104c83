// SPDX-License-Identifier: Apache-2.0
// Instruction encoding and the legality rules of isa/sgu_isa.txt: one generic checker reading the
// generated decode table (sw/include/sgu/isa_gen.h).
#include "sgu/insn.h"

#include <string>

namespace sgu {
namespace isa {

namespace {

uint64_t Put(uint64_t value, unsigned lsb, unsigned width) {
  return (value & ((uint64_t{1} << width) - 1)) << lsb;
}

std::string Hex2(unsigned v) {
  static const char* kDigits = "0123456789abcdef";
  return std::string("0x") + kDigits[(v >> 4) & 15] + kDigits[v & 15];
}

std::string DtName(unsigned dt) {
  const char* name = dt < 16 ? kDtypes[dt].name : nullptr;
  return name != nullptr ? std::string(".") + name : "code " + std::to_string(dt);
}

}  // namespace

uint64_t Encode(const Fields& f) {
  return Put(f.opcode, kOpcodeLsb, kOpcodeWidth) | Put(f.dt, kDtLsb, kDtWidth) |
         Put(f.mod, kModLsb, kModWidth) | Put(f.rd, kRdLsb, kRdWidth) |
         Put(f.rs1, kRs1Lsb, kRs1Width) | Put(f.rs2, kRs2Lsb, kRs2Width) |
         Put(f.rs3, kRs3Lsb, kRs3Width) | Put(static_cast<uint32_t>(f.imm), kImmLsb, kImmWidth);
}

std::string RegName(unsigned r) { return (IsScalarReg(r) ? "s" : "v") + std::to_string(r % 32); }

namespace {

// Whether register operand k (RegIndex) of a defined instruction is read or written as a pair:
// its width follows dt (:d) or the type mod names (:m), and that type is 64-bit.
bool IsPairOperand(const InsnInfo& info, const Insn& insn, unsigned k) {
  if ((info.uses >> k & 1) == 0) return false;
  switch (info.regs[k].width) {
    case OperandWidth::kDt: return (kDtypes64 >> insn.dt() & 1) != 0;
    case OperandWidth::kMod: return (kDtypes64 >> insn.mod() & 1) != 0;
    case OperandWidth::kFixed32: break;
  }
  return false;
}

unsigned Log2Floor(unsigned n) {
  unsigned b = 0;
  while ((n >> (b + 1)) != 0) ++b;
  return b;
}

constexpr const char* kRegFieldNames[4] = {"rd", "rs1", "rs2", "rs3"};
constexpr FieldId kRegFields[4] = {FieldId::kRd, FieldId::kRs1, FieldId::kRs2, FieldId::kRs3};

// The mnemonic with its suffixes, for messages ("cvt.f32.i64", "shfl.idx").
std::string Spelled(const InsnInfo& info, unsigned dt, unsigned mod) {
  std::string m = info.name;
  if (info.dtypes != 1u && kDtypes[dt].name != nullptr) m += std::string(".") + kDtypes[dt].name;
  if (info.mod_names[mod] != nullptr) m += std::string(".") + info.mod_names[mod];
  return m;
}

}  // namespace

const char* RuleName(Rule r) {
  switch (r) {
    case Rule::kOpcode: return "opcode";
    case Rule::kDtype: return "dtype";
    case Rule::kMod: return "mod";
    case Rule::kUnusedField: return "unused_field";
    case Rule::kForbiddenPair: return "forbidden_pair";
    case Rule::kRegKind: return "reg_kind";
    case Rule::kScalarDestination: return "scalar_destination";
    case Rule::kPair: return "pair";
    case Rule::kImm: return "imm";
  }
  return "unknown";
}

PairOperands PairOperandsOf(const Insn& insn) {
  PairOperands p;
  const InsnInfo* info = insn.info();
  if (info == nullptr) return p;
  p.rd = IsPairOperand(*info, insn, kRegRd);
  p.rs1 = IsPairOperand(*info, insn, kRegRs1);
  p.rs2 = IsPairOperand(*info, insn, kRegRs2);
  p.rs3 = IsPairOperand(*info, insn, kRegRs3);
  return p;
}

// One generic checker: every rule comes from the instruction's line in isa/sgu_isa.txt (the
// generated kInsns entry); the RTL decoder (rtl/sgu_decode.sv) reads the same attributes from
// the generated sgu_isa_pkg::insn_info. The first broken rule, in the order of Rule, is reported.
std::optional<Illegal> CheckLegal(uint64_t word, unsigned num_lanes) {
  const Insn insn(word);
  const InsnInfo* info = insn.info();
  // Undefined opcode (the all-zero word included).
  if (info == nullptr) {
    return Illegal{FieldId::kOpcode, "undefined opcode " + Hex2(insn.opcode()), Rule::kOpcode};
  }
  const std::string name = info->name;
  // dt and mod must be in the instruction's type set and modifier set.
  if ((info->dtypes >> insn.dt() & 1) == 0) {
    if (info->dtypes == 1) {
      return Illegal{FieldId::kDt,
                     name + " takes no type (dt must be 0), got " + DtName(insn.dt()),
                     Rule::kDtype};
    }
    return Illegal{FieldId::kDt, "type " + DtName(insn.dt()) + " is not allowed for " + name,
                   Rule::kDtype};
  }
  if ((info->mods >> insn.mod() & 1) == 0) {
    if (info->mods == 1) {
      return Illegal{FieldId::kMod,
                     name + " takes no modifier (mod must be 0), got " + std::to_string(insn.mod()),
                     Rule::kMod};
    }
    return Illegal{FieldId::kMod,
                   "modifier " + std::to_string(insn.mod()) + " is not defined for " + name,
                   Rule::kMod};
  }
  // A field the instruction does not use must be zero.
  const unsigned regs[4] = {insn.rd(), insn.rs1(), insn.rs2(), insn.rs3()};
  for (unsigned k = 0; k < 4; ++k) {
    if ((info->uses >> k & 1) == 0 && regs[k] != 0) {
      return Illegal{kRegFields[k],
                     name + " does not use the " + kRegFieldNames[k] + " field, which must be 0",
                     Rule::kUnusedField};
    }
  }
  if ((info->uses & kUseImm) == 0 && insn.imm_field() != 0) {
    return Illegal{FieldId::kImm, name + " does not use the imm field, which must be 0",
                   Rule::kUnusedField};
  }
  // forbid:DTS/MODS: pairs of dt and mod that do not exist.
  for (const ForbidPair& f : info->forbid) {
    if ((f.dts >> insn.dt() & 1) != 0 && (f.mods >> insn.mod() & 1) != 0) {
      return Illegal{FieldId::kMod, Spelled(*info, insn.dt(), insn.mod()) + " is not defined",
                     Rule::kForbiddenPair};
    }
  }
  // :s and :v operands.
  for (unsigned k = 0; k < 4; ++k) {
    if ((info->uses >> k & 1) == 0) continue;
    const RegKind kind = info->regs[k].kind;
    if (kind == RegKind::kScalar && !IsScalarReg(regs[k])) {
      return Illegal{kRegFields[k], name + " needs a scalar register as " + kRegFieldNames[k] +
                                        " (got " + RegName(regs[k]) + ")",
                     Rule::kRegKind};
    }
    if (kind == RegKind::kVector && IsScalarReg(regs[k])) {
      return Illegal{kRegFields[k],
                     name + " needs a vector " +
                         (k == kRegRd ? std::string("destination") : kRegFieldNames[k]) +
                         " (got " + RegName(regs[k]) + ")",
                     Rule::kRegKind};
    }
  }
  // A scalar destination needs scalar sources, unless the result is uniform (:u).
  if ((info->uses & kUseRd) != 0 && IsScalarReg(insn.rd()) &&
      info->regs[kRegRd].kind != RegKind::kUniform) {
    for (unsigned k = kRegRs1; k <= kRegRs3; ++k) {
      if ((info->uses >> k & 1) != 0 && !IsScalarReg(regs[k])) {
        return Illegal{kRegFields[k], std::string("scalar destination with a vector source (") +
                                          kRegFieldNames[k] + " = " + RegName(regs[k]) + ")",
                       Rule::kScalarDestination};
      }
    }
  }
  // 64-bit operands name the even register of a pair, not one of pair_excluded.
  for (unsigned k = 0; k < 4; ++k) {
    if (!IsPairOperand(*info, insn, k)) continue;
    if (regs[k] % 2 != 0) {
      return Illegal{kRegFields[k], std::string("64-bit operand ") + kRegFieldNames[k] + " = " +
                                        RegName(regs[k]) + " must be an even register",
                     Rule::kPair};
    }
    if ((kPairExcluded >> regs[k] & 1) != 0) {
      return Illegal{kRegFields[k], std::string("64-bit operand ") + kRegFieldNames[k] +
                                        " must not be " + RegName(regs[k]),
                     Rule::kPair};
    }
  }
  // The immediate's rule. The field is compared unsigned: a negative value is out of range.
  const uint32_t imm = insn.imm_field();
  switch (info->imm_rule) {
    case ImmRule::kAny:
      break;
    case ImmRule::kSpecial:
      if (imm >= kNumSpecials) {
        return Illegal{FieldId::kImm,
                       name + ": undefined special value " + std::to_string(insn.imm()),
                       Rule::kImm};
      }
      break;
    case ImmRule::kGroupWidth:
      if ((info->imm_mods >> insn.mod() & 1) == 0) {
        if (imm != 0) {
          return Illegal{FieldId::kImm, Spelled(*info, insn.dt(), insn.mod()) +
                                            " takes no group width (imm must be 0)",
                         Rule::kImm};
        }
      } else if (imm > Log2Floor(num_lanes)) {
        return Illegal{FieldId::kImm, name + " group width imm = " + std::to_string(insn.imm()) +
                                          " is not allowed with " + std::to_string(num_lanes) +
                                          " lanes",
                       Rule::kImm};
      }
      break;
  }
  return std::nullopt;
}

}  // namespace isa

std::optional<std::string> IllegalReason(uint64_t word, unsigned num_lanes) {
  std::optional<isa::Illegal> ill = isa::CheckLegal(word, num_lanes);
  if (!ill) return std::nullopt;
  return ill->reason;
}

}  // namespace sgu
