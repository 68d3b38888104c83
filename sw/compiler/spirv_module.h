// SPDX-License-Identifier: Apache-2.0
// A SPIR-V module read into memory: instructions with their debug lines, types, constants,
// names, decorations, functions and entry points. Opcodes and enums come from the Khronos
// headers (spirv-headers): this file spells no SPIR-V number.
#ifndef SGU_COMPILER_SPIRV_MODULE_H_
#define SGU_COMPILER_SPIRV_MODULE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp>

namespace sgu::compiler {

// One instruction. `ops` are the words after the result type and result id (or after the
// opcode for instructions without them).
struct SpvInsn {
  spv::Op op = spv::OpNop;
  uint32_t type = 0;  // result type id, 0 if none
  uint32_t id = 0;    // result id, 0 if none
  std::vector<uint32_t> ops;
  std::vector<bool> is_id;  // per word of ops: an <id> operand (from SPIRV-Tools' parser)
  uint32_t file = 0;  // OpString id of the OpLine in force, 0 if none
  uint32_t line = 0;
};

enum class TypeKind { kVoid, kBool, kInt, kFloat, kVector, kArray, kStruct, kPointer, kFunction,
                      kImage, kSampler, kSampledImage, kEvent, kOpaque };

struct SpvType {
  TypeKind kind = TypeKind::kOpaque;
  uint32_t width = 0;          // int/float bits
  bool is_signed = false;      // int: signedness word (OpenCL modules always say 0)
  uint32_t count = 0;          // vector components, array length
  uint32_t elem = 0;           // vector/array element, pointer pointee
  std::vector<uint32_t> members;  // struct members, function: return type then params
  spv::StorageClass storage = spv::StorageClassFunction;  // pointer
  bool packed = false;         // struct with CPacked
};

struct SpvBlock {
  uint32_t label = 0;
  std::vector<SpvInsn> insns;  // OpPhi first, the terminator last
};

struct SpvFunction {
  uint32_t id = 0;
  uint32_t type = 0;  // function type
  uint32_t result_type = 0;
  std::vector<uint32_t> params;
  std::vector<SpvBlock> blocks;  // first = entry; empty for an import
  bool is_import = false;
  std::string import_name;  // LinkageAttributes Import name
};

struct SpvEntryPoint {
  uint32_t func = 0;
  std::string name;
  std::vector<uint32_t> interface;
  uint32_t subgroup_size = 0;  // ExecutionMode SubgroupSize, 0 if none
};

struct SpvDecoration {
  spv::Decoration dec;
  std::vector<uint32_t> lits;
};

class SpvModule {
 public:
  // Parses the words; throws CompileError on a malformed module.
  explicit SpvModule(const std::vector<uint32_t>& words);

  const SpvType& Type(uint32_t id) const;
  bool IsType(uint32_t id) const { return types_.count(id) != 0; }
  // A result-producing instruction at module scope or in a function (nullptr if none).
  const SpvInsn* Def(uint32_t id) const;
  const SpvFunction* Function(uint32_t id) const;
  std::string Name(uint32_t id) const;  // OpName, "" if none
  std::string String(uint32_t id) const;  // OpString text
  const std::vector<SpvDecoration>* Decorations(uint32_t id) const;
  bool HasDecoration(uint32_t id, spv::Decoration d, uint32_t* lit0 = nullptr) const;
  std::string ExtInstSet(uint32_t id) const;  // OpExtInstImport name

  const std::vector<SpvEntryPoint>& entry_points() const { return entry_points_; }
  const std::vector<SpvInsn>& globals() const { return globals_; }  // module-scope OpVariable
  const std::vector<std::string>& strings_in_order() const { return string_list_; }
  uint32_t addressing_bits() const { return addressing_bits_; }  // 32 or 64
  uint32_t bound() const { return bound_; }  // ids are below this
  const std::vector<uint32_t>& capabilities() const { return capabilities_; }

  // Constant scalar value (OpConstant, OpConstantTrue/False, OpConstantNull, OpSpecConstant*
  // with default value): true and *value set; false for non-constants or composites.
  bool ScalarConstant(uint32_t id, uint64_t* value) const;

 private:
  std::map<uint32_t, SpvType> types_;
  std::map<uint32_t, SpvInsn> module_defs_;  // constants, variables, undefs, ext imports
  std::map<uint32_t, const SpvInsn*> func_defs_;
  std::map<uint32_t, SpvFunction> functions_;
  std::map<uint32_t, std::string> names_;
  std::map<uint32_t, std::string> strings_;
  std::vector<std::string> string_list_;
  std::map<uint32_t, std::vector<SpvDecoration>> decorations_;
  std::map<uint32_t, std::string> ext_sets_;
  std::vector<SpvEntryPoint> entry_points_;
  std::vector<SpvInsn> globals_;
  std::vector<uint32_t> capabilities_;
  uint32_t addressing_bits_ = 32;
  uint32_t bound_ = 0;
};

// The text of a literal string starting at ops[i]; *next = index after it.
std::string LiteralString(const std::vector<uint32_t>& ops, size_t i, size_t* next = nullptr);

}  // namespace sgu::compiler

#endif  // SGU_COMPILER_SPIRV_MODULE_H_
