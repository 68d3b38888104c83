// SPDX-License-Identifier: Apache-2.0
// Decoded SGU instruction word: field accessors, encoder, register-number helpers, and the one
// legality check shared by the golden model, the assembler and the disassembler.
#ifndef SGU_INSN_H_
#define SGU_INSN_H_

#include <cstdint>
#include <optional>
#include <string>

#include "sgu/isa_gen.h"

namespace sgu {
namespace isa {

// Register numbers are 6 bits: 0..31 are v0..v31, 32..63 are s0..s31 (docs/isa.md).
inline constexpr unsigned kScalarBase = 32;
inline constexpr unsigned kRegS0 = 32;
inline constexpr bool IsScalarReg(unsigned r) { return r >= kScalarBase; }

// Bits of a dtype code (0 for an undefined code).
inline constexpr unsigned DtypeBits(unsigned dt) { return dt < 16 ? kDtypes[dt].bits : 0; }
inline constexpr bool DtypeIs64(unsigned dt) { return DtypeBits(dt) == 64; }
inline constexpr bool DtypeIsSigned(unsigned dt) {
  return dt < 16 && kDtypes[dt].cls == DtypeClass::kInt;
}
inline constexpr bool DtypeIsFloat(unsigned dt) {
  return dt < 16 && kDtypes[dt].name != nullptr && kDtypes[dt].cls == DtypeClass::kFloat;
}

// Plain field values of an instruction word; Encode() packs them (imm is truncated to 24 bits).
struct Fields {
  uint8_t opcode = 0;
  unsigned dt = 0;
  unsigned mod = 0;
  unsigned rd = 0;
  unsigned rs1 = 0;
  unsigned rs2 = 0;
  unsigned rs3 = 0;
  int32_t imm = 0;
};
uint64_t Encode(const Fields& f);

// One decoded instruction word, Spike style: every accessor extracts one field.
class Insn {
 public:
  explicit Insn(uint64_t bits) : bits_(bits) {}

  uint64_t bits() const { return bits_; }
  uint8_t opcode() const { return static_cast<uint8_t>(Field(kOpcodeLsb, kOpcodeWidth)); }
  unsigned dt() const { return static_cast<unsigned>(Field(kDtLsb, kDtWidth)); }
  unsigned mod() const { return static_cast<unsigned>(Field(kModLsb, kModWidth)); }
  unsigned rd() const { return static_cast<unsigned>(Field(kRdLsb, kRdWidth)); }
  unsigned rs1() const { return static_cast<unsigned>(Field(kRs1Lsb, kRs1Width)); }
  unsigned rs2() const { return static_cast<unsigned>(Field(kRs2Lsb, kRs2Width)); }
  unsigned rs3() const { return static_cast<unsigned>(Field(kRs3Lsb, kRs3Width)); }
  // The 24-bit immediate, sign-extended.
  int32_t imm() const {
    uint32_t raw = static_cast<uint32_t>(Field(kImmLsb, kImmWidth));
    return static_cast<int32_t>(raw << (32 - kImmWidth)) >> (32 - kImmWidth);
  }
  // The raw 24-bit immediate field.
  uint32_t imm_field() const { return static_cast<uint32_t>(Field(kImmLsb, kImmWidth)); }

  // Decode-table entry, nullptr when the opcode is undefined.
  const InsnInfo* info() const { return LookupOpcode(opcode()); }
  Op op() const { return static_cast<Op>(opcode()); }
  Dtype dtype() const { return static_cast<Dtype>(dt()); }
  Fields fields() const { return Fields{opcode(), dt(), mod(), rd(), rs1(), rs2(), rs3(), imm()}; }

 private:
  uint64_t Field(unsigned lsb, unsigned width) const {
    return (bits_ >> lsb) & ((uint64_t{1} << width) - 1);
  }
  uint64_t bits_;
};

// Which field an illegal instruction is blamed on (the assembler points at that token).
enum class FieldId : uint8_t { kOpcode, kDt, kMod, kRd, kRs1, kRs2, kRs3, kImm };

// Which rule of isa/sgu_isa.txt an illegal instruction breaks (the first one, in this order).
enum class Rule : uint8_t {
  kOpcode,             // undefined opcode
  kDtype,              // dt not in the instruction's typeset
  kMod,                // mod not in the instruction's modset
  kUnusedField,        // a field the instruction does not read is non-zero
  kForbiddenPair,      // a forbid:DTS/MODS pair of dt and mod
  kRegKind,            // an :s operand names a vector register or a :v operand a scalar one
  kScalarDestination,  // scalar rd with a vector source, without :u
  kPair,               // a 64-bit operand names an odd register or a pair_excluded one
  kImm,                // imm breaks its imm:special or imm:width rule
};
inline constexpr unsigned kNumRules = 9;
const char* RuleName(Rule r);

struct Illegal {
  FieldId field;
  std::string reason;
  Rule rule;
};

// The legality rules of isa/sgu_isa.txt (docs/isa.md "Operands and types", "Fetch, traps and the
// retire port", "Crossbar"), for a machine of num_lanes lanes, read from the generated kInsns
// table by one generic checker. nullopt when legal.
std::optional<Illegal> CheckLegal(uint64_t word, unsigned num_lanes);

// The 64-bit register operands of a (legal-opcode) instruction: which of rd/rs1/rs2/rs3 name an
// even/odd pair (operands with the :d or :m attribute whose type is 64-bit). Address and
// condition operands are always 32-bit.
struct PairOperands {
  bool rd = false, rs1 = false, rs2 = false, rs3 = false;
};
PairOperands PairOperandsOf(const Insn& insn);

// Name of a register number ("v3", "s7").
std::string RegName(unsigned r);

}  // namespace isa

// Reason why `word` is illegal on a machine of num_lanes lanes, or nullopt when it is legal.
// The one legality function: the model traps IllegalInsn exactly when this returns a value.
std::optional<std::string> IllegalReason(uint64_t word, unsigned num_lanes);

}  // namespace sgu

#endif  // SGU_INSN_H_
