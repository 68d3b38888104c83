// SPDX-License-Identifier: Apache-2.0
// The ULX3S board top (fpga/ulx3s_top.sv, SGU at SIMD8) in Verilator, driven only through its
// pins: a host model sends UART frames to load a kernel, start it, poll STATUS and read the
// results, which are compared with the golden model running the same kernel. Also: a trap seen
// on STATUS, CAUSE and the LEDs, and the bridge's error replies at board level.
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

// The board model: the default build, or (SGU_BOARD_ECP5) the build with SGU_ECP5, whose
// register file, multipliers and late picks are ECP5 primitives (behavioural models here).
#ifdef SGU_BOARD_ECP5
#include "Vulx3s_top_ecp5.h"
using BoardModel = Vulx3s_top_ecp5;
#else
#include "Vulx3s_top.h"
using BoardModel = Vulx3s_top;
#endif
#include "sgu/asm.h"
#include "sgu/isa_gen.h"
#include "sgu/model.h"
#include "uart_host.h"

namespace sgu::tb {
namespace {

// Values the model was verilated with (tb/fpga/CMakeLists.txt).
constexpr unsigned kLanes = 8;
constexpr unsigned kClksPerBit = 8;
constexpr uint32_t kMemBytes = 65536;
constexpr uint32_t kCsrBase = 0x40000000;  // SGU registers in the host address map

std::string ReadFile(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

class BoardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx_ = std::make_unique<VerilatedContext>();
    ctx_->randReset(2);
    top_ = std::make_unique<BoardModel>(ctx_.get(), "top");
    // The PWR button is pressed (btn[0] low) and released: the board's reset is asynchronous,
    // started by the falling edge.
    top_->btn = 1;
    top_->ftdi_txd = 1;
    top_->clk_25mhz = 0;
    top_->eval();
    top_->btn = 0;
    top_->eval();
    for (int i = 0; i < 4; ++i) Cycle();
    top_->btn = 1;  // released
    for (int i = 0; i < 40; ++i) Cycle();
  }
  void TearDown() override { top_->final(); }

  void Cycle() {
    top_->ftdi_txd = line_.TxLevel();
    top_->clk_25mhz = 0;
    top_->eval();
    ctx_->timeInc(1);
    line_.Tick(top_->ftdi_rxd);
    top_->clk_25mhz = 1;
    top_->eval();
    ctx_->timeInc(1);
    ++cycles_;
  }

  UartReply Transact(const std::vector<uint8_t>& frame) {
    line_.Send(frame);
    for (unsigned c = 0; c < 200000; ++c) {
      if (line_.received().size() >= 6) {
        std::vector<uint8_t> b(line_.received().begin(), line_.received().begin() + 6);
        line_.received().erase(line_.received().begin(), line_.received().begin() + 6);
        UartReply r = ParseReply(b);
        EXPECT_TRUE(r.crc_ok) << "reply CRC";
        return r;
      }
      Cycle();
    }
    ADD_FAILURE() << "no reply from the board";
    return {0xFF, 0, false};
  }
  void Write(uint32_t addr, uint32_t data) {
    UartReply r = Transact(WriteFrame(addr, data));
    ASSERT_EQ(r.status, kUartOk) << "write 0x" << std::hex << addr << ": " << StatusName(r.status);
  }
  uint32_t Read(uint32_t addr) {
    UartReply r = Transact(ReadFrame(addr));
    EXPECT_EQ(r.status, kUartOk) << "read 0x" << std::hex << addr << ": " << StatusName(r.status);
    return r.data;
  }

  // Loads a program at 0 and starts it with the window [0, limit).
  void LoadAndStart(const Program& prog, uint32_t limit) {
    for (size_t i = 0; i < prog.words.size(); ++i) {
      Write(static_cast<uint32_t>(8 * i), static_cast<uint32_t>(prog.words[i]));
      Write(static_cast<uint32_t>(8 * i + 4), static_cast<uint32_t>(prog.words[i] >> 32));
      if (HasFatalFailure()) return;
    }
    Write(kCsrBase + isa::csr::kPcStart, 0);
    Write(kCsrBase + isa::csr::kLanes, kLanes);
    Write(kCsrBase + isa::csr::kMemBase, 0);
    Write(kCsrBase + isa::csr::kMemLimit, limit);
    Write(kCsrBase + isa::csr::kWatchdog, 1000000);
    Write(kCsrBase + isa::csr::kCtrl, 1);
  }

  // Polls STATUS until busy clears; returns the last STATUS.
  uint32_t WaitIdle() {
    for (int polls = 0; polls < 200; ++polls) {
      const uint32_t status = Read(kCsrBase + isa::csr::kStatus);
      if ((status & 1) == 0) return status;
      for (int c = 0; c < 2000; ++c) Cycle();
    }
    ADD_FAILURE() << "the kernel did not finish";
    return 0;
  }

  bool Led(unsigned i) const { return (top_->led >> i) & 1; }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<BoardModel> top_;
  UartLine line_{kClksPerBit};
  uint64_t cycles_ = 0;
};

TEST_F(BoardTest, ShowcaseKernelOverUart) {
  const Program prog =
      Assemble(ReadFile(std::string(SGU_ROOT) + "/sw/examples/showcase.s"), "showcase.s");
  // The golden model, for the expected stores and instruction count.
  Memory mem(kMemBytes);
  Model model(kLanes, &mem);
  LaunchParams p;
  p.lanes = kLanes;
  p.mem_limit = kMemBytes;
  for (size_t i = 0; i < prog.words.size(); ++i) mem.Store(static_cast<uint32_t>(8 * i), 8, prog.words[i]);
  model.Start(p);
  std::vector<uint32_t> written;
  while (model.running()) {
    for (const MemWrite& w : model.Step().mem_writes) {
      for (uint32_t a = w.addr & ~3u; a < w.addr + w.size; a += 4) written.push_back(a);
    }
  }
  ASSERT_FALSE(written.empty());

  LoadAndStart(prog, kMemBytes);
  ASSERT_FALSE(HasFatalFailure());
  const uint32_t status = WaitIdle();
  EXPECT_EQ(status, 2u) << "STATUS: done, not trapped";
  EXPECT_TRUE(Led(1)) << "done LED";
  EXPECT_FALSE(Led(2)) << "trap LED";
  EXPECT_FALSE(Led(0)) << "busy LED";
  EXPECT_EQ(Read(kCsrBase + isa::csr::kInstretLo), model.instret());
  EXPECT_EQ(Read(kCsrBase + isa::csr::kConfig) & 0xFF, kLanes);
  unsigned checked = 0;
  for (uint32_t a : written) {
    EXPECT_EQ(Read(a), static_cast<uint32_t>(mem.Load(a, 4))) << "result word at 0x" << std::hex << a;
    ++checked;
  }
  std::printf("board: showcase at SIMD%u: %zu program words, %u result words checked, "
              "%llu instructions, %llu cycles simulated in total\n",
              kLanes, prog.words.size(), checked,
              static_cast<unsigned long long>(model.instret()),
              static_cast<unsigned long long>(cycles_));
}

TEST_F(BoardTest, BusErrorTrapShowsOnStatusAndLeds) {
  // A load just past the end of the on-chip memory: the memory answers SLVERR.
  const Program prog = Assemble(
      "  li s2, 0x10000\n"
      "  ld.i32 v2, [s2 + 0]\n"
      "  halt\n");
  LoadAndStart(prog, 2 * kMemBytes);  // the window allows it: the bus is what fails
  ASSERT_FALSE(HasFatalFailure());
  const uint32_t status = WaitIdle();
  EXPECT_EQ(status, 4u) << "STATUS: trapped";
  EXPECT_EQ(Read(kCsrBase + isa::csr::kCause), static_cast<uint32_t>(isa::Cause::kLoadBusError));
  EXPECT_EQ(Read(kCsrBase + isa::csr::kTrapVal), 0x10000u);
  EXPECT_TRUE(Led(2)) << "trap LED";
  EXPECT_FALSE(Led(1)) << "done LED";
}

TEST_F(BoardTest, HostErrorsAtBoardLevel) {
  // Nothing mapped at 0x8000_0000: DECERR from the address split.
  EXPECT_EQ(Transact(ReadFrame(0x80000000)).status, kUartDecErr);
  EXPECT_EQ(Transact(WriteFrame(0x80000000, 1)).status, kUartDecErr);
  // An SGU register that does not exist: SLVERR from the SGU.
  EXPECT_EQ(Transact(ReadFrame(kCsrBase + 0xFC)).status, kUartSlvErr);
  // A corrupted frame leaves the memory as it was.
  Write(0x100, 0x01020304);
  auto f = WriteFrame(0x100, 0xFFFFFFFF);
  f[5] ^= 0x10;
  EXPECT_EQ(Transact(f).status, kUartBadCrc);
  EXPECT_EQ(Read(0x100), 0x01020304u);
  // The memory's last word answers, the next address does not exist.
  Write(kMemBytes - 4, 0xA5A5A5A5);
  EXPECT_EQ(Read(kMemBytes - 4), 0xA5A5A5A5u);
  EXPECT_EQ(Transact(ReadFrame(kMemBytes)).status, kUartDecErr);
}

}  // namespace
}  // namespace sgu::tb
