// SPDX-License-Identifier: Apache-2.0
// `sgu compile`: OpenCL C or SPIR-V to a .sgubin (sgu/compiler.h, sgu/binary.h).
#include <cstdio>
#include <string>
#include <vector>

#include "cli.h"
#include "sgu/binary.h"
#include "sgu/compiler.h"

namespace sgu {
namespace cli {

namespace {

const char kCompileHelp[] =
    "usage: sgu compile K.cl|K.spv [-o K.sgubin] [-D NAME[=VALUE]]... [-I DIR]...\n"
    "                   [-cl-std=CL1.2|CL2.0|CL3.0] [-cl-fast-relaxed-math] [-cl-...]\n"
    "                   [--spirv OUT.spv] [--no-debug-info] [--no-validate]\n"
    "                   [--no-schedule]\n\n"
    "Compiles an OpenCL C file (through clang-15 and llvm-spirv-15) or a SPIR-V module into a\n"
    "program for the SGU: every kernel of the file, with its parameters and line table.\n\n"
    "  -o FILE          output (default: the input with its extension replaced by .sgubin);\n"
    "                   written atomically, nothing is left behind on an error\n"
    "  -D, -I, -cl-*    build options, passed on as clBuildProgram takes them\n"
    "  --spirv OUT.spv  also keep the SPIR-V module\n"
    "  --no-debug-info  no source lines in the line table and in messages\n"
    "  --no-validate    skip the SPIR-V validator\n"
    "  --no-schedule    keep the instructions in the order the lowering produced them\n"
    "                   (no reordering to hide result latencies)\n\n"
    "A kernel that does not compile gets clang's own diagnostics, SPIR-V the compiler cannot\n"
    "handle gets FILE:LINE: error: naming the operation. Exit status 0, 1 on an error, 2 on a\n"
    "usage error.\n";

std::string DefaultOutput(const std::string& in, const std::string& ext) {
  const size_t dot = in.find_last_of('.');
  const size_t slash = in.find_last_of('/');
  return (dot != std::string::npos && (slash == std::string::npos || dot > slash))
             ? in.substr(0, dot) + ext
             : in + ext;
}

int RunCompile(const std::vector<std::string>& argv_in) {
  std::vector<std::string> argv = argv_in;
  compiler::Options opts;
  opts.build_options = TakeBuildOptions(argv);
  const Args args(argv, {"-o", "--output", "--spirv"}, {"--no-debug-info", "--no-validate", "--no-schedule"});
  if (args.help()) {
    std::fputs(kCompileHelp, stdout);
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("expected one source file (.cl or .spv)");
  const std::string& in = args.positional()[0];
  const std::string out = args.Get("-o", args.Get("--output", DefaultOutput(in, ".sgubin")));
  opts.keep_spirv_path = args.Get("--spirv");
  opts.debug_info = !args.Flag("--no-debug-info");
  opts.validate = !args.Flag("--no-validate");
  opts.schedule = !args.Flag("--no-schedule");
  ReadFile(in);  // a missing or unreadable input gets the file error, not the compiler's
  const Binary bin = compiler::CompileFile(in, opts);
  WriteFileAtomic(out, WriteBinary(bin));
  return 0;
}

}  // namespace

const Command kCompileCommand = {"compile", "compile OpenCL C or SPIR-V into a .sgubin",
                                 kCompileHelp, RunCompile};

}  // namespace cli
}  // namespace sgu
