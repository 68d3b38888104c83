// SPDX-License-Identifier: Apache-2.0
// Waveforms a person can read: the FST counts 10 ns per clock cycle, the generated .gtkw names
// only signals the FST holds (every group populated) and opens on the whole run, and the
// translate filter process turns instruction words into sgu::Disassemble text with the source
// line of a line table.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cosim.h"
#include "gtkw.h"
#include "gtkw_filter.h"
#include "gtkwave/fstapi.h"
#include "random_program.h"
#include "sgu/asm.h"

namespace sgu::tb {
namespace {

namespace fs = std::filesystem;

// Loads, computes, stores: the AXI4 master and the AXI4-Lite slave both carry traffic.
const char* kProgram =
    "  lane v1\n"
    "  li s1, 0x9000\n"
    "  shli v2, v1, 2\n"
    "  add v2, v2, s1\n"
    "  ld.i32 v3, [v2 + 0]\n"
    "  addi v3, v3, 5\n"
    "  st.i32 [v2 + 0], v3\n"
    "  halt\n";

// A directory of its own for each test and process, named after the test; removed when the
// test passes, kept for inspection when it fails.
class TestDir {
 public:
  TestDir() {
    const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(t->test_suite_name()) + "." + t->name();
    for (char& c : name) {
      if (c == '/') c = '_';
    }
    path_ = fs::path(::testing::TempDir()) /
            ("sgu_" + name + "_" + std::to_string(static_cast<long>(getpid())));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TestDir() {
    if (!::testing::Test::HasFailure()) fs::remove_all(path_);
  }
  fs::path operator/(const std::string& file) const { return path_ / file; }

 private:
  fs::path path_;
};

std::string ReadText(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Runs kProgram on the RTL in lockstep with a waveform; returns the cycles traced.
uint64_t RunTraced(unsigned lanes, const fs::path& fst) {
  Rng rng(7);
  const Memory image = MakeImage(kProgram, rng);
  CosimOptions opts;
  opts.rtl.num_lanes = lanes;
  opts.rtl.trace_path = fst.string();
  Cosim cosim(opts, image);
  LaunchParams launch;
  launch.pc_start = kCodeBase;
  launch.mem_limit = kWindowLimit;
  const CosimResult r = cosim.Run(launch);
  EXPECT_EQ(r.status, CosimStatus::kHalted) << r.report;
  cosim.rtl().Finish();
  return cosim.rtl().cycle();
}

// The times at which `signal` changes, and its new values (one-bit signals).
std::vector<std::pair<uint64_t, char>> Changes(const fs::path& fst, const std::string& signal) {
  void* ctx = fstReaderOpen(fst.c_str());
  if (!ctx) return {};
  fstHandle handle = 0;
  std::vector<std::string> scopes;
  while (const fstHier* e = fstReaderIterateHier(ctx)) {
    if (e->htyp == FST_HT_SCOPE) {
      scopes.emplace_back(e->u.scope.name);
    } else if (e->htyp == FST_HT_UPSCOPE) {
      scopes.pop_back();
    } else if (e->htyp == FST_HT_VAR) {
      std::string name;
      for (const std::string& s : scopes) name += s + ".";
      if (name + e->u.var.name == signal) handle = e->u.var.handle;
    }
  }
  std::vector<std::pair<uint64_t, char>> changes;
  if (handle != 0) {
    fstReaderClrFacProcessMaskAll(ctx);
    fstReaderSetFacProcessMask(ctx, handle);
    fstReaderIterBlocks(
        ctx,
        [](void* user, uint64_t time, fstHandle, const unsigned char* value) {
          static_cast<std::vector<std::pair<uint64_t, char>>*>(user)->emplace_back(
              time, static_cast<char>(value[0]));
        },
        &changes, nullptr);
  }
  fstReaderClose(ctx);
  return changes;
}

// Every signal a save file names: "TOP.x", "+{alias} TOP.x", "+{alias} (n)TOP.x[m:l]",
// "#{name} (n)TOP.x[m:l] ..." (bit n counted from the msb).
struct SignalRef {
  std::string name;
  long bit = -1;
};
std::vector<SignalRef> SignalRefs(const std::string& line) {
  std::vector<SignalRef> refs;
  if (line.empty() || std::string("@-[*^").find(line[0]) != std::string::npos) return refs;
  std::istringstream in(line);
  std::string tok;
  while (in >> tok) {
    if (tok[0] == '+' || tok[0] == '#') continue;  // the alias
    SignalRef r;
    if (tok[0] == '(') {
      const size_t close = tok.find(')');
      r.bit = std::stol(tok.substr(1, close - 1));
      tok = tok.substr(close + 1);
    }
    r.name = tok;
    refs.push_back(r);
  }
  return refs;
}

// Width of "name[msb:lsb]", 1 without a range.
long Width(const std::string& name) {
  const size_t lb = name.rfind('['), colon = name.rfind(':');
  if (lb == std::string::npos || colon == std::string::npos || colon < lb) return 1;
  return std::stoi(name.substr(lb + 1)) - std::stoi(name.substr(colon + 1)) + 1;
}

class GtkwTest : public ::testing::TestWithParam<unsigned> {};

// The save file of a real run references only signals present in the FST, with bit indices
// inside their vectors, and every group (Control, Retire port, AXI4 master and its channels,
// AXI4-Lite slave, each lane) holds at least one of them.
TEST_P(GtkwTest, SignalsExistInFst) {
  const unsigned lanes = GetParam();
  const TestDir dir;
  const fs::path fst = dir / "k.fst", gtkw = dir / "k.gtkw";
  GtkwOptions opts;
  opts.num_lanes = lanes;
  opts.cycles = RunTraced(lanes, fst);
  opts.code.push_back({kCodeBase, 64, {{0, 0, 3}, {16, 0, 4}, {40, 1, 9}}, {"k.cl", "inc.h"}});
  WriteGtkw(gtkw.string(), fst.string(), opts);

  const FstHeader h = ReadFstHeader(fst.string());
  const std::set<std::string> signals(h.signals.begin(), h.signals.end());
  ASSERT_GT(signals.size(), 100u);
  std::istringstream in(ReadText(gtkw));
  std::string line;
  uint64_t flags = 0;
  std::vector<std::pair<std::string, int>> open;  // groups: name, signals inside
  std::vector<std::string> groups;
  int refs = 0;
  while (std::getline(in, line)) {
    if (line[0] == '@') flags = std::stoull(line.substr(1), nullptr, 16);
    if (line[0] == '-' && (flags & (1u << 23))) open.emplace_back(line.substr(1), 0);
    if (line[0] == '-' && (flags & (1u << 24))) {
      ASSERT_FALSE(open.empty()) << line;
      EXPECT_EQ(open.back().first, line.substr(1));
      EXPECT_GT(open.back().second, 0) << "empty group " << open.back().first;
      groups.push_back(open.back().first);
      open.pop_back();
    }
    const std::vector<SignalRef> r = SignalRefs(line);
    for (const SignalRef& s : r) {
      EXPECT_TRUE(signals.count(s.name)) << s.name << " is not in the FST";
      if (s.bit >= 0) {
        EXPECT_LT(s.bit, Width(s.name)) << line.substr(0, 80);
      }
      ++refs;
    }
    if (!r.empty()) {
      for (auto& g : open) ++g.second;
    }
  }
  EXPECT_TRUE(open.empty());
  EXPECT_GT(refs, 60);
  for (const std::string g : {"Control", "Retire port", "AXI4 master", "AR (read address)",
                              "R (read data)", "AW (write address)", "W (write data)",
                              "B (write response)", "AXI4-Lite slave", "Lane 0"}) {
    EXPECT_NE(std::find(groups.begin(), groups.end(), g), groups.end()) << g;
  }
  EXPECT_NE(std::find(groups.begin(), groups.end(), "Lane " + std::to_string(lanes - 1)),
            groups.end());
}

// One clock cycle is 10 ns of FST time (unit 1 ns), and the view opens on the whole run.
TEST_P(GtkwTest, TenNanosecondsPerCycle) {
  const unsigned lanes = GetParam();
  const TestDir dir;
  const fs::path fst = dir / "k.fst", gtkw = dir / "k.gtkw";
  const uint64_t cycles = RunTraced(lanes, fst);
  const FstHeader h = ReadFstHeader(fst.string());
  EXPECT_EQ(h.timescale, -9);
  EXPECT_EQ(h.end_time, cycles * kClockPeriodNs - kClockPeriodNs / 2);
  const auto clk = Changes(fst, "TOP.clk_i");
  ASSERT_GT(clk.size(), 2 * cycles - 4);
  for (const auto& [time, value] : clk) {
    if (time == 0) continue;
    // Rising edges at 10c + 5, falling ones at 10c.
    EXPECT_EQ(time % kClockPeriodNs, value == '1' ? kClockPeriodNs / 2 : 0) << time;
  }
  EXPECT_EQ(kClockPeriodNs, 10u);

  // The zoom puts the whole run into the wave pane: GTKWave draws 200 * 2^zoom pixels per time
  // unit, and the run takes no more than 1000 pixels (and not much less), for the file written
  // without the cycle count (end time read from the FST) and with it.
  for (uint64_t c : {uint64_t{0}, cycles}) {
    GtkwOptions opts;
    opts.num_lanes = lanes;
    opts.cycles = c;
    WriteGtkw(gtkw.string(), fst.string(), opts);
    std::istringstream in(ReadText(gtkw));
    std::string line;
    double zoom = 1e9;
    while (std::getline(in, line)) {
      if (line[0] == '*') zoom = std::stod(line.substr(1));
    }
    ASSERT_NE(zoom, 1e9) << "no zoom line";
    const double pixels =
        200.0 * std::pow(2.0, zoom) * static_cast<double>(cycles * kClockPeriodNs);
    EXPECT_LE(pixels, 1000.0 * 1.0001);
    EXPECT_GE(pixels, 900.0);
  }
}

INSTANTIATE_TEST_SUITE_P(AllWidths, GtkwTest, ::testing::Values(8u, 16u, 32u),
                         [](const ::testing::TestParamInfo<unsigned>& i) {
                           return "simd" + std::to_string(i.param);
                         });

// The .gtkw runs the filter of this build, with the line table written beside it, over the
// concatenation {rvfi_pc_o, rvfi_insn_o}; without code regions over rvfi_insn_o alone.
TEST(GtkwFilterCommandTest, NamesFilterAndLineTable) {
  const TestDir dir;
  const fs::path gtkw = dir / "k.gtkw";
  GtkwOptions opts;
  opts.num_lanes = 8;
  opts.cycles = 100;
  opts.code.push_back({0x2000, 32, {{0, 0, 12}}, {"/src/k.cl"}});
  WriteGtkw(gtkw.string(), (dir / "k.fst").string(), opts);
  const std::string text = ReadText(gtkw);
  const std::string table = fs::absolute(dir / "k.lines").lexically_normal().string();
  EXPECT_EQ(GtkwLineTablePath(gtkw.string()), (dir / "k.lines").string());
  EXPECT_NE(text.find("^>1 " + DefaultGtkwFilter() + " " + table + "\n"), std::string::npos)
      << text.substr(0, 2000);
  EXPECT_NE(text.find("#{instruction} (0)TOP.sgu_top.rvfi_pc_o[31:0]"), std::string::npos);
  EXPECT_TRUE(fs::path(DefaultGtkwFilter()).is_absolute());
  EXPECT_TRUE(fs::exists(DefaultGtkwFilter())) << DefaultGtkwFilter();
  const LineTable t = LineTable::Read(table);
  EXPECT_EQ(t.Lookup(0x2018), "k.cl:12");

  opts.code.clear();
  opts.filter = "/opt/x/sgu-gtkw-filter";
  WriteGtkw(gtkw.string(), (dir / "k.fst").string(), opts);
  const std::string plain = ReadText(gtkw);
  EXPECT_NE(plain.find("^>1 /opt/x/sgu-gtkw-filter\n+{instruction} TOP.sgu_top.rvfi_insn_o[63:0]"),
            std::string::npos);
}

TEST(GtkwLineTableTest, RowsCoverKernelCode) {
  LineTable t;
  // Kernel at 0x4000, 0x40 bytes: lines 5 (0..0x10), none (0x10..0x18), 7 (0x18..0x40).
  t.Add(0x4000, 0x40, {{0, 0, 5}, {0x10, 0, 0}, {0x18, 1, 7}}, {"dir/a.cl", "b.h"});
  EXPECT_EQ(t.Lookup(0x3ff8), "");
  EXPECT_EQ(t.Lookup(0x4000), "a.cl:5");
  EXPECT_EQ(t.Lookup(0x4008), "a.cl:5");
  EXPECT_EQ(t.Lookup(0x4010), "");
  EXPECT_EQ(t.Lookup(0x4018), "b.h:7");
  EXPECT_EQ(t.Lookup(0x4038), "b.h:7");
  EXPECT_EQ(t.Lookup(0x4040), "");
  EXPECT_THROW(t.Add(0, 8, {{0, 2, 1}}, {"a.cl"}), std::invalid_argument);

  const TestDir dir;
  t.Add(0x100, 8, {{0, 0, 1}}, {"with space.cl"});
  t.Write((dir / "t.lines").string());
  const LineTable r = LineTable::Read((dir / "t.lines").string());
  ASSERT_EQ(r.rows().size(), t.rows().size());
  EXPECT_EQ(r.Lookup(0x100), "with space.cl:1");
  EXPECT_EQ(r.Lookup(0x4018), "b.h:7");
  std::ofstream((dir / "bad.lines").string()) << "1000 zz 3 a.cl\n";
  EXPECT_THROW(LineTable::Read((dir / "bad.lines").string()), std::runtime_error);
  EXPECT_THROW(LineTable::Read((dir / "missing.lines").string()), std::runtime_error);
}

// The filter executable, fed as GTKWave feeds it (one hex value per line), answers each line
// with sgu::Disassemble of the word, and " ; file:line" for {pc, word} values of a covered pc.
TEST(GtkwFilterTest, DisassemblesLikeDisassemble) {
  const TestDir dir;
  const Program p = Assemble(
      "  lane v1\n  li s1, 0x9000\n  ffma v4, v1, v2, v3\n  shfl.xor v6, v5, s2\n"
      "  st.i32 [v2 + 0], v3\n  bnz s4, -3\n  halt\n");
  LineTable table;
  table.Add(0x2000, static_cast<uint32_t>(8 * p.words.size()), {{0, 0, 12}, {16, 0, 13}},
            {"/home/u/saxpy.cl"});
  table.Write((dir / "k.lines").string());

  std::vector<std::string> inputs, expected;
  char buf[64];
  for (size_t i = 0; i < p.words.size(); ++i) {
    const uint64_t w = p.words[i];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(w));
    inputs.push_back(buf);  // the word alone
    expected.push_back(Disassemble(w));
    const uint32_t pc = 0x2000 + 8 * static_cast<uint32_t>(i);
    std::snprintf(buf, sizeof buf, "%08x%016llx", pc, static_cast<unsigned long long>(w));
    inputs.push_back(buf);  // {pc, word}
    expected.push_back(Disassemble(w) + " ; saxpy.cl:" + (i < 2 ? "12" : "13"));
  }
  inputs.push_back("000030000000000000000000");  // nothing retired yet
  expected.push_back("-");
  std::snprintf(buf, sizeof buf, "00000100%016llx", static_cast<unsigned long long>(p.words[1]));
  inputs.push_back(buf);  // pc outside the table
  expected.push_back(Disassemble(p.words[1]));
  inputs.push_back("xxxxxxxxxxxxxxxx");  // unknown value: unchanged
  expected.push_back("xxxxxxxxxxxxxxxx");
  std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(p.words[0]));
  inputs.push_back(buf);  // leading zeros dropped
  expected.push_back(Disassemble(p.words[0]));
  {
    std::ofstream in(dir / "in.txt");
    for (const std::string& s : inputs) in << s << "\n";
  }
  const std::string cmd = DefaultGtkwFilter() + " " + (dir / "k.lines").string() + " < " +
                          (dir / "in.txt").string() + " > " + (dir / "out.txt").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::istringstream out(ReadText(dir / "out.txt"));
  std::string line;
  for (size_t i = 0; i < inputs.size(); ++i) {
    ASSERT_TRUE(std::getline(out, line)) << "no answer to " << inputs[i];
    EXPECT_EQ(line, expected[i]) << "input " << inputs[i];
  }
  EXPECT_FALSE(std::getline(out, line)) << "extra output: " << line;

  // Without a line table: disassembly only, also for {pc, word}.
  EXPECT_EQ(FilterValue(inputs[1], nullptr), Disassemble(p.words[0]));
  // A missing line table file: the filter still disassembles (message on stderr).
  const std::string cmd2 = DefaultGtkwFilter() + " " + (dir / "none.lines").string() + " < " +
                           (dir / "in.txt").string() + " > " + (dir / "out2.txt").string() +
                           " 2> " + (dir / "err2.txt").string();
  ASSERT_EQ(std::system(cmd2.c_str()), 0);
  std::istringstream out2(ReadText(dir / "out2.txt"));
  ASSERT_TRUE(std::getline(out2, line));
  EXPECT_EQ(line, Disassemble(p.words[0]));
  EXPECT_NE(ReadText(dir / "err2.txt").find("none.lines"), std::string::npos);
}

}  // namespace
}  // namespace sgu::tb
