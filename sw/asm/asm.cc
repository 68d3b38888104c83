// SPDX-License-Identifier: Apache-2.0
// SGU assembler: two passes over the source (sizes and labels, then encoding). Every word is
// checked with the ISA's legality function for N = 32. Syntax: docs/model.md "Assembler".
#include "sgu/asm.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sgu/insn.h"

namespace sgu {

AsmError::AsmError(std::string file, int line, int col, std::string msg)
    : std::runtime_error(file + ":" + std::to_string(line) + ":" + std::to_string(col) +
                         ": error: " + msg),
      file_(std::move(file)),
      line_(line),
      col_(col),
      msg_(std::move(msg)) {}

namespace {

using isa::FieldId;
using isa::Form;
using isa::InsnInfo;
using isa::Op;

constexpr int64_t kImmMin = -(int64_t{1} << 23);
constexpr int64_t kImmMax = (int64_t{1} << 23) - 1;
constexpr unsigned kCheckLanes = 32;  // programs are checked for the widest machine

// An error inside one line; Assemble() adds the file and line.
struct LineError {
  int col;
  std::string msg;
};

// A piece of source text and its 1-based column.
struct Tok {
  std::string text;
  int col = 0;
};

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}

// One parsed source statement (instruction, pseudo-instruction or directive).
struct Stmt {
  int line = 0;
  Tok mnemonic;            // the whole mnemonic token, e.g. "cmp.u32.lt"
  std::vector<Tok> parts;  // mnemonic split at '.', parts[0] = name
  std::vector<Tok> ops;    // operands, split at ','
  uint32_t pc = 0;         // byte offset from the program start
};

using Labels = std::map<std::string, uint32_t>;

// ---- literals ----------------------------------------------------------------------------------

// [+-]? (0x hex | 0b binary | decimal) as sign and magnitude; false if malformed or > 2^64-1.
bool ParseIntLiteral(const std::string& s, bool* neg, uint64_t* mag) {
  size_t i = 0;
  *neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    *neg = s[i] == '-';
    ++i;
  }
  unsigned base = 10;
  if (i + 1 < s.size() && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    base = 16;
    i += 2;
  } else if (i + 1 < s.size() && s[i] == '0' && (s[i + 1] == 'b' || s[i + 1] == 'B')) {
    base = 2;
    i += 2;
  }
  if (i >= s.size()) return false;
  uint64_t v = 0;
  unsigned digits = 0;
  for (; i < s.size(); ++i) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
    unsigned d;
    if (c >= '0' && c <= '9') {
      d = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      d = static_cast<unsigned>(c - 'a' + 10);
    } else if (c == '_') {
      continue;  // digit separator
    } else {
      return false;
    }
    if (d >= base) return false;
    if (v > (~uint64_t{0} - d) / base) return false;
    v = v * base + d;
    ++digits;
  }
  *mag = v;
  return digits > 0;
}

bool LooksNumeric(const std::string& s) {
  size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
  return i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]));
}

// An integer in [lo, hi]; errors name the token.
int64_t ParseInt(const Tok& t, int64_t lo, int64_t hi, const char* what) {
  bool neg;
  uint64_t mag;
  if (!ParseIntLiteral(t.text, &neg, &mag)) {
    throw LineError{t.col, std::string("expected ") + what + ", got '" + t.text + "'"};
  }
  const bool fits = neg ? mag <= static_cast<uint64_t>(-lo) : mag <= static_cast<uint64_t>(hi);
  if (!fits) {
    throw LineError{t.col, std::string(what) + " " + t.text + " out of range (" +
                               std::to_string(lo) + ".." + std::to_string(hi) + ")"};
  }
  return neg ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
}

int32_t ParseImm(const Tok& t) {
  return static_cast<int32_t>(ParseInt(t, kImmMin, kImmMax, "immediate (signed 24-bit)"));
}

// v0..v31, s0..s31, zero (= s0), case-insensitive.
unsigned ParseReg(const Tok& t) {
  const std::string s = Lower(t.text);
  if (s == "zero") return isa::kRegS0;
  if (s.size() >= 2 && s.size() <= 3 && (s[0] == 'v' || s[0] == 's') &&
      std::isdigit(static_cast<unsigned char>(s[1])) &&
      (s.size() == 2 || std::isdigit(static_cast<unsigned char>(s[2]))) &&
      !(s.size() == 3 && s[1] == '0')) {
    const unsigned n = static_cast<unsigned>(std::atoi(s.c_str() + 1));
    if (n < 32) return (s[0] == 's' ? isa::kScalarBase : 0) + n;
  }
  throw LineError{t.col, "expected a register (v0..v31, s0..s31), got '" + t.text + "'"};
}

bool IsRegName(const std::string& text) {
  try {
    ParseReg(Tok{text, 0});
    return true;
  } catch (const LineError&) {
    return false;
  }
}

// ---- operands ----------------------------------------------------------------------------------

// Branch target: a label (pc-relative, in instructions) or an integer instruction offset.
// Without labels (first pass) a label resolves to 0.
int32_t ParseTarget(const Tok& t, uint32_t pc, const Labels* labels) {
  if (LooksNumeric(t.text)) return ParseImm(t);
  if (!IsIdentStart(t.text[0])) {
    throw LineError{t.col, "expected a label or an instruction offset, got '" + t.text + "'"};
  }
  for (char c : t.text) {
    if (!IsIdentChar(c)) throw LineError{t.col, "bad label name '" + t.text + "'"};
  }
  if (labels == nullptr) return 0;
  auto it = labels->find(t.text);
  if (it == labels->end()) throw LineError{t.col, "undefined label '" + t.text + "'"};
  const int64_t off = (static_cast<int64_t>(it->second) - static_cast<int64_t>(pc)) / 8;
  if (off < kImmMin || off > kImmMax) {
    throw LineError{t.col, "branch target '" + t.text + "' out of range"};
  }
  return static_cast<int32_t>(off);
}

// Memory operand "[reg]", "[reg + imm]", "[reg - imm]".
struct MemOperand {
  Tok reg;
  Tok imm;  // text "0" and the bracket column when absent
};
MemOperand SplitMem(const Tok& t) {
  const std::string& s = t.text;
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') {
    throw LineError{t.col, "expected a memory operand [reg + offset], got '" + s + "'"};
  }
  const std::string inner = s.substr(1, s.size() - 2);
  const size_t op = inner.find_first_of("+-");
  auto trimmed = [&](size_t from, size_t to) {
    while (from < to && std::isspace(static_cast<unsigned char>(inner[from]))) ++from;
    while (to > from && std::isspace(static_cast<unsigned char>(inner[to - 1]))) --to;
    return Tok{inner.substr(from, to - from), t.col + 1 + static_cast<int>(from)};
  };
  MemOperand m;
  if (op == std::string::npos) {
    m.reg = trimmed(0, inner.size());
    m.imm = Tok{"0", t.col};
  } else {
    m.reg = trimmed(0, op);
    Tok num = trimmed(op + 1, inner.size());
    if (num.text.empty()) throw LineError{t.col + 1 + static_cast<int>(op), "missing offset"};
    // "- 8" and "+ -8" both work: the operator's sign applies to the literal.
    if (inner[op] == '-') {
      if (num.text[0] == '-') {
        num.text = num.text.substr(1);
      } else {
        num.text = "-" + num.text;
      }
    }
    m.imm = num;
  }
  if (m.reg.text.empty()) throw LineError{t.col, "missing address register"};
  return m;
}

// csrr operand: a special value name (case-insensitive) or its number.
int32_t ParseSpecial(const Tok& t) {
  if (LooksNumeric(t.text)) return ParseImm(t);
  for (unsigned i = 0; i < isa::kNumSpecials; ++i) {
    if (Lower(t.text) == Lower(isa::kSpecialNames[i])) return static_cast<int32_t>(i);
  }
  throw LineError{t.col, "unknown special value '" + t.text +
                             "' (NumLanes, Exec, LaunchMask, LaunchSize or a number)"};
}

// ---- encoding ----------------------------------------------------------------------------------

// An instruction being built: the fields and the column each came from (0: the mnemonic).
struct Built {
  isa::Fields f;
  int col[8] = {};
  void Set(FieldId id, unsigned value, int column) {
    switch (id) {
      case FieldId::kOpcode:
        f.opcode = static_cast<uint8_t>(value);
        break;
      case FieldId::kDt:
        f.dt = value;
        break;
      case FieldId::kMod:
        f.mod = value;
        break;
      case FieldId::kRd:
        f.rd = value;
        break;
      case FieldId::kRs1:
        f.rs1 = value;
        break;
      case FieldId::kRs2:
        f.rs2 = value;
        break;
      case FieldId::kRs3:
        f.rs3 = value;
        break;
      case FieldId::kImm:
        f.imm = static_cast<int32_t>(value);
        break;
    }
    col[static_cast<int>(id)] = column;
  }
};

// Encode and check legality (N = 32); an illegal encoding is reported at the offending token.
uint64_t Finish(const Built& b, const Stmt& s) {
  const uint64_t w = isa::Encode(b.f);
  if (std::optional<isa::Illegal> ill = isa::CheckLegal(w, kCheckLanes)) {
    const int c = b.col[static_cast<int>(ill->field)];
    throw LineError{c != 0 ? c : s.mnemonic.col, ill->reason};
  }
  return w;
}

const InsnInfo* FindInsn(const std::string& name) {
  for (const InsnInfo& i : isa::kInsns) {
    if (name == i.name) return &i;
  }
  return nullptr;
}

unsigned DefaultDt(const InsnInfo& info) {
  for (unsigned d = 0; d < 16; ++d) {
    if (info.dtypes >> d & 1) return d;
  }
  return 0;
}

int DtCode(const std::string& name) {
  for (unsigned d = 0; d < 16; ++d) {
    if (isa::kDtypes[d].name != nullptr && name == isa::kDtypes[d].name) {
      return static_cast<int>(d);
    }
  }
  return -1;
}

bool HasModset(const InsnInfo& info) { return info.mod_names[0] != nullptr; }

std::string ModList(const InsnInfo& info) {
  std::string s;
  for (unsigned m = 0; m < 16; ++m) {
    if (info.mod_names[m] == nullptr) continue;
    s += (s.empty() ? "." : " .") + std::string(info.mod_names[m]);
  }
  return s;
}

// Applies the suffixes of a mnemonic ("[.dt][.mod][.wN]"; for cvt ".dt.src") to b.
void ApplySuffixes(const InsnInfo& info, const Stmt& s, Built* b) {
  b->Set(FieldId::kOpcode, static_cast<uint8_t>(info.op), s.mnemonic.col);
  b->Set(FieldId::kDt, DefaultDt(info), 0);
  b->Set(FieldId::kMod, 0, 0);
  bool have_dt = false, have_mod = false, have_width = false;
  const bool typed = info.dtypes != 1;  // typeset other than "none"
  for (size_t k = 1; k < s.parts.size(); ++k) {
    const Tok& p = s.parts[k];
    const std::string sfx = Lower(p.text);
    const int dt = DtCode(sfx);
    if (info.op == Op::kCvt) {
      // cvt.DST.SRC: the first type is dt, the second the source type (mod).
      if (dt >= 0 && !have_dt) {
        b->Set(FieldId::kDt, static_cast<unsigned>(dt), p.col);
        have_dt = true;
        continue;
      }
      if (dt >= 0 && !have_mod) {
        b->Set(FieldId::kMod, static_cast<unsigned>(dt), p.col);
        have_mod = true;
        continue;
      }
    } else {
      if (dt >= 0 && typed && !have_dt && !have_mod && !have_width) {
        b->Set(FieldId::kDt, static_cast<unsigned>(dt), p.col);
        have_dt = true;
        continue;
      }
      if (HasModset(info) && !have_mod && !have_width) {
        bool found = false;
        for (unsigned m = 0; m < 16 && !found; ++m) {
          if (info.mod_names[m] != nullptr && sfx == info.mod_names[m]) {
            b->Set(FieldId::kMod, m, p.col);
            have_mod = found = true;
          }
        }
        if (found) continue;
      }
      if (info.imm_rule == isa::ImmRule::kGroupWidth && !have_width && sfx.size() >= 2 &&
          sfx[0] == 'w') {
        const std::string num = sfx.substr(1);
        for (unsigned lg = 1; lg <= 5; ++lg) {
          if (num == std::to_string(1u << lg)) {
            b->Set(FieldId::kImm, lg, p.col);
            have_width = true;
          }
        }
        if (have_width) continue;
        throw LineError{p.col, "bad group width '." + p.text + "' (.w2 .w4 .w8 .w16 .w32)"};
      }
    }
    std::string msg = "bad suffix '." + p.text + "' for " + info.name;
    if (dt >= 0 && !typed) msg += " (it takes no type)";
    throw LineError{p.col, msg};
  }
  if (HasModset(info) && !have_mod) {
    throw LineError{s.mnemonic.col,
                    std::string(info.name) + " needs a modifier suffix (" + ModList(info) + ")"};
  }
}

// The operand names of a form, for messages.
const char* FormOperands(Form f) {
  switch (f) {
    case Form::kN:
      return "no operands";
    case Form::kI:
      return "IMM";
    case Form::kL:
      return "LABEL";
    case Form::kRL:
      return "rs1, LABEL";
    case Form::kS:
      return "rs1";
    case Form::kR:
      return "rd";
    case Form::kRR:
      return "rd, rs1";
    case Form::kRI:
      return "rd, IMM";
    case Form::kRRR:
      return "rd, rs1, rs2";
    case Form::kRRRR:
      return "rd, rs1, rs2, rs3";
    case Form::kRRI:
      return "rd, rs1, IMM";
    case Form::kSHFL:
      return "rd, rs1, rs2[, rs3]";
    case Form::kLD:
      return "rd, [rs1 + IMM]";
    case Form::kST:
      return "[rs1 + IMM], rs2";
  }
  return "";
}

void ExpectOperands(const InsnInfo& info, const Stmt& s, size_t lo, size_t hi) {
  const size_t n = s.ops.size();
  if (n >= lo && n <= hi) return;
  const int col = n > hi ? s.ops[hi].col : s.mnemonic.col;
  throw LineError{col, std::string(info.name) + " expects " + FormOperands(info.form) + ", got " +
                           std::to_string(n) + " operand" + (n == 1 ? "" : "s")};
}

// Parses the operands of `s` by the form of `info` into b.
void ApplyOperands(const InsnInfo& info, const Stmt& s, const Labels* labels, Built* b) {
  const std::vector<Tok>& o = s.ops;
  auto reg = [&](FieldId id, const Tok& t) { b->Set(id, ParseReg(t), t.col); };
  auto imm = [&](const Tok& t) {
    b->Set(FieldId::kImm, static_cast<uint32_t>(ParseImm(t)), t.col);
  };
  auto target = [&](const Tok& t) {
    b->Set(FieldId::kImm, static_cast<uint32_t>(ParseTarget(t, s.pc, labels)), t.col);
  };
  switch (info.form) {
    case Form::kN:
      ExpectOperands(info, s, 0, 0);
      break;
    case Form::kI:
      ExpectOperands(info, s, 1, 1);
      imm(o[0]);
      break;
    case Form::kL:
      ExpectOperands(info, s, 1, 1);
      target(o[0]);
      break;
    case Form::kRL:
      ExpectOperands(info, s, 2, 2);
      reg(FieldId::kRs1, o[0]);
      target(o[1]);
      break;
    case Form::kS:
      ExpectOperands(info, s, 1, 1);
      reg(FieldId::kRs1, o[0]);
      break;
    case Form::kR:
      ExpectOperands(info, s, 1, 1);
      reg(FieldId::kRd, o[0]);
      break;
    case Form::kRR:
      ExpectOperands(info, s, 2, 2);
      reg(FieldId::kRd, o[0]);
      reg(FieldId::kRs1, o[1]);
      break;
    case Form::kRI:
      ExpectOperands(info, s, 2, 2);
      reg(FieldId::kRd, o[0]);
      if (info.imm_rule == isa::ImmRule::kSpecial) {
        b->Set(FieldId::kImm, static_cast<uint32_t>(ParseSpecial(o[1])), o[1].col);
      } else {
        imm(o[1]);
      }
      break;
    case Form::kRRR:
      ExpectOperands(info, s, 3, 3);
      reg(FieldId::kRd, o[0]);
      reg(FieldId::kRs1, o[1]);
      reg(FieldId::kRs2, o[2]);
      break;
    case Form::kRRRR:
      ExpectOperands(info, s, 4, 4);
      reg(FieldId::kRd, o[0]);
      reg(FieldId::kRs1, o[1]);
      reg(FieldId::kRs2, o[2]);
      reg(FieldId::kRs3, o[3]);
      break;
    case Form::kRRI:
      ExpectOperands(info, s, 3, 3);
      reg(FieldId::kRd, o[0]);
      reg(FieldId::kRs1, o[1]);
      imm(o[2]);
      break;
    case Form::kSHFL:
      ExpectOperands(info, s, 3, 4);
      reg(FieldId::kRd, o[0]);
      reg(FieldId::kRs1, o[1]);
      reg(FieldId::kRs2, o[2]);
      if (o.size() == 4) {
        reg(FieldId::kRs3, o[3]);
      } else {
        b->Set(FieldId::kRs3, isa::kRegS0, 0);  // no rs3: s0 (default value 0)
      }
      break;
    case Form::kLD: {
      ExpectOperands(info, s, 2, 2);
      reg(FieldId::kRd, o[0]);
      const MemOperand m = SplitMem(o[1]);
      reg(FieldId::kRs1, m.reg);
      imm(m.imm);
      break;
    }
    case Form::kST: {
      ExpectOperands(info, s, 2, 2);
      const MemOperand m = SplitMem(o[0]);
      reg(FieldId::kRs1, m.reg);
      imm(m.imm);
      reg(FieldId::kRs2, o[1]);
      break;
    }
  }
}

uint64_t EncodeReal(const InsnInfo& info, const Stmt& s, const Labels* labels) {
  Built b;
  ApplySuffixes(info, s, &b);
  ApplyOperands(info, s, labels, &b);
  return Finish(b, s);
}

// li with a 32-bit value: one li when it fits the signed 24-bit immediate, else lui + ori.
std::vector<uint64_t> ExpandLi32(const Stmt& s, unsigned rd, const Tok& rd_tok, unsigned dt,
                                 const Tok& dt_tok, uint32_t value, const Tok& value_tok) {
  const int32_t low24 = static_cast<int32_t>(value << 8) >> 8;
  auto build = [&](Op op, unsigned rs1, int32_t imm, unsigned d) {
    Built b;
    b.Set(FieldId::kOpcode, static_cast<uint8_t>(op), s.mnemonic.col);
    b.Set(FieldId::kDt, d, dt_tok.col);
    b.Set(FieldId::kRd, rd, rd_tok.col);
    if (op == Op::kOri) b.Set(FieldId::kRs1, rs1, rd_tok.col);
    b.Set(FieldId::kImm, static_cast<uint32_t>(imm), value_tok.col);
    return Finish(b, s);
  };
  if (static_cast<uint32_t>(low24) == value) return {build(Op::kLi, 0, low24, dt)};
  // lui writes imm << 8: the field holds bits 31:8 (as a signed 24-bit number); ori adds 7:0.
  const int32_t hi = static_cast<int32_t>(value) >> 8;
  return {build(Op::kLui, 0, hi, 0), build(Op::kOri, rd, static_cast<int32_t>(value & 0xff), dt)};
}

// Parses a single-suffix pseudo mnemonic's optional type; returns the dt and its token.
unsigned PseudoDt(const Stmt& s, const InsnInfo& target, Tok* dt_tok) {
  *dt_tok = Tok{"", 0};
  if (s.parts.size() > 2) {
    throw LineError{s.parts[2].col, "bad suffix '." + s.parts[2].text + "' for " + s.parts[0].text};
  }
  if (s.parts.size() == 2) {
    const int dt = DtCode(Lower(s.parts[1].text));
    if (dt < 0) {
      throw LineError{s.parts[1].col,
                      "bad suffix '." + s.parts[1].text + "' for " + s.parts[0].text};
    }
    *dt_tok = s.parts[1];
    return static_cast<unsigned>(dt);
  }
  return DefaultDt(target);
}

void ExpectCount(const Stmt& s, size_t n, const char* operands) {
  if (s.ops.size() == n) return;
  const int col = s.ops.size() > n ? s.ops[n].col : s.mnemonic.col;
  throw LineError{col, s.parts[0].text + " expects " + operands + ", got " +
                           std::to_string(s.ops.size()) + " operand" +
                           (s.ops.size() == 1 ? "" : "s")};
}

// Encodes one statement; labels == nullptr in the first pass (label operands read as 0).
std::vector<uint64_t> EncodeStmt(const Stmt& s, const Labels* labels) {
  const std::string name = Lower(s.parts[0].text);
  // Directive: .dword VALUE emits one raw word.
  if (s.mnemonic.text[0] == '.') {
    if (Lower(s.mnemonic.text) != ".dword") {
      throw LineError{s.mnemonic.col, "unknown directive '" + s.mnemonic.text + "'"};
    }
    ExpectCount(s, 1, "VALUE");
    bool neg;
    uint64_t mag;
    if (!ParseIntLiteral(s.ops[0].text, &neg, &mag) || (neg && mag > (uint64_t{1} << 63))) {
      throw LineError{s.ops[0].col, "expected a 64-bit value, got '" + s.ops[0].text + "'"};
    }
    return {neg ? ~mag + 1 : mag};
  }
  // li: a 32-bit type takes any 32-bit value (-2^31..2^32-1) and expands when needed.
  if (name == "li") {
    const InsnInfo& li = *FindInsn("li");
    Tok dt_tok;
    const unsigned dt = PseudoDt(s, li, &dt_tok);
    ExpectCount(s, 2, "rd, IMM");
    const unsigned rd = ParseReg(s.ops[0]);
    if (isa::DtypeBits(dt) == 32) {
      const int64_t v =
          ParseInt(s.ops[1], -(int64_t{1} << 31), (int64_t{1} << 32) - 1, "32-bit value");
      return ExpandLi32(s, rd, s.ops[0], dt, dt_tok, static_cast<uint32_t>(v), s.ops[1]);
    }
    return {EncodeReal(li, s, labels)};
  }
  // fli rd, FLOAT: li of the binary32 bits.
  if (name == "fli") {
    if (s.parts.size() > 1) {
      throw LineError{s.parts[1].col, "bad suffix '." + s.parts[1].text + "' for fli"};
    }
    ExpectCount(s, 2, "rd, FLOAT");
    const unsigned rd = ParseReg(s.ops[0]);
    const std::string& text = s.ops[1].text;
    errno = 0;
    char* end = nullptr;
    const float f = std::strtof(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) {
      throw LineError{s.ops[1].col, "expected a floating-point literal, got '" + text + "'"};
    }
    if (errno == ERANGE && std::isinf(f)) {
      throw LineError{s.ops[1].col, "floating-point literal " + text + " overflows f32"};
    }
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    return ExpandLi32(s, rd, s.ops[0], 0, Tok{"", 0}, bits, s.ops[1]);
  }
  // mov rd, rs -> ori rd, rs, 0; not rd, rs -> xori rd, rs, -1.
  if (name == "mov" || name == "not") {
    const InsnInfo& target = *FindInsn(name == "mov" ? "ori" : "xori");
    Tok dt_tok;
    const unsigned dt = PseudoDt(s, target, &dt_tok);
    ExpectCount(s, 2, "rd, rs");
    Built b;
    b.Set(FieldId::kOpcode, static_cast<uint8_t>(target.op), s.mnemonic.col);
    b.Set(FieldId::kDt, dt, dt_tok.col);
    b.Set(FieldId::kRd, ParseReg(s.ops[0]), s.ops[0].col);
    b.Set(FieldId::kRs1, ParseReg(s.ops[1]), s.ops[1].col);
    b.Set(FieldId::kImm, name == "mov" ? 0u : static_cast<uint32_t>(-1), 0);
    return {Finish(b, s)};
  }
  // j L -> br L.
  if (name == "j") {
    if (s.parts.size() > 1) {
      throw LineError{s.parts[1].col, "bad suffix '." + s.parts[1].text + "' for j"};
    }
    ExpectCount(s, 1, "LABEL");
    Built b;
    b.Set(FieldId::kOpcode, static_cast<uint8_t>(Op::kBr), s.mnemonic.col);
    b.Set(FieldId::kImm, static_cast<uint32_t>(ParseTarget(s.ops[0], s.pc, labels)), s.ops[0].col);
    return {Finish(b, s)};
  }
  const InsnInfo* info = FindInsn(name);
  if (info == nullptr) {
    throw LineError{s.mnemonic.col, "unknown mnemonic '" + s.parts[0].text + "'"};
  }
  return {EncodeReal(*info, s, labels)};
}

// ---- lines -------------------------------------------------------------------------------------

// Removes a comment: '#', '//' or ';' to the end of the line.
std::string StripComment(const std::string& line) {
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '#' || line[i] == ';') return line.substr(0, i);
    if (line[i] == '/' && i + 1 < line.size() && line[i + 1] == '/') return line.substr(0, i);
  }
  return line;
}

struct ParsedLine {
  std::vector<Tok> labels;
  std::optional<Stmt> stmt;
};

ParsedLine ParseLine(const std::string& raw) {
  const std::string line = StripComment(raw);
  ParsedLine out;
  size_t p = 0;
  auto skip_ws = [&] {
    while (p < line.size() && std::isspace(static_cast<unsigned char>(line[p]))) ++p;
  };
  skip_ws();
  // Leading "name:" labels.
  for (;;) {
    if (p >= line.size() || !IsIdentStart(line[p])) break;
    size_t q = p;
    while (q < line.size() && IsIdentChar(line[q])) ++q;
    size_t r = q;
    while (r < line.size() && (line[r] == ' ' || line[r] == '\t')) ++r;
    if (r >= line.size() || line[r] != ':') break;
    out.labels.push_back(Tok{line.substr(p, q - p), static_cast<int>(p) + 1});
    p = r + 1;
    skip_ws();
  }
  if (p >= line.size()) return out;
  // Mnemonic: up to white space.
  Stmt s;
  const size_t m0 = p;
  while (p < line.size() && !std::isspace(static_cast<unsigned char>(line[p]))) ++p;
  s.mnemonic = Tok{line.substr(m0, p - m0), static_cast<int>(m0) + 1};
  // Split at '.', keeping columns (a directive's leading '.' stays in parts[0]).
  {
    const std::string& m = s.mnemonic.text;
    size_t start = 0;
    size_t i = m[0] == '.' ? 1 : 0;
    for (; i <= m.size(); ++i) {
      if (i == m.size() || m[i] == '.') {
        if (i == start && start != 0) {
          throw LineError{s.mnemonic.col + static_cast<int>(i), "empty suffix in '" + m + "'"};
        }
        s.parts.push_back(
            Tok{m.substr(start, i - start), s.mnemonic.col + static_cast<int>(start)});
        start = i + 1;
      }
    }
    if (!m.empty() && m.back() == '.') {
      throw LineError{s.mnemonic.col + static_cast<int>(m.size()) - 1,
                      "empty suffix in '" + m + "'"};
    }
  }
  // Operands: comma-separated, trimmed.
  skip_ws();
  if (p < line.size()) {
    size_t start = p;
    for (size_t i = p; i <= line.size(); ++i) {
      if (i == line.size() || line[i] == ',') {
        size_t a = start, b = i;
        while (a < b && std::isspace(static_cast<unsigned char>(line[a]))) ++a;
        while (b > a && std::isspace(static_cast<unsigned char>(line[b - 1]))) --b;
        if (a == b) throw LineError{static_cast<int>(a) + 1, "missing operand"};
        s.ops.push_back(Tok{line.substr(a, b - a), static_cast<int>(a) + 1});
        start = i + 1;
      }
    }
  }
  out.stmt = std::move(s);
  return out;
}

}  // namespace

Program Assemble(const std::string& source, const std::string& filename) {
  Program prog;
  std::vector<Stmt> stmts;
  int line_no = 0;
  uint32_t pc = 0;
  // Pass 1: parse, define labels, size every statement (li may take two words).
  size_t pos = 0;
  while (pos <= source.size()) {
    size_t nl = source.find('\n', pos);
    if (nl == std::string::npos) nl = source.size();
    std::string line = source.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    ++line_no;
    try {
      ParsedLine pl = ParseLine(line);
      for (const Tok& l : pl.labels) {
        if (IsRegName(l.text)) throw LineError{l.col, "label '" + l.text + "' is a register name"};
        if (!prog.labels.emplace(l.text, pc).second) {
          throw LineError{l.col, "duplicate label '" + l.text + "'"};
        }
      }
      if (pl.stmt) {
        pl.stmt->line = line_no;
        pl.stmt->pc = pc;
        const size_t words = EncodeStmt(*pl.stmt, nullptr).size();
        pc += static_cast<uint32_t>(8 * words);
        stmts.push_back(std::move(*pl.stmt));
      }
    } catch (const LineError& e) {
      throw AsmError(filename, line_no, e.col, e.msg);
    }
    if (nl == source.size()) break;
    pos = nl + 1;
  }
  // Pass 2: encode with the labels known.
  for (const Stmt& s : stmts) {
    try {
      for (uint64_t w : EncodeStmt(s, &prog.labels)) prog.words.push_back(w);
    } catch (const LineError& e) {
      throw AsmError(filename, s.line, e.col, e.msg);
    }
  }
  return prog;
}

}  // namespace sgu
