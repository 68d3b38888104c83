// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the lockstep tests: run a program in co-simulation and explain failures.
#ifndef SGU_TB_TB_TEST_UTIL_H_
#define SGU_TB_TB_TEST_UTIL_H_

#include <cstdint>
#include <string>

#include "cosim.h"
#include "random_program.h"

namespace sgu::tb {

// The base seed of a test run: $SGU_SEED if set, else a fixed default (runs are reproducible).
uint64_t BaseSeed();
// An environment variable as a number, or `def` when unset.
uint64_t EnvNumber(const char* name, uint64_t def);

struct LockstepRun {
  CosimResult result;
  std::string program_path;  // where the program was saved when the run failed
  bool partial = false;      // the inputs of the run, for the replay command
  bool random_axi = false;
};

// Assembles `source` into an image (MakeImage), runs it in lockstep at `lanes` with the AXI
// randomness derived from `seed`, and returns the result. When the result is a mismatch or a
// hang the program is saved under $SGU_FAIL_DIR (default: the current directory) and the
// returned path names the file. `watchdog` sets the WATCHDOG register.
LockstepRun RunLockstep(const std::string& source, unsigned lanes, uint64_t seed, bool partial,
                        bool random_axi, uint32_t watchdog = 0, const std::string& trace = "");

// One line naming everything needed to reproduce a run.
std::string Describe(const LockstepRun& run, unsigned lanes, uint64_t seed);

}  // namespace sgu::tb

#endif  // SGU_TB_TB_TEST_UTIL_H_
