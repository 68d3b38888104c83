// SPDX-License-Identifier: Apache-2.0
// SPIR-V module reader (spirv_module.h).
#include "spirv_module.h"

#include <cstring>

#include <spirv-tools/libspirv.h>

#include "sgu/compiler.h"

namespace sgu::compiler {

std::string LiteralString(const std::vector<uint32_t>& ops, size_t i, size_t* next) {
  std::string s;
  for (; i < ops.size(); ++i) {
    const uint32_t w = ops[i];
    bool end = false;
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((w >> (8 * b)) & 0xff);
      if (c == 0) {
        end = true;
        break;
      }
      s += c;
    }
    if (end) {
      ++i;
      break;
    }
  }
  if (next) *next = i;
  return s;
}

namespace {

[[noreturn]] void Malformed(const std::string& what) {
  throw CompileError("error: malformed SPIR-V module: " + what);
}

// Which operand words of each instruction are <id>s, in instruction order.
struct IdMasks {
  std::vector<std::vector<bool>> masks;
};

spv_result_t OnInstruction(void* user, const spv_parsed_instruction_t* in) {
  auto* m = static_cast<IdMasks*>(user);
  std::vector<bool> mask(in->num_words, false);
  for (uint16_t i = 0; i < in->num_operands; ++i) {
    const spv_parsed_operand_t& o = in->operands[i];
    const bool id = o.type == SPV_OPERAND_TYPE_ID || o.type == SPV_OPERAND_TYPE_TYPE_ID ||
                    o.type == SPV_OPERAND_TYPE_RESULT_ID ||
                    o.type == SPV_OPERAND_TYPE_SCOPE_ID ||
                    o.type == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID;
    for (uint16_t w = 0; w < o.num_words; ++w) {
      if (o.offset + w < in->num_words) mask[o.offset + w] = id;
    }
  }
  m->masks.push_back(std::move(mask));
  return SPV_SUCCESS;
}

}  // namespace

SpvModule::SpvModule(const std::vector<uint32_t>& words) {
  if (words.size() < 5 || words[0] != spv::MagicNumber) Malformed("bad header");
  bound_ = words[3];
  IdMasks masks;
  {
    spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_5);
    spv_diagnostic diag = nullptr;
    const spv_result_t r = spvBinaryParse(ctx, &masks, words.data(), words.size(), nullptr,
                                          OnInstruction, &diag);
    std::string msg = diag && diag->error ? diag->error : "";
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
    if (r != SPV_SUCCESS) Malformed(msg.empty() ? "SPIRV-Tools cannot parse it" : msg);
  }
  size_t insn_index = 0;
  SpvFunction* fn = nullptr;
  SpvBlock* block = nullptr;
  uint32_t cur_file = 0, cur_line = 0;
  std::map<uint32_t, uint32_t> exec_sg_size;
  for (size_t pos = 5; pos < words.size();) {
    const uint32_t count = words[pos] >> 16;
    const auto op = static_cast<spv::Op>(words[pos] & 0xffff);
    if (count == 0 || pos + count > words.size()) Malformed("bad word count at word " +
                                                            std::to_string(pos));
    SpvInsn in;
    in.op = op;
    bool has_result = false, has_type = false;
    spv::HasResultAndType(op, &has_result, &has_type);
    size_t k = pos + 1;
    if (has_type) {
      if (k >= pos + count) Malformed("missing result type");
      in.type = words[k++];
    }
    if (has_result) {
      if (k >= pos + count) Malformed("missing result id");
      in.id = words[k++];
    }
    in.ops.assign(words.begin() + k, words.begin() + pos + count);
    if (insn_index < masks.masks.size()) {
      const auto& mk = masks.masks[insn_index];
      in.is_id.assign(mk.begin() + (k - pos), mk.end());
    }
    in.is_id.resize(in.ops.size(), false);
    ++insn_index;
    pos += count;

    switch (op) {
      case spv::OpLine:
        if (in.ops.size() >= 2) {
          cur_file = in.ops[0];
          cur_line = in.ops[1];
        }
        continue;
      case spv::OpNoLine:
        cur_file = cur_line = 0;
        continue;
      case spv::OpCapability:
        if (!in.ops.empty()) capabilities_.push_back(in.ops[0]);
        continue;
      case spv::OpMemoryModel:
        if (!in.ops.empty() && in.ops[0] == spv::AddressingModelPhysical64) addressing_bits_ = 64;
        continue;
      case spv::OpExtInstImport:
        ext_sets_[in.id] = LiteralString(in.ops, 0);
        continue;
      case spv::OpString:
        strings_[in.id] = LiteralString(in.ops, 0);
        continue;
      case spv::OpName:
        if (!in.ops.empty()) names_[in.ops[0]] = LiteralString(in.ops, 1);
        continue;
      case spv::OpDecorate:
        if (in.ops.size() >= 2) {
          SpvDecoration d{static_cast<spv::Decoration>(in.ops[1]),
                          std::vector<uint32_t>(in.ops.begin() + 2, in.ops.end())};
          decorations_[in.ops[0]].push_back(d);
        }
        continue;
      case spv::OpEntryPoint: {
        if (in.ops.size() < 3) Malformed("short OpEntryPoint");
        if (in.ops[0] != spv::ExecutionModelKernel) continue;
        SpvEntryPoint ep;
        ep.func = in.ops[1];
        size_t next = 0;
        ep.name = LiteralString(in.ops, 2, &next);
        ep.interface.assign(in.ops.begin() + next, in.ops.end());
        entry_points_.push_back(ep);
        continue;
      }
      case spv::OpExecutionMode:
        if (in.ops.size() >= 3 && in.ops[1] == spv::ExecutionModeSubgroupSize)
          exec_sg_size[in.ops[0]] = in.ops[2];
        continue;
      case spv::OpTypeVoid: types_[in.id].kind = TypeKind::kVoid; continue;
      case spv::OpTypeBool: types_[in.id].kind = TypeKind::kBool; continue;
      case spv::OpTypeInt: {
        SpvType& t = types_[in.id];
        t.kind = TypeKind::kInt;
        t.width = in.ops.at(0);
        t.is_signed = in.ops.size() > 1 && in.ops[1] != 0;
        continue;
      }
      case spv::OpTypeFloat: {
        SpvType& t = types_[in.id];
        t.kind = TypeKind::kFloat;
        t.width = in.ops.at(0);
        continue;
      }
      case spv::OpTypeVector: {
        SpvType& t = types_[in.id];
        t.kind = TypeKind::kVector;
        t.elem = in.ops.at(0);
        t.count = in.ops.at(1);
        continue;
      }
      case spv::OpTypeArray: {
        SpvType& t = types_[in.id];
        t.kind = TypeKind::kArray;
        t.elem = in.ops.at(0);
        uint64_t n = 0;
        if (!ScalarConstant(in.ops.at(1), &n)) Malformed("array length is not a constant");
        t.count = static_cast<uint32_t>(n);
        continue;
      }
      case spv::OpTypeRuntimeArray: {
        SpvType& t = types_[in.id];
        t.kind = TypeKind::kArray;
        t.elem = in.ops.at(0);
        t.count = 0;
        continue;
      }
      case spv::OpTypeStruct: {
        SpvType& t = types_[in.id];
        t.kind = TypeKind::kStruct;
        t.members = in.ops;
        t.packed = HasDecoration(in.id, spv::DecorationCPacked);
        continue;
      }
      case spv::OpTypePointer: {
        SpvType& t = types_[in.id];
        t.kind = TypeKind::kPointer;
        t.storage = static_cast<spv::StorageClass>(in.ops.at(0));
        t.elem = in.ops.at(1);
        continue;
      }
      case spv::OpTypeForwardPointer:
        continue;
      case spv::OpTypeFunction: {
        SpvType& t = types_[in.id];
        t.kind = TypeKind::kFunction;
        t.members = in.ops;
        continue;
      }
      case spv::OpTypeImage: types_[in.id].kind = TypeKind::kImage; continue;
      case spv::OpTypeSampler: types_[in.id].kind = TypeKind::kSampler; continue;
      case spv::OpTypeSampledImage: types_[in.id].kind = TypeKind::kSampledImage; continue;
      case spv::OpTypeEvent: types_[in.id].kind = TypeKind::kEvent; continue;
      case spv::OpTypeOpaque:
      case spv::OpTypeDeviceEvent:
      case spv::OpTypeReserveId:
      case spv::OpTypeQueue:
      case spv::OpTypePipe:
        types_[in.id].kind = TypeKind::kOpaque;
        continue;
      case spv::OpFunction: {
        if (fn) Malformed("nested OpFunction");
        fn = &functions_[in.id];
        fn->id = in.id;
        fn->result_type = in.type;
        fn->type = in.ops.at(1);
        continue;
      }
      case spv::OpFunctionParameter:
        if (!fn) Malformed("OpFunctionParameter outside a function");
        fn->params.push_back(in.id);
        module_defs_[in.id] = in;
        continue;
      case spv::OpFunctionEnd:
        if (!fn) Malformed("OpFunctionEnd outside a function");
        fn = nullptr;
        block = nullptr;
        continue;
      case spv::OpLabel:
        if (!fn) Malformed("OpLabel outside a function");
        fn->blocks.emplace_back();
        block = &fn->blocks.back();
        block->label = in.id;
        continue;
      default:
        break;
    }
    if (op == spv::OpSource || op == spv::OpSourceContinued || op == spv::OpSourceExtension ||
        op == spv::OpExtension || op == spv::OpModuleProcessed || op == spv::OpMemberName ||
        op == spv::OpMemberDecorate || op == spv::OpDecorationGroup ||
        op == spv::OpGroupDecorate || op == spv::OpGroupMemberDecorate ||
        op == spv::OpExecutionModeId) {
      continue;
    }
    in.file = cur_file;
    in.line = cur_line;
    if (block) {
      // OpenCL.DebugInfo.100 instructions inside functions carry no semantics.
      if (op == spv::OpExtInst && in.ops.size() >= 1 &&
          ext_sets_[in.ops[0]].rfind("OpenCL.DebugInfo", 0) == 0) {
        continue;
      }
      block->insns.push_back(in);
    } else if (fn) {
      Malformed("instruction outside a block in a function");
    } else {
      if (op == spv::OpExtInst) continue;  // module-scope debug info
      if (op == spv::OpVariable) globals_.push_back(in);
      if (in.id) module_defs_[in.id] = in;
    }
  }
  for (auto& [id, f] : functions_) {
    if (f.blocks.empty()) {
      f.is_import = true;
      if (const auto* decs = Decorations(id)) {
        for (const auto& d : *decs) {
          if (d.dec == spv::DecorationLinkageAttributes && !d.lits.empty()) {
            f.import_name = LiteralString(d.lits, 0);
          }
        }
      }
      if (f.import_name.empty()) f.import_name = Name(id);
    }
    for (const auto& b : f.blocks) {
      for (const auto& in : b.insns) {
        if (in.id) func_defs_[in.id] = &in;
      }
    }
  }
  for (auto& ep : entry_points_) {
    auto it = exec_sg_size.find(ep.func);
    if (it != exec_sg_size.end()) ep.subgroup_size = it->second;
  }
  for (const auto& [id, s] : strings_) string_list_.push_back(s);
}

const SpvType& SpvModule::Type(uint32_t id) const {
  auto it = types_.find(id);
  if (it == types_.end()) Malformed("%" + std::to_string(id) + " is not a type");
  return it->second;
}

const SpvInsn* SpvModule::Def(uint32_t id) const {
  auto it = module_defs_.find(id);
  if (it != module_defs_.end()) return &it->second;
  auto jt = func_defs_.find(id);
  return jt == func_defs_.end() ? nullptr : jt->second;
}

const SpvFunction* SpvModule::Function(uint32_t id) const {
  auto it = functions_.find(id);
  return it == functions_.end() ? nullptr : &it->second;
}

std::string SpvModule::Name(uint32_t id) const {
  auto it = names_.find(id);
  return it == names_.end() ? "" : it->second;
}

std::string SpvModule::String(uint32_t id) const {
  auto it = strings_.find(id);
  return it == strings_.end() ? "" : it->second;
}

const std::vector<SpvDecoration>* SpvModule::Decorations(uint32_t id) const {
  auto it = decorations_.find(id);
  return it == decorations_.end() ? nullptr : &it->second;
}

bool SpvModule::HasDecoration(uint32_t id, spv::Decoration d, uint32_t* lit0) const {
  const auto* decs = Decorations(id);
  if (!decs) return false;
  for (const auto& x : *decs) {
    if (x.dec == d) {
      if (lit0) *lit0 = x.lits.empty() ? 0 : x.lits[0];
      return true;
    }
  }
  return false;
}

std::string SpvModule::ExtInstSet(uint32_t id) const {
  auto it = ext_sets_.find(id);
  return it == ext_sets_.end() ? "" : it->second;
}

bool SpvModule::ScalarConstant(uint32_t id, uint64_t* value) const {
  auto it = module_defs_.find(id);
  if (it == module_defs_.end()) return false;
  const SpvInsn& in = it->second;
  switch (in.op) {
    case spv::OpConstant:
    case spv::OpSpecConstant:
      *value = in.ops.empty() ? 0 : in.ops[0];
      if (in.ops.size() > 1) *value |= static_cast<uint64_t>(in.ops[1]) << 32;
      return true;
    case spv::OpConstantTrue:
    case spv::OpSpecConstantTrue:
      *value = 1;
      return true;
    case spv::OpConstantFalse:
    case spv::OpSpecConstantFalse:
      *value = 0;
      return true;
    case spv::OpConstantNull: {
      auto t = types_.find(in.type);
      if (t == types_.end()) return false;
      const TypeKind k = t->second.kind;
      if (k == TypeKind::kInt || k == TypeKind::kFloat || k == TypeKind::kBool ||
          k == TypeKind::kPointer) {
        *value = 0;
        return true;
      }
      return false;
    }
    default:
      return false;
  }
}

}  // namespace sgu::compiler
