// SPDX-License-Identifier: Apache-2.0
// Crossbar (shfl): the Intel and Qualcomm worked examples derived by hand, and a reference
// written from the table of docs/isa.md "Crossbar" over random data, deltas and masks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.h"

namespace sgu {
namespace test {
namespace {

std::vector<uint32_t> Lanes(const Retire& r, unsigned n) {
  return std::vector<uint32_t>(r.data_lo.begin(), r.data_lo.begin() + n);
}

// Intel sub-group shuffle_down/shuffle_up, N = 8, a = 10 * lane, b = 100 + 10 * lane, d = 3.
TEST(ModelXbar, IntelShuffleDownUpExample) {
  Machine m(8);
  m.Load(
      "  lane v0\n"
      "  muli v1, v0, 10\n"   // a (cur)
      "  addi v2, v1, 100\n"  // b (next for down, prev for up)
      "  li s1, 3\n"
      "  shfl.down2 v3, v1, s1, v2\n"  // shuffle_down(cur = a, next = b, 3)
      "  shfl.up2 v4, v1, s1, v2\n"    // shuffle_up(prev = b, cur = a, 3)
      "  halt\n");
  m.Run();
  EXPECT_EQ(Lanes(m.At(32), 8), (std::vector<uint32_t>{30, 40, 50, 60, 70, 100, 110, 120}));
  EXPECT_EQ(Lanes(m.At(40), 8), (std::vector<uint32_t>{150, 160, 170, 0, 10, 20, 30, 40}));
  EXPECT_TRUE(m.model.diagnostics().empty());
}

// Qualcomm clustered shuffles, width 4: data AA BB CC DD | A0 B0 C0 D0.
TEST(ModelXbar, QualcommWidth4Table) {
  Machine m(8);
  const uint32_t data[8] = {0xAA, 0xBB, 0xCC, 0xDD, 0xA0, 0xB0, 0xC0, 0xD0};
  for (unsigned l = 0; l < 8; ++l) m.Store32(kData + 4 * l, data[l]);
  m.Load(
      "  lane v0\n  shli v0, v0, 2\n  ld v1, [v0 + 0x4000]\n"
      "  li s1, 1\n  li s2, 2\n  li s3, 0x11\n"
      "  shfl.up.w4 v2, v1, s1, v1\n"     // 48: up 1, default = own value
      "  shfl.down.w4 v3, v1, s1, s3\n"   // 56: down 1, default 0x11
      "  shfl.rotup.w4 v4, v1, s1\n"      // 64
      "  shfl.rotdn.w4 v5, v1, s1\n"      // 72
      "  shfl.xor.w4 v6, v1, s1\n"        // 80
      "  shfl.xor.w4 v7, v1, s2\n"        // 88
      "  shfl.up.w4 v8, v1, s2, v1\n"     // 96
      "  shfl.rotup v9, v1, s1\n"         // 104: full width
      "  shfl.down.w2 v10, v1, s1, v1\n"  // 112
      "  halt\n");
  m.Run();
  EXPECT_EQ(Lanes(m.At(48), 8),
            (std::vector<uint32_t>{0xAA, 0xAA, 0xBB, 0xCC, 0xA0, 0xA0, 0xB0, 0xC0}));
  EXPECT_EQ(Lanes(m.At(56), 8),
            (std::vector<uint32_t>{0xBB, 0xCC, 0xDD, 0x11, 0xB0, 0xC0, 0xD0, 0x11}));
  EXPECT_EQ(Lanes(m.At(64), 8),
            (std::vector<uint32_t>{0xDD, 0xAA, 0xBB, 0xCC, 0xD0, 0xA0, 0xB0, 0xC0}));
  EXPECT_EQ(Lanes(m.At(72), 8),
            (std::vector<uint32_t>{0xBB, 0xCC, 0xDD, 0xAA, 0xB0, 0xC0, 0xD0, 0xA0}));
  EXPECT_EQ(Lanes(m.At(80), 8),
            (std::vector<uint32_t>{0xBB, 0xAA, 0xDD, 0xCC, 0xB0, 0xA0, 0xD0, 0xC0}));
  EXPECT_EQ(Lanes(m.At(88), 8),
            (std::vector<uint32_t>{0xCC, 0xDD, 0xAA, 0xBB, 0xC0, 0xD0, 0xA0, 0xB0}));
  EXPECT_EQ(Lanes(m.At(96), 8),
            (std::vector<uint32_t>{0xAA, 0xBB, 0xAA, 0xBB, 0xA0, 0xB0, 0xA0, 0xB0}));
  EXPECT_EQ(Lanes(m.At(104), 8),
            (std::vector<uint32_t>{0xD0, 0xAA, 0xBB, 0xCC, 0xDD, 0xA0, 0xB0, 0xC0}));
  EXPECT_EQ(Lanes(m.At(112), 8),
            (std::vector<uint32_t>{0xBB, 0xBB, 0xDD, 0xDD, 0xB0, 0xB0, 0xD0, 0xD0}));
  EXPECT_TRUE(m.model.diagnostics().empty());  // every default was explicit
}

TEST(ModelXbar, IdxBroadcastOutOfRangeAndInactiveSources) {
  Machine m(8);
  m.params.lanes = 6;  // lanes 6, 7 inactive
  m.Load(
      "  lane v0\n"
      "  addi v1, v0, 50\n"  // data 50 + lane
      "  li s1, 2\n"
      "  shfl.idx v2, v1, s1\n"  // 24: broadcast lane 2
      "  xori v3, v0, 1\n"       // 32: index lane ^ 1
      "  li s2, 77\n"
      "  shfl.idx v4, v1, v3, s2\n"  // 48: lanes 4, 5 read 5, 4; lane 5 reads 4 (ok)
      "  addi v5, v0, 3\n"           // 56: index lane + 3: lanes 3..5 read 6..8 -> default
      "  shfl.idx v6, v1, v5, s2\n"  // 64
      "  li s3, -1\n"                // 72
      "  shfl.idx v7, v1, s3\n"      // 80: index 0xffffffff: out of range everywhere -> 0
      "  halt\n");
  m.Run();
  EXPECT_EQ(m.At(24).lane_mask, 0x3fu);
  EXPECT_EQ(Lanes(m.At(24), 8), (std::vector<uint32_t>{52, 52, 52, 52, 52, 52, 0, 0}));
  EXPECT_EQ(Lanes(m.At(48), 8), (std::vector<uint32_t>{51, 50, 53, 52, 55, 54, 0, 0}));
  EXPECT_EQ(Lanes(m.At(64), 8), (std::vector<uint32_t>{53, 54, 55, 77, 77, 77, 0, 0}));
  EXPECT_EQ(Lanes(m.At(80), 8), (std::vector<uint32_t>{0, 0, 0, 0, 0, 0, 0, 0}));
  // Sanitizer: idx defaults are always reported; 3 lanes at 64, 6 at 80.
  const auto& d = m.model.diagnostics();
  ASSERT_EQ(d.size(), 9u);
  EXPECT_EQ(d[0].lane, 3u);
  EXPECT_EQ(d[0].pc, kCode + 64);
  EXPECT_EQ(d[0].order, 8u);
  EXPECT_EQ(d[3].lane, 0u);
  EXPECT_EQ(d[3].pc, kCode + 80);
}

TEST(ModelXbar, DiagnosticOnlyWithoutExplicitDefault) {
  Machine m(8);
  m.Load(
      "  lane v0\n  li s1, 1\n"
      "  shfl.down v1, v0, s1, v0\n"   // explicit default: no report
      "  shfl.down v2, v0, s1\n"       // rs3 = s0: lane 7 reported
      "  shfl.down2 v3, v0, s1, v0\n"  // never out of range for d = 1
      "  li s2, 9\n"
      "  shfl.down2 v4, v0, s2, v0\n"  // l + 9 >= 16 for l = 7: reported
      "  halt\n");
  m.Run();
  const auto& d = m.model.diagnostics();
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].lane, 7u);
  EXPECT_EQ(d[0].pc, kCode + 24);
  EXPECT_EQ(d[1].lane, 7u);
  EXPECT_EQ(d[1].pc, kCode + 48);
  EXPECT_EQ(Lanes(m.At(48), 8), (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 0}));
}

// Reference crossbar, written from the table with signed arithmetic.
struct XbarRef {
  unsigned n;
  uint32_t exec;
  const uint32_t* a;
  const uint32_t* d;
  const uint32_t* r;  // rs3: B or default
  // Value lane l receives.
  uint32_t Lane(unsigned mode, unsigned w, unsigned l) const {
    const int64_t N = n, W = w, L = l, D = d[l];
    const int64_t g = L % W, base = L - g;
    auto from = [&](const uint32_t* reg, int64_t j, uint32_t dflt) -> uint32_t {
      return (exec >> j & 1) ? reg[j] : dflt;
    };
    switch (mode) {
      case 0:
        return D < N ? from(a, D, r[l]) : r[l];  // idx
      case 1:
        return D < W ? from(a, base + (g ^ D), r[l]) : r[l];  // xor
      case 2: {                                               // down2
        const int64_t k = L + D;
        if (k >= 2 * N) return 0;
        return k < N ? from(a, k, 0) : from(r, k - N, 0);
      }
      case 3: {  // up2
        const int64_t k = L - D + N;
        if (k < 0) return 0;
        return k < N ? from(r, k, 0) : from(a, k - N, 0);
      }
      case 4:
        return D > g ? r[l] : from(a, base + g - D, r[l]);  // up
      case 5:
        return g + D >= W ? r[l] : from(a, base + g + D, r[l]);  // down
      case 6:
        return from(a, base + (((g - D) % W) + W) % W, r[l]);  // rotup
      default:
        return from(a, base + (g + D) % W, r[l]);  // rotdn
    }
  }
};

TEST(ModelXbar, RandomAgainstReference) {
  Rng rng;
  SCOPED_TRACE(rng.Describe());
  const char* const modes[] = {"idx", "xor", "down2", "up2", "up", "down", "rotup", "rotdn"};
  for (int iter = 0; iter < 400; ++iter) {
    const unsigned n = 8u << rng.Below(3);
    const unsigned mode = static_cast<unsigned>(rng.Below(8));
    unsigned log_w = 0;
    if (mode == 1 || mode >= 4) {
      log_w = static_cast<unsigned>(rng.Below(6));
      if (log_w != 0 && (1u << log_w) > n) log_w = 0;
    }
    const unsigned w = log_w == 0 ? n : 1u << log_w;
    Machine m(n);
    uint32_t a[32], d[32], r[32], c[32];
    uint32_t exec = 0;
    const bool uniform_delta = rng.Below(2) == 0;
    const uint32_t delta0 =
        rng.Below(4) == 0 ? rng.Next32() : static_cast<uint32_t>(rng.Below(2 * n + 2));
    for (unsigned l = 0; l < n; ++l) {
      a[l] = rng.Next32();
      r[l] = rng.Next32();
      d[l] = uniform_delta
                 ? delta0
                 : (rng.Below(8) == 0 ? rng.Next32() : static_cast<uint32_t>(rng.Below(2 * n + 2)));
      c[l] = rng.Below(5) != 0;
      exec |= c[l] << l;
      m.Store32(kData + 4 * l, a[l]);
      m.Store32(kData + 0x100 + 4 * l, d[l]);
      m.Store32(kData + 0x200 + 4 * l, r[l]);
      m.Store32(kData + 0x300 + 4 * l, c[l]);
    }
    m.params.args[0] = delta0;  // s1
    std::string mnem = std::string("shfl.") + modes[mode];
    if (log_w != 0) mnem += ".w" + std::to_string(w);
    m.Load(
        "  lane v0\n  shli v0, v0, 2\n"
        "  ld v1, [v0 + 0x4000]\n  ld v2, [v0 + 0x4100]\n"
        "  ld v3, [v0 + 0x4200]\n  ld v4, [v0 + 0x4300]\n"
        "  split v4\n  " +
        mnem + " v5, v1, " + (uniform_delta ? "s1" : "v2") + ", v3\n  halt\n");
    m.Run();
    const Retire& rec = m.At(56);
    ASSERT_FALSE(rec.trap) << mnem;
    EXPECT_EQ(rec.lane_mask, exec);
    const XbarRef ref{n, exec, a, d, r};
    for (unsigned l = 0; l < n; ++l) {
      const uint32_t want = (exec >> l & 1) ? ref.Lane(mode, w, l) : 0;
      ASSERT_EQ(rec.data_lo[l], want)
          << mnem << " n=" << n << " lane " << l << " d=" << d[l] << " exec=" << std::hex << exec;
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace sgu
