// SPDX-License-Identifier: Apache-2.0
// Register allocation for the SGU compiler (mir.h): dead-code elimination, liveness, an
// interference graph per register file, optimistic graph colouring with even/odd pairs, and
// spilling to memory (vector registers to each lane's private area, scalar registers to the
// sub-group descriptor), repeated until every value has a register.
//
// Two liveness analyses, because the two register files are written differently:
//  * a vector register is written only in the lanes that execute the instruction, and each
//    lane follows its own path through the kernel's control-flow graph, so vector liveness is
//    computed per lane, on that graph (MBlock::succs);
//  * a scalar register is written whatever the mask, so scalar liveness is computed on the
//    machine code as it runs: the layout order with its guard skips and loop jumps.
#include <algorithm>
#include <map>
#include <set>

#include "mir.h"
#include "sgu/binary.h"
#include "sgu/compiler.h"

namespace sgu::compiler {

namespace {

using isa::Op;

bool HasSideEffect(const MInsn& mi) {
  switch (mi.op) {
    case Op::kSt:
    case Op::kBr:
    case Op::kBz:
    case Op::kBnz:
    case Op::kBexz:
    case Op::kBexnz:
    case Op::kSplit:
    case Op::kElse:
    case Op::kJoin:
    case Op::kMpush:
    case Op::kMbrk:
    case Op::kHalt:
    case Op::kTrap:
      return true;
    default:
      return false;
  }
}

bool IsBranch(Op op) {
  return op == Op::kBr || op == Op::kBz || op == Op::kBnz || op == Op::kBexz || op == Op::kBexnz;
}

// rd is a partial write: the old value survives in part (not a kill; also a use).
bool PartialDef(const MInsn& mi) { return mi.rd_partial || mi.rd.part == Opnd::kHi; }

template <typename F>
void ForUses(const MInsn& mi, F f) {
  for (const Opnd* o : {&mi.rs1, &mi.rs2, &mi.rs3}) {
    if (o->virt()) f(o->idx);
  }
  if (mi.rd.virt() && PartialDef(mi)) f(mi.rd.idx);
}

void Dce(MFunction& f) {
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<int> uses(f.vregs.size(), 0);
    for (const MBlock& b : f.blocks) {
      for (const MInsn& mi : b.insns) {
        ForUses(mi, [&](int v) { uses[v]++; });
      }
    }
    for (MBlock& b : f.blocks) {
      auto it = std::remove_if(b.insns.begin(), b.insns.end(), [&](const MInsn& mi) {
        return !mi.is_label() && !HasSideEffect(mi) && mi.rd.virt() && uses[mi.rd.idx] == 0;
      });
      if (it != b.insns.end()) {
        b.insns.erase(it, b.insns.end());
        changed = true;
      }
    }
  }
}

struct Graph {
  std::vector<std::set<int>> adj;
  void Edge(int a, int b) {
    if (a == b) return;
    adj[a].insert(b);
    adj[b].insert(a);
  }
};

// Backward walk of one straight-line list of instructions from `live`, adding interference for
// vregs of the chosen class.
void Walk(const std::vector<const MInsn*>& insns, std::set<int> live, const MFunction& f,
          bool scalar, Graph* g, std::set<int>* live_in) {
  auto in_class = [&](int v) { return f.vregs[v].scalar == scalar; };
  for (auto it = insns.rbegin(); it != insns.rend(); ++it) {
    const MInsn& mi = **it;
    if (mi.is_label()) continue;
    if (mi.rd.virt() && in_class(mi.rd.idx)) {
      const int d = mi.rd.idx;
      if (g) {
        for (int l : live) g->Edge(d, l);
      }
      if (!PartialDef(mi)) live.erase(d);
    }
    ForUses(mi, [&](int v) {
      if (in_class(v)) live.insert(v);
    });
  }
  if (live_in) *live_in = std::move(live);
}

// Vector interference: per-lane liveness on the kernel's control-flow graph.
Graph VectorGraph(const MFunction& f) {
  const size_t n = f.blocks.size();
  std::vector<std::vector<const MInsn*>> lists(n);
  for (size_t b = 0; b < n; ++b) {
    for (const MInsn& mi : f.blocks[b].insns) lists[b].push_back(&mi);
  }
  std::vector<std::set<int>> live_in(n), live_out(n);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = n; i-- > 0;) {
      std::set<int> out;
      for (int s : f.blocks[i].succs) out.insert(live_in[s].begin(), live_in[s].end());
      std::set<int> in;
      Walk(lists[i], out, f, false, nullptr, &in);
      if (in != live_in[i] || out != live_out[i]) {
        live_in[i] = std::move(in);
        live_out[i] = std::move(out);
        changed = true;
      }
    }
  }
  Graph g;
  g.adj.resize(f.vregs.size());
  for (size_t i = 0; i < n; ++i) Walk(lists[i], live_out[i], f, false, &g, nullptr);
  return g;
}

// Scalar interference: liveness on the machine code as laid out.
Graph ScalarGraph(const MFunction& f) {
  std::vector<const MInsn*> all;
  for (const MBlock& b : f.blocks) {
    for (const MInsn& mi : b.insns) all.push_back(&mi);
  }
  // Basic blocks: start at labels and after branches.
  std::vector<std::vector<const MInsn*>> bbs;
  std::map<int, size_t> label_bb;
  for (const MInsn* mi : all) {
    if (bbs.empty() || mi->is_label()) {
      if (bbs.empty() || !bbs.back().empty()) bbs.emplace_back();
    }
    if (mi->is_label()) label_bb[mi->label] = bbs.size() - 1;
    bbs.back().push_back(mi);
    if (!mi->is_label() && (IsBranch(mi->op) || mi->op == Op::kHalt)) bbs.emplace_back();
  }
  const size_t n = bbs.size();
  std::vector<std::vector<size_t>> succ(n);
  for (size_t i = 0; i < n; ++i) {
    const MInsn* last = nullptr;
    for (const MInsn* mi : bbs[i]) {
      if (!mi->is_label()) last = mi;
    }
    const bool falls = !last || (last->op != Op::kBr && last->op != Op::kHalt);
    if (falls && i + 1 < n) succ[i].push_back(i + 1);
    if (last && IsBranch(last->op)) succ[i].push_back(label_bb.at(last->target));
  }
  std::vector<std::set<int>> live_in(n), live_out(n);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = n; i-- > 0;) {
      std::set<int> out;
      for (size_t s : succ[i]) out.insert(live_in[s].begin(), live_in[s].end());
      std::set<int> in;
      Walk(bbs[i], out, f, true, nullptr, &in);
      if (in != live_in[i] || out != live_out[i]) {
        live_in[i] = std::move(in);
        live_out[i] = std::move(out);
        changed = true;
      }
    }
  }
  Graph g;
  g.adj.resize(f.vregs.size());
  for (size_t i = 0; i < n; ++i) Walk(bbs[i], live_out[i], f, true, &g, nullptr);
  return g;
}

// Optimistic colouring (smallest-last order). Returns colours (physical numbers within the
// file, 0..31), -1 for values that must be spilled.
std::vector<int> Color(const MFunction& f, const Graph& g, bool scalar,
                       const std::vector<bool>& allowed) {
  std::vector<int> nodes;
  for (size_t v = 0; v < f.vregs.size(); ++v) {
    if (f.vregs[v].scalar == scalar) nodes.push_back(static_cast<int>(v));
  }
  std::vector<int> color(f.vregs.size(), -1);
  std::map<int, int> degree;
  for (int v : nodes) {
    int d = 0;
    for (int u : g.adj[v]) d += f.vregs[u].pair ? 2 : 1;
    degree[v] = d;
  }
  // Spill temporaries (a few instructions long) are simplified last, so they are coloured
  // first: when registers run out, a long-lived value is spilled instead of them.
  auto key = [&](int v) { return degree[v] + (f.vregs[v].spill_temp ? 1000000 : 0); };
  std::vector<int> stack;
  std::set<int> removed;
  std::set<std::pair<int, int>> q;
  for (int v : nodes) q.insert({key(v), v});
  while (!q.empty()) {
    const int v = q.begin()->second;
    q.erase(q.begin());
    removed.insert(v);
    stack.push_back(v);
    for (int u : g.adj[v]) {
      if (removed.count(u) || f.vregs[u].scalar != scalar) continue;
      q.erase({key(u), u});
      degree[u] -= f.vregs[v].pair ? 2 : 1;
      q.insert({key(u), u});
    }
  }
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    std::vector<bool> used(32, false);
    for (int u : g.adj[v]) {
      if (color[u] < 0) continue;
      used[color[u]] = true;
      if (f.vregs[u].pair) used[color[u] + 1] = true;
    }
    const bool pair = f.vregs[v].pair;
    for (int c = 0; c < 32; c += pair ? 2 : 1) {
      if (!allowed[c] || used[c]) continue;
      if (pair && (c + 1 >= 32 || !allowed[c + 1] || used[c + 1])) continue;
      color[v] = c;
      break;
    }
  }
  return color;
}

// Instruction that loads/stores a spill slot.
MInsn SpillInsn(bool load, Opnd reg, bool pair, Opnd base, int32_t off, const MInsn& at) {
  MInsn mi;
  mi.op = load ? Op::kLd : Op::kSt;
  mi.dt = static_cast<unsigned>(pair ? isa::Dtype::kU64 : isa::Dtype::kU32);
  if (load) {
    mi.rd = reg;
    mi.rs1 = base;
  } else {
    mi.rs1 = base;
    mi.rs2 = reg;
  }
  mi.imm = off;
  mi.file = at.file;
  mi.line = at.line;
  return mi;
}

constexpr unsigned kRegS2 = 34;

void Spill(MFunction& f, const std::vector<int>& victims) {
  std::map<int, int32_t> slot;
  for (int v : victims) {
    const VRegInfo& info = f.vregs[v];
    if (info.scalar) {
      f.scalar_spill_bytes = (f.scalar_spill_bytes + 7) / 8 * 8;
      slot[v] = static_cast<int32_t>(abi::kSgScalarSpill + f.scalar_spill_bytes);
      f.scalar_spill_bytes += info.pair ? 8 : 4;
    } else {
      f.private_bytes = (f.private_bytes + 7) / 8 * 8;
      slot[v] = static_cast<int32_t>(f.private_bytes);
      f.private_bytes += info.pair ? 8 : 4;
    }
  }
  for (MBlock& b : f.blocks) {
    std::vector<MInsn> out;
    for (const MInsn& mi0 : b.insns) {
      MInsn mi = mi0;
      std::vector<MInsn> after;
      std::map<int, Opnd> loaded;  // victim -> temp holding it for this instruction
      auto base_of = [&](int v) {
        return f.vregs[v].scalar ? Opnd::Phys(kRegS2) : Opnd{Opnd::kPhys, Opnd::kWhole, -1};
      };
      auto temp_for = [&](int v) {
        auto it = loaded.find(v);
        if (it != loaded.end()) return it->second.idx;
        f.vregs.push_back(VRegInfo{f.vregs[v].scalar, f.vregs[v].pair, true});
        const int t = static_cast<int>(f.vregs.size()) - 1;
        loaded[v] = Opnd::Virt(t);
        return t;
      };
      auto use = [&](Opnd& o) {
        if (!o.virt() || !slot.count(o.idx)) return;
        const int v = o.idx;
        const bool fresh = !loaded.count(v);
        const int t = temp_for(v);
        if (fresh) out.push_back(SpillInsn(true, Opnd::Virt(t), f.vregs[v].pair, base_of(v), slot[v], mi));
        o.idx = t;
      };
      if (mi.is_label()) {
        out.push_back(mi);
        continue;
      }
      use(mi.rs1);
      use(mi.rs2);
      use(mi.rs3);
      if (mi.rd.virt() && slot.count(mi.rd.idx)) {
        const int v = mi.rd.idx;
        if (PartialDef(mi)) {
          Opnd whole = Opnd::Virt(v);
          use(whole);
        }
        const int t = temp_for(v);
        mi.rd.idx = t;
        after.push_back(SpillInsn(false, Opnd::Virt(t), f.vregs[v].pair, base_of(v), slot[v], mi));
      }
      out.push_back(mi);
      out.insert(out.end(), after.begin(), after.end());
    }
    b.insns = std::move(out);
  }
}

bool UsesPrivate(const MFunction& f) {
  for (const MBlock& b : f.blocks) {
    for (const MInsn& mi : b.insns) {
      for (const Opnd* o : {&mi.rs1, &mi.rs2, &mi.rs3}) {
        if (o->kind == Opnd::kPhys && o->idx == -1) return true;
      }
    }
  }
  return false;
}

}  // namespace

void AllocateRegisters(MFunction& f) {
  Dce(f);
  std::vector<bool> allowed_v(32, true), allowed_s(32, true);
  for (unsigned r : f.reserved_v) allowed_v[r] = false;
  allowed_s[0] = allowed_s[1] = allowed_s[2] = false;
  for (unsigned r : f.reserved_s) allowed_s[r] = false;
  int vpriv = -1;
  std::vector<int> vcolor, scolor;
  for (int round = 0;; ++round) {
    if (round > 12) {
      throw CompileError("error: kernel '" + f.kernel_name +
                         "': register allocation did not converge (please report this kernel)");
    }
    if (vpriv < 0 && UsesPrivate(f)) {
      for (int r = 31; r >= 0; --r) {
        if (allowed_v[r]) {
          vpriv = r;
          allowed_v[r] = false;
          break;
        }
      }
    }
    Graph vg = VectorGraph(f), sg = ScalarGraph(f);
    vcolor = Color(f, vg, false, allowed_v);
    scolor = Color(f, sg, true, allowed_s);
    std::vector<int> victims;
    for (size_t v = 0; v < f.vregs.size(); ++v) {
      const int c = f.vregs[v].scalar ? scolor[v] : vcolor[v];
      if (c >= 0) continue;
      if (f.vregs[v].spill_temp) {
        throw CompileError("error: kernel '" + f.kernel_name +
                           "': too many values live at once in one instruction (register "
                           "allocation failed)");
      }
      victims.push_back(static_cast<int>(v));
    }
    if (victims.empty()) break;
    Spill(f, victims);
  }
  // Private base set-up at the kernel entry: base + lane * private_bytes.
  if (vpriv >= 0) {
    MBlock& e = f.blocks.front();
    std::vector<MInsn> pro;
    MInsn ld;
    ld.op = Op::kLd;
    ld.dt = static_cast<unsigned>(isa::Dtype::kU32);
    ld.rd = Opnd::Phys(35);  // s3: nothing is live yet at the entry
    ld.rs1 = Opnd::Phys(kRegS2);
    ld.imm = static_cast<int32_t>(abi::kSgPrivateBase);
    pro.push_back(ld);
    MInsn lane;
    lane.op = Op::kLane;
    lane.dt = static_cast<unsigned>(isa::Dtype::kI32);
    lane.rd = Opnd::Phys(static_cast<unsigned>(vpriv));
    pro.push_back(lane);
    MInsn mul;
    mul.op = Op::kMuli;
    mul.dt = static_cast<unsigned>(isa::Dtype::kU32);
    mul.rd = mul.rs1 = Opnd::Phys(static_cast<unsigned>(vpriv));
    mul.imm_private_bytes = true;
    pro.push_back(mul);
    MInsn add;
    add.op = Op::kAdd;
    add.dt = static_cast<unsigned>(isa::Dtype::kU32);
    add.rd = add.rs1 = Opnd::Phys(static_cast<unsigned>(vpriv));
    add.rs2 = Opnd::Phys(35);
    pro.push_back(add);
    size_t at = 0;
    while (at < e.insns.size() && e.insns[at].is_label()) ++at;
    e.insns.insert(e.insns.begin() + static_cast<long>(at), pro.begin(), pro.end());
  }
  f.vpriv = vpriv < 0 ? 0 : static_cast<unsigned>(vpriv);
  // Rewrite to physical registers.
  for (MBlock& b : f.blocks) {
    for (MInsn& mi : b.insns) {
      for (Opnd* o : {&mi.rd, &mi.rs1, &mi.rs2, &mi.rs3}) {
        if (o->kind == Opnd::kPhys && o->idx == -1) {
          *o = Opnd::Phys(static_cast<unsigned>(vpriv));
        } else if (o->virt()) {
          const VRegInfo& info = f.vregs[o->idx];
          int c = info.scalar ? scolor[o->idx] : vcolor[o->idx];
          if (o->part == Opnd::kHi) ++c;
          *o = Opnd::Phys(static_cast<unsigned>(c + (info.scalar ? 32 : 0)));
        }
      }
    }
  }
  // Moves that became no-ops.
  for (MBlock& b : f.blocks) {
    b.insns.erase(std::remove_if(b.insns.begin(), b.insns.end(),
                                 [](const MInsn& mi) {
                                   return !mi.is_label() && mi.op == Op::kAddi && mi.imm == 0 &&
                                          mi.rd == mi.rs1 && !mi.imm_private_bytes;
                                 }),
                  b.insns.end());
  }
}

}  // namespace sgu::compiler
