// SPDX-License-Identifier: Apache-2.0
// Differential test of the compiler (Csmith-style): random OpenCL C kernels with nested
// divergent control flow (if/else, loops with per-lane trip counts, break, continue), integer
// arithmetic of every kind the compiler selects (including division), and sub-group shuffles
// and votes, compiled with the real clang-15 / llvm-spirv-15 / SGU compiler and run on the
// golden model (the first few also on the RTL in lockstep). The same program is evaluated here by a small interpreter of the generated
// syntax tree, per work-item (shuffles and votes across the sub-group, with the SGU's rules for
// inactive and out-of-range lanes), and every output word must agree.
//
// One 64-bit seed per program, printed on failure; SGU_FUZZ_PROGRAMS sets the count (default 24).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sgu/compiler.h"
#include "sgu/driver.h"

namespace sgu {
namespace {

constexpr int kVars = 4;  // uint a, b, c, d

// Reproducible randomness: raw mt19937_64 output mapped by hand (STYLE.md rule 15).
class Rng {
 public:
  explicit Rng(uint64_t seed) : g_(seed) {}
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>(g_() % n); }
  bool Chance(uint32_t percent) { return Below(100) < percent; }

 private:
  std::mt19937_64 g_;
};

// ---- syntax tree ------------------------------------------------------------------------------

struct Expr {
  enum Kind { kConst, kVar, kX, kLane, kGid, kBin, kSel, kCmp } kind = kConst;
  uint32_t value = 0;  // kConst
  int var = 0;         // kVar
  char op = '+';       // kBin: + - * ^ & | < (shl) > (shr) / % m (min) M (max); kCmp: < = !
  std::unique_ptr<Expr> a, b, c;
};

struct Stmt {
  enum Kind { kAssign, kIf, kLoop, kBreak, kContinue, kShuffle, kVote } kind = kAssign;
  int var = 0;
  std::unique_ptr<Expr> e;                 // value, condition, trip count, shuffle index
  std::vector<std::unique_ptr<Stmt>> body, other;  // then/else, loop body
  int mode = 0;  // kShuffle: 0 idx, 1 xor, 2 down; kVote: 0 any, 1 all
};

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}

  std::unique_ptr<Expr> Gen(int depth) {
    auto e = std::make_unique<Expr>();
    const uint32_t r = rng_.Below(depth <= 0 ? 5 : 12);
    if (r == 0) {
      e->kind = Expr::kConst;
      const uint32_t k = rng_.Below(4);
      e->value = k == 0 ? rng_.Below(16) : k == 1 ? rng_.Below(100000) : k == 2 ? 0xffffffffu - rng_.Below(8)
                                                                              : (rng_.Below(1u << 16) << 16) | rng_.Below(1u << 16);
    } else if (r <= 2) {
      e->kind = Expr::kVar;
      e->var = static_cast<int>(rng_.Below(kVars));
    } else if (r == 3) {
      e->kind = rng_.Chance(50) ? Expr::kX : Expr::kLane;
    } else if (r == 4) {
      e->kind = Expr::kGid;
    } else if (r <= 9) {
      static const char kOps[] = "+-*^&|<>/%mM";
      e->kind = Expr::kBin;
      e->op = kOps[rng_.Below(sizeof kOps - 1)];
      e->a = Gen(depth - 1);
      e->b = Gen(depth - 1);
    } else if (r == 10) {
      e->kind = Expr::kSel;
      e->a = GenCond(depth - 1);
      e->b = Gen(depth - 1);
      e->c = Gen(depth - 1);
    } else {
      e = GenCond(depth - 1);
    }
    return e;
  }

  std::unique_ptr<Expr> GenCond(int depth) {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::kCmp;
    static const char kOps[] = "<=!";
    e->op = kOps[rng_.Below(3)];
    e->a = Gen(depth);
    e->b = Gen(depth);
    return e;
  }

  // A block of statements; loop_depth > 0 allows break/continue; top-level blocks may hold
  // shuffles and votes (all lanes of the launch active there).
  std::vector<std::unique_ptr<Stmt>> Block(int depth, int loop_depth, bool top) {
    std::vector<std::unique_ptr<Stmt>> out;
    const uint32_t n = 1 + rng_.Below(top ? 6 : 3);
    for (uint32_t i = 0; i < n; ++i) {
      auto s = std::make_unique<Stmt>();
      const uint32_t r = rng_.Below(10);
      if (top && r == 0) {
        s->kind = Stmt::kShuffle;
        s->var = static_cast<int>(rng_.Below(kVars));
        s->mode = static_cast<int>(rng_.Below(3));
        s->e = Gen(1);
      } else if (top && r == 1) {
        s->kind = Stmt::kVote;
        s->var = static_cast<int>(rng_.Below(kVars));
        s->mode = static_cast<int>(rng_.Below(2));
        s->e = GenCond(1);
      } else if (depth > 0 && r <= 3) {
        s->kind = Stmt::kIf;
        s->e = GenCond(2);
        s->body = Block(depth - 1, loop_depth, false);
        if (rng_.Chance(60)) s->other = Block(depth - 1, loop_depth, false);
      } else if (depth > 0 && r <= 5) {
        s->kind = Stmt::kLoop;
        s->e = Gen(2);
        s->body = Block(depth - 1, loop_depth + 1, false);
      } else if (loop_depth > 0 && r == 6) {
        // if (cond) break/continue
        s->kind = Stmt::kIf;
        s->e = GenCond(1);
        auto bc = std::make_unique<Stmt>();
        bc->kind = rng_.Chance(50) ? Stmt::kBreak : Stmt::kContinue;
        s->body.push_back(std::move(bc));
      } else {
        s->kind = Stmt::kAssign;
        s->var = static_cast<int>(rng_.Below(kVars));
        s->e = Gen(3);
      }
      out.push_back(std::move(s));
    }
    return out;
  }

 private:
  Rng rng_;
};

// ---- OpenCL C text -----------------------------------------------------------------------------

const char kVarNames[kVars] = {'a', 'b', 'c', 'd'};

std::string Text(const Expr& e) {
  switch (e.kind) {
    case Expr::kConst: return std::to_string(e.value) + "u";
    case Expr::kVar: return std::string(1, kVarNames[e.var]);
    case Expr::kX: return "x";
    case Expr::kLane: return "lane";
    case Expr::kGid: return "gid";
    case Expr::kSel: return "(" + Text(*e.a) + " ? " + Text(*e.b) + " : " + Text(*e.c) + ")";
    case Expr::kCmp: {
      const char* op = e.op == '<' ? " < " : e.op == '=' ? " == " : " != ";
      return "(uint)(" + Text(*e.a) + op + Text(*e.b) + ")";
    }
    case Expr::kBin: {
      const std::string a = Text(*e.a), b = Text(*e.b);
      switch (e.op) {
        case '<': return "(" + a + " << (" + b + " & 31u))";
        case '>': return "(" + a + " >> (" + b + " & 31u))";
        case '/': return "(" + a + " / (" + b + " | 1u))";
        case '%': return "(" + a + " % (" + b + " | 1u))";
        case 'm': return "min(" + a + ", " + b + ")";
        case 'M': return "max(" + a + ", " + b + ")";
        default: return "(" + a + " " + e.op + " " + b + ")";
      }
    }
  }
  return "0u";
}

void Text(const std::vector<std::unique_ptr<Stmt>>& block, int indent, int* loop_id,
          std::ostringstream& os) {
  const std::string pad(static_cast<size_t>(indent) * 2, ' ');
  for (const auto& s : block) {
    switch (s->kind) {
      case Stmt::kAssign:
        os << pad << kVarNames[s->var] << " = " << Text(*s->e) << ";\n";
        break;
      case Stmt::kIf:
        os << pad << "if (" << Text(*s->e) << ") {\n";
        Text(s->body, indent + 1, loop_id, os);
        if (!s->other.empty()) {
          os << pad << "} else {\n";
          Text(s->other, indent + 1, loop_id, os);
        }
        os << pad << "}\n";
        break;
      case Stmt::kLoop: {
        const int id = (*loop_id)++;
        // The trip count is evaluated once (the body may change what it reads).
        os << pad << "for (uint i" << id << " = 0, n" << id << " = (" << Text(*s->e) << ") % 5u; i"
           << id << " < n" << id << "; ++i" << id << ") {\n";
        Text(s->body, indent + 1, loop_id, os);
        os << pad << "}\n";
        break;
      }
      case Stmt::kBreak: os << pad << "break;\n"; break;
      case Stmt::kContinue: os << pad << "continue;\n"; break;
      case Stmt::kShuffle: {
        const char v = kVarNames[s->var];
        const std::string idx = Text(*s->e);
        if (s->mode == 0) {
          os << pad << v << " = intel_sub_group_shuffle(" << v << ", (" << idx
             << ") % get_max_sub_group_size());\n";
        } else if (s->mode == 1) {
          os << pad << v << " = intel_sub_group_shuffle_xor(" << v << ", (" << idx << ") & 7u);\n";
        } else {
          os << pad << v << " = intel_sub_group_shuffle_down(" << v << ", " << v << " + 1u, (" << idx
             << ") & 7u);\n";
        }
        break;
      }
      case Stmt::kVote:
        os << pad << kVarNames[s->var] << " += (uint)" << (s->mode == 0 ? "sub_group_any(" : "sub_group_all(")
           << "(int)" << Text(*s->e) << ");\n";
        break;
    }
  }
}

std::string Kernel(const std::vector<std::unique_ptr<Stmt>>& prog) {
  std::ostringstream os;
  os << "__kernel void k(__global const uint* in, __global uint* out) {\n"
        "  const uint gid = (uint)get_global_id(0);\n"
        "  const uint lane = get_sub_group_local_id();\n"
        "  const uint x = in[gid];\n"
        "  uint a = x, b = x * 3u + 1u, c = gid, d = 7u;\n";
  int loop_id = 0;
  Text(prog, 1, &loop_id, os);
  os << "  out[gid] = a ^ (b * 3u) ^ (c * 5u) ^ (d * 7u);\n}\n";
  return os.str();
}

// ---- interpreter ---------------------------------------------------------------------------------

struct LaneState {
  uint32_t v[kVars];
  uint32_t x, lane, gid;
};

uint32_t Eval(const Expr& e, const LaneState& s) {
  switch (e.kind) {
    case Expr::kConst: return e.value;
    case Expr::kVar: return s.v[e.var];
    case Expr::kX: return s.x;
    case Expr::kLane: return s.lane;
    case Expr::kGid: return s.gid;
    case Expr::kSel: return Eval(*e.a, s) ? Eval(*e.b, s) : Eval(*e.c, s);
    case Expr::kCmp: {
      const uint32_t a = Eval(*e.a, s), b = Eval(*e.b, s);
      return e.op == '<' ? a < b : e.op == '=' ? a == b : a != b;
    }
    case Expr::kBin: {
      const uint32_t a = Eval(*e.a, s), b = Eval(*e.b, s);
      switch (e.op) {
        case '+': return a + b;
        case '-': return a - b;
        case '*': return a * b;
        case '^': return a ^ b;
        case '&': return a & b;
        case '|': return a | b;
        case '<': return a << (b & 31u);
        case '>': return a >> (b & 31u);
        case '/': return a / (b | 1u);
        case '%': return a % (b | 1u);
        case 'm': return a < b ? a : b;
        case 'M': return a > b ? a : b;
      }
    }
  }
  return 0;
}

enum class Flow { kNormal, kBreak, kContinue };

// One lane through a nested (non-top-level) block.
Flow Run(const std::vector<std::unique_ptr<Stmt>>& block, LaneState& s) {
  for (const auto& st : block) {
    switch (st->kind) {
      case Stmt::kAssign: s.v[st->var] = Eval(*st->e, s); break;
      case Stmt::kIf: {
        const Flow f = Eval(*st->e, s) ? Run(st->body, s) : Run(st->other, s);
        if (f != Flow::kNormal) return f;
        break;
      }
      case Stmt::kLoop: {
        const uint32_t n = Eval(*st->e, s) % 5u;
        for (uint32_t i = 0; i < n; ++i) {
          if (Run(st->body, s) == Flow::kBreak) break;
        }
        break;
      }
      case Stmt::kBreak: return Flow::kBreak;
      case Stmt::kContinue: return Flow::kContinue;
      default: break;  // shuffles and votes only at the top level
    }
  }
  return Flow::kNormal;
}

// Runs the program for one sub-group of `active` lanes (of `simd`) and returns out per lane.
std::vector<uint32_t> RunSubGroup(const std::vector<std::unique_ptr<Stmt>>& prog,
                                  std::vector<LaneState> lanes, unsigned simd, unsigned active) {
  for (const auto& st : prog) {
    if (st->kind == Stmt::kShuffle) {
      std::vector<uint32_t> old(simd, 0);
      for (unsigned l = 0; l < active; ++l) old[l] = lanes[l].v[st->var];
      for (unsigned l = 0; l < active; ++l) {
        const uint32_t idx = Eval(*st->e, lanes[l]);
        uint32_t r = 0;
        if (st->mode == 0) {
          const uint32_t j = idx % simd;  // source lane; beyond `active` reads as the default 0
          r = j < active ? old[j] : 0;
        } else if (st->mode == 1) {
          const uint32_t j = l ^ (idx & 7u);
          r = j < simd && j < active ? old[j] : 0;
        } else {
          const uint32_t k = l + (idx & 7u);  // index into cur || next, next = cur + 1
          if (k < simd) r = k < active ? old[k] : 0;
          else r = k - simd < active ? old[k - simd] + 1u : 0;
        }
        lanes[l].v[st->var] = r;
      }
    } else if (st->kind == Stmt::kVote) {
      bool any = false, all = true;
      for (unsigned l = 0; l < active; ++l) {
        const bool c = Eval(*st->e, lanes[l]) != 0;
        any = any || c;
        all = all && c;
      }
      for (unsigned l = 0; l < active; ++l) lanes[l].v[st->var] += (st->mode == 0 ? any : all) ? 1u : 0u;
    } else {
      std::vector<std::unique_ptr<Stmt>> one;  // run this statement per lane
      for (unsigned l = 0; l < active; ++l) {
        LaneState& s = lanes[l];
        switch (st->kind) {
          case Stmt::kAssign: s.v[st->var] = Eval(*st->e, s); break;
          case Stmt::kIf: (Eval(*st->e, s) ? Run(st->body, s) : Run(st->other, s)); break;
          case Stmt::kLoop: {
            const uint32_t n = Eval(*st->e, s) % 5u;
            for (uint32_t i = 0; i < n; ++i) {
              if (Run(st->body, s) == Flow::kBreak) break;
            }
            break;
          }
          default: break;
        }
      }
    }
  }
  std::vector<uint32_t> out(active);
  for (unsigned l = 0; l < active; ++l) {
    const uint32_t* v = lanes[l].v;
    out[l] = v[0] ^ (v[1] * 3u) ^ (v[2] * 5u) ^ (v[3] * 7u);
  }
  return out;
}

// ---- the test -------------------------------------------------------------------------------------

// Compiles `prog` and runs it on the golden model at SIMD 8, 16 and 32 against the interpreter.
// Returns "" when every output agrees, else what differs (with the kernel's text).
std::string CheckProgram(const std::vector<std::unique_ptr<Stmt>>& prog, uint64_t seed,
                         const std::string& tag,
                         driver::Backend backend = driver::Backend::kGolden,
                         std::vector<unsigned> widths = {8, 16, 32}) {
  const std::string src = Kernel(prog);
  const std::string path = ::testing::TempDir() + "/sgu_fuzz_" + tag + ".cl";
  std::ofstream(path) << src;
  Binary bin;
  try {
    bin = compiler::CompileFile(path, compiler::Options{});
  } catch (const std::exception& e) {
    return std::string("does not compile:\n") + e.what() + "\n" + src;
  }
  for (unsigned simd : widths) {
    // A local size that leaves a partial sub-group.
    const uint32_t local = simd + simd / 2 + 1, groups = 2, n = local * groups;
    Rng data(seed ^ simd);
    std::vector<uint32_t> in(n);
    for (uint32_t& w : in) {
      if (data.Chance(30)) {
        w = data.Below(8);
      } else {
        const uint32_t hi = data.Below(1u << 31);
        w = hi * 2u + data.Below(2);
      }
    }
    driver::DeviceOptions o;
    o.backend = backend;
    o.simd = simd;
    o.watchdog_cycles = 10000000;
    o.random_axi = backend != driver::Backend::kGolden;
    o.seed = seed;
    driver::Device dev(o);
    driver::Launch l(dev, bin, "k");
    std::vector<uint8_t> bytes(n * 4);
    std::memcpy(bytes.data(), in.data(), bytes.size());
    l.SetBuffer("in", bytes);
    l.SetZeros("out", n * 4);
    const driver::Result r = l.Run({n}, {local});
    if (r.status != driver::Status::kOk) return r.Message() + "\n" + src;
    const std::vector<uint8_t> ob = l.Contents("out");
    std::vector<uint32_t> out(n);
    std::memcpy(out.data(), ob.data(), ob.size());
    for (uint32_t g = 0; g < groups; ++g) {
      for (uint32_t sg = 0; sg * simd < local; ++sg) {
        const unsigned active = std::min(simd, local - sg * simd);
        std::vector<LaneState> lanes(simd);
        for (unsigned l2 = 0; l2 < active; ++l2) {
          const uint32_t gid = g * local + sg * simd + l2;
          LaneState& st = lanes[l2];
          st.x = in[gid];
          st.lane = l2;
          st.gid = gid;
          st.v[0] = st.x;
          st.v[1] = st.x * 3u + 1u;
          st.v[2] = gid;
          st.v[3] = 7u;
        }
        const std::vector<uint32_t> want = RunSubGroup(prog, lanes, simd, active);
        for (unsigned l2 = 0; l2 < active; ++l2) {
          const uint32_t gid = g * local + sg * simd + l2;
          if (out[gid] != want[l2]) {
            std::ostringstream os;
            os << "SIMD " << simd << " global " << n << " local " << local << " work-item " << gid
               << " (in " << in[gid] << "): SGU " << out[gid] << ", interpreter " << want[l2]
               << "\n" << src;
            return os.str();
          }
        }
      }
    }
  }
  return "";
}

TEST(CompilerFuzzTest, RandomKernelsMatchTheInterpreter) {
  const char* env = std::getenv("SGU_FUZZ_PROGRAMS");
  const int programs = env ? std::atoi(env) : 24;
  const char* seed_env = std::getenv("SGU_SEED");
  const uint64_t base = seed_env ? std::strtoull(seed_env, nullptr, 0) : 0x5a5a2026ull;
  for (int p = 0; p < programs; ++p) {
    const uint64_t seed = base + static_cast<uint64_t>(p) * 0x9e3779b97f4a7c15ull;
    Generator gen(seed);
    auto prog = gen.Block(3, 0, true);
    std::string why = CheckProgram(prog, seed, std::to_string(p));
    // The first programs also run on the RTL in lockstep (random AXI timing): the compiled
    // code is what the hardware executes, and the cosim compares every instruction.
    if (why.empty() && p < 4) {
      why = CheckProgram(prog, seed, std::to_string(p) + "_cosim", driver::Backend::kCosim, {16});
      if (!why.empty()) {
        FAIL() << "program " << p << ", seed 0x" << std::hex << seed << " on cosim: " << why;
      }
    }
    if (why.empty()) continue;
    // Reduce: the shortest prefix of top-level statements that still differs.
    std::string reduced = why;
    for (size_t k = 1; k < prog.size(); ++k) {
      std::vector<std::unique_ptr<Stmt>> prefix;
      for (size_t i = 0; i < k; ++i) prefix.push_back(std::move(prog[i]));
      const std::string w = CheckProgram(prefix, seed, std::to_string(p) + "_prefix");
      for (size_t i = 0; i < k; ++i) prog[i] = std::move(prefix[i]);
      if (!w.empty()) {
        reduced = w;
        break;
      }
    }
    // Then greedily delete nested statements while it still differs (bounded effort).
    std::vector<std::unique_ptr<Stmt>> small;
    for (auto& st : prog) small.push_back(std::move(st));
    while (!small.empty() && CheckProgram(small, seed, std::to_string(p) + "_r").empty()) {
      small.pop_back();  // keep only the shortest failing prefix
    }
    std::vector<std::vector<std::unique_ptr<Stmt>>*> blocks;
    std::function<void(std::vector<std::unique_ptr<Stmt>>&)> collect =
        [&](std::vector<std::unique_ptr<Stmt>>& b) {
          blocks.push_back(&b);
          for (auto& st : b) {
            collect(st->body);
            collect(st->other);
          }
        };
    // After each successful deletion the block list is collected anew (the deleted statement's
    // own blocks are gone).
    for (int tries = 0; tries < 200;) {
      blocks.clear();
      collect(small);
      bool changed = false;
      for (size_t bi = 0; bi < blocks.size() && !changed; ++bi) {
        auto* b = blocks[bi];
        for (size_t i = 0; i < b->size() && !changed; ++i, ++tries) {
          std::unique_ptr<Stmt> removed = std::move((*b)[i]);
          b->erase(b->begin() + static_cast<long>(i));
          const std::string w = CheckProgram(small, seed, std::to_string(p) + "_r");
          if (!w.empty()) {
            reduced = w;
            changed = true;
          } else {
            b->insert(b->begin() + static_cast<long>(i), std::move(removed));
          }
        }
      }
      if (!changed) break;
    }
    FAIL() << "program " << p << ", seed 0x" << std::hex << seed << std::dec
           << " (rerun: SGU_SEED=0x" << std::hex << seed << " SGU_FUZZ_PROGRAMS=1)\n"
           << "reduced: " << reduced;
  }
}

}  // namespace
}  // namespace sgu
