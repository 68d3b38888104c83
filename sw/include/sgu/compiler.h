// SPDX-License-Identifier: Apache-2.0
// The SGU compiler: OpenCL C (through clang-15 and llvm-spirv-15) or SPIR-V to SGU machine code.
//
//   OpenCL C --clang-15 --> LLVM bitcode --llvm-spirv-15--> SPIR-V --sgu compiler--> Binary
//
// docs/compiler.md describes the pipeline, the SPIR-V it accepts and its limits.
#ifndef SGU_COMPILER_H_
#define SGU_COMPILER_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sgu/binary.h"

namespace sgu::compiler {

// A kernel that cannot be compiled. what() is the whole message, ready to print: clang's own
// diagnostics for a front-end failure, or "FILE:LINE: error: ..." (file and line when the
// SPIR-V carries them) for SPIR-V the SGU compiler cannot handle.
class CompileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options {
  // clBuildProgram-style options passed to clang: -D NAME[=VALUE], -I DIR, -cl-std=CLx.y,
  // -cl-fast-relaxed-math, -cl-mad-enable, ... (unknown -cl-* options are an error).
  std::vector<std::string> build_options;
  bool debug_info = true;        // -g: source lines in the line table and in error messages
  bool validate = true;          // run SPIRV-Tools' validator on the module first
  bool schedule = true;          // reorder instructions to hide result latencies
                                 // (docs/compiler.md "Instruction scheduling")
  std::string keep_spirv_path;   // non-empty: also write the SPIR-V module there
};

// Front end only: OpenCL C file -> SPIR-V words (sw/compiler/frontend.cc).
std::vector<uint32_t> OpenClToSpirv(const std::string& cl_path, const Options& opts);
// Reads a .spv file; throws CompileError when it is not a SPIR-V module.
std::vector<uint32_t> ReadSpirvFile(const std::string& path);
// SPIRV-Tools: validation (throws CompileError with the validator's message) and disassembly.
void ValidateSpirv(const std::vector<uint32_t>& words);
std::string DisassembleSpirv(const std::vector<uint32_t>& words);

// SPIR-V module -> Binary: every OpEntryPoint Kernel becomes one Kernel.
Binary CompileSpirv(const std::vector<uint32_t>& words, const Options& opts);
// A .cl (OpenCL C) or .spv file -> Binary.
Binary CompileFile(const std::string& path, const Options& opts);

}  // namespace sgu::compiler

#endif  // SGU_COMPILER_H_
