// SPDX-License-Identifier: Apache-2.0
// Driver tests: hand-written kernels (test_kernels.h) on the golden, rtl and cosim backends at
// SIMD 8, 16 and 32, checked against values computed here independently of the SGU; faults,
// diagnostics, hangs; and every DriverError the caller can provoke.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "sgu/driver.h"
#include "test_kernels.h"

namespace sgu::driver {
namespace {

using testing::kConstants;

std::vector<uint8_t> Words(const std::vector<uint32_t>& w) {
  std::vector<uint8_t> b(w.size() * 4);
  std::memcpy(b.data(), w.data(), b.size());
  return b;
}
std::vector<uint32_t> ToWords(const std::vector<uint8_t>& b) {
  std::vector<uint32_t> w(b.size() / 4);
  std::memcpy(w.data(), b.data(), w.size() * 4);
  return w;
}

DeviceOptions Options(Backend backend, unsigned simd) {
  DeviceOptions o;
  o.backend = backend;
  o.simd = simd;
  o.watchdog_cycles = 2000000;
  return o;
}

class DriverTest : public ::testing::TestWithParam<std::tuple<Backend, unsigned>> {
 protected:
  Backend backend() const { return std::get<0>(GetParam()); }
  unsigned simd() const { return std::get<1>(GetParam()); }
  DeviceOptions opts() const { return Options(backend(), simd()); }
};

// out[gid] = in[gid] * 2 + n over several work-groups; with a local size that is not a multiple
// of the SIMD width the last sub-group of each work-group is partial.
TEST_P(DriverTest, ScaleMatchesHostComputation) {
  const Binary bin = testing::MakeBinary({testing::ScaleKernel()});
  for (const uint32_t local : {simd() * 2, simd() + simd() / 2 + 1}) {
    const uint32_t global = local * 3;
    Device dev(opts());
    Launch l(dev, bin, "scale");
    std::vector<uint32_t> in(global);
    for (uint32_t i = 0; i < global; ++i) in[i] = i * 7919u - 5000u;
    l.SetBuffer("in", Words(in));
    l.SetZeros("out", global * 4);
    l.SetScalar("n", int32_t{-42});
    const Result r = l.Run({global}, {local});
    ASSERT_EQ(r.status, Status::kOk) << r.Message() << "\n" << r.report;
    const uint64_t sgs = (local + simd() - 1) / simd();
    EXPECT_EQ(r.sub_groups, 3 * sgs);
    EXPECT_EQ(r.sub_groups_total, 3 * sgs);
    EXPECT_EQ(r.work_groups, 3u);
    EXPECT_GT(r.instructions, 0u);
    if (backend() == Backend::kGolden) {
      EXPECT_EQ(r.cycles, 0u);
      EXPECT_EQ(r.icache_hits + r.icache_misses, 0u);
    } else {
      EXPECT_GT(r.cycles, r.instructions / 2);
      // Every launch starts with an empty instruction cache and ends with halt: each fetch is a
      // hit or a refill, and each launch refills at least its first line.
      EXPECT_EQ(r.icache_hits + r.icache_misses, r.instructions);
      EXPECT_GE(r.icache_misses, r.sub_groups);
    }
    const std::vector<uint32_t> out = ToWords(l.Contents("out"));
    for (uint32_t i = 0; i < global; ++i) {
      ASSERT_EQ(out[i], in[i] * 2u - 42u) << "work-item " << i << " local " << local;
    }
    EXPECT_EQ(ToWords(l.Contents("in")), in);
  }
}

// Every id the descriptor and the launch block carry, over a 3-D NDRange with partial
// sub-groups, against the OpenCL definitions computed here.
TEST_P(DriverTest, IdsOf3dNdRange) {
  const Binary bin = testing::MakeBinary({testing::IdsKernel()});
  const uint32_t G[3] = {6, 4, 2}, Lc[3] = {3, 2 + (simd() == 32 ? 2u : 0u), 2};
  Device dev(opts());
  Launch l(dev, bin, "");
  const uint32_t items = G[0] * G[1] * G[2];
  l.SetZeros("out", items * 32);
  const Result r = l.Run({G[0], G[1], G[2]}, {Lc[0], Lc[1], Lc[2]});
  ASSERT_EQ(r.status, Status::kOk) << r.Message() << "\n" << r.report;
  const uint32_t L = Lc[0] * Lc[1] * Lc[2];
  const uint32_t sgs = (L + simd() - 1) / simd();
  const uint32_t N[3] = {G[0] / Lc[0], G[1] / Lc[1], G[2] / Lc[2]};
  EXPECT_EQ(r.sub_groups, uint64_t{N[0]} * N[1] * N[2] * sgs);
  const std::vector<uint32_t> out = ToWords(l.Contents("out"));
  for (uint32_t z = 0; z < G[2]; ++z) {
    for (uint32_t y = 0; y < G[1]; ++y) {
      for (uint32_t x = 0; x < G[0]; ++x) {
        const uint32_t* w = &out[8 * ((z * G[1] + y) * G[0] + x)];
        const uint32_t lx = x % Lc[0], ly = y % Lc[1], lz = z % Lc[2];
        const uint32_t lin = (lz * Lc[1] + ly) * Lc[0] + lx;
        const uint32_t sg = lin / simd();
        const uint32_t size = std::min(simd(), L - sg * simd());
        SCOPED_TRACE(::testing::Message() << "work-item (" << x << "," << y << "," << z << ")");
        EXPECT_EQ(w[0], x | y << 10 | z << 20);
        EXPECT_EQ(w[1], lx | ly << 10 | lz << 20);
        EXPECT_EQ(w[2], x / Lc[0] | (y / Lc[1]) << 10 | (z / Lc[2]) << 20);
        EXPECT_EQ(w[3], sg | size << 8 | sgs << 16);
        EXPECT_EQ(w[4], sg * simd());
        EXPECT_EQ(w[5], 3u);
        EXPECT_EQ(w[6], G[0] | G[1] << 10 | G[2] << 20);
        EXPECT_EQ(w[7], N[0] | N[1] << 10 | N[2] << 20);
      }
    }
  }
}

// A store past the end of a buffer lands in the guard gap: a fault naming the buffer, the
// source line, the work-group and the sub-group; the NDRange stops at once.
TEST_P(DriverTest, FaultPastTheEndNamesTheBuffer) {
  const Binary bin = testing::MakeBinary({testing::FaultKernel()});
  Device dev(opts());
  Launch l(dev, bin, "fault");
  const uint32_t n = 16;
  l.SetZeros("out", n * 4);
  l.SetScalar("n", int32_t(n));  // out[gid + 16]: lane 0 of the first sub-group is past the end
  const Result r = l.Run({4 * simd()}, {simd()});
  ASSERT_EQ(r.status, Status::kFault) << r.Message();
  EXPECT_EQ(r.fault.cause, isa::Cause::kStoreBusError);
  EXPECT_EQ(r.fault.buffer, "out");
  EXPECT_EQ(r.fault.source, "fault.cl:" + std::to_string(testing::kFaultStoreLine));
  EXPECT_EQ(r.fault.sub_group_id, 0u);
  EXPECT_EQ(r.fault.group_id, (std::array<uint32_t, 3>{0, 0, 0}));
  EXPECT_EQ(r.sub_groups, 1u) << "a fault stops the whole NDRange";
  EXPECT_EQ(r.sub_groups_total, 4u);
  EXPECT_NE(r.fault.where.find("at byte 64 of buffer 'out', past its end"), std::string::npos)
      << r.fault.where;
  const std::string m = r.Message();
  EXPECT_NE(m.find("StoreBusError"), std::string::npos) << m;
  EXPECT_NE(m.find("fault.cl:7"), std::string::npos) << m;
  EXPECT_NE(m.find("buffer 'out'"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
  // Nothing was written (lane 0 is the first lane and it faulted).
  for (uint8_t b : l.Contents("out")) ASSERT_EQ(b, 0);
}

// A later work-group faults: the group id and the sub-group are reported.
TEST_P(DriverTest, FaultInALaterWorkGroup) {
  const Binary bin = testing::MakeBinary({testing::FaultKernel()});
  Device dev(opts());
  Launch l(dev, bin, "fault");
  const uint32_t global = 4 * simd(), items = global - 3;  // the last 3 work-items fault
  l.SetZeros("out", items * 4);
  l.SetScalar("n", int32_t{0});
  const Result r = l.Run({global}, {2 * simd()});
  ASSERT_EQ(r.status, Status::kFault) << r.Message();
  EXPECT_EQ(r.fault.group_id[0], 1u);
  EXPECT_EQ(r.fault.sub_group_id, 1u);
  EXPECT_EQ(r.fault.buffer, "out");
  const std::vector<uint32_t> out = ToWords(l.Contents("out"));
  // Work-group 1 sub-group 1 stored lanes in order up to the faulting one (a bus error).
  for (uint32_t i = 0; i < items; ++i) ASSERT_EQ(out[i], i);
}

TEST_P(DriverTest, NullPointerIsBelowTheWindow) {
  const Binary bin = testing::MakeBinary({testing::FaultKernel(true)});
  Device dev(opts());
  Launch l(dev, bin, "fault_null");
  l.SetZeros("out", 64);
  l.SetScalar("n", int32_t{0});
  const Result r = l.Run({simd()}, {});
  ASSERT_EQ(r.status, Status::kFault);
  EXPECT_EQ(r.fault.cause, isa::Cause::kLoadAccess);
  EXPECT_EQ(r.fault.tval, 0u);
  EXPECT_EQ(r.fault.pc_offset, 0u);
  EXPECT_EQ(r.fault.source, "fault.cl:3");
  EXPECT_NE(r.Message().find("null"), std::string::npos) << r.Message();
}

// __local argument, static __local, constants, private memory and the scalar spill slot.
TEST_P(DriverTest, LocalConstantPrivateMemory) {
  const Binary bin = testing::MakeBinary({testing::LocalMixKernel()});
  for (const uint32_t L : {simd(), simd() / 2, 3u}) {
    const uint32_t global = L * 4;
    Device dev(opts());
    Launch l(dev, bin, "local_mix");
    l.SetZeros("out", global * 4);
    l.SetLocal("tmp", L * 4);
    const Result r = l.Run({global}, {L});
    ASSERT_EQ(r.status, Status::kOk) << r.Message() << "\n" << r.report;
    const std::vector<uint32_t> out = ToWords(l.Contents("out"));
    for (uint32_t gid = 0; gid < global; ++gid) {
      const uint32_t lid = gid % L, base = gid - lid;
      ASSERT_EQ(out[gid], 3 * (base + L - 1 - lid) + kConstants[lid % 4] + base)
          << "gid " << gid << " L " << L;
    }
  }
}

// Images with row pitch: packed rows in and out, the descriptor's pitch used by the kernel.
TEST_P(DriverTest, ImagesWithRowPitch) {
  const Binary bin = testing::MakeBinary({testing::ImageAddKernel()});
  const uint32_t W = 10, H = 6;
  Device dev(opts());
  Launch l(dev, bin, "image_add");
  std::vector<uint32_t> src(W * H);
  for (uint32_t i = 0; i < W * H; ++i) src[i] = 0x10000u * i + 5;
  ImageDesc d;
  d.width = W;
  d.height = H;
  d.format = ImageFormat::kR32;
  d.row_pitch = 48;  // 8 bytes of padding per row
  l.SetImage("src", d, Words(src));
  d.row_pitch = 0;   // default: 64
  l.SetImage("dst", d, {});
  const Result r = l.Run({W, H}, {5, 3});
  ASSERT_EQ(r.status, Status::kOk) << r.Message() << "\n" << r.report;
  const std::vector<uint32_t> dst = ToWords(l.Contents("dst"));
  ASSERT_EQ(dst.size(), W * H);
  for (uint32_t y = 0; y < H; ++y) {
    for (uint32_t x = 0; x < W; ++x) {
      ASSERT_EQ(dst[y * W + x], src[y * W + x] + 1000 * x + y) << x << "," << y;
    }
  }
  EXPECT_EQ(ToWords(l.Contents("src")), src);
}

// Sanitizer diagnostics carry pc, source line, work-group, sub-group and lane; strict mode
// turns them into an error after the first sub-group that reports one.
TEST_P(DriverTest, DiagnosticsAndStrictMode) {
  const Binary bin = testing::MakeBinary({testing::DiagKernel()});
  DeviceOptions o = opts();
  for (bool strict : {false, true}) {
    o.strict = strict;
    o.max_diagnostics = 5;
    Device dev(o);
    Launch l(dev, bin, "diag");
    l.SetZeros("out", 8 * simd());
    const Result r = l.Run({2 * simd()}, {simd()});
    if (backend() == Backend::kRtl) {
      // The RTL alone has no sanitizer.
      EXPECT_EQ(r.status, Status::kOk) << r.Message();
      EXPECT_TRUE(r.diagnostics.empty());
      continue;
    }
    if (!strict) {
      ASSERT_EQ(r.status, Status::kOk) << r.Message();
      EXPECT_EQ(r.diagnostic_count, 2 * simd());
      ASSERT_EQ(r.diagnostics.size(), 5u);
      EXPECT_NE(r.diagnostics[0].find("diag.cl:2"), std::string::npos) << r.diagnostics[0];
      EXPECT_NE(r.diagnostics[0].find("sub-group 0 lane 0"), std::string::npos)
          << r.diagnostics[0];
    } else {
      ASSERT_EQ(r.status, Status::kStrict) << r.Message();
      EXPECT_EQ(r.sub_groups, 1u);
      EXPECT_NE(r.Message().find("diag.cl:2"), std::string::npos) << r.Message();
    }
  }
}

TEST_P(DriverTest, WatchdogStopsASpinningKernel) {
  const Binary bin = testing::MakeBinary({testing::SpinKernel()});
  DeviceOptions o = opts();
  o.watchdog_cycles = 3000;
  Device dev(o);
  Launch l(dev, bin, "spin");
  const Result r = l.Run({simd() * 2}, {simd()});
  ASSERT_EQ(r.status, Status::kHang) << r.Message();
  EXPECT_EQ(r.sub_groups, 1u);
  EXPECT_NE(r.Message().find("hang"), std::string::npos);
}

TEST_P(DriverTest, ProgressIsReportedPerSubGroup) {
  const Binary bin = testing::MakeBinary({testing::ScaleKernel()});
  DeviceOptions o = opts();
  std::vector<std::pair<uint64_t, uint64_t>> calls;
  o.progress = [&](uint64_t done, uint64_t total) { calls.emplace_back(done, total); };
  Device dev(o);
  Launch l(dev, bin, "scale");
  l.SetZeros("in", 4 * 40);
  l.SetZeros("out", 4 * 40);
  l.SetScalar("n", int32_t{1});
  const Result r = l.Run({40}, {});  // picks 40: one work-group
  ASSERT_EQ(r.status, Status::kOk);
  EXPECT_EQ(r.local, std::vector<uint32_t>{40});
  ASSERT_EQ(calls.size(), r.sub_groups);
  EXPECT_EQ(calls.back(), std::make_pair(r.sub_groups, r.sub_groups));
}

// The same results with random AXI latency and backpressure (rtl and cosim; seeded, so a
// failure reproduces). The fault case checks that a bus error is reported the same way.
class RtlDriverTest : public DriverTest {};

TEST_P(RtlDriverTest, RandomAxiTiming) {
  const Binary bin = testing::MakeBinary({testing::ScaleKernel(), testing::FaultKernel()});
  DeviceOptions o = opts();
  o.random_axi = true;
  o.seed = 0x5eed0000u + simd();
  SCOPED_TRACE(::testing::Message() << "seed " << o.seed);
  Device dev(o);
  Launch l(dev, bin, "scale");
  const uint32_t global = 3 * simd() + 5;
  std::vector<uint32_t> in(global);
  for (uint32_t i = 0; i < global; ++i) in[i] = i ^ 0x5a5a5a5au;
  l.SetBuffer("in", Words(in));
  l.SetZeros("out", global * 4);
  l.SetScalar("n", int32_t{7});
  const Result r = l.Run({global}, {global});
  ASSERT_EQ(r.status, Status::kOk) << r.Message() << "\n" << r.report;
  const std::vector<uint32_t> out = ToWords(l.Contents("out"));
  for (uint32_t i = 0; i < global; ++i) ASSERT_EQ(out[i], in[i] * 2u + 7u) << i;

  Launch f(dev, bin, "fault");
  f.SetZeros("out", 4 * simd());
  f.SetScalar("n", int32_t{1});  // the last lane of the first sub-group is one past the end
  const Result rf = f.Run({simd()}, {});
  ASSERT_EQ(rf.status, Status::kFault) << rf.Message();
  EXPECT_EQ(rf.fault.cause, isa::Cause::kStoreBusError);
  const std::vector<uint32_t> fo = ToWords(f.Contents("out"));
  for (uint32_t i = 1; i < simd(); ++i) EXPECT_EQ(fo[i], i - 1) << "lanes before the fault stored";
}

std::string ParamName(const ::testing::TestParamInfo<DriverTest::ParamType>& info) {
  return std::string(BackendName(std::get<0>(info.param))) + "_simd" +
         std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(AllBackends, DriverTest,
                         ::testing::Combine(::testing::Values(Backend::kGolden, Backend::kRtl,
                                                              Backend::kCosim),
                                            ::testing::Values(8u, 16u, 32u)),
                         ParamName);
INSTANTIATE_TEST_SUITE_P(RtlBackends, RtlDriverTest,
                         ::testing::Combine(::testing::Values(Backend::kRtl, Backend::kCosim),
                                            ::testing::Values(8u, 16u, 32u)),
                         ParamName);

// ---- errors the caller can make (golden backend; the checks are backend-independent) -------

std::string ErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const DriverError& e) {
    return e.what();
  }
  return "(no DriverError)";
}

TEST(DriverErrors, KernelSelection) {
  Device dev(Options(Backend::kGolden, 16));
  const Binary two = testing::MakeBinary({testing::ScaleKernel(), testing::IdsKernel()});
  EXPECT_NE(ErrorOf([&] { Launch l(dev, two, "nope"); }).find("no kernel 'nope'"),
            std::string::npos);
  const std::string e = ErrorOf([&] { Launch l(dev, two, ""); });
  EXPECT_NE(e.find("scale, ids"), std::string::npos) << e;
  Kernel k = testing::ScaleKernel();
  k.required_simd = 8;
  const std::string r = ErrorOf([&] { Launch l(dev, testing::MakeBinary({k}), "scale"); });
  EXPECT_NE(r.find("requires a sub-group size of 8"), std::string::npos) << r;
}

TEST(DriverErrors, Arguments) {
  Device dev(Options(Backend::kGolden, 16));
  const Binary bin = testing::MakeBinary({testing::ScaleKernel(), testing::ImageAddKernel()});
  Launch l(dev, bin, "scale");
  const std::string unknown = ErrorOf([&] { l.ArgIndex("bogus"); });
  EXPECT_NE(unknown.find("no parameter 'bogus'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("in (const int*), out (int*), n (int)"), std::string::npos) << unknown;
  EXPECT_NE(ErrorOf([&] { l.SetScalar("n", int64_t{1}); }).find("takes 4 bytes, not 8"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { l.SetBuffer("n", {1, 2, 3, 4}); }).find("is a scalar, not a buffer"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { l.SetScalar("in", int32_t{1}); }).find("not a scalar"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { l.SetBuffer("in", {}); }).find("at least one byte"), std::string::npos);
  l.SetZeros("in", 64);
  l.SetZeros("out", 64);
  const std::string missing = ErrorOf([&] { l.Run({16}, {16}); });
  EXPECT_NE(missing.find("argument 'n' (int"), std::string::npos) << missing;

  Launch im(dev, bin, "image_add");
  ImageDesc d;
  d.width = 4;
  d.height = 2;
  d.format = ImageFormat::kRgba8;
  const std::string wrong = ErrorOf([&] { im.SetImage("src", d, std::vector<uint8_t>(31)); });
  EXPECT_NE(wrong.find("needs 32 bytes"), std::string::npos) << wrong;
  d.row_pitch = 8;
  EXPECT_NE(ErrorOf([&] { im.SetImage("src", d, {}); }).find("row pitch"), std::string::npos);
}

TEST(DriverErrors, NdRange) {
  Device dev(Options(Backend::kGolden, 16));
  const Binary bin = testing::MakeBinary({testing::ScaleKernel(), testing::LocalMixKernel()});
  Launch l(dev, bin, "scale");
  l.SetZeros("in", 4096);
  l.SetZeros("out", 4096);
  l.SetScalar("n", int32_t{0});
  const std::string nd = ErrorOf([&] { l.Run({100}, {48}); });
  EXPECT_NE(nd.find("local size 48 does not divide global size 100"), std::string::npos) << nd;
  EXPECT_NE(ErrorOf([&] { l.Run({}, {}); }).find("1 to 3 dimensions"), std::string::npos);
  EXPECT_NE(ErrorOf([&] { l.Run({16, 2}, {16}); }).find("dimensions"), std::string::npos);
  EXPECT_NE(ErrorOf([&] { l.Run({0}, {}); }).find("has a 0"), std::string::npos);

  Launch b(dev, bin, "local_mix");
  b.SetZeros("out", 4096);
  b.SetLocal("tmp", 256);
  const std::string bar = ErrorOf([&] { b.Run({128}, {64}); });
  EXPECT_NE(bar.find("barrier"), std::string::npos) << bar;
  EXPECT_NE(bar.find("4 sub-groups"), std::string::npos) << bar;
  EXPECT_NE(bar.find("at most 16"), std::string::npos) << bar;
  // Without a local size the driver picks one that runs.
  const Result r = b.Run({128}, {});
  EXPECT_EQ(r.status, Status::kOk) << r.Message();
  EXPECT_EQ(r.local, std::vector<uint32_t>{16});
}

TEST(DriverHelpers, PickLocalSize) {
  EXPECT_EQ(PickLocalSize({256}, 256), std::vector<uint32_t>{256});
  EXPECT_EQ(PickLocalSize({100}, 16), std::vector<uint32_t>{10});
  EXPECT_EQ(PickLocalSize({97}, 64), std::vector<uint32_t>{1});
  EXPECT_EQ(PickLocalSize({64, 32}, 256), (std::vector<uint32_t>{64, 4}));
  EXPECT_EQ(PickLocalSize({6, 4, 2}, 16), (std::vector<uint32_t>{6, 2, 1}));
}

TEST(DriverHelpers, NamesAndFormats) {
  EXPECT_EQ(ParseBackend("cosim"), Backend::kCosim);
  EXPECT_THROW(ParseBackend("fpga"), DriverError);
  EXPECT_EQ(ParseImageFormat("rgba16"), ImageFormat::kRgba16);
  EXPECT_EQ(TexelBytes(ImageFormat::kRgba16), 8u);
  EXPECT_EQ(TexelBytes(ImageFormat::kYuyv), 2u);
  EXPECT_THROW(ParseImageFormat("bgra8"), DriverError);
  EXPECT_THROW(Device(Options(Backend::kGolden, 12)), DriverError);
}

}  // namespace
}  // namespace sgu::driver
