// SPDX-License-Identifier: Apache-2.0
// `sgu run`, `sgu compile` and `sgu disasm` as a user meets them: the built tool run as a
// subprocess on .sgubin files written here from the hand-written kernels of test_kernels.h.
// Every bad input gets one clear message on stderr, a non-zero exit status and no output folder.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sgu/binary.h"
#include "test_kernels.h"

#ifndef SGU_TOOL
#error "SGU_TOOL must name the sgu executable"
#endif

namespace sgu::driver {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  int exit = -1;
  std::string out, err;
};

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string Slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void Spit(const fs::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary);
  f << bytes;
}

std::string Words(const std::vector<uint32_t>& w) {
  std::string b(w.size() * 4, '\0');
  std::memcpy(b.data(), w.data(), b.size());
  return b;
}

size_t Lines(const std::string& s) {
  size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* t = std::getenv("TMPDIR");
    std::string tmpl = std::string(t && *t ? t : "/tmp") + "/sgu_cli_test.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    Kernel reqd = testing::ScaleKernel();
    reqd.name = "scale8";
    reqd.required_simd = 8;
    const Binary bin = testing::MakeBinary({testing::ScaleKernel(), testing::FaultKernel(),
                                            testing::ImageAddKernel(), testing::LocalMixKernel(),
                                            reqd});
    Spit(dir_ / "k.sgubin", WriteBinary(bin));
    Spit(dir_ / "scale.sgubin", WriteBinary(testing::MakeBinary({testing::ScaleKernel()})));
    std::vector<uint32_t> in(64);
    for (uint32_t i = 0; i < 64; ++i) in[i] = 3 * i + 1;
    Spit(dir_ / "in.bin", Words(in));
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `sgu ARGS...` in the test's directory.
  Outcome Sgu(const std::vector<std::string>& args) {
    std::string cmd = "cd " + Quote(dir_.string()) + " && " + Quote(SGU_TOOL);
    for (const std::string& a : args) cmd += " " + Quote(a);
    cmd += " >stdout.txt 2>stderr.txt";
    const int rc = std::system(cmd.c_str());
    Outcome o;
    o.exit = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    o.out = Slurp(dir_ / "stdout.txt");
    o.err = Slurp(dir_ / "stderr.txt");
    return o;
  }

  // The scale kernel's good command line, plus `extra`.
  std::vector<std::string> Scale(std::vector<std::string> extra = {}) {
    std::vector<std::string> a = {"run", "k.sgubin", "--kernel", "scale", "--global", "64",
                                  "--local", "16", "--arg", "in=@in.bin", "--arg",
                                  "out=zeros:256", "--arg", "n=int:-5"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  }

  // Nothing named out* (the output folder or a temporary sibling) was left in the directory.
  void ExpectNoOutputFolder() {
    for (const auto& e : fs::directory_iterator(dir_)) {
      EXPECT_NE(e.path().filename().string().rfind("results", 0), 0u)
          << "left behind: " << e.path();
    }
  }

  fs::path dir_;
};

// One clear message: a single line on stderr, nothing on stdout.
#define EXPECT_ONE_MESSAGE(o, code, text)                                      \
  do {                                                                         \
    EXPECT_EQ((o).exit, code) << (o).err;                                      \
    EXPECT_NE((o).err.find(text), std::string::npos) << (o).err;               \
    EXPECT_EQ(Lines((o).err), 1u) << (o).err;                                  \
    EXPECT_EQ((o).out, "") << (o).out;                                         \
  } while (0)

TEST_F(CliTest, RunsAndWritesOutputs) {
  const Outcome o = Sgu(Scale({"--out", "results/", "--json"}));
  ASSERT_EQ(o.exit, 0) << o.err;
  EXPECT_EQ(o.err, "");
  for (const char* key : {"\"status\": \"ok\"", "\"backend\": \"golden\"", "\"simd\": 16",
                          "\"cycles\": ", "\"instructions\": ", "\"diagnostics\": []",
                          "\"kernel\": \"scale\"", "\"global\": [64]", "\"local\": [16]",
                          "\"sub_groups\": 4", "\"out\": \"results/out.bin\""}) {
    EXPECT_NE(o.out.find(key), std::string::npos) << key << " in " << o.out;
  }
  EXPECT_EQ(Lines(o.out), 1u);
  const std::string out = Slurp(dir_ / "results" / "out.bin");
  ASSERT_EQ(out.size(), 256u);
  for (uint32_t i = 0; i < 64; ++i) {
    int32_t v;
    std::memcpy(&v, out.data() + 4 * i, 4);
    ASSERT_EQ(v, int32_t(2 * (3 * i + 1) - 5)) << i;
  }
  EXPECT_EQ(Slurp(dir_ / "results" / "in.bin"), Slurp(dir_ / "in.bin"));
}

TEST_F(CliTest, HumanSummary) {
  const Outcome o = Sgu(Scale());
  ASSERT_EQ(o.exit, 0) << o.err;
  EXPECT_NE(o.out.find("scale on golden at SIMD16: ok\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("4 of 4 sub-groups"), std::string::npos) << o.out;
}

// An existing --out folder: the result files are replaced, everything else is kept.
TEST_F(CliTest, ExistingOutFolderKeepsOtherFiles) {
  fs::create_directory(dir_ / "results");
  Spit(dir_ / "results" / "keep.txt", "mine");
  Spit(dir_ / "results" / "out.bin", "old");
  const Outcome o = Sgu(Scale({"--out", "results/"}));
  ASSERT_EQ(o.exit, 0) << o.err;
  EXPECT_EQ(Slurp(dir_ / "results" / "keep.txt"), "mine");
  EXPECT_EQ(Slurp(dir_ / "results" / "out.bin").size(), 256u);
  for (const auto& e : fs::directory_iterator(dir_)) {
    const std::string name = e.path().filename().string();
    EXPECT_TRUE(name == "results" || name.rfind("results", 0) != 0) << "left behind: " << name;
  }
}

TEST_F(CliTest, CosimWithTraceAndImages) {
  std::vector<uint32_t> px(10 * 6);
  for (uint32_t i = 0; i < px.size(); ++i) px[i] = i * 11;
  Spit(dir_ / "px.bin", Words(px));
  const Outcome o = Sgu({"run", "k.sgubin", "--kernel", "image_add", "--simd", "8", "--global",
                         "10,6", "--local", "5,3", "--arg", "src=image:10x6:r32:@px.bin", "--arg",
                         "dst=image:10x6:r32", "--backend", "cosim", "--trace", "k.fst", "--out",
                         "results", "--json"});
  ASSERT_EQ(o.exit, 0) << o.err << o.out;
  EXPECT_NE(o.out.find("\"backend\": \"cosim\""), std::string::npos) << o.out;
  EXPECT_TRUE(fs::exists(dir_ / "k.fst"));
  EXPECT_TRUE(fs::exists(dir_ / "k.gtkw"));
  const std::string dst = Slurp(dir_ / "results" / "dst.bin");
  ASSERT_EQ(dst.size(), 240u);
  for (uint32_t y = 0; y < 6; ++y) {
    for (uint32_t x = 0; x < 10; ++x) {
      uint32_t v;
      std::memcpy(&v, dst.data() + 4 * (y * 10 + x), 4);
      ASSERT_EQ(v, px[y * 10 + x] + 1000 * x + y);
    }
  }
}

TEST_F(CliTest, RequiredSubGroupSizeWins) {
  Outcome o = Sgu({"run", "k.sgubin", "--kernel", "scale8", "--global", "16", "--arg",
                   "in=@in.bin", "--arg", "out=zeros:64", "--arg", "n=int:1", "--json"});
  ASSERT_EQ(o.exit, 0) << o.err;
  EXPECT_NE(o.out.find("\"simd\": 8"), std::string::npos) << o.out;
  o = Sgu({"run", "k.sgubin", "--kernel", "scale8", "--simd", "16", "--global", "16", "--arg",
           "in=@in.bin", "--arg", "out=zeros:64", "--arg", "n=int:1", "--out", "results"});
  EXPECT_ONE_MESSAGE(o, 1, "requires a sub-group size of 8 but --simd 16 was given");
  ExpectNoOutputFolder();
}

// ---- bad input ------------------------------------------------------------------------------

TEST_F(CliTest, UnknownOption) {
  EXPECT_ONE_MESSAGE(Sgu(Scale({"--bogus"})), 2, "unknown option '--bogus'");
  EXPECT_ONE_MESSAGE(Sgu({"frobnicate"}), 2, "unknown command 'frobnicate'");
  EXPECT_ONE_MESSAGE(Sgu(Scale({"--backend", "fpga"})), 2, "unknown backend 'fpga'");
  EXPECT_ONE_MESSAGE(Sgu(Scale({"--simd", "12"})), 2, "--simd must be 8, 16 or 32");
  EXPECT_ONE_MESSAGE(Sgu(Scale({"--trace", "k.fst"})), 2, "--trace needs --backend rtl or cosim");
  EXPECT_ONE_MESSAGE(Sgu({"run", "k.sgubin", "--kernel", "scale"}), 2, "--global");
  EXPECT_ONE_MESSAGE(Sgu(Scale({"--global", "1,2,3,4"})), 2, "1 to 3 sizes");
}

TEST_F(CliTest, MissingOrUnreadableFile) {
  EXPECT_ONE_MESSAGE(Sgu({"run", "nope.sgubin", "--global", "16", "--out", "results"}), 1,
                     "cannot open 'nope.sgubin'");
  ExpectNoOutputFolder();
  fs::create_directory(dir_ / "adir.sgubin");
  const Outcome o = Sgu({"run", "adir.sgubin", "--global", "16"});
  EXPECT_EQ(o.exit, 1);
  EXPECT_NE(o.err.find("adir.sgubin"), std::string::npos) << o.err;
  EXPECT_ONE_MESSAGE(Sgu(Scale({"--arg", "in=@missing.bin"})), 2, "given twice");
  const Outcome m = Sgu({"run", "k.sgubin", "--kernel", "scale", "--global", "64", "--arg",
                         "in=@missing.bin", "--arg", "out=zeros:256", "--arg", "n=int:1"});
  EXPECT_ONE_MESSAGE(m, 1, "cannot open 'missing.bin'");
  Spit(dir_ / "bad.sgubin", "SGUBIN but not really");
  const Outcome b = Sgu({"run", "bad.sgubin", "--global", "16"});
  EXPECT_EQ(b.exit, 1) << b.err;
  EXPECT_EQ(Lines(b.err), 1u) << b.err;
}

TEST_F(CliTest, ArgumentNamingNoParameter) {
  const Outcome o = Sgu(Scale({"--arg", "bogus=int:1", "--out", "results"}));
  EXPECT_ONE_MESSAGE(o, 1, "kernel 'scale' has no parameter 'bogus'");
  EXPECT_NE(o.err.find("in (const int*), out (int*), n (int)"), std::string::npos) << o.err;
  ExpectNoOutputFolder();
}

TEST_F(CliTest, MissingArgument) {
  const Outcome o = Sgu({"run", "k.sgubin", "--kernel", "scale", "--global", "64", "--arg",
                         "in=@in.bin", "--arg", "out=zeros:256", "--out", "results"});
  EXPECT_ONE_MESSAGE(o, 1, "missing argument for parameter 'n' (int, scalar)");
  EXPECT_NE(o.err.find("--arg n=int:VALUE"), std::string::npos) << o.err;
  ExpectNoOutputFolder();
}

TEST_F(CliTest, KernelSelection) {
  EXPECT_ONE_MESSAGE(Sgu({"run", "k.sgubin", "--global", "16"}), 1,
                     "holds 5 kernels (scale, fault, image_add, local_mix, scale8)");
  EXPECT_ONE_MESSAGE(Sgu({"run", "k.sgubin", "--kernel", "nope", "--global", "16"}), 1,
                     "no kernel 'nope'");
}

TEST_F(CliTest, BadArgumentSpecs) {
  Spit(dir_ / "seven.bin", "1234567");
  Spit(dir_ / "empty.bin", "");
  struct Case {
    std::string arg;
    int exit;
    std::string text;
  };
  const std::vector<Case> cases = {
      {"in=@seven.bin", 1, "not a whole number of 4-byte elements"},
      {"in=@empty.bin", 1, "is empty"},
      {"in=zeros:abc", 2, "bad --arg in=zeros:abc: zeros:BYTES"},
      {"in=zeros:0", 2, "at least 1 byte"},
      {"in=int:4", 2, "takes @FILE or zeros:BYTES"},
      {"in=image:4x4:r8", 2, "takes @FILE or zeros:BYTES"},
      {"n=@in.bin", 1, "holds 256 bytes but parameter 'n' (int, scalar) takes exactly 4"},
      {"n=int:2147483648", 2, "is not a int (-2147483648..2147483647)"},
      {"n=uint:-1", 2, "is not a uint"},
      {"n=long:1", 2, "a long does not fit parameter 'n'"},
      {"n=float:1.5", 2, "is an integer"},
      {"n=int:12abc", 2, "is not a int"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> a = {"run", "k.sgubin", "--kernel", "scale", "--global", "64",
                                  "--arg", "in=@in.bin", "--arg", "out=zeros:256", "--arg",
                                  "n=int:1", "--out", "results"};
    // Replace the argument of the same name.
    const std::string name = c.arg.substr(0, c.arg.find('='));
    for (std::string& s : a) {
      if (s.rfind(name + "=", 0) == 0) s = c.arg;
    }
    const Outcome o = Sgu(a);
    SCOPED_TRACE(c.arg);
    EXPECT_ONE_MESSAGE(o, c.exit, c.text);
  }
  ExpectNoOutputFolder();
}

TEST_F(CliTest, ImageOfTheWrongSize) {
  Spit(dir_ / "px.bin", std::string(100, '\0'));
  const Outcome o =
      Sgu({"run", "k.sgubin", "--kernel", "image_add", "--global", "10,6", "--arg",
           "src=image:10x6:r32:@px.bin", "--arg", "dst=image:10x6:r32", "--out", "results"});
  EXPECT_ONE_MESSAGE(o, 1, "'px.bin' has 100 bytes; a 10x6 r32 image needs 240");
  EXPECT_ONE_MESSAGE(Sgu({"run", "k.sgubin", "--kernel", "image_add", "--global", "10,6",
                          "--arg", "src=image:10x6:bgr8", "--arg", "dst=image:10x6:r32"}),
                     2, "unknown image format 'bgr8'");
  ExpectNoOutputFolder();
}

TEST_F(CliTest, LocalSizeNotDividingGlobalSize) {
  const Outcome o = Sgu({"run", "k.sgubin", "--kernel", "scale", "--global", "60", "--local",
                         "16", "--arg", "in=@in.bin", "--arg", "out=zeros:256", "--arg",
                         "n=int:1", "--out", "results"});
  EXPECT_ONE_MESSAGE(o, 1, "local size 16 does not divide global size 60");
  ExpectNoOutputFolder();
}

TEST_F(CliTest, BarrierKernelWithSeveralSubGroups) {
  const Outcome o = Sgu({"run", "k.sgubin", "--kernel", "local_mix", "--global", "64", "--local",
                         "64", "--arg", "out=zeros:256", "--arg", "tmp=local:256"});
  EXPECT_ONE_MESSAGE(o, 1, "uses a work-group barrier()");
  EXPECT_NE(o.err.find("at most 16 work-items"), std::string::npos) << o.err;
}

TEST_F(CliTest, KernelFaultAtRunTime) {
  for (const char* backend : {"golden", "rtl", "cosim"}) {
    const Outcome o = Sgu({"run", "k.sgubin", "--kernel", "fault", "--global", "32", "--arg",
                           "out=zeros:64", "--arg", "n=int:16", "--backend", backend, "--out",
                           "results"});
    SCOPED_TRACE(backend);
    EXPECT_EQ(o.exit, 1) << o.err;
    EXPECT_EQ(Lines(o.err), 1u) << o.err;
    for (const char* text : {"fault: StoreBusError", "fault.cl:7", "buffer 'out', past its end",
                             "work-group (0,0,0) sub-group 0"}) {
      EXPECT_NE(o.err.find(text), std::string::npos) << text << " in " << o.err;
    }
    ExpectNoOutputFolder();
  }
  const Outcome j = Sgu({"run", "k.sgubin", "--kernel", "fault", "--global", "32", "--arg",
                         "out=zeros:64", "--arg", "n=int:16", "--json"});
  EXPECT_EQ(j.exit, 1);
  EXPECT_NE(j.out.find("\"status\": \"fault\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"cause\": \"StoreBusError\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"buffer\": \"out\""), std::string::npos) << j.out;
}

TEST_F(CliTest, DisasmOfAProgram) {
  const Outcome o = Sgu({"disasm", "k.sgubin", "--kernel", "fault"});
  ASSERT_EQ(o.exit, 0) << o.err;
  EXPECT_NE(o.out.find("kernel fault"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("arg out"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("st [v3], v1"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("# fault.cl:7"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("kernel scale"), std::string::npos);
  const Outcome all = Sgu({"disasm", "k.sgubin"});
  EXPECT_NE(all.out.find("kernel scale"), std::string::npos);
  EXPECT_NE(all.out.find("constant data: 16 bytes"), std::string::npos);
}

// Compiler errors reach the user as the compiler words them (needs clang-15 / llvm-spirv-15).
TEST_F(CliTest, KernelThatDoesNotCompile) {
  Spit(dir_ / "bad.cl", "kernel void k(global int* out) {\n  out[0] = undeclared_thing;\n}\n");
  const Outcome o = Sgu({"run", "bad.cl", "--global", "16", "--arg", "out=zeros:64", "--out",
                         "results"});
  EXPECT_EQ(o.exit, 1) << o.err;
  EXPECT_NE(o.err.find("undeclared_thing"), std::string::npos) << o.err;
  EXPECT_EQ(o.out, "");
  ExpectNoOutputFolder();
  const Outcome c = Sgu({"compile", "bad.cl", "-o", "bad.sgubin"});
  EXPECT_EQ(c.exit, 1) << c.err;
  EXPECT_FALSE(fs::exists(dir_ / "bad.sgubin"));
  Spit(dir_ / "junk.spv", std::string("\x03\x02\x23\x07junkjunkjunk", 16));
  const Outcome s = Sgu({"run", "junk.spv", "--global", "16"});
  EXPECT_EQ(s.exit, 1) << s.err;
  EXPECT_FALSE(s.err.empty());
}

// `sgu disasm` on a SPIR-V module prints SPIRV-Tools' disassembly.
TEST_F(CliTest, DisasmOfSpirv) {
  Spit(dir_ / "k.cl", "kernel void k(global int* out) { out[get_global_id(0)] = 7; }\n");
  const Outcome c = Sgu({"compile", "k.cl", "-o", "k.sgubin", "--spirv", "k.spv"});
  ASSERT_EQ(c.exit, 0) << c.err;
  const Outcome d = Sgu({"disasm", "k.spv"});
  EXPECT_EQ(d.exit, 0) << d.err;
  EXPECT_NE(d.out.find("OpEntryPoint Kernel"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("OpStore"), std::string::npos) << d.out;
}

// --no-schedule: the same instructions in the lowering's order, the same results; with a
// .sgubin, which is already compiled, a usage error.
TEST_F(CliTest, NoSchedule) {
  Spit(dir_ / "m.cl",
       "kernel void k(global const uint* in, global uint* out) {\n"
       "  size_t i = get_global_id(0); uint a = in[i], b = a ^ 5u, c = 1u;\n"
       "  for (int j = 0; j < 4; ++j) { a = a * 3u + 1u; b = b * 7u; c = c ^ (a + b); }\n"
       "  out[i] = a + b + c;\n}\n");
  ASSERT_EQ(Sgu({"compile", "m.cl", "-o", "on.sgubin"}).exit, 0);
  const Outcome c = Sgu({"compile", "m.cl", "-o", "off.sgubin", "--no-schedule"});
  ASSERT_EQ(c.exit, 0) << c.err;
  const Binary on = ReadBinary(Slurp(dir_ / "on.sgubin"));
  const Binary off = ReadBinary(Slurp(dir_ / "off.sgubin"));
  ASSERT_EQ(on.kernels.size(), 1u);
  ASSERT_EQ(off.kernels.size(), 1u);
  EXPECT_EQ(on.kernels[0].code.size(), off.kernels[0].code.size());
  EXPECT_NE(on.kernels[0].code, off.kernels[0].code);
  const std::vector<std::string> run = {"--global", "64", "--arg", "in=@in.bin", "--arg",
                                        "out=zeros:256"};
  std::vector<std::string> a = {"run", "m.cl", "--out", "res_on"}, b = a;
  a.insert(a.end(), run.begin(), run.end());
  b[3] = "res_off";
  b.push_back("--no-schedule");
  b.insert(b.end(), run.begin(), run.end());
  ASSERT_EQ(Sgu(a).exit, 0);
  const Outcome r = Sgu(b);
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_EQ(Slurp(dir_ / "res_on" / "out.bin"), Slurp(dir_ / "res_off" / "out.bin"));
  const Outcome bad = Sgu(Scale({"--no-schedule"}));
  EXPECT_ONE_MESSAGE(bad, 2, "--no-schedule applies when compiling");
}

// Valid OpenCL C that the SGU compiler cannot translate: one message naming the built-in and
// the source line, exit 1, no output.
TEST_F(CliTest, KernelTheCompilerCannotHandle) {
  Spit(dir_ / "reduce.cl",
       "kernel void k(global const int* in, global int* out) {\n"
       "  size_t i = get_global_id(0);\n"
       "  out[i] = sub_group_reduce_add(in[i]);\n}\n");
  Outcome o = Sgu({"run", "reduce.cl", "--global", "16", "--arg", "in=zeros:64", "--arg",
                   "out=zeros:64", "--out", "results"});
  EXPECT_ONE_MESSAGE(o, 1, "reduce.cl:3: error: kernel 'k': sub_group_reduce");
  ExpectNoOutputFolder();
  Spit(dir_ / "sqrt.cl",
       "kernel void k(global float* a) {\n  a[get_global_id(0)] = sqrt(a[0]);\n}\n");
  o = Sgu({"compile", "sqrt.cl", "-o", "sqrt.sgubin"});
  EXPECT_ONE_MESSAGE(o, 1, "sqrt.cl:2: error: kernel 'k': OpenCL built-in function 'sqrt'");
  EXPECT_FALSE(fs::exists(dir_ / "sqrt.sgubin"));
}

}  // namespace
}  // namespace sgu::driver
