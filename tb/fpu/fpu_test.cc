// SPDX-License-Identifier: Apache-2.0
// Unit test of sgu_fpu: directed special values and random vectors against the host reference.
//
// Every vector is checked bit-exactly against RefFpu (fpu_ref.cc), which computes with the
// host's float hardware. Random tests are reproducible: each test has one 64-bit seed,
// printed on failure; rerun with SGU_FPU_SEED=<seed> --gtest_filter=<test>. SGU_FPU_TRACE=1
// writes <test>.vcd with one time step per vector.

#include <cfenv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <verilated.h>
#include <verilated_vcd_c.h>

#include "Vsgu_fpu.h"
#include "fpu_ref.h"

#ifdef __FAST_MATH__
#error "The FPU test needs IEEE float semantics: do not build it with -ffast-math."
#endif

namespace sgu::fpu_test {
namespace {

constexpr int kRandomVectorsPerOp = 1000000;
constexpr int kMaxReportedMismatches = 10;
constexpr uint64_t kBaseSeed = 0x5347555F46505531ull;  // "SGU_FPU1"

// ---------------------------------------------------------------------------------------------
// Reproducible random numbers: raw std::mt19937_64 output, mapped here (no std distributions).
// ---------------------------------------------------------------------------------------------
uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

uint64_t Fnv1a(const std::string& s) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char ch : s) h = (h ^ ch) * 0x100000001B3ull;
  return h;
}

class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  uint32_t Bits32() { return static_cast<uint32_t>(gen_() >> 32); }
  // Uniform in [0, n), n > 0, by multiply-shift.
  uint32_t Below(uint32_t n) {
    return static_cast<uint32_t>((static_cast<uint64_t>(Bits32()) * n) >> 32);
  }
  // Uniform in [lo, hi].
  int Range(int lo, int hi) { return lo + static_cast<int>(Below(static_cast<uint32_t>(hi - lo + 1))); }
  bool Percent(uint32_t p) { return Below(100) < p; }

 private:
  std::mt19937_64 gen_;
};

// ---------------------------------------------------------------------------------------------
// Operand values
// ---------------------------------------------------------------------------------------------
constexpr uint32_t kSign = 0x80000000u;

// Special and boundary floats (positive; both signs are used).
const std::vector<uint32_t> kSpecialMagnitudes = {
    0x00000000,  // 0
    0x00000001,  // smallest subnormal 2^-149
    0x00000002, 0x00000003,
    0x00400000,  // 2^-127, subnormal
    0x007FFFFF,  // largest subnormal
    0x00800000,  // smallest normal 2^-126
    0x00800001, 0x00FFFFFF,
    0x01000000,  // 2^-125
    0x0C800000,  // 2^-102
    0x1A800000,  // 2^-74
    0x26800000,  // 2^-50
    0x33800000,  // 2^-24, half ulp of 1.0
    0x34000000,  // 2^-23, ulp of 1.0
    0x3EFFFFFF,  // just below 0.5
    0x3F000000,  // 0.5
    0x3F000001,
    0x3F7FFFFF,  // 1 - 2^-24
    0x3F800000,  // 1.0
    0x3F800001,  // 1 + 2^-23
    0x3FC00000,  // 1.5
    0x40000000,  // 2.0
    0x40400000,  // 3.0
    0x4B000000,  // 2^23
    0x4B7FFFFF,  // 2^24 - 1
    0x4B800000,  // 2^24
    0x4EFFFFFF,  // largest float below 2^31
    0x4F000000,  // 2^31
    0x4F7FFFFF,  // largest float below 2^32
    0x4F800000,  // 2^32
    0x5F000000,  // 2^63
    0x73000000,  // 2^103, half ulp of the largest float
    0x7F000000,  // 2^127
    0x7F7FFFFE,
    0x7F7FFFFF,  // largest float
    0x7F800000,  // infinity
    0x7F800001,  // signalling NaN
    0x7FC00000,  // canonical NaN
    0x7FFFFFFF,  // NaN with full payload
};

std::vector<uint32_t> SpecialFloats() {
  std::vector<uint32_t> v;
  for (uint32_t m : kSpecialMagnitudes) {
    v.push_back(m);
    v.push_back(m | kSign);
  }
  return v;
}

// Boundary integers for int->float (round to nearest even at 24 significant bits).
const std::vector<uint32_t> kSpecialInts = {
    0x00000000, 0x00000001, 0x00000002, 0x00FFFFFF, 0x01000000, 0x01000001, 0x01000002,
    0x01000003, 0x01FFFFFF, 0x02000002, 0x02000006, 0x0FFFFFFF, 0x10000008, 0x10000018,
    0x7FFFFF80, 0x7FFFFFBF, 0x7FFFFFC0, 0x7FFFFFFF, 0x80000000, 0x80000001, 0x80000080,
    0x800000C0, 0xFFFFFF80, 0xFFFFFFFF, 0xFFFFFFFE, 0xFF000001, 0xFEFFFFFF, 0x55555555,
    0xAAAAAAAA, 0x00800001, 0xC0000040,
};

uint32_t Pack(uint32_t sign, int exp, uint32_t frac) {
  const uint32_t e = static_cast<uint32_t>(exp < 0 ? 0 : (exp > 254 ? 254 : exp));
  return (sign << 31) | (e << 23) | (frac & 0x7FFFFFu);
}

int ExpOf(uint32_t x) { return static_cast<int>((x >> 23) & 0xFF); }

// Add k units in the last place to the magnitude, staying within finite values of one sign.
uint32_t AddUlps(uint32_t x, int k) {
  int64_t m = static_cast<int64_t>(x & 0x7FFFFFFFu) + k;
  if (m < 0) m = 0;
  if (m > 0x7F7FFFFF) m = 0x7F7FFFFF;
  return (x & kSign) | static_cast<uint32_t>(m);
}

// Fractions with structure: zero, all ones, single bits, runs, sparse, dense random.
uint32_t RandomFrac(Rng& r) {
  switch (r.Below(8)) {
    case 0: return 0;
    case 1: return 0x7FFFFF;
    case 2: return 1u << r.Below(23);
    case 3: return 0x7FFFFFu >> r.Below(23);
    case 4: return (0x7FFFFFu << r.Below(23)) & 0x7FFFFFu;
    case 5: return r.Bits32() & r.Bits32() & r.Bits32();
    default: return r.Bits32();
  }
}

uint32_t Shaped(Rng& r, int exp) { return Pack(r.Below(2), exp, RandomFrac(r)); }

uint32_t Special(Rng& r) {
  const uint32_t m = kSpecialMagnitudes[r.Below(static_cast<uint32_t>(kSpecialMagnitudes.size()))];
  return m | (r.Below(2) << 31);
}

// A float from the whole range, biased to the interesting corners.
uint32_t AnyFloat(Rng& r) {
  const uint32_t p = r.Below(100);
  if (p < 35) return r.Bits32();
  if (p < 45) return Special(r);
  if (p < 57) return Shaped(r, r.Range(0, 8));      // subnormal / tiny
  if (p < 67) return Shaped(r, r.Range(244, 254));  // near overflow
  return Shaped(r, r.Range(0, 254));
}

struct Operands {
  uint32_t cond = 0, a = 0, b = 0, c = 0;
};

// Add / sub: nearby exponents for rounding, near-negation for cancellation.
Operands GenAddSub(Rng& r, bool is_sub) {
  Operands o;
  o.a = AnyFloat(r);
  const int ea = ExpOf(o.a);
  const uint32_t p = r.Below(100);
  if (p < 25) {
    o.b = AnyFloat(r);
  } else if (p < 55) {
    o.b = Shaped(r, ea + r.Range(-3, 3));
  } else if (p < 70) {
    o.b = Shaped(r, ea + r.Range(-30, 30));
  } else if (p < 88) {  // b = -a (add) or a (sub), a few ulps off: total or partial cancellation
    o.b = AddUlps(is_sub ? o.a : (o.a ^ kSign), r.Range(-3, 3));
  } else {  // b around half an ulp of a: ties and near-ties
    o.b = Pack(r.Below(2), ea - 24 + r.Range(-1, 1), r.Percent(50) ? 0 : RandomFrac(r));
  }
  return o;
}

// Mul: products near the subnormal range, near overflow, subnormal times large.
Operands GenMul(Rng& r) {
  Operands o;
  const uint32_t p = r.Below(100);
  if (p < 30) {
    o.a = AnyFloat(r);
    o.b = AnyFloat(r);
  } else if (p < 55) {  // product exponent in [-30, 5]: underflow, subnormal results
    const int ea = r.Range(1, 254);
    o.a = Shaped(r, ea);
    o.b = Shaped(r, r.Range(-30, 5) - ea + 127);
  } else if (p < 70) {  // product exponent in [245, 258]: overflow boundary
    const int ea = r.Range(118, 254);
    o.a = Shaped(r, ea);
    o.b = Shaped(r, r.Range(245, 258) - ea + 127);
  } else if (p < 85) {  // subnormal times a large value
    o.a = Shaped(r, 0);
    o.b = Shaped(r, r.Range(100, 254));
    if (r.Percent(50)) std::swap(o.a, o.b);
  } else {  // short mantissas give exact products with ties
    o.a = Pack(r.Below(2), r.Range(1, 254), (0x7FFFFFu << r.Range(10, 22)) | (1u << r.Below(23)));
    o.b = Pack(r.Below(2), r.Range(1, 254), 1u << r.Below(23));
  }
  return o;
}

// Fma: addend near the product (cancellation), far from it (alignment limits), the negated
// rounded product (fused residue), tiny addends with tiny products.
Operands GenFma(Rng& r) {
  Operands o = GenMul(r);
  const int ep = ExpOf(o.a) + ExpOf(o.b) - 127;
  const uint32_t p = r.Below(100);
  if (p < 20) {
    o.c = AnyFloat(r);
  } else if (p < 45) {
    o.c = Shaped(r, ep + r.Range(-3, 3));
  } else if (p < 65) {
    o.c = Shaped(r, ep + r.Range(-55, 55));
  } else if (p < 85) {
    const float prod = BitsFloat(o.a) * BitsFloat(o.b);
    o.c = std::isfinite(prod) ? AddUlps(FloatBits(-prod), r.Range(-2, 2)) : AnyFloat(r);
  } else {
    o.a = Shaped(r, r.Range(1, 127));
    o.b = Shaped(r, r.Range(-40, 3) - ExpOf(o.a) + 127);
    o.c = Shaped(r, r.Range(0, 3));
  }
  return o;
}

// Min / max / compare: equal values, opposite signs, neighbours.
Operands GenMinMaxCmp(Rng& r) {
  Operands o;
  o.cond = r.Below(8);
  o.a = AnyFloat(r);
  const uint32_t p = r.Below(100);
  if (p < 20) {
    o.b = o.a;
  } else if (p < 30) {
    o.b = o.a ^ kSign;
  } else if (p < 50) {
    o.b = AddUlps(o.a, r.Range(-2, 2));
  } else if (p < 60) {
    o.b = Special(r);
  } else {
    o.b = AnyFloat(r);
  }
  if (r.Percent(50)) std::swap(o.a, o.b);
  return o;
}

// float -> int: exponents around the integer range, saturation boundaries.
Operands GenF2I(Rng& r) {
  static const uint32_t kBounds[] = {0x4F000000, 0xCF000000, 0x4F800000, 0xCF800000, 0x3F800000,
                                     0xBF800000, 0x3F000000, 0xBF000000, 0x4B000000, 0xCB000000};
  Operands o;
  const uint32_t p = r.Below(100);
  if (p < 25) {
    o.a = r.Bits32();
  } else if (p < 70) {
    o.a = Shaped(r, r.Range(120, 162));
  } else if (p < 85) {
    o.a = AddUlps(kBounds[r.Below(10)], r.Range(-3, 3));
  } else {
    o.a = AnyFloat(r);
  }
  return o;
}

// int -> float: all bit lengths, ties at 24 significant bits.
Operands GenI2F(Rng& r, bool is_signed) {
  Operands o;
  const uint32_t p = r.Below(100);
  if (p < 30) {
    o.a = r.Bits32();
  } else if (p < 70) {
    o.a = r.Bits32() >> r.Below(32);
  } else if (p < 90) {  // 2^k + half ulp (+-1): ties and near-ties
    const int k = r.Range(24, 31);
    o.a = (1u << k) | (r.Bits32() & ~((2u << (k - 24)) - 1) & ((1u << k) - 1)) |
          (1u << (k - 24));
    o.a += static_cast<uint32_t>(r.Range(-1, 1));
  } else {
    o.a = kSpecialInts[r.Below(static_cast<uint32_t>(kSpecialInts.size()))];
  }
  if (is_signed && p >= 30 && r.Percent(50)) o.a = 0u - o.a;
  return o;
}

Operands GenFor(uint32_t op, Rng& r) {
  switch (static_cast<FpuOp>(op)) {
    case FpuOp::kFAdd: return GenAddSub(r, false);
    case FpuOp::kFSub: return GenAddSub(r, true);
    case FpuOp::kFMul: return GenMul(r);
    case FpuOp::kFFma: return GenFma(r);
    case FpuOp::kFMin:
    case FpuOp::kFMax:
    case FpuOp::kFCmp: return GenMinMaxCmp(r);
    case FpuOp::kCvtF2I:
    case FpuOp::kCvtF2U: return GenF2I(r);
    case FpuOp::kCvtI2F: return GenI2F(r, true);
    case FpuOp::kCvtU2F: return GenI2F(r, false);
  }
  return Operands{};
}

std::string TestName() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& ch : name) {
    if (ch == '/') ch = '_';
  }
  return name;
}

// ---------------------------------------------------------------------------------------------
// Fixture: owns its VerilatedContext and model; compares every vector with RefFpu.
// ---------------------------------------------------------------------------------------------
class FpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The reference relies on IEEE round-to-nearest with subnormals (no FTZ/DAZ).
    ASSERT_EQ(std::fegetround(), FE_TONEAREST);
    volatile float min_normal = BitsFloat(0x00800000);
    ASSERT_EQ(FloatBits(min_normal * 0.5f), 0x00400000u) << "host flushes subnormals";

    name_ = TestName();
    const char* env_seed = std::getenv("SGU_FPU_SEED");
    seed_ = env_seed ? std::strtoull(env_seed, nullptr, 0) : SplitMix64(kBaseSeed ^ Fnv1a(name_));

    ctx_ = std::make_unique<VerilatedContext>();
    dut_ = std::make_unique<Vsgu_fpu>(ctx_.get(), "dut");
    const char* env_trace = std::getenv("SGU_FPU_TRACE");
    if (env_trace && env_trace[0] == '1') {
      ctx_->traceEverOn(true);
      trace_ = std::make_unique<VerilatedVcdC>();
      dut_->trace(trace_.get(), 99);
      trace_->open((name_ + ".vcd").c_str());
    }
  }

  void TearDown() override {
    dut_->final();
    if (trace_) trace_->close();
    std::printf("[ vectors  ] %s: %" PRIu64 " checked, %" PRIu64 " mismatches\n", name_.c_str(),
                checked_, mismatches_);
  }

  uint32_t Eval(uint32_t op, uint32_t cond, uint32_t a, uint32_t b, uint32_t c) {
    dut_->op_i = op;
    dut_->cond_i = cond;
    dut_->a_i = a;
    dut_->b_i = b;
    dut_->c_i = c;
    dut_->eval();
    if (trace_) {
      trace_->dump(ctx_->time());
      ctx_->timeInc(1);
    }
    return dut_->result_o;
  }

  // Checks one vector; reports the first few mismatches in full.
  void Check(uint32_t op, uint32_t cond, uint32_t a, uint32_t b, uint32_t c) {
    const uint32_t expected = RefFpu(op, cond, a, b, c);
    const uint32_t actual = Eval(op, cond, a, b, c);
    ++checked_;
    if (actual == expected) return;
    if (++mismatches_ <= kMaxReportedMismatches) {
      ADD_FAILURE() << "seed=0x" << std::hex << seed_ << " op=" << OpName(op) << " cond=" << cond
                    << " a=0x" << a << " b=0x" << b << " c=0x" << c << " expected=0x" << expected
                    << " actual=0x" << actual << std::dec << " (a=" << BitsFloat(a)
                    << " b=" << BitsFloat(b) << " c=" << BitsFloat(c) << ")";
    }
  }

  void ExpectNoMismatches() {
    EXPECT_EQ(mismatches_, 0u) << "seed=0x" << std::hex << seed_
                               << " (rerun: SGU_FPU_SEED=0x" << seed_
                               << " --gtest_filter=" << name_ << ")";
  }

  std::string name_;
  uint64_t seed_ = 0;
  uint64_t checked_ = 0;
  uint64_t mismatches_ = 0;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vsgu_fpu> dut_;
  std::unique_ptr<VerilatedVcdC> trace_;
};

constexpr uint32_t Op(FpuOp op) { return static_cast<uint32_t>(op); }

// ---------------------------------------------------------------------------------------------
// Directed tests
// ---------------------------------------------------------------------------------------------

// Hand-computed results: pin down the reference itself as well as the RTL.
TEST_F(FpuTest, NamedCases) {
  struct Case {
    FpuOp op;
    uint32_t cond, a, b, c, expected;
    const char* what;
  };
  const Case kCases[] = {
      {FpuOp::kFAdd, 0, 0x3F800000, 0x33800000, 0, 0x3F800000, "1 + 2^-24: tie to even, down"},
      {FpuOp::kFAdd, 0, 0x3F800001, 0x33800000, 0, 0x3F800002, "(1+ulp) + 2^-24: tie to even, up"},
      {FpuOp::kFAdd, 0, 0x3F800000, 0x33800001, 0, 0x3F800001, "1 + just over half ulp"},
      {FpuOp::kFAdd, 0, 0x3FC00000, 0xBFC00000, 0, 0x00000000, "x + -x = +0"},
      {FpuOp::kFAdd, 0, 0x80000000, 0x80000000, 0, 0x80000000, "-0 + -0 = -0"},
      {FpuOp::kFAdd, 0, 0x80000000, 0x00000000, 0, 0x00000000, "-0 + +0 = +0"},
      {FpuOp::kFSub, 0, 0x00000000, 0x00000000, 0, 0x00000000, "+0 - +0 = +0"},
      {FpuOp::kFSub, 0, 0x80000000, 0x00000000, 0, 0x80000000, "-0 - +0 = -0"},
      {FpuOp::kFSub, 0, 0x3F800001, 0x3F800000, 0, 0x34000000, "exact cancellation to 2^-23"},
      {FpuOp::kFSub, 0, 0x00800000, 0x007FFFFF, 0, 0x00000001, "normal - subnormal = min subnormal"},
      {FpuOp::kFAdd, 0, 0x7F7FFFFF, 0x7F7FFFFF, 0, 0x7F800000, "max + max = inf"},
      {FpuOp::kFAdd, 0, 0x7F7FFFFF, 0x73000000, 0, 0x7F800000, "max + half ulp: tie rounds to inf"},
      {FpuOp::kFAdd, 0, 0x7F7FFFFF, 0x72FFFFFF, 0, 0x7F7FFFFF, "max + under half ulp = max"},
      {FpuOp::kFAdd, 0, 0x7F800000, 0xFF800000, 0, kCanonicalNan, "inf - inf = NaN"},
      {FpuOp::kFAdd, 0, 0xFFC12345, 0x3F800000, 0, kCanonicalNan, "NaN payload dropped"},
      {FpuOp::kFMul, 0, 0x7F7FFFFF, 0x40000000, 0, 0x7F800000, "max * 2 = inf"},
      {FpuOp::kFMul, 0, 0x00800000, 0x3F000000, 0, 0x00400000, "min normal / 2 = subnormal"},
      {FpuOp::kFMul, 0, 0x00000001, 0x3F000000, 0, 0x00000000, "min subnormal / 2: tie to 0"},
      {FpuOp::kFMul, 0, 0x00000003, 0x3F000000, 0, 0x00000002, "3 min subnormal / 2: tie to 2"},
      {FpuOp::kFMul, 0, 0x80000001, 0x3E800000, 0, 0x80000000, "underflow keeps sign: -0"},
      {FpuOp::kFMul, 0, 0x007FFFFF, 0x4B000000, 0, 0x0BFFFFFE, "max subnormal * 2^23 exact"},
      {FpuOp::kFMul, 0, 0x00000000, 0xBF800000, 0, 0x80000000, "+0 * -1 = -0"},
      {FpuOp::kFMul, 0, 0x00000000, 0x7F800000, 0, kCanonicalNan, "0 * inf = NaN"},
      {FpuOp::kFMul, 0, 0x3F800001, 0x3F800001, 0, 0x3F800002, "(1+u)^2 = 1+2u+u^2 rounds down"},
      {FpuOp::kFFma, 0, 0x3F800001, 0x3F7FFFFE, 0xBF800000, 0xA8800000,
       "fused: (1+2^-23)(1-2^-23) - 1 = -2^-46 (unfused gives 0)"},
      {FpuOp::kFFma, 0, 0x3F800001, 0x3F800001, 0xBF800000, 0x34800000,
       "fused: (1+u)^2 - 1 = 2u + u^2 -> 2^-22"},
      {FpuOp::kFFma, 0, 0x0D800000, 0x0D800000, 0x3F800000, 0x3F800000,
       "2^-100 * 2^-100 + 1: product underflows, sum does not"},
      {FpuOp::kFFma, 0, 0x1A000000, 0x1A000000, 0x00000001, 0x00000002,
       "2^-75 * 2^-75 + 2^-149 = 1.5 * 2^-149: tie to 2^-148"},
      {FpuOp::kFFma, 0, 0x1A000000, 0x9A000000, 0x00000001, 0x00000000,
       "-2^-150 + 2^-149 = 2^-150: tie to +0"},
      {FpuOp::kFFma, 0, 0x3F800000, 0x3F800000, 0xBF800000, 0x00000000, "1*1 - 1 = +0"},
      {FpuOp::kFFma, 0, 0x80000000, 0x3F800000, 0x80000000, 0x80000000, "-0*1 + -0 = -0"},
      {FpuOp::kFFma, 0, 0x00000000, 0x3F800000, 0x80000000, 0x00000000, "+0*1 + -0 = +0"},
      {FpuOp::kFFma, 0, 0x00000000, 0x7F7FFFFF, 0x00000001, 0x00000001, "0*max + min subnormal"},
      {FpuOp::kFFma, 0, 0x7F800000, 0x3F800000, 0xFF800000, kCanonicalNan, "inf*1 - inf = NaN"},
      {FpuOp::kFFma, 0, 0x7F800000, 0x00000000, 0x7FC00000, kCanonicalNan, "inf*0 + NaN = NaN"},
      {FpuOp::kFFma, 0, 0x7F7FFFFF, 0x40000000, 0xFF7FFFFF, 0x7F7FFFFF,
       "max*2 - max = max (no intermediate overflow)"},
      {FpuOp::kFMin, 0, 0x80000000, 0x00000000, 0, 0x80000000, "min(-0, +0) = -0"},
      {FpuOp::kFMin, 0, 0x00000000, 0x80000000, 0, 0x80000000, "min(+0, -0) = -0"},
      {FpuOp::kFMax, 0, 0x80000000, 0x00000000, 0, 0x00000000, "max(-0, +0) = +0"},
      {FpuOp::kFMin, 0, 0x7FC00001, 0x00000001, 0, 0x00000001, "min(NaN, x) = x"},
      {FpuOp::kFMax, 0, 0xBF800000, 0xFF800001, 0, 0xBF800000, "max(x, NaN) = x"},
      {FpuOp::kFMax, 0, 0x7F800001, 0xFFC00000, 0, kCanonicalNan, "max(NaN, NaN) = canonical"},
      {FpuOp::kFCmp, 0, 0x80000000, 0x00000000, 0, 1, "-0 == +0"},
      {FpuOp::kFCmp, 2, 0x80000000, 0x00000000, 0, 0, "-0 < +0 is false"},
      {FpuOp::kFCmp, 1, 0x7FC00000, 0x7FC00000, 0, 1, "NaN != NaN"},
      {FpuOp::kFCmp, 0, 0x7FC00000, 0x7FC00000, 0, 0, "NaN == NaN is false"},
      {FpuOp::kFCmp, 5, 0x3F800000, 0x7FC00000, 0, 0, "1 >= NaN is false"},
      {FpuOp::kFCmp, 7, 0x3F800000, 0x7FC00000, 0, 1, "uno(1, NaN)"},
      {FpuOp::kFCmp, 6, 0x3F800000, 0xFF800000, 0, 1, "ord(1, -inf)"},
      {FpuOp::kCvtF2I, 0, 0x4F000000, 0, 0, 0x7FFFFFFF, "2^31 saturates"},
      {FpuOp::kCvtF2I, 0, 0xCF000000, 0, 0, 0x80000000, "-2^31 exact"},
      {FpuOp::kCvtF2I, 0, 0xCF000001, 0, 0, 0x80000000, "below -2^31 saturates"},
      {FpuOp::kCvtF2I, 0, 0x4EFFFFFF, 0, 0, 0x7FFFFF80, "largest float below 2^31"},
      {FpuOp::kCvtF2I, 0, 0xBFF00000, 0, 0, 0xFFFFFFFF, "-1.875 -> -1"},
      {FpuOp::kCvtF2I, 0, 0x7FC00000, 0, 0, 0x00000000, "NaN -> 0"},
      {FpuOp::kCvtF2I, 0, 0xFF800000, 0, 0, 0x80000000, "-inf -> INT_MIN"},
      {FpuOp::kCvtF2U, 0, 0x4F7FFFFF, 0, 0, 0xFFFFFF00, "largest float below 2^32"},
      {FpuOp::kCvtF2U, 0, 0x4F800000, 0, 0, 0xFFFFFFFF, "2^32 saturates"},
      {FpuOp::kCvtF2U, 0, 0xBF000000, 0, 0, 0x00000000, "-0.5 -> 0"},
      {FpuOp::kCvtF2U, 0, 0xFF800000, 0, 0, 0x00000000, "-inf -> 0"},
      {FpuOp::kCvtF2U, 0, 0x7F800000, 0, 0, 0xFFFFFFFF, "+inf -> UINT_MAX"},
      {FpuOp::kCvtI2F, 0, 0x01000001, 0, 0, 0x4B800000, "2^24+1: tie to even, down"},
      {FpuOp::kCvtI2F, 0, 0x01000003, 0, 0, 0x4B800002, "2^24+3: tie to even, up"},
      {FpuOp::kCvtI2F, 0, 0x80000000, 0, 0, 0xCF000000, "INT_MIN"},
      {FpuOp::kCvtI2F, 0, 0x7FFFFFFF, 0, 0, 0x4F000000, "INT_MAX rounds to 2^31"},
      {FpuOp::kCvtI2F, 0, 0xFFFFFFFF, 0, 0, 0xBF800000, "-1"},
      {FpuOp::kCvtU2F, 0, 0xFFFFFFFF, 0, 0, 0x4F800000, "UINT_MAX rounds to 2^32"},
      {FpuOp::kCvtU2F, 0, 0x80000000, 0, 0, 0x4F000000, "2^31 unsigned"},
      {FpuOp::kCvtU2F, 0, 0x00000000, 0, 0, 0x00000000, "0 -> +0"},
  };
  for (const Case& t : kCases) {
    SCOPED_TRACE(t.what);
    EXPECT_EQ(RefFpu(Op(t.op), t.cond, t.a, t.b, t.c), t.expected) << "reference disagrees";
    Check(Op(t.op), t.cond, t.a, t.b, t.c);
    EXPECT_EQ(Eval(Op(t.op), t.cond, t.a, t.b, t.c), t.expected);
  }
  // The fused case really differs from multiply-then-add on this host.
  volatile float x = BitsFloat(0x3F800001), y = BitsFloat(0x3F7FFFFE);
  volatile float prod = x * y;
  EXPECT_EQ(FloatBits(prod - 1.0f), 0u);
  ExpectNoMismatches();
}

// All pairs of special values for add, sub and mul.
TEST_F(FpuTest, ArithSpecialPairs) {
  const auto v = SpecialFloats();
  for (FpuOp op : {FpuOp::kFAdd, FpuOp::kFSub, FpuOp::kFMul}) {
    for (uint32_t a : v) {
      for (uint32_t b : v) Check(Op(op), 0, a, b, 0);
    }
  }
  ExpectNoMismatches();
}

// All triples of special values for fma.
TEST_F(FpuTest, FmaSpecialTriples) {
  const auto v = SpecialFloats();
  for (uint32_t a : v) {
    for (uint32_t b : v) {
      for (uint32_t c : v) Check(Op(FpuOp::kFFma), 0, a, b, c);
    }
  }
  ExpectNoMismatches();
}

// All pairs of special values for min, max and every compare condition.
TEST_F(FpuTest, MinMaxCmpSpecialPairs) {
  const auto v = SpecialFloats();
  for (uint32_t a : v) {
    for (uint32_t b : v) {
      Check(Op(FpuOp::kFMin), 0, a, b, 0);
      Check(Op(FpuOp::kFMax), 0, a, b, 0);
      for (uint32_t cond = 0; cond < 8; ++cond) Check(Op(FpuOp::kFCmp), cond, a, b, 0);
    }
  }
  ExpectNoMismatches();
}

// Special floats and their neighbours for float->int; boundary integers for int->float.
TEST_F(FpuTest, ConvertSpecials) {
  for (uint32_t a : SpecialFloats()) {
    for (int k = -2; k <= 2; ++k) {
      const uint32_t x = ((a & 0x7FFFFFFFu) > 0x7F7FFFFFu) ? a : AddUlps(a, k);
      Check(Op(FpuOp::kCvtF2I), 0, x, 0, 0);
      Check(Op(FpuOp::kCvtF2U), 0, x, 0, 0);
    }
  }
  for (uint32_t a : kSpecialInts) {
    for (uint32_t x : {a, 0u - a, a + 1, a - 1}) {
      Check(Op(FpuOp::kCvtI2F), 0, x, 0, 0);
      Check(Op(FpuOp::kCvtU2F), 0, x, 0, 0);
    }
  }
  ExpectNoMismatches();
}

// Codes the core never issues give 0 whatever the operands.
TEST_F(FpuTest, UnusedOpsGiveZero) {
  Rng rng(seed_);
  for (uint32_t op = kNumOps; op < 16; ++op) {
    for (int i = 0; i < 2000; ++i) Check(op, rng.Below(8), rng.Bits32(), rng.Bits32(), rng.Bits32());
  }
  ExpectNoMismatches();
}

// ---------------------------------------------------------------------------------------------
// Random tests: kRandomVectorsPerOp vectors per op, each op its own test and seed.
// ---------------------------------------------------------------------------------------------
class FpuRandomTest : public FpuTest, public ::testing::WithParamInterface<uint32_t> {};

TEST_P(FpuRandomTest, MatchesReference) {
  const uint32_t op = GetParam();
  Rng rng(seed_);
  for (int i = 0; i < kRandomVectorsPerOp; ++i) {
    const Operands o = GenFor(op, rng);
    Check(op, o.cond, o.a, o.b, o.c);
  }
  ExpectNoMismatches();
}

INSTANTIATE_TEST_SUITE_P(Ops, FpuRandomTest, ::testing::Range(0u, static_cast<uint32_t>(kNumOps)),
                         [](const ::testing::TestParamInfo<uint32_t>& info) {
                           return OpName(info.param);
                         });

}  // namespace
}  // namespace sgu::fpu_test
