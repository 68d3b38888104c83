// SPDX-License-Identifier: Apache-2.0
// Instruction cache (rtl/sgu_icache.sv) in lockstep at SIMD 8, 16 and 32: loops that cross lines
// run at one instruction per cycle after their first iteration, conflict and capacity evictions,
// an AXI error on a refill (FetchBusError on the word of the bad beat, the errored line never
// cached as valid, clean runs after it), the flush at kernel start, and the ICACHE_* counters.
//
// The counters are performance, not architecture: the golden model has no cache and the lockstep
// checker does not compare them. These tests check them against an independent expectation:
// RefICache below replays the pc of every instruction the golden model executed through a
// direct-mapped cache of the geometry that ICACHE_CONFIG reports, and some tests also state the
// counts as formulas of the program's shape. Cycle counts come from the CYCLES register with the
// testbench memory at fixed timing (no added latency, no backpressure), so they are exact.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sgu/asm.h"
#include "tb_test_util.h"

namespace sgu::tb {
namespace {

using isa::Cause;

struct Geometry {
  uint32_t cache_bytes = 0, line_bytes = 0, ways = 0;
  uint32_t lines() const { return cache_bytes / line_bytes; }
};

Geometry ReadGeometry(RtlSim& rtl) {
  const uint32_t v = rtl.ReadCsr(isa::csr::kIcacheConfig);
  return {v & 0xffff, (v >> 16) & 0xff, v >> 24};
}

// Reference: a direct-mapped cache with the RTL's policy (docs/architecture.md, "Instruction
// cache"). Fetch(pc) is one instruction delivered to the core.
class RefICache {
 public:
  RefICache(const Geometry& g, unsigned beat_bytes, const Memory& mem)
      : g_(g), beat_bytes_(beat_bytes), mem_(mem), tag_(g.lines(), 0), valid_(g.lines(), false) {}

  void Fetch(uint32_t pc) {
    const uint32_t line = pc / g_.line_bytes;
    const uint32_t index = line % g_.lines();
    if ((valid_[index] && tag_[index] == line) || (eline_valid_ && eline_ == line)) {
      ++hits_;
      return;
    }
    ++misses_;
    valid_[index] = false;
    eline_valid_ = false;
    bool err = false;
    for (uint32_t a = line * g_.line_bytes; a < (line + 1) * g_.line_bytes; a += beat_bytes_) {
      err = err || mem_.IsError(a, beat_bytes_);
    }
    if (err) {
      // An errored line is usable until the next refill, never cached as valid.
      eline_valid_ = true;
      eline_ = line;
    } else {
      valid_[index] = true;
      tag_[index] = line;
    }
  }

  // Replays a run: every record but a fetch fault or the watchdog delivered its instruction.
  // Also counts the places where the pipeline's fetch stage runs ahead on a path that does not
  // retire (docs/architecture.md "Fetch and prediction"): a branch the static predictor gets
  // wrong (br taken; bz/bnz/bexz/bexnz taken when backward), and the end of the run.
  void Replay(const std::vector<Retire>& trace) {
    for (size_t i = 0; i < trace.size(); ++i) {
      const Retire& r = trace[i];
      if (r.trap && (r.cause == Cause::kFetchFault || r.cause == Cause::kWatchdog)) continue;
      Fetch(r.pc);
      ++fetched_;
      const auto op = static_cast<isa::Op>(r.insn & 0xff);
      const bool cond = op == isa::Op::kBz || op == isa::Op::kBnz ||
                        op == isa::Op::kBexz || op == isa::Op::kBexnz;
      if (!r.trap && i + 1 < trace.size() && (cond || op == isa::Op::kBr)) {
        const bool backward = (r.insn >> 63) & 1;
        const bool predicted = op == isa::Op::kBr || backward;
        const bool taken = trace[i + 1].pc != r.pc + 8;
        if (predicted != taken) ++wrong_paths_;
      }
    }
    ++wrong_paths_;  // after the last record
  }

  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  uint64_t fetched() const { return fetched_; }
  // Points where the fetch stage may request words that never retire: each costs at most two
  // requests and one refill.
  uint64_t wrong_paths() const { return wrong_paths_; }

 private:
  Geometry g_;
  unsigned beat_bytes_;
  const Memory& mem_;
  std::vector<uint32_t> tag_;
  std::vector<bool> valid_;
  bool eline_valid_ = false;
  uint32_t eline_ = 0;
  uint64_t hits_ = 0, misses_ = 0, fetched_ = 0, wrong_paths_ = 0;
};

// The golden model's records of one launch (on a copy of the image).
std::vector<Retire> ModelTrace(const Memory& image, unsigned lanes, const LaunchParams& launch) {
  Memory mem = image;
  Model model(lanes, &mem);
  model.Start(launch);
  std::vector<Retire> trace;
  while (model.running() && trace.size() < 10000000) trace.push_back(model.Step());
  return trace;
}

struct Counts {
  CosimResult result;
  uint64_t cycles = 0, instret = 0, hits = 0, misses = 0;
};

uint64_t Read64(RtlSim& rtl, uint32_t lo, uint32_t hi) {
  return rtl.ReadCsr(lo) | uint64_t{rtl.ReadCsr(hi)} << 32;
}

// One lockstep launch, then the counters of the run from the AXI4-Lite registers.
Counts RunCounted(Cosim& cosim, const LaunchParams& launch) {
  Counts c;
  c.result = cosim.Run(launch);
  RtlSim& rtl = cosim.rtl();
  c.cycles = Read64(rtl, isa::csr::kCyclesLo, isa::csr::kCyclesHi);
  c.instret = Read64(rtl, isa::csr::kInstretLo, isa::csr::kInstretHi);
  c.hits = Read64(rtl, isa::csr::kIcacheHitsLo, isa::csr::kIcacheHitsHi);
  c.misses = Read64(rtl, isa::csr::kIcacheMissesLo, isa::csr::kIcacheMissesHi);
  return c;
}

// Checks the counters of a run against the reference replay of the model's trace. The counters
// count the fetch stage's requests, which run ahead of retirement: every refill of the retired
// path happens (a direct-mapped cache never misses less when accesses are added), plus at most
// one per wrong path; every retired word was delivered, plus at most four per wrong path (the
// fetch stage runs at most three words ahead of execute, the words in F, D and R, and goes on for
// one more edge after X's decision, which acts one edge later: sgu_core kill_q).
void ExpectCountsMatchReference(const Counts& c, const Memory& image, unsigned lanes,
                                const LaunchParams& launch, const Geometry& g,
                                unsigned beat_bytes, const std::string& what) {
  RefICache ref(g, beat_bytes, image);
  ref.Replay(ModelTrace(image, lanes, launch));
  EXPECT_GE(c.misses, ref.misses()) << what << ": ICACHE_MISSES";
  EXPECT_LE(c.misses, ref.misses() + ref.wrong_paths()) << what << ": ICACHE_MISSES";
  EXPECT_GE(c.hits + c.misses, ref.fetched()) << what << ": ICACHE_HITS + ICACHE_MISSES";
  EXPECT_LE(c.hits + c.misses, ref.fetched() + 4 * ref.wrong_paths())
      << what << ": ICACHE_HITS + ICACHE_MISSES";
}

std::string Repeat(const std::string& line, unsigned n) {
  std::string s;
  for (unsigned i = 0; i < n; ++i) s += line;
  return s;
}

// Single-cycle lane and crossbar work with no long-latency result read back (no memory access,
// no multiply or FP), no short result read by the instruction right behind its writer (the
// lanes' results are forwarded from L2 only, two instructions behind) and no shuffle result read
// at all (a shuffle's result is not forwarded: its reader waits in R until the register file's
// bypass gives it, docs/architecture.md "Pipeline"): nothing stalls but the cache. Every reader
// is two or more instructions behind its writer, also across the wrap from op 7 to op 0.
std::string Body(unsigned n) {
  static const char* const kOps[] = {
      "  add v3, v1, v2\n",       "  addi v2, v2, 1\n",       "  sub v4, v3, v1\n",
      "  or v8, v7, v7\n",        "  xor v5, v4, v3\n",       "  shfl.idx v10, v9, v1\n",
      "  shfl.xor v6, v5, s2\n",  "  and v7, v3, v1\n"};
  std::string s;
  for (unsigned i = 0; i < n; ++i) s += kOps[i % 8];
  return s;
}

CosimOptions FixedTiming(unsigned lanes) {
  CosimOptions o;
  o.rtl.num_lanes = lanes;
  o.rtl.seed = BaseSeed();
  return o;  // no added latency, ready 100%
}

// The geometry of the model of `lanes`, from a unit built for the purpose (one unit at a time:
// two Verilated models alive at once deadlock in Verilator 5.006's destructors).
Geometry ProbeGeometry(unsigned lanes) {
  Rng rng(BaseSeed());
  Cosim probe(FixedTiming(lanes), MakeImage("  halt\n", rng));
  return ReadGeometry(probe.rtl());
}

LaunchParams Launch(unsigned lanes, uint32_t pc_start = kCodeBase) {
  Rng rng(BaseSeed());
  LaunchParams p = MakeLaunch(lanes, false, rng);
  p.pc_start = pc_start;
  return p;
}

class ICacheTest : public testing::TestWithParam<unsigned> {
 protected:
  unsigned lanes() const { return GetParam(); }
  unsigned beat_bytes() const { return AxiDataBitsFor(lanes()) / 8; }
};

TEST_P(ICacheTest, ConfigRegisterDescribesTheCache) {
  Rng rng(BaseSeed());
  Cosim cosim(FixedTiming(lanes()), MakeImage("  halt\n", rng));
  const Geometry g = ReadGeometry(cosim.rtl());
  // The testbench models use the sgu_top defaults.
  EXPECT_EQ(g.cache_bytes, 1024u);
  EXPECT_EQ(g.line_bytes, 64u);
  EXPECT_EQ(g.ways, 1u);
}

// A loop of 22 instructions starting 40 bytes into a line spans 4 lines. The one-line buffer this
// cache replaced refilled on every line crossing; now only the first iteration misses.
TEST_P(ICacheTest, LoopCrossingLinesRunsAtOneInstructionPerCycle) {
  constexpr unsigned kBody = 20;  // + addi + bnz
  auto program = [&](unsigned iterations) {
    return "  li s1, " + std::to_string(iterations) + "\n  lane v1\n  li v2, 3\n  li s2, 5\n" +
           Repeat("  nop\n", 1) +  // the loop starts at offset 40 of line 0
           "loop:\n  addi s1, s1, -1\n" + Body(kBody) + "  bnz s1, loop\n  halt\n";
  };
  const unsigned per_iteration = kBody + 2;
  Counts c[2];
  const unsigned iterations[2] = {2, 12};
  for (int i = 0; i < 2; ++i) {
    Rng rng(BaseSeed());
    const Memory image = MakeImage(program(iterations[i]), rng);
    Cosim cosim(FixedTiming(lanes()), image);
    const Geometry g = ReadGeometry(cosim.rtl());
    const LaunchParams launch = Launch(lanes());
    c[i] = RunCounted(cosim, launch);
    ASSERT_EQ(c[i].result.status, CosimStatus::kHalted) << c[i].result.report;
    // 5 + 22 * iterations + halt instructions in 4 lines, each refilled once.
    const unsigned lines_touched = (5 * 8 + per_iteration * 8 + 8 + g.line_bytes - 1) / g.line_bytes;
    ASSERT_EQ(lines_touched, 4u);
    EXPECT_EQ(c[i].instret, 5 + per_iteration * iterations[i] + 1);
    EXPECT_EQ(c[i].misses, lines_touched);
    ExpectCountsMatchReference(c[i], image, lanes(), launch, g, beat_bytes(), "loop");
  }
  // Every iteration after the first costs exactly one cycle per instruction: the backward bnz
  // is predicted taken, the loop body has no stall (the counter's addi heads the loop, 21
  // instructions before the bnz that reads it).
  EXPECT_EQ(c[1].cycles - c[0].cycles, uint64_t{per_iteration} * (iterations[1] - iterations[0]));
}

// Two lines CacheBytes apart share a slot of the direct-mapped cache: a loop that jumps from one
// to the other and back refills twice per iteration.
TEST_P(ICacheTest, ConflictingLinesEvictEachOther) {
  const Geometry g = ProbeGeometry(lanes());
  const unsigned words_per_line = g.line_bytes / 8;
  constexpr unsigned kIterations = 6;
  // Line 0: setup. Line 1 (slot 1): loop head, jump to `far`, `back`. `far` is CacheBytes after
  // line 1, so it maps to slot 1 too.
  std::string s = "  li s1, " + std::to_string(kIterations) + "\n  lane v1\n  li v2, 3\n  li s2, 5\n";
  s += Repeat("  nop\n", words_per_line - 4);
  s += "loop:\n" + Body(2) + "  br far\nback:\n  addi s1, s1, -1\n  bnz s1, loop\n  halt\n";
  const unsigned used = words_per_line + 6;
  s += Repeat("  nop\n", words_per_line + g.cache_bytes / 8 - used);
  s += "far:\n" + Body(3) + "  br back\n";
  Rng rng(BaseSeed());
  const Memory image = MakeImage(s, rng);
  const Program p = Assemble(s);
  ASSERT_EQ(p.labels.at("loop"), uint32_t{g.line_bytes});
  ASSERT_EQ(p.labels.at("far"), p.labels.at("loop") + g.cache_bytes);
  Cosim cosim(FixedTiming(lanes()), image);
  const LaunchParams launch = Launch(lanes());
  const Counts c = RunCounted(cosim, launch);
  ASSERT_EQ(c.result.status, CosimStatus::kHalted) << c.result.report;
  // Line 0; then per iteration: `far` evicts line 1 and `back` evicts `far` (the first iteration
  // also misses on the loop head).
  EXPECT_EQ(c.misses, 1 + 1 + 2 * kIterations);
  ExpectCountsMatchReference(c, image, lanes(), launch, g, beat_bytes(), "conflict");
}

// A loop of CacheBytes + 2 lines: its first two lines and its last two share slots, so each
// iteration refills those four; the other lines stay.
TEST_P(ICacheTest, LoopLargerThanTheCacheEvictsItsOwnLines) {
  const Geometry g = ProbeGeometry(lanes());
  const unsigned words_per_line = g.line_bytes / 8;
  const unsigned loop_lines = g.lines() + 2;
  auto program = [&](unsigned iterations) {
    std::string s = "  li s1, " + std::to_string(iterations) +
                    "\n  lane v1\n  li v2, 3\n  li s2, 5\n" +
                    Repeat("  nop\n", words_per_line - 4) + "loop:\n" +
                    Body(loop_lines * words_per_line - 2) +
                    "  addi s1, s1, -1\n  bnz s1, loop\n  halt\n";
    return s;
  };
  Counts c[2];
  for (unsigned k = 2; k <= 3; ++k) {
    Rng rng(BaseSeed());
    const Memory image = MakeImage(program(k), rng);
    Cosim cosim(FixedTiming(lanes()), image);
    const LaunchParams launch = Launch(lanes());
    c[k - 2] = RunCounted(cosim, launch);
    ASSERT_EQ(c[k - 2].result.status, CosimStatus::kHalted) << c[k - 2].result.report;
    ExpectCountsMatchReference(c[k - 2], image, lanes(), launch, g, beat_bytes(), "capacity");
  }
  EXPECT_EQ(c[1].misses - c[0].misses, 2u * (loop_lines - g.lines()));
}

// An error response on one beat of a line: the run that reaches that beat traps FetchBusError
// with the pc of its first word, every time; the words of the good beats execute; a run that
// keeps to the good beats halts cleanly, refetching the errored line whenever another refill
// came in between (an errored line is never cached as valid).
TEST_P(ICacheTest, BusErrorOnRefillTrapsOnTheBadBeatOnly) {
  const Geometry g = ProbeGeometry(lanes());
  const unsigned words_per_line = g.line_bytes / 8;
  ASSERT_EQ(words_per_line, 8u);
  constexpr unsigned kIterations = 5;
  // Line 0: setup (s4 = ARG3 chooses the run). Line 1 (`bad`): four good words, then the bad
  // beat at byte 32 (at 512 bits the beat is the whole line). Lines `z` and `w` (slot of z) evict
  // each other so that every iteration has a refill after line 1.
  std::string s = "  li s1, " + std::to_string(kIterations) + "\n  li s2, 0\n" +
                  Repeat("  nop\n", words_per_line - 2);
  s += "bad:\n  addi s2, s2, 1\n  nop\n  bnz s4, z\n  nop\n" + Repeat("  halt\n", 4);
  s += "z:\n  addi s3, s3, 1\n  br w\n" + Repeat("  nop\n", words_per_line - 2);
  s += Repeat("  nop\n", g.cache_bytes / 8 - words_per_line);
  s += "w:\n  addi s1, s1, -1\n  bnz s1, bad\n  halt\n";
  const Program p = Assemble(s);
  const uint32_t bad = kCodeBase + p.labels.at("bad");
  ASSERT_EQ(bad, kCodeBase + g.line_bytes);
  ASSERT_EQ(p.labels.at("w"), p.labels.at("z") + g.cache_bytes);
  const uint32_t beat = beat_bytes();
  const uint32_t bad_beat = bad + 32 - 32 % beat;  // first byte of the beat holding byte 32
  Rng rng(BaseSeed());
  Memory image = MakeImage(s, rng);
  image.AddErrorRange(bad_beat, bad_beat + beat);
  Cosim cosim(FixedTiming(lanes()), image);
  LaunchParams launch = Launch(lanes());

  // Run A falls through into the bad beat; twice, the same trap.
  launch.args[3] = 0;
  for (int run = 0; run < 2; ++run) {
    const Counts a = RunCounted(cosim, launch);
    ASSERT_EQ(a.result.status, CosimStatus::kTrapped) << a.result.report;
    EXPECT_EQ(a.result.last.cause, Cause::kFetchBusError);
    EXPECT_EQ(a.result.last.pc, bad_beat);
    EXPECT_EQ(a.result.last.tval, bad_beat);
    RtlSim& rtl = cosim.rtl();
    EXPECT_EQ(rtl.ReadCsr(isa::csr::kCause), static_cast<uint32_t>(Cause::kFetchBusError));
    EXPECT_EQ(rtl.ReadCsr(isa::csr::kTrapPc), bad_beat);
    EXPECT_EQ(rtl.ReadCsr(isa::csr::kTrapVal), bad_beat);
    EXPECT_EQ(a.misses, 2u);  // line 0, then line 1 (served as the errored last refill)
    ExpectCountsMatchReference(a, image, lanes(), launch, g, beat_bytes(), "bad beat run");
  }

  // Run B loops over the good words of line 1. At 512 bits line 1 is one bad beat: B traps too.
  launch.args[3] = 1;
  const Counts b = RunCounted(cosim, launch);
  if (beat == g.line_bytes) {
    ASSERT_EQ(b.result.status, CosimStatus::kTrapped) << b.result.report;
    EXPECT_EQ(b.result.last.cause, Cause::kFetchBusError);
    EXPECT_EQ(b.result.last.tval, bad);
  } else {
    ASSERT_EQ(b.result.status, CosimStatus::kHalted) << b.result.report;
    EXPECT_EQ(cosim.rtl().ReadCsr(isa::csr::kStatus), 2u);  // done, not trapped
    // Line 0, then per iteration lines 1, z and w. Had line 1 been cached with its error bits,
    // only the first iteration would refill it. (The fetch stage also refetches line 1 after
    // the last bnz, which it predicts taken: one more refill.)
    EXPECT_EQ(b.misses, 1 + 3 * kIterations + 1);
  }
  ExpectCountsMatchReference(b, image, lanes(), launch, g, beat_bytes(), "good beats run");

  // And the run that reaches the bad beat still traps the same way after that.
  launch.args[3] = 0;
  const Counts again = RunCounted(cosim, launch);
  ASSERT_EQ(again.result.status, CosimStatus::kTrapped) << again.result.report;
  EXPECT_EQ(again.result.last.tval, bad_beat);
}

// The host rewrites the kernel between launches: the second launch runs the new code (the
// lockstep model reads memory directly, so stale cached words would mismatch), and the counters
// start again from zero.
TEST_P(ICacheTest, KernelStartFlushesTheCacheAndCounters) {
  const std::string first =
      "  lane v1\n  li s2, 0x9000\n  shli v2, v1, 2\n  add v2, v2, s2\n  addi v3, v1, 100\n"
      "  st.i32 [v2 + 0], v3\n  halt\n";
  const std::string second =
      "  lane v1\n  li s2, 0x9000\n  shli v2, v1, 2\n  add v2, v2, s2\n  addi v3, v1, 200\n"
      "  st.i32 [v2 + 0], v3\n  halt\n";
  Rng rng(BaseSeed());
  const Memory image = MakeImage(first, rng);
  Cosim cosim(FixedTiming(lanes()), image);
  const LaunchParams launch = Launch(lanes());
  const Counts a = RunCounted(cosim, launch);
  ASSERT_EQ(a.result.status, CosimStatus::kHalted) << a.result.report;
  // The same kernel again: the same counts (cleared at start, cold cache again).
  const Counts a2 = RunCounted(cosim, launch);
  ASSERT_EQ(a2.result.status, CosimStatus::kHalted) << a2.result.report;
  EXPECT_EQ(a2.hits, a.hits);
  EXPECT_EQ(a2.misses, a.misses);
  EXPECT_EQ(a2.cycles, a.cycles);
  EXPECT_EQ(a.misses, 1u);
  // Rewrite the code in place.
  const Program p = Assemble(second);
  std::vector<uint8_t> bytes(8 * p.words.size());
  for (size_t i = 0; i < p.words.size(); ++i) {
    for (int b = 0; b < 8; ++b) bytes[8 * i + b] = static_cast<uint8_t>(p.words[i] >> (8 * b));
  }
  cosim.HostWrite(kCodeBase, bytes.data(), bytes.size());
  const Counts b = RunCounted(cosim, launch);
  ASSERT_EQ(b.result.status, CosimStatus::kHalted) << b.result.report;
  EXPECT_EQ(b.misses, 1u);
  EXPECT_EQ(b.hits + b.misses, b.instret);
  for (unsigned l = 0; l < lanes(); ++l) {
    EXPECT_EQ(cosim.rtl_memory().Load(0x9000 + 4 * l, 4), 200 + l) << "lane " << l;
  }
}

// Seeded random programs (loops, branches, divergence, traps) in lockstep with random AXI
// timing: the counters equal the reference replay of the model's trace, whatever the timing.
TEST_P(ICacheTest, RandomProgramsCountersMatchReference) {
  const unsigned programs = static_cast<unsigned>(EnvNumber("SGU_ICACHE_PROGRAMS", 12));
  for (unsigned i = 0; i < programs; ++i) {
    const uint64_t seed = BaseSeed() * 31 + lanes() * 1009 + i;
    Rng rng(seed);
    RandomProgramConfig cfg;
    cfg.num_lanes = lanes();
    cfg.items = 100 + rng.Below(400);
    const std::string program = GenerateRandomProgram(cfg, rng);
    const Memory image = MakeImage(program, rng);
    CosimOptions opts;
    opts.rtl.num_lanes = lanes();
    opts.rtl.seed = rng.Bits();
    opts.rtl.max_latency = 4;
    opts.rtl.ready_percent = 60;
    opts.max_instructions = 2000000;
    Cosim cosim(opts, image);
    const LaunchParams launch = MakeLaunch(lanes(), rng.Percent(30), rng);
    const Counts c = RunCounted(cosim, launch);
    const CosimStatus s = c.result.status;
    ASSERT_TRUE(s == CosimStatus::kHalted || s == CosimStatus::kTrapped)
        << "seed " << seed << ": " << c.result.report;
    const Geometry g = ReadGeometry(cosim.rtl());
    ExpectCountsMatchReference(c, image, lanes(), launch, g, beat_bytes(),
                               "seed " + std::to_string(seed));
  }
}

INSTANTIATE_TEST_SUITE_P(AllWidths, ICacheTest, testing::Values(8u, 16u, 32u),
                         [](const testing::TestParamInfo<unsigned>& p) {
                           return "simd" + std::to_string(p.param);
                         });

}  // namespace
}  // namespace sgu::tb
