// SPDX-License-Identifier: Apache-2.0
// Semantics of the control-flow and execution-mask instructions (docs/isa.md "Masking").
#include "state.h"

namespace sgu {
namespace model {
namespace {

using isa::Cause;
using isa::Op;

// nop: no operation.
void Nop(Exec&) {}

// halt: end the kernel; Step() stops fetching.
void Halt(Exec& x) { x.rec().halt = true; }

// trap: software trap, cause SwTrap, tval = imm (sign-extended to 32 bits).
void TrapInsn(Exec& x) { throw Trap{Cause::kSwTrap, static_cast<uint32_t>(x.insn().imm())}; }

// br: pc = pc + 8*imm.
void Br(Exec& x) { x.set_next_pc(x.BranchTarget()); }

// bz: if scalar rs1 == 0: pc = pc + 8*imm.
void Bz(Exec& x) {
  if (x.Reg32(x.insn().rs1(), 0) == 0) x.set_next_pc(x.BranchTarget());
}

// bnz: if scalar rs1 != 0: pc = pc + 8*imm.
void Bnz(Exec& x) {
  if (x.Reg32(x.insn().rs1(), 0) != 0) x.set_next_pc(x.BranchTarget());
}

// bexz: if exec == 0: pc = pc + 8*imm.
void Bexz(Exec& x) {
  if (x.exec() == 0) x.set_next_pc(x.BranchTarget());
}

// bexnz: if exec != 0: pc = pc + 8*imm.
void Bexnz(Exec& x) {
  if (x.exec() != 0) x.set_next_pc(x.BranchTarget());
}

// A push onto a full stack traps with MaskOverflow, tval = depth.
void Push(Exec& x, MaskEntry e) {
  if (x.st().stack.size() >= isa::kMaskStackDepth) {
    throw Trap{Cause::kMaskOverflow, isa::kMaskStackDepth};
  }
  x.st().stack.push_back(e);
}

// else/join on an empty stack trap with MaskUnderflow, tval = 0.
MaskEntry& Top(Exec& x) {
  if (x.st().stack.empty()) throw Trap{Cause::kMaskUnderflow, 0};
  return x.st().stack.back();
}

// split rs1: push {saved = exec, pending = exec & ~c}; exec = exec & c.
void Split(Exec& x) {
  const uint32_t c = x.CondMask(x.insn().rs1());
  const uint32_t exec = x.exec();
  Push(x, MaskEntry{exec, exec & ~c});
  x.st().exec = exec & c;
}

// else: exec = top.pending; top.pending = 0.
void Else(Exec& x) {
  MaskEntry& top = Top(x);
  x.st().exec = top.pending;
  top.pending = 0;
}

// join: exec = top.saved; pop.
void Join(Exec& x) {
  const MaskEntry top = Top(x);
  x.st().exec = top.saved;
  x.st().stack.pop_back();
}

// mpush: push {saved = exec, pending = 0} (loop entry).
void Mpush(Exec& x) { Push(x, MaskEntry{x.exec(), 0}); }

// mbrk rs1: exec = exec & ~c (lanes that leave the loop).
void Mbrk(Exec& x) { x.st().exec = x.exec() & ~x.CondMask(x.insn().rs1()); }

}  // namespace

void RegisterCtrl(SemanticsFn* t) {
  t[static_cast<uint8_t>(Op::kNop)] = Nop;
  t[static_cast<uint8_t>(Op::kHalt)] = Halt;
  t[static_cast<uint8_t>(Op::kTrap)] = TrapInsn;
  t[static_cast<uint8_t>(Op::kBr)] = Br;
  t[static_cast<uint8_t>(Op::kBz)] = Bz;
  t[static_cast<uint8_t>(Op::kBnz)] = Bnz;
  t[static_cast<uint8_t>(Op::kBexz)] = Bexz;
  t[static_cast<uint8_t>(Op::kBexnz)] = Bexnz;
  t[static_cast<uint8_t>(Op::kSplit)] = Split;
  t[static_cast<uint8_t>(Op::kElse)] = Else;
  t[static_cast<uint8_t>(Op::kJoin)] = Join;
  t[static_cast<uint8_t>(Op::kMpush)] = Mpush;
  t[static_cast<uint8_t>(Op::kMbrk)] = Mbrk;
}

}  // namespace model
}  // namespace sgu
