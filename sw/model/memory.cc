// SPDX-License-Identifier: Apache-2.0
// Memory: little-endian byte store with AXI error ranges.
#include <stdexcept>

#include "sgu/model.h"

namespace sgu {

Memory::Memory(uint32_t size_bytes) : bytes_(size_bytes, 0) {}

void Memory::AddErrorRange(uint32_t lo, uint32_t hi) {
  if (lo < hi) errors_.push_back(Range{lo, hi});
}

bool Memory::IsError(uint32_t addr, uint32_t size) const {
  const uint64_t end = uint64_t{addr} + size;  // no 32-bit wrap
  if (end > bytes_.size()) return true;
  for (const Range& r : errors_) {
    if (addr < r.hi && end > r.lo) return true;
  }
  return false;
}

uint64_t Memory::Load(uint32_t addr, unsigned size) const {
  if (size == 0 || size > 8 || uint64_t{addr} + size > bytes_.size()) {
    throw std::out_of_range("Memory::Load outside memory");
  }
  uint64_t v = 0;
  for (unsigned i = 0; i < size; ++i) v |= uint64_t{bytes_[addr + i]} << (8 * i);
  return v;
}

void Memory::Store(uint32_t addr, unsigned size, uint64_t value) {
  if (size == 0 || size > 8 || uint64_t{addr} + size > bytes_.size()) {
    throw std::out_of_range("Memory::Store outside memory");
  }
  for (unsigned i = 0; i < size; ++i) bytes_[addr + i] = static_cast<uint8_t>(value >> (8 * i));
}

}  // namespace sgu
