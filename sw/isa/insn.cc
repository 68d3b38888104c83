// SPDX-License-Identifier: Apache-2.0
// Instruction encoding and the legality rules of docs/isa.md.
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

// docs/isa.md "Width": for a 64-bit dt every register operand is a pair, except the address rs1
// of ld/st and the condition rs1 of sel; cvt reads rs1 with the type in mod, writes rd with dt.
PairOperands PairOperandsOf(const Insn& insn) {
  PairOperands p;
  const InsnInfo* info = insn.info();
  if (info == nullptr) return p;
  const bool wide = DtypeIs64(insn.dt());
  switch (info->op) {
    case Op::kCvt:
      p.rd = wide;
      p.rs1 = DtypeIs64(insn.mod());
      return p;
    case Op::kSel:
      p.rd = p.rs2 = p.rs3 = wide;
      return p;
    case Op::kLd:
      p.rd = wide;
      return p;
    case Op::kSt:
      p.rs2 = wide;
      return p;
    default:
      break;
  }
  if (!wide) return p;
  p.rd = (info->uses & kUseRd) != 0;
  p.rs1 = (info->uses & kUseRs1) != 0;
  p.rs2 = (info->uses & kUseRs2) != 0;
  p.rs3 = (info->uses & kUseRs3) != 0;
  return p;
}

std::optional<Illegal> CheckLegal(uint64_t word, unsigned num_lanes) {
  const Insn insn(word);
  const InsnInfo* info = insn.info();
  // Undefined opcode (the all-zero word included).
  if (info == nullptr) {
    return Illegal{FieldId::kOpcode, "undefined opcode " + Hex2(insn.opcode())};
  }
  const std::string name = info->name;
  // dt and mod must be in the instruction's type set and modifier set.
  if ((info->dtypes >> insn.dt() & 1) == 0) {
    if (info->dtypes == 1) {
      return Illegal{FieldId::kDt,
                     name + " takes no type (dt must be 0), got " + DtName(insn.dt())};
    }
    return Illegal{FieldId::kDt, "type " + DtName(insn.dt()) + " is not allowed for " + name};
  }
  if ((info->mods >> insn.mod() & 1) == 0) {
    if (info->mods == 1) {
      return Illegal{FieldId::kMod, name + " takes no modifier (mod must be 0), got " +
                                        std::to_string(insn.mod())};
    }
    return Illegal{FieldId::kMod,
                   "modifier " + std::to_string(insn.mod()) + " is not defined for " + name};
  }
  // A field the instruction does not use must be zero.
  struct Unused {
    uint8_t use;
    FieldId field;
    unsigned value;
    const char* name;
  };
  const Unused unused[] = {
      {kUseRd, FieldId::kRd, insn.rd(), "rd"},
      {kUseRs1, FieldId::kRs1, insn.rs1(), "rs1"},
      {kUseRs2, FieldId::kRs2, insn.rs2(), "rs2"},
      {kUseRs3, FieldId::kRs3, insn.rs3(), "rs3"},
      {kUseImm, FieldId::kImm, insn.imm_field(), "imm"},
  };
  for (const Unused& u : unused) {
    if ((info->uses & u.use) == 0 && u.value != 0) {
      return Illegal{u.field, name + " does not use the " + u.name + " field, which must be 0"};
    }
  }
  const Op op = info->op;
  // cvt between f32 and a 64-bit integer does not exist.
  if (op == Op::kCvt && ((DtypeIsFloat(insn.dt()) && DtypeIs64(insn.mod())) ||
                         (DtypeIs64(insn.dt()) && DtypeIsFloat(insn.mod())))) {
    return Illegal{FieldId::kMod, "cvt between f32 and a 64-bit integer is not defined"};
  }
  // bz/bnz test a uniform condition.
  if ((op == Op::kBz || op == Op::kBnz) && !IsScalarReg(insn.rs1())) {
    return Illegal{FieldId::kRs1, name + " needs a scalar condition register"};
  }
  const bool uses_rd = (info->uses & kUseRd) != 0;
  if (uses_rd && IsScalarReg(insn.rd())) {
    // lane and shfl produce per-lane values.
    if (op == Op::kLane || op == Op::kShfl) {
      return Illegal{FieldId::kRd, name + " needs a vector destination"};
    }
    // A scalar destination needs scalar sources, except for the uniform-by-definition results.
    if (op != Op::kVote && op != Op::kFirst && op != Op::kCsrr) {
      const struct {
        uint8_t use;
        FieldId field;
        unsigned reg;
        const char* name;
      } srcs[] = {{kUseRs1, FieldId::kRs1, insn.rs1(), "rs1"},
                  {kUseRs2, FieldId::kRs2, insn.rs2(), "rs2"},
                  {kUseRs3, FieldId::kRs3, insn.rs3(), "rs3"}};
      for (const auto& s : srcs) {
        if ((info->uses & s.use) != 0 && !IsScalarReg(s.reg)) {
          return Illegal{s.field, std::string("scalar destination with a vector source (") +
                                      s.name + " = " + RegName(s.reg) + ")"};
        }
      }
    }
  }
  // 64-bit operands name an even register that is not s0.
  const PairOperands pairs = PairOperandsOf(insn);
  const struct {
    bool pair;
    FieldId field;
    unsigned reg;
    const char* name;
  } regs[] = {{pairs.rd, FieldId::kRd, insn.rd(), "rd"},
              {pairs.rs1, FieldId::kRs1, insn.rs1(), "rs1"},
              {pairs.rs2, FieldId::kRs2, insn.rs2(), "rs2"},
              {pairs.rs3, FieldId::kRs3, insn.rs3(), "rs3"}};
  for (const auto& r : regs) {
    if (!r.pair) continue;
    if (r.reg % 2 != 0) {
      return Illegal{r.field, std::string("64-bit operand ") + r.name + " = " + RegName(r.reg) +
                                  " must be an even register"};
    }
    if (r.reg == kRegS0) {
      return Illegal{r.field, std::string("64-bit operand ") + r.name + " must not be s0"};
    }
  }
  // csrr reads one of the defined special values.
  if (op == Op::kCsrr && (insn.imm() < 0 || insn.imm() >= static_cast<int32_t>(kNumSpecials))) {
    return Illegal{FieldId::kImm, "csrr: undefined special value " + std::to_string(insn.imm())};
  }
  // shfl group width: imm = log2 w for xor/up/down/rotup/rotdn (0: w = N), 0 for idx/down2/up2.
  if (op == Op::kShfl) {
    const auto mode = static_cast<ModShfl>(insn.mod());
    const int32_t imm = insn.imm();
    if (mode == ModShfl::kIdx || mode == ModShfl::kDown2 || mode == ModShfl::kUp2) {
      if (imm != 0) {
        return Illegal{FieldId::kImm, std::string("shfl.") + kModNamesShfl[insn.mod()] +
                                          " takes no group width (imm must be 0)"};
      }
    } else if (imm < 0 || imm > 5 || (imm != 0 && (1u << imm) > num_lanes)) {
      return Illegal{FieldId::kImm, "shfl group width imm = " + std::to_string(imm) +
                                        " is not allowed with " + std::to_string(num_lanes) +
                                        " lanes"};
    }
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
