// SPDX-License-Identifier: Apache-2.0
// What the board pieces' tests (tb/fpga) share.
#pragma once

#include <cstdint>
#include <cstdlib>

namespace sgu::tb {

// The seed of a test's random stream: $SGU_SEED if set, else the test's own default (runs are
// reproducible; the same variable as the RTL tests' BaseSeed in tb/tb_test_util.h).
inline uint64_t SeedFromEnv(uint64_t dflt) {
  const char* s = std::getenv("SGU_SEED");
  return s ? std::strtoull(s, nullptr, 0) : dflt;
}

}  // namespace sgu::tb
