// SPDX-License-Identifier: Apache-2.0
// SPIR-V kernel -> machine IR: inlining, control-flow analysis, divergence analysis, layout
// with execution masks, instruction selection (docs/compiler.md).
#ifndef SGU_COMPILER_LOWER_H_
#define SGU_COMPILER_LOWER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "mir.h"
#include "sgu/binary.h"
#include "spirv_module.h"

namespace sgu::compiler {

// Byte layout of module-scope data shared by the kernels of one module.
struct ModuleLayout {
  std::map<uint32_t, uint32_t> constant_offset;  // UniformConstant/CrossWorkgroup variable -> offset
  std::map<uint32_t, uint32_t> local_offset;     // Workgroup variable -> offset
  uint32_t local_bytes = 0;
  std::vector<uint8_t> constants;
  std::map<uint32_t, uint32_t> file_index;       // OpString id -> Binary::files index
};

// Size and alignment of a SPIR-V type in memory (OpenCL C rules: 3-vectors as 4-vectors).
uint32_t TypeSize(const SpvModule& m, uint32_t type);
uint32_t TypeAlign(const SpvModule& m, uint32_t type);

// Lays out module-scope variables and their initialisers.
ModuleLayout LayoutModule(const SpvModule& m, std::vector<std::string>* files);

// Lowers one entry point. Fills the metadata of `meta` (name, args, required SIMD, barrier,
// launch block size, local bytes); code and spill sizes are filled after allocation.
MFunction LowerKernel(const SpvModule& m, const SpvEntryPoint& ep, const ModuleLayout& layout,
                      Kernel* meta);

}  // namespace sgu::compiler

#endif  // SGU_COMPILER_LOWER_H_
