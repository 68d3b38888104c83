// SPDX-License-Identifier: Apache-2.0
// Generator of random, terminating SGU assembly programs for lockstep testing, and of random
// instruction words near the legality rules' edges. Both read the legality attributes of
// isa/sgu_isa.txt from the generated decode table (isa::kInsns): programs are legal by
// construction (every legal variant of every instruction can occur), words are legal or break
// one or two rules on purpose.
#ifndef SGU_TB_RANDOM_PROGRAM_H_
#define SGU_TB_RANDOM_PROGRAM_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sgu/isa_gen.h"
#include "sgu/model.h"

namespace sgu::tb {

// Memory layout shared by generated programs and the tests.
inline constexpr uint32_t kMemSize = 0x20000;     // AXI memory size
inline constexpr uint32_t kWindowLimit = 0x10000; // MEM_LIMIT: [0, 0x10000) is the kernel's
inline constexpr uint32_t kCodeBase = 0x1000;     // PC_START
inline constexpr uint32_t kDataBase = 0x8000;     // data region, 0x8000..0xe000
inline constexpr uint32_t kErrBase = 0xf000;      // [0xf000, 0xf040) answers SLVERR
inline constexpr uint32_t kErrLimit = 0xf040;

// Reproducible random numbers: std::mt19937_64 output mapped by hand (STYLE.md rule 15).
class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  uint64_t Bits() { return gen_(); }
  uint32_t Below(uint32_t n) { return n ? static_cast<uint32_t>(gen_() % n) : 0; }  // [0, n)
  bool Percent(unsigned p) { return Below(100) < p; }
  int32_t Range(int32_t lo, int32_t hi) { return lo + static_cast<int32_t>(Below(hi - lo + 1)); }

 private:
  std::mt19937_64 gen_;
};

// One legal choice of an instruction's fields, made from its attributes in the generated table:
// dt, mod, for each register operand (rd, rs1, rs2, rs3, isa::RegIndex) whether it is scalar
// and whether it is a 64-bit pair, and the immediate where a rule bounds it. Registers and free
// immediates are left to the caller.
struct Variant {
  unsigned dt = 0;
  unsigned mod = 0;
  bool scalar[4] = {false, false, false, false};
  bool pair[4] = {false, false, false, false};
  bool imm_ruled = false;  // imm:special or imm:width: imm is the legal value below
  int32_t imm = 0;
};

// Every legal variant of `in` at num_lanes lanes: each legal (dt, mod) pair (forbid: pairs
// left out), each vector/scalar choice the :s/:v/:u attributes and the scalar-destination rule
// allow for the operands it uses, and each value of a ruled immediate. Pairs follow :d/:m.
const std::vector<Variant>& AllVariants(const isa::InsnInfo& in, unsigned num_lanes);

// A legal register for an operand of the given kind: scalar or vector, a pair's even register
// outside isa::kPairExcluded, destination registers outside the generator's reserved ones
// (v30/v31, s26..s31), s0 now and then as a destination (writes are dropped).
unsigned PickRegister(bool scalar, bool pair, bool dest, Rng& rng);

// An instruction word for the decoder tests: mostly a legal variant of a defined opcode with
// registers and immediates at the rules' edges, often with one or two rules broken on purpose
// (dt or mod outside its set, a stray field, a forbidden pair, a wrong register kind, an odd or
// excluded pair register, an immediate just past its bound), sometimes an undefined opcode or
// random bits.
uint64_t RandomDecodeWord(unsigned num_lanes, Rng& rng);

struct RandomProgramConfig {
  unsigned num_lanes = 16;
  unsigned items = 300;        // top-level items (instructions, if/else regions, loops)
  unsigned trap_percent = 20;  // chance that the program contains one trapping instruction
};

// Returns assembly text. The program starts at kCodeBase, expects MEM_BASE 0 and MEM_LIMIT
// kWindowLimit, touches only the data region (plus, rarely and on purpose, addresses that
// fault), always terminates, and ends with halt (or an earlier trap).
std::string GenerateRandomProgram(const RandomProgramConfig& cfg, Rng& rng);

// Returns assembly text that executes every legal variant of one instruction (AllVariants: every
// dt, mod, vector/scalar operand choice and ruled immediate; at least 48 instances, random
// variants fill up) twice: with all lanes on and under a divergent mask, then halts. Used by the
// per-instruction lockstep tests for the instructions with a destination or memory access (not
// control flow).
std::string GenerateInstructionProgram(const isa::InsnInfo& insn, unsigned num_lanes, Rng& rng);

// A memory image with `source` assembled at kCodeBase, random data in the data region, and the
// SLVERR range [kErrBase, kErrLimit). Throws AsmError for bad source.
Memory MakeImage(const std::string& source, Rng& rng,
                 const std::string& filename = "<generated>");

// Launch parameters matching MakeImage: window [0, kWindowLimit), random arguments, all lanes
// or (when partial) a random partial sub-group.
LaunchParams MakeLaunch(unsigned num_lanes, bool partial, Rng& rng);

}  // namespace sgu::tb

#endif  // SGU_TB_RANDOM_PROGRAM_H_
