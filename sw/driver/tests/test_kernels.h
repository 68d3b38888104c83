// SPDX-License-Identifier: Apache-2.0
// Hand-written SGU kernels for the driver and `sgu run` tests, independent of the compiler:
// SGU assembly assembled with sgu::Assemble, with the Kernel metadata (parameters and their
// launch-block offsets, private/spill/__local sizes, line table) filled in by hand following
// the launch ABI of sgu/binary.h.
#ifndef SGU_DRIVER_TESTS_TEST_KERNELS_H_
#define SGU_DRIVER_TESTS_TEST_KERNELS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sgu/binary.h"

namespace sgu::driver::testing {

// One parameter of a hand-written kernel; offsets are assigned in order from abi::kLbArgs.
struct Param {
  std::string name;
  std::string type_name;
  ArgKind kind;
  uint32_t size = 4;
  bool is_float = false;
  bool is_signed = false;
};

// Assembles `source` into a Kernel named `name` with the given parameters.
Kernel MakeKernel(const std::string& name, const std::string& source,
                  const std::vector<Param>& params);

// scale(__global const int* in, __global int* out, int n): out[gid] = in[gid] * 2 + n (1-D).
Kernel ScaleKernel();
// ids(__global uint* out): 8 words per work-item at its linear global id (3-D):
//   0: gx | gy << 10 | gz << 20      1: lx | ly << 10 | lz << 20
//   2: group x | y << 10 | z << 20   3: sub-group id | sub-group size << 8 | sub-groups << 16
//   4: local linear id of lane 0     5: work dim
//   6: global size x | y << 10 | z << 20   7: num groups x | y << 10 | z << 20
Kernel IdsKernel();
// fault(__global int* out, int n): out[gid + n] = gid (line table: file 0, store on line 7).
// n = buffer length faults past the end. With `null_load` it loads from address 0 first.
Kernel FaultKernel(bool null_load = false);
inline constexpr uint32_t kFaultStoreLine = 7;
// local_mix(__global uint* out, __local uint* tmp), uses_barrier, private_bytes 8,
// scalar_spill_bytes 4, local_bytes 64, reads constants C[4] (kConstants):
//   out[gid] = 3 * (group base + L - 1 - lid) + C[lid % 4] + group base,  group base = gid - lid.
Kernel LocalMixKernel();
inline const std::vector<uint32_t> kConstants = {10, 20, 30, 40};
// image_add(read_only image2d_t src, write_only image2d_t dst) on r32 images (2-D):
//   dst[x, y] = src[x, y] + 1000 * x + y.
Kernel ImageAddKernel();
// diag(__global uint* out): a shuffle with out-of-range indices (one sanitizer diagnostic per
// lane, line table: diag.cl line 2), then out[gid] = gid.
Kernel DiagKernel();
// spin(): loops forever.
Kernel SpinKernel();

// A Binary holding the given kernels, files {"fault.cl", "diag.cl"} and kConstants.
Binary MakeBinary(const std::vector<Kernel>& kernels);

}  // namespace sgu::driver::testing

#endif  // SGU_DRIVER_TESTS_TEST_KERNELS_H_
