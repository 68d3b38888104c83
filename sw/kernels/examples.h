// SPDX-License-Identifier: Apache-2.0
// The example kernels of sw/kernels/ as a table: for each, its .cl file and kernel name, the SIMD
// widths it allows, how to bind its arguments (inputs from a seed) and how to check its results
// against a reference computed on the host from the inputs alone, in plain C++, independently
// of the SGU. sgu_kernels_test (every backend and width), sgu-demo (make demo) and
// sgu-bench-kernels (make bench) all run the kernels from this table.
//
//   const Binary bin = compiler::CompileFile(ExamplePath(e), {});
//   Device dev({.backend = Backend::kCosim, .simd = 16});
//   Outcome o = RunExample(dev, bin, e, e.seed, 0);   // o.error empty: results checked
#ifndef SGU_KERNELS_EXAMPLES_H_
#define SGU_KERNELS_EXAMPLES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sgu/binary.h"
#include "sgu/driver.h"

namespace sgu::kernels {

// An NDRange as Launch::Run takes it; an empty local size lets the driver pick one.
struct NDRange {
  std::vector<uint32_t> global, local;
};

struct Example {
  const char* name;              // "Transpose": the tests are Kernels/<name>.<Backend>Simd<N>
  const char* file;              // "transpose.cl", in sw/kernels/
  const char* kernel;            // "transpose", the kernel function in that file
  const char* summary;           // what it shows, in a few words (the demo's legend)
  std::vector<unsigned> widths;  // SIMD widths it allows (a required sub-group size: that one)
  uint64_t seed;                 // the seed of its inputs in the tests, the demo and the bench
  // Launches that make up one run of the example, each on a fresh device (ReverseTile: one
  // work-group size of a full sub-group, then one of a partial sub-group).
  unsigned launches;
  // Binds every argument of launch `part` (0 .. launches - 1) at SIMD width `simd` with inputs
  // derived from `seed`; returns the NDRange to run. Throws driver::DriverError as Launch does.
  NDRange (*bind)(driver::Launch& l, unsigned simd, uint64_t seed, unsigned part);
  // After that launch ran to its end: "" when every result equals the host reference, else the
  // first difference ("out[3] is 5, expected 7 (in[0][3])"). Regenerates the inputs from
  // (simd, seed, part), so bind and check need not share state.
  std::string (*check)(const driver::Launch& l, unsigned simd, uint64_t seed, unsigned part);
};

// Every example, in the order of sw/kernels/README.md.
const std::vector<Example>& Examples();
// By table name ("Transpose") or kernel name ("transpose"); nullptr when there is none.
const Example* FindExample(const std::string& name);
bool Allows(const Example& e, unsigned simd);

// The sw/kernels directory of the source tree this library was built from.
std::string KernelsDir();
// dir/e.file.
std::string ExamplePath(const Example& e, const std::string& dir = KernelsDir());

// One launch of an example, run and checked.
struct Outcome {
  NDRange range;          // what bind returned
  driver::Result result;  // counts, status
  double seconds = 0;     // wall time of Launch::Run alone
  // "" when the launch ran to its end without a sanitizer diagnostic and every result matched
  // the reference; else why not: the driver's message (with the mismatch or hang report on the
  // following lines), the first sanitizer diagnostic, or the check's first difference.
  std::string error;
};

// Binds launch `part` of `e` on `dev` (at the device's SIMD width), runs it and checks the
// results. Throws driver::DriverError when the driver refuses the launch (a width the kernel
// does not allow, a bad NDRange), as Launch does.
Outcome RunExample(driver::Device& dev, const Binary& bin, const Example& e, uint64_t seed,
                   unsigned part);

}  // namespace sgu::kernels

#endif  // SGU_KERNELS_EXAMPLES_H_
