// SPDX-License-Identifier: Apache-2.0
// Host side of the SGU UART bridge: frames, CRC-8 and the 8N1 line model (uart_host.h).
#include "uart_host.h"

#include <cstdio>

namespace sgu::tb {

uint8_t Crc8(const uint8_t* data, size_t n) {
  uint8_t crc = 0;
  for (size_t i = 0; i < n; ++i) {
    crc ^= data[i];
    for (int b = 0; b < 8; ++b) {
      crc = static_cast<uint8_t>((crc & 0x80) ? ((crc << 1) ^ 0x07) : (crc << 1));
    }
  }
  return crc;
}

uint8_t Crc8(const std::vector<uint8_t>& data) { return Crc8(data.data(), data.size()); }

namespace {
void PutLe32(std::vector<uint8_t>& v, uint32_t x) {
  for (int i = 0; i < 4; ++i) v.push_back(static_cast<uint8_t>(x >> (8 * i)));
}
}  // namespace

std::vector<uint8_t> WriteFrame(uint32_t addr, uint32_t data) {
  std::vector<uint8_t> f{0x57};
  PutLe32(f, addr);
  PutLe32(f, data);
  f.push_back(Crc8(f));
  return f;
}

std::vector<uint8_t> ReadFrame(uint32_t addr) {
  std::vector<uint8_t> f{0x52};
  PutLe32(f, addr);
  f.push_back(Crc8(f));
  return f;
}

std::string StatusName(uint8_t status) {
  switch (status) {
    case kUartOk: return "OK";
    case kUartSlvErr: return "SLVERR";
    case kUartDecErr: return "DECERR";
    case kUartBadCrc: return "bad CRC";
    case kUartUnknownCmd: return "unknown command";
    case kUartTimeout: return "timeout";
    case kUartFrameErr: return "framing error";
    case kUartUnaligned: return "unaligned address";
    case kUartOverrun: return "overrun";
    default: {
      char buf[16];
      std::snprintf(buf, sizeof buf, "0x%02x", status);
      return buf;
    }
  }
}

UartReply ParseReply(const std::vector<uint8_t>& b) {
  UartReply r;
  if (b.size() != 6) return r;
  r.status = b[0];
  r.data = static_cast<uint32_t>(b[1]) | static_cast<uint32_t>(b[2]) << 8 |
           static_cast<uint32_t>(b[3]) << 16 | static_cast<uint32_t>(b[4]) << 24;
  r.crc_ok = Crc8(b.data(), 5) == b[5];
  return r;
}

void UartLine::QueueBits(uint16_t bits, unsigned nbits) {
  for (unsigned i = 0; i < nbits; ++i) {
    for (unsigned c = 0; c < cpb_; ++c) tx_.push_back(((bits >> i) & 1) != 0);
  }
}

void UartLine::Send(const std::vector<uint8_t>& bytes, unsigned gap_bits) {
  for (uint8_t b : bytes) {
    QueueBits(static_cast<uint16_t>(0x200 | (b << 1)), 10);  // start 0, data LSB first, stop 1
    if (gap_bits) QueueBits(0xFFFF, gap_bits);
  }
}

void UartLine::SendBadStop(uint8_t byte) {
  QueueBits(static_cast<uint16_t>(byte << 1), 10);  // stop bit 0
  QueueBits(0xFFFF, 2);
}

void UartLine::Idle(unsigned cycles) {
  for (unsigned c = 0; c < cycles; ++c) tx_.push_back(true);
}

void UartLine::Tick(bool design_tx) {
  if (!tx_.empty()) tx_.pop_front();
  // Receiver: mid-bit sampling of the design's output.
  switch (rx_state_) {
    case RxState::kIdle:
      if (!design_tx) {
        rx_state_ = RxState::kStart;
        rx_cnt_ = cpb_ / 2;
      }
      break;
    case RxState::kStart:
      if (--rx_cnt_ == 0) {
        if (design_tx) {
          rx_state_ = RxState::kIdle;  // glitch
        } else {
          rx_state_ = RxState::kData;
          rx_cnt_ = cpb_;
          rx_bit_ = 0;
          rx_shift_ = 0;
        }
      }
      break;
    case RxState::kData:
      if (--rx_cnt_ == 0) {
        rx_shift_ = static_cast<uint8_t>((rx_shift_ >> 1) | (design_tx ? 0x80 : 0));
        rx_cnt_ = cpb_;
        if (++rx_bit_ == 8) rx_state_ = RxState::kStop;
      }
      break;
    case RxState::kStop:
      if (--rx_cnt_ == 0) {
        if (design_tx) {
          rx_bytes_.push_back(rx_shift_);
        } else {
          ++rx_ferr_;
        }
        rx_state_ = RxState::kIdle;
      }
      break;
  }
}

}  // namespace sgu::tb
