// SPDX-License-Identifier: Apache-2.0
// Tests of the on-chip memory (rtl/sgu_axi_bram.sv), verilated alone at 64-bit data: AXI4 INCR
// and FIXED bursts with narrow sizes and random strobes, WRAP and out-of-range beats, the
// AXI4-Lite host port, and all three streams at once under random valid/ready timing.
//
// Expected values come from a byte array updated by the test with the AXI4 beat-address rules
// (A3.4.1): beat i of an INCR burst is at Aligned(addr, size) + i * 2^size (the first at addr),
// every beat of a FIXED burst at addr; a beat writes the strobed bytes of the 8-byte word that
// holds its address and reads that whole word.
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <vector>

#include "Vsgu_axi_bram.h"
#include "fpga_test_util.h"

namespace sgu::tb {
namespace {

// Values the model was verilated with (tb/fpga/CMakeLists.txt).
constexpr uint32_t kBase = 0x20000000;
constexpr uint32_t kSize = 8192;
constexpr unsigned kBytes = 8;  // data bus bytes

class TestRng {
 public:
  explicit TestRng(uint64_t seed) : e_(seed) {}
  uint64_t Next() { return e_(); }
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>(((e_() >> 32) * n) >> 32); }
  bool Percent(unsigned pct) { return Below(100) < pct; }

 private:
  std::mt19937_64 e_;
};

struct Burst {
  bool write = false;
  uint32_t addr = 0;
  uint8_t len = 0, size = 3, burst = 1, id = 0;
  std::vector<uint64_t> wdata, wstrb;
  // Expected per beat (reads) and overall (writes).
  std::vector<uint64_t> rdata;
  std::vector<uint8_t> rresp;
  uint8_t bresp = 0;
};

struct HostOp {
  bool write = false;
  uint32_t addr = 0, data = 0;
  uint8_t strb = 0xF;
  uint32_t expect = 0;
  uint8_t resp = 0;
};

class AxiBramTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx_ = std::make_unique<VerilatedContext>();
    ctx_->randReset(2);
    top_ = std::make_unique<Vsgu_axi_bram>(ctx_.get(), "top");
    seed_ = SeedFromEnv(0xb7a3);
    rng_ = std::make_unique<TestRng>(seed_);
    ref_.assign(kSize, 0);
    // Reset is asynchronous: an edge of rst_ni (not only its level) starts it.
    top_->rst_ni = 1;
    top_->clk_i = 0;
    top_->eval();
    top_->rst_ni = 0;
    top_->eval();
    for (int i = 0; i < 3; ++i) Cycle();
    top_->rst_ni = 1;
    // Block RAM has no reset (and Verilator starts it random): zero it through the AXI4 port.
    for (uint32_t off = 0; off < kSize; off += 256 * kBytes) {
      Burst b;
      b.write = true;
      b.addr = kBase + off;
      b.len = 255;
      b.wdata.assign(256, 0);
      b.wstrb.assign(256, 0xFF);
      aw_q_.push_back(b);
    }
    Drain(kSize / (256 * kBytes));
    done_ = 0;
  }
  void TearDown() override {
    top_->final();
    if (HasFailure()) std::printf("seed: SGU_SEED=0x%llx\n", static_cast<unsigned long long>(seed_));
  }

  static bool InRange(uint32_t a) { return a - kBase < kSize; }
  static uint32_t BeatAddr(const Burst& b, unsigned i) {
    if (b.burst == 0 || i == 0) return b.addr;
    const uint32_t step = 1u << b.size;
    return (b.addr & ~(step - 1)) + i * step;
  }
  static uint64_t LaneMask(uint32_t a, unsigned size) {  // strobes allowed for a beat at a
    const unsigned lo = a % kBytes, hi = (a & ~((1u << size) - 1)) % kBytes + (1u << size);
    uint64_t m = 0;
    for (unsigned j = lo; j < hi; ++j) m |= 1ull << j;
    return m;
  }
  uint64_t RefWord(uint32_t a) const {
    const uint32_t w = (a - kBase) / kBytes * kBytes;
    uint64_t v = 0;
    for (unsigned j = 0; j < kBytes; ++j) v |= static_cast<uint64_t>(ref_[w + j]) << (8 * j);
    return v;
  }

  // Makes a burst in [lo, hi) (offsets from the base; beats may run past hi only when the
  // range reaches the end of memory) and computes its expected results against ref_, applying
  // its writes to ref_.
  Burst MakeBurst(bool write, uint32_t lo, uint32_t hi, bool allow_errors) {
    Burst b;
    b.write = write;
    b.size = static_cast<uint8_t>(rng_->Below(4));
    b.len = static_cast<uint8_t>(rng_->Below(rng_->Percent(20) ? 40 : 9));
    b.burst = rng_->Percent(15) ? 0 : 1;
    b.id = static_cast<uint8_t>(rng_->Below(16));
    const uint32_t span = b.burst == 0 ? (1u << b.size) : (b.len + 1u) << b.size;
    const uint32_t room = hi - lo > span ? hi - lo - span : 0;
    b.addr = kBase + lo + rng_->Below(room + 1);
    if (allow_errors && rng_->Percent(10)) {
      b.addr = rng_->Percent(50) ? kBase + kSize - 8 * rng_->Below(4) : kBase - 64;
    }
    if (allow_errors && rng_->Percent(5)) b.burst = 2;  // WRAP: not supported
    bool any_err = false;
    for (unsigned i = 0; i <= b.len; ++i) {
      const uint32_t a = BeatAddr(b, i);
      const bool ok = b.burst != 2 && InRange(a);
      any_err |= !ok;
      if (write) {
        const uint64_t strb = rng_->Next() & LaneMask(a, b.size);
        const uint64_t data = rng_->Next();
        b.wdata.push_back(data);
        b.wstrb.push_back(strb);
        if (ok) {
          const uint32_t w = (a - kBase) / kBytes * kBytes;
          for (unsigned j = 0; j < kBytes; ++j) {
            if (strb >> j & 1) ref_[w + j] = static_cast<uint8_t>(data >> (8 * j));
          }
        }
      } else {
        b.rdata.push_back(ok ? RefWord(a) : 0);
        b.rresp.push_back(ok ? 0 : 2);
      }
    }
    b.bresp = any_err ? 2 : 0;
    return b;
  }

  HostOp MakeHost(bool write, uint32_t lo, uint32_t hi) {
    HostOp h;
    h.write = write;
    h.addr = kBase + lo + 4 * rng_->Below((hi - lo) / 4);
    if (rng_->Percent(5)) h.addr = kBase + kSize + 4 * rng_->Below(64);
    const bool ok = InRange(h.addr);
    h.resp = ok ? 0 : 2;
    if (write) {
      h.data = static_cast<uint32_t>(rng_->Next());
      h.strb = static_cast<uint8_t>(rng_->Below(16));
      if (ok) {
        for (unsigned j = 0; j < 4; ++j) {
          if (h.strb >> j & 1) ref_[h.addr - kBase + j] = static_cast<uint8_t>(h.data >> (8 * j));
        }
      }
    } else {
      h.expect = ok ? static_cast<uint32_t>(RefWord(h.addr) >> (8 * (h.addr % kBytes))) : 0;
    }
    return h;
  }

  // An AW or AR payload: the burst's while VALID, noise otherwise (the memory must take it only
  // with the handshake: its burst registers follow the payload while ready, rtl/sgu_axi_bram.sv).
  template <typename A, typename L, typename S, typename B, typename I>
  void DriveAddress(const Burst* b, A& addr, L& len, S& size, B& burst, I& id) {
    if (b) {
      addr = b->addr;
      len = b->len;
      size = b->size;
      burst = b->burst;
      id = b->id;
      return;
    }
    const uint64_t n = rng_->Next();
    addr = static_cast<uint32_t>(n);
    len = static_cast<uint8_t>(n >> 32);
    size = static_cast<uint8_t>((n >> 40) & 7);
    burst = static_cast<uint8_t>((n >> 43) & 3);
    id = static_cast<uint8_t>((n >> 45) & 15);
  }

  // One cycle of all three masters (AXI4 writes, AXI4 reads, host) against the DUT.
  void Cycle() {
    // Drive.
    const Burst* aw = aw_q_.empty() ? nullptr : &aw_q_.front();
    top_->s_axi_awvalid_i = aw && aw_valid_;
    DriveAddress(top_->s_axi_awvalid_i ? aw : nullptr, top_->s_axi_awaddr_i, top_->s_axi_awlen_i,
                 top_->s_axi_awsize_i, top_->s_axi_awburst_i, top_->s_axi_awid_i);
    const Burst* wb = w_q_.empty() ? nullptr : &w_q_.front();
    top_->s_axi_wvalid_i = wb && w_valid_;
    if (wb) {
      top_->s_axi_wdata_i = wb->wdata[w_beat_];
      top_->s_axi_wstrb_i = static_cast<uint8_t>(wb->wstrb[w_beat_]);
      top_->s_axi_wlast_i = w_beat_ == wb->len;
    }
    top_->s_axi_bready_i = b_ready_;
    const Burst* ar = ar_q_.empty() ? nullptr : &ar_q_.front();
    top_->s_axi_arvalid_i = ar && ar_valid_;
    DriveAddress(top_->s_axi_arvalid_i ? ar : nullptr, top_->s_axi_araddr_i, top_->s_axi_arlen_i,
                 top_->s_axi_arsize_i, top_->s_axi_arburst_i, top_->s_axi_arid_i);
    top_->s_axi_rready_i = r_ready_;
    const HostOp* h = host_q_.empty() ? nullptr : &host_q_.front();
    top_->s_axil_awvalid_i = h && h->write && !host_wait_ && host_valid_;
    top_->s_axil_wvalid_i = h && h->write && !host_wait_ && host_valid_;
    top_->s_axil_arvalid_i = h && !h->write && !host_wait_ && host_valid_;
    if (h) {
      top_->s_axil_awaddr_i = h->addr;
      top_->s_axil_araddr_i = h->addr;
      top_->s_axil_wdata_i = h->data;
      top_->s_axil_wstrb_i = h->strb;
    }
    top_->s_axil_bready_i = host_rready_;
    top_->s_axil_rready_i = host_rready_;
    top_->clk_i = 0;
    top_->eval();
    ctx_->timeInc(1);
    // Handshakes.
    const bool aw_hs = top_->s_axi_awvalid_i && top_->s_axi_awready_o;
    const bool w_hs = top_->s_axi_wvalid_i && top_->s_axi_wready_o;
    const bool b_hs = top_->s_axi_bvalid_o && b_ready_;
    const bool ar_hs = top_->s_axi_arvalid_i && top_->s_axi_arready_o;
    const bool r_hs = top_->s_axi_rvalid_o && r_ready_;
    const bool haw_hs = top_->s_axil_awvalid_i && top_->s_axil_awready_o;
    const bool hw_hs = top_->s_axil_wvalid_i && top_->s_axil_wready_o;
    const bool hb_hs = top_->s_axil_bvalid_o && host_rready_;
    const bool har_hs = top_->s_axil_arvalid_i && top_->s_axil_arready_o;
    const bool hr_hs = top_->s_axil_rvalid_o && host_rready_;
    EXPECT_EQ(haw_hs, hw_hs) << "host AW and W are taken together";
    if (b_hs) {
      ASSERT_FALSE(b_pend_.empty()) << "B without a write";
      EXPECT_EQ(top_->s_axi_bresp_o, b_pend_.front().bresp) << "write at " << std::hex << b_pend_.front().addr;
      EXPECT_EQ(top_->s_axi_bid_o, b_pend_.front().id);
      b_pend_.pop_front();
      ++done_;
    }
    if (r_hs) {
      ASSERT_FALSE(r_pend_.empty()) << "R without a read";
      const Burst& rb = r_pend_.front();
      EXPECT_EQ(top_->s_axi_rdata_o, rb.rdata[r_beat_])
          << "read at 0x" << std::hex << rb.addr << " beat " << std::dec << r_beat_ << " size "
          << int(rb.size) << " burst " << int(rb.burst);
      EXPECT_EQ(top_->s_axi_rresp_o, rb.rresp[r_beat_]);
      EXPECT_EQ(top_->s_axi_rid_o, rb.id);
      EXPECT_EQ(top_->s_axi_rlast_o, r_beat_ == rb.len);
      if (++r_beat_ > rb.len) {
        r_beat_ = 0;
        r_pend_.pop_front();
        ++done_;
      }
    }
    if (hb_hs || hr_hs) {
      ASSERT_TRUE(h && host_wait_);
      if (hb_hs) EXPECT_EQ(top_->s_axil_bresp_o, h->resp) << "host write 0x" << std::hex << h->addr;
      if (hr_hs) {
        EXPECT_EQ(top_->s_axil_rresp_o, h->resp);
        EXPECT_EQ(top_->s_axil_rdata_o, h->expect) << "host read 0x" << std::hex << h->addr;
      }
      host_q_.pop_front();
      host_wait_ = false;
      ++done_;
    }
    top_->clk_i = 1;
    top_->eval();
    ctx_->timeInc(1);
    // Advance the masters (valid, once raised, stays until its handshake).
    if (aw_hs) {
      w_q_.push_back(aw_q_.front());
      aw_q_.pop_front();
      aw_valid_ = false;
    }
    if (w_hs && ++w_beat_ > w_q_.front().len) {
      b_pend_.push_back(w_q_.front());
      w_q_.pop_front();
      w_beat_ = 0;
    }
    if (w_hs || !w_valid_) w_valid_ = rng_->Percent(valid_pct_);
    if (ar_hs) {
      r_pend_.push_back(ar_q_.front());
      ar_q_.pop_front();
      ar_valid_ = false;
    }
    if (haw_hs || har_hs) {
      host_wait_ = true;
      host_valid_ = false;
    }
    if (!aw_valid_) aw_valid_ = rng_->Percent(valid_pct_);
    if (!ar_valid_) ar_valid_ = rng_->Percent(valid_pct_);
    if (!host_valid_) host_valid_ = rng_->Percent(valid_pct_);
    b_ready_ = rng_->Percent(ready_pct_);
    r_ready_ = rng_->Percent(ready_pct_);
    host_rready_ = rng_->Percent(ready_pct_);
  }

  // Runs until every queued operation has finished.
  void Drain(uint64_t expect_done, unsigned max_cycles = 200000) {
    for (unsigned c = 0; c < max_cycles && done_ < expect_done; ++c) {
      Cycle();
      if (HasFatalFailure()) return;
    }
    ASSERT_EQ(done_, expect_done) << "operations still pending";
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vsgu_axi_bram> top_;
  uint64_t seed_ = 0;
  std::unique_ptr<TestRng> rng_;
  std::vector<uint8_t> ref_;
  std::deque<Burst> aw_q_, w_q_, b_pend_, ar_q_, r_pend_;
  std::deque<HostOp> host_q_;
  unsigned w_beat_ = 0, r_beat_ = 0;
  bool aw_valid_ = false, w_valid_ = false, ar_valid_ = false, host_valid_ = false;
  bool host_wait_ = false, b_ready_ = true, r_ready_ = true, host_rready_ = true;
  unsigned valid_pct_ = 100, ready_pct_ = 100;
  uint64_t done_ = 0;
};

// One operation at a time: every burst shape, checked against the reference.
TEST_F(AxiBramTest, BurstsOneAtATime) {
  valid_pct_ = 70;
  ready_pct_ = 60;
  uint64_t ops = 0;
  for (int i = 0; i < 400; ++i) {
    const bool write = rng_->Percent(50);
    Burst b = MakeBurst(write, 0, kSize, true);
    (write ? aw_q_ : ar_q_).push_back(b);
    Drain(++ops);
    if (HasFatalFailure()) return;
  }
}

// Host writes with strobes, AXI4 reads them; AXI4 writes, host reads them.
TEST_F(AxiBramTest, HostPortAndAxiSeeTheSameMemory) {
  uint64_t ops = 0;
  for (int i = 0; i < 64; ++i) {
    HostOp h = MakeHost(true, 0, 512);
    host_q_.push_back(h);
  }
  ops += 64;
  Drain(ops);
  Burst rb;
  rb.addr = kBase;
  rb.len = 63;
  rb.size = 3;
  for (unsigned i = 0; i < 64; ++i) {
    rb.rdata.push_back(RefWord(kBase + 8 * i));
    rb.rresp.push_back(0);
  }
  ar_q_.push_back(rb);
  Drain(++ops);
  for (int i = 0; i < 20; ++i) aw_q_.push_back(MakeBurst(true, 0, 512, false));
  ops += 20;
  Drain(ops);
  for (uint32_t a = 0; a < 512; a += 4) {
    HostOp h;
    h.addr = kBase + a;
    h.expect = static_cast<uint32_t>(RefWord(h.addr) >> (8 * (a % kBytes)));
    host_q_.push_back(h);
  }
  ops += 128;
  Drain(ops);
}

// The three streams at once on disjoint regions, with random timing: the host port only takes
// free RAM cycles and the R data held under backpressure is never overwritten.
TEST_F(AxiBramTest, ConcurrentStreams) {
  valid_pct_ = 80;
  ready_pct_ = 50;
  uint64_t ops = 0;
  // Region B [0x800, 0x1000) filled by the host first: the AXI4 reader's data.
  for (uint32_t a = 0x800; a < 0x1000; a += 4) {
    HostOp h;
    h.write = true;
    h.addr = kBase + a;
    h.data = static_cast<uint32_t>(rng_->Next());
    h.strb = 0xF;
    for (unsigned j = 0; j < 4; ++j) ref_[a + j] = static_cast<uint8_t>(h.data >> (8 * j));
    host_q_.push_back(h);
    ++ops;
  }
  Drain(ops);
  for (int round = 0; round < 300; ++round) {
    if (aw_q_.size() < 2) {
      aw_q_.push_back(MakeBurst(true, 0, 0x800, false));
      ++ops;
    }
    if (ar_q_.size() < 2) {
      ar_q_.push_back(MakeBurst(false, 0x800, 0x1000, false));
      ++ops;
    }
    if (host_q_.size() < 2) {
      host_q_.push_back(MakeHost(rng_->Percent(50), 0x1000, 0x1800));
      ++ops;
    }
    for (int c = 0; c < 8; ++c) {
      Cycle();
      if (HasFatalFailure()) return;
    }
  }
  Drain(ops);
  // Region A as the AXI4 writer left it, read through the host port.
  for (uint32_t a = 0; a < 0x800; a += 4) {
    HostOp h;
    h.addr = kBase + a;
    h.expect = static_cast<uint32_t>(RefWord(h.addr) >> (8 * (a % kBytes)));
    host_q_.push_back(h);
    ++ops;
  }
  Drain(ops);
}

}  // namespace
}  // namespace sgu::tb
