// SPDX-License-Identifier: Apache-2.0
// Random program generator (see random_program.h).
//
// Register conventions of generated programs: v31 = lane index, v30 = per-lane data address
// (kDataBase + 8 * lane), s31 = kDataBase, s26..s29 = loop counters. Random instructions write
// only v0..v29 and s1..s25, so the conventions hold everywhere.
#include "random_program.h"

#include <cstring>
#include <sstream>
#include <vector>

#include "sgu/asm.h"

namespace sgu::tb {
namespace {

using isa::InsnInfo;

constexpr unsigned kDtI64 = static_cast<unsigned>(isa::Dtype::kI64);
constexpr unsigned kDtU64 = static_cast<unsigned>(isa::Dtype::kU64);
constexpr unsigned kDtF32 = static_cast<unsigned>(isa::Dtype::kF32);

bool Is64(unsigned dt) { return dt == kDtI64 || dt == kDtU64; }

unsigned PickBit(uint16_t mask, Rng& rng) {
  std::vector<unsigned> bits;
  for (unsigned b = 0; b < 16; ++b) {
    if (mask & (1u << b)) bits.push_back(b);
  }
  return bits[rng.Below(static_cast<uint32_t>(bits.size()))];
}

// Interesting f32 bit patterns for fli-free initialisation.
constexpr uint32_t kFloatSpecials[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000,
    0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0x3f000000, 0x4b000000, 0xcf000000,
    0x4f800000, 0x3fc00000, 0x40490fdb, 0x33800000};

class Gen {
 public:
  Gen(unsigned num_lanes, Rng& rng) : n_(num_lanes), rng_(rng) {
    lane_bits_ = num_lanes == 8 ? 3 : num_lanes == 16 ? 4 : 5;
  }

  std::string text() const { return out_.str(); }

  void Line(const std::string& s) { out_ << "  " << s << "\n"; }
  std::string Label() { return "L" + std::to_string(label_++); }
  void Place(const std::string& l) { out_ << l << ":\n"; }

  // ---------------------------------------------------------------- registers
  std::string V(unsigned r) { return "v" + std::to_string(r); }
  std::string S(unsigned r) { return "s" + std::to_string(r); }
  std::string VecDst(bool pair) { return V(pair ? 2 * rng_.Below(15) : rng_.Below(30)); }
  std::string VecSrc(bool pair) { return V(pair ? 2 * rng_.Below(16) : rng_.Below(32)); }
  std::string ScalarDst(bool pair) { return S(pair ? 2 + 2 * rng_.Below(12) : 1 + rng_.Below(25)); }
  std::string ScalarSrc(bool pair) { return S(pair ? 2 + 2 * rng_.Below(15) : rng_.Below(32)); }
  std::string Src(bool scalar, bool pair) { return scalar ? ScalarSrc(pair) : VecSrc(pair); }

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

  // Mnemonic with type and modifier suffixes.
  std::string Mnemonic(const InsnInfo& in, unsigned dt, unsigned mod) {
    std::string m = in.name;
    if (in.dtypes != 1u) m += std::string(".") + isa::kDtypes[dt].name;
    if (in.mod_names == isa::kModNamesSrc) {
      m += std::string(".") + isa::kDtypes[mod].name;
    } else if (in.mod_names[mod] != nullptr) {
      m += std::string(".") + in.mod_names[mod];
    }
    return m;
  }

  // ---------------------------------------------------------------- one instruction
  // Emits one legal instance of `in` (forms with a destination and sources; not control flow,
  // memory or shfl, which have their own generators).
  void Compute(const InsnInfo& in) {
    unsigned dt = PickBit(in.dtypes, rng_);
    unsigned mod = PickBit(in.mods, rng_);
    const isa::Op op = in.op;
    if (op == isa::Op::kCvt) {
      // f32 <-> 64-bit conversions are illegal.
      while ((dt == kDtF32 && Is64(mod)) || (Is64(dt) && mod == kDtF32)) mod = PickBit(in.mods, rng_);
    }
    const bool uniform_result = op == isa::Op::kVote || op == isa::Op::kFirst || op == isa::Op::kCsrr;
    const bool scalar_rd = op != isa::Op::kLane && rng_.Percent(25);
    const bool rd_pair = Is64(dt);
    bool rs1_pair = Is64(dt) && op != isa::Op::kSel;
    if (op == isa::Op::kCvt) rs1_pair = Is64(mod);
    const bool all_scalar = scalar_rd && !uniform_result;
    auto src = [&](bool pair) { return Src(all_scalar || rng_.Percent(30), pair); };
    const std::string rd = scalar_rd ? ScalarDst(rd_pair) : VecDst(rd_pair);
    const std::string mn = Mnemonic(in, dt, mod);
    switch (in.form) {
      case isa::Form::kRRR:
        Line(mn + " " + rd + ", " + src(rs1_pair) + ", " + src(Is64(dt)));
        break;
      case isa::Form::kRRRR:
        Line(mn + " " + rd + ", " + src(rs1_pair) + ", " + src(Is64(dt)) + ", " + src(Is64(dt)));
        break;
      case isa::Form::kRRI:
        Line(mn + " " + rd + ", " + src(rs1_pair) + ", " + std::to_string(Imm()));
        break;
      case isa::Form::kRI:
        if (op == isa::Op::kCsrr) {
          Line(mn + " " + rd + ", " + std::to_string(rng_.Below(4)));
        } else {
          Line(mn + " " + rd + ", " + std::to_string(Imm()));
        }
        break;
      case isa::Form::kRR:
        Line(mn + " " + rd + ", " + src(rs1_pair));
        break;
      case isa::Form::kR:
        Line(mn + " " + rd);
        break;
      default:
        break;
    }
  }

  void Shuffle() {
    static constexpr const char* kModes[] = {"idx", "xor", "down2", "up2", "up", "down", "rotup", "rotdn"};
    const unsigned mode = rng_.Below(8);
    std::string m = std::string("shfl.") + kModes[mode];
    if (mode == 1 || mode >= 4) {
      const unsigned wl = rng_.Below(lane_bits_ + 1);
      if (wl) m += ".w" + std::to_string(1u << wl);
    }
    // Index: mostly a small value so that both in- and out-of-range lanes occur.
    std::string d;
    if (rng_.Percent(60)) {
      d = V(rng_.Below(30));
      Line("andi.u32 " + d + ", " + VecSrc(false) + ", " + std::to_string(2 * n_ + 1));
    } else if (rng_.Percent(50)) {
      d = ScalarDst(false);
      Line("li " + d + ", " + std::to_string(rng_.Range(-2, 2 * n_ + 2)));
    } else {
      d = Src(rng_.Percent(30), false);
    }
    std::string line = m + " " + VecDst(false) + ", " + Src(rng_.Percent(20), false) + ", " + d;
    if (rng_.Percent(70)) line += ", " + Src(rng_.Percent(30), false);
    Line(line);
  }

  void Memory(bool may_trap) {
    const unsigned dt = PickBit(0x1ff, rng_);
    const unsigned size = isa::kDtypes[dt].bits == 64 ? 8 : isa::kDtypes[dt].bits / 8;
    const bool pair = Is64(dt);
    const bool load = rng_.Percent(55);
    const bool scalar_addr = rng_.Percent(30);
    std::string base = scalar_addr ? "s31" : "v30";
    int32_t off = static_cast<int32_t>(8 * rng_.Below(0x5000 / 8));
    if (may_trap) {
      switch (rng_.Below(3)) {
        case 0: off += size > 1 ? 1 : 0; if (size == 1) { base = "s0"; off = kWindowLimit; } break;
        case 1: base = "s0"; off = kWindowLimit - (rng_.Percent(50) ? 0 : 4); break;
        default: base = "s0"; off = kErrBase + 8 * rng_.Below(8); break;
      }
    }
    const std::string mn = std::string(load ? "ld." : "st.") + isa::kDtypes[dt].name;
    const std::string addr = "[" + base + " + " + std::to_string(off) + "]";
    if (load) {
      const bool scalar_rd = base[0] == 's' && rng_.Percent(50);
      Line(mn + " " + (scalar_rd ? ScalarDst(pair) : VecDst(pair)) + ", " + addr);
    } else {
      Line(mn + " " + addr + ", " + Src(rng_.Percent(30), pair));
    }
  }

  void Trap() {
    switch (rng_.Below(6)) {
      case 0: {  // undefined opcode with random other fields
        uint64_t w = rng_.Bits();
        w = (w & ~0xffull) | 0x1d;
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

  // A condition register: lanes differ.
  std::string Condition() {
    const std::string c = V(rng_.Below(30));
    switch (rng_.Below(3)) {
      case 0: Line("cmpi.lt " + c + ", " + VecSrc(false) + ", " + std::to_string(Imm())); break;
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
      const std::string c = Condition();
      const std::string l_else = Label(), l_end = Label();
      Line("split " + c);
      Line("bexz " + l_else);
      Items(1 + rng_.Below(6), depth + 1);
      Place(l_else);
      Line("else");
      Line("bexz " + l_end);
      Items(rng_.Below(6), depth + 1);
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
      Line("mbrk " + Condition());
      Line("addi " + ctr + ", " + ctr + ", -1");
      Line("bz " + ctr + ", " + exit);
      Line("bexnz " + head);
      Place(exit);
      Line("join");
      --divergent_loops_;
    } else {
      // Any computational instruction of the table, uniformly.
      const InsnInfo* in;
      do {
        in = &isa::kInsns[rng_.Below(sizeof(isa::kInsns) / sizeof(isa::kInsns[0]))];
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

  unsigned n_;
  unsigned lane_bits_;
  Rng& rng_;
  std::ostringstream out_;
  unsigned label_ = 0;
  unsigned uniform_loops_ = 0;
  unsigned divergent_loops_ = 0;
};

}  // namespace

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
  g.Prologue();
  for (int pass = 0; pass < 2; ++pass) {
    // Pass 1 runs under a divergent mask (odd lanes and lane 0 off, for instance).
    if (pass == 1) {
      g.Line("andi v29, v31, 1");
      g.Line("cmpi.u32.lt v28, v31, " + std::to_string(num_lanes - 2));
      g.Line("and v29, v29, v28");
      g.Line("split v29");
    }
    for (int rep = 0; rep < 48; ++rep) {
      switch (insn.op) {
        case isa::Op::kShfl: g.Shuffle(); break;
        case isa::Op::kLd:
        case isa::Op::kSt: g.Memory(false); break;
        default:
          if (Gen::IsCompute(insn)) g.Compute(insn);
          break;
      }
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
