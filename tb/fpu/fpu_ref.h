// SPDX-License-Identifier: Apache-2.0
// Reference model of sgu_fpu for its unit test, computed with the host's hardware float.
//
// Deliberately independent of the RTL: every result comes from host float arithmetic
// (+, -, *, std::fmaf, comparison operators, std::trunc, integer->float casts) under the
// default round-to-nearest-even mode, followed by the SGU rules the host does not share:
// one canonical NaN, minNum/maxNum with -0 < +0, saturating float->int conversion.

#ifndef SGU_TB_FPU_FPU_REF_H_
#define SGU_TB_FPU_FPU_REF_H_

#include <cstdint>
#include <string>

namespace sgu::fpu_test {

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

// Expected result_o of sgu_fpu for op (0..15), cond and operands a, b, c.
uint32_t RefFpu(uint32_t op, uint32_t cond, uint32_t a, uint32_t b, uint32_t c);

// Name of an op code for messages ("FAdd", ..., "Op13").
std::string OpName(uint32_t op);

}  // namespace sgu::fpu_test

#endif  // SGU_TB_FPU_FPU_REF_H_
