// SPDX-License-Identifier: Apache-2.0
// sgu-demo (make demo): every example kernel of sw/kernels/ compiled from OpenCL C with the real
// front end (clang-15, llvm-spirv-15, the SGU compiler), run on the RTL in lockstep with the
// golden model (the cosim backend, fixed AXI timing) and checked against its host reference
// (examples.h). Prints one table row per launch (kernel, SIMD width, NDRange, sub-groups,
// cycles, instructions, IPC, check) and writes the waveform of one kernel with its GTKWave save
// file. Exit status 0 when every check passes, 1 otherwise, 2 for a usage error.
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "examples.h"
#include "gtkw.h"
#include "sgu/compiler.h"
#include "sgu/driver.h"

namespace {

using namespace sgu;
using driver::Backend;

const char kUsage[] =
    "usage: sgu-demo [--simd 8|16|32] [--out DIR] [--trace KERNEL|none] [--only K1,K2,...]\n"
    "                [--kernels DIR]\n\n"
    "Compiles every example kernel of sw/kernels/ (clang-15, llvm-spirv-15, the SGU compiler),\n"
    "runs it on the RTL in lockstep with the golden model and checks its results against a\n"
    "reference computed on the host.\n\n"
    "  --simd N         SIMD width (default 16); a kernel with a required sub-group size runs\n"
    "                   at that size\n"
    "  --out DIR        where the waveform goes (default out/demo)\n"
    "  --trace KERNEL   the kernel whose waveform is written to DIR/KERNEL.fst with\n"
    "                   DIR/KERNEL.gtkw beside it (default reduce_qcom); none: no waveform\n"
    "  --only K1,K2     run only these kernels (kernel names, e.g. transpose,compact)\n"
    "  --kernels DIR    the .cl files (default: sw/kernels of the source tree)\n\n"
    "Exit status: 0 every check passed, 1 a check failed, 2 usage error.\n";

[[noreturn]] void Usage(const std::string& msg) {
  std::fprintf(stderr, "sgu-demo: %s\n%s", msg.c_str(), kUsage);
  std::exit(2);
}

std::string Sizes(const std::vector<uint32_t>& v) {
  if (v.empty()) return "auto";
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "x" : "") + std::to_string(v[i]);
  return s;
}

std::string FirstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

struct Compiled {
  Binary bin;
  std::string error;  // the compiler's whole message when it failed
};

}  // namespace

int main(int argc, char** argv) {
  unsigned simd = 16;
  std::string out_dir = "out/demo", trace_kernel = "reduce_qcom", kernels_dir;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--simd") {
      const std::string v = value();
      if (v != "8" && v != "16" && v != "32") Usage("--simd must be 8, 16 or 32, got '" + v + "'");
      simd = static_cast<unsigned>(std::stoul(v));
    } else if (a == "--out") {
      out_dir = value();
      if (out_dir.empty()) Usage("--out needs a directory");
    } else if (a == "--trace") {
      trace_kernel = value();
    } else if (a == "--only") {
      const std::string v = value();
      for (size_t p = 0; p <= v.size();) {
        const size_t c = std::min(v.find(',', p), v.size());
        if (c > p) only.push_back(v.substr(p, c - p));
        p = c + 1;
      }
    } else if (a == "--kernels") {
      kernels_dir = value();
    } else {
      Usage("unknown option '" + a + "'");
    }
  }
  if (kernels_dir.empty()) kernels_dir = kernels::KernelsDir();

  // ---- which examples ----------------------------------------------------------------------
  std::vector<const kernels::Example*> examples;
  for (const std::string& name : only) {
    const kernels::Example* e = kernels::FindExample(name);
    if (e == nullptr) {
      std::string names;
      for (const kernels::Example& x : kernels::Examples()) {
        names += (names.empty() ? "" : ", ") + std::string(x.kernel);
      }
      Usage("--only: no example kernel '" + name + "' (kernels: " + names + ")");
    }
    examples.push_back(e);
  }
  if (only.empty()) {
    for (const kernels::Example& e : kernels::Examples()) examples.push_back(&e);
  }
  const bool tracing = trace_kernel != "none";
  if (tracing && kernels::FindExample(trace_kernel) == nullptr) {
    Usage("--trace: no example kernel '" + trace_kernel + "' (or none)");
  }

  const auto t0 = std::chrono::steady_clock::now();
  std::printf(
      "SGU demo: the example kernels of sw/kernels/, compiled from OpenCL C by clang-15,\n"
      "llvm-spirv-15 and the SGU compiler, run on the RTL in lockstep with the golden\n"
      "model (cosim backend, fixed AXI timing) and checked against host references.\n\n");
  for (const kernels::Example* e : examples) {
    std::printf("  %-13s %-15s %s\n", e->kernel, e->file, e->summary);
  }
  std::printf("\n");
  std::fflush(stdout);

  // ---- compile each file once --------------------------------------------------------------
  std::map<std::string, Compiled> binaries;
  for (const kernels::Example* e : examples) {
    Compiled& c = binaries[e->file];
    if (!c.bin.kernels.empty() || !c.error.empty()) continue;
    try {
      c.bin = compiler::CompileFile(kernels::ExamplePath(*e, kernels_dir), compiler::Options{});
    } catch (const std::exception& ex) {  // CompileError, or a file that cannot be read
      c.error = ex.what();
      if (c.error.empty()) c.error = "compile error";
    }
  }

  // ---- run ---------------------------------------------------------------------------------
  std::printf("%-13s %4s  %-14s %10s %8s %12s %5s  %s\n", "kernel", "SIMD", "global/local",
              "sub-groups", "cycles", "instructions", "IPC", "check");
  std::vector<std::string> failures;
  std::string trace_fst, trace_gtkw, trace_note;
  unsigned launches = 0, passed = 0;
  for (const kernels::Example* e : examples) {
    const unsigned width = kernels::Allows(*e, simd) ? simd : e->widths.front();
    const Compiled& c = binaries[e->file];
    for (unsigned part = 0; part < e->launches; ++part) {
      ++launches;
      driver::DeviceOptions o;
      o.backend = Backend::kCosim;
      o.simd = width;
      o.seed = e->seed;
      o.watchdog_cycles = 2000000;  // far above any of these kernels; a hang fails fast
      const bool traced = tracing && part == 0 && kernels::FindExample(trace_kernel) == e;
      if (traced) {
        std::error_code ec;
        std::filesystem::create_directories(out_dir, ec);
        trace_fst = out_dir + "/" + e->kernel + ".fst";
        trace_gtkw = out_dir + "/" + e->kernel + ".gtkw";
        o.trace_path = trace_fst;
      }
      kernels::Outcome r;
      if (!c.error.empty()) {
        r.error = "does not compile: " + c.error;
      } else {
        try {
          driver::Device dev(o);
          r = kernels::RunExample(dev, c.bin, *e, e->seed, part);
          if (traced) {
            tb::GtkwOptions g;
            g.num_lanes = width;
            const Kernel& k = *c.bin.Find(e->kernel);
            g.code.push_back({r.result.code_address, static_cast<uint32_t>(k.code.size() * 8),
                              k.lines, c.bin.files});
            tb::WriteGtkw(trace_gtkw, trace_fst, g);
            trace_note = std::string(e->kernel) + " at SIMD" + std::to_string(width) + ", " +
                         std::to_string(r.result.sub_groups) + " sub-groups";
          }
        } catch (const std::exception& ex) {  // DriverError, or the waveform files
          r.error = std::string("error: ") + ex.what();
        }
      }
      const driver::Result& res = r.result;
      const bool ok = r.error.empty();
      passed += ok;
      const std::string range =
          r.range.global.empty() ? "-"
                                 : Sizes(res.global.empty() ? r.range.global : res.global) + "/" +
                                       Sizes(res.local.empty() ? r.range.local : res.local);
      const std::string check = ok ? "PASS" : "FAIL: " + FirstLine(r.error);
      if (res.sub_groups_total == 0) {  // never ran: no counts
        std::printf("%-13s %4u  %-14s %10s %8s %12s %5s  %s\n", e->kernel, width, range.c_str(),
                    "-", "-", "-", "-", check.c_str());
      } else {
        std::printf("%-13s %4u  %-14s %10" PRIu64 " %8" PRIu64 " %12" PRIu64 " %5.2f  %s\n",
                    e->kernel, width, range.c_str(), res.sub_groups, res.cycles, res.instructions,
                    res.cycles ? double(res.instructions) / double(res.cycles) : 0.0,
                    check.c_str());
      }
      std::fflush(stdout);
      if (!ok && r.error.find('\n') != std::string::npos) {
        failures.push_back(std::string(e->kernel) + " at SIMD" + std::to_string(width) + ":\n" +
                           r.error);
      }
    }
  }

  // ---- summary -----------------------------------------------------------------------------
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "\n%u of %u launches passed their host check (%.1f s). IPC: sub-group instructions\n"
      "per cycle; cycles: the unit's CYCLES register summed over the sub-groups.\n",
      passed, launches, seconds);
  for (const std::string& f : failures) std::printf("\n%s\n", f.c_str());
  if (!trace_note.empty()) {
    std::printf(
        "\nWaveform of %s: %s\nOpen it with:  gtkwave %s\n"
        "(signals grouped; the retire port's 'instruction' row shows each instruction\n"
        "with its OpenCL C source line; docs/waveforms.md explains the view)\n",
        trace_note.c_str(), trace_fst.c_str(), trace_gtkw.c_str());
  }
  return passed == launches ? 0 : 1;
}
