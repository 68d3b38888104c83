// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the lockstep tests (see tb_test_util.h).
#include "tb_test_util.h"

#include <cstdlib>
#include <fstream>

namespace sgu::tb {

uint64_t EnvNumber(const char* name, uint64_t def) {
  const char* v = std::getenv(name);
  return (v && *v) ? std::strtoull(v, nullptr, 0) : def;
}

uint64_t BaseSeed() { return EnvNumber("SGU_SEED", 0x5eed0001); }

LockstepRun RunLockstep(const std::string& source, unsigned lanes, uint64_t seed, bool partial,
                        bool random_axi, uint32_t watchdog, const std::string& trace) {
  Rng rng(seed);
  Memory image = MakeImage(source, rng);
  CosimOptions opts;
  opts.rtl.num_lanes = lanes;
  opts.rtl.seed = rng.Bits();
  opts.rtl.max_latency = random_axi ? 4 : 0;
  opts.rtl.ready_percent = random_axi ? 60 : 100;
  opts.rtl.lite_max_delay = random_axi ? 3 : 0;
  opts.rtl.trace_path = trace;
  opts.watchdog_cycles = watchdog;
  opts.hang_cycles = 100000;
  opts.max_instructions = 2000000;
  Cosim cosim(opts, image);
  LockstepRun run;
  run.partial = partial;
  run.random_axi = random_axi;
  run.result = cosim.Run(MakeLaunch(lanes, partial, rng));
  const CosimStatus s = run.result.status;
  if (s == CosimStatus::kMismatch || s == CosimStatus::kHang || s == CosimStatus::kLimit) {
    const char* dir = std::getenv("SGU_FAIL_DIR");
    run.program_path = std::string(dir && *dir ? dir : ".") + "/sgu_fail_simd" +
                       std::to_string(lanes) + "_seed" + std::to_string(seed) + ".s";
    std::ofstream f(run.program_path);
    f << "# lanes " << lanes << " seed " << seed << " partial " << partial << " random_axi "
      << random_axi << "\n"
      << source;
  }
  return run;
}

std::string Describe(const LockstepRun& run, unsigned lanes, uint64_t seed) {
  std::string s = std::string("SIMD") + std::to_string(lanes) + " seed " + std::to_string(seed) +
                  ": " + CosimStatusName(run.result.status) + " after " +
                  std::to_string(run.result.instructions) + " instructions";
  if (!run.result.report.empty()) s += "\n" + run.result.report;
  if (!run.program_path.empty()) {
    s += "\nprogram saved to " + run.program_path + "; replay with: build/tb/sgu-cosim " +
         run.program_path + " --simd " + std::to_string(lanes) + " --replay " +
         std::to_string(seed) + (run.partial ? " --partial" : "") +
         (run.random_axi ? " --random-axi" : "") + " --trace fail.fst";
  }
  return s;
}

}  // namespace sgu::tb
