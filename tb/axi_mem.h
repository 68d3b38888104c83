// SPDX-License-Identifier: Apache-2.0
// AXI4 slave memory model for the SGU Verilator testbench.
//
// The model sits on the slave side of one AXI4 port. Each simulated cycle the harness calls
//   1. DriveOutputs(pins) with the clock low: the model sets every "out" field (ready on AR/AW/W,
//      valid and payload on R/B) from its internal state and its random generator only; it never
//      looks at this cycle's "in" fields, so there is no combinational path through the model;
//   2. Clock(pins) once per rising edge, with the pins as sampled just before the edge: a transfer
//      happens on a channel iff valid && ready there. Clock performs the handshakes, the memory
//      writes and the protocol checks.
// DriveOutputs may be called several times in one cycle; it draws its random decisions once per
// cycle and returns the same outputs each time. Clock uses the model's own record of what it drove
// (the "out" fields in the pins passed to Clock are not read).
//
// Bursts (AXI4 A3.4): INCR and FIXED are supported; WRAP throws. Beat N's address is
//   FIXED: Start_Address;  INCR: Start_Address for beat 0, Aligned_Address + N * 2^size after,
// and a beat transfers the bytes [Address_N, Aligned(Address_N) + 2^size), each on the byte lane
// (address mod data_bytes). Read data has those bytes on their lanes and zero on all other lanes.
// A write writes the bytes of the transfer whose WSTRB bit is set; strobes outside the transfer's
// lanes are ignored.
//
// Responses, decided per beat from the bytes of the transfer (independent of WSTRB):
//   any byte at or beyond the memory size          -> DECERR (3), nothing read or written;
//   else is_error(Address_N, bytes of transfer)    -> SLVERR (2), nothing read or written;
//   else                                           -> OKAY (0).
// Read data of an error beat is zero. BRESP is the worst (numerically largest) beat response of
// the burst; the OKAY beats of a burst are written even when other beats fail.
//
// Ordering and concurrency: one read burst and one write burst in flight. ARREADY is low from the
// AR handshake until the last R beat is accepted; AWREADY is low from the AW handshake until the
// B handshake. W data may come before its AW (it is buffered) or after it; WREADY stays low after
// the WLAST beat until the B handshake, so W data of the next burst waits for that.
//
// Timing: after an AR handshake the first R beat waits 0..max_latency random cycles; after that,
// in every cycle without an R beat on offer, one is offered with probability ready_percent.
// A beat on offer stays, with a stable payload, until RREADY. After the last W beat (with its AW
// known) BVALID rises after 0..max_latency random cycles and stays until BREADY. ARREADY, AWREADY
// and WREADY are each high with probability ready_percent in cycles where they may be high.
//
// Protocol checks, each throwing AxiProtocolError naming the channel, the field and the cycle
// (the number of Clock calls before this one):
//   AR/AW/W: VALID deasserted before its handshake; payload changed while VALID && !READY;
//   AR/AW:   burst type 3 (reserved), WRAP (not supported), size larger than the bus, FIXED burst
//            longer than 16 beats, burst crossing a 4 KB boundary;
//   W:       WLAST on a beat other than the last, WLAST missing on the last beat (more beats than
//            the burst), more than 256 W beats without WLAST before AW.
// (ARLEN/AWLEN > 255 cannot be represented in the uint8_t fields.)
// After an exception the model state is unspecified; build a new model.
//
// Randomness comes only from AxiMemConfig::seed (std::mt19937_64 per channel, sub-seeded with
// SplitMix64, raw output mapped to ranges here), so a run with the same master is reproducible.
#ifndef SGU_TB_AXI_MEM_H_
#define SGU_TB_AXI_MEM_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace sgu::tb {

// One cycle's view of the AXI4 signals. "in" = driven by the master (the RTL), "out" = driven by
// this model. Data buses hold up to 512 bits; word 0 is bits 31:0. Only the low data_bytes bytes
// of rdata/wdata and the low data_bytes bits of wstrb are used.
struct AxiPins {
  // AR
  bool arvalid = false;
  bool arready = false;  // out
  uint32_t araddr = 0;
  uint8_t arlen = 0, arsize = 0, arburst = 0;
  uint8_t arid = 0;
  // R
  bool rvalid = false;  // out
  bool rready = false;
  uint32_t rdata[16] = {};  // out
  uint8_t rresp = 0;        // out
  bool rlast = false;       // out
  uint8_t rid = 0;          // out
  // AW
  bool awvalid = false;
  bool awready = false;  // out
  uint32_t awaddr = 0;
  uint8_t awlen = 0, awsize = 0, awburst = 0;
  uint8_t awid = 0;
  // W
  bool wvalid = false;
  bool wready = false;  // out
  uint32_t wdata[16] = {};
  uint64_t wstrb = 0;
  bool wlast = false;
  // B
  bool bvalid = false;  // out
  bool bready = false;
  uint8_t bresp = 0;  // out
  uint8_t bid = 0;    // out
};

struct AxiMemConfig {
  unsigned data_bytes = 8;  // AXI data width in bytes: 8, 16, 32 or 64
  uint64_t seed = 1;
  unsigned max_latency = 0;      // extra random cycles (0..max_latency) before a read burst's first
                                 // beat / a write response
  unsigned ready_percent = 100;  // 1..100: probability (percent) that arready/awready/wready is
                                 // high in a cycle, and that a valid R beat is offered in a cycle
                                 // after the latency
};

// One aligned run of enabled bytes written to memory: the bytes [addr, addr + size), size 1..8,
// all inside one naturally aligned 8-byte doubleword, data little-endian (byte addr in bits 7:0).
// A longer run of enabled bytes in a beat is split at the 8-byte boundaries.
struct AxiWrite {
  uint32_t addr;
  uint32_t size;
  uint64_t data;
};

class AxiProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr uint8_t kAxiBurstFixed = 0;
inline constexpr uint8_t kAxiBurstIncr = 1;
inline constexpr uint8_t kAxiBurstWrap = 2;
inline constexpr uint8_t kAxiRespOkay = 0;
inline constexpr uint8_t kAxiRespSlvErr = 2;
inline constexpr uint8_t kAxiRespDecErr = 3;

class AxiMemory {
 public:
  // data[0..size) is the memory (owned by the caller, must outlive the model); is_error(addr, len)
  // says whether an access touching bytes [addr, addr + len) gets SLVERR (may be empty: no
  // SLVERR). Addresses at or beyond size get DECERR. Throws std::invalid_argument for a bad
  // configuration (data_bytes not 8/16/32/64, ready_percent not 1..100).
  AxiMemory(uint8_t* data, uint32_t size, std::function<bool(uint32_t, uint32_t)> is_error,
            AxiMemConfig cfg);

  // Sets all "out" fields for this cycle; see the file comment.
  void DriveOutputs(AxiPins& p);
  // One rising edge; see the file comment. Throws AxiProtocolError on a protocol violation.
  void Clock(const AxiPins& p);
  // Writes performed since the last call, in order.
  std::vector<AxiWrite> TakeWrites();
  // No transaction in flight: no read burst, no AW, no buffered W data, no pending B.
  bool Idle() const;

  uint64_t read_beats() const { return read_beats_; }    // R handshakes
  uint64_t write_beats() const { return write_beats_; }  // W handshakes
  uint64_t cycle() const { return cycle_; }              // Clock calls so far

 private:
  struct Burst {  // an accepted AR or AW
    uint32_t addr = 0;
    uint8_t len = 0, size = 0, burst = 0, id = 0;
  };
  struct WBeat {
    uint32_t data[16] = {};
    uint64_t strb = 0;
    bool last = false;
  };
  // Channel payloads as seen while valid && !ready, to check they stay put.
  struct AddrPayload {
    uint32_t addr = 0;
    uint8_t len = 0, size = 0, burst = 0, id = 0;
  };

  void Decide();  // draws this cycle's outputs once
  bool Percent(std::mt19937_64& rng);
  unsigned Latency(std::mt19937_64& rng);
  [[noreturn]] void Fail(const char* channel, const std::string& what) const;

  void CheckStable(const char* channel, bool pending, const AddrPayload& held, bool valid,
                   const AddrPayload& now) const;
  void CheckWStable(const AxiPins& p) const;
  Burst CheckBurst(const char* channel, const AddrPayload& a) const;
  uint32_t BeatAddress(const Burst& b, unsigned beat) const;
  uint8_t BeatResponse(uint32_t addr, unsigned size) const;
  void PrepareReadBeat();
  void DrainWrites();
  void WriteBeat(const WBeat& w, unsigned beat);

  uint8_t* mem_;
  uint32_t size_;
  std::function<bool(uint32_t, uint32_t)> is_error_;
  AxiMemConfig cfg_;
  unsigned bus_log2_ = 3;
  std::mt19937_64 rng_ar_, rng_r_, rng_aw_, rng_w_, rng_b_;

  uint64_t cycle_ = 0;
  bool decided_ = false;
  // This cycle's outputs (valid once decided_).
  bool arready_ = false, awready_ = false, wready_ = false;
  bool rvalid_ = false, bvalid_ = false;

  // Read side.
  bool rd_active_ = false;
  Burst rd_;
  unsigned rd_beat_ = 0;      // index of the beat being offered / next to offer
  unsigned rd_wait_ = 0;      // latency cycles left before the first beat
  bool r_offered_ = false;    // a beat is on offer (stays until RREADY)
  uint32_t r_data_[16] = {};  // payload of the beat on offer
  uint8_t r_resp_ = 0;

  // Write side.
  bool aw_active_ = false;  // AW accepted, B not yet handshaken
  Burst wr_;
  unsigned wr_beat_ = 0;    // W beats written for wr_
  std::deque<WBeat> wq_;    // accepted W beats not yet written (W before AW)
  bool w_done_ = false;     // WLAST accepted for the current burst
  uint8_t b_resp_ = 0;      // worst response so far
  bool b_pending_ = false;  // all beats written, B not handshaken
  unsigned b_wait_ = 0;     // latency cycles left before BVALID

  // Protocol-check state: previous cycle's valid && !ready per channel and its payload.
  bool ar_pending_ = false, aw_pending_ = false, w_pending_ = false;
  AddrPayload ar_held_, aw_held_;
  WBeat w_held_;

  std::vector<AxiWrite> writes_;
  uint64_t read_beats_ = 0, write_beats_ = 0;
};

}  // namespace sgu::tb

#endif  // SGU_TB_AXI_MEM_H_
