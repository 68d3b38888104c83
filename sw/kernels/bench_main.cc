// SPDX-License-Identifier: Apache-2.0
// sgu-bench-kernels (make bench): every example kernel of sw/kernels/ at every SIMD width it
// allows, with the inputs and host checks of sgu_kernels_test (examples.h). Per launch:
// instructions, cycles and IPC on the RTL (rtl backend, fixed AXI timing), and the wall time of
// the same launch on each backend (golden, rtl, cosim). Prints a table and, with --write FILE,
// writes it as Markdown into its own section of FILE, keeping the rest (docs/performance.md,
// whose other section sgu-bench writes). Every run is checked; a failed check writes nothing.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_doc.h"
#include "examples.h"
#include "sgu/compiler.h"
#include "sgu/driver.h"

namespace {

using namespace sgu;
using driver::Backend;

const char kUsage[] =
    "usage: sgu-bench-kernels [--write FILE.md] [--quick] [--min-time SECONDS]\n"
    "                         [--kernels DIR] [--no-schedule]\n\n"
    "  --write FILE.md    write the table into FILE.md between the sgu-bench-kernels markers\n"
    "                     (appended when FILE.md has none; the rest of the file is kept)\n"
    "  --quick            SIMD 16 (or the required width) only, one run per backend\n"
    "  --min-time S       per launch and backend, repeat runs until S seconds (default 0.3;\n"
    "                     at least 3 runs, at most 50) and report the median\n"
    "  --kernels DIR      the .cl files (default: sw/kernels of the source tree)\n"
    "  --no-schedule      compile without the instruction scheduler (sgu compile\n"
    "                     --no-schedule), to measure what it gains\n";

[[noreturn]] void Usage(const std::string& msg) {
  std::fprintf(stderr, "sgu-bench-kernels: %s\n%s", msg.c_str(), kUsage);
  std::exit(2);
}

std::string Sizes(const std::vector<uint32_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "x" : "") + std::to_string(v[i]);
  return s;
}

struct Timing {
  double median_s = 0;
  unsigned runs = 0;
};

struct Row {
  const kernels::Example* example;
  unsigned simd, part;
  driver::Result rtl;  // counts from the rtl backend
  Timing wall[3];      // golden, rtl, cosim
};

constexpr Backend kBackends[3] = {Backend::kGolden, Backend::kRtl, Backend::kCosim};

// Runs launch `part` of `e` on `backend` until `min_time` has passed (within [min_runs,
// max_runs] runs); throws std::runtime_error when a run fails its check.
Timing TimeLaunch(const kernels::Example& e, const Binary& bin, unsigned simd, unsigned part,
                  Backend backend, double min_time, unsigned min_runs, unsigned max_runs,
                  driver::Result* last) {
  driver::DeviceOptions o;
  o.backend = backend;
  o.simd = simd;
  o.seed = e.seed;
  o.watchdog_cycles = 2000000;
  driver::Device dev(o);
  std::vector<double> t;
  double total = 0;
  while (t.size() < max_runs && (t.size() < min_runs || total < min_time)) {
    const kernels::Outcome r = kernels::RunExample(dev, bin, e, e.seed, part);
    if (!r.error.empty()) {
      throw std::runtime_error(std::string(e.kernel) + " at SIMD" + std::to_string(simd) + " on " +
                               driver::BackendName(backend) + ": " + r.error);
    }
    t.push_back(r.seconds);
    total += r.seconds;
    *last = r.result;
  }
  std::sort(t.begin(), t.end());
  const size_t n = t.size();
  return {n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2, static_cast<unsigned>(n)};
}

std::string Ms(double s) {
  char b[32];
  const double ms = s * 1e3;
  std::snprintf(b, sizeof b, ms < 10 ? "%.2f" : ms < 100 ? "%.1f" : "%.0f", ms);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out, kernels_dir;
  bool quick = false, schedule = true;
  double min_time = 0.3;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--write") {
      out = value();
    } else if (a == "--quick") {
      quick = true;
    } else if (a == "--min-time") {
      const std::string v = value();
      char* end = nullptr;
      min_time = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(min_time >= 0)) Usage("bad --min-time '" + v + "'");
    } else if (a == "--kernels") {
      kernels_dir = value();
    } else if (a == "--no-schedule") {
      schedule = false;
    } else {
      Usage("unknown option '" + a + "'");
    }
  }
  if (kernels_dir.empty()) kernels_dir = kernels::KernelsDir();
  const unsigned min_runs = quick ? 1 : 3, max_runs = quick ? 1 : 50;

  try {
    std::map<std::string, Binary> binaries;
    compiler::Options copts;
    copts.schedule = schedule;
    for (const kernels::Example& e : kernels::Examples()) {
      if (!binaries.count(e.file)) {
        binaries[e.file] = compiler::CompileFile(kernels::ExamplePath(e, kernels_dir), copts);
      }
    }
    std::printf("%-13s %4s  %-12s %10s %12s %8s %5s %9s %10s %10s %10s\n", "kernel", "SIMD",
                "global/local", "sub-groups", "instructions", "cycles", "IPC", "I$ misses",
                "golden ms", "rtl ms", "cosim ms");
    std::vector<Row> rows;
    for (const kernels::Example& e : kernels::Examples()) {
      std::vector<unsigned> widths = e.widths;
      if (quick) widths = {kernels::Allows(e, 16) ? 16u : e.widths.front()};
      for (const unsigned simd : widths) {
        for (unsigned part = 0; part < e.launches; ++part) {
          Row row{&e, simd, part, {}, {}};
          uint64_t golden_instructions = 0;
          for (int b = 0; b < 3; ++b) {
            driver::Result r;
            row.wall[b] = TimeLaunch(e, binaries[e.file], simd, part, kBackends[b], min_time,
                                     min_runs, max_runs, &r);
            if (kBackends[b] == Backend::kGolden) golden_instructions = r.instructions;
            if (kBackends[b] == Backend::kRtl) row.rtl = r;
            if (r.instructions != golden_instructions) {
              throw std::runtime_error(std::string(e.kernel) + " at SIMD" + std::to_string(simd) +
                                       ": " + driver::BackendName(kBackends[b]) + " retired " +
                                       std::to_string(r.instructions) + " instructions, golden " +
                                       std::to_string(golden_instructions));
            }
          }
          const driver::Result& r = row.rtl;
          const std::string range = Sizes(r.global) + "/" + Sizes(r.local);
          std::printf("%-13s %4u  %-12s %10" PRIu64 " %12" PRIu64 " %8" PRIu64
                      " %5.2f %9" PRIu64 " %10s %10s %10s\n",
                      e.kernel, simd, range.c_str(), r.sub_groups, r.instructions, r.cycles,
                      r.cycles ? double(r.instructions) / double(r.cycles) : 0.0, r.icache_misses,
                      Ms(row.wall[0].median_s).c_str(), Ms(row.wall[1].median_s).c_str(),
                      Ms(row.wall[2].median_s).c_str());
          std::fflush(stdout);
          rows.push_back(row);
        }
      }
    }
    if (out.empty()) return 0;

    std::ostringstream md;
    unsigned fewest_runs = ~0u;
    for (const Row& row : rows) {
      for (const Timing& t : row.wall) fewest_runs = std::min(fewest_runs, t.runs);
    }
    md << "## Example kernels\n\n"
       << "Measured by `make bench` (`build/sw/sgu-bench-kernels --write docs/performance.md`"
       << (quick ? ", with --quick" : "") << (schedule ? "" : ", with --no-schedule")
       << ") on " << sgu::tb::CpuName() << ", "
       << std::thread::hardware_concurrency()
       << " hardware threads, one thread used.\n\n"
          "One row per launch of an example kernel of `sw/kernels/`, with the inputs, NDRange "
          "and host check of `sgu_kernels_test` (the table in `sw/kernels/examples.cc`; "
          "`Kernels/ReverseTile` is two launches, a full and a partial sub-group per "
          "work-group), compiled by clang-15, llvm-spirv-15 and the SGU compiler; every run on "
          "every backend passed its check. Instructions (sub-group instructions retired), "
          "cycles and IPC come from the `rtl` backend with fixed AXI timing (no added latency, "
          "no backpressure): the unit's `INSTRET` and `CYCLES` registers summed over the "
          "sub-group launches, so the cycles are the kernel's own, without the host's register "
          "writes between launches. I$ misses are the `ICACHE_MISSES` register summed the same "
          "way: line refills of the instruction cache (1 KiB, direct-mapped, 64-byte lines), "
          "which every launch starts empty. The wall times are the median of "
       << (fewest_runs == 1 ? std::string("one run or more")
                            : "at least " + std::to_string(fewest_runs) + " runs")
       << " of `Launch::Run` per backend, in milliseconds: building the unit (the "
          "Verilated model for `rtl` and `cosim`), loading memory, every sub-group launch and "
          "reading the buffers back. They vary with the machine and its load; the counts do "
          "not.\n\n"
       << "| kernel | SIMD | global / local | sub-groups | instructions | cycles | IPC | "
          "I$ misses | golden (ms) | rtl (ms) | cosim (ms) |\n"
       << "|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const Row& row : rows) {
      const driver::Result& r = row.rtl;
      char ipc[16];
      std::snprintf(ipc, sizeof ipc, "%.2f",
                    r.cycles ? double(r.instructions) / double(r.cycles) : 0.0);
      md << "| `" << row.example->kernel << "` | " << row.simd << " | " << Sizes(r.global) << " / "
         << Sizes(r.local) << " | " << r.sub_groups << " | " << r.instructions << " | " << r.cycles
         << " | " << ipc << " | " << r.icache_misses << " | " << Ms(row.wall[0].median_s) << " | " << Ms(row.wall[1].median_s)
         << " | " << Ms(row.wall[2].median_s) << " |\n";
    }
    sgu::tb::WriteDocSection(out, "# SGU performance", "sgu-bench-kernels", md.str());
    std::printf("wrote %s\n", out.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sgu-bench-kernels: %s\n", e.what());
    return 1;
  }
  return 0;
}
