// SPDX-License-Identifier: Apache-2.0
// Host side of the SGU UART bridge (rtl/sgu_uart_axil.sv) for the Verilator tests: the frame
// format and CRC-8, and an 8N1 line stepped once per clock of the simulated design.
//
// Frame format (the same as fpga/uart_host.py and docs/fpga.md "UART bridge"):
//   write: 'W' (0x57), address (4 bytes, little-endian), data (4 bytes LE), CRC-8  -> 10 bytes
//   read:  'R' (0x52), address (4 bytes LE), CRC-8                                 ->  6 bytes
//   reply: status, data (4 bytes LE), CRC-8                                         ->  6 bytes
// CRC-8/SMBUS: polynomial 0x07, initial value 0, no reflection, no final XOR.
#ifndef SGU_TB_FPGA_UART_HOST_H_
#define SGU_TB_FPGA_UART_HOST_H_

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace sgu::tb {

// Reply status codes of the bridge.
enum UartStatus : uint8_t {
  kUartOk = 0x00,
  kUartSlvErr = 0x02,
  kUartDecErr = 0x03,
  kUartBadCrc = 0x10,
  kUartUnknownCmd = 0x11,
  kUartTimeout = 0x12,
  kUartFrameErr = 0x13,
  kUartUnaligned = 0x14,
  kUartOverrun = 0x15,
};

uint8_t Crc8(const uint8_t* data, size_t n);
uint8_t Crc8(const std::vector<uint8_t>& data);
std::vector<uint8_t> WriteFrame(uint32_t addr, uint32_t data);
std::vector<uint8_t> ReadFrame(uint32_t addr);
std::string StatusName(uint8_t status);

// A decoded 6-byte reply.
struct UartReply {
  uint8_t status = 0;
  uint32_t data = 0;
  bool crc_ok = false;
};
UartReply ParseReply(const std::vector<uint8_t>& six_bytes);

// The host end of an 8N1 line. Call Tick() once per clock cycle of the design, after the design's
// outputs for that cycle are known: it advances the host's transmitter (TxLevel() is what to drive
// into the design's receive input in the next cycle) and samples the design's transmit output.
class UartLine {
 public:
  explicit UartLine(unsigned clks_per_bit) : cpb_(clks_per_bit) {}

  // Queues bytes to send, each 8N1; gap_bits idle bit times after each byte.
  void Send(const std::vector<uint8_t>& bytes, unsigned gap_bits = 0);
  // Queues one byte whose stop bit is 0 (a framing error at the receiver), then idle.
  void SendBadStop(uint8_t byte);
  // Queues idle line for n clock cycles.
  void Idle(unsigned cycles);

  bool TxLevel() const { return tx_.empty() ? true : tx_.front(); }
  bool TxIdle() const { return tx_.empty(); }
  void Tick(bool design_tx);

  // Bytes received from the design (oldest first) and framing errors seen.
  std::deque<uint8_t>& received() { return rx_bytes_; }
  unsigned rx_framing_errors() const { return rx_ferr_; }
  bool RxBusy() const { return rx_state_ != RxState::kIdle; }

 private:
  enum class RxState { kIdle, kStart, kData, kStop };
  void QueueBits(uint16_t bits, unsigned nbits);

  unsigned cpb_;
  std::deque<bool> tx_;  // line level per future cycle
  RxState rx_state_ = RxState::kIdle;
  unsigned rx_cnt_ = 0, rx_bit_ = 0, rx_ferr_ = 0;
  uint8_t rx_shift_ = 0;
  std::deque<uint8_t> rx_bytes_;
};

}  // namespace sgu::tb

#endif  // SGU_TB_FPGA_UART_HOST_H_
