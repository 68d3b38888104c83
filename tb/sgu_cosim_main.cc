// SPDX-License-Identifier: Apache-2.0
// sgu-cosim: run an assembly program on the Verilated RTL in lockstep with the golden model.
//
//   sgu-cosim PROGRAM.s [--simd 8|16|32] [--lanes K] [--arg I=VALUE]... [--seed S] [--random-axi]
//             [--watchdog CYCLES] [--trace OUT.fst] [--dump ADDR:WORDS]... [--json]
//
// Memory layout (as in the tests): program at 0x1000, data region 0x8000..0xf000 filled with
// seeded random words, window [0, 0x10000). The waveform is written with a GTKWave save file
// next to it (OUT.gtkw): control, retire port with the disassembled instruction, AXI4 master,
// AXI4-Lite slave and one group per lane, the whole run in view (docs/waveforms.md).
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cosim.h"
#include "gtkw.h"
#include "random_program.h"
#include "sgu/asm.h"
#include "tb_test_util.h"

namespace {

using namespace sgu;
using namespace sgu::tb;

constexpr const char* kUsage =
    "usage: sgu-cosim PROGRAM.s [options]\n"
    "Runs PROGRAM.s on the Verilated SGU in lockstep with the golden model.\n"
    "  --simd N          SIMD width 8, 16 or 32 (default 16)\n"
    "  --lanes K         active lanes at start, 1..N (default N)\n"
    "  --arg I=VALUE     kernel argument I (0..7) -> s(I+1)\n"
    "  --seed S          seed of the data region and the AXI randomness (default 1)\n"
    "  --random-axi      random AXI latency and backpressure, random AXI4-Lite master timing\n"
    "  --watchdog C      stop the kernel after C cycles (default 10000000)\n"
    "  --trace OUT.fst   write an FST waveform and OUT.gtkw beside it\n"
    "  --dump ADDR:N     print N 32-bit words of memory at ADDR after the run (repeatable)\n"
    "  --json            print the summary as JSON\n"
    "  --replay SEED     rerun a failed lockstep test exactly (data, launch and AXI timing from\n"
    "                    SEED, as the test derived them); with --partial and --random-axi as the\n"
    "                    test printed\n";

[[noreturn]] void Usage(const std::string& msg) {
  std::cerr << "sgu-cosim: " << msg << "\n" << kUsage;
  std::exit(2);
}

uint64_t Number(const std::string& s, const char* what) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 0);
  if (s.empty() || *end != '\0' || errno) Usage(std::string("bad ") + what + ": '" + s + "'");
  return v;
}

std::string ReadFile(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

int main(int argc, char** argv) {
  std::string program_path, trace;
  unsigned simd = 16, lanes = 0;
  uint64_t seed = 1;
  bool random_axi = false, json = false, partial = false;
  std::optional<uint64_t> replay;
  uint32_t watchdog = 10000000;
  std::vector<std::pair<uint32_t, uint32_t>> dumps;
  LaunchParams launch;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage("option " + a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--simd") {
      simd = static_cast<unsigned>(Number(value(), "SIMD width"));
      if (simd != 8 && simd != 16 && simd != 32) Usage("--simd must be 8, 16 or 32");
    } else if (a == "--lanes") {
      lanes = static_cast<unsigned>(Number(value(), "lane count"));
    } else if (a == "--arg") {
      const std::string v = value();
      const size_t eq = v.find('=');
      if (eq == std::string::npos) Usage("--arg needs I=VALUE");
      const uint64_t idx = Number(v.substr(0, eq), "argument index");
      if (idx > 7) Usage("argument index must be 0..7");
      launch.args[idx] = static_cast<uint32_t>(Number(v.substr(eq + 1), "argument value"));
    } else if (a == "--seed") {
      seed = Number(value(), "seed");
    } else if (a == "--random-axi") {
      random_axi = true;
    } else if (a == "--watchdog") {
      watchdog = static_cast<uint32_t>(Number(value(), "watchdog cycles"));
    } else if (a == "--trace") {
      trace = value();
    } else if (a == "--dump") {
      const std::string v = value();
      const size_t c = v.find(':');
      if (c == std::string::npos) Usage("--dump needs ADDR:WORDS");
      dumps.emplace_back(static_cast<uint32_t>(Number(v.substr(0, c), "dump address")),
                         static_cast<uint32_t>(Number(v.substr(c + 1), "dump length")));
    } else if (a == "--replay") {
      replay = Number(value(), "replay seed");
    } else if (a == "--partial") {
      partial = true;
    } else if (a == "--json") {
      json = true;
    } else if (!a.empty() && a[0] == '-') {
      Usage("unknown option " + a);
    } else if (program_path.empty()) {
      program_path = a;
    } else {
      Usage("more than one program given");
    }
  }
  if (program_path.empty()) Usage("no program given");
  if (lanes > simd) Usage("--lanes must not exceed --simd");
  for (const auto& [addr, n] : dumps) {
    if (static_cast<uint64_t>(addr) + 4ull * n > kMemSize) Usage("--dump range outside memory");
  }

  try {
    if (replay) {
      const LockstepRun run =
          RunLockstep(ReadFile(program_path), simd, *replay, partial, random_axi, 0, trace);
      if (!trace.empty()) {
        const std::string g = std::filesystem::path(trace).replace_extension(".gtkw").string();
        WriteGtkw(g, trace, simd);
        std::printf("waveform: %s\nGTKWave save file: %s\n", trace.c_str(), g.c_str());
      }
      std::printf("%s\n", Describe(run, simd, *replay).c_str());
      return run.result.status == CosimStatus::kHalted || run.result.status == CosimStatus::kTrapped
                 ? 0
                 : 1;
    }
    Rng rng(seed);
    Memory image = MakeImage(ReadFile(program_path), rng, program_path);
    launch.pc_start = kCodeBase;
    launch.lanes = lanes;
    launch.mem_base = 0;
    launch.mem_limit = kWindowLimit;
    CosimOptions opts;
    opts.rtl.num_lanes = simd;
    opts.rtl.seed = seed;
    opts.rtl.max_latency = random_axi ? 4 : 0;
    opts.rtl.ready_percent = random_axi ? 60 : 100;
    opts.rtl.lite_max_delay = random_axi ? 3 : 0;
    opts.rtl.trace_path = trace;
    opts.watchdog_cycles = watchdog;
    CosimResult r;
    uint32_t axi_bits = 0;
    uint64_t traced_cycles = 0;
    std::vector<uint32_t> dumped;
    {
      Cosim cosim(opts, image);
      axi_bits = cosim.rtl().axi_data_bits();
      r = cosim.Run(launch);
      cosim.rtl().Finish();
      traced_cycles = cosim.rtl().cycle();
      for (const auto& [addr, n] : dumps) {
        for (uint32_t k = 0; k < n; ++k) {
          dumped.push_back(static_cast<uint32_t>(cosim.rtl_memory().Load(addr + 4 * k, 4)));
        }
      }
    }
    std::string gtkw_path;
    if (!trace.empty()) {
      gtkw_path = std::filesystem::path(trace).replace_extension(".gtkw").string();
      GtkwOptions g;
      g.num_lanes = simd;
      g.cycles = traced_cycles;
      WriteGtkw(gtkw_path, trace, g);
    }
    const bool ok = r.status == CosimStatus::kHalted;
    if (json) {
      std::printf(
          "{\"status\": \"%s\", \"backend\": \"cosim\", \"simd\": %u, \"cycles\": %" PRIu64
          ", \"instructions\": %" PRIu64 ", \"cause\": \"%s\", \"pc\": %u, \"tval\": %u, "
          "\"diagnostics\": %zu}\n",
          CosimStatusName(r.status), simd, r.cycles, r.instructions,
          r.last.trap ? isa::CauseName(r.last.cause) : "None", r.last.pc, r.last.tval,
          r.diagnostics.size());
    } else {
      std::printf("sgu-cosim: %s at SIMD%u (AXI %u-bit), RTL in lockstep with the golden model\n",
                  program_path.c_str(), simd, axi_bits);
      std::printf("status: %s", CosimStatusName(r.status));
      if (r.last.trap) {
        std::printf(" (%s at pc 0x%08x, tval 0x%08x)", isa::CauseName(r.last.cause), r.last.pc,
                    r.last.tval);
      }
      std::printf("\ncycles: %" PRIu64 "  instructions: %" PRIu64 "  IPC: %.2f\n", r.cycles,
                  r.instructions, r.cycles ? double(r.instructions) / double(r.cycles) : 0.0);
      if (!r.report.empty()) std::printf("%s\n", r.report.c_str());
      for (const Diagnostic& d : r.diagnostics) {
        std::printf("diagnostic: instruction #%" PRIu64 " pc 0x%08x lane %u: %s\n", d.order, d.pc,
                    d.lane, d.what.c_str());
      }
      size_t k = 0;
      for (const auto& [addr, n] : dumps) {
        std::printf("memory 0x%05x:", addr);
        for (uint32_t j = 0; j < n; ++j, ++k) {
          if (j && j % 8 == 0) std::printf("\n              ");
          std::printf(" %08x", dumped[k]);
        }
        std::printf("\n");
      }
      if (!trace.empty()) {
        std::printf("waveform: %s\nGTKWave save file: %s\nopen it with: gtkwave %s\n", trace.c_str(),
                    gtkw_path.c_str(), gtkw_path.c_str());
      }
    }
    return ok ? 0 : 1;
  } catch (const AsmError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "sgu-cosim: " << e.what() << "\n";
    return 1;
  }
}
