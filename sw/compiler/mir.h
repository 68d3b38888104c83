// SPDX-License-Identifier: Apache-2.0
// Machine IR of the SGU compiler: SGU instructions over virtual registers, grouped in blocks
// that mirror the SPIR-V control-flow graph, laid out in execution order (docs/compiler.md).
#ifndef SGU_COMPILER_MIR_H_
#define SGU_COMPILER_MIR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sgu/isa_gen.h"

namespace sgu::compiler {

// An operand: nothing, a virtual register (or one 32-bit half of a 64-bit one), or a physical
// register that the allocator does not touch (s0, the ABI pointers, mask and flag registers).
struct Opnd {
  enum Kind : uint8_t { kNone, kVirt, kPhys };
  enum Part : uint8_t { kWhole, kLo, kHi };
  Kind kind = kNone;
  Part part = kWhole;
  int32_t idx = 0;  // virtual register number or physical register 0..63

  static Opnd Virt(int32_t v, Part p = kWhole) { return Opnd{kVirt, p, v}; }
  static Opnd Phys(unsigned r) { return Opnd{kPhys, kWhole, static_cast<int32_t>(r)}; }
  bool none() const { return kind == kNone; }
  bool virt() const { return kind == kVirt; }
  bool operator==(const Opnd& o) const { return kind == o.kind && part == o.part && idx == o.idx; }
};

struct VRegInfo {
  bool scalar = false;  // s register (uniform value) or v register (per lane)
  bool pair = false;    // 64-bit even/odd pair
  bool spill_temp = false;  // created by spilling: never spilled again
};

struct MInsn {
  isa::Op op = isa::Op::kNop;
  unsigned dt = 0, mod = 0;
  Opnd rd, rs1, rs2, rs3;
  int32_t imm = 0;
  int label = -1;     // pseudo instruction: defines label `label` (op ignored)
  int target = -1;    // branch: target label (imm filled at emission)
  bool imm_private_bytes = false;  // imm := the kernel's per-lane private bytes at emission
  bool rd_partial = false;  // rd keeps its value where this does not write (sel-based copies)
  uint32_t file = 0, line = 0;

  bool is_label() const { return label >= 0; }
};

struct MBlock {
  uint32_t spv_label = 0;
  bool divergent = false;
  std::vector<int> succs;  // indices (SPIR-V CFG successors, for per-lane liveness)
  std::vector<MInsn> insns;
};

struct MFunction {
  std::vector<VRegInfo> vregs;
  std::vector<MBlock> blocks;  // in layout order
  uint32_t private_bytes = 0;  // private variables (spill slots are added by the allocator)
  uint32_t scalar_spill_bytes = 0;
  int num_labels = 0;
  std::vector<unsigned> reserved_v;  // physical v registers not to allocate
  std::vector<unsigned> reserved_s;  // physical s registers not to allocate (s0..s2 implied)
  unsigned vpriv = 0;  // physical register holding each lane's private base (0: none yet)
  std::string kernel_name;
};

// Register allocation and spilling (regalloc.cc): rewrites every virtual operand to a physical
// register. Throws CompileError if the kernel cannot be allocated.
void AllocateRegisters(MFunction& f);

// Post-allocation list scheduler (schedule.cc, docs/compiler.md "Instruction scheduling"):
// reorders the pure register-to-register instructions between barriers to hide the core's
// result latencies. Run after AllocateRegisters: it reads physical registers only.
void ScheduleInstructions(MFunction& f);

// The scheduler's rules, for its tests. IsSchedulingBarrier: mi never moves and nothing moves
// across it. SchedulingLatency: the smallest distance (in instructions issued) at which `reader`
// does not wait in R for `writer` (1: none) on a core without the distance-1 forward.
// ModelCycles: the cycle after the last of `insns` issues on that model, as straight-line code.
bool IsSchedulingBarrier(const MInsn& mi);
int SchedulingLatency(const MInsn& writer, const MInsn& reader);
int64_t ModelCycles(const std::vector<MInsn>& insns);

}  // namespace sgu::compiler

#endif  // SGU_COMPILER_MIR_H_
