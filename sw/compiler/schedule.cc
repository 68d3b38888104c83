// SPDX-License-Identifier: Apache-2.0
// Post-allocation list scheduler of the SGU compiler (docs/compiler.md "Instruction
// scheduling"): reorders the pure register-to-register instructions between two barriers so
// that a result's readers sit far enough behind it for the core not to stall in R.
//
// The core is in order and resolves every hazard by holding the reader in R
// (docs/architecture.md "Pipeline", rtl/sgu_core.sv `hz`, `xf_stall`). The rules of that check
// are written once more here (Stalls) as a function of the distance between writer and reader,
// and the scheduler uses them twice: as edge latencies of the dependence graph (the priority is
// the latency-weighted path to the region's end) and as a cycle model that decides when a
// candidate can issue. Nothing forwards out of X (the core has no distance-1 forward: its
// reader waits a cycle), so a short result's reader is best placed two slots behind it.
//
// Correctness rests on the dependence graph alone: every pair of instructions of a region that
// touch a common physical register (a 64-bit pair covers r and r+1; a partial definition also
// reads rd) with at least one write keeps its order; barriers (everything that is not a pure
// register operation: labels, control flow, the mask, memory, csrr, vote, first, lane, ...)
// never move and nothing moves across them.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "mir.h"
#include "sgu/insn.h"

namespace sgu::compiler {

namespace {

using isa::Op;

// Instructions further back than this never hold a reader (a long result: L7 at distance 8,
// rs3's re-read one more).
constexpr int kWindow = 10;

// A longer run of movable instructions is scheduled in pieces of this many (each piece as if
// barriers surrounded it), which bounds the quadratic cost of the list scheduler.
constexpr size_t kMaxRegion = 1024;

constexpr unsigned kS0 = isa::kRegS0;

// Where a short result comes from, as far as its readers care (sgu_core wb_sel_e).
enum class Wb : uint8_t {
  kLane,   // the lane's ALU, the lane index, a load: forwarded at distance 2
  kLate,   // compare, min, max (WbLaneLate): forwarded at distance 2 only
  kShift,  // a 32-bit shift (WbShift): made in L2, not forwarded (l2_far)
  kFar,    // shuffle, vote, csrr, first (WbXbar, WbVote, WbUniform): not forwarded
};

// One instruction as the hazard check of the core sees it (sgu_core dec_t).
struct Timing {
  bool writes = false;  // writes a register other than s0
  bool lng = false;     // a long operation (sgu_pkg op_is_long): written at the end of L7
  Wb wb = Wb::kLane;
  unsigned rd = 0;
  bool rd_pair = false;
  bool used[3] = {false, false, false};  // rs1, rs2, rs3 read
  unsigned rs[3] = {0, 0, 0};
  bool rs_pair[3] = {false, false, false};
  bool nz = false;   // reads rs1's nonzero flag: sel, split, mbrk
  bool big = false;  // reads rs2's "NumLanes or more" flag: a down2 / up2 with a scalar delta
  bool ld = false;   // a load: starts its access when no long writer is in L2 .. L6
};

// An instruction in a region: its timing, the registers it reads and writes, whether it may
// move.
struct Node {
  Timing t;
  uint64_t reads = 0, defs = 0;  // bit r: register r (s0 excluded)
  bool movable = false;
};

bool Is64(unsigned dt) { return isa::DtypeIs64(dt); }

// sgu_pkg op_is_long.
bool IsLong(const MInsn& mi) {
  switch (mi.op) {
    case Op::kMul:
    case Op::kMuli:
    case Op::kMulh:
    case Op::kFadd:
    case Op::kFsub:
    case Op::kFmul:
    case Op::kFfma:
    case Op::kFmin:
    case Op::kFmax:
    case Op::kFcmp:
      return true;
    case Op::kShl:
    case Op::kShli:
    case Op::kShr:
    case Op::kShri:
      return Is64(mi.dt);
    case Op::kCvt:
      return (mi.dt == static_cast<unsigned>(isa::Dtype::kF32)) !=
             (mi.mod == static_cast<unsigned>(isa::Dtype::kF32));
    case Op::kAdd:
    case Op::kAddi:
    case Op::kSub:
    case Op::kAnd:
    case Op::kAndi:
    case Op::kOr:
    case Op::kOri:
    case Op::kXor:
    case Op::kXori:
    case Op::kMin:
    case Op::kMini:
    case Op::kMax:
    case Op::kMaxi:
    case Op::kCmp:
    case Op::kCmpi:
      return Is64(mi.dt);  // sgu_pkg op_is_alu64
    default:
      return false;
  }
}

// sgu_core's write-back source of a short result.
Wb WbOf(const MInsn& mi) {
  switch (mi.op) {
    case Op::kShfl:
    case Op::kVote:
    case Op::kCsrr:
    case Op::kFirst:
      return Wb::kFar;
    case Op::kShl:
    case Op::kShli:
    case Op::kShr:
    case Op::kShri:
      return Wb::kShift;
    case Op::kCmp:
    case Op::kCmpi:
    case Op::kMin:
    case Op::kMini:
    case Op::kMax:
    case Op::kMaxi:
      return Wb::kLate;
    default:
      return Wb::kLane;
  }
}

// Pure register-to-register operations on the lanes or the scalars: their effect is a function
// of their source registers (and of exec, which no instruction of a region changes), their only
// effect the write of rd. Everything else is a barrier. Deliberately a list of what may move,
// not of what may not: an opcode added to the ISA stays put until someone adds it here.
bool MovableOp(Op op) {
  switch (op) {
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kMulh:
    case Op::kAnd:
    case Op::kOr:
    case Op::kXor:
    case Op::kShl:
    case Op::kShr:
    case Op::kMin:
    case Op::kMax:
    case Op::kCmp:
    case Op::kSel:
    case Op::kAddi:
    case Op::kMuli:
    case Op::kAndi:
    case Op::kOri:
    case Op::kXori:
    case Op::kShli:
    case Op::kShri:
    case Op::kMini:
    case Op::kMaxi:
    case Op::kCmpi:
    case Op::kLi:
    case Op::kLui:
    case Op::kFadd:
    case Op::kFsub:
    case Op::kFmul:
    case Op::kFfma:
    case Op::kFmin:
    case Op::kFmax:
    case Op::kFcmp:
    case Op::kCvt:
    case Op::kShfl:  // reads other lanes' rs1/rs3 and exec, both fixed within a region
      return true;
    default:
      return false;
  }
}

uint64_t RegBits(unsigned r, bool pair) {
  uint64_t b = 0;
  if (r < 64 && r != kS0) b |= uint64_t{1} << r;
  if (pair && r + 1 < 64) b |= uint64_t{1} << (r + 1);
  return b;
}

// Describes mi from the ISA's operand table (which fields it reads, which are pairs). An
// operand that is not a physical register (the scheduler runs after allocation) makes the
// instruction a barrier.
Node Describe(const MInsn& mi) {
  Node n;
  if (mi.is_label()) return n;
  const isa::InsnInfo* info = isa::LookupOpcode(static_cast<uint8_t>(mi.op));
  if (info == nullptr) return n;
  bool phys = true;
  auto reg = [&](const Opnd& o) -> unsigned {
    if (o.kind == Opnd::kNone) return 0;
    if (o.kind != Opnd::kPhys || o.idx < 0 || o.idx > 63) {
      phys = false;
      return 0;
    }
    return static_cast<unsigned>(o.idx);
  };
  isa::Fields fl;
  fl.opcode = static_cast<uint8_t>(mi.op);
  fl.dt = mi.dt;
  fl.mod = mi.mod;
  fl.rd = reg(mi.rd);
  fl.rs1 = reg(mi.rs1);
  fl.rs2 = reg(mi.rs2);
  fl.rs3 = reg(mi.rs3);
  const isa::PairOperands pairs = isa::PairOperandsOf(isa::Insn(isa::Encode(fl)));
  Timing& t = n.t;
  t.rd = fl.rd;
  t.rd_pair = pairs.rd;
  t.writes = (info->uses & isa::kUseRd) != 0 && fl.rd != kS0;
  t.lng = IsLong(mi);
  t.wb = WbOf(mi);
  const unsigned rs[3] = {fl.rs1, fl.rs2, fl.rs3};
  const bool rs_pair[3] = {pairs.rs1, pairs.rs2, pairs.rs3};
  for (unsigned s = 0; s < 3; ++s) {
    t.used[s] = (info->uses >> (isa::kRegRs1 + s) & 1) != 0;
    t.rs[s] = t.used[s] ? rs[s] : 0;
    t.rs_pair[s] = t.used[s] && rs_pair[s];
    if (t.used[s]) n.reads |= RegBits(t.rs[s], t.rs_pair[s]);
  }
  t.nz = mi.op == Op::kSel || mi.op == Op::kSplit || mi.op == Op::kMbrk;
  t.ld = mi.op == Op::kLd;
  const auto mode = static_cast<isa::ModShfl>(mi.mod);
  t.big = mi.op == Op::kShfl && isa::IsScalarReg(fl.rs2) &&
          (mode == isa::ModShfl::kDown2 || mode == isa::ModShfl::kUp2);
  if (t.writes) n.defs = RegBits(t.rd, t.rd_pair);
  // A partial definition keeps part of rd's old value: it reads rd as well.
  if (mi.rd_partial && t.writes) n.reads |= n.defs;
  n.movable = phys && mi.target < 0 && MovableOp(mi.op);
  return n;
}

// Registers [r, r + pair] and [s, s + pair'] overlap (sgu_core overlap).
bool Overlap(unsigned r, bool rp, unsigned s, bool sp) {
  return (r >> 1) == (s >> 1) && ((r & 1) == (s & 1) || rp || sp);
}

// Whether reader r, entering X d >= 1 cycles after writer w entered it (w is then in stage
// d - 1: 0 X, 1 L2, 2..6 L3..L7, when r is in R), waits in R: the rules of sgu_core's hz()
// (RAW against long writers up to L7, the short forwards of X and L2 and what they do not
// cover, rs1's nonzero and rs2's big flags, WAW against long writers up to L4, the write port
// against a long writer in L5) and rs3's re-read (the rs3 port has no bypass: a read at the
// edge of the write misses it and reads again a cycle later).
bool Stalls(const Timing& w, const Timing& r, int d) {
  if (!w.writes || d < 1) return false;
  const int k = d - 1;
  const bool shrt = !w.lng;
  const bool l2_late = w.wb == Wb::kShift || w.wb == Wb::kFar;   // l2_late
  const bool l2_far = w.wb == Wb::kShift || w.wb == Wb::kFar;    // l2_far
  for (unsigned s = 0; s < 3; ++s) {
    if (!r.used[s] || !Overlap(w.rd, w.rd_pair, r.rs[s], r.rs_pair[s])) continue;
    // Written at the end of L7 (long) or of L2 (short): a reader in R until then waits; rs3
    // also when its read was at the edge of the write.
    const int last = (w.lng ? 6 : 1) + (s == 2 ? 1 : 0);
    if (w.lng && k <= last) return true;
    if (shrt && k <= last) {
      const bool fwd_lo = s < 2 && r.rs[s] == w.rd && !(r.rs_pair[s] && w.rd_pair);
      const bool fwd = fwd_lo && k == 1 && !l2_far;  // nothing forwards out of X (k = 0)
      if (!fwd) return true;
    }
  }
  if (shrt && r.nz && r.used[0] && Overlap(w.rd, w.rd_pair, r.rs[0], r.rs_pair[0]) &&
      (k == 0 || (k == 1 && l2_late))) {
    return true;
  }
  if (shrt && r.big && r.used[1] && Overlap(w.rd, w.rd_pair, r.rs[1], r.rs_pair[1]) &&
      (k == 0 || (k == 1 && l2_late))) {
    return true;
  }
  const bool r_short_wr = r.writes && !r.lng;
  if (w.lng && r_short_wr && k < 4 && Overlap(w.rd, w.rd_pair, r.rd, r.rd_pair)) return true;
  if (w.lng && r_short_wr && k == 4) return true;  // the write port (not a dependence)
  // A load checks its addresses in its first three cycles in X, then waits for every long
  // writer in L2 .. L6 (sgu_core x_mem_wait): one issued two or one cycles before it delays it
  // (modelled as a wait in R, which delays what follows alike).
  if (w.lng && r.ld && k < 2) return true;
  return false;
}

// The smallest distance at which r no longer waits for w through a register they share (the
// write port's conflict, which is not about registers, aside).
int Latency(const Timing& w, const Timing& r) {
  for (int d = kWindow; d >= 1; --d) {
    // At distance 5 a long writer holds a short one only for the write port (WAW ends at 4,
    // RAW at 7 or 8, both found first).
    if (d == 5 && w.lng && r.writes && !r.lng) continue;
    if (Stalls(w, r, d)) return d + 1;
  }
  return 1;
}

// The cycle model: instructions enter X one per cycle unless held in R. `issued` is the
// history (timing and X cycle) of what precedes; Issue() is the first cycle >= `from` at which
// r enters X.
struct Issued {
  Timing t;
  int64_t cycle;
};

int64_t Issue(const std::vector<Issued>& hist, const Timing& r, int64_t from) {
  int64_t c = from;
  for (bool again = true; again;) {
    again = false;
    for (auto it = hist.rbegin(); it != hist.rend() && c - it->cycle <= kWindow; ++it) {
      if (Stalls(it->t, r, static_cast<int>(c - it->cycle))) {
        ++c;
        again = true;
        break;
      }
    }
  }
  return c;
}

void Push(std::vector<Issued>* hist, const Timing& t, int64_t cycle) {
  hist->push_back({t, cycle});
  // Keep the tail the window needs.
  if (hist->size() > 64) hist->erase(hist->begin(), hist->end() - kWindow - 1);
}

// Schedules region [begin, end) of a block (movable instructions only, described by
// `nodes`), followed by the instruction at `end` if `closing` (a barrier, which stays where it
// is). Returns the new order of the region as indices into the block and extends `hist` with
// the region and the closer.
std::vector<size_t> ScheduleRegion(const std::vector<Node>& nodes, size_t begin, size_t end,
                                   bool closing, std::vector<Issued>* hist) {
  const size_t n = end - begin;
  // ---- the dependence graph: per register, its last writer and its readers since then.
  std::vector<std::vector<std::pair<size_t, int>>> succs(n);  // (node, latency)
  std::vector<int> npreds(n, 0);
  std::vector<int> exit_lat(n, 1);  // latency to the region's end (closer or what follows)
  {
    std::vector<int> last_def(64, -1);
    std::vector<std::vector<int>> readers(64);
    auto edge = [&](int a, size_t b) {
      const int lat = Latency(nodes[begin + a].t, nodes[begin + b].t);
      for (auto& e : succs[a]) {
        if (e.first == b) {
          e.second = std::max(e.second, lat);
          return;
        }
      }
      succs[a].push_back({b, lat});
      ++npreds[b];
    };
    for (size_t i = 0; i < n; ++i) {
      const Node& nd = nodes[begin + i];
      for (unsigned r = 0; r < 64; ++r) {
        if ((nd.reads >> r & 1) != 0 && last_def[r] >= 0) edge(last_def[r], i);  // RAW
      }
      for (unsigned r = 0; r < 64; ++r) {
        if ((nd.defs >> r & 1) == 0) continue;
        if (last_def[r] >= 0) edge(last_def[r], i);  // WAW
        for (int rd : readers[r]) {
          if (static_cast<size_t>(rd) != i) edge(rd, i);  // WAR
        }
        readers[r].clear();
        last_def[r] = static_cast<int>(i);
      }
      for (unsigned r = 0; r < 64; ++r) {
        if ((nd.reads >> r & 1) != 0 && last_def[r] != static_cast<int>(i)) {
          readers[r].push_back(static_cast<int>(i));
        }
      }
    }
    // A result still in the registers at the end is read after the region, soon perhaps: count
    // its latency to a plain reader (rs1, low word). The closer's own reads count exactly.
    Timing any;
    any.used[0] = true;
    for (unsigned r = 0; r < 64; ++r) {
      if (last_def[r] < 0) continue;
      const Timing& w = nodes[begin + last_def[r]].t;
      any.rs[0] = w.rd;
      int lat = Latency(w, any);
      if (closing) lat = std::max(lat, Latency(w, nodes[end].t));
      exit_lat[last_def[r]] = std::max(exit_lat[last_def[r]], lat);
    }
    if (closing) {
      for (size_t i = 0; i < n; ++i) {
        exit_lat[i] = std::max(exit_lat[i], Latency(nodes[begin + i].t, nodes[end].t));
      }
    }
  }
  // ---- priority: the latency-weighted longest path to the end (nodes are in a topological
  // order: every edge goes forward).
  std::vector<int> height(n, 0);
  for (size_t i = n; i-- > 0;) {
    int h = exit_lat[i];
    for (const auto& e : succs[i]) h = std::max(h, e.second + height[e.first]);
    height[i] = h;
  }
  // ---- list scheduling on the cycle model.
  std::vector<Issued> h_sched = *hist;
  std::vector<size_t> order;
  std::vector<int> left = npreds;
  std::vector<bool> done(n, false);
  int64_t cycle = hist->empty() ? 0 : hist->back().cycle + 1;
  const int64_t start = cycle;
  for (size_t step = 0; step < n; ++step) {
    size_t best = n;
    int64_t best_at = 0;
    for (size_t i = 0; i < n; ++i) {
      if (done[i] || left[i] != 0) continue;
      const int64_t at = Issue(h_sched, nodes[begin + i].t, cycle);
      // Ready now beats ready later; then the longer path; then the original order.
      const bool now = at <= cycle, best_now = best < n && best_at <= cycle;
      bool better;
      if (best == n) {
        better = true;
      } else if (now != best_now) {
        better = now;
      } else if (!now && at != best_at) {
        better = at < best_at;
      } else {
        better = height[i] > height[best];
      }
      if (better) {
        best = i;
        best_at = at;
      }
    }
    done[best] = true;
    order.push_back(best);
    for (const auto& e : succs[best]) --left[e.first];
    Push(&h_sched, nodes[begin + best].t, best_at);
    cycle = best_at + 1;
  }
  int64_t sched_end = closing ? Issue(h_sched, nodes[end].t, cycle) : cycle;
  // The original order on the same model; it is kept unless the new one finishes earlier.
  std::vector<Issued> h_orig = *hist;
  int64_t c = start;
  for (size_t i = 0; i < n; ++i) {
    c = Issue(h_orig, nodes[begin + i].t, c);
    Push(&h_orig, nodes[begin + i].t, c);
    ++c;
  }
  const int64_t orig_end = closing ? Issue(h_orig, nodes[end].t, c) : c;
  if (sched_end >= orig_end) {
    for (size_t i = 0; i < n; ++i) order[i] = i;
    h_sched = std::move(h_orig);
    sched_end = orig_end;
  }
  if (closing) Push(&h_sched, nodes[end].t, sched_end);
  *hist = std::move(h_sched);
  for (size_t& i : order) i += begin;
  return order;
}

}  // namespace

bool IsSchedulingBarrier(const MInsn& mi) { return !Describe(mi).movable; }

int SchedulingLatency(const MInsn& writer, const MInsn& reader) {
  return Latency(Describe(writer).t, Describe(reader).t);
}

int64_t ModelCycles(const std::vector<MInsn>& insns) {
  std::vector<Issued> hist;
  int64_t c = 0;
  for (const MInsn& mi : insns) {
    if (mi.is_label()) continue;
    const Timing t = Describe(mi).t;
    c = Issue(hist, t, c);
    Push(&hist, t, c);
    ++c;
  }
  return c;
}

void ScheduleInstructions(MFunction& f) {
  std::vector<Issued> hist;  // what the core has issued before, on the straight-line path
  for (MBlock& b : f.blocks) {
    std::vector<Node> nodes;
    nodes.reserve(b.insns.size());
    for (const MInsn& mi : b.insns) nodes.push_back(Describe(mi));
    std::vector<MInsn> out;
    out.reserve(b.insns.size());
    size_t i = 0;
    while (i < b.insns.size()) {
      if (!nodes[i].movable) {
        // A label: another path may arrive here, so nothing is known of the pipe.
        if (b.insns[i].is_label()) {
          hist.clear();
        } else {
          const int64_t from = hist.empty() ? 0 : hist.back().cycle + 1;
          Push(&hist, nodes[i].t, Issue(hist, nodes[i].t, from));
        }
        out.push_back(b.insns[i++]);
        continue;
      }
      size_t j = i;
      while (j < b.insns.size() && nodes[j].movable && j - i < kMaxRegion) ++j;
      const bool closing = j < b.insns.size() && !nodes[j].movable && !b.insns[j].is_label();
      for (size_t k : ScheduleRegion(nodes, i, j, closing, &hist)) {
        out.push_back(b.insns[k]);
      }
      if (closing) out.push_back(b.insns[j++]);
      i = j;
    }
    b.insns = std::move(out);
  }
}

}  // namespace sgu::compiler
