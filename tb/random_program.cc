// SPDX-License-Identifier: Apache-2.0
// Random program generator (see random_program.h). Which fields, types, modifiers, register
// kinds, pairs and immediates are legal comes only from the generated decode table (the
// attributes of isa/sgu_isa.txt), through AllVariants; the rest of this file chooses registers
// and values that keep programs terminating and inside their data region.
//
// Register conventions of generated programs: v31 = lane index, v30 = per-lane data address
// (kDataBase + 8 * lane), s31 = kDataBase, s26..s29 = loop counters. Random instructions write
// only v0..v29 and s0..s25 (a write to s0 is dropped), so the conventions hold everywhere.
#include "random_program.h"

#include <cstring>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include "sgu/asm.h"

namespace sgu::tb {
namespace {

using isa::InsnInfo;
using isa::RegKind;

constexpr unsigned kNumInsns = sizeof(isa::kInsns) / sizeof(isa::kInsns[0]);

unsigned LaneBits(unsigned num_lanes) { return num_lanes == 8 ? 3 : num_lanes == 16 ? 4 : 5; }

bool Uses(const InsnInfo& in, unsigned k) { return (in.uses >> k & 1) != 0; }

bool Is64(unsigned code) { return (isa::kDtypes64 >> code & 1) != 0; }

// A random set bit of a non-zero 16-bit mask.
unsigned PickBit(uint16_t mask, Rng& rng) {
  unsigned b;
  do b = rng.Below(16);
  while ((mask >> b & 1) == 0);
  return b;
}

bool Forbidden(const InsnInfo& in, unsigned dt, unsigned mod) {
  for (const isa::ForbidPair& f : in.forbid) {
    if ((f.dts >> dt & 1) != 0 && (f.mods >> mod & 1) != 0) return true;
  }
  return false;
}

bool PairOf(const InsnInfo& in, unsigned k, unsigned dt, unsigned mod) {
  if (!Uses(in, k)) return false;
  switch (in.regs[k].width) {
    case isa::OperandWidth::kDt: return Is64(dt);
    case isa::OperandWidth::kMod: return Is64(mod);
    case isa::OperandWidth::kFixed32: break;
  }
  return false;
}

bool PairExcluded(unsigned r) { return (isa::kPairExcluded >> r & 1) != 0; }

std::string RegText(unsigned r) { return (r >= 32 ? "s" : "v") + std::to_string(r % 32); }

// Interesting f32 bit patterns for fli-free initialisation.
constexpr uint32_t kFloatSpecials[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000,
    0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0x3f000000, 0x4b000000, 0xcf000000,
    0x4f800000, 0x3fc00000, 0x40490fdb, 0x33800000};

const InsnInfo& Info(isa::Op op) { return *isa::LookupOpcode(static_cast<uint8_t>(op)); }

class Gen {
 public:
  Gen(unsigned num_lanes, Rng& rng) : n_(num_lanes), rng_(rng) {}

  std::string text() const { return out_.str(); }

  void Line(const std::string& s) { out_ << "  " << s << "\n"; }
  std::string Label() { return "L" + std::to_string(label_++); }
  void Place(const std::string& l) { out_ << l << ":\n"; }

  // ---------------------------------------------------------------- registers
  std::string V(unsigned r) { return "v" + std::to_string(r); }
  std::string S(unsigned r) { return "s" + std::to_string(r); }
  std::string Reg(bool scalar, bool pair, bool dest) {
    return RegText(PickRegister(scalar, pair, dest, rng_));
  }
  std::string VecSrc() { return Reg(false, false, false); }

  int32_t Imm() {
    switch (rng_.Below(4)) {
      case 0: return rng_.Range(-64, 64);
      case 1: return rng_.Range(-(1 << 23), (1 << 23) - 1);
      case 2: {
        static constexpr int32_t kSpecial[] = {0, 1, -1, 7, 8, 15, 16, 31, 32, 63, 64, 0x7fffff};
        return kSpecial[rng_.Below(12)];
      }
      default: return rng_.Range(-4096, 4096);
    }
  }

  // A random legal variant, leaning towards vector operands (of two draws, the one with fewer
  // scalar registers): most variants of an instruction have scalar operands, most per-lane
  // behaviour needs vector ones. Every variant keeps a non-zero chance.
  const Variant& Pick(const InsnInfo& in) {
    const std::vector<Variant>& all = AllVariants(in, n_);
    const Variant& a = all[rng_.Below(static_cast<uint32_t>(all.size()))];
    const Variant& b = all[rng_.Below(static_cast<uint32_t>(all.size()))];
    auto scalars = [](const Variant& v) {
      return v.scalar[0] + v.scalar[1] + v.scalar[2] + v.scalar[3];
    };
    return scalars(b) < scalars(a) ? b : a;
  }

  // Mnemonic with type and modifier suffixes, and a group width suffix (.wN) for imm:width.
  std::string Mnemonic(const InsnInfo& in, const Variant& v) {
    std::string m = in.name;
    if (in.dtypes != 1u) m += std::string(".") + isa::kDtypes[v.dt].name;
    if (in.mod_names[v.mod] != nullptr) m += std::string(".") + in.mod_names[v.mod];
    if (in.imm_rule == isa::ImmRule::kGroupWidth && v.imm != 0) {
      m += ".w" + std::to_string(1u << v.imm);
    }
    return m;
  }

  // ---------------------------------------------------------------- one instruction
  // Emits one instance of variant v of `in` (forms with a destination and register sources; not
  // control flow, memory or shfl, which have their own generators).
  void Compute(const InsnInfo& in, const Variant& v) {
    std::string ops[4];
    for (unsigned k = 0; k < 4; ++k) {
      if (Uses(in, k)) ops[k] = Reg(v.scalar[k], v.pair[k], k == isa::kRegRd);
    }
    std::string imm = std::to_string(v.imm_ruled ? v.imm : Imm());
    if (in.imm_rule == isa::ImmRule::kSpecial && rng_.Percent(50)) {
      imm = isa::kSpecialNames[v.imm];  // csrr by name
    }
    const std::string mn = Mnemonic(in, v);
    switch (in.form) {
      case isa::Form::kRRR: Line(mn + " " + ops[0] + ", " + ops[1] + ", " + ops[2]); break;
      case isa::Form::kRRRR:
        Line(mn + " " + ops[0] + ", " + ops[1] + ", " + ops[2] + ", " + ops[3]);
        break;
      case isa::Form::kRRI: Line(mn + " " + ops[0] + ", " + ops[1] + ", " + imm); break;
      case isa::Form::kRI: Line(mn + " " + ops[0] + ", " + imm); break;
      case isa::Form::kRR: Line(mn + " " + ops[0] + ", " + ops[1]); break;
      case isa::Form::kR: Line(mn + " " + ops[0]); break;
      default: break;
    }
  }
  void Compute(const InsnInfo& in) { Compute(in, Pick(in)); }

  // shfl: the data (rs1), index (rs2) and default/second source (rs3) kinds and the group width
  // come from the variant; the index is mostly small so that in- and out-of-range lanes occur.
  void Shuffle(const Variant& v) {
    const InsnInfo& in = Info(isa::Op::kShfl);
    std::string d;
    if (!v.scalar[isa::kRegRs2] && rng_.Percent(60)) {
      d = V(rng_.Below(30));
      Line("andi.u32 " + d + ", " + VecSrc() + ", " + std::to_string(2 * n_ + 1));
    } else if (v.scalar[isa::kRegRs2] && rng_.Percent(50)) {
      d = S(1 + rng_.Below(25));
      Line("li " + d + ", " + std::to_string(rng_.Range(-2, 2 * n_ + 2)));
    } else {
      d = Reg(v.scalar[isa::kRegRs2], false, false);
    }
    // One draw per statement: the operands of + are unsequenced, and compilers order them
    // differently, which would make a seed's program depend on the compiler.
    const std::string rs1 = Reg(v.scalar[isa::kRegRs1], false, false);
    const std::string rd = Reg(v.scalar[isa::kRegRd], false, true);
    std::string line = Mnemonic(in, v) + " " + rd + ", " + rs1 + ", " + d;
    // An omitted rs3 is s0 (scalar): written out for vector rs3 and most of the time.
    if (!v.scalar[isa::kRegRs3] || rng_.Percent(70)) {
      line += ", " + Reg(v.scalar[isa::kRegRs3], false, false);
    }
    Line(line);
  }
  void Shuffle() { Shuffle(Pick(Info(isa::Op::kShfl))); }

  // ld/st: type and operand kinds from the variant; the address register is v30 (per-lane data
  // address) or s31 (data base) by the kind of rs1, so that accesses stay in the data region,
  // aligned for every size. may_trap: a misaligned, out-of-window or SLVERR address instead.
  void Memory(const InsnInfo& in, const Variant& v, bool may_trap) {
    const bool load = in.op == isa::Op::kLd;
    const unsigned bits = isa::kDtypes[v.dt].bits;
    const unsigned size = bits / 8;
    std::string base = v.scalar[isa::kRegRs1] ? "s31" : "v30";
    int32_t off = static_cast<int32_t>(8 * rng_.Below(0x5000 / 8));
    if (may_trap) {
      // A scalar address never makes a legal variant illegal (rs1 is a 32-bit operand of any kind).
      switch (rng_.Below(3)) {
        case 0: off += size > 1 ? 1 : 0; if (size == 1) { base = "s0"; off = kWindowLimit; } break;
        case 1: base = "s0"; off = kWindowLimit - (rng_.Percent(50) ? 0 : 4); break;
        default: base = "s0"; off = kErrBase + 8 * rng_.Below(8); break;
      }
    }
    const std::string mn = Mnemonic(in, v);
    const std::string addr = "[" + base + " + " + std::to_string(off) + "]";
    if (load) {
      Line(mn + " " + Reg(v.scalar[isa::kRegRd], v.pair[isa::kRegRd], true) + ", " + addr);
    } else {
      Line(mn + " " + addr + ", " + Reg(v.scalar[isa::kRegRs2], v.pair[isa::kRegRs2], false));
    }
  }
  void Memory(bool may_trap) {
    const InsnInfo& in = Info(rng_.Percent(55) ? isa::Op::kLd : isa::Op::kSt);
    Memory(in, Pick(in), may_trap);
  }

  void Trap() {
    switch (rng_.Below(6)) {
      case 0: {  // an illegal word (RandomDecodeWord, kept when it is illegal at this width)
        uint64_t w;
        do w = RandomDecodeWord(n_, rng_);
        while (!isa::CheckLegal(w, n_));
        char b[40];
        snprintf(b, sizeof b, ".dword 0x%016llx", static_cast<unsigned long long>(w));
        Line(b);
        break;
      }
      case 1: Line("trap " + std::to_string(Imm())); break;
      case 2: Line(rng_.Percent(50) ? "join" : "else"); break;
      case 3: for (unsigned i = 0; i <= isa::kMaskStackDepth; ++i) Line("mpush"); break;
      case 4: Memory(true); break;
      default: Line("br 100000"); break;
    }
  }

  // A condition register for split/mbrk, vector (lanes differ) or scalar by the variant.
  std::string Condition(isa::Op op) {
    const Variant& v = Pick(Info(op));
    if (v.scalar[isa::kRegRs1]) {
      const std::string c = S(1 + rng_.Below(25));
      const int32_t imm = rng_.Range(-8, 8);
      Line("cmpi.lt " + c + ", " + Reg(true, false, false) + ", " + std::to_string(imm));
      return c;
    }
    const std::string c = V(rng_.Below(30));
    switch (rng_.Below(3)) {
      case 0: {
        const int32_t imm = Imm();
        Line("cmpi.lt " + c + ", " + VecSrc() + ", " + std::to_string(imm));
        break;
      }
      case 1: Line("andi " + c + ", v31, " + std::to_string(1 + rng_.Below(n_))); break;
      default: Line("cmpi.u32.lt " + c + ", v31, " + std::to_string(rng_.Below(n_ + 1))); break;
    }
    return c;
  }

  void Items(unsigned count, unsigned depth) {
    for (unsigned i = 0; i < count; ++i) Item(depth);
  }

  void Item(unsigned depth) {
    const unsigned r = rng_.Below(100);
    if (r < 8) {
      Shuffle();
    } else if (r < 20) {
      Memory(false);
    } else if (r < 24 && depth < 3) {
      const std::string c = Condition(isa::Op::kSplit);
      const std::string l_else = Label(), l_end = Label();
      // The skips over a side no lane takes are optional and either side may be empty, so
      // that split, else and join also meet back to back (the mask stack read in the cycle
      // after its write: sgu_mask_stack's bypass).
      Line("split " + c);
      if (rng_.Percent(75)) Line("bexz " + l_else);
      Items(rng_.Below(6), depth + 1);
      Place(l_else);
      if (rng_.Percent(80)) {  // else an `if` without an else side
        Line("else");
        if (rng_.Percent(75)) Line("bexz " + l_end);
        Items(rng_.Below(6), depth + 1);
      }
      Place(l_end);
      Line("join");
    } else if (r < 26 && uniform_loops_ < 2) {
      const std::string ctr = S(28 + uniform_loops_++);
      const std::string head = Label();
      Line("li " + ctr + ", " + std::to_string(1 + rng_.Below(4)));
      Place(head);
      Items(1 + rng_.Below(6), depth + 1);
      Line("addi " + ctr + ", " + ctr + ", -1");
      Line("bnz " + ctr + ", " + head);
      --uniform_loops_;
    } else if (r < 28 && divergent_loops_ < 2 && depth < 3) {
      const std::string ctr = S(26 + divergent_loops_++);
      const std::string head = Label(), exit = Label();
      Line("li " + ctr + ", " + std::to_string(1 + rng_.Below(5)));
      Line("mpush");
      Place(head);
      Items(1 + rng_.Below(5), depth + 1);
      Line("mbrk " + Condition(isa::Op::kMbrk));
      Line("addi " + ctr + ", " + ctr + ", -1");
      Line("bz " + ctr + ", " + exit);
      Line("bexnz " + head);
      Place(exit);
      Line("join");
      --divergent_loops_;
    } else if (r < 30 && depth < 3) {
      // Forward skips: a uniform condition (any scalar register, s0 included), the exec mask,
      // or an unconditional jump over dead code.
      const std::string skip = Label();
      switch (rng_.Below(4)) {
        case 0: Line("bz " + Reg(true, false, false) + ", " + skip); break;
        case 1: Line("bnz " + Reg(true, false, false) + ", " + skip); break;
        case 2: Line(std::string(rng_.Percent(50) ? "bexz " : "bexnz ") + skip); break;
        default: Line("br " + skip); break;
      }
      Items(1 + rng_.Below(4), depth + 1);
      Place(skip);
    } else if (r < 31) {
      Line("nop");
    } else {
      // Any computational instruction of the table, uniformly.
      const InsnInfo* in;
      do {
        in = &isa::kInsns[rng_.Below(kNumInsns)];
      } while (!IsCompute(*in));
      Compute(*in);
    }
  }

  static bool IsCompute(const InsnInfo& in) {
    switch (in.form) {
      case isa::Form::kRRR:
      case isa::Form::kRRRR:
      case isa::Form::kRRI:
      case isa::Form::kRI:
      case isa::Form::kRR:
      case isa::Form::kR:
        return true;
      default:
        return false;
    }
  }

  // Register initialisation: random integers and interesting floats.
  void Prologue() {
    Line("lane v31");
    Line("shli v30, v31, 3");
    Line("li s31, " + std::to_string(kDataBase));
    Line("add v30, v30, s31");
    for (unsigned r = 0; r < 30; ++r) {
      if (rng_.Percent(30)) {
        Line("li " + V(r) + ", " + std::to_string(kFloatSpecials[rng_.Below(18)]));
        Line("add " + V(r) + ", " + V(r) + ", v31");
      } else {
        Line("ld.i32 " + V(r) + ", [v30 + " + std::to_string(8 * rng_.Below(0x400)) + "]");
      }
    }
    for (unsigned r = 9; r < 26; ++r) Line("li " + S(r) + ", " + std::to_string(Imm()));
  }

  void Epilogue() {
    for (unsigned r = 0; r < 8; ++r) {
      Line("st.i32 [v30 + " + std::to_string(0x5800 + 0x100 * r) + "], " + V(r));
    }
    Line("halt");
  }

  // One instance of variant v of any instruction GenerateInstructionProgram covers.
  void Instance(const InsnInfo& in, const Variant& v) {
    switch (in.op) {
      case isa::Op::kShfl: Shuffle(v); break;
      case isa::Op::kLd:
      case isa::Op::kSt: Memory(in, v, false); break;
      default:
        if (IsCompute(in)) Compute(in, v);
        break;
    }
  }

 private:
  unsigned n_;
  Rng& rng_;
  std::ostringstream out_;
  unsigned label_ = 0;
  unsigned uniform_loops_ = 0;
  unsigned divergent_loops_ = 0;
};

// Enumerates AllVariants (see random_program.h).
std::vector<Variant> EnumerateVariants(const InsnInfo& in, unsigned num_lanes) {
  std::vector<Variant> out;
  for (unsigned dt = 0; dt < 16; ++dt) {
    if ((in.dtypes >> dt & 1) == 0) continue;
    for (unsigned mod = 0; mod < 16; ++mod) {
      if ((in.mods >> mod & 1) == 0 || Forbidden(in, dt, mod)) continue;
      // Immediate values a rule allows (one free immediate otherwise).
      std::vector<int32_t> imms;
      bool ruled = true;
      switch (in.imm_rule) {
        case isa::ImmRule::kSpecial:
          for (unsigned i = 0; i < isa::kNumSpecials; ++i) imms.push_back(static_cast<int32_t>(i));
          break;
        case isa::ImmRule::kGroupWidth: {
          const unsigned hi = (in.imm_mods >> mod & 1) != 0 ? LaneBits(num_lanes) : 0;
          for (unsigned i = 0; i <= hi; ++i) imms.push_back(static_cast<int32_t>(i));
          break;
        }
        case isa::ImmRule::kAny:
          imms.push_back(0);
          ruled = false;
          break;
      }
      // Vector/scalar choices: bit k of `kinds` = operand k scalar.
      for (unsigned kinds = 0; kinds < 16; ++kinds) {
        bool ok = true;
        for (unsigned k = 0; k < 4 && ok; ++k) {
          const bool scalar = (kinds >> k & 1) != 0;
          if (!Uses(in, k)) {
            ok = !scalar;
          } else if (in.regs[k].kind == RegKind::kScalar) {
            ok = scalar;
          } else if (in.regs[k].kind == RegKind::kVector) {
            ok = !scalar;
          }
        }
        // A scalar rd needs scalar sources unless the result is uniform (:u).
        if (ok && Uses(in, isa::kRegRd) && (kinds & 1) != 0 &&
            in.regs[isa::kRegRd].kind != RegKind::kUniform) {
          for (unsigned k = isa::kRegRs1; k <= isa::kRegRs3; ++k) {
            if (Uses(in, k) && (kinds >> k & 1) == 0) ok = false;
          }
        }
        if (!ok) continue;
        for (int32_t imm : imms) {
          Variant v;
          v.dt = dt;
          v.mod = mod;
          for (unsigned k = 0; k < 4; ++k) {
            v.scalar[k] = (kinds >> k & 1) != 0;
            v.pair[k] = PairOf(in, k, dt, mod);
          }
          v.imm_ruled = ruled;
          v.imm = imm;
          out.push_back(v);
        }
      }
    }
  }
  return out;
}

}  // namespace

const std::vector<Variant>& AllVariants(const isa::InsnInfo& in, unsigned num_lanes) {
  static std::map<std::pair<uint8_t, unsigned>, std::vector<Variant>> cache;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  const auto key = std::make_pair(static_cast<uint8_t>(in.op), num_lanes);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, EnumerateVariants(in, num_lanes)).first;
  return it->second;
}

unsigned PickRegister(bool scalar, bool pair, bool dest, Rng& rng) {
  for (;;) {
    unsigned r;
    if (!scalar) {
      // v30 and v31 hold the data address and the lane index.
      r = dest ? (pair ? 2 * rng.Below(15) : rng.Below(30))
               : (pair ? 2 * rng.Below(16) : rng.Below(32));
    } else {
      // s26..s31 hold loop counters and the data base; s0 as a destination drops the write.
      r = 32 + (dest ? (pair ? 2 * rng.Below(13) : (rng.Percent(4) ? 0 : 1 + rng.Below(25)))
                     : (pair ? 2 * rng.Below(16) : rng.Below(32)));
    }
    if (!pair || !PairExcluded(r)) return r;
  }
}

uint64_t RandomDecodeWord(unsigned num_lanes, Rng& rng) {
  const unsigned pick = rng.Below(100);
  if (pick < 3) return rng.Bits();
  if (pick < 8) {
    // An undefined opcode, with zero or random other fields.
    uint8_t op;
    do op = static_cast<uint8_t>(rng.Below(256));
    while (isa::LookupOpcode(op) != nullptr);
    return (rng.Percent(50) ? rng.Bits() & ~uint64_t{0xff} : 0) | op;
  }
  const InsnInfo& in = isa::kInsns[rng.Below(kNumInsns)];
  const std::vector<Variant>& all = AllVariants(in, num_lanes);
  const Variant& v = all[rng.Below(static_cast<uint32_t>(all.size()))];
  isa::Fields f;
  f.opcode = static_cast<uint8_t>(in.op);
  f.dt = v.dt;
  f.mod = v.mod;
  unsigned* regs[4] = {&f.rd, &f.rs1, &f.rs2, &f.rs3};
  for (unsigned k = 0; k < 4; ++k) {
    if (!Uses(in, k)) continue;
    // Registers at the edges: the first and last of each kind, s0 (not for pairs), or random.
    unsigned r;
    do {
      switch (rng.Below(4)) {
        case 0: r = v.scalar[k] ? 32 : 0; break;
        case 1: r = (v.scalar[k] ? 62 : 30) + (v.pair[k] ? 0 : rng.Below(2)); break;
        default: r = PickRegister(v.scalar[k], v.pair[k], false, rng); break;
      }
    } while (v.pair[k] && (r % 2 != 0 || PairExcluded(r)));
    *regs[k] = r;
  }
  if (v.imm_ruled) {
    f.imm = v.imm;
  } else if ((in.uses & isa::kUseImm) != 0) {
    static constexpr int32_t kEdges[] = {0, 1, -1, 0x7fffff, -0x800000, 2, 3, 4, 5, 6};
    f.imm = rng.Percent(50) ? kEdges[rng.Below(10)] : static_cast<int32_t>(rng.Bits());
  }
  // Break up to two rules on purpose, chosen among the rules this instruction has.
  enum Break { kDt, kMod, kStray, kForbid, kKind, kPair, kImm, kFlip };
  std::vector<Break> can = {kDt, kMod, kStray, kKind, kFlip};
  if (in.forbid[0].dts != 0) can.insert(can.end(), {kForbid, kForbid});
  for (unsigned k = 0; k < 4; ++k) {
    if (Uses(in, k) && in.regs[k].width != isa::OperandWidth::kFixed32) {
      can.insert(can.end(), {kPair, kPair});
      break;
    }
  }
  if (in.imm_rule != isa::ImmRule::kAny) can.insert(can.end(), {kImm, kImm, kImm});
  if (in.regs[isa::kRegRd].kind != RegKind::kAny || in.regs[isa::kRegRs1].kind != RegKind::kAny) {
    can.push_back(kKind);
  }
  const unsigned breaks = rng.Percent(45) ? 0 : rng.Percent(75) ? 1 : 2;
  bool flip = false;
  for (unsigned b = 0; b < breaks; ++b) {
    switch (can[rng.Below(static_cast<uint32_t>(can.size()))]) {
      case kDt:  // dt outside its set, or another type of the set (pairs change)
        f.dt = rng.Below(16);
        break;
      case kMod:  // mod outside its set, or the next value
        f.mod = rng.Percent(50) ? rng.Below(16) : (f.mod + 1) % 16;
        break;
      case kStray: {  // a non-zero field the instruction does not use
        const unsigned k = rng.Below(5);
        const unsigned value = rng.Percent(50) ? 1 : rng.Below(64);
        if (k < 4) {
          if (!Uses(in, k)) *regs[k] = value;
        } else if ((in.uses & isa::kUseImm) == 0) {
          f.imm = rng.Percent(50) ? 1 : -1;
        }
        break;
      }
      case kForbid: {  // a forbid: pair of dt and mod
        const isa::ForbidPair& p = in.forbid[rng.Below(isa::kMaxForbid)];
        if (p.dts != 0) {
          do f.dt = rng.Below(16); while ((p.dts >> f.dt & 1) == 0);
          do f.mod = rng.Below(16); while ((p.mods >> f.mod & 1) == 0);
        }
        break;
      }
      case kKind: {  // the other register kind (:s, :v, scalar rd with a vector source)
        const unsigned k = rng.Below(4);
        if (Uses(in, k)) *regs[k] ^= 32;
        break;
      }
      case kPair: {  // an odd or excluded register, or another type making operands pairs
        const unsigned k = rng.Below(4);
        if (!Uses(in, k)) break;
        switch (rng.Below(3)) {
          case 0: *regs[k] |= 1; break;
          case 1: *regs[k] = rng.Percent(50) ? 32 : 0; break;
          default:  // a 64-bit type for dt or, for :m operands, mod
            if (rng.Percent(70)) {
              f.dt = PickBit(isa::kDtypes64, rng);
            } else {
              f.mod = PickBit(isa::kDtypes64, rng);
            }
            break;
        }
        break;
      }
      case kImm:  // imm at and past its bound
        if (in.imm_rule == isa::ImmRule::kSpecial) {
          static constexpr int32_t kSpecialEdges[] = {-1, 0x7fffff, -0x800000};
          f.imm = rng.Percent(70) ? static_cast<int32_t>(isa::kNumSpecials - 1 + rng.Below(3))
                                  : kSpecialEdges[rng.Below(3)];
        } else if (rng.Percent(75)) {
          // Every width's bound (3, 4, 5) and one past, with a mode with or without a width.
          f.imm = static_cast<int32_t>(3 + rng.Below(4));
          if (rng.Percent(30)) f.mod = rng.Below(8);
        } else {
          f.imm = rng.Percent(50) ? 1 : -1;
        }
        break;
      case kFlip:  // any one bit
        flip = true;
        break;
    }
  }
  uint64_t w = isa::Encode(f);
  if (flip) w ^= uint64_t{1} << rng.Below(64);
  return w;
}

std::string GenerateRandomProgram(const RandomProgramConfig& cfg, Rng& rng) {
  Gen g(cfg.num_lanes, rng);
  g.Prologue();
  const unsigned trap_at = rng.Percent(cfg.trap_percent) ? rng.Below(cfg.items) : cfg.items;
  for (unsigned i = 0; i < cfg.items; ++i) {
    if (i == trap_at) g.Trap();
    g.Item(0);
  }
  g.Epilogue();
  return g.text();
}

std::string GenerateInstructionProgram(const isa::InsnInfo& insn, unsigned num_lanes, Rng& rng) {
  Gen g(num_lanes, rng);
  const std::vector<Variant>& all = AllVariants(insn, num_lanes);
  g.Prologue();
  for (int pass = 0; pass < 2; ++pass) {
    // Pass 1 runs under a divergent mask (odd lanes and lane 0 off, for instance).
    if (pass == 1) {
      g.Line("andi v29, v31, 1");
      g.Line("cmpi.u32.lt v28, v31, " + std::to_string(num_lanes - 2));
      g.Line("and v29, v29, v28");
      g.Line("split v29");
    }
    // Every variant once, in a random order, then random ones up to 48 instances.
    std::vector<size_t> order(all.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    for (size_t i = order.size(); i > 1; --i) {
      std::swap(order[i - 1], order[rng.Below(static_cast<uint32_t>(i))]);
    }
    for (size_t i : order) g.Instance(insn, all[i]);
    for (size_t i = all.size(); i < 48 && !all.empty(); ++i) {
      g.Instance(insn, all[rng.Below(static_cast<uint32_t>(all.size()))]);
    }
    if (pass == 1) g.Line("join");
  }
  g.Epilogue();
  return g.text();
}

Memory MakeImage(const std::string& source, Rng& rng, const std::string& filename) {
  Memory m(kMemSize);
  Program p = Assemble(source, filename);
  if (kCodeBase + 8 * p.words.size() > kDataBase) throw std::length_error("program too long");
  for (size_t i = 0; i < p.words.size(); ++i) m.Store(kCodeBase + 8 * static_cast<uint32_t>(i), 8, p.words[i]);
  for (uint32_t a = kDataBase; a < kErrBase; a += 8) m.Store(a, 8, rng.Bits());
  m.AddErrorRange(kErrBase, kErrLimit);
  return m;
}

LaunchParams MakeLaunch(unsigned num_lanes, bool partial, Rng& rng) {
  LaunchParams p;
  p.pc_start = kCodeBase;
  p.lanes = partial ? 1 + rng.Below(num_lanes - 1) : 0;
  p.mem_base = 0;
  p.mem_limit = kWindowLimit;
  for (uint32_t& a : p.args) a = static_cast<uint32_t>(rng.Bits());
  return p;
}

}  // namespace sgu::tb
