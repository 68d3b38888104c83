// SPDX-License-Identifier: Apache-2.0
// Tests of the UART to AXI4-Lite bridge (rtl/sgu_uart_axil.sv), verilated alone with a C++
// AXI4-Lite slave: good frames, every malformed-frame case and its error reply, and a random
// mix of good and corrupted frames in which a write happens exactly when its reply says OK.
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vsgu_uart_axil.h"
#include "fpga_test_util.h"
#include "uart_host.h"

namespace sgu::tb {
namespace {

// Values the model was verilated with (tb/fpga/CMakeLists.txt).
constexpr unsigned kClksPerBit = 5;
constexpr unsigned kTimeoutBits = 24;

class TestRng {
 public:
  explicit TestRng(uint64_t seed) : e_(seed) {}
  uint64_t Next() { return e_(); }
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>(((e_() >> 32) * n) >> 32); }
  bool Percent(unsigned pct) { return Below(100) < pct; }

 private:
  std::mt19937_64 e_;
};

// AXI4-Lite slave: word memory, SLVERR at 0xBAD0_xxxx, DECERR at 0xDEC0_xxxx, random readiness.
struct LiteSlave {
  std::map<uint32_t, uint32_t> mem;
  std::vector<std::pair<uint32_t, uint32_t>> writes;  // every performed write (addr, data)
  unsigned bad_strobes = 0;                           // writes with WSTRB != 0xF
  unsigned ready_pct = 100;
  // Pending state.
  bool aw_taken = false, w_taken = false, b_valid = false, r_valid = false;
  uint32_t aw_addr = 0, w_data = 0, r_data = 0;
  uint8_t b_resp = 0, r_resp = 0;
  bool aw_ready = false, w_ready = false, ar_ready = false;

  static uint8_t RespFor(uint32_t addr) {
    if ((addr >> 16) == 0xBAD0) return 2;
    if ((addr >> 16) == 0xDEC0) return 3;
    return 0;
  }
};

class UartAxilTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx_ = std::make_unique<VerilatedContext>();
    ctx_->randReset(2);
    top_ = std::make_unique<Vsgu_uart_axil>(ctx_.get(), "top");
    seed_ = SeedFromEnv(0x5ea1);
    rng_ = std::make_unique<TestRng>(seed_);
    // Reset is asynchronous: an edge of rst_ni (not only its level) starts it.
    top_->rst_ni = 1;
    top_->rx_i = 1;
    top_->clk_i = 0;
    top_->eval();
    top_->rst_ni = 0;
    top_->eval();
    for (int i = 0; i < 3; ++i) Cycle();
    top_->rst_ni = 1;
    Cycle();
  }
  void TearDown() override {
    top_->final();
    if (HasFailure()) std::printf("seed: SGU_SEED=0x%llx\n", static_cast<unsigned long long>(seed_));
  }

  // One clock cycle: inputs from the line and the slave, the edge, then the slave's update.
  void Cycle() {
    LiteSlave& s = slave_;
    top_->rx_i = line_.TxLevel();
    top_->m_axil_awready_i = s.aw_ready;
    top_->m_axil_wready_i = s.w_ready;
    top_->m_axil_bvalid_i = s.b_valid;
    top_->m_axil_bresp_i = s.b_resp;
    top_->m_axil_arready_i = s.ar_ready;
    top_->m_axil_rvalid_i = s.r_valid;
    top_->m_axil_rdata_i = s.r_data;
    top_->m_axil_rresp_i = s.r_resp;
    top_->clk_i = 0;
    top_->eval();
    ctx_->timeInc(1);
    // Handshakes at this edge.
    const bool aw = top_->m_axil_awvalid_o && s.aw_ready;
    const bool w = top_->m_axil_wvalid_o && s.w_ready;
    const bool b = s.b_valid && top_->m_axil_bready_o;
    const bool ar = top_->m_axil_arvalid_o && s.ar_ready;
    const bool r = s.r_valid && top_->m_axil_rready_o;
    const uint32_t awaddr = top_->m_axil_awaddr_o, wdata = top_->m_axil_wdata_o;
    const uint32_t araddr = top_->m_axil_araddr_o;
    const unsigned wstrb = top_->m_axil_wstrb_o;
    line_.Tick(top_->tx_o);
    top_->clk_i = 1;
    top_->eval();
    ctx_->timeInc(1);
    ++cycles_;
    if (aw) {
      s.aw_taken = true;
      s.aw_addr = awaddr;
    }
    if (w) {
      s.w_taken = true;
      s.w_data = wdata;
      if (wstrb != 0xF) ++s.bad_strobes;
    }
    if (b) s.b_valid = false;
    if (r) s.r_valid = false;
    if (s.aw_taken && s.w_taken && !s.b_valid) {
      s.b_resp = LiteSlave::RespFor(s.aw_addr);
      if (s.b_resp == 0) {
        s.mem[s.aw_addr] = s.w_data;
        s.writes.emplace_back(s.aw_addr, s.w_data);
      }
      s.aw_taken = s.w_taken = false;
      s.b_valid = true;
    }
    if (ar) {
      s.r_resp = LiteSlave::RespFor(araddr);
      s.r_data = s.r_resp == 0 ? (s.mem.count(araddr) ? s.mem[araddr] : 0) : 0xDEADBEEF;
      s.r_valid = true;
    }
    s.aw_ready = !s.aw_taken && rng_->Percent(s.ready_pct);
    s.w_ready = !s.w_taken && rng_->Percent(s.ready_pct);
    s.ar_ready = !s.r_valid && rng_->Percent(s.ready_pct);
  }

  // Runs until a 6-byte reply has arrived (or max_cycles); returns it.
  std::optional<UartReply> AwaitReply(unsigned max_cycles = 20000) {
    for (unsigned c = 0; c < max_cycles; ++c) {
      if (line_.received().size() >= 6) {
        std::vector<uint8_t> b(line_.received().begin(), line_.received().begin() + 6);
        line_.received().erase(line_.received().begin(), line_.received().begin() + 6);
        return ParseReply(b);
      }
      Cycle();
    }
    return std::nullopt;
  }

  UartReply Transact(const std::vector<uint8_t>& frame) {
    line_.Send(frame);
    auto r = AwaitReply();
    EXPECT_TRUE(r.has_value()) << "no reply";
    if (!r) return {};
    EXPECT_TRUE(r->crc_ok) << "reply CRC";
    return *r;
  }

  // No further byte comes from the bridge for a while.
  void ExpectQuiet(unsigned cycles) {
    for (unsigned c = 0; c < cycles; ++c) Cycle();
    EXPECT_TRUE(line_.received().empty()) << line_.received().size() << " unexpected bytes";
    line_.received().clear();
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vsgu_uart_axil> top_;
  uint64_t seed_ = 0;
  std::unique_ptr<TestRng> rng_;
  UartLine line_{kClksPerBit};
  LiteSlave slave_;
  uint64_t cycles_ = 0;
};

TEST_F(UartAxilTest, Crc8MatchesTheCheckValue) {
  const std::string s = "123456789";
  EXPECT_EQ(Crc8(reinterpret_cast<const uint8_t*>(s.data()), s.size()), 0xF4);
}

TEST_F(UartAxilTest, WriteThenReadBack) {
  slave_.ready_pct = 60;
  auto w = Transact(WriteFrame(0x1000, 0xCAFEF00D));
  EXPECT_EQ(w.status, kUartOk) << StatusName(w.status);
  EXPECT_EQ(w.data, 0u);
  auto r = Transact(ReadFrame(0x1000));
  EXPECT_EQ(r.status, kUartOk) << StatusName(r.status);
  EXPECT_EQ(r.data, 0xCAFEF00Du);
  ASSERT_EQ(slave_.writes.size(), 1u);
  EXPECT_EQ(slave_.writes[0], std::make_pair(0x1000u, 0xCAFEF00Du));
  EXPECT_EQ(slave_.bad_strobes, 0u);
  ExpectQuiet(500);
}

TEST_F(UartAxilTest, AxiErrorsAreReported) {
  auto w = Transact(WriteFrame(0xBAD00010, 1));
  EXPECT_EQ(w.status, kUartSlvErr) << StatusName(w.status);
  auto r = Transact(ReadFrame(0xDEC00020));
  EXPECT_EQ(r.status, kUartDecErr) << StatusName(r.status);
  EXPECT_EQ(r.data, 0u) << "an error reply carries no data";
  EXPECT_TRUE(slave_.writes.empty());
}

TEST_F(UartAxilTest, BadCrcWritesNothing) {
  auto f = WriteFrame(0x2000, 0x12345678);
  f.back() ^= 0x01;
  auto r = Transact(f);
  EXPECT_EQ(r.status, kUartBadCrc) << StatusName(r.status);
  EXPECT_TRUE(slave_.writes.empty());
  // A corrupted data byte (CRC of the original) is caught too.
  f = WriteFrame(0x2000, 0x12345678);
  f[6] ^= 0x40;
  r = Transact(f);
  EXPECT_EQ(r.status, kUartBadCrc) << StatusName(r.status);
  EXPECT_TRUE(slave_.writes.empty());
  // And the bridge is back in step.
  EXPECT_EQ(Transact(WriteFrame(0x2000, 7)).status, kUartOk);
  EXPECT_EQ(slave_.writes.size(), 1u);
}

TEST_F(UartAxilTest, UnknownCommandDrainsTheRestAndRepliesOnce) {
  // A whole write frame behind a wrong command byte: one reply for all of it.
  auto f = WriteFrame(0x3000, 0xFFFFFFFF);
  f[0] = 'X';
  auto r = Transact(f);
  EXPECT_EQ(r.status, kUartUnknownCmd) << StatusName(r.status);
  ExpectQuiet(kClksPerBit * kTimeoutBits * 4);
  EXPECT_TRUE(slave_.writes.empty());
  EXPECT_EQ(Transact(ReadFrame(0x3000)).status, kUartOk);
}

TEST_F(UartAxilTest, TruncatedFrameTimesOut) {
  auto f = WriteFrame(0x4000, 0xAAAA5555);
  f.resize(7);  // stops half-way through the data
  auto r = Transact(f);
  EXPECT_EQ(r.status, kUartTimeout) << StatusName(r.status);
  EXPECT_TRUE(slave_.writes.empty()) << "no partial word is written";
  EXPECT_EQ(Transact(WriteFrame(0x4000, 1)).status, kUartOk);
}

TEST_F(UartAxilTest, SlowHostWithinTheTimeoutIsFine) {
  line_.Send(WriteFrame(0x4100, 0x0BADCAFE), kTimeoutBits / 2);  // long gaps between bytes
  auto r = AwaitReply(100000);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, kUartOk) << StatusName(r->status);
  EXPECT_EQ(slave_.mem[0x4100], 0x0BADCAFEu);
}

TEST_F(UartAxilTest, FramingErrorIsReported) {
  auto f = WriteFrame(0x5000, 0x11223344);
  line_.Send({f.begin(), f.begin() + 3});
  line_.SendBadStop(f[3]);
  line_.Send({f.begin() + 4, f.end()});
  auto r = AwaitReply();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, kUartFrameErr) << StatusName(r->status);
  EXPECT_TRUE(slave_.writes.empty());
  ExpectQuiet(kClksPerBit * kTimeoutBits * 4);
  EXPECT_EQ(Transact(WriteFrame(0x5000, 2)).status, kUartOk);
}

TEST_F(UartAxilTest, UnalignedAddressIsRejected) {
  auto r = Transact(WriteFrame(0x6002, 0x1));
  EXPECT_EQ(r.status, kUartUnaligned) << StatusName(r.status);
  r = Transact(ReadFrame(0x6001));
  EXPECT_EQ(r.status, kUartUnaligned) << StatusName(r.status);
  EXPECT_TRUE(slave_.writes.empty());
}

TEST_F(UartAxilTest, BytesDuringTheReplyAreAnOverrun) {
  slave_.ready_pct = 100;
  line_.Send(ReadFrame(0x7000));
  // Send the next frame right away, without waiting for the reply.
  line_.Send(WriteFrame(0x7000, 5));
  auto first = AwaitReply();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, kUartOk);
  auto second = AwaitReply(50000);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->status, kUartOverrun) << StatusName(second->status);
  EXPECT_TRUE(slave_.writes.empty()) << "the overlapping frame is dropped";
  ExpectQuiet(kClksPerBit * kTimeoutBits * 4);
}

// Random frames, some corrupted (bit flips, truncation, wrong command, bad stop bit): a write
// reaches the bus exactly when its reply says OK, and always as a whole word.
TEST_F(UartAxilTest, RandomFramesAndCorruption) {
  slave_.ready_pct = 70;
  std::map<uint32_t, uint32_t> expect;
  unsigned ok = 0, errors = 0;
  for (int i = 0; i < 300; ++i) {
    const uint32_t addr = 0x100 + 4 * rng_->Below(16);
    const bool is_write = rng_->Percent(60);
    const uint32_t data = static_cast<uint32_t>(rng_->Next());
    auto f = is_write ? WriteFrame(addr, data) : ReadFrame(addr);
    const unsigned kind = rng_->Below(10);
    bool corrupted = true;
    if (kind == 0) {
      f[1 + rng_->Below(static_cast<uint32_t>(f.size() - 1))] ^=
          static_cast<uint8_t>(1u << rng_->Below(8));
      line_.Send(f);
    } else if (kind == 1) {
      f.resize(1 + rng_->Below(static_cast<uint32_t>(f.size() - 1)));
      line_.Send(f);
    } else if (kind == 2) {
      f[0] = static_cast<uint8_t>('a' + rng_->Below(20));
      line_.Send(f);
    } else if (kind == 3) {
      const unsigned at = rng_->Below(static_cast<uint32_t>(f.size()));
      line_.Send({f.begin(), f.begin() + at});
      line_.SendBadStop(f[at]);
    } else {
      corrupted = false;
      line_.Send(f, rng_->Below(3));
    }
    auto r = AwaitReply(100000);
    ASSERT_TRUE(r) << "frame " << i << ": no reply";
    ASSERT_TRUE(r->crc_ok);
    if (corrupted) {
      ASSERT_NE(r->status, kUartOk) << "frame " << i << " was corrupted (kind " << kind << ")";
      ++errors;
      // Let the drain finish before the next frame.
      for (unsigned c = 0; c < kClksPerBit * kTimeoutBits * 2; ++c) Cycle();
      ASSERT_TRUE(line_.received().empty()) << "frame " << i << ": a second reply";
    } else {
      ASSERT_EQ(r->status, kUartOk) << "frame " << i << ": " << StatusName(r->status);
      ++ok;
      if (is_write) {
        expect[addr] = data;
      } else {
        ASSERT_EQ(r->data, expect.count(addr) ? expect[addr] : 0u) << "frame " << i;
      }
    }
  }
  EXPECT_EQ(slave_.mem, expect);
  EXPECT_EQ(slave_.bad_strobes, 0u);
  EXPECT_GT(ok, 100u);
  EXPECT_GT(errors, 50u);
}

}  // namespace
}  // namespace sgu::tb
