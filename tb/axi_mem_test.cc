// SPDX-License-Identifier: Apache-2.0
// Unit tests of the AXI4 slave memory model, driven by a small C++ master (no RTL).
//
// Expected values come from RefMemory below: a plain byte array the test updates itself, with
// beat addresses, byte lanes and responses computed byte by byte from the AXI4 rules (A3.4.2).
#include "axi_mem.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace sgu::tb {
namespace {

using Bus = std::array<uint32_t, 16>;
using Range = std::pair<uint32_t, uint32_t>;  // [first, end)

// Test randomness: raw std::mt19937_64 output, mapped here.
class TestRng {
 public:
  explicit TestRng(uint64_t seed) : e_(seed) {}
  uint64_t Next() { return e_(); }
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>(((e_() >> 32) * n) >> 32); }
  bool Percent(unsigned pct) { return Below(100) < pct; }

 private:
  std::mt19937_64 e_;
};

unsigned Log2(unsigned v) {
  unsigned l = 0;
  while ((1u << l) < v) ++l;
  return l;
}

struct ReadOp {
  uint32_t addr = 0;
  uint8_t len = 0, size = 0, burst = kAxiBurstIncr, id = 0;
};

struct WriteOp {
  uint32_t addr = 0;
  uint8_t len = 0, size = 0, burst = kAxiBurstIncr, id = 0;
  std::vector<Bus> data;        // one per W beat
  std::vector<uint64_t> strb;   // one per W beat
  std::vector<bool> last;       // one per W beat
  unsigned aw_after_beats = 0;  // AW is offered only after this many W handshakes
  bool w_after_aw = false;      // W is offered only after the AW handshake
};

struct ReadBeat {
  Bus data{};
  uint8_t resp = 0;
  bool last = false;
  uint8_t id = 0;
};

// Fills a write with `beats` beats of random data, WLAST on the last beat.
void FillWrite(WriteOp& op, unsigned beats, TestRng& rng, bool random_strobes) {
  op.data.assign(beats, Bus{});
  op.strb.assign(beats, ~0ULL);
  op.last.assign(beats, false);
  for (unsigned i = 0; i < beats; ++i) {
    for (auto& w : op.data[i]) w = static_cast<uint32_t>(rng.Next());
    if (random_strobes) op.strb[i] = rng.Next();
  }
  if (beats > 0) op.last[beats - 1] = true;
}

// The reference: a byte array and the AXI4 rules, written independently of the model.
struct RefMemory {
  std::vector<uint8_t> bytes;
  std::vector<Range> error_ranges;
  unsigned data_bytes = 8;

  bool IsError(uint32_t addr, uint32_t len) const {
    for (const auto& r : error_ranges) {
      if (uint64_t{addr} < r.second && uint64_t{addr} + len > r.first) return true;
    }
    return false;
  }
  // Address of beat i (A3.4.2).
  static uint64_t BeatAddr(uint32_t start, unsigned size, unsigned burst, unsigned i) {
    const uint64_t nb = uint64_t{1} << size;
    if (burst == kAxiBurstFixed || i == 0) return start;
    return (start / nb) * nb + i * nb;
  }
  // Last byte address of the transfer at `a`: the end of its size-aligned container.
  static uint64_t BeatLastByte(uint64_t a, unsigned size) {
    const uint64_t nb = uint64_t{1} << size;
    return (a / nb) * nb + nb - 1;
  }
  uint8_t Resp(uint64_t a, unsigned size) const {
    const uint64_t last = BeatLastByte(a, size);
    if (last >= bytes.size()) return 3;
    for (uint64_t x = a; x <= last; ++x) {
      for (const auto& r : error_ranges) {
        if (x >= r.first && x < r.second) return 2;
      }
    }
    return 0;
  }
  std::vector<ReadBeat> ExpectRead(const ReadOp& op) const {
    std::vector<ReadBeat> out;
    for (unsigned i = 0; i <= op.len; ++i) {
      ReadBeat b;
      const uint64_t a = BeatAddr(op.addr, op.size, op.burst, i);
      b.resp = Resp(a, op.size);
      b.last = i == op.len;
      b.id = op.id;
      if (b.resp == 0) {
        for (uint64_t x = a; x <= BeatLastByte(a, op.size); ++x) {
          const auto lane = static_cast<unsigned>(x % data_bytes);
          b.data[lane / 4] |= uint32_t{bytes[x]} << (8 * (lane % 4));
        }
      }
      out.push_back(b);
    }
    return out;
  }
  // Applies a write; returns the expected BRESP and adds the number of bytes written.
  uint8_t ApplyWrite(const WriteOp& op, uint64_t* written) {
    uint8_t worst = 0;
    for (unsigned i = 0; i <= op.len; ++i) {
      const uint64_t a = BeatAddr(op.addr, op.size, op.burst, i);
      const uint8_t resp = Resp(a, op.size);
      worst = std::max(worst, resp);
      if (resp != 0) continue;
      for (uint64_t x = a; x <= BeatLastByte(a, op.size); ++x) {
        const auto lane = static_cast<unsigned>(x % data_bytes);
        if ((op.strb[i] >> lane) & 1) {
          bytes[x] = static_cast<uint8_t>(op.data[i][lane / 4] >> (8 * (lane % 4)));
          ++*written;
        }
      }
    }
    return worst;
  }
};

// Bytes touched by a burst, [first, end).
Range Footprint(uint32_t addr, uint8_t len, uint8_t size, uint8_t burst) {
  const uint64_t nb = uint64_t{1} << size;
  const uint64_t aligned = addr / nb * nb;
  const uint64_t end = burst == kAxiBurstFixed ? aligned + nb : aligned + (len + 1) * nb;
  return {addr, static_cast<uint32_t>(std::min<uint64_t>(end, 0xffffffffu))};
}

// Owns the model, its memory, the reference and a master that drives AR/R/AW/W/B.
class Harness {
 public:
  Harness(AxiMemConfig cfg, uint32_t mem_size, std::vector<Range> errors = {},
          uint64_t master_seed = 12345, unsigned master_percent = 100)
      : cfg_(cfg),
        mem_(MakeMemory(mem_size, master_seed)),
        ref_{mem_, std::move(errors), cfg.data_bytes},
        model_(
            mem_.data(), mem_size, [this](uint32_t a, uint32_t l) { return ref_.IsError(a, l); },
            cfg),
        rng_(master_seed ^ 0x5eed),
        master_percent_(master_percent) {}

  AxiMemory& model() { return model_; }
  RefMemory& ref() { return ref_; }
  const std::vector<uint8_t>& mem() const { return mem_; }
  const std::vector<uint32_t>& trace() const { return trace_; }
  uint64_t cycles() const { return cycles_; }

  std::vector<ReadBeat> Read(const ReadOp& op) {
    std::vector<ReadBeat> beats;
    Run(&op, nullptr, &beats, nullptr);
    return beats;
  }
  uint8_t Write(const WriteOp& op) {
    uint8_t bresp = 0xff;
    Run(nullptr, &op, nullptr, &bresp);
    return bresp;
  }

  // Reads and compares with the reference.
  void CheckRead(const ReadOp& op) {
    const auto expected = ref_.ExpectRead(op);
    const auto got = Read(op);
    CompareBeats(op, expected, got);
  }
  // Writes, updates the reference, compares BRESP, the memory and the write log.
  void CheckWrite(const WriteOp& op) {
    const std::vector<uint8_t> before = mem_;
    const uint8_t bresp = Write(op);
    CheckWriteDone(op, before, bresp);
  }
  // A read and a write in flight together (their footprints must not overlap).
  void CheckReadAndWrite(const ReadOp& rd, const WriteOp& wr) {
    const auto expected = ref_.ExpectRead(rd);
    const std::vector<uint8_t> before = mem_;
    std::vector<ReadBeat> got;
    uint8_t bresp = 0xff;
    Run(&rd, &wr, &got, &bresp);
    CompareBeats(rd, expected, got);
    CheckWriteDone(wr, before, bresp);
  }

 private:
  static std::vector<uint8_t> MakeMemory(uint32_t size, uint64_t seed) {
    std::vector<uint8_t> m(size);
    TestRng rng(seed);
    for (auto& b : m) b = static_cast<uint8_t>(rng.Next());
    return m;
  }

  void CompareBeats(const ReadOp& op, const std::vector<ReadBeat>& expected,
                    const std::vector<ReadBeat>& got) {
    const std::string what = "read addr=" + std::to_string(op.addr) +
                             " len=" + std::to_string(op.len) + " size=" + std::to_string(op.size) +
                             " burst=" + std::to_string(op.burst);
    ASSERT_EQ(got.size(), expected.size()) << what;
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].resp, expected[i].resp) << what << " beat " << i;
      EXPECT_EQ(got[i].last, expected[i].last) << what << " beat " << i;
      EXPECT_EQ(got[i].id, expected[i].id) << what << " beat " << i;
      for (unsigned w = 0; w < 16; ++w) {
        EXPECT_EQ(got[i].data[w], expected[i].data[w]) << what << " beat " << i << " word " << w;
      }
    }
  }

  void CheckWriteDone(const WriteOp& op, const std::vector<uint8_t>& before, uint8_t bresp) {
    uint64_t written = 0;
    const uint8_t expected = ref_.ApplyWrite(op, &written);
    const std::string what = "write addr=" + std::to_string(op.addr) +
                             " len=" + std::to_string(op.len) + " size=" + std::to_string(op.size) +
                             " burst=" + std::to_string(op.burst);
    EXPECT_EQ(bresp, expected) << what;
    EXPECT_TRUE(mem_ == ref_.bytes) << what;
    // The write log replays onto the old memory to give the new one, in <= 8-byte pieces that
    // stay inside one aligned doubleword, and accounts for exactly the bytes written.
    std::vector<uint8_t> replay = before;
    uint64_t logged = 0;
    for (const AxiWrite& w : model_.TakeWrites()) {
      EXPECT_GE(w.size, 1u) << what;
      EXPECT_LE(w.size, 8u) << what;
      EXPECT_EQ(w.addr / 8, (w.addr + w.size - 1) / 8) << what;
      for (uint32_t k = 0; k < w.size; ++k) {
        replay.at(w.addr + k) = static_cast<uint8_t>(w.data >> (8 * k));
      }
      if (w.size < 8) {
        EXPECT_EQ(w.data >> (8 * w.size), 0u) << what;
      }
      logged += w.size;
    }
    EXPECT_EQ(logged, written) << what;
    EXPECT_TRUE(replay == mem_) << what;
  }

  // Random values on every master-driven field: the model's outputs must not depend on them.
  void Scramble(AxiPins& p) {
    p.arvalid = rng_.Next() & 1;
    p.araddr = static_cast<uint32_t>(rng_.Next());
    p.arlen = static_cast<uint8_t>(rng_.Next());
    p.arsize = static_cast<uint8_t>(rng_.Next());
    p.arburst = static_cast<uint8_t>(rng_.Next());
    p.arid = static_cast<uint8_t>(rng_.Next());
    p.rready = rng_.Next() & 1;
    p.awvalid = rng_.Next() & 1;
    p.awaddr = static_cast<uint32_t>(rng_.Next());
    p.awlen = static_cast<uint8_t>(rng_.Next());
    p.awsize = static_cast<uint8_t>(rng_.Next());
    p.awburst = static_cast<uint8_t>(rng_.Next());
    p.awid = static_cast<uint8_t>(rng_.Next());
    p.wvalid = rng_.Next() & 1;
    for (auto& w : p.wdata) w = static_cast<uint32_t>(rng_.Next());
    p.wstrb = rng_.Next();
    p.wlast = rng_.Next() & 1;
    p.bready = rng_.Next() & 1;
  }

  static void ExpectSameOutputs(const AxiPins& a, const AxiPins& b) {
    EXPECT_EQ(a.arready, b.arready);
    EXPECT_EQ(a.awready, b.awready);
    EXPECT_EQ(a.wready, b.wready);
    EXPECT_EQ(a.rvalid, b.rvalid);
    EXPECT_EQ(a.rresp, b.rresp);
    EXPECT_EQ(a.rlast, b.rlast);
    EXPECT_EQ(a.rid, b.rid);
    for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(a.rdata[i], b.rdata[i]);
    EXPECT_EQ(a.bvalid, b.bvalid);
    EXPECT_EQ(a.bresp, b.bresp);
    EXPECT_EQ(a.bid, b.bid);
  }

  // One master running at most one read and one write; registered outputs (they depend only on
  // the master's state, and valid is held until its handshake).
  void Run(const ReadOp* rd, const WriteOp* wr, std::vector<ReadBeat>* rbeats, uint8_t* bresp) {
    AxiPins& p = pins_;
    bool ar_done = rd == nullptr, r_done = rd == nullptr;
    bool aw_done = wr == nullptr, b_done = wr == nullptr;
    size_t w_sent = 0;
    const size_t w_total = wr ? wr->data.size() : 0;
    std::optional<AxiPins> r_held, b_held;
    for (unsigned guard = 0; !(ar_done && r_done && aw_done && b_done); ++guard) {
      ASSERT_LT(guard, 200000u) << "master timed out";
      // Master outputs for this cycle.
      if (!ar_done && !p.arvalid && rng_.Percent(master_percent_)) {
        p.arvalid = true;
        p.araddr = rd->addr;
        p.arlen = rd->len;
        p.arsize = rd->size;
        p.arburst = rd->burst;
        p.arid = rd->id;
      }
      p.rready = rng_.Percent(master_percent_);
      const bool aw_allowed = wr && w_sent >= wr->aw_after_beats;
      if (!aw_done && aw_allowed && !p.awvalid && rng_.Percent(master_percent_)) {
        p.awvalid = true;
        p.awaddr = wr->addr;
        p.awlen = wr->len;
        p.awsize = wr->size;
        p.awburst = wr->burst;
        p.awid = wr->id;
      }
      const bool w_allowed = wr && w_sent < w_total && (!wr->w_after_aw || aw_done);
      if (w_allowed && !p.wvalid && rng_.Percent(master_percent_)) {
        p.wvalid = true;
        for (unsigned i = 0; i < 16; ++i) p.wdata[i] = wr->data[w_sent][i];
        p.wstrb = wr->strb[w_sent];
        p.wlast = wr->last[w_sent];
      }
      p.bready = rng_.Percent(master_percent_);

      AxiPins scratch = p;
      Scramble(scratch);
      model_.DriveOutputs(scratch);
      model_.DriveOutputs(p);
      ExpectSameOutputs(scratch, p);
      // The model is the source on R and B: valid held and payload stable until ready.
      if (r_held) {
        EXPECT_TRUE(p.rvalid) << "RVALID withdrawn";
        EXPECT_EQ(p.rresp, r_held->rresp);
        EXPECT_EQ(p.rlast, r_held->rlast);
        EXPECT_EQ(p.rid, r_held->rid);
        for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(p.rdata[i], r_held->rdata[i]);
      }
      if (b_held) {
        EXPECT_TRUE(p.bvalid) << "BVALID withdrawn";
        EXPECT_EQ(p.bresp, b_held->bresp);
        EXPECT_EQ(p.bid, b_held->bid);
      }
      trace_.push_back(p.arready | p.awready << 1 | p.wready << 2 | p.rvalid << 3 | p.bvalid << 4 |
                       p.rready << 5 | p.bready << 6);

      model_.Clock(p);
      ++cycles_;

      r_held.reset();
      b_held.reset();
      if (p.rvalid && !p.rready) r_held = p;
      if (p.bvalid && !p.bready) b_held = p;
      if (p.arvalid && p.arready) {
        ar_done = true;
        p.arvalid = false;
      }
      if (p.rvalid && p.rready) {
        EXPECT_TRUE(rd != nullptr && ar_done && !r_done) << "unexpected R beat";
        ReadBeat b;
        std::copy(std::begin(p.rdata), std::end(p.rdata), b.data.begin());
        b.resp = p.rresp;
        b.last = p.rlast;
        b.id = p.rid;
        if (rbeats) rbeats->push_back(b);
        if (p.rlast || (rbeats && rbeats->size() > 256)) r_done = true;
      }
      if (p.awvalid && p.awready) {
        aw_done = true;
        p.awvalid = false;
      }
      if (p.wvalid && p.wready) {
        ++w_sent;
        p.wvalid = false;
      }
      if (p.bvalid && p.bready) {
        EXPECT_TRUE(wr != nullptr && !b_done) << "unexpected B";
        if (wr) {
          EXPECT_EQ(p.bid, wr->id);
        }
        EXPECT_EQ(w_sent, w_total) << "B before all W beats";
        if (bresp) *bresp = p.bresp;
        b_done = true;
      }
    }
  }

  AxiMemConfig cfg_;
  std::vector<uint8_t> mem_;
  RefMemory ref_;
  AxiMemory model_;
  TestRng rng_;
  unsigned master_percent_;
  AxiPins pins_;
  std::vector<uint32_t> trace_;
  uint64_t cycles_ = 0;
};

AxiMemConfig Cfg(unsigned data_bytes, uint64_t seed = 1, unsigned max_latency = 0,
                 unsigned ready_percent = 100) {
  AxiMemConfig c;
  c.data_bytes = data_bytes;
  c.seed = seed;
  c.max_latency = max_latency;
  c.ready_percent = ready_percent;
  return c;
}

WriteOp MakeWrite(uint32_t addr, uint8_t len, uint8_t size, uint8_t burst, TestRng& rng,
                  bool random_strobes) {
  WriteOp op;
  op.addr = addr;
  op.len = len;
  op.size = size;
  op.burst = burst;
  op.id = static_cast<uint8_t>(rng.Next());
  FillWrite(op, len + 1u, rng, random_strobes);
  return op;
}

// ---------------------------------------------------------------------------------------------
// Functional tests, for every bus width.

class AxiMemWidthTest : public ::testing::TestWithParam<unsigned> {
 protected:
  unsigned Bytes() const { return GetParam(); }
  unsigned MaxSize() const { return Log2(GetParam()); }
};

INSTANTIATE_TEST_SUITE_P(Widths, AxiMemWidthTest, ::testing::Values(8u, 16u, 32u, 64u),
                         [](const auto& info) { return "Bytes" + std::to_string(info.param); });

TEST_P(AxiMemWidthTest, SingleBeatReadsEveryOffsetAndSize) {
  Harness h(Cfg(Bytes()), 0x2000);
  for (uint8_t size = 0; size <= MaxSize(); ++size) {
    for (uint32_t off = 0; off < 2 * Bytes(); ++off) {
      h.CheckRead({0x100 + off, 0, size, kAxiBurstIncr, static_cast<uint8_t>(off)});
    }
  }
  EXPECT_EQ(h.model().read_beats(), (MaxSize() + 1) * 2 * Bytes());
  EXPECT_TRUE(h.model().Idle());
}

TEST_P(AxiMemWidthTest, SingleBeatWritesEveryOffsetAndSize) {
  Harness h(Cfg(Bytes()), 0x2000);
  TestRng rng(7);
  for (bool random_strobes : {false, true}) {
    for (uint8_t size = 0; size <= MaxSize(); ++size) {
      for (uint32_t off = 0; off < 2 * Bytes(); ++off) {
        const uint32_t addr = 0x200 + off;
        h.CheckWrite(MakeWrite(addr, 0, size, kAxiBurstIncr, rng, random_strobes));
        h.CheckRead({addr & ~(Bytes() - 1), 0, static_cast<uint8_t>(MaxSize()), kAxiBurstIncr, 0});
      }
    }
  }
  EXPECT_TRUE(h.model().Idle());
}

TEST_P(AxiMemWidthTest, IncrBursts) {
  Harness h(Cfg(Bytes()), 0x10000);
  TestRng rng(11);
  const unsigned lengths[] = {1, 2, 3, 4, 5, 8, 15, 16, 17, 64, 255, 256};
  uint32_t page = 0;
  for (unsigned beats : lengths) {
    for (uint8_t size : {uint8_t{0}, uint8_t(MaxSize() / 2), uint8_t(MaxSize())}) {
      for (uint32_t off : {0u, 1u, 3u}) {
        const uint32_t nb = 1u << size;
        const uint32_t base = (page++ % 15) * 0x1000;
        // Clip to the 4 KB page.
        const unsigned n = std::min(beats, 4096u / nb);
        const uint8_t len = static_cast<uint8_t>(n - 1);
        h.CheckWrite(MakeWrite(base + off, len, size, kAxiBurstIncr, rng, false));
        h.CheckRead({base + off, len, size, kAxiBurstIncr, 3});
        // Ending exactly at the top of the page.
        const uint32_t top = base + 0x1000 - n * nb;
        h.CheckWrite(MakeWrite(top, len, size, kAxiBurstIncr, rng, true));
        h.CheckRead({top, len, size, kAxiBurstIncr, 4});
      }
    }
  }
  EXPECT_TRUE(h.model().Idle());
}

TEST_P(AxiMemWidthTest, FixedBursts) {
  Harness h(Cfg(Bytes()), 0x4000);
  TestRng rng(13);
  for (unsigned beats : {1u, 2u, 5u, 16u}) {
    for (uint8_t size = 0; size <= MaxSize(); ++size) {
      const uint32_t addr = 0x300 + 5 * beats + size;
      const uint8_t len = static_cast<uint8_t>(beats - 1);
      h.CheckRead({addr, len, size, kAxiBurstFixed, 9});
      h.CheckWrite(MakeWrite(addr, len, size, kAxiBurstFixed, rng, true));
      h.CheckRead({addr, len, size, kAxiBurstFixed, 9});
    }
  }
}

TEST_P(AxiMemWidthTest, WstrbPartialWrites) {
  Harness h(Cfg(Bytes()), 0x4000);
  TestRng rng(17);
  for (unsigned i = 0; i < 40; ++i) {
    const uint8_t size = static_cast<uint8_t>(rng.Below(MaxSize() + 1));
    const uint32_t addr = 0x1000 + rng.Below(0x800);
    const uint8_t len = static_cast<uint8_t>(rng.Below(8));
    WriteOp op = MakeWrite(addr, len, size, kAxiBurstIncr, rng, true);
    if (i == 0) op.strb.assign(op.strb.size(), 0);  // no byte enabled at all
    h.CheckWrite(op);
  }
  for (uint32_t a = 0x1000; a < 0x1900; a += 16 * Bytes()) {
    h.CheckRead({a, 15, static_cast<uint8_t>(MaxSize()), kAxiBurstIncr, 0});
  }
}

TEST_P(AxiMemWidthTest, WriteAddressAndDataOrders) {
  Harness h(Cfg(Bytes(), 3, 2, 60), 0x4000, {}, 5, 70);
  TestRng rng(19);
  for (unsigned i = 0; i < 30; ++i) {
    WriteOp op =
        MakeWrite(0x800 + 8 * i, 3, static_cast<uint8_t>(MaxSize()), kAxiBurstIncr, rng, true);
    switch (i % 4) {
      case 0:
        op.aw_after_beats = 4;
        break;  // all W beats before AW
      case 1:
        op.aw_after_beats = 2;
        break;  // AW in the middle of the W beats
      case 2:
        op.w_after_aw = true;
        break;  // AW strictly first
      default:
        break;  // both offered at once
    }
    h.CheckWrite(op);
  }
  EXPECT_TRUE(h.model().Idle());
}

TEST_P(AxiMemWidthTest, SlvErrResponses) {
  // SLVERR for bytes [0x400, 0x410) and the single byte 0x523.
  Harness h(Cfg(Bytes()), 0x2000, {{0x400, 0x410}, {0x523, 0x524}});
  TestRng rng(23);
  for (uint8_t size = 0; size <= MaxSize(); ++size) {
    const uint32_t nb = 1u << size;
    const uint32_t start = 0x400 - 2 * nb;
    const uint8_t len = static_cast<uint8_t>((0x20 + 4 * nb) / nb - 1);
    h.CheckRead({start, len, size, kAxiBurstIncr, 1});
    h.CheckWrite(MakeWrite(start, len, size, kAxiBurstIncr, rng, false));
    h.CheckRead({0x520, 3, size, kAxiBurstIncr, 2});
    h.CheckWrite(MakeWrite(0x521, 3, size, kAxiBurstIncr, rng, true));
    h.CheckRead({0x523, 2, size, kAxiBurstFixed, 2});
  }
  // A burst with an error beat answers SLVERR; the other beats are read and written.
  const auto beats = h.Read({0x3f8, 2, 3, kAxiBurstIncr, 0});
  ASSERT_EQ(beats.size(), 3u);
  EXPECT_EQ(beats[0].resp, kAxiRespOkay);
  EXPECT_EQ(beats[1].resp, kAxiRespSlvErr);
  EXPECT_EQ(beats[2].resp, kAxiRespSlvErr);
  for (uint32_t w : beats[1].data) EXPECT_EQ(w, 0u);
  WriteOp op = MakeWrite(0x3f8, 2, 3, kAxiBurstIncr, rng, false);
  EXPECT_EQ(h.Write(op), kAxiRespSlvErr);
}

TEST_P(AxiMemWidthTest, DecErrResponses) {
  // Memory ends at 0x17fc: the top of a 4 KB page is beyond it, and one beat straddles the end.
  Harness h(Cfg(Bytes()), 0x17fc, {{0x17c0, 0x17c1}});
  TestRng rng(29);
  for (uint8_t size = 0; size <= MaxSize(); ++size) {
    const uint32_t nb = 1u << size;
    const uint32_t start = (0x17fc - 3 * nb) & ~(nb - 1);
    const uint8_t len = static_cast<uint8_t>(std::min(7u, (0x2000 - start) / nb - 1));
    h.CheckRead({start, len, size, kAxiBurstIncr, 1});
    h.CheckWrite(MakeWrite(start, len, size, kAxiBurstIncr, rng, true));
    h.CheckRead({0x1900, 1, size, kAxiBurstIncr, 1});
    h.CheckWrite(MakeWrite(0x1900, 1, size, kAxiBurstIncr, rng, true));
    h.CheckRead({0xfffffff0, 0, size, kAxiBurstIncr, 1});
  }
  // SLVERR and DECERR beats in one write burst: BRESP is the worse one.
  WriteOp op = MakeWrite(0x17b8, 15, 3, kAxiBurstIncr, rng, false);
  EXPECT_EQ(h.Write(op), kAxiRespDecErr);
  const auto beats = h.Read({0x17f8, 0, 3, kAxiBurstIncr, 0});
  ASSERT_EQ(beats.size(), 1u);
  EXPECT_EQ(beats[0].resp, kAxiRespDecErr);
}

// ---------------------------------------------------------------------------------------------
// Random latency and backpressure.

struct RandomRun {
  std::vector<uint32_t> trace;
  std::vector<uint8_t> mem;
  uint64_t read_beats = 0, write_beats = 0, cycles = 0;
};

RandomRun RunRandomTraffic(unsigned data_bytes, uint64_t seed, unsigned ops) {
  TestRng rng(seed);
  const unsigned max_latency = rng.Below(9);
  const unsigned ready = 20 + rng.Below(81);
  const unsigned master_ready = 30 + rng.Below(71);
  const uint32_t mem_size = 0x3f00 - rng.Below(8);
  Harness h(Cfg(data_bytes, seed, max_latency, ready), mem_size,
            {{0x1230, 0x1240}, {0x2001, 0x2002}}, rng.Next(), master_ready);
  const unsigned max_size = Log2(data_bytes);
  uint64_t expect_read_beats = 0, expect_write_beats = 0;
  auto random_burst = [&](uint32_t& addr, uint8_t& len, uint8_t& size, uint8_t& burst) {
    size = static_cast<uint8_t>(rng.Below(max_size + 1));
    const uint32_t nb = 1u << size;
    burst = rng.Percent(20) ? kAxiBurstFixed : kAxiBurstIncr;
    addr = rng.Below(mem_size + 0x100);
    unsigned beats =
        burst == kAxiBurstFixed ? 1 + rng.Below(16) : 1 + rng.Below(rng.Percent(10) ? 256 : 20);
    if (burst == kAxiBurstIncr) {
      const uint32_t aligned = addr & ~(nb - 1);
      beats = std::min(beats, (0x1000 - aligned % 0x1000) / nb);
    }
    len = static_cast<uint8_t>(beats - 1);
  };
  for (unsigned i = 0; i < ops; ++i) {
    const unsigned kind = rng.Below(3);  // 0 read, 1 write, 2 both
    ReadOp rd;
    WriteOp wr;
    random_burst(rd.addr, rd.len, rd.size, rd.burst);
    rd.id = static_cast<uint8_t>(rng.Next());
    random_burst(wr.addr, wr.len, wr.size, wr.burst);
    wr.id = static_cast<uint8_t>(rng.Next());
    FillWrite(wr, wr.len + 1u, rng, rng.Percent(50));
    switch (rng.Below(3)) {
      case 0:
        wr.aw_after_beats = rng.Below(wr.len + 2u);
        break;
      case 1:
        wr.w_after_aw = true;
        break;
      default:
        break;
    }
    const Range fr = Footprint(rd.addr, rd.len, rd.size, rd.burst);
    const Range fw = Footprint(wr.addr, wr.len, wr.size, wr.burst);
    const bool overlap = fr.first < fw.second && fw.first < fr.second;
    if (kind == 2 && !overlap) {
      h.CheckReadAndWrite(rd, wr);
    } else {
      if (kind != 1) h.CheckRead(rd);
      if (kind != 0) h.CheckWrite(wr);
    }
    if (kind != 1) expect_read_beats += rd.len + 1u;
    if (kind != 0) expect_write_beats += wr.len + 1u;
    EXPECT_TRUE(h.model().Idle());
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(h.model().read_beats(), expect_read_beats);
  EXPECT_EQ(h.model().write_beats(), expect_write_beats);
  return {h.trace(), h.mem(), h.model().read_beats(), h.model().write_beats(), h.cycles()};
}

class AxiMemRandomTest : public ::testing::TestWithParam<std::tuple<unsigned, uint64_t>> {};

INSTANTIATE_TEST_SUITE_P(WidthsAndSeeds, AxiMemRandomTest,
                         ::testing::Combine(::testing::Values(8u, 16u, 32u, 64u),
                                            ::testing::Values(uint64_t{1}, uint64_t{2}, uint64_t{3},
                                                              uint64_t{0x9e3779b97f4a7c15ULL})),
                         [](const auto& info) {
                           return "Bytes" + std::to_string(std::get<0>(info.param)) + "Seed" +
                                  std::to_string(std::get<1>(info.param));
                         });

TEST_P(AxiMemRandomTest, DataCorrectUnderLatencyAndBackpressure) {
  const auto [bytes, seed] = GetParam();
  SCOPED_TRACE("seed " + std::to_string(seed));
  RunRandomTraffic(bytes, seed, 150);
}

TEST(AxiMemRandom, SameSeedSameRunOtherSeedOtherRun) {
  const RandomRun a = RunRandomTraffic(16, 42, 60);
  const RandomRun b = RunRandomTraffic(16, 42, 60);
  const RandomRun c = RunRandomTraffic(16, 43, 60);
  EXPECT_EQ(a.trace, b.trace);
  EXPECT_EQ(a.mem, b.mem);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_NE(a.trace, c.trace);
}

TEST(AxiMemRandom, ModelRandomnessOnlyFromSeed) {
  // Same master, same traffic; only the model seed differs.
  auto run = [](uint64_t model_seed) {
    Harness h(Cfg(8, model_seed, 4, 50), 0x1000, {}, 77, 100);
    TestRng rng(5);
    for (unsigned i = 0; i < 20; ++i) {
      h.CheckWrite(MakeWrite(0x100 + 16 * i, 3, 3, kAxiBurstIncr, rng, true));
      h.CheckRead({0x100 + 16 * i, 3, 3, kAxiBurstIncr, 0});
    }
    return h.trace();
  };
  EXPECT_EQ(run(3), run(3));
  EXPECT_NE(run(3), run(4));
}

// ---------------------------------------------------------------------------------------------
// Timing, write log, configuration.

TEST(AxiMemTiming, FullSpeedWithoutLatencyOrBackpressure) {
  Harness h(Cfg(8), 0x1000);
  h.Read({0x40, 15, 3, kAxiBurstIncr, 0});
  EXPECT_EQ(h.cycles(), 17u);  // AR, then one beat per cycle
  TestRng rng(1);
  h.Write(MakeWrite(0x40, 15, 3, kAxiBurstIncr, rng, false));
  EXPECT_EQ(h.cycles(), 17u + 17u);  // AW with the first W, 15 more W, then B
}

TEST(AxiMemTiming, LatencyBounded) {
  for (unsigned max_latency : {1u, 5u}) {
    Harness h(Cfg(8, 9, max_latency), 0x1000);
    uint64_t min_cycles = ~0ULL, max_cycles = 0;
    for (unsigned i = 0; i < 200; ++i) {
      const uint64_t before = h.cycles();
      h.Read({0x40, 0, 3, kAxiBurstIncr, 0});
      const uint64_t n = h.cycles() - before;
      min_cycles = std::min(min_cycles, n);
      max_cycles = std::max(max_cycles, n);
    }
    EXPECT_EQ(min_cycles, 2u);
    EXPECT_EQ(max_cycles, 2u + max_latency);
  }
}

TEST(AxiMemWriteLog, PiecesSplitAtDoublewordsAndStrobeGaps) {
  Harness h(Cfg(64), 0x2000);
  TestRng rng(3);
  // Full 64-byte beat: eight doublewords.
  WriteOp op = MakeWrite(0x1000, 0, 6, kAxiBurstIncr, rng, false);
  h.CheckWrite(op);  // consumes the log
  op = MakeWrite(0x1000, 0, 6, kAxiBurstIncr, rng, false);
  h.Write(op);
  auto log = h.model().TakeWrites();
  ASSERT_EQ(log.size(), 8u);
  for (unsigned i = 0; i < 8; ++i) {
    EXPECT_EQ(log[i].addr, 0x1000u + 8 * i);
    EXPECT_EQ(log[i].size, 8u);
    EXPECT_EQ(log[i].data, uint64_t{op.data[0][2 * i]} | uint64_t{op.data[0][2 * i + 1]} << 32);
  }
  // 16-byte transfer starting at 0x1004 (unaligned), lanes 4..15, strobe gap at lane 9.
  op = MakeWrite(0x1004, 0, 4, kAxiBurstIncr, rng, false);
  op.strb[0] = 0xfdff;
  op.data[0][1] = 0x44332211;
  op.data[0][2] = 0x88776655;
  op.data[0][3] = 0xccbbaa99;
  h.Write(op);
  log = h.model().TakeWrites();
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0].addr, 0x1004u);
  EXPECT_EQ(log[0].size, 4u);
  EXPECT_EQ(log[0].data, 0x44332211u);
  EXPECT_EQ(log[1].addr, 0x1008u);
  EXPECT_EQ(log[1].size, 1u);
  EXPECT_EQ(log[1].data, 0x55u);
  EXPECT_EQ(log[2].addr, 0x100au);
  EXPECT_EQ(log[2].size, 6u);
  EXPECT_EQ(log[2].data, 0xccbbaa998877u);
  EXPECT_TRUE(h.model().TakeWrites().empty());
}

TEST(AxiMemConfigTest, RejectsBadConfiguration) {
  uint8_t mem[16] = {};
  EXPECT_THROW(AxiMemory(mem, 16, {}, Cfg(4)), std::invalid_argument);
  EXPECT_THROW(AxiMemory(mem, 16, {}, Cfg(128)), std::invalid_argument);
  EXPECT_THROW(AxiMemory(mem, 16, {}, Cfg(8, 1, 0, 0)), std::invalid_argument);
  EXPECT_THROW(AxiMemory(mem, 16, {}, Cfg(8, 1, 0, 101)), std::invalid_argument);
  EXPECT_NO_THROW(AxiMemory(mem, 16, {}, Cfg(8)));
}

TEST(AxiMemIdle, TracksTransactionsInFlight) {
  uint8_t mem[64] = {};
  AxiMemory m(mem, 64, {}, Cfg(8));
  AxiPins p;
  EXPECT_TRUE(m.Idle());
  m.DriveOutputs(p);
  p.wvalid = true;  // W before AW: buffered
  p.wstrb = 0xff;
  p.wlast = true;
  m.Clock(p);
  EXPECT_FALSE(m.Idle());
  m.DriveOutputs(p);
  EXPECT_FALSE(p.wready);  // WLAST seen: no more W until the burst ends
  p.wvalid = false;
  p.awvalid = true;
  p.awsize = 3;
  p.awburst = kAxiBurstIncr;
  m.Clock(p);
  m.DriveOutputs(p);
  EXPECT_TRUE(p.bvalid);
  EXPECT_FALSE(p.awready);
  p.awvalid = false;
  p.bready = true;
  m.Clock(p);
  EXPECT_TRUE(m.Idle());
  EXPECT_EQ(m.write_beats(), 1u);
  m.DriveOutputs(p);
  EXPECT_FALSE(p.bvalid);
  EXPECT_TRUE(p.awready);
  EXPECT_TRUE(p.wready);
}

// ---------------------------------------------------------------------------------------------
// Protocol violations.

void ExpectProtocolError(const std::function<void()>& fn, std::vector<std::string> needles) {
  try {
    fn();
    ADD_FAILURE() << "no AxiProtocolError";
  } catch (const AxiProtocolError& e) {
    const std::string msg = e.what();
    for (const auto& n : needles) EXPECT_NE(msg.find(n), std::string::npos) << msg << " / " << n;
    EXPECT_NE(msg.find("cycle"), std::string::npos) << msg;
  }
}

// A model with ready_percent 50, and pins stepped to a cycle where `ready` is low (outputs
// driven for that cycle, no valid asserted before).
struct RawBench {
  uint8_t mem[0x2000] = {};
  AxiMemory model{mem, sizeof(mem), {}, Cfg(8, 5, 0, 50)};
  AxiPins p;

  void StepUntilNotReady(bool AxiPins::*ready) {
    for (int i = 0; i < 1000; ++i) {
      model.DriveOutputs(p);
      if (!(p.*ready)) return;
      model.Clock(p);
    }
    FAIL() << "ready never low";
  }
  void SetAr() {
    p.arvalid = true;
    p.araddr = 0x40;
    p.arlen = 1;
    p.arsize = 3;
    p.arburst = kAxiBurstIncr;
    p.arid = 5;
  }
  void SetAw() {
    p.awvalid = true;
    p.awaddr = 0x80;
    p.awlen = 1;
    p.awsize = 3;
    p.awburst = kAxiBurstIncr;
    p.awid = 6;
  }
  void SetW() {
    p.wvalid = true;
    p.wdata[0] = 0x12345678;
    p.wdata[1] = 0x9abcdef0;
    p.wstrb = 0xff;
    p.wlast = false;
  }
};

TEST(AxiMemProtocol, ValidWithdrawnBeforeHandshake) {
  {
    RawBench b;
    b.StepUntilNotReady(&AxiPins::arready);
    b.SetAr();
    b.model.Clock(b.p);
    b.model.DriveOutputs(b.p);
    b.p.arvalid = false;
    ExpectProtocolError([&] { b.model.Clock(b.p); }, {"AR channel", "ARVALID"});
  }
  {
    RawBench b;
    b.StepUntilNotReady(&AxiPins::awready);
    b.SetAw();
    b.model.Clock(b.p);
    b.model.DriveOutputs(b.p);
    b.p.awvalid = false;
    ExpectProtocolError([&] { b.model.Clock(b.p); }, {"AW channel", "AWVALID"});
  }
  {
    RawBench b;
    b.StepUntilNotReady(&AxiPins::wready);
    b.SetW();
    b.model.Clock(b.p);
    b.model.DriveOutputs(b.p);
    b.p.wvalid = false;
    ExpectProtocolError([&] { b.model.Clock(b.p); }, {"W channel", "WVALID"});
  }
}

TEST(AxiMemProtocol, PayloadChangedWhileWaiting) {
  const std::vector<std::pair<std::string, std::function<void(AxiPins&)>>> ar = {
      {"ARADDR", [](AxiPins& p) { p.araddr += 8; }},
      {"ARLEN", [](AxiPins& p) { p.arlen = 3; }},
      {"ARSIZE", [](AxiPins& p) { p.arsize = 2; }},
      {"ARBURST", [](AxiPins& p) { p.arburst = kAxiBurstFixed; }},
      {"ARID", [](AxiPins& p) { p.arid = 9; }},
  };
  for (const auto& [field, change] : ar) {
    RawBench b;
    b.StepUntilNotReady(&AxiPins::arready);
    b.SetAr();
    b.model.Clock(b.p);
    b.model.DriveOutputs(b.p);
    change(b.p);
    ExpectProtocolError([&] { b.model.Clock(b.p); }, {"AR channel", field});
  }
  const std::vector<std::pair<std::string, std::function<void(AxiPins&)>>> aw = {
      {"AWADDR", [](AxiPins& p) { p.awaddr += 8; }},
      {"AWLEN", [](AxiPins& p) { p.awlen = 0; }},
      {"AWSIZE", [](AxiPins& p) { p.awsize = 0; }},
      {"AWBURST", [](AxiPins& p) { p.awburst = kAxiBurstFixed; }},
      {"AWID", [](AxiPins& p) { p.awid = 1; }},
  };
  for (const auto& [field, change] : aw) {
    RawBench b;
    b.StepUntilNotReady(&AxiPins::awready);
    b.SetAw();
    b.model.Clock(b.p);
    b.model.DriveOutputs(b.p);
    change(b.p);
    ExpectProtocolError([&] { b.model.Clock(b.p); }, {"AW channel", field});
  }
  const std::vector<std::pair<std::string, std::function<void(AxiPins&)>>> w = {
      {"WDATA", [](AxiPins& p) { p.wdata[1] ^= 0x100; }},
      {"WSTRB", [](AxiPins& p) { p.wstrb = 0x0f; }},
      {"WLAST", [](AxiPins& p) { p.wlast = true; }},
  };
  for (const auto& [field, change] : w) {
    RawBench b;
    b.StepUntilNotReady(&AxiPins::wready);
    b.SetW();
    b.model.Clock(b.p);
    b.model.DriveOutputs(b.p);
    change(b.p);
    ExpectProtocolError([&] { b.model.Clock(b.p); }, {"W channel", field});
  }
  // Bits outside the bus width may change freely.
  RawBench b;
  b.StepUntilNotReady(&AxiPins::wready);
  b.SetW();
  b.model.Clock(b.p);
  b.model.DriveOutputs(b.p);
  b.p.wdata[2] = 1;
  b.p.wstrb |= 0x100;
  EXPECT_NO_THROW(b.model.Clock(b.p));
}

TEST(AxiMemProtocol, BurstsCrossing4KB) {
  {
    Harness h(Cfg(8), 0x4000);
    ExpectProtocolError([&] { h.Read({0xff8, 1, 3, kAxiBurstIncr, 0}); }, {"AR channel", "4 KB"});
  }
  {
    Harness h(Cfg(64), 0x4000);
    ExpectProtocolError(
        [&] {
          h.Read({0x1fc1, 0x7f, 0, kAxiBurstIncr, 0});
        },
        {"AR channel", "4 KB"});
  }
  {
    Harness h(Cfg(16), 0x4000);
    TestRng rng(1);
    ExpectProtocolError([&] { h.Write(MakeWrite(0x2f15, 15, 4, kAxiBurstIncr, rng, false)); },
                        {"AW channel", "4 KB"});
  }
  // Ending exactly at the boundary is fine.
  Harness h(Cfg(8), 0x4000);
  EXPECT_NO_THROW(h.Read({0xff9, 0, 3, kAxiBurstIncr, 0}));
  EXPECT_NO_THROW(h.Read({0xf00, 31, 3, kAxiBurstIncr, 0}));
}

TEST(AxiMemProtocol, SizeLargerThanBus) {
  TestRng rng(1);
  Harness h8(Cfg(8), 0x1000);
  ExpectProtocolError([&] { h8.Read({0x0, 0, 4, kAxiBurstIncr, 0}); }, {"AR channel", "ARSIZE"});
  Harness h32(Cfg(32), 0x1000);
  ExpectProtocolError([&] { h32.Write(MakeWrite(0x0, 0, 6, kAxiBurstIncr, rng, false)); },
                      {"AW channel", "AWSIZE"});
}

TEST(AxiMemProtocol, BurstTypes) {
  TestRng rng(1);
  {
    Harness h(Cfg(8), 0x1000);
    ExpectProtocolError(
        [&] {
          h.Read({0x0, 3, 3, kAxiBurstWrap, 0});
        },
        {"AR channel", "WRAP not supported"});
  }
  {
    Harness h(Cfg(8), 0x1000);
    ExpectProtocolError([&] { h.Read({0x0, 3, 3, 3, 0}); }, {"AR channel", "ARBURST=3"});
  }
  {
    Harness h(Cfg(8), 0x1000);
    ExpectProtocolError([&] { h.Write(MakeWrite(0x0, 3, 3, kAxiBurstWrap, rng, false)); },
                        {"AW channel", "WRAP not supported"});
  }
  {
    Harness h(Cfg(8), 0x1000);
    ExpectProtocolError([&] { h.Write(MakeWrite(0x0, 3, 3, 3, rng, false)); },
                        {"AW channel", "AWBURST=3"});
  }
  {
    Harness h(Cfg(8), 0x1000);
    ExpectProtocolError(
        [&] {
          h.Read({0x0, 16, 3, kAxiBurstFixed, 0});
        },
        {"AR channel", "ARLEN=16", "FIXED"});
  }
  {
    Harness h(Cfg(8), 0x1000);
    ExpectProtocolError([&] { h.Write(MakeWrite(0x0, 20, 3, kAxiBurstFixed, rng, false)); },
                        {"AW channel", "AWLEN=20", "FIXED"});
  }
}

TEST(AxiMemProtocol, WlastMismatch) {
  TestRng rng(1);
  for (bool w_first : {false, true}) {
    SCOPED_TRACE(w_first ? "W before AW" : "AW before W");
    {
      Harness h(Cfg(8), 0x1000);
      WriteOp op = MakeWrite(0x100, 3, 3, kAxiBurstIncr, rng, false);
      op.last = {false, true};  // WLAST on beat 1 of 4
      op.data.resize(2);
      op.strb.resize(2);
      if (w_first)
        op.aw_after_beats = 2;
      else
        op.w_after_aw = true;
      ExpectProtocolError([&] { h.Write(op); }, {"W channel", "WLAST asserted on beat 1"});
    }
    {
      Harness h(Cfg(8), 0x1000);
      WriteOp op = MakeWrite(0x100, 1, 3, kAxiBurstIncr, rng, false);
      FillWrite(op, 3, rng, false);  // three beats for a two-beat burst
      if (w_first)
        op.aw_after_beats = 3;
      else
        op.w_after_aw = true;
      ExpectProtocolError([&] { h.Write(op); }, {"W channel", "WLAST low on beat 1", "beyond"});
    }
  }
  // More W beats than any burst before the AW.
  Harness h(Cfg(8), 0x1000);
  WriteOp op = MakeWrite(0x100, 255, 3, kAxiBurstIncr, rng, false);
  FillWrite(op, 257, rng, false);
  op.last.assign(257, false);
  op.aw_after_beats = 257;
  ExpectProtocolError([&] { h.Write(op); }, {"W channel", "257 W beats", "beyond"});
}

TEST(AxiMemProtocol, ErrorNamesCycle) {
  Harness h(Cfg(8), 0x1000);
  h.Read({0x0, 3, 3, kAxiBurstIncr, 0});  // cycles 0..4
  ExpectProtocolError([&] { h.Read({0xff8, 1, 3, kAxiBurstIncr, 0}); }, {"cycle 5:"});
}

}  // namespace
}  // namespace sgu::tb
