// SPDX-License-Identifier: Apache-2.0
// SGU golden model: the executable form of docs/isa.md. One Step() executes one instruction and
// returns the retire record the RTL's retire port must match (docs/model.md).
#ifndef SGU_MODEL_H_
#define SGU_MODEL_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sgu/isa_gen.h"

namespace sgu {

// Launch registers of docs/isa.md "AXI4-Lite registers" that the model needs.
struct LaunchParams {
  uint32_t pc_start = 0;
  uint32_t lanes = 0;     // LANES register: 0 or > N means N
  uint32_t mem_base = 0;  // window [mem_base, mem_limit) the kernel may access
  uint32_t mem_limit = 0;
  std::array<uint32_t, 8> args{};  // ARG0..ARG7 -> s1..s8
};

// One store performed by an instruction. size 1, 2, 4 or 8; data little-endian in the low bytes.
struct MemWrite {
  uint32_t addr;
  uint32_t size;
  uint64_t data;
};

// A use of behaviour the source languages leave undefined (the model's sanitizer), e.g. a lane
// that received a shuffle default without asking for one.
struct Diagnostic {
  uint64_t order;  // retire record that caused it
  uint32_t pc;
  unsigned lane;
  std::string what;
};

// One retire record (docs/isa.md "Fetch, traps and the retire port").
struct Retire {
  uint64_t order = 0;  // 0-based index of this retire record in the run
  uint32_t pc = 0;
  uint64_t insn = 0;  // instruction word (0 when the fetch itself faulted)
  bool trap = false;
  isa::Cause cause = isa::Cause::kNone;
  uint32_t tval = 0;
  bool halt = false;
  // Destination. When rd_we is false (no write: no destination, s0, trap, load with exec == 0,
  // vector destination with exec == 0) rd, rd_pair, lane_mask and the data arrays are all 0.
  bool rd_we = false;
  uint8_t rd = 0;          // 6-bit register number (0-31 v, 32-63 s); for a pair: the even one
  bool rd_pair = false;    // 64-bit write of (rd, rd+1)
  uint32_t lane_mask = 0;  // vector rd: lanes written (= exec at issue); scalar rd: 1
  std::array<uint32_t, 32>
      data_lo{};  // written value per lane (lane 0 for scalar rd); 0 in unwritten lanes
  std::array<uint32_t, 32> data_hi{};  // high words of a pair write; 0 otherwise
  uint32_t exec = 0;                   // exec mask after the instruction
  std::vector<MemWrite> mem_writes;    // stores performed by this instruction, in order
};

// Byte-addressed little-endian memory of the golden model; the testbench's AXI memory uses the
// same class. Error ranges model AXI SLVERR/DECERR responses.
class Memory {
 public:
  explicit Memory(uint32_t size_bytes);  // bytes [0, size), zero-filled
  uint32_t size() const { return static_cast<uint32_t>(bytes_.size()); }
  uint8_t* data() { return bytes_.data(); }
  const uint8_t* data() const { return bytes_.data(); }
  // Any access touching [lo, hi) gets a bus error.
  void AddErrorRange(uint32_t lo, uint32_t hi);
  // True if [addr, addr + size) touches an error range or goes beyond size().
  bool IsError(uint32_t addr, uint32_t size) const;
  // Little-endian access of 1..8 bytes. Precondition !IsError(addr, size): an access beyond
  // size() throws std::out_of_range; error ranges are not checked here (callers check IsError).
  uint64_t Load(uint32_t addr, unsigned size) const;
  void Store(uint32_t addr, unsigned size, uint64_t value);

 private:
  struct Range {
    uint32_t lo, hi;
  };
  std::vector<uint8_t> bytes_;
  std::vector<Range> errors_;
};

namespace model {
struct State;  // the architectural state (sw/model/state.h)
}

class Model {
 public:
  // num_lanes 8, 16 or 32, else std::invalid_argument. mem must outlive the model.
  Model(unsigned num_lanes, Memory* mem);
  ~Model();
  Model(Model&&) noexcept;
  Model& operator=(Model&&) noexcept;
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // Reset the state as docs/isa.md "Machine state" and start running at p.pc_start.
  void Start(const LaunchParams& p);
  // Execute one instruction. Precondition running() (else std::logic_error).
  Retire Step();
  // False before Start() and after a halt or a trap retired.
  bool running() const;

  unsigned num_lanes() const;
  uint32_t pc() const;  // after a halt or trap: the pc of that instruction
  uint32_t exec() const;
  uint32_t vreg(unsigned r, unsigned lane) const;  // r 0..31 (std::out_of_range otherwise)
  uint32_t sreg(unsigned r) const;                 // r 0..31 (s0 = 0)
  uint64_t instret() const;  // retire records produced so far (incl. the trapping one)
  const std::vector<Diagnostic>& diagnostics() const;
  unsigned mask_depth() const;  // entries on the mask stack

 private:
  std::unique_ptr<model::State> st_;
};

}  // namespace sgu

#endif  // SGU_MODEL_H_
