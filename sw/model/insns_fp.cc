// SPDX-License-Identifier: Apache-2.0
// Semantics of the FP32 instructions and cvt (docs/isa.md "Integer and FP32 operations").
// IEEE-754 binary32, round to nearest even, subnormals exact: the host's SSE arithmetic does
// exactly this (the build never uses -ffast-math and disables FP contraction). The one rule the
// host does not follow is NaN canonicalisation: every NaN result is 0x7fc00000.
#include <cmath>
#include <cstring>

#include "state.h"

namespace sgu {
namespace model {
namespace {

using isa::Dtype;
using isa::Op;

constexpr uint32_t kCanonicalNan = 0x7fc00000u;
constexpr unsigned kF32 = static_cast<unsigned>(Dtype::kF32);

float F(uint64_t bits) {
  const uint32_t b = static_cast<uint32_t>(bits);
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}
uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}
// Every NaN result is the canonical NaN.
uint32_t Result(float f) { return std::isnan(f) ? kCanonicalNan : Bits(f); }

// rd = f(rs1, rs2) on binary32 values.
template <typename Fn>
void BinaryF(Exec& x, Fn fn) {
  const isa::Insn& i = x.insn();
  x.ForEachDest(
      kF32, [&](unsigned l) -> uint64_t { return fn(x.Reg32(i.rs1(), l), x.Reg32(i.rs2(), l)); });
}

// fadd/fsub/fmul: one IEEE operation each, RNE.
void Fadd(Exec& x) {
  BinaryF(x, [](uint32_t a, uint32_t b) { return Result(F(a) + F(b)); });
}
void Fsub(Exec& x) {
  BinaryF(x, [](uint32_t a, uint32_t b) { return Result(F(a) - F(b)); });
}
void Fmul(Exec& x) {
  BinaryF(x, [](uint32_t a, uint32_t b) { return Result(F(a) * F(b)); });
}

// ffma: rd = rs1 * rs2 + rs3 with one rounding.
void Ffma(Exec& x) {
  const isa::Insn& i = x.insn();
  x.ForEachDest(kF32, [&](unsigned l) -> uint64_t {
    return Result(
        std::fmaf(F(x.Reg32(i.rs1(), l)), F(x.Reg32(i.rs2(), l)), F(x.Reg32(i.rs3(), l))));
  });
}

// fmin/fmax: both NaN -> canonical NaN; one NaN -> the other operand's bits; -0 < +0; otherwise
// the smaller/larger operand's bits unchanged.
uint32_t MinMax(uint32_t a, uint32_t b, bool want_max) {
  const float fa = F(a), fb = F(b);
  const bool na = std::isnan(fa), nb = std::isnan(fb);
  if (na && nb) return kCanonicalNan;
  if (na) return b;
  if (nb) return a;
  if (fa < fb) return want_max ? b : a;
  if (fb < fa) return want_max ? a : b;
  // Equal: identical bits, or +0 and -0 (min takes the negative one, max the positive one).
  const bool a_neg = (a >> 31) != 0;
  return want_max ? (a_neg ? b : a) : (a_neg ? a : b);
}
void Fmin(Exec& x) {
  BinaryF(x, [](uint32_t a, uint32_t b) { return MinMax(a, b, false); });
}
void Fmax(Exec& x) {
  BinaryF(x, [](uint32_t a, uint32_t b) { return MinMax(a, b, true); });
}

// fcmp: eq/lt/le/gt/ge false on NaN, ne true on NaN, ord = no NaN, uno = a NaN; +0 == -0.
// The host's IEEE comparisons already behave so.
void Fcmp(Exec& x) {
  const auto cond = static_cast<isa::ModFcmp>(x.insn().mod());
  BinaryF(x, [cond](uint32_t a, uint32_t b) -> uint32_t {
    const float fa = F(a), fb = F(b);
    const bool unordered = std::isnan(fa) || std::isnan(fb);
    switch (cond) {
      case isa::ModFcmp::kEq:
        return fa == fb;
      case isa::ModFcmp::kNe:
        return !(fa == fb);
      case isa::ModFcmp::kLt:
        return fa < fb;
      case isa::ModFcmp::kLe:
        return fa <= fb;
      case isa::ModFcmp::kGt:
        return fa > fb;
      case isa::ModFcmp::kGe:
        return fa >= fb;
      case isa::ModFcmp::kOrd:
        return !unordered;
      case isa::ModFcmp::kUno:
        return unordered;
    }
    return 0;
  });
}

// f32 -> 32-bit integer: truncate toward zero, saturate, NaN -> 0.
uint32_t F32ToI32(float f) {
  if (std::isnan(f)) return 0;
  if (f >= 2147483648.0f) return 0x7fffffffu;
  if (f < -2147483648.0f) return 0x80000000u;
  return static_cast<uint32_t>(static_cast<int32_t>(f));
}
uint32_t F32ToU32(float f) {
  if (std::isnan(f)) return 0;
  if (f < 0.0f) return 0;  // negative values saturate to 0 ((-1, 0) truncates to 0 anyway)
  if (f >= 4294967296.0f) return 0xffffffffu;
  return static_cast<uint32_t>(f);
}

// cvt: rd (type dt) = rs1 (type mod).
//   f32 -> f32: copy the bits.
//   f32 -> integer: to i32 (signed dt) or u32 (unsigned dt) as above, then keep dt's width.
//   integer -> f32: the source, extended from its width, rounded to nearest even.
//   integer -> integer: the source extended to 64 bits by its signedness, then dt's width.
// (f32 <-> 64-bit integers are illegal and never reach here.)
void Cvt(Exec& x) {
  const isa::Insn& i = x.insn();
  const unsigned dst = i.dt(), src = i.mod();
  x.ForEachDest(dst, [&](unsigned l) -> uint64_t {
    const uint64_t v = x.Operand(i.rs1(), l, src);  // extended by the source type
    const bool src_f = isa::DtypeIsFloat(src), dst_f = isa::DtypeIsFloat(dst);
    if (src_f && dst_f) return v;
    if (src_f) return isa::DtypeIsSigned(dst) ? F32ToI32(F(v)) : F32ToU32(F(v));
    if (dst_f) {
      return Bits(isa::DtypeIsSigned(src) ? static_cast<float>(static_cast<int32_t>(v))
                                          : static_cast<float>(static_cast<uint32_t>(v)));
    }
    return v;  // Exec::Write keeps dt's width and extends from it
  });
}

}  // namespace

void RegisterFp(SemanticsFn* t) {
  t[static_cast<uint8_t>(Op::kFadd)] = Fadd;
  t[static_cast<uint8_t>(Op::kFsub)] = Fsub;
  t[static_cast<uint8_t>(Op::kFmul)] = Fmul;
  t[static_cast<uint8_t>(Op::kFfma)] = Ffma;
  t[static_cast<uint8_t>(Op::kFmin)] = Fmin;
  t[static_cast<uint8_t>(Op::kFmax)] = Fmax;
  t[static_cast<uint8_t>(Op::kFcmp)] = Fcmp;
  t[static_cast<uint8_t>(Op::kCvt)] = Cvt;
}

}  // namespace model
}  // namespace sgu
