// SPDX-License-Identifier: Apache-2.0
// The legality rules, RTL against model, and the random generator against the rules.
//
// DecodeRandomWords: random 64-bit words (RandomDecodeWord: mostly defined opcodes with fields
// at the rules' edges, one or two rules broken on purpose) go to the Verilated sgu_decode of
// each SIMD width and to isa::CheckLegal; legality must agree on every word, and on legal words
// the decoded fields and 64-bit pair operands too. SGU_RANDOM_INSNS words per width (default
// 100 000, a fraction of a second; `make test-long` runs 5 M). Both sides read the same
// attributes of isa/sgu_isa.txt through different generated tables, so this checks the
// generator's two outputs and the two hand-written appliers of them against each other.
//
// RandomProgramRules: the program generator writes only legal instructions, and every legal
// variant (type, modifier, vector/scalar operands, ruled immediate) of every instruction with a
// destination or memory access, found by brute force over CheckLegal, occurs in the
// per-instruction programs the lockstep IsaTest runs.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <tuple>

#include "Vsgu_decode16.h"
#include "Vsgu_decode32.h"
#include "Vsgu_decode8.h"
#include "random_program.h"
#include "sgu/asm.h"
#include "sgu/insn.h"
#include "verilated.h"

namespace sgu::tb {
namespace {

uint64_t EnvOr(const char* name, uint64_t def) {
  const char* v = std::getenv(name);
  return (v && *v) ? std::strtoull(v, nullptr, 0) : def;
}

uint64_t Seed() { return EnvOr("SGU_SEED", 0x5eed0001); }

std::string Hex(uint64_t w) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%016llx", static_cast<unsigned long long>(w));
  return b;
}

// ------------------------------------------------------------------------------------- decoder

// Feeds SGU_RANDOM_INSNS random words to a Verilated sgu_decode of n lanes (which owns its
// context) and to CheckLegal; failures are reported through gtest.
template <typename V>
void CheckRandomWords(unsigned n) {
  const uint64_t words = EnvOr("SGU_RANDOM_INSNS", 100000);
  const uint64_t seed = Seed() * 1000003 + n;
  SCOPED_TRACE("SIMD" + std::to_string(n) + " seed " + std::to_string(seed) +
               " (SGU_SEED=" + std::to_string(Seed()) + ")");
  auto ctx = std::make_unique<VerilatedContext>();
  auto top = std::make_unique<V>(ctx.get(), "TOP");
  V& t = *top;
  Rng rng(seed);
  std::array<uint64_t, isa::kNumRules> per_rule{};
  std::array<uint64_t, 256> legal_by_op{}, illegal_by_op{};
  uint64_t legal = 0;
  unsigned failures = 0;
  for (uint64_t i = 0; i < words && failures < 10; ++i) {
    const uint64_t w = RandomDecodeWord(n, rng);
    t.insn_i = w;
    t.eval();
    const std::optional<isa::Illegal> ill = isa::CheckLegal(w, n);
    const isa::Insn insn(w);
    if (static_cast<bool>(t.illegal_o) != ill.has_value()) {
      ADD_FAILURE() << "word #" << i << " " << Hex(w) << " (" << Disassemble(w) << "): RTL says "
                    << (t.illegal_o ? "illegal" : "legal") << ", model says "
                    << (ill ? "illegal: " + ill->reason : std::string("legal"));
      ++failures;
      continue;
    }
    if (ill) {
      ++per_rule[static_cast<unsigned>(ill->rule)];
      ++illegal_by_op[insn.opcode()];
      continue;
    }
    ++legal;
    ++legal_by_op[insn.opcode()];
    // A legal word: the fields and operand widths the core uses agree with the model's.
    const isa::PairOperands p = isa::PairOperandsOf(insn);
    const bool rd_used = (insn.info()->uses & isa::kUseRd) != 0;
    const bool same = t.opcode_o == insn.opcode() && t.dt_o == insn.dt() && t.mod_o == insn.mod() &&
                      t.rd_o == insn.rd() && t.rs1_o == insn.rs1() && t.rs2_o == insn.rs2() &&
                      t.rs3_o == insn.rs3() && t.imm_o == static_cast<uint32_t>(insn.imm()) &&
                      static_cast<bool>(t.rd_we_o) == rd_used && t.rd_pair_o == p.rd &&
                      t.rs1_pair_o == p.rs1 && t.rs2_pair_o == p.rs2 && t.rs3_pair_o == p.rs3;
    if (!same) {
      ADD_FAILURE() << "word #" << i << " " << Hex(w) << " (" << Disassemble(w)
                    << "): decoded fields or pair operands differ from the model's (pairs rd "
                    << p.rd << p.rs1 << p.rs2 << p.rs3 << ", RTL " << int(t.rd_pair_o)
                    << int(t.rs1_pair_o) << int(t.rs2_pair_o) << int(t.rs3_pair_o) << ")";
      ++failures;
    }
  }
  std::string summary = "SIMD" + std::to_string(n) + ": " + std::to_string(words) + " words, " +
                        std::to_string(legal) + " legal; illegal by first broken rule:";
  for (unsigned r = 0; r < isa::kNumRules; ++r) {
    summary += std::string(" ") + isa::RuleName(static_cast<isa::Rule>(r)) + " " +
               std::to_string(per_rule[r]);
  }
  std::printf("%s\n", summary.c_str());
  // The words reach every rule, and every opcode both ways (at the default count and above).
  if (words >= 20000) {
    for (unsigned r = 0; r < isa::kNumRules; ++r) {
      EXPECT_GT(per_rule[r], 0u)
          << "no word broke rule " << isa::RuleName(static_cast<isa::Rule>(r));
    }
    for (const isa::InsnInfo& in : isa::kInsns) {
      const uint8_t op = static_cast<uint8_t>(in.op);
      EXPECT_GT(legal_by_op[op], 0u) << in.name << " never legal";
      EXPECT_GT(illegal_by_op[op], 0u) << in.name << " never illegal";
    }
  }
  top->final();
}

class DecodeRandomWords : public testing::TestWithParam<unsigned> {};

TEST_P(DecodeRandomWords, RtlAndModelAgree) {
  switch (GetParam()) {
    case 8: CheckRandomWords<Vsgu_decode8>(8); break;
    case 16: CheckRandomWords<Vsgu_decode16>(16); break;
    default: CheckRandomWords<Vsgu_decode32>(32); break;
  }
}

INSTANTIATE_TEST_SUITE_P(AllWidths, DecodeRandomWords, testing::Values(8u, 16u, 32u),
                         [](const testing::TestParamInfo<unsigned>& p) {
                           return "simd" + std::to_string(p.param);
                         });

// ------------------------------------------------------------------------- program generator

bool IsControl(const isa::InsnInfo& in) {
  switch (in.form) {
    case isa::Form::kN:
    case isa::Form::kI:
    case isa::Form::kL:
    case isa::Form::kRL:
    case isa::Form::kS:
      return true;
    default:
      return false;
  }
}

// What distinguishes two legal variants: opcode, dt, mod, which used registers are scalar, and
// the immediate when a rule bounds it.
using VariantKey = std::tuple<unsigned, unsigned, unsigned, unsigned, uint32_t>;

VariantKey KeyOf(uint64_t w) {
  const isa::Insn i(w);
  const isa::InsnInfo& in = *i.info();
  const unsigned regs[4] = {i.rd(), i.rs1(), i.rs2(), i.rs3()};
  unsigned scalar = 0;
  for (unsigned k = 0; k < 4; ++k) {
    if ((in.uses >> k & 1) != 0 && isa::IsScalarReg(regs[k])) scalar |= 1u << k;
  }
  const uint32_t imm = in.imm_rule == isa::ImmRule::kAny ? 0 : i.imm_field();
  return {i.opcode(), i.dt(), i.mod(), scalar, imm};
}

// The legal variants of `in`, by brute force over CheckLegal: every dt, mod, vector/scalar
// choice (registers v2/s2: even, not excluded) and immediate from a range around every bound.
std::set<VariantKey> LegalVariants(const isa::InsnInfo& in, unsigned n) {
  std::set<VariantKey> out;
  for (unsigned dt = 0; dt < 16; ++dt) {
    for (unsigned mod = 0; mod < 16; ++mod) {
      for (unsigned kinds = 0; kinds < 16; ++kinds) {
        for (int32_t imm = -2; imm <= 8; ++imm) {
          isa::Fields f;
          f.opcode = static_cast<uint8_t>(in.op);
          f.dt = dt;
          f.mod = mod;
          unsigned* regs[4] = {&f.rd, &f.rs1, &f.rs2, &f.rs3};
          bool skip = false;
          for (unsigned k = 0; k < 4; ++k) {
            const bool used = (in.uses >> k & 1) != 0, scalar = (kinds >> k & 1) != 0;
            if (!used && scalar) skip = true;
            if (used) *regs[k] = scalar ? 34 : 2;
          }
          if ((in.uses & isa::kUseImm) != 0) f.imm = imm;
          if (skip) continue;
          const uint64_t w = isa::Encode(f);
          if (!isa::CheckLegal(w, n)) out.insert(KeyOf(w));
        }
      }
    }
  }
  return out;
}

class RandomProgramRules : public testing::TestWithParam<unsigned> {};

TEST_P(RandomProgramRules, PerInstructionProgramsHaveEveryLegalVariant) {
  const unsigned n = GetParam();
  for (const isa::InsnInfo& in : isa::kInsns) {
    if (IsControl(in)) continue;
    Rng rng(Seed() ^ (static_cast<uint64_t>(n) << 40) ^ static_cast<uint8_t>(in.op));
    const Program p = Assemble(GenerateInstructionProgram(in, n, rng));
    std::set<VariantKey> seen;
    for (uint64_t w : p.words) {
      const std::optional<isa::Illegal> ill = isa::CheckLegal(w, n);
      ASSERT_FALSE(ill) << in.name << " program at SIMD" << n << ": " << Disassemble(w) << ": "
                        << ill->reason;
      seen.insert(KeyOf(w));
    }
    const std::set<VariantKey> want = LegalVariants(in, n);
    EXPECT_EQ(AllVariants(in, n).size(), want.size()) << in.name;
    for (const VariantKey& k : want) {
      EXPECT_TRUE(seen.count(k)) << in.name << " at SIMD" << n << ": the variant dt "
                                 << std::get<1>(k) << " mod " << std::get<2>(k) << " scalar "
                                 << std::get<3>(k) << " imm " << std::get<4>(k)
                                 << " never occurs";
    }
  }
}

TEST_P(RandomProgramRules, RandomProgramsAreLegalAndUseEveryControlForm) {
  const unsigned n = GetParam();
  std::set<std::pair<unsigned, bool>> control;  // opcode, rs1 scalar
  for (unsigned i = 0; i < 40; ++i) {
    Rng rng(Seed() * 31 + n * 1000 + i);
    RandomProgramConfig cfg;
    cfg.num_lanes = n;
    cfg.trap_percent = 0;
    const Program p = Assemble(GenerateRandomProgram(cfg, rng));
    for (uint64_t w : p.words) {
      const std::optional<isa::Illegal> ill = isa::CheckLegal(w, n);
      ASSERT_FALSE(ill) << "program " << i << " at SIMD" << n << ": " << Disassemble(w) << ": "
                        << ill->reason;
      const isa::Insn insn(w);
      if (IsControl(*insn.info())) {
        const bool uses_rs1 = (insn.info()->uses & isa::kUseRs1) != 0;
        control.insert({insn.opcode(), uses_rs1 && isa::IsScalarReg(insn.rs1())});
      }
    }
  }
  // Every control-flow form but trap (the trapping item is off here) and both kinds of split
  // and mbrk condition.
  for (const isa::InsnInfo& in : isa::kInsns) {
    if (!IsControl(in) || in.op == isa::Op::kTrap) continue;
    const unsigned op = static_cast<uint8_t>(in.op);
    if ((in.uses & isa::kUseRs1) == 0) {
      EXPECT_TRUE(control.count({op, false})) << in.name << " never occurs";
      continue;
    }
    for (bool scalar : {false, true}) {
      const bool legal = in.regs[isa::kRegRs1].kind == isa::RegKind::kAny ||
                         (in.regs[isa::kRegRs1].kind == isa::RegKind::kScalar) == scalar;
      EXPECT_EQ(control.count({op, scalar}) != 0, legal)
          << in.name << " with a " << (scalar ? "scalar" : "vector") << " rs1";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllWidths, RandomProgramRules, testing::Values(8u, 16u, 32u),
                         [](const testing::TestParamInfo<unsigned>& p) {
                           return "simd" + std::to_string(p.param);
                         });

}  // namespace
}  // namespace sgu::tb
