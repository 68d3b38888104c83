// SPDX-License-Identifier: Apache-2.0
// Hand-written kernels for the driver tests (see test_kernels.h). Register use follows the
// launch ABI: s1 = launch block, s2 = sub-group descriptor.
#include "test_kernels.h"

#include "sgu/asm.h"

namespace sgu::driver::testing {

Kernel MakeKernel(const std::string& name, const std::string& source,
                  const std::vector<Param>& params) {
  Kernel k;
  k.name = name;
  k.code = Assemble(source, name + ".s").words;
  uint32_t off = abi::kLbArgs;
  for (const Param& p : params) {
    KernelArg a;
    a.name = p.name;
    a.type_name = p.type_name;
    a.kind = p.kind;
    a.size = p.size;
    a.is_float = p.is_float;
    a.is_signed = p.is_signed;
    const uint32_t align = p.size >= 8 ? 8 : p.size >= 4 ? 4 : p.size;
    off = (off + align - 1) / align * align;
    a.offset = off;
    off += p.size;
    k.args.push_back(a);
  }
  k.launch_block_size = off;
  return k;
}

namespace {

// v1 = get_local_id(0), v0 = descriptor address of this lane's local id slot.
const char kLocalIdX[] =
    "  lane v0\n"
    "  shli.u32 v0, v0, 2\n"
    "  add.u32 v0, v0, s2\n"
    "  ld.u32 v1, [v0 + 32]\n";

// v1 = get_global_id(0) (group id * local size + local id + global offset).
const std::string kGlobalIdX = std::string(kLocalIdX) +
                               "  ld.u32 s3, [s2 + 0]\n"
                               "  ld.u32 s4, [s1 + 16]\n"
                               "  mul.u32 s3, s3, s4\n"
                               "  ld.u32 s5, [s1 + 40]\n"
                               "  add.u32 s3, s3, s5\n"
                               "  add.u32 v1, v1, s3\n";

const Param kOutUint{"out", "uint*", ArgKind::kGlobalBuffer};

}  // namespace

Kernel ScaleKernel() {
  const std::string src = kGlobalIdX +
                          "  shli.u32 v2, v1, 2\n"
                          "  ld.u32 s6, [s1 + 64]\n"   // in
                          "  add.u32 v3, v2, s6\n"
                          "  ld.i32 v4, [v3]\n"
                          "  shli.i32 v4, v4, 1\n"
                          "  ld.i32 s7, [s1 + 72]\n"   // n
                          "  add.i32 v4, v4, s7\n"
                          "  ld.u32 s8, [s1 + 68]\n"   // out
                          "  add.u32 v5, v2, s8\n"
                          "  st.i32 [v5], v4\n"
                          "  halt\n";
  return MakeKernel("scale", src,
                    {{"in", "const int*", ArgKind::kGlobalBuffer},
                     {"out", "int*", ArgKind::kGlobalBuffer},
                     {"n", "int", ArgKind::kScalar, 4, false, true}});
}

Kernel IdsKernel() {
  const std::string src =
      "  lane v0\n"
      "  shli.u32 v0, v0, 2\n"
      "  add.u32 v0, v0, s2\n"
      "  ld.u32 v1, [v0 + 32]\n"    // lx
      "  ld.u32 v2, [v0 + 160]\n"   // ly
      "  ld.u32 v3, [v0 + 288]\n"   // lz
      "  ld.u32 s3, [s2 + 0]\n"     // group ids
      "  ld.u32 s4, [s2 + 4]\n"
      "  ld.u32 s5, [s2 + 8]\n"
      "  ld.u32 s6, [s1 + 16]\n"
      "  mul.u32 s7, s3, s6\n"
      "  add.u32 v4, v1, s7\n"      // gx
      "  ld.u32 s6, [s1 + 20]\n"
      "  mul.u32 s7, s4, s6\n"
      "  add.u32 v5, v2, s7\n"      // gy
      "  ld.u32 s6, [s1 + 24]\n"
      "  mul.u32 s7, s5, s6\n"
      "  add.u32 v6, v3, s7\n"      // gz
      "  ld.u32 s8, [s1 + 8]\n"
      "  mul.u32 v7, v6, s8\n"
      "  add.u32 v7, v7, v5\n"
      "  ld.u32 s8, [s1 + 4]\n"
      "  mul.u32 v7, v7, s8\n"
      "  add.u32 v7, v7, v4\n"      // linear global id
      "  shli.u32 v7, v7, 5\n"
      "  ld.u32 s8, [s1 + 64]\n"
      "  add.u32 v7, v7, s8\n"
      "  shli.u32 v8, v5, 10\n"
      "  or.u32 v8, v8, v4\n"
      "  shli.u32 v9, v6, 20\n"
      "  or.u32 v8, v8, v9\n"
      "  st.u32 [v7 + 0], v8\n"
      "  shli.u32 v8, v2, 10\n"
      "  or.u32 v8, v8, v1\n"
      "  shli.u32 v9, v3, 20\n"
      "  or.u32 v8, v8, v9\n"
      "  st.u32 [v7 + 4], v8\n"
      "  shli.u32 s9, s4, 10\n"
      "  or.u32 s9, s9, s3\n"
      "  shli.u32 s10, s5, 20\n"
      "  or.u32 s9, s9, s10\n"
      "  st.u32 [v7 + 8], s9\n"
      "  ld.u32 s9, [s2 + 12]\n"
      "  csrr s10, LaunchSize\n"
      "  shli.u32 s10, s10, 8\n"
      "  or.u32 s9, s9, s10\n"
      "  ld.u32 s10, [s1 + 52]\n"
      "  shli.u32 s10, s10, 16\n"
      "  or.u32 s9, s9, s10\n"
      "  st.u32 [v7 + 12], s9\n"
      "  ld.u32 s9, [s2 + 20]\n"
      "  st.u32 [v7 + 16], s9\n"
      "  ld.u32 s9, [s1 + 0]\n"
      "  st.u32 [v7 + 20], s9\n"
      "  ld.u32 s9, [s1 + 4]\n"
      "  ld.u32 s10, [s1 + 8]\n"
      "  shli.u32 s10, s10, 10\n"
      "  or.u32 s9, s9, s10\n"
      "  ld.u32 s10, [s1 + 12]\n"
      "  shli.u32 s10, s10, 20\n"
      "  or.u32 s9, s9, s10\n"
      "  st.u32 [v7 + 24], s9\n"
      "  ld.u32 s9, [s1 + 28]\n"
      "  ld.u32 s10, [s1 + 32]\n"
      "  shli.u32 s10, s10, 10\n"
      "  or.u32 s9, s9, s10\n"
      "  ld.u32 s10, [s1 + 36]\n"
      "  shli.u32 s10, s10, 20\n"
      "  or.u32 s9, s9, s10\n"
      "  st.u32 [v7 + 28], s9\n"
      "  halt\n";
  return MakeKernel("ids", src, {kOutUint});
}

Kernel FaultKernel(bool null_load) {
  std::string src = null_load ? "  ld.u32 v9, [s0 + 0]\n" : "";
  src += kGlobalIdX +
         "  ld.i32 s7, [s1 + 68]\n"   // n
         "  add.u32 v3, v1, s7\n"
         "  shli.u32 v3, v3, 2\n"
         "  ld.u32 s8, [s1 + 64]\n"   // out
         "  add.u32 v3, v3, s8\n"
         "store:\n"
         "  st.i32 [v3], v1\n"
         "  halt\n";
  Kernel k = MakeKernel(null_load ? "fault_null" : "fault", src,
                        {{"out", "int*", ArgKind::kGlobalBuffer},
                         {"n", "int", ArgKind::kScalar, 4, false, true}});
  const uint32_t store = Assemble(src).labels.at("store");
  k.lines = {{0, 0, 3}, {store, 0, kFaultStoreLine}, {store + 8, 0, kFaultStoreLine + 1}};
  return k;
}

Kernel LocalMixKernel() {
  const std::string src =
      "  lane v0\n"
      "  shli.u32 v10, v0, 2\n"
      "  add.u32 v10, v10, s2\n"
      "  ld.u32 v1, [v10 + 32]\n"   // lid
      "  ld.u32 s3, [s2 + 0]\n"
      "  ld.u32 s4, [s1 + 16]\n"    // L
      "  mul.u32 s5, s3, s4\n"      // group base
      "  add.u32 v2, v1, s5\n"      // gid
      // Scalar spill slot: store, clobber, reload.
      "  st.u32 [s2 + 416], s5\n"
      "  li s5, 0\n"
      "  ld.u32 s5, [s2 + 416]\n"
      // Private memory: lane l's 8 bytes at base + 8 l.
      "  ld.u32 s6, [s2 + 16]\n"
      "  shli.u32 v11, v0, 3\n"
      "  add.u32 v11, v11, s6\n"
      "  muli.u32 v3, v2, 3\n"
      "  st.u32 [v11 + 4], v3\n"
      "  li v3, 0\n"
      "  ld.u32 v3, [v11 + 4]\n"
      // tmp[lid] = 3 gid; barrier (one sub-group: nothing to wait for); read tmp[L-1-lid].
      "  ld.u32 s7, [s1 + 68]\n"
      "  shli.u32 v4, v1, 2\n"
      "  add.u32 v4, v4, s7\n"
      "  st.u32 [v4], v3\n"
      "  sub.u32 v5, s4, v1\n"
      "  addi.u32 v5, v5, -1\n"
      "  shli.u32 v5, v5, 2\n"
      "  add.u32 v5, v5, s7\n"
      "  ld.u32 v6, [v5]\n"
      // + C[lid % 4] from the constant data.
      "  andi.u32 v7, v1, 3\n"
      "  shli.u32 v7, v7, 2\n"
      "  ld.u32 s8, [s1 + 56]\n"
      "  add.u32 v7, v7, s8\n"
      "  ld.u32 v8, [v7]\n"
      "  add.u32 v6, v6, v8\n"
      // + group base through the static __local memory.
      "  ld.u32 s9, [s1 + 60]\n"
      "  st.u32 [s9 + 60], s5\n"
      "  ld.u32 s10, [s9 + 60]\n"
      "  add.u32 v6, v6, s10\n"
      "  shli.u32 v9, v2, 2\n"
      "  ld.u32 s11, [s1 + 64]\n"
      "  add.u32 v9, v9, s11\n"
      "  st.u32 [v9], v6\n"
      "  halt\n";
  Kernel k = MakeKernel("local_mix", src,
                        {kOutUint, {"tmp", "__local uint*", ArgKind::kLocalBuffer}});
  k.uses_barrier = true;
  k.private_bytes = 8;
  k.scalar_spill_bytes = 4;
  k.local_bytes = 64;
  return k;
}

Kernel ImageAddKernel() {
  const std::string src =
      "  lane v0\n"
      "  shli.u32 v0, v0, 2\n"
      "  add.u32 v0, v0, s2\n"
      "  ld.u32 v1, [v0 + 32]\n"
      "  ld.u32 v2, [v0 + 160]\n"
      "  ld.u32 s3, [s2 + 0]\n"
      "  ld.u32 s4, [s1 + 16]\n"
      "  mul.u32 s3, s3, s4\n"
      "  add.u32 v1, v1, s3\n"      // x
      "  ld.u32 s3, [s2 + 4]\n"
      "  ld.u32 s4, [s1 + 20]\n"
      "  mul.u32 s3, s3, s4\n"
      "  add.u32 v2, v2, s3\n"      // y
      "  ld.u32 s5, [s1 + 64]\n"    // src descriptor
      "  ld.u32 s6, [s5 + 0]\n"
      "  ld.u32 s7, [s5 + 12]\n"
      "  mul.u32 v3, v2, s7\n"
      "  shli.u32 v4, v1, 2\n"
      "  add.u32 v3, v3, v4\n"
      "  add.u32 v5, v3, s6\n"
      "  ld.u32 v6, [v5]\n"
      "  muli.u32 v7, v1, 1000\n"
      "  add.u32 v6, v6, v7\n"
      "  add.u32 v6, v6, v2\n"
      "  ld.u32 s5, [s1 + 68]\n"    // dst descriptor
      "  ld.u32 s6, [s5 + 0]\n"
      "  ld.u32 s7, [s5 + 12]\n"
      "  mul.u32 v3, v2, s7\n"
      "  add.u32 v3, v3, v4\n"
      "  add.u32 v3, v3, s6\n"
      "  st.u32 [v3], v6\n"
      "  halt\n";
  return MakeKernel("image_add", src,
                    {{"src", "read_only image2d_t", ArgKind::kImage},
                     {"dst", "write_only image2d_t", ArgKind::kImage}});
}

Kernel DiagKernel() {
  const std::string src = kGlobalIdX +
                          "shuffle:\n"
                          "  addi.u32 v6, v1, 1000\n"
                          "  shfl.idx v7, v1, v6\n"
                          "after:\n"
                          "  shli.u32 v2, v1, 2\n"
                          "  ld.u32 s6, [s1 + 64]\n"
                          "  add.u32 v2, v2, s6\n"
                          "  st.u32 [v2], v1\n"
                          "  halt\n";
  Kernel k = MakeKernel("diag", src, {kOutUint});
  const Program p = Assemble(src);
  k.lines = {{0, 1, 1}, {p.labels.at("shuffle"), 1, 2}, {p.labels.at("after"), 1, 3}};
  return k;
}

Kernel SpinKernel() { return MakeKernel("spin", "loop:\n  br loop\n", {}); }

Binary MakeBinary(const std::vector<Kernel>& kernels) {
  Binary b;
  b.files = {"fault.cl", "diag.cl"};
  b.kernels = kernels;
  for (uint32_t c : kConstants) {
    for (unsigned i = 0; i < 4; ++i) b.constants.push_back(static_cast<uint8_t>(c >> (8 * i)));
  }
  return b;
}

}  // namespace sgu::driver::testing
