// SPDX-License-Identifier: Apache-2.0
// sgu-bench: simulation speed of the Verilated SGU (cycles/s, no tracing, no checking) and
// lockstep co-simulation speed (instructions/s) at SIMD 8, 16 and 32. Prints a table and, with
// --write FILE, writes it as Markdown into its own section of FILE, keeping the rest of the file
// (make bench writes docs/performance.md; sgu-bench-kernels writes the section beside it).
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>

#include "bench_doc.h"
#include "cosim.h"
#include "random_program.h"

namespace {

using namespace sgu;
using namespace sgu::tb;
using Clock = std::chrono::steady_clock;

// A straight-line loop body of lane, crossbar and FP work (80 bytes, across two cache lines):
// one instruction per cycle once its lines are in the instruction cache.
std::string SpeedProgram(unsigned iterations) {
  return "  lane v1\n  li v2, 3\n  li s2, 5\n  li s1, " + std::to_string(iterations) +
         "\nloop:\n"
         "  add v3, v1, v2\n  mul v4, v3, v1\n  xor v5, v4, v3\n  shfl.xor v6, v5, s2\n"
         "  cvt.f32.i32 v7, v6\n  fmul v8, v7, v7\n  ffma v9, v8, v7, v8\n  shfl.idx v10, v9, v1\n"
         "  addi s1, s1, -1\n  bnz s1, loop\n  halt\n";
}

struct Row {
  unsigned simd;
  double cycles_per_s;
  uint64_t cycles;
  double insns_per_s;
  uint64_t insns;
};

Row Measure(unsigned simd, unsigned iterations, uint64_t cosim_insns) {
  Row row{simd, 0, 0, 0, 0};
  {
    Rng rng(1);
    Memory image = MakeImage(SpeedProgram(iterations), rng);
    CosimOptions opts;
    opts.rtl.num_lanes = simd;
    opts.check = false;
    Cosim sim(opts, image);
    const auto t0 = Clock::now();
    const CosimResult r = sim.Run(MakeLaunch(simd, false, rng));
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (r.status != CosimStatus::kHalted) throw std::runtime_error("speed program did not halt");
    row.cycles = r.cycles;
    row.cycles_per_s = double(r.cycles) / s;
  }
  double seconds = 0;
  for (uint64_t seed = 1; row.insns < cosim_insns; ++seed) {
    Rng rng(seed * 7919 + simd);
    RandomProgramConfig cfg;
    cfg.num_lanes = simd;
    cfg.items = 300;
    cfg.trap_percent = 0;
    Memory image = MakeImage(GenerateRandomProgram(cfg, rng), rng);
    CosimOptions opts;
    opts.rtl.num_lanes = simd;
    Cosim cosim(opts, image);
    const LaunchParams launch = MakeLaunch(simd, false, rng);
    const auto t0 = Clock::now();
    const CosimResult r = cosim.Run(launch);
    seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    if (r.status != CosimStatus::kHalted) throw std::runtime_error("cosim: " + r.report);
    row.insns += r.instructions;
  }
  row.insns_per_s = double(row.insns) / seconds;
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out;
  unsigned iterations = 100000;
  uint64_t cosim_insns = 200000;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--write" && i + 1 < argc) {
      out = argv[++i];
    } else if (a == "--quick") {
      iterations = 5000;
      cosim_insns = 10000;
    } else {
      std::cerr << "usage: sgu-bench [--quick] [--write FILE.md]\n";
      return 2;
    }
  }
  try {
    std::ostringstream md;
    md << "| SIMD | AXI data width | RTL simulation, no tracing (cycles/s) | cycles simulated | "
          "lockstep co-simulation (instructions/s) | instructions checked |\n"
          "|---|---|---|---|---|---|\n";
    for (unsigned simd : {8u, 16u, 32u}) {
      const Row r = Measure(simd, iterations, cosim_insns);
      const unsigned dw = simd == 8 ? 64 : simd == 16 ? 256 : 512;
      std::printf("SIMD%-2u  sim %10.0f cycles/s (%" PRIu64
                  " cycles)   cosim %9.0f insn/s (%" PRIu64 " insns)\n",
                  simd, r.cycles_per_s, r.cycles, r.insns_per_s, r.insns);
      std::fflush(stdout);
      char line[256];
      snprintf(line, sizeof line, "| %u | %u | %.0f | %" PRIu64 " | %.0f | %" PRIu64 " |\n", simd,
               dw, r.cycles_per_s, r.cycles, r.insns_per_s, r.insns);
      md << line;
    }
    if (!out.empty()) {
      std::ostringstream f;
      f << "## Simulation and co-simulation speed\n\n"
        << "Measured by `make bench` (`build/tb/sgu-bench --write docs/performance.md`) on "
        << sgu::tb::CpuName() << ", " << std::thread::hardware_concurrency()
        << " hardware threads, one thread used. Wall-clock numbers: they vary with the machine "
           "and its load.\n\n"
        << "Simulation speed runs a loop of lane ALU, crossbar and FP32 instructions on the "
           "Verilated RTL alone (no waveform, no checking). Co-simulation speed runs seeded "
           "random programs (tb/random_program.cc) with every retire record checked against "
           "the golden model.\n\n"
        << md.str()
        << "\nTargets (docs/../BRIEF): simulation >= 1 M cycles/s at SIMD16 on one core; "
           "lockstep co-simulation >= 300 k instructions/s.\n";
      sgu::tb::WriteDocSection(out, "# SGU performance", "sgu-bench", f.str());
      std::printf("wrote %s\n", out.c_str());
    }
  } catch (const std::exception& e) {
    std::cerr << "sgu-bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
