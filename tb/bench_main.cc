// SPDX-License-Identifier: Apache-2.0
// sgu-bench: simulation speed of the Verilated SGU (cycles/s, no tracing, no checking) and
// lockstep co-simulation speed (instructions/s) at SIMD 8, 16 and 32. Prints a table and, with
// --write FILE, writes it as Markdown into its own section of FILE, keeping the rest of the file
// (make bench writes docs/performance.md; sgu-bench-kernels writes the section beside it).
#include <chrono>
#include <functional>
#include <utility>
#include <vector>
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
  uint64_t cosim_cycles;  // the RTL's cycles in the lockstep runs
  double cosim_seconds;
};

// One run of `image` on the SIMD`simd` model (every record checked against the golden model
// when `check`), timed from the launch to the halt: building the model is not counted. The
// launch's arguments are drawn from `rng` after the image's.
struct TimedRun {
  CosimResult r;
  double seconds;
};
TimedRun RunTimed(unsigned simd, const Memory& image, Rng& rng, bool check,
                  const std::string& what) {
  CosimOptions opts;
  opts.rtl.num_lanes = simd;
  opts.check = check;
  Cosim sim(opts, image);
  const LaunchParams launch = MakeLaunch(simd, false, rng);
  const auto t0 = Clock::now();
  CosimResult r = sim.Run(launch);
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (r.status != CosimStatus::kHalted) throw std::runtime_error(what + ": " + r.report);
  return {std::move(r), s};
}

Row Measure(unsigned simd, unsigned iterations, uint64_t cosim_insns) {
  Row row{simd, 0, 0, 0, 0, 0, 0};
  {
    Rng rng(1);
    const Memory image = MakeImage(SpeedProgram(iterations), rng);
    const TimedRun t = RunTimed(simd, image, rng, false, "speed program");
    row.cycles = t.r.cycles;
    row.cycles_per_s = double(t.r.cycles) / t.seconds;
  }
  double seconds = 0;
  for (uint64_t seed = 1; row.insns < cosim_insns; ++seed) {
    Rng rng(seed * 7919 + simd);
    RandomProgramConfig cfg;
    cfg.num_lanes = simd;
    cfg.items = 300;
    cfg.trap_percent = 0;
    const Memory image = MakeImage(GenerateRandomProgram(cfg, rng), rng);
    const TimedRun t = RunTimed(simd, image, rng, true, "cosim");
    seconds += t.seconds;
    row.insns += t.r.instructions;
    row.cosim_cycles += t.r.cycles;
  }
  row.insns_per_s = double(row.insns) / seconds;
  row.cosim_seconds = seconds;
  return row;
}

// ------------------------------------------------------------------------------ IPC
// Instructions per cycle of a loop body once it is in the instruction cache: the difference of
// two runs of 4 and 24 iterations, so the cold misses, the register-file clear and the pipeline
// fill cancel out. Bodies are built to isolate one property each.

std::string Repeat(unsigned n, const std::function<std::string(unsigned)>& line) {
  std::string s;
  for (unsigned i = 0; i < n; ++i) s += line(i);
  return s;
}

struct IpcCase {
  std::string name;
  std::string setup;  // before the loop
  std::string body;   // loop body (the loop adds `addi s1, s1, -1` before it and `bnz s1, loop`
                      // after it)
  std::string note;
};

std::vector<IpcCase> IpcCases() {
  std::vector<IpcCase> c;
  const std::string init = "  lane v1\n  li v2, 3\n  li s2, 5\n  cvt.f32.i32 v3, v1\n"
                           "  li.i64 v4, 0x7abcde\n";
  // 96 independent integer operations over 12 cache lines (v8..v27 as destinations).
  c.push_back({"straight-line integer, 96 per iteration", init,
               Repeat(96, [](unsigned i) {
                 static const char* const ops[] = {"add", "xor", "sub", "and", "or", "shl"};
                 return "  " + std::string(ops[i % 6]) + " v" + std::to_string(8 + i % 20) +
                        ", v1, v2\n";
               }),
               "1 per cycle"});
  c.push_back({"dependent integer chain", init,
               Repeat(32, [](unsigned) { return std::string("  add v2, v2, v1\n"); }),
               "1 per 2 cycles: nothing forwards out of X, so each add waits one cycle in R and takes its operand from L2 (docs/architecture.md \"Pipeline\")"});
  // 22 instructions starting 40 bytes into a line: the loop spans 4 lines.
  c.push_back({"dependent 64-bit integer chain", init,
               Repeat(32, [](unsigned) { return std::string("  add.i64 v4, v4, v4\n"); }),
               "K + 7 cycles each, like a dependent FMA: 64-bit adds run on the MFU (the lanes' ALU is 32 bits wide: docs/architecture.md \"64-bit adds, logic, compares, min and max\")"});
  c.push_back({"independent 64-bit adds", init,
               Repeat(32, [](unsigned i) {
                 return "  add.i64 v" + std::to_string(8 + 2 * (i % 8)) + ", v4, v4\n";
               }),
               "1 per K cycles, like independent FMAs (K = LanesPerMfu: 1, 4, 8 in the SIMD8/16/32 models)"});
  c.push_back({"loop crossing 4 cache lines", init + "  nop\n",
               Repeat(20, [](unsigned i) {
                 return "  add v" + std::to_string(8 + i % 10) + ", v1, v2\n";
               }),
               "1 per cycle: the backward branch is predicted taken"});
  c.push_back({"independent FP32 FMAs", init,
               Repeat(32, [](unsigned i) {
                 return "  ffma v" + std::to_string(8 + i % 8) + ", v3, v3, v3\n";
               }),
               "1 FMA per K cycles (K = LanesPerMfu: 1, 4, 8 in the SIMD8/16/32 models); with K = 1 the loop's addi, at its head behind the bnz, waits 4 cycles for the write port behind the last FMAs (a short result is written at the end of L2, a long one at the end of L7): 34 instructions in 38 cycles"});
  c.push_back({"dependent FP32 FMAs", init,
               Repeat(32, [](unsigned) { return std::string("  ffma v3, v3, v3, v3\n"); }),
               "K + 8 cycles each: K passes, the FMA's latency (written at the end of L7), then the reader loads it from the register file; its addend (rs3, which has no bypass) one edge after the write, so one cycle more than through a and b alone (next row)"});
  c.push_back({"dependent FP32 FMAs through a and b", init,
               Repeat(32, [](unsigned) { return std::string("  ffma v3, v3, v3, v4\n"); }),
               "K + 7 cycles each: the result is read through rs1 and rs2, whose ports have the bypass"});
  c.push_back({"independent 64-bit multiplies", init,
               Repeat(16, [](unsigned i) {
                 return "  mul.i64 v" + std::to_string(8 + 2 * (i % 8)) + ", v4, v4\n";
               }),
               "3K cycles each (three steps through the MFU's 32x32 multiplier per pass), plus the loop's addi, which waits for the write port behind the last: at K = 1, 18 instructions in 51 cycles"});
  c.push_back({"dependent 64-bit multiplies", init,
               Repeat(16, [](unsigned) { return std::string("  mul.i64 v4, v4, v4\n"); }),
               "3K + 7 cycles each: 3K steps, 6 more until the result is written, then the reader loads it"});
  c.push_back({"independent 64-bit shifts", init,
               Repeat(16, [](unsigned i) {
                 return "  shli.i64 v" + std::to_string(8 + 2 * (i % 8)) + ", v4, " +
                        std::to_string(1 + i % 13) + "\n";
               }),
               "3K cycles each, like a 64-bit multiply: the lanes shift 8- to 32-bit types, 64-bit shifts run on the MFU as a multiply by 2^n"});
  c.push_back({"dependent min chain", init,
               Repeat(32, [](unsigned) { return std::string("  min v2, v2, v1\n"); }),
               "1 per 2 cycles, like every dependent chain of short operations: the next one waits one cycle in R and takes the result from L2"});
  c.push_back({"dependent shift chain", init,
               Repeat(32, [](unsigned) { return std::string("  shli v2, v2, 1\n"); }),
               "1 per 3 cycles: a short shift ends in L2 (the second half of the lane's shifter) and is not forwarded, so the next one waits in R until the register file's bypass gives it"});
  c.push_back({"sel right behind the add that writes its condition", init,
               Repeat(16, [](unsigned) {
                 return std::string("  add v5, v1, v2\n  sel v6, v5, v1, v2\n");
               }),
               "2 instructions per 3 cycles: sel waits one cycle in R behind the short writer of its rs1, as every reader does; its condition (rs1 != 0) is a flag the register file registers from the row or the distance-2 forward (docs/architecture.md \"Pipeline\")"});
  c.push_back({"dependent shuffle chain", init,
               Repeat(32, [](unsigned) { return std::string("  shfl.rotdn v1, v1, s2\n"); }),
               "1 per 3 cycles: the crossbar picks its values in L2 and a shuffle's result is not forwarded (it comes from outside the lane), so the next shuffle waits in R until the register file's bypass gives it"});
  static const char* const modes[] = {"idx", "xor", "up", "down", "rotup", "rotdn"};
  for (const char* m : modes) {
    const std::string mode = m;
    c.push_back({"shfl." + mode + " back to back", init,
                 Repeat(32, [mode](unsigned i) {
                   return "  shfl." + mode + " v" + std::to_string(8 + i % 16) + ", v1, s2\n";
                 }),
                 "1 per cycle"});
  }
  for (const char* m : {"down2", "up2"}) {
    const std::string mode = m;
    c.push_back({"shfl." + mode + " back to back", init,
                 Repeat(32, [mode](unsigned i) {
                   return "  shfl." + mode + " v" + std::to_string(8 + i % 16) + ", v1, s2, v2\n";
                 }),
                 "1 per cycle (a scalar delta: one pass)"});
  }
  for (const char* m : {"down2", "up2"}) {
    const std::string mode = m;
    c.push_back({"shfl." + mode + ", vector delta, back to back", init,
                 Repeat(32, [mode](unsigned i) {
                   return "  shfl." + mode + " v" + std::to_string(8 + i % 16) + ", v1, v2, v5\n";
                 }),
                 "1 per 2 cycles: a delta that may differ between lanes takes two passes of the crossbar (docs/architecture.md \"Crossbar\")"});
  }
  return c;
}

// The counter's decrement heads the loop, as the compiler's scheduler places it (docs/
// compiler.md): nothing forwards out of X, so a bnz right behind it would wait a cycle.
std::string IpcProgram(const IpcCase& k, unsigned iterations) {
  return k.setup + "  li s1, " + std::to_string(iterations) + "\nloop:\n  addi s1, s1, -1\n" +
         k.body + "  bnz s1, loop\n  halt\n";
}

// Cycles and instructions of one run of the case with `iterations` iterations.
std::pair<uint64_t, uint64_t> RunIpc(unsigned simd, const IpcCase& k, unsigned iterations) {
  const std::string program = IpcProgram(k, iterations);
  Rng rng(1);
  Memory image = MakeImage(program, rng);
  CosimOptions opts;
  opts.rtl.num_lanes = simd;
  Cosim sim(opts, image);  // in lockstep: the benchmark programs are checked too
  const CosimResult r = sim.Run(MakeLaunch(simd, false, rng));
  if (r.status != CosimStatus::kHalted) {
    throw std::runtime_error("IPC case '" + k.name + "': " + r.report);
  }
  return {r.cycles, r.instructions};
}

// Lockstep speed on code that issues one instruction per cycle: the first IPC case (96
// independent integer instructions per iteration) run long, every record checked, timed.
struct StraightRate {
  double insns_per_s;
  uint64_t insns;
  double ipc;
};
StraightRate MeasureStraight(unsigned simd, unsigned iterations) {
  Rng rng(1);
  const Memory image = MakeImage(IpcProgram(IpcCases().front(), iterations), rng);
  const TimedRun t = RunTimed(simd, image, rng, true, "straight-line");
  return {double(t.r.instructions) / t.seconds, t.r.instructions,
          double(t.r.instructions) / double(t.r.cycles)};
}

double LoopIpc(unsigned simd, const IpcCase& k) {
  const auto [c0, i0] = RunIpc(simd, k, 4);
  const auto [c1, i1] = RunIpc(simd, k, 24);
  return double(i1 - i0) / double(c1 - c0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string out;
  unsigned iterations = 100000;
  uint64_t cosim_insns = 200000;
  unsigned straight_iterations = 2000;  // 98 instructions each
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--write" && i + 1 < argc) {
      out = argv[++i];
    } else if (a == "--quick") {
      iterations = 5000;
      cosim_insns = 10000;
      straight_iterations = 100;
    } else {
      std::cerr << "usage: sgu-bench [--quick] [--write FILE.md]\n";
      return 2;
    }
  }
  try {
    std::ostringstream md;
    md << "| SIMD | AXI data width | RTL simulation, no tracing (cycles/s) | cycles simulated | "
          "lockstep co-simulation (instructions/s) | instructions checked | "
          "lockstep cycles/s | IPC of the lockstep programs | lockstep on straight-line code "
          "(instructions/s) | its IPC |\n"
          "|---|---|---|---|---|---|---|---|---|---|\n";
    for (unsigned simd : {8u, 16u, 32u}) {
      const Row r = Measure(simd, iterations, cosim_insns);
      const unsigned dw = simd == 8 ? 64 : simd == 16 ? 256 : 512;
      const double cosim_cps = double(r.cosim_cycles) / r.cosim_seconds;
      const double cosim_ipc = double(r.insns) / double(r.cosim_cycles);
      const StraightRate st = MeasureStraight(simd, straight_iterations);
      std::printf("SIMD%-2u  sim %10.0f cycles/s (%" PRIu64
                  " cycles)   cosim %9.0f insn/s (%" PRIu64
                  " insns, %.0f cycles/s, IPC %.3f)   straight-line cosim %9.0f insn/s (%" PRIu64
                  " insns, IPC %.3f)\n",
                  simd, r.cycles_per_s, r.cycles, r.insns_per_s, r.insns, cosim_cps, cosim_ipc,
                  st.insns_per_s, st.insns, st.ipc);
      std::fflush(stdout);
      char line[320];
      snprintf(line, sizeof line,
               "| %u | %u | %.0f | %" PRIu64 " | %.0f | %" PRIu64 " | %.0f | %.3f | %.0f | %.3f |\n",
               simd, dw, r.cycles_per_s, r.cycles, r.insns_per_s, r.insns, cosim_cps, cosim_ipc,
               st.insns_per_s, st.ipc);
      md << line;
    }
    std::ostringstream ipc;
    ipc << "| loop body | SIMD8 | SIMD16 | SIMD32 | expected |\n|---|---|---|---|---|\n";
    for (const IpcCase& k : IpcCases()) {
      ipc << "| " << k.name;
      std::printf("IPC %-42s", k.name.c_str());
      for (unsigned simd : {8u, 16u, 32u}) {
        const double v = LoopIpc(simd, k);
        char cell[32];
        snprintf(cell, sizeof cell, "%.3f", v);
        ipc << " | " << cell;
        std::printf("  %s", cell);
      }
      ipc << " | " << k.note << " |\n";
      std::printf("   (%s)\n", k.note.c_str());
      std::fflush(stdout);
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
           "the golden model; its last two columns are the RTL's cycles per second in those "
           "runs and the programs' instructions per cycle (each program is short, about 300 "
           "items from a cold instruction cache and a 32-cycle register-file clear, and its "
           "memory instructions gather and scatter lane by lane), so lockstep instructions/s "
           "= lockstep cycles/s x IPC. The last two columns run the first loop of the IPC "
           "table below (96 independent integer instructions per iteration, 2,000 iterations) "
           "in lockstep: the checker's rate when the unit issues one instruction per cycle, "
           "the golden model stepping and every record compared at each cycle.\n\n"
        << md.str()
        << "\nTargets (docs/../BRIEF): simulation >= 1 M cycles/s at SIMD16 on one core; "
           "lockstep co-simulation >= 300 k instructions/s.\n\n"
        << "### Instructions per cycle of the pipeline\n\n"
        << "Each loop body runs 4 and 24 times in lockstep (zero-latency memory); the table is "
           "(instructions difference) / (cycles difference), so cold cache misses, the "
           "register-file clear and the pipeline fill cancel out and the loop's own "
           "`addi`/`bnz` are included (the counter's decrement heads the loop, as the "
           "compiler's scheduler places it: docs/compiler.md). docs/architecture.md \"Pipeline\" explains each "
           "number.\n\n"
        << ipc.str();
      sgu::tb::WriteDocSection(out, "# SGU performance", "sgu-bench", f.str());
      std::printf("wrote %s\n", out.c_str());
    }
  } catch (const std::exception& e) {
    std::cerr << "sgu-bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
