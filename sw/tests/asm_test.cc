// SPDX-License-Identifier: Apache-2.0
// Assembler encodings (checked against fields written out by hand), pseudo-instructions,
// labels, error positions, and the disassembler round trip on random legal words.
#include "sgu/asm.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "sgu/insn.h"
#include "test_util.h"

namespace sgu {
namespace {

using isa::Encode;
using isa::Fields;
using isa::Op;

uint8_t Opc(Op op) { return static_cast<uint8_t>(op); }
constexpr unsigned kS = 32;

uint64_t One(const std::string& line) {
  const Program p = Assemble(line);
  EXPECT_EQ(p.words.size(), 1u) << line;
  return p.words.empty() ? 0 : p.words[0];
}

TEST(Asm, EncodesEveryForm) {
  const struct {
    const char* text;
    Fields f;
  } cases[] = {
      {"nop", {Opc(Op::kNop), 0, 0, 0, 0, 0, 0, 0}},
      {"halt", {Opc(Op::kHalt), 0, 0, 0, 0, 0, 0, 0}},
      {"trap 42", {Opc(Op::kTrap), 0, 0, 0, 0, 0, 0, 42}},
      {"br -3", {Opc(Op::kBr), 0, 0, 0, 0, 0, 0, -3}},
      {"bnz s2, 4", {Opc(Op::kBnz), 0, 0, 0, kS + 2, 0, 0, 4}},
      {"split v7", {Opc(Op::kSplit), 0, 0, 0, 7, 0, 0, 0}},
      {"lane v31", {Opc(Op::kLane), 0, 0, 31, 0, 0, 0, 0}},
      {"add v1, v2, s3", {Opc(Op::kAdd), 0, 0, 1, 2, kS + 3, 0, 0}},
      {"add.u32 v1, v2, s3", {Opc(Op::kAdd), 1, 0, 1, 2, kS + 3, 0, 0}},
      {"sub.i8 v1, v2, zero", {Opc(Op::kSub), 2, 0, 1, 2, kS, 0, 0}},
      {"cmp.u32.lt v1, v2, v3", {Opc(Op::kCmp), 1, 2, 1, 2, 3, 0, 0}},
      {"cmp.ge v1, v2, v3", {Opc(Op::kCmp), 0, 5, 1, 2, 3, 0, 0}},
      {"fcmp.uno v1, v2, v3", {Opc(Op::kFcmp), 8, 7, 1, 2, 3, 0, 0}},
      {"fadd v1, v2, v3", {Opc(Op::kFadd), 8, 0, 1, 2, 3, 0, 0}},
      {"ffma v1, v2, v3, v4", {Opc(Op::kFfma), 8, 0, 1, 2, 3, 4, 0}},
      {"sel.f32 v1, v2, v3, v4", {Opc(Op::kSel), 8, 0, 1, 2, 3, 4, 0}},
      {"addi.i64 v2, v4, -0x10", {Opc(Op::kAddi), 6, 0, 2, 4, 0, 0, -16}},
      {"li s5, 8388607", {Opc(Op::kLi), 0, 0, kS + 5, 0, 0, 0, 8388607}},
      {"lui v1, -1", {Opc(Op::kLui), 0, 0, 1, 0, 0, 0, -1}},
      {"cvt.f32.i32 v1, v2", {Opc(Op::kCvt), 8, 0, 1, 2, 0, 0, 0}},
      {"cvt.i64.u16 v2, v3", {Opc(Op::kCvt), 6, 5, 2, 3, 0, 0, 0}},
      {"csrr s1, NumLanes", {Opc(Op::kCsrr), 0, 0, kS + 1, 0, 0, 0, 0}},
      {"csrr s1, launchsize", {Opc(Op::kCsrr), 0, 0, kS + 1, 0, 0, 0, 3}},
      {"csrr v1, 2", {Opc(Op::kCsrr), 0, 0, 1, 0, 0, 0, 2}},
      {"vote.ballot s1, v2", {Opc(Op::kVote), 0, 2, kS + 1, 2, 0, 0, 0}},
      {"first.u64 v2, v4", {Opc(Op::kFirst), 7, 0, 2, 4, 0, 0, 0}},
      {"shfl.idx v1, v2, s3", {Opc(Op::kShfl), 0, 0, 1, 2, kS + 3, kS, 0}},
      {"shfl.down2 v1, v2, v3, v4", {Opc(Op::kShfl), 0, 2, 1, 2, 3, 4, 0}},
      {"shfl.xor.w4 v1, v2, s3, v9", {Opc(Op::kShfl), 0, 1, 1, 2, kS + 3, 9, 2}},
      {"shfl.rotdn.w32 v1, v2, s3", {Opc(Op::kShfl), 0, 7, 1, 2, kS + 3, kS, 5}},
      {"ld.u8 v1, [v2 + 16]", {Opc(Op::kLd), 3, 0, 1, 2, 0, 0, 16}},
      {"ld v1, [s2]", {Opc(Op::kLd), 0, 0, 1, kS + 2, 0, 0, 0}},
      {"ld.f32 v1, [v2-4]", {Opc(Op::kLd), 8, 0, 1, 2, 0, 0, -4}},
      {"st.i64 [s3 - 8], v4", {Opc(Op::kSt), 6, 0, 0, kS + 3, 4, 0, -8}},
      {"st.u16 [v3 + -2], s1", {Opc(Op::kSt), 5, 0, 0, 3, kS + 1, 0, -2}},
      {"ADD.U32 V1, V2, S3", {Opc(Op::kAdd), 1, 0, 1, 2, kS + 3, 0, 0}},
  };
  for (const auto& c : cases) EXPECT_EQ(One(c.text), Encode(c.f)) << c.text;
}

TEST(Asm, PseudoInstructions) {
  // li: 24-bit values stay one li; other 32-bit values become lui (bits 31:8) + ori (7:0).
  EXPECT_EQ(Assemble("li v1, -8388608").words,
            (std::vector<uint64_t>{Encode({Opc(Op::kLi), 0, 0, 1, 0, 0, 0, -8388608})}));
  EXPECT_EQ(Assemble("li v1, 0x12345678").words,
            (std::vector<uint64_t>{Encode({Opc(Op::kLui), 0, 0, 1, 0, 0, 0, 0x123456}),
                                   Encode({Opc(Op::kOri), 0, 0, 1, 1, 0, 0, 0x78})}));
  EXPECT_EQ(Assemble("li.u32 s4, 0xffffffff").words,  // -1 fits: one li
            (std::vector<uint64_t>{Encode({Opc(Op::kLi), 1, 0, kS + 4, 0, 0, 0, -1})}));
  EXPECT_EQ(Assemble("li v1, 0x80000000").words,
            (std::vector<uint64_t>{Encode({Opc(Op::kLui), 0, 0, 1, 0, 0, 0, -0x800000}),
                                   Encode({Opc(Op::kOri), 0, 0, 1, 1, 0, 0, 0})}));
  EXPECT_EQ(Assemble("li v1, -2147483648").words, Assemble("li v1, 0x80000000").words);
  // fli: the binary32 bits of 1.5 are 0x3fc00000.
  EXPECT_EQ(Assemble("fli v1, 1.5").words, Assemble("li v1, 0x3fc00000").words);
  EXPECT_EQ(Assemble("fli v1, 0.0").words, Assemble("li v1, 0").words);
  EXPECT_EQ(Assemble("fli v1, -2").words, Assemble("li v1, 0xc0000000").words);
  EXPECT_EQ(One("mov v1, v2"), Encode({Opc(Op::kOri), 0, 0, 1, 2, 0, 0, 0}));
  EXPECT_EQ(One("mov.i64 v2, v4"), Encode({Opc(Op::kOri), 6, 0, 2, 4, 0, 0, 0}));
  EXPECT_EQ(One("not.u8 v1, v2"), Encode({Opc(Op::kXori), 3, 0, 1, 2, 0, 0, -1}));
  EXPECT_EQ(Assemble("j x\nnop\nx: halt").words[0], Encode({Opc(Op::kBr), 0, 0, 0, 0, 0, 0, 2}));
  EXPECT_EQ(One(".dword 0x0123456789abcdef"), 0x0123456789abcdefull);
  EXPECT_EQ(One(".dword -1"), ~uint64_t{0});
}

TEST(Asm, LabelsAndComments) {
  const Program p = Assemble(
      "# comment line\n"
      "start: li v1, 0x12345678   // two words\n"
      "loop:\n"
      "  addi v1, v1, -1 ; decrement\n"
      "  bexnz loop\n"
      "  bnz s1, start\n"
      "a: b: br end\n"
      "\n"
      "end: halt\n");
  EXPECT_EQ(p.labels.at("start"), 0u);
  EXPECT_EQ(p.labels.at("loop"), 16u);
  EXPECT_EQ(p.labels.at("a"), 40u);
  EXPECT_EQ(p.labels.at("b"), 40u);
  EXPECT_EQ(p.labels.at("end"), 48u);
  ASSERT_EQ(p.words.size(), 7u);
  EXPECT_EQ(isa::Insn(p.words[3]).imm(), -1);  // bexnz at 24 -> 16
  EXPECT_EQ(isa::Insn(p.words[4]).imm(), -4);  // bnz at 32 -> 0
  EXPECT_EQ(isa::Insn(p.words[5]).imm(), 1);   // br at 40 -> 48
}

struct ErrorCase {
  const char* src;
  int line;
  int col;
  const char* needle;  // part of the message
};

TEST(Asm, ErrorsNameLineAndColumn) {
  const ErrorCase cases[] = {
      {"nop\n  frob v1, v2\n", 2, 3, "unknown mnemonic"},
      {"add.x32 v1, v2, v3", 1, 5, "bad suffix"},
      {"add.i32.eq v1, v2, v3", 1, 9, "bad suffix"},
      {"nop.i32", 1, 5, "takes no type"},
      {"cmp v1, v2, v3", 1, 1, "needs a modifier"},
      {"add v1, v2", 1, 1, "expects rd, rs1, rs2"},
      {"add v1, v2, v3, v4", 1, 17, "expects"},
      {"add v1, v32, v3", 1, 9, "expected a register"},
      {"add v1, q2, v3", 1, 9, "expected a register"},
      {"addi v1, v2, 8388608", 1, 14, "out of range"},
      {"addi v1, v2, -8388609", 1, 14, "out of range"},
      {"addi v1, v2, 12abc", 1, 14, "expected immediate"},
      {"li v1, 0x100000000", 1, 8, "out of range"},
      {"li.i64 v2, 0x800000", 1, 12, "out of range"},
      {"  br nowhere", 1, 6, "undefined label 'nowhere'"},
      {"x: nop\nx: nop", 2, 1, "duplicate label 'x'"},
      {"v1: nop", 1, 1, "register name"},
      {"add.i64 v2, v3, v4", 1, 13, "even register"},
      {"add.i64 v3, v2, v4", 1, 9, "even register"},
      {"add s1, s2, v3", 1, 13, "scalar destination with a vector source"},
      {"lane s1", 1, 6, "vector destination"},
      {"bz v1, 3", 1, 4, "needs a scalar register as rs1"},
      {"cvt.f32.i64 v1, v2", 1, 9, "cvt.f32.i64 is not defined"},
      {"shfl.idx.w4 v1, v2, v3", 1, 10, "takes no group width"},
      {"shfl.xor.w64 v1, v2, v3", 1, 10, "bad group width"},
      {"csrr s1, Bogus", 1, 10, "unknown special"},
      {"csrr s1, 7", 1, 10, "undefined special"},
      {"fadd.i32 v1, v2, v3", 1, 6, "not allowed for fadd"},
      {"ld v1, v2", 1, 8, "memory operand"},
      {"ld v1, [v2 + ]", 1, 12, "missing offset"},
      {"add v1, , v3", 1, 9, "missing operand"},
      {".word 5", 1, 1, "unknown directive"},
      {"fli v1, 1.5x", 1, 9, "floating-point literal"},
      {"add. v1, v2, v3", 1, 5, "empty suffix"},
  };
  for (const ErrorCase& c : cases) {
    try {
      Assemble(c.src, "t.s");
      ADD_FAILURE() << "no error for: " << c.src;
    } catch (const AsmError& e) {
      EXPECT_EQ(e.line(), c.line) << c.src << " -> " << e.what();
      EXPECT_EQ(e.column(), c.col) << c.src << " -> " << e.what();
      EXPECT_NE(std::string(e.what()).find(c.needle), std::string::npos)
          << c.src << " -> " << e.what();
      const std::string prefix =
          "t.s:" + std::to_string(c.line) + ":" + std::to_string(c.col) + ": error: ";
      EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
    }
  }
}

TEST(Disasm, CanonicalText) {
  EXPECT_EQ(Disassemble(One("add.i32 v1, v2, s3")), "add v1, v2, s3");
  EXPECT_EQ(Disassemble(One("add.u32 v1, v2, s3")), "add.u32 v1, v2, s3");
  EXPECT_EQ(Disassemble(One("fadd.f32 v1, v2, v3")), "fadd v1, v2, v3");
  EXPECT_EQ(Disassemble(One("cmp.i32.ne v1, v2, v3")), "cmp.ne v1, v2, v3");
  EXPECT_EQ(Disassemble(One("cvt.i32.i32 v1, v2")), "cvt.i32.i32 v1, v2");
  EXPECT_EQ(Disassemble(One("shfl.xor.w8 v1, v2, s3")), "shfl.xor.w8 v1, v2, s3");
  EXPECT_EQ(Disassemble(One("shfl.up2 v1, v2, s3, s0")), "shfl.up2 v1, v2, s3, s0");
  EXPECT_EQ(Disassemble(One("ld.i16 v1, [v2 - 6]")), "ld.i16 v1, [v2 - 6]");
  EXPECT_EQ(Disassemble(One("st [zero], v2")), "st [s0], v2");
  EXPECT_EQ(Disassemble(One("csrr v3, 1")), "csrr v3, Exec");
  EXPECT_EQ(Disassemble(One("x: bnz s1, x")), "bnz s1, 0");
  EXPECT_EQ(Disassemble(0), ".dword 0x0000000000000000  # illegal: undefined opcode 0x00");
  const uint64_t odd = Encode({Opc(Op::kAdd), 6, 0, 3, 2, 4, 0, 0});
  const std::string text = Disassemble(odd);
  EXPECT_EQ(text.rfind(".dword 0x", 0), 0u);
  EXPECT_NE(text.find("# illegal: 64-bit operand rd = v3 must be an even register"),
            std::string::npos);
  EXPECT_EQ(One(text), odd);  // illegal words round-trip too
}

// A random word that is legal with n lanes: random fields constrained to the decode table,
// then filtered by IllegalReason.
uint64_t RandomLegalWord(test::Rng& rng, unsigned n) {
  for (;;) {
    const isa::InsnInfo& info = isa::kInsns[rng.Below(sizeof isa::kInsns / sizeof isa::kInsns[0])];
    auto pick = [&](uint16_t mask) {
      unsigned v;
      do v = static_cast<unsigned>(rng.Below(16));
      while ((mask >> v & 1) == 0);
      return v;
    };
    auto reg = [&] {
      unsigned r = static_cast<unsigned>(rng.Below(64));
      if (rng.Below(2)) r &= ~1u;  // pairs are common
      return r;
    };
    Fields f;
    f.opcode = static_cast<uint8_t>(info.op);
    f.dt = pick(info.dtypes);
    f.mod = pick(info.mods);
    if (info.uses & isa::kUseRd) f.rd = reg();
    if (info.uses & isa::kUseRs1) f.rs1 = reg();
    if (info.uses & isa::kUseRs2) f.rs2 = reg();
    if (info.uses & isa::kUseRs3) f.rs3 = reg();
    if (info.uses & isa::kUseImm) {
      switch (rng.Below(3)) {
        case 0:
          f.imm = static_cast<int32_t>(rng.Below(8));
          break;
        case 1:
          f.imm = -static_cast<int32_t>(rng.Below(100));
          break;
        default:
          f.imm = static_cast<int32_t>(rng.Below(1u << 24)) - (1 << 23);
          break;
      }
    }
    const uint64_t w = Encode(f);
    if (!IllegalReason(w, n)) return w;
  }
}

TEST(Disasm, RandomLegalWordsRoundTrip) {
  test::Rng rng;
  SCOPED_TRACE(rng.Describe());
  for (unsigned n : {8u, 16u, 32u}) {
    std::string src;
    std::vector<uint64_t> words;
    for (int i = 0; i < 3000; ++i) {
      const uint64_t w = RandomLegalWord(rng, n);
      words.push_back(w);
      const std::string text = Disassemble(w);
      ASSERT_EQ(text.find(".dword"), std::string::npos) << std::hex << w << " " << text;
      src += text + "\n";
    }
    // One program: every line becomes exactly its word again.
    const Program p = Assemble(src);
    ASSERT_EQ(p.words.size(), words.size());
    for (size_t i = 0; i < words.size(); ++i) {
      ASSERT_EQ(p.words[i], words[i]) << "n=" << n << " " << Disassemble(words[i]);
    }
  }
}

TEST(Disasm, RandomWordsEitherRoundTripOrDword) {
  test::Rng rng;
  SCOPED_TRACE(rng.Describe());
  for (int i = 0; i < 5000; ++i) {
    // Random opcode from the table half the time, random bits otherwise.
    uint64_t w = rng.Next();
    if (rng.Below(2)) {
      w = (w & ~uint64_t{0xff}) |
          static_cast<uint8_t>(
              isa::kInsns[rng.Below(sizeof isa::kInsns / sizeof isa::kInsns[0])].op);
    }
    const std::string text = Disassemble(w);
    EXPECT_EQ(text.rfind(".dword", 0) == 0, IllegalReason(w, 32).has_value()) << text;
    ASSERT_EQ(One(text), w) << text;
  }
}

}  // namespace
}  // namespace sgu
