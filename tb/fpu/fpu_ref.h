// SPDX-License-Identifier: Apache-2.0
// Reference model of sgu_mfu for its unit test: FP32 from the host's hardware float, integer
// multiplies from host 64- and 128-bit integer arithmetic.
//
// Deliberately independent of the RTL: every FP result comes from host float arithmetic
// (+, -, *, std::fmaf, comparison operators, std::trunc, integer->float casts) under the
// default round-to-nearest-even mode, followed by the SGU rules the host does not share:
// one canonical NaN, minNum/maxNum with -0 < +0, saturating float->int conversion. Integer
// results are the exact product of the extended operands (no 32-bit pieces, no sign
// correction), truncated and extended by the type as sw/model/insns_alu.cc does.

#ifndef SGU_TB_FPU_FPU_REF_H_
#define SGU_TB_FPU_FPU_REF_H_

#include <cstdint>
#include <string>

namespace sgu::fpu_test {

// Operand types, as in rtl/sgu_isa_pkg.sv (dtype_e).
enum Dt : uint32_t {
  kDtI32 = 0, kDtU32 = 1, kDtI8 = 2, kDtU8 = 3, kDtI16 = 4, kDtU16 = 5, kDtI64 = 6, kDtU64 = 7,
  kDtF32 = 8,
};
inline constexpr uint32_t kNumIntDts = 8;  // kDtI32 .. kDtU64

// Operation codes, as in rtl/sgu_fpu_pkg.sv.
enum class FpuOp : uint32_t {
  kFAdd = 0,
  kFSub = 1,
  kFMul = 2,
  kFFma = 3,
  kFMin = 4,
  kFMax = 5,
  kFCmp = 6,
  kCvtF2I = 7,
  kCvtF2U = 8,
  kCvtI2F = 9,
  kCvtU2F = 10,
};

// Compare conditions, as in rtl/sgu_fpu_pkg.sv.
enum class FpuCond : uint32_t {
  kEq = 0, kNe = 1, kLt = 2, kLe = 3, kGt = 4, kGe = 5, kOrd = 6, kUno = 7,
};

inline constexpr uint32_t kCanonicalNan = 0x7FC00000u;
inline constexpr int kNumOps = 11;

uint32_t FloatBits(float f);
float BitsFloat(uint32_t u);

// Expected 32-bit FP result of sgu_mfu for op (0..15), cond and operands a, b, c.
uint32_t RefFpu(uint32_t op, uint32_t cond, uint32_t a, uint32_t b, uint32_t c);

// The low bits of v extended to 64 bits as type dt says (docs/isa.md "Operands and types"):
// signed types sign-extend from their width, unsigned types and f32 zero-extend.
uint64_t ExtDt(uint64_t v, uint32_t dt);

// mul / muli at type dt: the low 64 bits of a * b, extended by dt (a, b already extended).
uint64_t RefMul(uint32_t dt, uint64_t a, uint64_t b);

// mulh at i32 / u32: bits 63:32 of the exact product of the extended operands, extended by dt.
uint64_t RefMulh(uint32_t dt, uint64_t a, uint64_t b);

// shl / shr at i64 / u64: a shifted by b mod 64, left, or right (arithmetic for i64).
uint64_t RefShift64(uint32_t dt, bool right, uint64_t a, uint64_t b);

// The 64-bit ALU operations of sgu_mfu (alu_op_i: sgu_pkg::alu64_op_e, in its order).
enum class Alu64Op : uint32_t { kAdd, kSub, kAnd, kOr, kXor, kCmp, kMin, kMax };
constexpr uint32_t kNumAlu64Ops = 8;

// An add, sub, and, or, xor, cmp (integer condition cond: 0 eq, 1 ne, 2 lt, 3 le, 4 gt, 5 ge;
// 6 and 7 behave as ge, as sgu_pkg::cmp_truth does), min or max at i64 / u64, from the host's
// 64-bit integers (docs/isa.md: cmp gives 1 or 0, signedness from dt).
uint64_t RefAlu64(uint32_t dt, Alu64Op op, uint32_t cond, uint64_t a, uint64_t b);

// Name of an op code for messages ("FAdd", ..., "Op13").
std::string OpName(uint32_t op);

// Name of an operand type for messages ("i32", ..., "f32").
std::string DtName(uint32_t dt);

}  // namespace sgu::fpu_test

#endif  // SGU_TB_FPU_FPU_REF_H_
