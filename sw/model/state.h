// SPDX-License-Identifier: Apache-2.0
// Golden model internals: architectural state, the per-instruction execution context with the
// shared operand/element-loop helpers, and the semantics function table.
#ifndef SGU_MODEL_STATE_H_
#define SGU_MODEL_STATE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sgu/insn.h"
#include "sgu/model.h"

namespace sgu {
namespace model {

// One mask stack entry (docs/isa.md "Masking").
struct MaskEntry {
  uint32_t saved;
  uint32_t pending;
};

// Architectural state of docs/isa.md "Machine state" plus bookkeeping.
struct State {
  unsigned n = 8;          // NumLanes
  uint32_t all_lanes = 0;  // mask of lanes 0..n-1
  Memory* mem = nullptr;
  LaunchParams launch;
  uint32_t launch_mask = 0;  // exec at start (csrr LaunchMask)
  uint32_t launch_size = 0;  // effective LANES (csrr LaunchSize)
  uint32_t pc = 0;
  uint32_t exec = 0;
  uint32_t v[32][32] = {};  // v[reg][lane]
  uint32_t s[32] = {};      // s[0] stays 0
  std::vector<MaskEntry> stack;
  bool running = false;
  uint64_t instret = 0;
  std::vector<Diagnostic> diags;
};

// Thrown by a semantics function before it changes any state (the store bus error excepted);
// Step() turns it into the trap record.
struct Trap {
  isa::Cause cause;
  uint32_t tval;
};

// Low `bits(dt)` bits of v, sign- or zero-extended to 64 bits by the signedness of dt
// (docs/isa.md "Narrow types"; f32 is zero-extended, i.e. its bits are kept).
inline uint64_t Extend(uint64_t v, unsigned dt) {
  const unsigned bits = isa::DtypeBits(dt);
  if (bits >= 64) return v;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  v &= mask;
  if (isa::DtypeIsSigned(dt) && (v >> (bits - 1) & 1)) v |= ~mask;
  return v;
}

// Execution context of one instruction.
class Exec {
 public:
  Exec(State& st, const isa::Insn& insn, Retire& rec)
      : st_(st), insn_(insn), rec_(rec), next_pc_(st.pc + 8) {}

  State& st() { return st_; }
  const isa::Insn& insn() const { return insn_; }
  Retire& rec() { return rec_; }
  unsigned n() const { return st_.n; }
  uint32_t exec() const { return st_.exec; }
  bool active(unsigned lane) const { return (st_.exec >> lane & 1) != 0; }
  uint32_t next_pc() const { return next_pc_; }
  void set_next_pc(uint32_t pc) { next_pc_ = pc; }
  // Branch target pc + 8*imm (mod 2^32).
  uint32_t BranchTarget() const { return st_.pc + 8u * static_cast<uint32_t>(insn_.imm()); }

  // A register's 32-bit value in a lane; a scalar register is broadcast, s0 reads as 0.
  uint32_t Reg32(unsigned r, unsigned lane) const {
    return isa::IsScalarReg(r) ? st_.s[r - isa::kScalarBase] : st_.v[r][lane];
  }
  // The pair (r, r+1), low word in r.
  uint64_t Reg64(unsigned r, unsigned lane) const {
    return Reg32(r, lane) | uint64_t{Reg32(r + 1, lane)} << 32;
  }
  // Register operand read with type dt: 64-bit types read the pair, others one register, and
  // the value is extended from the type's width to 64 bits.
  uint64_t Operand(unsigned r, unsigned lane, unsigned dt) const {
    return Extend(isa::DtypeIs64(dt) ? Reg64(r, lane) : Reg32(r, lane), dt);
  }
  // The immediate sign-extended to 64 bits, then treated like a register of type dt.
  uint64_t ImmOperand(unsigned dt) const {
    return Extend(static_cast<uint64_t>(static_cast<int64_t>(insn_.imm())), dt);
  }
  // Per-lane condition mask c = (rs1 != 0), 32-bit, for lanes 0..n-1.
  uint32_t CondMask(unsigned r) const {
    uint32_t c = 0;
    for (unsigned l = 0; l < st_.n; ++l) c |= (Reg32(r, l) != 0 ? 1u : 0u) << l;
    return c;
  }

  // Record the write of `value` (type dt: pair if 64-bit, else 32 bits after extension) to rd in
  // `lane` (0 for a scalar rd). Step() commits it when the instruction retires without a trap.
  void Write(unsigned lane, uint64_t value, unsigned dt) {
    value = Extend(value, dt);
    rec_.rd_we = true;
    rec_.rd = static_cast<uint8_t>(insn_.rd());
    rec_.rd_pair = isa::DtypeIs64(dt);
    rec_.lane_mask |= 1u << lane;
    rec_.data_lo[lane] = static_cast<uint32_t>(value);
    rec_.data_hi[lane] = rec_.rd_pair ? static_cast<uint32_t>(value >> 32) : 0;
  }

  // The shared element loop (docs/isa.md "Masking"): a scalar rd is written once with f(0) (all
  // sources are scalar then, so any lane gives the same value); a vector rd with f(l) in each
  // lane whose exec bit is set. f returns the value as a 64-bit integer of type dt.
  template <typename F>
  void ForEachDest(unsigned dt, F f) {
    if (isa::IsScalarReg(insn_.rd())) {
      Write(0, f(0u), dt);
      return;
    }
    for (unsigned l = 0; l < st_.n; ++l) {
      if (active(l)) Write(l, f(l), dt);
    }
  }

  void Diagnose(unsigned lane, std::string what) {
    st_.diags.push_back(Diagnostic{rec_.order, st_.pc, lane, std::move(what)});
  }

 private:
  State& st_;
  const isa::Insn& insn_;
  Retire& rec_;
  uint32_t next_pc_;
};

using SemanticsFn = void (*)(Exec&);

// The semantics function of each opcode, indexed by opcode (nullptr for undefined ones).
const SemanticsFn* SemanticsTable();

// Each insns_*.cc file enters its semantics functions into the table.
void RegisterCtrl(SemanticsFn* table);
void RegisterAlu(SemanticsFn* table);
void RegisterFp(SemanticsFn* table);
void RegisterLane(SemanticsFn* table);
void RegisterMem(SemanticsFn* table);

}  // namespace model
}  // namespace sgu

#endif  // SGU_MODEL_STATE_H_
