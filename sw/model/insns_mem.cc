// SPDX-License-Identifier: Apache-2.0
// Semantics of ld/st (docs/isa.md "Memory").
#include <vector>

#include "state.h"

namespace sgu {
namespace model {
namespace {

using isa::Cause;
using isa::Op;

struct Access {
  unsigned lane;
  uint32_t addr;
};

// The accesses of a memory instruction: one when `once` (scalar address, and for stores scalar
// data), else one per active lane in lane order. Effective address = rs1 + sext(imm) mod 2^32.
std::vector<Access> Accesses(Exec& x, bool once) {
  const uint32_t offset = static_cast<uint32_t>(x.insn().imm());
  std::vector<Access> acc;
  if (once) {
    acc.push_back(Access{0, x.Reg32(x.insn().rs1(), 0) + offset});
    return acc;
  }
  for (unsigned l = 0; l < x.n(); ++l) {
    if (x.active(l)) acc.push_back(Access{l, x.Reg32(x.insn().rs1(), l) + offset});
  }
  return acc;
}

// Checks before any access, lane by lane: misaligned, then outside [MEM_BASE, MEM_LIMIT)
// (computed in 64 bits); the first failing lane traps with tval = its address.
void CheckAccesses(Exec& x, const std::vector<Access>& acc, unsigned size, bool store) {
  const LaunchParams& p = x.st().launch;
  for (const Access& a : acc) {
    if (a.addr % size != 0) {
      throw Trap{store ? Cause::kStoreMisaligned : Cause::kLoadMisaligned, a.addr};
    }
    if (a.addr < p.mem_base || uint64_t{a.addr} + size > p.mem_limit) {
      throw Trap{store ? Cause::kStoreAccess : Cause::kLoadAccess, a.addr};
    }
  }
}

unsigned AccessSize(unsigned dt) { return isa::DtypeBits(dt) / 8; }

// ld: rd = mem[rs1 + imm] per active lane, 8/16-bit values sign- or zero-extended by dt.
// Nothing is accessed (and nothing written) when no lane is active.
void Ld(Exec& x) {
  if (x.exec() == 0) return;
  const unsigned dt = x.insn().dt();
  const unsigned size = AccessSize(dt);
  const bool once = isa::IsScalarReg(x.insn().rs1());
  const std::vector<Access> acc = Accesses(x, once);
  CheckAccesses(x, acc, size, /*store=*/false);
  // An AXI error on any lane: LoadBusError at the lowest such lane, no register written.
  for (const Access& a : acc) {
    if (x.st().mem->IsError(a.addr, size)) throw Trap{Cause::kLoadBusError, a.addr};
  }
  uint64_t value[32] = {};
  for (const Access& a : acc) value[a.lane] = x.st().mem->Load(a.addr, size);
  if (once) {
    for (uint64_t& v : value) v = value[0];  // one access, broadcast
  }
  x.ForEachDest(dt, [&](unsigned l) { return value[l]; });
}

// st: mem[rs1 + imm] = rs2 per active lane in lane order (once for scalar address and data).
// Lanes go out one at a time: on an AXI error the earlier lanes stay written.
void St(Exec& x) {
  if (x.exec() == 0) return;
  const isa::Insn& i = x.insn();
  const unsigned dt = i.dt();
  const unsigned size = AccessSize(dt);
  const bool once = isa::IsScalarReg(i.rs1()) && isa::IsScalarReg(i.rs2());
  const std::vector<Access> acc = Accesses(x, once);
  CheckAccesses(x, acc, size, /*store=*/true);
  const uint64_t mask = size == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * size)) - 1;
  for (const Access& a : acc) {
    if (x.st().mem->IsError(a.addr, size)) throw Trap{Cause::kStoreBusError, a.addr};
    const uint64_t data = x.Operand(i.rs2(), a.lane, dt) & mask;
    x.st().mem->Store(a.addr, size, data);
    x.rec().mem_writes.push_back(MemWrite{a.addr, size, data});
  }
}

}  // namespace

void RegisterMem(SemanticsFn* t) {
  t[static_cast<uint8_t>(Op::kLd)] = Ld;
  t[static_cast<uint8_t>(Op::kSt)] = St;
}

}  // namespace model
}  // namespace sgu
