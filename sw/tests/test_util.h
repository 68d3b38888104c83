// SPDX-License-Identifier: Apache-2.0
// Test helpers: a small machine (memory + model) that runs assembly, and reproducible randomness.
#ifndef SGU_TESTS_TEST_UTIL_H_
#define SGU_TESTS_TEST_UTIL_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sgu/asm.h"
#include "sgu/model.h"

namespace sgu {
namespace test {

constexpr uint32_t kCode = 0x1000;  // programs are loaded here
constexpr uint32_t kData = 0x4000;  // a free data area
constexpr uint32_t kMemSize = 0x10000;

// Memory + model + launch parameters; Run() executes an assembled program to its end.
class Machine {
 public:
  explicit Machine(unsigned lanes, uint32_t mem_size = kMemSize);
  // Assembles src and stores the words at kCode.
  void Load(const std::string& src);
  void LoadWords(const std::vector<uint64_t>& words, uint32_t at = kCode);
  // Starts (pc = kCode, window [0, mem size) unless changed in params) and steps until the model
  // stops; every record is kept in trace. Fails the test if it runs more than max_steps.
  const Retire& Run(uint64_t max_steps = 100000);
  // The record of the first retired instruction at byte offset `offset` from kCode.
  const Retire& At(uint32_t offset) const;

  void Store32(uint32_t addr, uint32_t v) { mem.Store(addr, 4, v); }
  uint32_t Load32(uint32_t addr) const { return static_cast<uint32_t>(mem.Load(addr, 4)); }

  unsigned n;
  Memory mem;
  Model model;
  LaunchParams params;
  std::vector<Retire> trace;
};

// Reproducible randomness: one 64-bit seed per test (SGU_TEST_SEED overrides the default, which
// is derived from the test name); print it with SCOPED_TRACE(rng.Describe()).
class Rng {
 public:
  Rng();  // seed for the current test
  explicit Rng(uint64_t seed) : seed_(seed), gen_(seed) {}
  uint64_t seed() const { return seed_; }
  std::string Describe() const;
  uint64_t Next() { return gen_(); }
  uint32_t Next32() { return static_cast<uint32_t>(gen_() >> 32); }
  // Uniform-ish in [0, n) (n > 0), mapped by hand (no std::*_distribution).
  uint64_t Below(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(gen_()) * n) >> 64);
  }
  // A 32-bit value biased towards edge cases (0, 1, -1, sign boundaries, small numbers).
  uint32_t Interesting32();

 private:
  uint64_t seed_;
  std::mt19937_64 gen_;
};

}  // namespace test
}  // namespace sgu

#endif  // SGU_TESTS_TEST_UTIL_H_
