// SPDX-License-Identifier: Apache-2.0
// Unit test of sgu_mfu: FP32 and integer multiply vectors streamed through the pipeline.
//
// One vector enters the unit per clock; its result is compared 4 cycles later (during the
// cycle the core would write it) bit-exactly against the host reference (fpu_ref.cc): RefFpu
// computes with the host's float hardware, RefMul/RefMulh with host 64/128-bit integers.
// Inputs the operation does not use are driven with random noise, and idle cycles too.
// Random tests are reproducible: each test has one 64-bit seed, printed on failure; rerun
// with SGU_FPU_SEED=<seed> --gtest_filter=<test>. SGU_FPU_TRACE=1 writes <test>.vcd.

#include <cfenv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <verilated.h>
#include <verilated_vcd_c.h>

#include "Vsgu_mfu.h"
#include "fpu_ref.h"

#ifdef __FAST_MATH__
#error "The FPU test needs IEEE float semantics: do not build it with -ffast-math."
#endif

namespace sgu::fpu_test {
namespace {

constexpr int kRandomVectorsPerOp = 1000000;
constexpr int kRandomMulsPerType = 250000;
constexpr int kMixedInstructions = 1000000;
constexpr int kMaxReportedMismatches = 10;
constexpr uint64_t kBaseSeed = 0x5347555F46505531ull;  // "SGU_FPU1"
constexpr uint64_t kNoiseSalt = 0x4E4F495345ull;       // "NOISE": sub-seed of the noise
constexpr uint64_t kLatency = 6;                       // result during cycle t+6

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
  uint64_t Bits64() { return gen_(); }
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

// Draws are one per statement throughout: argument order is unspecified, and a seed must give the
// same operands whichever compiler built the test (the order is the one GCC used before).
uint32_t Shaped(Rng& r, int exp) {
  const uint32_t frac = RandomFrac(r);
  return Pack(r.Below(2), exp, frac);
}

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
    const uint32_t frac = r.Percent(50) ? 0 : RandomFrac(r);
    const int exp = ea - 24 + r.Range(-1, 1);
    o.b = Pack(r.Below(2), exp, frac);
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
    // One draw per statement (argument order is unspecified), in the order GCC used before.
    const int ones = r.Range(10, 22);
    const uint32_t man_a = (0x7FFFFFu << ones) | (1u << r.Below(23));
    const int exp_a = r.Range(1, 254);
    o.a = Pack(r.Below(2), exp_a, man_a);
    const uint32_t man_b = 1u << r.Below(23);
    const int exp_b = r.Range(1, 254);
    o.b = Pack(r.Below(2), exp_b, man_b);
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
    const int ulps = r.Range(-3, 3);  // drawn first, as GCC evaluated the arguments before
    o.a = AddUlps(kBounds[r.Below(10)], ulps);
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
// Fixture: owns its VerilatedContext and model; streams vectors through the pipeline and
// compares each result kLatency cycles after its vector entered.
// ---------------------------------------------------------------------------------------------

// The inputs of one cycle of sgu_mfu.
struct MfuIn {
  bool fpu = true;
  uint32_t fop = 0, cond = 0, a = 0, b = 0, c = 0;
  uint64_t ia = 0, ib = 0;
  bool mulh = false, wide = false;
  bool shift = false, right = false;  // 64-bit shift (wide): left, or right
  bool alu = false;                    // 64-bit ALU operation alu_op (cmp: condition cond)
  uint32_t alu_op = 0;
  uint32_t step = 0;
  uint32_t dt = kDtF32;
};

std::string Describe(const MfuIn& in) {
  std::ostringstream s;
  s << std::hex;
  if (in.fpu) {
    s << "fp op=" << OpName(in.fop) << " cond=" << in.cond << " a=0x" << in.a << " b=0x" << in.b
      << " c=0x" << in.c << " dt=" << DtName(in.dt) << " (a=" << BitsFloat(in.a)
      << " b=" << BitsFloat(in.b) << " c=" << BitsFloat(in.c) << ")";
  } else {
    static const char* const kAluNames[kNumAlu64Ops] = {"add64", "sub64", "and64", "or64",
                                                         "xor64", "cmp64", "min64", "max64"};
    s << (in.alu     ? std::string(kAluNames[in.alu_op & 7]) + " cond " + std::to_string(in.cond)
          : in.shift ? std::string(in.right ? "shr64" : "shl64") + " step " +
                         std::to_string(in.step)
          : in.wide  ? "mul64 step " + std::to_string(in.step)
          : in.mulh  ? "mulh"
                     : "mul")
      << " dt=" << DtName(in.dt) << " ia=0x" << in.ia << " ib=0x" << in.ib;
  }
  return s.str();
}

// A vector in flight and the result it must give.
struct Pending {
  uint64_t due;       // cycle in which result_o must hold expected
  uint64_t expected;  // the reference result
  bool capture;       // keep result_o in captured_
  MfuIn in;           // the vector, for the message
};

class MfuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The reference relies on IEEE round-to-nearest with subnormals (no FTZ/DAZ).
    ASSERT_EQ(std::fegetround(), FE_TONEAREST);
    volatile float min_normal = BitsFloat(0x00800000);
    ASSERT_EQ(FloatBits(min_normal * 0.5f), 0x00400000u) << "host flushes subnormals";

    name_ = TestName();
    const char* env_seed = std::getenv("SGU_FPU_SEED");
    seed_ = env_seed ? std::strtoull(env_seed, nullptr, 0) : SplitMix64(kBaseSeed ^ Fnv1a(name_));
    noise_ = std::make_unique<Rng>(SplitMix64(seed_ ^ kNoiseSalt));

    ctx_ = std::make_unique<VerilatedContext>();
    // Registers that are not reset start random: nothing may depend on them.
    ctx_->randReset(2);
    ctx_->randSeed(static_cast<int>(seed_ & 0x7FFFFFFF));
    dut_ = std::make_unique<Vsgu_mfu>(ctx_.get(), "dut");
    const char* env_trace = std::getenv("SGU_FPU_TRACE");
    if (env_trace && env_trace[0] == '1') {
      ctx_->traceEverOn(true);
      trace_ = std::make_unique<VerilatedVcdC>();
      dut_->trace(trace_.get(), 99);
      trace_->open((name_ + ".vcd").c_str());
    }
    // Asynchronous reset, released between clock edges.
    DriveIdle();
    dut_->clk_i = 0;
    dut_->rst_ni = 0;
    Step();
    dut_->clk_i = 1;
    Step();
    dut_->clk_i = 0;
    Step();
    dut_->rst_ni = 1;
    Step();
  }

  void TearDown() override {
    Flush();
    dut_->final();
    if (trace_) trace_->close();
    std::printf("[ vectors  ] %s: %" PRIu64 " checked, %" PRIu64 " mismatches\n", name_.c_str(),
                checked_, mismatches_);
  }

  // One evaluation, dumped to the trace.
  void Step() {
    dut_->eval();
    if (trace_) {
      trace_->dump(ctx_->time());
      ctx_->timeInc(1);
    }
  }

  // Noise on every input (valid_i low): one draw, spread over the fields.
  void DriveIdle() {
    const uint64_t n = noise_->Bits64();
    const uint64_t m = SplitMix64(n);
    dut_->valid_i = 0;
    dut_->fpu_i = n & 1;
    // The loads may come without an operation (the core loads whenever X holds one of the
    // kind): noise, never observed.
    dut_->ld_fp_i = (m >> 40) & 1;
    dut_->ld_int_i = (m >> 41) & 1;
    dut_->fop_i = (n >> 1) & 0xF;
    dut_->cond_i = (n >> 5) & 0x7;
    dut_->dt_i = (n >> 8) & 0xF;
    dut_->a_i = static_cast<uint32_t>(n >> 32);
    dut_->b_i = static_cast<uint32_t>(m);
    dut_->c_i = static_cast<uint32_t>(m >> 32);
    DriveIntNoise(m);
  }

  // Noise on the integer-only inputs (one 64-bit draw m).
  void DriveIntNoise(uint64_t m) {
    dut_->ia_i = m;
    dut_->ib_i = (m << 29) | (m >> 35);
    dut_->mulh_i = (m >> 12) & 1;
    dut_->wide_i = (m >> 13) & 1;
    dut_->step_i = (m >> 14) & 3;
    dut_->shift_i = (m >> 16) & 1;
    dut_->right_i = (m >> 17) & 1;
    dut_->alu_i = (m >> 18) & 1;
    dut_->alu_op_i = (m >> 19) & 7;
  }

  // The inputs of in; those the operation does not use get noise.
  void Drive(const MfuIn& in) {
    const uint64_t n = noise_->Bits64();
    dut_->valid_i = 1;
    dut_->fpu_i = in.fpu;
    // The operation's own kind loads; the other kind's load is noise.
    dut_->ld_fp_i = in.fpu || ((n >> 60) & 1);
    dut_->ld_int_i = !in.fpu || ((n >> 61) & 1);
    dut_->dt_i = in.dt;
    if (in.fpu) {
      dut_->fop_i = in.fop;
      dut_->cond_i = in.cond;
      dut_->a_i = in.a;
      dut_->b_i = in.b;
      dut_->c_i = in.c;
      DriveIntNoise(n);
    } else {
      dut_->fop_i = n & 0xF;
      dut_->cond_i = (n >> 4) & 0x7;
      dut_->a_i = static_cast<uint32_t>(n >> 32);
      dut_->b_i = static_cast<uint32_t>(n >> 7);
      dut_->c_i = static_cast<uint32_t>(n >> 19);
      dut_->ia_i = in.ia;
      dut_->ib_i = in.ib;
      dut_->mulh_i = in.mulh;
      dut_->wide_i = in.wide;
      dut_->step_i = in.step;
      dut_->shift_i = in.shift;
      dut_->right_i = in.shift ? in.right : (n >> 40) & 1;  // noise unless a shift
      dut_->alu_i = in.alu;
      dut_->alu_op_i = in.alu ? in.alu_op : (n >> 41) & 7;  // noise unless an ALU operation
      if (in.alu) dut_->cond_i = in.cond;
    }
  }

  // One clock cycle: inputs settle with the clock low, the result due in this cycle is
  // sampled just before the rising edge (when the core would write it), then the edge.
  void Cycle() {
    dut_->clk_i = 0;
    Step();
    while (!pending_.empty() && pending_.front().due == cycle_) {
      Compare(pending_.front(), dut_->result_o);
      pending_.pop_front();
    }
    dut_->clk_i = 1;
    Step();
    ++cycle_;
  }

  // in enters the unit this cycle; if has_result, result_o must equal expected 4 cycles later.
  void Issue(const MfuIn& in, bool has_result, uint64_t expected, bool capture = false) {
    Drive(in);
    if (has_result) pending_.push_back({cycle_ + kLatency, expected, capture, in});
    Cycle();
  }

  void Idle() {
    DriveIdle();
    Cycle();
  }

  // Idle cycles until every issued vector has been compared.
  void Flush() {
    while (!pending_.empty()) Idle();
  }

  // FP vector with dt (f32 unless a float->int conversion to a narrow type).
  static MfuIn Fp(uint32_t op, uint32_t cond, uint32_t a, uint32_t b, uint32_t c,
                  uint32_t dt = kDtF32) {
    MfuIn in;
    in.fpu = true;
    in.fop = op;
    in.cond = cond;
    in.a = a;
    in.b = b;
    in.c = c;
    in.dt = dt;
    return in;
  }

  // Issues one FP vector and its expected result (RefFpu, extended by dt).
  void Check(uint32_t op, uint32_t cond, uint32_t a, uint32_t b, uint32_t c,
             uint32_t dt = kDtF32) {
    Issue(Fp(op, cond, a, b, c, dt), true, ExtDt(RefFpu(op, cond, a, b, c), dt));
  }

  // The result of one FP vector entering an empty pipeline.
  uint32_t Eval(uint32_t op, uint32_t cond, uint32_t a, uint32_t b, uint32_t c) {
    Issue(Fp(op, cond, a, b, c), true, ExtDt(RefFpu(op, cond, a, b, c), kDtF32), true);
    Flush();
    return static_cast<uint32_t>(captured_);
  }

  // Issues an integer multiply (mul, mulh, or the three steps of a 64-bit mul) and its
  // expected result from the host reference. a and b are raw; they are extended by dt here,
  // as the core does.
  void CheckMul(uint32_t dt, bool mulh, uint64_t a_raw, uint64_t b_raw) {
    MfuIn in;
    in.fpu = false;
    in.dt = dt;
    in.ia = ExtDt(a_raw, dt);
    in.ib = ExtDt(b_raw, dt);
    in.mulh = mulh;
    in.wide = dt == kDtI64 || dt == kDtU64;
    const uint64_t expected = mulh ? RefMulh(dt, in.ia, in.ib) : RefMul(dt, in.ia, in.ib);
    if (in.wide) {
      IssueSteps(in, expected);
    } else {
      Issue(in, true, expected);
    }
  }

  // The three steps of a 64-bit multiply or shift, back to back; the result is due after step 2.
  void IssueSteps(MfuIn in, uint64_t expected) {
    for (uint32_t step = 0; step < 3; ++step) {
      in.step = step;
      Issue(in, step == 2, expected);
    }
  }

  // Issues a 64-bit shift (three steps, as the core issues it) and its expected result from
  // the host's shifts. b is the amount operand as the lane extends it (only b mod 64 counts).
  void CheckShift(uint32_t dt, bool right, uint64_t a, uint64_t b) {
    MfuIn in;
    in.fpu = false;
    in.dt = dt;
    in.ia = a;
    in.ib = b;
    in.wide = true;
    in.shift = true;
    in.right = right;
    IssueSteps(in, RefShift64(dt, right, a, b));
  }

  // Issues a 64-bit ALU operation (one step, as the core issues it) and its expected result
  // from the host's 64-bit integers.
  void CheckAlu64(uint32_t dt, Alu64Op op, uint32_t cond, uint64_t a, uint64_t b) {
    MfuIn in;
    in.fpu = false;
    in.dt = dt;
    in.ia = a;
    in.ib = b;
    in.alu = true;
    in.alu_op = static_cast<uint32_t>(op);
    in.cond = cond;
    Issue(in, true, RefAlu64(dt, op, cond, a, b));
  }

  // Checks one result; reports the first few mismatches in full.
  void Compare(const Pending& p, uint64_t actual) {
    ++checked_;
    if (p.capture) captured_ = actual;
    if (actual == p.expected) return;
    if (++mismatches_ <= kMaxReportedMismatches) {
      ADD_FAILURE() << "seed=0x" << std::hex << seed_ << " cycle=" << std::dec << cycle_ << " "
                    << Describe(p.in) << std::hex << " expected=0x" << p.expected
                    << " actual=0x" << actual;
    }
  }

  void ExpectNoMismatches() {
    Flush();
    EXPECT_EQ(mismatches_, 0u) << "seed=0x" << std::hex << seed_
                               << " (rerun: SGU_FPU_SEED=0x" << seed_
                               << " --gtest_filter=" << name_ << ")";
  }

  std::string name_;
  uint64_t seed_ = 0;
  uint64_t checked_ = 0;
  uint64_t mismatches_ = 0;
  uint64_t cycle_ = 0;
  uint64_t captured_ = 0;
  std::deque<Pending> pending_;
  std::unique_ptr<Rng> noise_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vsgu_mfu> dut_;
  std::unique_ptr<VerilatedVcdC> trace_;
};

// The existing FP32 tests keep their suite name, so their seeds (derived from the name) and
// vectors are the ones of the combinational sgu_fpu's test.
class FpuTest : public MfuTest {};
// Integer multiplies and mixed streams.
class MulTest : public MfuTest {};

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

// Products that are exact ties (round bit set, nothing below it) with a tiny addend of
// either sign that decides the rounding only through the sticky bit, at every alignment
// shift from 40 (addend inside the window) to 100 (addend far below it), so that the sticky
// bits and the clamp of the shift at 76 are pinned down bit by bit.
TEST_F(FpuTest, FmaStickyAddendBreaksTie) {
  // (x, y) mantissa fields whose 48-bit product has its round bit set and no bit below it.
  const uint32_t kTies[][2] = {
      {0x000001, 0x400000},  // (1 + 2^-23) * 1.5: tie, odd (a negative addend rounds down)
      {0x000003, 0x400000},  // (1 + 3*2^-23) * 1.5: tie, even (a positive one rounds up)
      {0x100001, 0x400000},  // (1.125 + 2^-23) * 1.5: tie, odd
      {0x7FFFFF, 0x000000},  // (2 - 2^-23) * 1: no tie (control)
  };
  const uint32_t kTiny[] = {0x00000001, 0x00000003, 0x00400000, 0x00800000, 0x00FFFFFF};
  for (const auto& t : kTies) {
    for (int ey = 1; ey <= 254; ++ey) {
      const uint32_t x = Pack(0, 127, t[0]);
      const uint32_t y = Pack(0, ey, t[1]);
      for (uint32_t z : kTiny) {
        for (uint32_t sign : {0u, 1u}) {
          Check(Op(FpuOp::kFFma), 0, x, y, z | (sign << 31));
          Check(Op(FpuOp::kFFma), 0, y, x, z | (sign << 31));
        }
      }
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
    for (int i = 0; i < 2000; ++i) {
      const uint32_t c = rng.Bits32(), b = rng.Bits32(), a = rng.Bits32();
      Check(op, rng.Below(8), a, b, c);
    }
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

// ---------------------------------------------------------------------------------------------
// FP32 results at other types, FP32 in an unbroken stream
// ---------------------------------------------------------------------------------------------

bool DtSigned(uint32_t dt) { return dt == kDtI8 || dt == kDtI16 || dt == kDtI32 || dt == kDtI64; }

// float -> 8/16/32-bit integer: the core passes the destination type, the unit converts to 32
// bits (saturating there) and extends the result from the type's width; int -> float gets the
// source extended to 32 bits by its type.
TEST_F(FpuTest, ConvertNarrowTypes) {
  Rng rng(seed_);
  const uint32_t kNarrow[] = {kDtI8, kDtU8, kDtI16, kDtU16, kDtI32, kDtU32};
  for (uint32_t dt : kNarrow) {
    const uint32_t f2i = Op(DtSigned(dt) ? FpuOp::kCvtF2I : FpuOp::kCvtF2U);
    const uint32_t i2f = Op(DtSigned(dt) ? FpuOp::kCvtI2F : FpuOp::kCvtU2F);
    for (uint32_t a : SpecialFloats()) Check(f2i, 0, a, 0, 0, dt);
    for (int i = 0; i < 20000; ++i) {
      Check(f2i, 0, GenF2I(rng).a, 0, 0, dt);
      const uint32_t src = static_cast<uint32_t>(ExtDt(GenI2F(rng, DtSigned(dt)).a, dt));
      Check(i2f, 0, src, 0, 0);
    }
  }
  ExpectNoMismatches();
}

// ---------------------------------------------------------------------------------------------
// Integer multiplies
// ---------------------------------------------------------------------------------------------

// Raw 64-bit operands at the corners of every width (extended by the type when issued).
const std::vector<uint64_t> kIntEdges = {
    0x0,
    0x1,
    0x2,
    0x3,
    0x7F,
    0x80,
    0xFF,
    0x100,
    0x7FFF,
    0x8000,
    0xFFFF,
    0x10000,
    0x7FFFFFFF,
    0x80000000,
    0x80000001,
    0xFFFFFFFF,
    0x100000000,
    0x100000001,
    0x00000000FFFF0000,
    0x7FFFFFFFFFFFFFFF,
    0x8000000000000000,
    0xFFFFFFFF00000000,
    0xFFFFFFFFFFFFFFFF,
    0xFFFFFFFFFFFFFFFE,
    0x5555555555555555,
    0xAAAAAAAAAAAAAAAA,
    0x0123456789ABCDEF,
    0xFEDCBA9876543210,
    0xDEADBEEFCAFEF00D,
};

// A raw operand biased to the corners: small values, powers of two and their neighbours,
// negated powers of two, runs of ones, trailing zeros, uniform.
uint64_t IntOperand(Rng& r) {
  const uint64_t hi = r.Bits32();
  const uint64_t rnd = (hi << 32) | r.Bits32();
  const uint64_t near = static_cast<uint64_t>(static_cast<int64_t>(r.Range(-2, 2)));
  switch (r.Below(8)) {
    case 0: return static_cast<uint64_t>(static_cast<int64_t>(r.Range(-4, 4)));
    case 1: return (1ull << r.Below(64)) + near;
    case 2: return (0ull - (1ull << r.Below(64))) + near;
    case 3: return rnd >> r.Below(64);
    case 4: return rnd << r.Below(64);
    case 5: return ~0ull >> r.Below(64);
    default: return rnd;
  }
}

bool HasMulh(uint32_t dt) { return dt == kDtI32 || dt == kDtU32; }

// Hand-computed results: pin down the reference as well as the RTL.
TEST_F(MulTest, NamedCases) {
  struct Case {
    uint32_t dt;
    bool mulh;
    uint64_t a, b, expected;
    const char* what;
  };
  const Case kCases[] = {
      {kDtI32, false, 0x7FFFFFFF, 0x2, 0xFFFFFFFFFFFFFFFE, "i32 overflow wraps, sign-extended"},
      {kDtU32, false, 0xFFFFFFFF, 0xFFFFFFFF, 0x1, "u32 (2^32-1)^2 low word"},
      {kDtI8, false, 0x80, 0xFF, 0xFFFFFFFFFFFFFF80, "i8 -128 * -1 = -128"},
      {kDtU8, false, 0x10, 0x10, 0x0, "u8 16 * 16 wraps to 0"},
      {kDtI16, false, 0x100, 0x100, 0x0, "i16 256 * 256 wraps to 0"},
      {kDtU16, false, 0xFFFF, 0xFFFF, 0x1, "u16 (2^16-1)^2 low half"},
      {kDtI16, false, 0x7FFF, 0x7FFF, 0x1, "i16 32767^2 = 0x3FFF0001"},
      {kDtI32, true, 0xFFFFFFFF, 0xFFFFFFFF, 0x0, "mulh i32 -1 * -1"},
      {kDtI32, true, 0x80000000, 0x80000000, 0x40000000, "mulh i32 (-2^31)^2"},
      {kDtI32, true, 0x80000000, 0x7FFFFFFF, 0xFFFFFFFFC0000000, "mulh i32 -2^31 * (2^31-1)"},
      {kDtI32, true, 0xFFFFFFFF, 0x1, 0xFFFFFFFFFFFFFFFF, "mulh i32 -1 * 1 = -1"},
      {kDtI32, true, 0x7FFFFFFF, 0x7FFFFFFF, 0x3FFFFFFF, "mulh i32 (2^31-1)^2"},
      {kDtU32, true, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFE, "mulh u32 (2^32-1)^2"},
      {kDtU32, true, 0x80000000, 0x2, 0x1, "mulh u32 2^31 * 2"},
      {kDtI64, false, ~0ull, ~0ull, 0x1, "i64 -1 * -1"},
      {kDtU64, false, 0x100000000, 0x100000000, 0x0, "u64 2^32 * 2^32 wraps"},
      {kDtI64, false, 0x100000001, 0x100000001, 0x200000001, "i64 (2^32+1)^2"},
      {kDtU64, false, ~0ull, 0x2, 0xFFFFFFFFFFFFFFFE, "u64 (2^64-1) * 2"},
      {kDtI64, false, 0x8000000000000000, ~0ull, 0x8000000000000000, "i64 INT64_MIN * -1"},
      {kDtU64, false, 0x123456789, 0x987654321, 0xD77D742CCE1833A9, "u64 all three products"},
      {kDtU64, false, 0xFFFFFFFF00000000, 0xFFFFFFFF00000000, 0x0, "u64 high words only"},
  };
  for (const Case& t : kCases) {
    SCOPED_TRACE(t.what);
    const uint64_t a = ExtDt(t.a, t.dt), b = ExtDt(t.b, t.dt);
    EXPECT_EQ(t.mulh ? RefMulh(t.dt, a, b) : RefMul(t.dt, a, b), t.expected)
        << "reference disagrees";
    CheckMul(t.dt, t.mulh, t.a, t.b);
    Flush();
  }
  ExpectNoMismatches();
}

// All pairs of corner operands at every integer type: mul, and mulh at i32/u32.
TEST_F(MulTest, EdgePairs) {
  for (uint32_t dt = 0; dt < kNumIntDts; ++dt) {
    for (uint64_t a : kIntEdges) {
      for (uint64_t b : kIntEdges) {
        CheckMul(dt, false, a, b);
        if (HasMulh(dt)) CheckMul(dt, true, a, b);
      }
    }
  }
  ExpectNoMismatches();
}

// Random operands at one type per test, back to back (64-bit: three steps each).
class MulRandomTest : public MfuTest, public ::testing::WithParamInterface<uint32_t> {};

TEST_P(MulRandomTest, MatchesReference) {
  const uint32_t dt = GetParam();
  Rng rng(seed_);
  for (int i = 0; i < kRandomMulsPerType; ++i) {
    const bool mulh = HasMulh(dt) && rng.Percent(50);
    const uint64_t a = IntOperand(rng);
    CheckMul(dt, mulh, a, IntOperand(rng));
  }
  ExpectNoMismatches();
}

INSTANTIATE_TEST_SUITE_P(Types, MulRandomTest, ::testing::Range(0u, kNumIntDts),
                         [](const ::testing::TestParamInfo<uint32_t>& info) {
                           return DtName(info.param);
                         });

// The three-step protocol next to everything else: 64-bit multiplies back to back, right
// after and before FP ops, mulh and narrow muls, with and without idle cycles between.
TEST_F(MulTest, WideSequences) {
  Rng rng(seed_);
  auto wide = [&] {
    const uint64_t a = IntOperand(rng);
    CheckMul(rng.Percent(50) ? kDtI64 : kDtU64, false, a, IntOperand(rng));
  };
  auto fp = [&] {
    const uint32_t op = rng.Below(kNumOps);
    const Operands o = GenFor(op, rng);
    Check(op, o.cond, o.a, o.b, o.c);
  };
  auto narrow = [&] {
    const uint32_t dt = rng.Below(6) == 0 ? kDtI32 : kDtU8 + rng.Below(3);
    const uint64_t a = IntOperand(rng);
    CheckMul(dt, false, a, IntOperand(rng));
  };
  auto mulh = [&] {
    const uint64_t a = IntOperand(rng);
    CheckMul(rng.Percent(50) ? kDtI32 : kDtU32, true, a, IntOperand(rng));
  };
  for (int round = 0; round < 2000; ++round) {
    for (int i = 0; i < 8; ++i) wide();  // eight in a row: 24 steps without a gap
    fp();
    wide();
    fp();
    fp();
    wide();
    mulh();
    wide();
    narrow();
    wide();
    Idle();
    wide();
    Idle();
    Idle();
    wide();
    Idle();
    Idle();
    Idle();
    wide();
    Idle();
    Idle();
    Idle();
    Idle();
    mulh();
    fp();
    narrow();
  }
  ExpectNoMismatches();
}

// 64-bit shifts (the lanes shift only 8..32-bit types): hand-computed cases, then every amount
// on corner operands, then random shifts interleaved with 64-bit multiplies, narrow multiplies
// and FP ops (the three-step protocol with the prepared operands beside the others).
TEST_F(MulTest, WideShifts) {
  struct Case {
    uint32_t dt;
    bool right;
    uint64_t a, b, expected;
    const char* what;
  };
  const Case kCases[] = {
      {kDtU64, false, 0x1, 63, 0x8000000000000000, "shl 1 by 63"},
      {kDtI64, false, 0x00000000FFFFFFFF, 32, 0xFFFFFFFF00000000, "shl across the words"},
      {kDtU64, false, 0x0123456789ABCDEF, 4, 0x123456789ABCDEF0, "shl by 4"},
      {kDtU64, false, 0x0123456789ABCDEF, 64 + 4, 0x123456789ABCDEF0, "amount mod 64"},
      {kDtU64, false, 0xDEADBEEF, 0, 0xDEADBEEF, "shl by 0"},
      {kDtU64, true, 0x8000000000000000, 63, 0x1, "shr u64 logical"},
      {kDtI64, true, 0x8000000000000000, 63, ~0ull, "shr i64 arithmetic"},
      {kDtI64, true, 0xFFFFFFFF00000000, 32, ~0ull, "shr i64 fills the sign"},
      {kDtU64, true, 0xFFFFFFFF00000000, 32, 0xFFFFFFFF, "shr u64 across the words"},
      {kDtI64, true, 0x7FFFFFFFFFFFFFFF, 62, 0x1, "shr i64 positive"},
      {kDtI64, true, 0xF0F0F0F0F0F0F0F0, 0, 0xF0F0F0F0F0F0F0F0, "shr by 0 (negative)"},
      {kDtI64, true, ~0ull, 0xFFFFFFFFFFFFFF85, ~0ull, "shr i64 -1 by -123 mod 64 = 5"},
      {kDtU64, true, 0x0123456789ABCDEF, 36, 0x0000000000123456, "shr u64 by 36"},
  };
  for (const Case& t : kCases) {
    SCOPED_TRACE(t.what);
    EXPECT_EQ(RefShift64(t.dt, t.right, t.a, t.b), t.expected) << "reference disagrees";
    CheckShift(t.dt, t.right, t.a, t.b);
    Flush();
  }
  for (uint32_t dt : {kDtI64, kDtU64}) {
    for (bool right : {false, true}) {
      for (uint64_t a : kIntEdges) {
        for (uint64_t n = 0; n < 64; ++n) CheckShift(dt, right, a, n);
      }
    }
  }
  Rng rng(seed_);
  for (int i = 0; i < 200000; ++i) {
    const uint32_t p = rng.Below(10);
    const uint64_t a = IntOperand(rng);
    const uint64_t b = IntOperand(rng);
    if (p < 5) {
      CheckShift(rng.Percent(50) ? kDtI64 : kDtU64, rng.Percent(50), a, b);
    } else if (p < 7) {
      CheckMul(rng.Percent(50) ? kDtI64 : kDtU64, false, a, b);
    } else if (p < 8) {
      CheckMul(rng.Below(kNumIntDts - 2), false, a, b);  // 8..32-bit types
    } else if (p < 9) {
      const uint32_t op = rng.Below(kNumOps);
      const Operands o = GenFor(op, rng);
      Check(op, o.cond, o.a, o.b, o.c);
    } else {
      Idle();
    }
  }
  ExpectNoMismatches();
}

// The 64-bit adds, logic, compares, min and max (the lanes' ALU is 32 bits wide): named cases
// that pin the reference, every pair of edge values, then a random stream mixed with 64-bit
// multiplies and shifts (which share the S2 -> S3 product register) and FP operations.
TEST_F(MulTest, Alu64) {
  struct Case {
    uint32_t dt;
    Alu64Op op;
    uint32_t cond;
    uint64_t a, b, expected;
    const char* what;
  };
  const Case kCases[] = {
      {kDtU64, Alu64Op::kAdd, 0, 0xFFFFFFFF, 1, 0x100000000, "add carries into the high word"},
      {kDtI64, Alu64Op::kAdd, 0, ~0ull, 1, 0, "add wraps"},
      {kDtU64, Alu64Op::kSub, 0, 0x100000000, 1, 0xFFFFFFFF, "sub borrows from the high word"},
      {kDtI64, Alu64Op::kSub, 0, 0, 1, ~0ull, "sub below zero"},
      {kDtU64, Alu64Op::kAnd, 0, 0xFF00FF00FF00FF00, 0x0FF00FF00FF00FF0, 0x0F000F000F000F00,
       "and"},
      {kDtU64, Alu64Op::kOr, 0, 0xF000000000000000, 0x1, 0xF000000000000001, "or"},
      {kDtI64, Alu64Op::kXor, 0, ~0ull, 0x00000000FFFFFFFF, 0xFFFFFFFF00000000, "xor"},
      {kDtI64, Alu64Op::kCmp, 2, 0x8000000000000000, 0, 1, "signed lt: min int < 0"},
      {kDtU64, Alu64Op::kCmp, 2, 0x8000000000000000, 0, 0, "unsigned lt: 2^63 > 0"},
      {kDtI64, Alu64Op::kCmp, 0, 0x100000000, 0, 0, "eq looks at the high word"},
      {kDtU64, Alu64Op::kCmp, 1, 0x100000000, 0, 1, "ne looks at the high word"},
      {kDtI64, Alu64Op::kCmp, 4, 0x0000000100000000, 0x00000000FFFFFFFF, 1, "gt across words"},
      {kDtU64, Alu64Op::kCmp, 3, 5, 5, 1, "le of equal values"},
      {kDtI64, Alu64Op::kCmp, 5, ~0ull, 0, 0, "ge: -1 < 0"},
      {kDtI64, Alu64Op::kMin, 0, ~0ull, 1, ~0ull, "signed min"},
      {kDtU64, Alu64Op::kMin, 0, ~0ull, 1, 1, "unsigned min"},
      {kDtI64, Alu64Op::kMax, 0, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 0x7FFFFFFFFFFFFFFF,
       "signed max"},
      {kDtU64, Alu64Op::kMax, 0, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 0x8000000000000000,
       "unsigned max"},
  };
  for (const Case& t : kCases) {
    SCOPED_TRACE(t.what);
    EXPECT_EQ(RefAlu64(t.dt, t.op, t.cond, t.a, t.b), t.expected) << "reference disagrees";
    CheckAlu64(t.dt, t.op, t.cond, t.a, t.b);
    Flush();
  }
  for (uint32_t dt : {kDtI64, kDtU64}) {
    for (uint32_t op = 0; op < kNumAlu64Ops; ++op) {
      for (uint64_t a : kIntEdges) {
        for (uint64_t b : kIntEdges) {
          for (uint32_t cond = 0; cond < (op == static_cast<uint32_t>(Alu64Op::kCmp) ? 6 : 1);
               ++cond) {
            CheckAlu64(dt, static_cast<Alu64Op>(op), cond, a, b);
          }
        }
      }
    }
  }
  Rng rng(seed_);
  for (int i = 0; i < 200000; ++i) {
    const uint32_t p = rng.Below(10);
    const uint64_t a = IntOperand(rng);
    const uint64_t b = rng.Percent(10) ? a : IntOperand(rng);  // equal operands too
    const uint32_t dt = rng.Percent(50) ? kDtI64 : kDtU64;
    if (p < 6) {
      CheckAlu64(dt, static_cast<Alu64Op>(rng.Below(kNumAlu64Ops)), rng.Below(6), a, b);
    } else if (p < 7) {
      CheckMul(dt, false, a, b);
    } else if (p < 8) {
      CheckShift(dt, rng.Percent(50), a, b);
    } else if (p < 9) {
      const uint32_t op = rng.Below(kNumOps);
      const Operands o = GenFor(op, rng);
      Check(op, o.cond, o.a, o.b, o.c);
    } else {
      Idle();
    }
  }
  ExpectNoMismatches();
}

// Random interleaving of every FP op and every integer multiply, with idle gaps.
TEST_F(MulTest, MixedStream) {
  Rng rng(seed_);
  for (int i = 0; i < kMixedInstructions; ++i) {
    const uint32_t p = rng.Below(100);
    if (p < 8) {
      for (int k = rng.Range(1, 4); k > 0; --k) Idle();
    } else if (p < 50) {
      const uint32_t op = rng.Below(16);
      if (op >= static_cast<uint32_t>(kNumOps)) {
        const uint32_t c = rng.Bits32(), b = rng.Bits32(), a = rng.Bits32();
        Check(op, rng.Below(8), a, b, c);
      } else if ((op == Op(FpuOp::kCvtF2I) || op == Op(FpuOp::kCvtF2U)) && rng.Percent(30)) {
        const uint32_t dt = op == Op(FpuOp::kCvtF2I) ? kDtI8 + 2 * rng.Below(2)
                                                      : kDtU8 + 2 * rng.Below(2);
        Check(op, 0, GenF2I(rng).a, 0, 0, dt);
      } else {
        const Operands o = GenFor(op, rng);
        Check(op, o.cond, o.a, o.b, o.c);
      }
    } else {
      const uint32_t dt = rng.Below(kNumIntDts);
      const bool mulh = HasMulh(dt) && rng.Percent(30);
      const uint64_t a = IntOperand(rng);
      CheckMul(dt, mulh, a, IntOperand(rng));
    }
  }
  ExpectNoMismatches();
}

// A lane with nothing to do loads no stage register: during idle cycles with noise on every
// input, result_o keeps the last result (the S4->S5 registers hold), after FP and integer ops.
TEST_F(MulTest, IdleCyclesLoadNothing) {
  Rng rng(seed_);
  for (int i = 0; i < 200; ++i) {
    if (i % 2 == 0) {
      const uint32_t op = rng.Below(kNumOps);
      const Operands o = GenFor(op, rng);
      Check(op, o.cond, o.a, o.b, o.c);
    } else {
      const uint32_t dt = rng.Below(kNumIntDts);
      const uint64_t a = IntOperand(rng);
      const uint64_t b = IntOperand(rng);
      CheckMul(dt, HasMulh(dt) && rng.Percent(30), a, b);
    }
    Flush();
    const uint64_t held = dut_->result_o;
    for (int k = 0; k < 20; ++k) {
      Idle();
      ++checked_;
      if (dut_->result_o != held) {
        ++mismatches_;
        ADD_FAILURE() << "result_o changed in an idle cycle: cycle=" << cycle_ << std::hex
                      << " held=0x" << held << " now=0x" << dut_->result_o;
        break;
      }
    }
  }
  ExpectNoMismatches();
}

}  // namespace
}  // namespace sgu::fpu_test
