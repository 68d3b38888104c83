// SPDX-License-Identifier: Apache-2.0
// Semantics of lane identity, special values, votes and the crossbar (docs/isa.md "Lane
// identity, special values, votes" and "Crossbar (shfl)").
#include <string>

#include "state.h"

namespace sgu {
namespace model {
namespace {

using isa::Op;

constexpr unsigned kI32 = static_cast<unsigned>(isa::Dtype::kI32);

// lane: rd = lane index (vector rd only).
void Lane(Exec& x) {
  x.ForEachDest(kI32, [](unsigned l) { return uint64_t{l}; });
}

// csrr: rd = special value imm (NumLanes, Exec, LaunchMask, LaunchSize).
void Csrr(Exec& x) {
  uint32_t v = 0;
  switch (static_cast<isa::Special>(x.insn().imm())) {
    case isa::Special::kNumLanes:
      v = x.n();
      break;
    case isa::Special::kExec:
      v = x.exec();
      break;
    case isa::Special::kLaunchMask:
      v = x.st().launch_mask;
      break;
    case isa::Special::kLaunchSize:
      v = x.st().launch_size;
      break;
  }
  x.ForEachDest(kI32, [v](unsigned) { return uint64_t{v}; });
}

// vote.any/all: 1 if any/all active lanes have rs1 != 0 (all: 1 when no lane is active);
// vote.ballot: bit mask of the active lanes with rs1 != 0.
void Vote(Exec& x) {
  const uint32_t c = x.CondMask(x.insn().rs1());
  const uint32_t exec = x.exec();
  uint32_t v = 0;
  switch (static_cast<isa::ModVote>(x.insn().mod())) {
    case isa::ModVote::kAny:
      v = (exec & c) != 0;
      break;
    case isa::ModVote::kAll:
      v = (exec & ~c) == 0;
      break;
    case isa::ModVote::kBallot:
      v = exec & c;
      break;
  }
  x.ForEachDest(kI32, [v](unsigned) { return uint64_t{v}; });
}

// first: rd = rs1 of the lowest active lane, 0 when no lane is active.
void First(Exec& x) {
  const unsigned dt = x.insn().dt();
  uint64_t v = 0;
  for (unsigned l = 0; l < x.n(); ++l) {
    if (x.active(l)) {
      v = x.Operand(x.insn().rs1(), l, dt);
      break;
    }
  }
  x.ForEachDest(dt, [v](unsigned) { return v; });
}

// shfl: lane l receives element j(l) of A||B, or the default. With g = l mod w, base = l - g
// (all arithmetic in 64 bits, so l + d and l - d never wrap):
//   idx   j = d                   out of range: d >= N        -> R[l]
//   xor   j = base + (g ^ d)      out of range: d >= w        -> R[l]
//   down2 j = l + d in A||B       out of range: l + d >= 2N   -> 0
//   up2   j = l - d + N in B||A   out of range: d > l + N     -> 0
//   up    j = base + g - d        out of range: d > g         -> R[l]
//   down  j = base + g + d        out of range: g + d >= w    -> R[l]
//   rotup j = base + ((g - d) mod w), rotdn j = base + ((g + d) mod w): never out of range
// An inactive source lane counts as out of range. A = rs1, d = rs2 (unsigned), rs3 = B for
// down2/up2 and R otherwise.
void Shfl(Exec& x) {
  const isa::Insn& i = x.insn();
  const auto mode = static_cast<isa::ModShfl>(i.mod());
  const uint64_t n = x.n();
  const uint64_t w = i.imm() == 0 ? n : uint64_t{1} << i.imm();
  const bool two_regs = mode == isa::ModShfl::kDown2 || mode == isa::ModShfl::kUp2;
  // The sanitizer: a default the program did not ask for (no explicit default register).
  const bool sanitize = mode == isa::ModShfl::kIdx || two_regs || i.rs3() == isa::kRegS0;
  const unsigned a = i.rs1(), b = i.rs3();
  for (unsigned l = 0; l < n; ++l) {
    if (!x.active(l)) continue;
    const uint64_t d = x.Reg32(i.rs2(), l);
    const uint64_t g = l % w, base = l - g;
    bool in_range = true;
    unsigned src_reg = a;
    uint64_t j = 0;
    switch (mode) {
      case isa::ModShfl::kIdx:
        in_range = d < n;
        j = d;
        break;
      case isa::ModShfl::kXor:
        in_range = d < w;
        j = base + (g ^ d);
        break;
      case isa::ModShfl::kDown2: {
        const uint64_t k = l + d;  // index into A||B
        in_range = k < 2 * n;
        src_reg = k < n ? a : b;
        j = k < n ? k : k - n;
        break;
      }
      case isa::ModShfl::kUp2: {
        in_range = d <= l + n;
        const uint64_t k = in_range ? l + n - d : 0;  // index into B||A
        src_reg = k < n ? b : a;
        j = k < n ? k : k - n;
        break;
      }
      case isa::ModShfl::kUp:
        in_range = d <= g;
        j = base + g - d;
        break;
      case isa::ModShfl::kDown:
        in_range = g + d < w;
        j = base + g + d;
        break;
      case isa::ModShfl::kRotup:
        j = base + ((g + w - d % w) % w);
        break;
      case isa::ModShfl::kRotdn:
        j = base + ((g + d) % w);
        break;
    }
    const bool source_active = in_range && x.active(static_cast<unsigned>(j));
    uint32_t value;
    if (source_active) {
      value = x.Reg32(src_reg, static_cast<unsigned>(j));
    } else {
      value = two_regs ? 0 : x.Reg32(b, l);
      if (sanitize) {
        x.Diagnose(l, std::string("shfl.") + isa::kModNamesShfl[i.mod()] + ": lane " +
                          std::to_string(l) + " received the default value (" +
                          (in_range ? "source lane " + std::to_string(j) + " is inactive"
                                    : std::string("source out of range")) +
                          ")");
      }
    }
    x.Write(l, value, kI32);
  }
}

}  // namespace

void RegisterLane(SemanticsFn* t) {
  t[static_cast<uint8_t>(Op::kLane)] = Lane;
  t[static_cast<uint8_t>(Op::kCsrr)] = Csrr;
  t[static_cast<uint8_t>(Op::kVote)] = Vote;
  t[static_cast<uint8_t>(Op::kFirst)] = First;
  t[static_cast<uint8_t>(Op::kShfl)] = Shfl;
}

}  // namespace model
}  // namespace sgu
