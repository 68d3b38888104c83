// SPDX-License-Identifier: Apache-2.0
// Semantics of the integer instructions (docs/isa.md "Operands and types", "Integer and FP32
// operations"). Operands arrive extended to 64 bits by the type (Exec::Operand), results are
// written at the type's width (Exec::Write), so one function serves i8..u64.
#include "state.h"

namespace sgu {
namespace model {
namespace {

using isa::Op;

// rd = f(rs1, rs2) at type dt, element by element.
template <typename F>
void BinaryReg(Exec& x, F f) {
  const unsigned dt = x.insn().dt();
  x.ForEachDest(dt, [&](unsigned l) {
    return f(x.Operand(x.insn().rs1(), l, dt), x.Operand(x.insn().rs2(), l, dt), dt);
  });
}

// rd = f(rs1, imm): the immediate, sign-extended to the operation width, acts as rs2.
template <typename F>
void BinaryImm(Exec& x, F f) {
  const unsigned dt = x.insn().dt();
  const uint64_t b = x.ImmOperand(dt);
  x.ForEachDest(dt, [&](unsigned l) { return f(x.Operand(x.insn().rs1(), l, dt), b, dt); });
}

bool Signed(unsigned dt) { return isa::DtypeIsSigned(dt); }
// Shift amounts are taken modulo the type width (8, 16, 32, 64).
unsigned ShiftAmount(uint64_t b, unsigned dt) {
  return static_cast<unsigned>(b & (isa::DtypeBits(dt) - 1));
}

// The operations are function objects, one type each, so that BinaryReg and BinaryImm are
// instantiated per operation and inline it into the element loop (as plain functions they
// shared one instantiation over a function pointer: 8 % of a lockstep run's time at SIMD32).
constexpr auto AddFn = [](uint64_t a, uint64_t b, unsigned) -> uint64_t { return a + b; };
constexpr auto SubFn = [](uint64_t a, uint64_t b, unsigned) -> uint64_t { return a - b; };
constexpr auto MulFn = [](uint64_t a, uint64_t b, unsigned) -> uint64_t {
  return a * b;  // low half
};
constexpr auto AndFn = [](uint64_t a, uint64_t b, unsigned) -> uint64_t { return a & b; };
constexpr auto OrFn = [](uint64_t a, uint64_t b, unsigned) -> uint64_t { return a | b; };
constexpr auto XorFn = [](uint64_t a, uint64_t b, unsigned) -> uint64_t { return a ^ b; };
constexpr auto ShlFn = [](uint64_t a, uint64_t b, unsigned dt) -> uint64_t {
  return a << ShiftAmount(b, dt);
};
// a is extended by the signedness of dt, so an arithmetic/logical 64-bit shift followed by the
// write's truncation to the type width gives the type's shift.
constexpr auto ShrFn = [](uint64_t a, uint64_t b, unsigned dt) -> uint64_t {
  const unsigned s = ShiftAmount(b, dt);
  return Signed(dt) ? static_cast<uint64_t>(static_cast<int64_t>(a) >> s) : a >> s;
};
bool Less(uint64_t a, uint64_t b, unsigned dt) {
  return Signed(dt) ? static_cast<int64_t>(a) < static_cast<int64_t>(b) : a < b;
}
constexpr auto MinFn = [](uint64_t a, uint64_t b, unsigned dt) -> uint64_t {
  return Less(b, a, dt) ? b : a;
};
constexpr auto MaxFn = [](uint64_t a, uint64_t b, unsigned dt) -> uint64_t {
  return Less(a, b, dt) ? b : a;
};

// rd = (a COND b) ? 1 : 0, COND from the cmp modifier set.
template <unsigned kMod>
uint64_t CmpFn(uint64_t a, uint64_t b, unsigned dt) {
  switch (static_cast<isa::ModCmp>(kMod)) {
    case isa::ModCmp::kEq:
      return a == b;
    case isa::ModCmp::kNe:
      return a != b;
    case isa::ModCmp::kLt:
      return Less(a, b, dt);
    case isa::ModCmp::kLe:
      return !Less(b, a, dt);
    case isa::ModCmp::kGt:
      return Less(b, a, dt);
    case isa::ModCmp::kGe:
      return !Less(a, b, dt);
  }
  return 0;
}
uint64_t CmpByMod(unsigned mod, uint64_t a, uint64_t b, unsigned dt) {
  switch (mod) {
    case 0:
      return CmpFn<0>(a, b, dt);
    case 1:
      return CmpFn<1>(a, b, dt);
    case 2:
      return CmpFn<2>(a, b, dt);
    case 3:
      return CmpFn<3>(a, b, dt);
    case 4:
      return CmpFn<4>(a, b, dt);
    default:
      return CmpFn<5>(a, b, dt);
  }
}

// add: rd = rs1 + rs2.
void Add(Exec& x) { BinaryReg(x, AddFn); }
// sub: rd = rs1 - rs2.
void Sub(Exec& x) { BinaryReg(x, SubFn); }
// mul: rd = low half of rs1 * rs2.
void Mul(Exec& x) { BinaryReg(x, MulFn); }
// mulh (i32/u32): rd = high 32 bits of the 64-bit product; the operands are extended by the
// signedness of dt, so the 64-bit product of the extended values is the exact product.
void Mulh(Exec& x) {
  BinaryReg(x, [](uint64_t a, uint64_t b, unsigned dt) -> uint64_t {
    if (Signed(dt)) {
      return static_cast<uint64_t>((static_cast<int64_t>(a) * static_cast<int64_t>(b)) >> 32);
    }
    return (a * b) >> 32;
  });
}
// and/or/xor: bitwise.
void And(Exec& x) { BinaryReg(x, AndFn); }
void Or(Exec& x) { BinaryReg(x, OrFn); }
void Xor(Exec& x) { BinaryReg(x, XorFn); }
// shl: rd = rs1 << (rs2 mod width).
void Shl(Exec& x) { BinaryReg(x, ShlFn); }
// shr: rd = rs1 >> (rs2 mod width), arithmetic for signed dt.
void Shr(Exec& x) { BinaryReg(x, ShrFn); }
// min/max: signedness from dt.
void Min(Exec& x) { BinaryReg(x, MinFn); }
void Max(Exec& x) { BinaryReg(x, MaxFn); }
// cmp: rd = (rs1 COND rs2) ? 1 : 0 (a 64-bit compare writes the pair {lo = 0/1, hi = 0}).
void Cmp(Exec& x) {
  const unsigned mod = x.insn().mod();
  BinaryReg(x, [mod](uint64_t a, uint64_t b, unsigned dt) { return CmpByMod(mod, a, b, dt); });
}
// sel: rd = (rs1 != 0) ? rs2 : rs3; the condition rs1 is always 32-bit.
void Sel(Exec& x) {
  const isa::Insn& i = x.insn();
  const unsigned dt = i.dt();
  x.ForEachDest(dt, [&](unsigned l) {
    return x.Reg32(i.rs1(), l) != 0 ? x.Operand(i.rs2(), l, dt) : x.Operand(i.rs3(), l, dt);
  });
}

// Register-immediate forms: the immediate is the second operand.
void Addi(Exec& x) { BinaryImm(x, AddFn); }
void Muli(Exec& x) { BinaryImm(x, MulFn); }
void Andi(Exec& x) { BinaryImm(x, AndFn); }
void Ori(Exec& x) { BinaryImm(x, OrFn); }
void Xori(Exec& x) { BinaryImm(x, XorFn); }
void Shli(Exec& x) { BinaryImm(x, ShlFn); }
void Shri(Exec& x) { BinaryImm(x, ShrFn); }
void Mini(Exec& x) { BinaryImm(x, MinFn); }
void Maxi(Exec& x) { BinaryImm(x, MaxFn); }
void Cmpi(Exec& x) {
  const unsigned mod = x.insn().mod();
  BinaryImm(x, [mod](uint64_t a, uint64_t b, unsigned dt) { return CmpByMod(mod, a, b, dt); });
}
// li: rd = imm, sign-extended to the type width (then written like any result of type dt).
void Li(Exec& x) {
  const uint64_t v = x.ImmOperand(x.insn().dt());
  x.ForEachDest(x.insn().dt(), [v](unsigned) { return v; });
}
// lui: rd = imm << 8 (32 bits).
void Lui(Exec& x) {
  const uint32_t v = static_cast<uint32_t>(x.insn().imm()) << 8;
  x.ForEachDest(static_cast<unsigned>(isa::Dtype::kI32), [v](unsigned) { return v; });
}

}  // namespace

void RegisterAlu(SemanticsFn* t) {
  const struct {
    Op op;
    SemanticsFn fn;
  } entries[] = {
      {Op::kAdd, Add},   {Op::kSub, Sub},   {Op::kMul, Mul},   {Op::kMulh, Mulh}, {Op::kAnd, And},
      {Op::kOr, Or},     {Op::kXor, Xor},   {Op::kShl, Shl},   {Op::kShr, Shr},   {Op::kMin, Min},
      {Op::kMax, Max},   {Op::kCmp, Cmp},   {Op::kSel, Sel},   {Op::kAddi, Addi}, {Op::kMuli, Muli},
      {Op::kAndi, Andi}, {Op::kOri, Ori},   {Op::kXori, Xori}, {Op::kShli, Shli}, {Op::kShri, Shri},
      {Op::kMini, Mini}, {Op::kMaxi, Maxi}, {Op::kCmpi, Cmpi}, {Op::kLi, Li},     {Op::kLui, Lui},
  };
  for (const auto& e : entries) t[static_cast<uint8_t>(e.op)] = e.fn;
}

}  // namespace model
}  // namespace sgu
