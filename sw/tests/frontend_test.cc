// SPDX-License-Identifier: Apache-2.0
// The OpenCL C front end with the real clang-15 and llvm-spirv-15: kernels compile to SPIR-V
// that validates and carries the expected operations and source lines; build options take
// effect or are rejected; clang's diagnostics come back verbatim; the SGU kernel header's
// built-ins (Intel 8/16/64-bit block I/O, media block I/O, qcom shuffles) compile; `freeze`
// is removed; SPIR-V files are read in either byte order; SPIRV-Tools validates and
// disassembles.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "frontend.h"
#include "sgu/compiler.h"
#include "spirv/unified1/OpenCLDebugInfo100.h"
#include "spirv/unified1/spirv.hpp"

namespace sgu::compiler {
namespace {

namespace fs = std::filesystem;

// Each test gets its own directory for kernel files, removed afterwards.
class FrontEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "sgu-fe-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Writes `source` to DIR/name and returns the path.
  std::string Write(const std::string& name, const std::string& source) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << source;
    return path;
  }

  // Compiles, validates and disassembles.
  std::string Compile(const std::string& source, Options opts = {},
                      const std::string& name = "k.cl") {
    const std::vector<uint32_t> words = OpenClToSpirv(Write(name, source), opts);
    ValidateSpirv(words);
    return DisassembleSpirv(words);
  }

  // The CompileError message of compiling `source`, or "" if it compiles.
  std::string ErrorOf(const std::string& source, Options opts = {},
                      const std::string& name = "k.cl") {
    try {
      OpenClToSpirv(Write(name, source), opts);
    } catch (const CompileError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

bool Has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

Options NoDebug() {
  Options o;
  o.debug_info = false;
  return o;
}

Options With(std::vector<std::string> build_options) {
  Options o;
  o.build_options = std::move(build_options);
  return o;
}

const char kShuffleKernel[] =
    "__attribute__((intel_reqd_sub_group_size(16)))\n"                             // 1
    "kernel void shuf(global float* out, global const float* in, uint delta) {\n"  // 2
    "  uint i = get_global_id(0);\n"                                               // 3
    "  float x = in[i];\n"                                                         // 4
    "  float y = intel_sub_group_shuffle(x, (i + delta) & 15);\n"                  // 5
    "  out[i] = y + intel_sub_group_shuffle_down(x, x, 3u);\n"                     // 6
    "}\n";

// ---- the pipeline --------------------------------------------------------------------------

TEST_F(FrontEnd, IntelShuffleKernelBecomesValidSpirv) {
  const std::string dis = Compile(kShuffleKernel);
  EXPECT_TRUE(Has(dis, "OpCapability SubgroupShuffleINTEL")) << dis;
  EXPECT_TRUE(Has(dis, "OpExtension \"SPV_INTEL_subgroups\""));
  EXPECT_TRUE(Has(dis, "OpSubgroupShuffleINTEL %float")) << dis;
  EXPECT_TRUE(Has(dis, "OpSubgroupShuffleDownINTEL %float"));
  EXPECT_TRUE(std::regex_search(dis, std::regex("OpEntryPoint Kernel %\\w+ \"shuf\"")));
  EXPECT_TRUE(std::regex_search(dis, std::regex("OpExecutionMode %\\w+ SubgroupSize 16")));
  EXPECT_TRUE(Has(dis, "OpMemoryModel Physical32 OpenCL"));  // -target spir: 32-bit pointers
}

TEST_F(FrontEnd, DebugInfoGivesOpLineWithFileAndLine) {
  const std::string dis = Compile(kShuffleKernel);
  const std::string path = (dir_ / "k.cl").string();
  // The file as an OpString, every OpLine naming it.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(dis, m, std::regex("(%\\w+) = OpString \"([^\"]*k\\.cl)\"")))
      << dis;
  EXPECT_EQ(fs::path(m[2].str()), fs::path(path));
  const std::string file_id = m[1];
  EXPECT_GT(Count(dis, "OpLine " + file_id + " "), 5u);
  // The last OpLine before the shuffle points at line 5, the one before shuffle_down at 6.
  const size_t shuffle = dis.find("OpSubgroupShuffleINTEL");
  const size_t line = dis.rfind("OpLine ", shuffle);
  ASSERT_NE(line, std::string::npos);
  EXPECT_EQ(dis.substr(line, dis.find('\n', line) - line).rfind("OpLine " + file_id + " 5 ", 0), 0u)
      << dis.substr(line, 40);
  const size_t down = dis.find("OpSubgroupShuffleDownINTEL");
  const size_t line6 = dis.rfind("OpLine ", down);
  EXPECT_EQ(dis.compare(line6, ("OpLine " + file_id + " 6 ").size(), "OpLine " + file_id + " 6 "),
            0)
      << dis.substr(line6, 40);
  // The translator's OpenCL.DebugInfo.100 instructions are gone (SPIRV-Tools cannot take them).
  EXPECT_FALSE(Has(dis, "OpenCL.DebugInfo.100"));
  EXPECT_FALSE(Has(dis, "DebugTypePointer"));
}

TEST_F(FrontEnd, WithoutDebugInfoThereIsNoOpLine) {
  const std::string dis = Compile(kShuffleKernel, NoDebug());
  EXPECT_FALSE(Has(dis, "OpLine"));
  EXPECT_TRUE(Has(dis, "OpSubgroupShuffleINTEL"));
}

TEST_F(FrontEnd, KernelParametersKeepTheirNames) {
  const std::string dis = Compile(kShuffleKernel, NoDebug());
  // The entry point's own parameters (llvm-spirv-15 wraps the kernel body in a second function).
  std::smatch m;
  ASSERT_TRUE(std::regex_search(dis, m, std::regex("OpEntryPoint Kernel (%\\w+) \"shuf\"")));
  const std::string entry = m[1];
  const size_t body = dis.find(entry + " = OpFunction ");
  ASSERT_NE(body, std::string::npos) << dis;
  const std::string params = dis.substr(body, dis.find("OpLabel", body) - body);
  EXPECT_TRUE(Has(params, "%out = OpFunctionParameter")) << params;
  EXPECT_TRUE(Has(params, "%in = OpFunctionParameter")) << params;
  EXPECT_TRUE(Has(params, "%delta = OpFunctionParameter")) << params;
}

TEST_F(FrontEnd, KhronosSubGroupOperations) {
  const std::string dis = Compile(
      "kernel void k(global uint* out, global const uint* in) {\n"
      "  uint i = get_global_id(0);\n"
      "  uint x = in[i];\n"
      "  uint a = sub_group_shuffle(x, 3) + sub_group_shuffle_xor(x, 1) +\n"
      "           sub_group_shuffle_up(x, 1) + sub_group_shuffle_down(x, 2);\n"
      "  a += sub_group_broadcast(x, 0) + sub_group_reduce_add(x) + sub_group_any(x > 3);\n"
      "  a += sub_group_ballot_bit_count(sub_group_ballot(x > 2));\n"
      "  out[i] = a + get_sub_group_local_id() + get_max_sub_group_size();\n"
      "}\n");
  for (const char* op :
       {"OpGroupNonUniformShuffle ", "OpGroupNonUniformShuffleXor", "OpGroupNonUniformShuffleUp",
        "OpGroupNonUniformShuffleDown", "OpGroupBroadcast", "OpGroupIAdd", "OpGroupAny",
        "OpGroupNonUniformBallot ", "OpGroupNonUniformBallotBitCount"}) {
    EXPECT_TRUE(Has(dis, op)) << op;
  }
  EXPECT_TRUE(Has(dis, "; Version: 1.3"));
}

TEST_F(FrontEnd, FreezeIsRemoved) {
  // DivRemPairs turns i / w and i % w into a division and a multiply-subtract on frozen
  // operands: llvm-spirv-15 rejects the raw IR of this kernel.
  const std::string dis = Compile(
      "kernel void k(global int* out, int w) {\n"
      "  int i = get_global_id(0);\n"
      "  out[i] = i % w + 3 * (i / w);\n"
      "  uint4 u = vload4(i, (global const uint*)out);\n"
      "  vstore4(u / (uint)w + u % (uint)w, i + 1, (global uint*)out);\n"
      "}\n");
  EXPECT_TRUE(Has(dis, "OpSDiv"));
  EXPECT_TRUE(Has(dis, "OpUDiv %v4uint"));
}

TEST_F(FrontEnd, HelperFunctionsAreInlined) {
  // The SGU compiler expects clang's inlining: no call from the kernel body to a helper. The
  // switch on x % 5 becomes an i3 value without native widths in the data layout, which
  // llvm-spirv-15 rejects.
  const std::string dis = Compile(
      "float helper(float x, float y) { return x * y + 1.0f; }\n"
      "inline int twice(int x) { return 2 * x; }\n"
      "int pick(int x) {\n"
      "  switch (x % 5) { case 0: return 3; case 1: return 7; case 2: return 11;\n"
      "                   case 3: return 2; default: return 9; }\n"
      "}\n"
      "kernel void k(global float* o, global int* q) {\n"
      "  uint i = get_global_id(0);\n"
      "  o[i] = helper(o[i], o[i + 1]);\n"
      "  q[i] = pick(q[i]) + twice(q[i + 1]);\n"
      "}\n");
  EXPECT_FALSE(std::regex_search(dis, std::regex("OpFunctionCall %\\w+ %(helper|pick|twice)")))
      << dis;
  EXPECT_EQ(Count(dis, "OpFunctionCall"), 1u) << dis;  // the entry point calling the kernel
}

// ---- build options -------------------------------------------------------------------------

TEST_F(FrontEnd, DefineTakesEffect) {
  const char src[] =
      "#ifndef SCALE\n#error SCALE is not defined\n#endif\n"
      "kernel void k(global uint* out) { out[get_global_id(0)] = SCALE * TWO; }\n";
  const std::string dis = Compile(src, With({"-DSCALE=12345", "-D", "TWO=2"}));
  EXPECT_TRUE(Has(dis, "OpConstant %uint 24690")) << dis;
  // Several options in one string, as clBuildProgram takes them.
  EXPECT_TRUE(Has(Compile(src, With({"-D SCALE=7 -DTWO=3"})), "OpConstant %uint 21"));
  // Without it, the kernel's own #error.
  const std::string err = ErrorOf(src, With({"-DTWO=1"}));
  EXPECT_TRUE(Has(err, "error: SCALE is not defined")) << err;
}

TEST_F(FrontEnd, IncludeDirectory) {
  fs::create_directory(dir_ / "inc");
  Write("inc/params.h", "#define WIDTH 37\n");
  const std::string src =
      "#include \"params.h\"\nkernel void k(global uint* o) { o[0] = WIDTH; }\n";
  EXPECT_TRUE(Has(Compile(src, With({"-I", (dir_ / "inc").string()})), "OpConstant %uint 37"));
  EXPECT_TRUE(Has(ErrorOf(src), "'params.h' file not found"));
}

TEST_F(FrontEnd, ClStdSelectsTheLanguageAndOpenClVersion) {
  const char src[] =
      "kernel void k(global uint* o) { o[0] = __OPENCL_VERSION__ * 1000 + "
      "__OPENCL_C_VERSION__; }\n";
  EXPECT_TRUE(Has(Compile(src), "OpConstant %uint 200200"));  // the default: OpenCL C 2.0
  EXPECT_TRUE(Has(Compile(src, With({"-cl-std=CL1.2"})), "OpConstant %uint 120120"));
  EXPECT_TRUE(Has(Compile(src, With({"-cl-std=cl3.0"})), "OpConstant %uint 300300"));
  // A kernel's own __OPENCL_VERSION__ wins.
  EXPECT_TRUE(Has(Compile(src, With({"-D__OPENCL_VERSION__=210"})), "OpConstant %uint 210200"));
}

TEST_F(FrontEnd, MathAndWarningOptionsPassThrough) {
  const char src[] =
      "kernel void k(global int* o) { int x; if (x = o[1]) o[0] = x * o[2] + o[3]; }\n";
  EXPECT_NO_THROW(Compile(src, With({"-cl-fast-relaxed-math -cl-mad-enable -cl-finite-math-only "
                                     "-cl-no-signed-zeros -cl-unsafe-math-optimizations "
                                     "-cl-denorms-are-zero -cl-single-precision-constant "
                                     "-cl-opt-disable -cl-kernel-arg-info -w -g"})));
  const std::string err = ErrorOf(src, With({"-Werror"}));
  EXPECT_TRUE(Has(err, "using the result of an assignment as a condition")) << err;
  EXPECT_TRUE(Has(err, "[-Werror,-Wparentheses]")) << err;
  EXPECT_NO_THROW(Compile(src, With({"-Werror", "-w"})));
}

TEST_F(FrontEnd, UnknownOptionIsRejectedWithTheAcceptedOnes) {
  const char src[] = "kernel void k(global int* o) { o[0] = 1; }\n";
  std::string err = ErrorOf(src, With({"-cl-fast-relaxed-math", "-fbogus"}));
  EXPECT_TRUE(Has(err, "unknown build option '-fbogus'")) << err;
  EXPECT_TRUE(Has(err, "-cl-fast-relaxed-math")) << err;
  EXPECT_TRUE(Has(err, "-cl-std=")) << err;
  EXPECT_TRUE(Has(ErrorOf(src, With({"-cl-std=CL9.9"})), "-cl-std=CL9.9"));
  EXPECT_TRUE(Has(ErrorOf(src, With({"-cl-std=clc++"})), "unsupported OpenCL C version"));
  EXPECT_TRUE(Has(ErrorOf(src, With({"-D"})), "option -D needs an argument"));
  EXPECT_TRUE(Has(ErrorOf(src, With({"-D1X=2"})), "is not a macro name"));
  EXPECT_TRUE(Has(ErrorOf(src, With({"-DA=\"unterminated"})), "unterminated quote"));
  // Options are checked before anything runs: no file needed.
  EXPECT_THROW(OpenClToSpirv(Write("x.cl", src), With({"-O3"})), CompileError);
}

TEST(BuildOptions, SplitLikeClBuildProgram) {
  using internal::SplitOptions;
  EXPECT_EQ(SplitOptions("  -DA=1\t-D B  "), (std::vector<std::string>{"-DA=1", "-D", "B"}));
  EXPECT_EQ(SplitOptions("-DMSG=\"a b\" -I'/x y'"),
            (std::vector<std::string>{"-DMSG=a b", "-I/x y"}));
  EXPECT_EQ(SplitOptions("-DQ=\\\"q\\\""), (std::vector<std::string>{"-DQ=\"q\""}));
  EXPECT_EQ(SplitOptions(""), std::vector<std::string>{});
  const internal::BuildOptions b =
      internal::ParseBuildOptions({"-cl-std=CL1.2 -DX", "-I", "dir", "-cl-denorms-are-zero"});
  EXPECT_EQ(b.cl_std, "CL1.2");
  EXPECT_EQ(b.opencl_version, 120);
  EXPECT_EQ(b.clang_args, (std::vector<std::string>{"-DX", "-Idir"}));  // denorms: dropped
}

// ---- errors --------------------------------------------------------------------------------

TEST_F(FrontEnd, SyntaxErrorReturnsClangsMessage) {
  const std::string err = ErrorOf(
      "kernel void k(global int* o) {\n"
      "  int x = 1\n"
      "  o[0] = x;\n"
      "}\n",
      {}, "bad.cl");
  const std::string path = (dir_ / "bad.cl").string();
  EXPECT_TRUE(Has(err, path + ":2:12: error: expected ';' at end of declaration")) << err;
  EXPECT_TRUE(Has(err, "  int x = 1\n")) << err;  // the source line and caret, verbatim
  EXPECT_TRUE(Has(err, "1 error generated.")) << err;
  EXPECT_FALSE(Has(err, "sgu-cc-")) << err;  // no temporary paths
}

TEST_F(FrontEnd, UndeclaredBuiltInIsClangsError) {
  const std::string err =
      ErrorOf("kernel void k(global int* o) { o[0] = no_such_builtin(1); }\n", {}, "u.cl");
  EXPECT_TRUE(Has(err, "u.cl:1:")) << err;
  EXPECT_TRUE(Has(err, "error:")) << err;
  EXPECT_TRUE(Has(err, "no_such_builtin")) << err;
}

TEST_F(FrontEnd, MissingFile) {
  try {
    OpenClToSpirv((dir_ / "nope.cl").string(), {});
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_TRUE(Has(e.what(), "cannot read")) << e.what();
    EXPECT_TRUE(Has(e.what(), "nope.cl")) << e.what();
  }
  EXPECT_THROW(OpenClToSpirv(dir_.string(), {}), CompileError);
}

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = getenv(name);
    if (old) old_ = old;
    had_ = old != nullptr;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_) {
      setenv(name_, old_.c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

TEST_F(FrontEnd, MissingToolNamesThePackage) {
  const std::string path = Write("k.cl", "kernel void k(global int* o) { o[0] = 1; }\n");
  {
    ScopedEnv env("SGU_LLVM_SPIRV", "llvm-spirv-no-such-version");
    try {
      OpenClToSpirv(path, {});
      FAIL();
    } catch (const CompileError& e) {
      EXPECT_TRUE(Has(e.what(), "llvm-spirv-no-such-version not found")) << e.what();
      EXPECT_TRUE(Has(e.what(), "install the Debian package llvm-spirv-15")) << e.what();
    }
  }
  {
    ScopedEnv env("SGU_CLANG", "/nonexistent/clang-15");
    try {
      OpenClToSpirv(path, {});
      FAIL();
    } catch (const CompileError& e) {
      EXPECT_TRUE(Has(e.what(), "SGU_CLANG=/nonexistent/clang-15")) << e.what();
      EXPECT_TRUE(Has(e.what(), "clang-15")) << e.what();
    }
  }
  {
    ScopedEnv env("PATH", dir_.c_str());
    try {
      OpenClToSpirv(path, {});
      FAIL();
    } catch (const CompileError& e) {
      EXPECT_TRUE(Has(e.what(), "clang-15 not found on PATH")) << e.what();
      EXPECT_TRUE(Has(e.what(), "apt-get install clang-15")) << e.what();
    }
  }
  EXPECT_NO_THROW(OpenClToSpirv(path, {}));  // and everything is back
}

TEST_F(FrontEnd, NoTemporaryFilesAreLeftBehind) {
  const fs::path tmp = dir_ / "tmp";
  fs::create_directory(tmp);
  ScopedEnv env("TMPDIR", tmp.c_str());
  OpenClToSpirv(Write("k.cl", kShuffleKernel), {});
  EXPECT_FALSE(ErrorOf("kernel void k( {\n").empty());
  EXPECT_TRUE(fs::is_empty(tmp));
}

// ---- the SGU kernel header -----------------------------------------------------------------

TEST_F(FrontEnd, QcomShufflesBecomeImportedCalls) {
  const std::string dis = Compile(
      "#pragma OPENCL EXTENSION cl_qcom_subgroup_shuffle : enable\n"
      "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
      "kernel void k(global uint* u, global float* f, global uchar* b, global half* h,\n"
      "              global long* l, uint off) {\n"
      "  uint i = get_global_id(0);\n"
      "  u[i] = qcom_sub_group_shuffle_up(u[i], 1, CLK_SUB_GROUP_SHUFFLE_WIDTH_W4_QCOM, u[i])\n"
      "       + qcom_sub_group_shuffle_down(u[i], off, CLK_SUB_GROUP_SHUFFLE_WIDTH_W8_QCOM, "
      "0x11);\n"
      "  f[i] = qcom_sub_group_shuffle_xor(f[i], 1, CLK_SUB_GROUP_SHUFFLE_WIDTH_WAVE_SIZE_QCOM, "
      "0)\n"
      "       + qcom_sub_group_shuffle_rotate_up(f[i], 2, CLK_SUB_GROUP_SHUFFLE_WIDTH_W4_QCOM, "
      "0.f);\n"
      "  b[i] = qcom_sub_group_shuffle_rotate_down(b[i], 3, CLK_SUB_GROUP_SHUFFLE_WIDTH_W4_QCOM, "
      "0);\n"
      "  h[i] = qcom_sub_group_shuffle_xor(h[i], 1, CLK_SUB_GROUP_SHUFFLE_WIDTH_W4_QCOM, h[i]);\n"
      "  l[i] = qcom_sub_group_shuffle_down(l[i], 1, CLK_SUB_GROUP_SHUFFLE_WIDTH_W8_QCOM, -1);\n"
      "}\n",
      With({"-Werror"}));
  const struct {
    const char* name;
    const char* type;
  } imports[] = {
      {"_Z25qcom_sub_group_shuffle_upjjjj", "%uint"},
      {"_Z27qcom_sub_group_shuffle_downjjjj", "%uint"},
      {"_Z26qcom_sub_group_shuffle_xorfjjf", "%float"},
      {"_Z32qcom_sub_group_shuffle_rotate_upfjjf", "%float"},
      {"_Z34qcom_sub_group_shuffle_rotate_downhjjh", "%uchar"},
      {"_Z26qcom_sub_group_shuffle_xorDhjjDh", "%half"},
      {"_Z27qcom_sub_group_shuffle_downljjl", "%ulong"},
  };
  for (const auto& imp : imports) {
    EXPECT_TRUE(Has(dis, std::string("LinkageAttributes \"") + imp.name + "\" Import"))
        << imp.name << "\n"
        << dis;
    // OpFunctionCall %T %import %value %offset %width %default
    EXPECT_TRUE(std::regex_search(dis, std::regex(std::string("OpFunctionCall ") + imp.type + " %" +
                                                  imp.name + " %\\w+ %\\w+ %\\w+ %\\w+\\n")))
        << imp.name;
  }
  // The width operand is the enumerator's value: 4, 8, or 0 for the whole sub-group.
  EXPECT_TRUE(std::regex_search(
      dis, std::regex("OpFunctionCall %uint %_Z25qcom_sub_group_shuffle_upjjjj %\\w+ %uint_1 "
                      "%uint_4 %\\w+")))
      << dis;
  EXPECT_TRUE(std::regex_search(
      dis, std::regex("OpFunctionCall %float %_Z26qcom_sub_group_shuffle_xorfjjf %\\w+ %uint_1 "
                      "%uint_0 %float_0")))
      << dis;
  EXPECT_TRUE(std::regex_search(dis, std::regex("_Z27qcom_sub_group_shuffle_downjjjj %\\w+ "
                                                "%\\w+ %uint_8 %uint_17")))
      << dis;
}

TEST_F(FrontEnd, IntelBlockAndMediaBlockBuiltIns) {
  const std::string dis = Compile(
      "__attribute__((intel_reqd_sub_group_size(16)))\n"
      "kernel void k(read_only image2d_t src, write_only image2d_t dst, read_write image2d_t rw,\n"
      "              global uchar* b, global ulong* l, global ushort* s, global uint* out) {\n"
      "  int2 c = (int2)(0, get_group_id(0));\n"
      "  uchar2 m2 = intel_sub_group_media_block_read_uc2(c, 8, 4, src);\n"
      "  ushort4 m4 = intel_sub_group_media_block_read_us4(c, 16, 2, rw);\n"
      "  uint8 m8 = intel_sub_group_media_block_read_ui8(c, 8, 8, src);\n"
      "  intel_sub_group_media_block_write_uc2(c, 4, 8, m2, dst);\n"
      "  intel_sub_group_media_block_write_ui8(c, 8, 8, m8, rw);\n"
      "  intel_sub_group_block_write_uc16(b + 64, (uchar16)(intel_sub_group_block_read_uc4(b),\n"
      "      intel_sub_group_block_read_uc4(b + 16), (uchar8)(1)));\n"
      "  intel_sub_group_block_write_ul2(l + 32, intel_sub_group_block_read_ul2(l));\n"
      "  ushort16 s16 = intel_sub_group_block_read_us16(s);\n"
      "  intel_sub_group_block_write_us16(s + 256, s16);\n"
      "  intel_sub_group_block_write_uc8(dst, c, intel_sub_group_block_read_uc8(src, c));\n"
      "  intel_sub_group_block_write_ul(rw, c, intel_sub_group_block_read_ul(rw, c));\n"
      "  intel_sub_group_block_write_us16(dst, c, intel_sub_group_block_read_us16(src, c));\n"
      "  intel_sub_group_block_write_ui2(dst, c, (uint2)(1, 2));\n"
      "  out[get_global_id(0)] = m4.x + s16.s3;\n"
      "}\n",
      With({"-Werror"}));
  EXPECT_TRUE(Has(dis, "OpExtension \"SPV_INTEL_media_block_io\""));
  // Media block: image first, then coordinate, width, height (and data).
  EXPECT_TRUE(std::regex_search(
      dis, std::regex("OpSubgroupImageMediaBlockReadINTEL %v2uchar %\\w+ %\\w+ %uint_8 %uint_4")))
      << dis;
  EXPECT_TRUE(std::regex_search(
      dis,
      std::regex("OpSubgroupImageMediaBlockReadINTEL %v4ushort %\\w+ %\\w+ %uint_16 %uint_2")));
  EXPECT_TRUE(std::regex_search(
      dis, std::regex("OpSubgroupImageMediaBlockWriteINTEL %\\w+ %\\w+ %uint_4 %uint_8 %\\w+")));
  EXPECT_TRUE(Has(dis, "OpSubgroupBlockReadINTEL %v4uchar"));
  EXPECT_TRUE(Has(dis, "OpSubgroupBlockReadINTEL %v2ulong"));
  // us16 is two us8 block operations (llvm-spirv-15 aborts on 16 x 16-bit).
  EXPECT_EQ(Count(dis, "OpSubgroupBlockReadINTEL %v8ushort"), 2u);
  EXPECT_EQ(Count(dis, "OpSubgroupImageBlockReadINTEL %v8ushort"), 2u);
  EXPECT_TRUE(Has(dis, "OpSubgroupImageBlockReadINTEL %v8uchar"));
  EXPECT_TRUE(Has(dis, "OpSubgroupImageBlockReadINTEL %ulong"));
  EXPECT_EQ(Count(dis, "OpSubgroupImageBlockWriteINTEL"), 5u);  // uc8, ul, us16 (two), ui2
  EXPECT_FALSE(Has(dis, "intel_sub_group")) << dis;             // nothing left as an import
}

TEST_F(FrontEnd, IntelEightAndSixteenBitShufflesBroadcastsAndReductions) {
  const std::string dis = Compile(
      "kernel void k(global uchar* b, global short* s) {\n"
      "  uint i = get_sub_group_local_id();\n"
      "  uchar x = b[i];\n"
      "  char4 v = intel_sub_group_shuffle_down((char4)(x), (char4)(1), 3);\n"
      "  b[i] = intel_sub_group_shuffle(x, 3) + intel_sub_group_shuffle_xor(x, 1) + v.y\n"
      "       + intel_sub_group_broadcast(x, 2) + intel_sub_group_reduce_add(x)\n"
      "       + intel_sub_group_scan_inclusive_max((char)x);\n"
      "  s[i] = intel_sub_group_broadcast(s[i], 1) + intel_sub_group_scan_exclusive_min(s[i]);\n"
      "}\n");
  EXPECT_TRUE(Has(dis, "OpSubgroupShuffleINTEL %uchar"));
  EXPECT_TRUE(Has(dis, "OpSubgroupShuffleXorINTEL %uchar"));
  EXPECT_TRUE(Has(dis, "OpSubgroupShuffleDownINTEL %v4uchar"));
  EXPECT_TRUE(Has(dis, "OpGroupBroadcast %uchar"));
  EXPECT_TRUE(Has(dis, "OpGroupIAdd %uchar %uint_3 Reduce"));
  EXPECT_TRUE(Has(dis, "OpGroupSMax %uchar %uint_3 InclusiveScan"));
  EXPECT_TRUE(Has(dis, "OpGroupBroadcast %ushort"));
  EXPECT_TRUE(Has(dis, "OpGroupSMin %ushort %uint_3 ExclusiveScan"));
  EXPECT_FALSE(Has(dis, "intel_sub_group")) << dis;  // no import left
}

TEST_F(FrontEnd, OpenCl12ImageBlockIo) {
  // opencl-c.h hides the image block built-ins behind a 2.0 feature macro.
  const std::string dis = Compile(
      "kernel void k(read_only image2d_t src, write_only image2d_t dst) {\n"
      "  int2 c = (int2)(4, 0);\n"
      "  intel_sub_group_block_write(dst, c, intel_sub_group_block_read(src, c));\n"
      "  intel_sub_group_block_write_us2(dst, c, intel_sub_group_block_read_us2(src, c));\n"
      "}\n",
      With({"-cl-std=CL1.2"}));
  EXPECT_TRUE(Has(dis, "OpSubgroupImageBlockReadINTEL %uint"));
  EXPECT_TRUE(Has(dis, "OpSubgroupImageBlockReadINTEL %v2ushort"));
  EXPECT_EQ(Count(dis, "OpSubgroupImageBlockWriteINTEL"), 2u);
}

TEST_F(FrontEnd, VendorExtensionPragmasAreNotWarnings) {
  EXPECT_NO_THROW(
      Compile("#pragma OPENCL EXTENSION cl_intel_subgroups_char : enable\n"
              "#pragma OPENCL EXTENSION cl_qcom_subgroup_shuffle : enable\n"
              "#if !defined(cl_intel_subgroups_char) || !defined(cl_qcom_subgroup_shuffle) || \\\n"
              "    !defined(cl_intel_media_block_io) || !defined(__SGU__)\n"
              "#error missing extension macros\n"
              "#endif\n"
              "kernel void k(global int* o) { o[0] = 1; }\n",
              With({"-Werror"})));
}

// ---- SPIR-V files, validation, disassembly -------------------------------------------------

TEST_F(FrontEnd, KeepSpirvPathWritesTheModule) {
  Options o;
  o.keep_spirv_path = (dir_ / "kept.spv").string();
  const std::vector<uint32_t> words = OpenClToSpirv(Write("k.cl", kShuffleKernel), o);
  EXPECT_EQ(ReadSpirvFile(o.keep_spirv_path), words);
  EXPECT_EQ(fs::file_size(o.keep_spirv_path), words.size() * 4);
  o.keep_spirv_path = (dir_ / "no-such-dir" / "x.spv").string();
  EXPECT_THROW(OpenClToSpirv(Write("k.cl", kShuffleKernel), o), CompileError);
}

std::string Bytes(const std::vector<uint32_t>& words, bool big_endian) {
  std::string s;
  for (uint32_t w : words) {
    for (int b = 0; b < 4; ++b) s += static_cast<char>(w >> (8 * (big_endian ? 3 - b : b)));
  }
  return s;
}

TEST_F(FrontEnd, ReadSpirvFileInEitherByteOrder) {
  const std::vector<uint32_t> words = OpenClToSpirv(Write("k.cl", kShuffleKernel), NoDebug());
  std::ofstream(dir_ / "le.spv", std::ios::binary) << Bytes(words, false);
  std::ofstream(dir_ / "be.spv", std::ios::binary) << Bytes(words, true);
  EXPECT_EQ(ReadSpirvFile((dir_ / "le.spv").string()), words);
  EXPECT_EQ(ReadSpirvFile((dir_ / "be.spv").string()), words);
}

TEST_F(FrontEnd, ReadSpirvFileRejectsWhatIsNotSpirv) {
  const auto error_of = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
    try {
      ReadSpirvFile((dir_ / name).string());
    } catch (const CompileError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_TRUE(Has(error_of("empty.spv", ""), "is empty"));
  EXPECT_TRUE(
      Has(error_of("odd.spv", std::string("\x03\x02\x23\x07\x00", 5)), "not a multiple of 4"));
  EXPECT_TRUE(Has(error_of("short.spv", std::string("\x03\x02\x23\x07", 4)), "20-byte header"));
  EXPECT_TRUE(Has(error_of("text.spv", "kernel void k() {}  "), "is not a SPIR-V module"));
  EXPECT_TRUE(Has(error_of("text.spv", "kernel void k() {}  "), "magic number 0x7230203"));
  try {
    ReadSpirvFile((dir_ / "missing.spv").string());
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_TRUE(Has(e.what(), "cannot read")) << e.what();
  }
}

TEST_F(FrontEnd, ValidatorErrorsComeBackAsCompileError) {
  std::vector<uint32_t> words = OpenClToSpirv(Write("k.cl", kShuffleKernel), NoDebug());
  ValidateSpirv(words);
  // Drop OpMemoryModel: the validator must complain.
  std::vector<uint32_t> bad(words.begin(), words.begin() + 5);
  for (size_t i = 5; i < words.size();) {
    const uint32_t n = words[i] >> 16;
    if ((words[i] & spv::OpCodeMask) != spv::OpMemoryModel) {
      bad.insert(bad.end(), words.begin() + i, words.begin() + i + n);
    }
    i += n;
  }
  try {
    ValidateSpirv(bad);
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_TRUE(Has(e.what(), "invalid SPIR-V module")) << e.what();
    EXPECT_TRUE(Has(e.what(), "memory model")) << e.what();
  }
  EXPECT_THROW(ValidateSpirv({}), CompileError);
  EXPECT_THROW(ValidateSpirv({0x07230203, 0x00090000, 0, 1, 0}), CompileError);  // version 9.0
  words.back() = 5u << spv::WordCountShift | spv::OpFunctionEnd;  // runs past the end
  EXPECT_THROW(ValidateSpirv(words), CompileError);
  EXPECT_THROW(DisassembleSpirv(words), CompileError);
}

TEST(SpirvDebugInfo, DisassemblyOfAnUnparsableDebugInfoModuleLeavesItOut) {
  // A module as llvm-spirv-15 writes it for an image argument with -g: DebugTypePointer with
  // storage class 0xFFFFFFFF, which SPIRV-Tools cannot parse.
  std::vector<uint32_t> m = {0x07230203, 0x00010100, 0, 10, 0};
  const auto inst = [&](uint32_t op, std::vector<uint32_t> operands) {
    m.push_back(static_cast<uint32_t>(operands.size() + 1) << 16 | op);
    m.insert(m.end(), operands.begin(), operands.end());
  };
  inst(spv::OpCapability, {spv::CapabilityAddresses});
  inst(spv::OpCapability, {spv::CapabilityLinkage});
  inst(spv::OpCapability, {spv::CapabilityKernel});
  // %1 = OpExtInstImport "OpenCL.DebugInfo.100"
  const char name[] = "OpenCL.DebugInfo.100";
  std::vector<uint32_t> str((sizeof(name) + 3) / 4, 0);
  for (size_t i = 0; i < sizeof(name); ++i) {
    str[i / 4] |= uint32_t{static_cast<uint8_t>(name[i])} << (8 * (i % 4));
  }
  str.insert(str.begin(), 1);
  inst(spv::OpExtInstImport, str);
  inst(spv::OpMemoryModel, {spv::AddressingModelPhysical32, spv::MemoryModelOpenCL});
  inst(spv::OpTypeVoid, {2});                                                             // %2
  inst(spv::OpExtInst, {2, 3, 1, OpenCLDebugInfo100DebugInfoNone});                       // %3
  inst(spv::OpExtInst, {2, 4, 1, OpenCLDebugInfo100DebugTypePointer, 3, 0xFFFFFFFF, 0});  // %4
  size_t removed = 0;
  const std::vector<uint32_t> stripped = internal::StripDebugInfo(m, &removed);
  EXPECT_EQ(removed, 3u);
  EXPECT_EQ(stripped.size(), m.size() - (str.size() + 1) - 5 - 8);
  const std::string dis = DisassembleSpirv(m);
  EXPECT_TRUE(Has(dis, "3 debug-information instructions")) << dis;
  EXPECT_TRUE(Has(dis, "OpMemoryModel Physical32 OpenCL")) << dis;
  EXPECT_NO_THROW(ValidateSpirv(m));
}

// ---- freeze rewriting ----------------------------------------------------------------------

TEST(StripFreeze, RewritesEverySpellingOfScalarVectorAndPointerTypes) {
  size_t n = 0;
  const std::string out = internal::StripFreeze(
      "define void @f() {\n"
      "  %6 = freeze i32 %5\n"
      "  %x.fr = freeze <4 x i32> %18, !dbg !42\n"
      "  %\"q r\" = freeze float %\"a b\"\n"
      "  %p = freeze i8 addrspace(1)* %q\n"
      "  %s = freeze %struct.S addrspace(1)* %t\n"
      "  %v = freeze <2 x float addrspace(1)*> %w\n"
      "  %fp = freeze void (i32)* %g\n"
      "  %u = freeze i64 undef\n"
      "  %c = freeze <2 x i32> <i32 1, i32 2>, !dbg !7\n"
      "  %y = add i32 %freeze, 1 ; a freeze in a comment\n"
      "}",
      &n);
  EXPECT_EQ(n, 9u);
  EXPECT_EQ(out,
            "define void @f() {\n"
            "  %6 = bitcast i32 %5 to i32\n"
            "  %x.fr = bitcast <4 x i32> %18 to <4 x i32>, !dbg !42\n"
            "  %\"q r\" = bitcast float %\"a b\" to float\n"
            "  %p = bitcast i8 addrspace(1)* %q to i8 addrspace(1)*\n"
            "  %s = bitcast %struct.S addrspace(1)* %t to %struct.S addrspace(1)*\n"
            "  %v = bitcast <2 x float addrspace(1)*> %w to <2 x float addrspace(1)*>\n"
            "  %fp = bitcast void (i32)* %g to void (i32)*\n"
            "  %u = bitcast i64 undef to i64\n"
            "  %c = bitcast <2 x i32> <i32 1, i32 2> to <2 x i32>, !dbg !7\n"
            "  %y = add i32 %freeze, 1 ; a freeze in a comment\n"
            "}");
}

// Booleans cannot be bitcast in SPIR-V: they become an exclusive or with false.
TEST(StripFreeze, BooleansBecomeXorWithFalse) {
  EXPECT_EQ(internal::StripFreeze("  %b.fr = freeze i1 %b, !dbg !3\n"),
            "  %b.fr = xor i1 %b, false, !dbg !3\n");
  EXPECT_EQ(internal::StripFreeze("  %v = freeze <4 x i1> %w\n"),
            "  %v = xor <4 x i1> %w, zeroinitializer\n");
}

TEST(StripFreeze, RejectsAggregates) {
  for (const char* line : {"  %a = freeze { i32, float } %b\n", "  %a = freeze [4 x i8] %b\n",
                           "  %a = freeze %struct.S %b\n", "  %a = freeze <{ i8, i32 }> %b\n"}) {
    try {
      internal::StripFreeze(line);
      FAIL() << line;
    } catch (const CompileError& e) {
      EXPECT_TRUE(Has(e.what(), "aggregate")) << e.what();
      EXPECT_TRUE(Has(e.what(), "line 1 of the optimised LLVM IR")) << e.what();
    }
  }
  EXPECT_THROW(internal::StripFreeze("  %a = freeze i32\n"), CompileError);
  EXPECT_THROW(internal::StripFreeze("  %a = freeze ) %b\n"), CompileError);
}

TEST(StripFreeze, LeavesIrWithoutFreezeAlone) {
  const std::string ir = "; ModuleID = 'k'\n%x = add i32 1, 2\n\n";
  EXPECT_EQ(internal::StripFreeze(ir), ir);
}

}  // namespace
}  // namespace sgu::compiler
