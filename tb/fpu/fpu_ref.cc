// SPDX-License-Identifier: Apache-2.0
// Reference model of sgu_mfu for its unit test: host hardware float and host integers.

#include "fpu_ref.h"

#include <cmath>
#include <cstring>

#ifdef __FAST_MATH__
#error "The FPU reference needs IEEE float semantics: do not build it with -ffast-math."
#endif

namespace sgu::fpu_test {

uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

float BitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

namespace {

// Spec: every NaN result is the canonical NaN.
uint32_t Canonical(float f) { return std::isnan(f) ? kCanonicalNan : FloatBits(f); }

// Spec: minNum/maxNum; one NaN gives the other operand, two NaNs the canonical NaN;
// -0 is less than +0; the chosen operand's bits are returned unchanged.
uint32_t MinMax(bool is_max, uint32_t a, uint32_t b) {
  const float fa = BitsFloat(a);
  const float fb = BitsFloat(b);
  if (std::isnan(fa) && std::isnan(fb)) return kCanonicalNan;
  if (std::isnan(fa)) return b;
  if (std::isnan(fb)) return a;
  if (fa == fb) {  // equal values; only +0/-0 can differ in bits
    const bool a_neg = std::signbit(fa);
    if (a_neg == std::signbit(fb)) return a;
    return (a_neg != is_max) ? a : b;
  }
  const bool a_less = fa < fb;
  return (a_less != is_max) ? a : b;
}

// Spec: IEEE comparisons; ne is true when unordered.
uint32_t Compare(uint32_t cond, float a, float b) {
  const bool unordered = std::isnan(a) || std::isnan(b);
  switch (static_cast<FpuCond>(cond)) {
    case FpuCond::kEq: return a == b;
    case FpuCond::kNe: return !(a == b);
    case FpuCond::kLt: return a < b;
    case FpuCond::kLe: return a <= b;
    case FpuCond::kGt: return a > b;
    case FpuCond::kGe: return a >= b;
    case FpuCond::kOrd: return !unordered;
    case FpuCond::kUno: return unordered;
  }
  return 0;
}

// Spec: toward zero, NaN -> 0, saturate at INT32_MIN / INT32_MAX.
uint32_t FloatToInt(float f) {
  if (std::isnan(f)) return 0;
  if (f >= 2147483648.0f) return 0x7FFFFFFFu;
  if (f < -2147483648.0f) return 0x80000000u;
  return static_cast<uint32_t>(static_cast<int32_t>(std::trunc(f)));
}

// Spec: toward zero, NaN -> 0, negative -> 0, saturate at UINT32_MAX.
uint32_t FloatToUint(float f) {
  if (std::isnan(f)) return 0;
  if (f < 0.0f) return 0;
  if (f >= 4294967296.0f) return 0xFFFFFFFFu;
  return static_cast<uint32_t>(std::trunc(f));
}

}  // namespace

uint32_t RefFpu(uint32_t op, uint32_t cond, uint32_t a, uint32_t b, uint32_t c) {
  const float fa = BitsFloat(a);
  const float fb = BitsFloat(b);
  const float fc = BitsFloat(c);
  switch (op) {
    case 0: return Canonical(fa + fb);
    case 1: return Canonical(fa - fb);
    case 2: return Canonical(fa * fb);
    case 3: return Canonical(std::fmaf(fa, fb, fc));
    case 4: return MinMax(false, a, b);
    case 5: return MinMax(true, a, b);
    case 6: return Compare(cond & 7u, fa, fb);
    case 7: return FloatToInt(fa);
    case 8: return FloatToUint(fa);
    case 9: return FloatBits(static_cast<float>(static_cast<int32_t>(a)));
    case 10: return FloatBits(static_cast<float>(a));
    default: return 0;  // op codes 11..15
  }
}

uint64_t ExtDt(uint64_t v, uint32_t dt) {
  switch (dt) {
    case kDtI8: return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(v)));
    case kDtU8: return static_cast<uint8_t>(v);
    case kDtI16: return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int16_t>(v)));
    case kDtU16: return static_cast<uint16_t>(v);
    case kDtI32: return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v)));
    case kDtI64:
    case kDtU64: return v;
    default: return static_cast<uint32_t>(v);  // u32, f32
  }
}

// Spec (sw/model/insns_alu.cc MulFn): the low half of the product, written at the type width.
uint64_t RefMul(uint32_t dt, uint64_t a, uint64_t b) { return ExtDt(a * b, dt); }

// Spec (sw/model/insns_alu.cc Mulh): the exact product of the operands extended by the
// signedness of dt, shifted right by 32, written at the type width.
uint64_t RefMulh(uint32_t dt, uint64_t a, uint64_t b) {
  const bool is_signed = dt == kDtI32;
  const __int128 p = is_signed
      ? static_cast<__int128>(static_cast<int64_t>(a)) * static_cast<int64_t>(b)
      : static_cast<__int128>(static_cast<unsigned __int128>(a) * b);
  return ExtDt(static_cast<uint64_t>(p >> 32), dt);
}

// Spec (docs/isa.md shl / shr): the amount is taken modulo the type width; shr is arithmetic
// for signed types. Computed with the host's shifts, independently of the RTL's multiply.
uint64_t RefShift64(uint32_t dt, bool right, uint64_t a, uint64_t b) {
  const unsigned n = static_cast<unsigned>(b & 63);
  if (!right) return a << n;
  if (dt == kDtI64) return static_cast<uint64_t>(static_cast<int64_t>(a) >> n);
  return a >> n;
}

uint64_t RefAlu64(uint32_t dt, Alu64Op op, uint32_t cond, uint64_t a, uint64_t b) {
  const bool lt = dt == kDtI64 ? static_cast<int64_t>(a) < static_cast<int64_t>(b) : a < b;
  const bool eq = a == b;
  switch (op) {
    case Alu64Op::kAdd: return a + b;
    case Alu64Op::kSub: return a - b;
    case Alu64Op::kAnd: return a & b;
    case Alu64Op::kOr: return a | b;
    case Alu64Op::kXor: return a ^ b;
    case Alu64Op::kMin: return lt ? a : b;
    case Alu64Op::kMax: return lt ? b : a;
    case Alu64Op::kCmp: break;
  }
  switch (cond) {
    case 0: return eq;
    case 1: return !eq;
    case 2: return lt;
    case 3: return lt || eq;
    case 4: return !lt && !eq;
    default: return !lt;
  }
}

std::string DtName(uint32_t dt) {
  static const char* const kNames[] = {"i32", "u32", "i8", "u8", "i16", "u16", "i64", "u64", "f32"};
  if (dt <= kDtF32) return kNames[dt];
  return "dt" + std::to_string(dt);
}

std::string OpName(uint32_t op) {
  static const char* const kNames[kNumOps] = {"FAdd", "FSub",    "FMul",    "FFma",
                                              "FMin", "FMax",    "FCmp",    "CvtF2I",
                                              "CvtF2U", "CvtI2F", "CvtU2F"};
  if (op < static_cast<uint32_t>(kNumOps)) return kNames[op];
  return "Op" + std::to_string(op);
}

}  // namespace sgu::fpu_test
