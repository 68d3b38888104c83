// SPDX-License-Identifier: Apache-2.0
// AXI4 slave memory model for the SGU Verilator testbench (see axi_mem.h for the behaviour).
#include "axi_mem.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace sgu::tb {
namespace {

constexpr unsigned kMaxWBeatsBeforeAw = 256;  // longest AXI4 burst

// SplitMix64 step: derives independent sub-seeds from the one configured seed.
uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string Hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

uint64_t StrbMask(unsigned data_bytes) {
  return data_bytes >= 64 ? ~0ULL : (1ULL << data_bytes) - 1;
}

}  // namespace

AxiMemory::AxiMemory(uint8_t* data, uint32_t size, std::function<bool(uint32_t, uint32_t)> is_error,
                     AxiMemConfig cfg)
    : mem_(data), size_(size), is_error_(std::move(is_error)), cfg_(cfg) {
  switch (cfg_.data_bytes) {
    case 8:
      bus_log2_ = 3;
      break;
    case 16:
      bus_log2_ = 4;
      break;
    case 32:
      bus_log2_ = 5;
      break;
    case 64:
      bus_log2_ = 6;
      break;
    default:
      throw std::invalid_argument("AxiMemory: data_bytes must be 8, 16, 32 or 64, got " +
                                  std::to_string(cfg_.data_bytes));
  }
  if (cfg_.ready_percent < 1 || cfg_.ready_percent > 100) {
    throw std::invalid_argument("AxiMemory: ready_percent must be 1..100, got " +
                                std::to_string(cfg_.ready_percent));
  }
  if (data == nullptr && size != 0) {
    throw std::invalid_argument("AxiMemory: null memory with non-zero size");
  }
  uint64_t state = cfg_.seed;
  rng_ar_.seed(SplitMix64(state));
  rng_r_.seed(SplitMix64(state));
  rng_aw_.seed(SplitMix64(state));
  rng_w_.seed(SplitMix64(state));
  rng_b_.seed(SplitMix64(state));
}

// Probability ready_percent / 100, from the top 32 bits of one draw (multiply-shift mapping).
bool AxiMemory::Percent(std::mt19937_64& rng) {
  if (cfg_.ready_percent >= 100) return true;
  return (((rng() >> 32) * 100) >> 32) < cfg_.ready_percent;
}

// Uniform 0..max_latency.
unsigned AxiMemory::Latency(std::mt19937_64& rng) {
  if (cfg_.max_latency == 0) return 0;
  const uint64_t n = uint64_t{cfg_.max_latency} + 1;
  return static_cast<unsigned>(((rng() >> 32) * n) >> 32);
}

void AxiMemory::Fail(const char* channel, const std::string& what) const {
  throw AxiProtocolError(std::string("AXI ") + channel + " channel, cycle " +
                         std::to_string(cycle_) + ": " + what);
}

void AxiMemory::Decide() {
  arready_ = !rd_active_ && Percent(rng_ar_);
  awready_ = !aw_active_ && Percent(rng_aw_);
  wready_ = !w_done_ && Percent(rng_w_);
  if (!r_offered_ && rd_active_ && rd_wait_ == 0 && Percent(rng_r_)) {
    PrepareReadBeat();
    r_offered_ = true;
  }
  rvalid_ = r_offered_;
  bvalid_ = b_pending_ && b_wait_ == 0;
  decided_ = true;
}

void AxiMemory::DriveOutputs(AxiPins& p) {
  if (!decided_) Decide();
  p.arready = arready_;
  p.awready = awready_;
  p.wready = wready_;
  p.rvalid = rvalid_;
  for (unsigned i = 0; i < 16; ++i) p.rdata[i] = rvalid_ ? r_data_[i] : 0;
  p.rresp = rvalid_ ? r_resp_ : 0;
  p.rlast = rvalid_ && rd_beat_ == rd_.len;
  p.rid = rvalid_ ? rd_.id : 0;
  p.bvalid = bvalid_;
  p.bresp = bvalid_ ? b_resp_ : 0;
  p.bid = bvalid_ ? wr_.id : 0;
}

void AxiMemory::CheckStable(const char* ch, bool pending, const AddrPayload& held, bool valid,
                            const AddrPayload& now) const {
  if (!pending) return;
  const std::string c(ch);
  if (!valid) Fail(ch, c + "VALID deasserted before its handshake (" + c + "READY was low)");
  auto check = [&](const char* field, uint64_t was, uint64_t is) {
    if (was != is) {
      Fail(ch, c + field + " changed from " + Hex(was) + " to " + Hex(is) + " while " + c +
                   "VALID && !" + c + "READY");
    }
  };
  check("ADDR", held.addr, now.addr);
  check("LEN", held.len, now.len);
  check("SIZE", held.size, now.size);
  check("BURST", held.burst, now.burst);
  check("ID", held.id, now.id);
}

void AxiMemory::CheckWStable(const AxiPins& p) const {
  if (!w_pending_) return;
  if (!p.wvalid) Fail("W", "WVALID deasserted before its handshake (WREADY was low)");
  for (unsigned i = 0; i < cfg_.data_bytes / 4; ++i) {
    if (p.wdata[i] != w_held_.data[i]) {
      Fail("W", "WDATA word " + std::to_string(i) + " changed from " + Hex(w_held_.data[i]) +
                    " to " + Hex(p.wdata[i]) + " while WVALID && !WREADY");
    }
  }
  const uint64_t strb = p.wstrb & StrbMask(cfg_.data_bytes);
  if (strb != w_held_.strb) {
    Fail("W", "WSTRB changed from " + Hex(w_held_.strb) + " to " + Hex(strb) +
                  " while WVALID && !WREADY");
  }
  if (p.wlast != w_held_.last) {
    Fail("W", "WLAST changed from " + std::to_string(w_held_.last) + " to " +
                  std::to_string(p.wlast) + " while WVALID && !WREADY");
  }
}

// Checks an address-channel request at its handshake (AXI4 A3.4.1).
AxiMemory::Burst AxiMemory::CheckBurst(const char* ch, const AddrPayload& a) const {
  const std::string c(ch);
  if (a.burst == kAxiBurstWrap) Fail(ch, c + "BURST=WRAP (2): WRAP not supported");
  if (a.burst != kAxiBurstFixed && a.burst != kAxiBurstIncr) {
    Fail(ch, c + "BURST=" + std::to_string(a.burst) + " is not a valid burst type");
  }
  if (a.size > bus_log2_) {
    Fail(ch, c + "SIZE=" + std::to_string(a.size) + " (" + std::to_string(1ULL << a.size) +
                 " bytes) is larger than the " + std::to_string(cfg_.data_bytes) +
                 "-byte data bus");
  }
  if (a.burst == kAxiBurstFixed && a.len > 15) {
    Fail(ch, c + "LEN=" + std::to_string(a.len) + " with a FIXED burst: at most 16 beats");
  }
  if (a.burst == kAxiBurstIncr) {
    const uint64_t nb = 1ULL << a.size;
    const uint64_t aligned = a.addr & ~(nb - 1);
    const uint64_t last = aligned + (uint64_t{a.len} + 1) * nb - 1;
    if ((a.addr >> 12) != (last >> 12)) {
      Fail(ch, "burst crosses a 4 KB boundary: " + c + "ADDR=" + Hex(a.addr) + " " + c +
                   "LEN=" + std::to_string(a.len) + " " + c + "SIZE=" + std::to_string(a.size) +
                   " ends at " + Hex(last));
    }
  }
  Burst b;
  b.addr = a.addr;
  b.len = a.len;
  b.size = a.size;
  b.burst = a.burst;
  b.id = a.id;
  return b;
}

// AXI4 A3.4.2: FIXED bursts repeat Start_Address; INCR bursts start at Start_Address and continue
// at Aligned_Address + N * Number_Bytes.
uint32_t AxiMemory::BeatAddress(const Burst& b, unsigned beat) const {
  if (b.burst == kAxiBurstFixed || beat == 0) return b.addr;
  const uint32_t nb = 1u << b.size;
  return (b.addr & ~(nb - 1)) + beat * nb;
}

// Response for the transfer [addr, Aligned(addr) + 2^size).
uint8_t AxiMemory::BeatResponse(uint32_t addr, unsigned size) const {
  const uint64_t nb = 1ULL << size;
  const uint64_t end = (addr & ~(nb - 1)) + nb;
  if (end > size_) return kAxiRespDecErr;
  if (is_error_ && is_error_(addr, static_cast<uint32_t>(end - addr))) return kAxiRespSlvErr;
  return kAxiRespOkay;
}

void AxiMemory::PrepareReadBeat() {
  const uint32_t a = BeatAddress(rd_, rd_beat_);
  r_resp_ = BeatResponse(a, rd_.size);
  std::fill(std::begin(r_data_), std::end(r_data_), 0u);
  if (r_resp_ != kAxiRespOkay) return;
  const uint32_t nb = 1u << rd_.size;
  const uint32_t end = (a & ~(nb - 1)) + nb;
  const uint32_t base = a & ~(cfg_.data_bytes - 1);
  for (uint32_t x = a; x < end; ++x) {
    const uint32_t lane = x - base;
    r_data_[lane / 4] |= uint32_t{mem_[x]} << (8 * (lane % 4));
  }
}

void AxiMemory::WriteBeat(const WBeat& w, unsigned beat) {
  const uint32_t a = BeatAddress(wr_, beat);
  const uint8_t resp = BeatResponse(a, wr_.size);
  b_resp_ = std::max(b_resp_, resp);
  if (resp != kAxiRespOkay) return;
  const uint32_t nb = 1u << wr_.size;
  const uint32_t end = (a & ~(nb - 1)) + nb;
  const uint32_t base = a & ~(cfg_.data_bytes - 1);
  bool open = false;
  AxiWrite piece{0, 0, 0};
  for (uint32_t x = a; x < end; ++x) {
    const uint32_t lane = x - base;
    if (!((w.strb >> lane) & 1)) {
      if (open) writes_.push_back(piece);
      open = false;
      continue;
    }
    const uint8_t byte = static_cast<uint8_t>(w.data[lane / 4] >> (8 * (lane % 4)));
    mem_[x] = byte;
    if (open && x % 8 != 0) {
      piece.data |= uint64_t{byte} << (8 * piece.size);
      ++piece.size;
    } else {
      if (open) writes_.push_back(piece);
      piece = AxiWrite{x, 1, byte};
      open = true;
    }
  }
  if (open) writes_.push_back(piece);
}

// Writes buffered W beats once their AW is known, checking WLAST against AWLEN.
void AxiMemory::DrainWrites() {
  while (aw_active_ && !b_pending_ && !wq_.empty()) {
    const WBeat w = wq_.front();
    wq_.pop_front();
    const unsigned beat = wr_beat_;
    if (w.last && beat < wr_.len) {
      Fail("W", "WLAST asserted on beat " + std::to_string(beat) + " but AWLEN=" +
                    std::to_string(wr_.len) + " (" + std::to_string(wr_.len + 1) + " beats)");
    }
    if (!w.last && beat == wr_.len) {
      Fail("W", "WLAST low on beat " + std::to_string(beat) + ", the last beat of AWLEN=" +
                    std::to_string(wr_.len) + ": W beats beyond the burst");
    }
    WriteBeat(w, beat);
    ++wr_beat_;
    if (beat == wr_.len) {
      b_pending_ = true;
      b_wait_ = Latency(rng_b_);
    }
  }
}

void AxiMemory::Clock(const AxiPins& p) {
  if (!decided_) Decide();

  const AddrPayload ar{p.araddr, p.arlen, p.arsize, p.arburst, p.arid};
  const AddrPayload aw{p.awaddr, p.awlen, p.awsize, p.awburst, p.awid};
  CheckStable("AR", ar_pending_, ar_held_, p.arvalid, ar);
  CheckStable("AW", aw_pending_, aw_held_, p.awvalid, aw);
  CheckWStable(p);

  // Latency counters of transactions already in flight.
  if (rd_active_ && rd_wait_ > 0) --rd_wait_;
  if (b_pending_ && b_wait_ > 0) --b_wait_;

  // Read side: R then AR (AR is only accepted when no burst is in flight).
  if (rvalid_ && p.rready) {
    ++read_beats_;
    r_offered_ = false;
    if (rd_beat_ == rd_.len) {
      rd_active_ = false;
    } else {
      ++rd_beat_;
    }
  }
  if (p.arvalid && arready_) {
    rd_ = CheckBurst("AR", ar);
    rd_active_ = true;
    rd_beat_ = 0;
    rd_wait_ = Latency(rng_r_);
    ar_pending_ = false;
  } else {
    ar_pending_ = p.arvalid;
    ar_held_ = ar;
  }

  // Write side: B, then AW, then W (AW and W may arrive in the same cycle, in either order).
  if (bvalid_ && p.bready) {
    aw_active_ = false;
    b_pending_ = false;
    w_done_ = false;
    wr_beat_ = 0;
  }
  if (p.awvalid && awready_) {
    wr_ = CheckBurst("AW", aw);
    aw_active_ = true;
    wr_beat_ = 0;
    b_resp_ = kAxiRespOkay;
    aw_pending_ = false;
  } else {
    aw_pending_ = p.awvalid;
    aw_held_ = aw;
  }
  WBeat w;
  for (unsigned i = 0; i < cfg_.data_bytes / 4; ++i) w.data[i] = p.wdata[i];
  w.strb = p.wstrb & StrbMask(cfg_.data_bytes);
  w.last = p.wlast;
  if (p.wvalid && wready_) {
    ++write_beats_;
    wq_.push_back(w);
    if (w.last) w_done_ = true;
    if (!aw_active_ && wq_.size() > kMaxWBeatsBeforeAw) {
      Fail("W", std::to_string(wq_.size()) +
                    " W beats before AW without WLAST: W beats beyond the longest burst");
    }
    w_pending_ = false;
  } else {
    w_pending_ = p.wvalid;
    w_held_ = w;
  }
  DrainWrites();

  ++cycle_;
  decided_ = false;
}

std::vector<AxiWrite> AxiMemory::TakeWrites() {
  std::vector<AxiWrite> out;
  out.swap(writes_);
  return out;
}

bool AxiMemory::Idle() const { return !rd_active_ && !aw_active_ && wq_.empty(); }

}  // namespace sgu::tb
