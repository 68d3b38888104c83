// SPDX-License-Identifier: Apache-2.0
// The example kernels of sw/kernels/ (OpenCL C as written for Intel and Qualcomm GPUs),
// compiled with the real front end (clang-15, llvm-spirv-15, the SGU compiler) and run through
// the driver on the golden model, the RTL and both in lockstep at every SIMD width the kernel
// allows. The kernels, their inputs and their host references (plain C++, from the inputs
// alone) are the table of sw/kernels/examples.h, which make demo and make bench run too.
//
// Tests are named Kernels/<Kernel>.<Backend>Simd<N>, e.g. Kernels/Transpose.CosimSimd16; a
// kernel with intel_reqd_sub_group_size(N) is registered at N only. Inputs come from one 64-bit
// seed per test (printed on failure). Compiled kernels are cached in the build tree across test
// processes (see Compiled).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "examples.h"
#include "sgu/binary.h"
#include "sgu/compiler.h"
#include "sgu/driver.h"

#ifndef SGU_KERNELS_CACHE
#error "SGU_KERNELS_CACHE must name a directory for compiled kernels"
#endif

namespace sgu::driver {
namespace {

// ---- helpers --------------------------------------------------------------------------------

struct Config {
  Backend backend;
  unsigned simd;
  uint64_t seed = 1;  // the test's seed: inputs, and AXI timing of cosim runs
};

std::string ConfigName(const Config& c) {
  std::string b = BackendName(c.backend);
  b[0] = static_cast<char>(b[0] - 'a' + 'A');
  return b + "Simd" + std::to_string(c.simd);
}

std::string ReadFileBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// What decides a compilation's result: the kernel's text, the build options, the compiler
// (linked into this executable, so its size and modification time stand for it) and the tools
// the front end runs.
std::string CompileKey(const std::string& path, const std::vector<std::string>& options) {
  std::string key = path + "\n" + ReadFileBytes(path) + "\n";
  for (const std::string& o : options) key += o + "\n";
  struct stat st {};
  if (stat("/proc/self/exe", &st) == 0) {
    key += std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec) + "\n";
  }
  for (const char* env : {"SGU_CLANG", "SGU_LLVM_SPIRV", "PATH"}) {
    const char* v = std::getenv(env);
    key += std::string(env) + "=" + (v ? v : "") + "\n";
  }
  return key;
}

// sw/kernels/<file> compiled with `options`. ctest runs every test in its own process and the
// front end (three runs of clang-15 and llvm-spirv-15) costs more than most runs, so compiled
// kernels are kept in SGU_KERNELS_CACHE (in the build tree) under a hash of CompileKey, the
// key itself stored in front of the binary; a compile error is never cached.
const Binary& Compiled(const std::string& file, const std::vector<std::string>& options = {}) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Binary>> cache;
  const std::string path = kernels::KernelsDir() + "/" + file;
  const std::string key = CompileKey(path, options);
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[key];
  if (slot) return *slot;

  char hash[32];
  std::snprintf(hash, sizeof hash, "%016zx", std::hash<std::string>()(key));
  const std::string cached = std::string(SGU_KERNELS_CACHE) + "/" + file + "." + hash + ".sgubin";
  const std::string bytes = ReadFileBytes(cached);
  if (bytes.size() > key.size() && bytes.compare(0, key.size(), key) == 0) {
    try {
      slot = std::make_unique<Binary>(ReadBinary(bytes.substr(key.size())));
      return *slot;
    } catch (const BinaryError&) {
      // Unreadable: compile again and replace it.
    }
  }
  compiler::Options opts;
  opts.build_options = options;
  slot = std::make_unique<Binary>(compiler::CompileFile(path, opts));
  // Written under a unique name and renamed, so that parallel tests never read half a file.
  std::error_code ec;
  std::filesystem::create_directories(SGU_KERNELS_CACHE, ec);
  const std::string tmp = cached + "." + std::to_string(getpid()) + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f << key << WriteBinary(*slot);
  }
  std::filesystem::rename(tmp, cached, ec);
  if (ec) std::filesystem::remove(tmp, ec);
  // Entries older than this executable came from an earlier build and can never match again.
  const auto exe_time = std::filesystem::last_write_time("/proc/self/exe", ec);
  if (!ec) {
    for (const auto& e : std::filesystem::directory_iterator(SGU_KERNELS_CACHE, ec)) {
      std::error_code ignored;
      if (e.path().extension() == ".sgubin" && e.last_write_time(ignored) < exe_time) {
        std::filesystem::remove(e.path(), ignored);
      }
    }
  }
  return *slot;
}

DeviceOptions DeviceFor(const Config& c) {
  DeviceOptions o;
  o.backend = c.backend;
  o.simd = c.simd;
  o.watchdog_cycles = 2000000;  // far above any of these kernels; a hang fails fast
  // In lockstep, random AXI latency and backpressure cost nothing in certainty (the model
  // checks every retired instruction) and exercise the RTL's stalls; rtl keeps fixed timing.
  o.random_axi = c.backend == Backend::kCosim;
  o.seed = c.seed;
  return o;
}

// ---- registration ---------------------------------------------------------------------------

// Runs every launch of the example on a fresh device of `c` and checks the results; prints the
// counts for the record.
void RunAndCheck(const kernels::Example& e, const Config& c) {
  const Binary& bin = Compiled(e.file);
  for (unsigned part = 0; part < e.launches; ++part) {
    Device dev(DeviceFor(c));
    const kernels::Outcome o = kernels::RunExample(dev, bin, e, c.seed, part);
    const Result& r = o.result;
    std::cout << "  " << e.kernel << " " << BackendName(c.backend) << " simd" << c.simd << ": "
              << r.sub_groups << " sub-groups, " << r.instructions << " instructions";
    if (c.backend != Backend::kGolden) std::cout << ", " << r.cycles << " cycles";
    std::cout << "\n";
    ::testing::Test::RecordProperty("instructions", std::to_string(r.instructions));
    ::testing::Test::RecordProperty("cycles", std::to_string(r.cycles));
    if (!o.error.empty()) {
      ADD_FAILURE() << e.kernel << ", launch " << part + 1 << " of " << e.launches << ": "
                    << o.error;
      return;
    }
  }
}

class KernelRun : public ::testing::Test {
 public:
  KernelRun(const kernels::Example& e, const Config& c) : example_(e), config_(c) {}
  void TestBody() override {
    char seed[32];
    std::snprintf(seed, sizeof seed, "seed 0x%016llx",
                  static_cast<unsigned long long>(config_.seed));
    SCOPED_TRACE(seed);
    try {
      RunAndCheck(example_, config_);
    } catch (const compiler::CompileError& e) {
      FAIL() << "compile error:\n" << e.what();
    } catch (const DriverError& e) {
      FAIL() << "driver error: " << e.what();
    }
  }

 private:
  const kernels::Example& example_;
  Config config_;
};

// Kernels/<Kernel>.<Backend>Simd<N> for every backend and allowed width.
[[maybe_unused]] const bool kRegistered = [] {
  for (const kernels::Example& e : kernels::Examples()) {
    for (const Backend b : {Backend::kGolden, Backend::kRtl, Backend::kCosim}) {
      for (const unsigned simd : e.widths) {
        const Config c{b, simd, e.seed};
        ::testing::RegisterTest(("Kernels/" + std::string(e.name)).c_str(), ConfigName(c).c_str(),
                                nullptr, nullptr, __FILE__, __LINE__,
                                [&e, c]() -> ::testing::Test* { return new KernelRun(e, c); });
      }
    }
  }
  return true;
}();

// A kernel that requires a sub-group size runs at that size only: the driver refuses others.
TEST(KernelsRequiredSize, SgemmSimd8RefusesOtherWidths) {
  const Binary& bin = Compiled("sgemm.cl");
  for (const unsigned simd : {16u, 32u}) {
    Device dev(DeviceFor({Backend::kGolden, simd}));
    EXPECT_THROW({ Launch l(dev, bin, "sgemm_simd8"); }, DriverError) << "simd " << simd;
  }
  // The other kernel of the file runs anywhere.
  Device dev(DeviceFor({Backend::kGolden, 16}));
  EXPECT_NO_THROW({ Launch l(dev, bin, "sgemm"); });
}

}  // namespace
}  // namespace sgu::driver
