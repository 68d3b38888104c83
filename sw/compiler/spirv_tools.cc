// SPDX-License-Identifier: Apache-2.0
// SPIR-V modules from files, and SPIRV-Tools' validator and disassembler on them.
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "spirv-tools/libspirv.hpp"
#include "spirv/unified1/spirv.hpp"

#include "frontend.h"
#include "sgu/compiler.h"

namespace sgu::compiler {

namespace {

constexpr size_t kHeaderWords = 5;  // magic, version, generator, bound, schema

uint32_t ByteSwap(uint32_t w) {
  return (w >> 24) | ((w >> 8) & 0xFF00u) | ((w << 8) & 0xFF0000u) | (w << 24);
}

// The literal string operand that starts at words[first] (nul-terminated, little-endian bytes).
std::string LiteralString(const std::vector<uint32_t>& words, size_t first, size_t end) {
  std::string s;
  for (size_t i = first; i < end; ++i) {
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((words[i] >> (8 * b)) & 0xFF);
      if (c == '\0') return s;
      s += c;
    }
  }
  return s;
}

bool IsDebugInfoSet(const std::string& name) {
  return name == "OpenCL.DebugInfo.100" || name == "SPIRV.debug";
}

// The target environment to validate a module of this version against: OpenCL 2.2 (the
// OpenCL rules, SPIR-V up to 1.2) where it can, else the universal environment of the
// module's version (llvm-spirv-15 writes 1.3 for the Khronos sub-group operations, 1.4 for
// NoSignedWrap decorations).
spv_target_env TargetEnv(uint32_t version_word) {
  const uint32_t major = (version_word >> 16) & 0xFF;
  const uint32_t minor = (version_word >> 8) & 0xFF;
  if (major == 1) {
    switch (minor) {
      case 0:
      case 1:
      case 2:
        return SPV_ENV_OPENCL_2_2;
      case 3:
        return SPV_ENV_UNIVERSAL_1_3;
      case 4:
        return SPV_ENV_UNIVERSAL_1_4;
      case 5:
        return SPV_ENV_UNIVERSAL_1_5;
      case 6:
        return SPV_ENV_UNIVERSAL_1_6;
      default:
        break;
    }
  }
  throw CompileError("error: unsupported SPIR-V version " + std::to_string(major) + "." +
                     std::to_string(minor) + " (the SGU reads SPIR-V 1.0 to 1.6)");
}

void CheckHeader(const std::vector<uint32_t>& words) {
  if (words.size() < kHeaderWords) {
    throw CompileError("error: not a SPIR-V module: " + std::to_string(words.size()) +
                       " words, fewer than the 5-word header");
  }
  if (words[0] != spv::MagicNumber) {
    std::ostringstream ss;
    ss << "error: not a SPIR-V module: magic number 0x" << std::hex << words[0] << ", not 0x"
       << spv::MagicNumber;
    throw CompileError(ss.str());
  }
}

// Collects SPIRV-Tools' messages, one per line, "error: line N: text".
class Messages {
 public:
  void Attach(spvtools::SpirvTools& tools) {
    tools.SetMessageConsumer([this](spv_message_level_t level, const char*,
                                    const spv_position_t& position, const char* message) {
      const char* kind = level <= SPV_MSG_ERROR     ? "error"
                         : level == SPV_MSG_WARNING ? "warning"
                                                    : "note";
      if (!text_.empty()) text_ += '\n';
      text_ +=
          std::string(kind) + ": instruction " + std::to_string(position.index) + ": " + message;
    });
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

}  // namespace

namespace internal {

std::vector<uint32_t> StripDebugInfo(const std::vector<uint32_t>& words, size_t* removed) {
  if (removed) *removed = 0;
  if (words.size() < kHeaderWords || words[0] != spv::MagicNumber) return words;
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  out.reserve(words.size());
  std::set<uint32_t> debug_sets;
  size_t n = 0;
  size_t pos = kHeaderWords;
  while (pos < words.size()) {
    const uint32_t count = words[pos] >> spv::WordCountShift;
    const uint32_t opcode = words[pos] & spv::OpCodeMask;
    if (count == 0 || pos + count > words.size()) return words;  // malformed: leave it alone
    bool drop = false;
    if (opcode == spv::OpExtInstImport && count >= 3 &&
        IsDebugInfoSet(LiteralString(words, pos + 2, pos + count))) {
      debug_sets.insert(words[pos + 1]);
      drop = true;
    } else if (opcode == spv::OpExtInst && count >= 5 && debug_sets.count(words[pos + 3])) {
      drop = true;
    }
    if (drop) {
      ++n;
    } else {
      out.insert(out.end(), words.begin() + pos, words.begin() + pos + count);
    }
    pos += count;
  }
  if (removed) *removed = n;
  return out;
}

}  // namespace internal

std::vector<uint32_t> ReadSpirvFile(const std::string& path) {
  if (std::filesystem::is_directory(path)) {
    throw CompileError("error: cannot read " + path + ": it is a directory");
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) throw CompileError("error: cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) throw CompileError("error: cannot read " + path + ": " + std::strerror(errno));
  const std::string bytes = ss.str();
  if (bytes.empty()) throw CompileError("error: " + path + " is empty, not a SPIR-V module");
  if (bytes.size() % 4 != 0) {
    throw CompileError("error: " + path + " is not a SPIR-V module: its size (" +
                       std::to_string(bytes.size()) + " bytes) is not a multiple of 4");
  }
  std::vector<uint32_t> words(bytes.size() / 4);
  for (size_t i = 0; i < words.size(); ++i) {
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data()) + 4 * i;
    words[i] = uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
  }
  if (words.size() < kHeaderWords) {
    throw CompileError("error: " + path + " is not a SPIR-V module: " +
                       std::to_string(bytes.size()) + " bytes, shorter than the 20-byte header");
  }
  if (words[0] == ByteSwap(spv::MagicNumber)) {  // written big-endian: convert every word
    for (uint32_t& w : words) w = ByteSwap(w);
  }
  if (words[0] != spv::MagicNumber) {
    std::ostringstream msg;
    msg << "error: " << path << " is not a SPIR-V module (its first word is 0x" << std::hex
        << words[0] << ", not the magic number 0x" << spv::MagicNumber << ")";
    throw CompileError(msg.str());
  }
  return words;
}

namespace {

// Puts each function's blocks in depth-first preorder from its entry, so that every block
// follows its dominators. llvm-spirv-15 keeps LLVM's block order, which the validator rejects
// ("appears in the binary before its dominator"); the order carries no meaning otherwise.
std::vector<uint32_t> DominatorOrder(const std::vector<uint32_t>& w) {
  std::vector<uint32_t> out(w.begin(), w.begin() + std::min<size_t>(5, w.size()));
  size_t pos = 5;
  while (pos < w.size()) {
    const uint32_t count = w[pos] >> 16;
    if (count == 0 || pos + count > w.size()) return w;
    const uint32_t op = w[pos] & 0xffff;
    if (op != spv::OpLabel) {
      out.insert(out.end(), w.begin() + pos, w.begin() + pos + count);
      pos += count;
      continue;
    }
    // Blocks until OpFunctionEnd.
    std::vector<std::pair<size_t, size_t>> blocks;  // [begin, end) word ranges
    std::map<uint32_t, size_t> index;
    size_t end = pos;
    while (end < w.size() && (w[end] & 0xffff) != spv::OpFunctionEnd) {
      const uint32_t c = w[end] >> 16;
      if (c == 0 || end + c > w.size()) return w;
      if ((w[end] & 0xffff) == spv::OpLabel) {
        if (!blocks.empty()) blocks.back().second = end;
        index[w[end + 1]] = blocks.size();
        blocks.push_back({end, 0});
      }
      end += c;
    }
    if (blocks.empty()) return w;
    blocks.back().second = end;
    std::vector<std::vector<size_t>> succ(blocks.size());
    for (size_t b = 0; b < blocks.size(); ++b) {
      size_t last = blocks[b].first;
      for (size_t at = blocks[b].first; at < blocks[b].second; at += w[at] >> 16) last = at;
      const uint32_t top = w[last] & 0xffff, c = w[last] >> 16;
      std::vector<uint32_t> targets;
      if (top == spv::OpBranch && c >= 2) targets = {w[last + 1]};
      if (top == spv::OpBranchConditional && c >= 4) targets = {w[last + 2], w[last + 3]};
      if (top == spv::OpSwitch && c >= 3) {
        targets.push_back(w[last + 2]);
        for (uint32_t k = 4; k < c; k += 2) targets.push_back(w[last + k]);
      }
      for (uint32_t t : targets) {
        auto it = index.find(t);
        if (it != index.end()) succ[b].push_back(it->second);
      }
    }
    std::vector<size_t> order;
    std::vector<bool> seen(blocks.size(), false);
    std::vector<size_t> stack{0};
    while (!stack.empty()) {
      const size_t b = stack.back();
      stack.pop_back();
      if (seen[b]) continue;
      seen[b] = true;
      order.push_back(b);
      for (auto it = succ[b].rbegin(); it != succ[b].rend(); ++it) {
        if (!seen[*it]) stack.push_back(*it);
      }
    }
    for (size_t b = 0; b < blocks.size(); ++b) {
      if (!seen[b]) order.push_back(b);
    }
    for (size_t b : order) {
      out.insert(out.end(), w.begin() + blocks[b].first, w.begin() + blocks[b].second);
    }
    pos = end;
  }
  return out;
}

}  // namespace

// From SPIR-V 1.4 on, an OpEntryPoint must list every module-scope variable its function uses;
// llvm-spirv-15 lists only the built-ins. Each entry point gets every module-scope variable
// (the SGU compiler does not read the interface lists).
std::vector<uint32_t> CompleteInterfaces(const std::vector<uint32_t>& w) {
  if (w.size() < 5 || w[1] < 0x00010400u) return w;
  std::vector<uint32_t> vars;
  for (size_t pos = 5; pos < w.size();) {
    const uint32_t count = w[pos] >> 16, op = w[pos] & 0xffff;
    if (count == 0 || pos + count > w.size()) return w;
    if (op == spv::OpFunction) break;
    if (op == spv::OpVariable && count >= 4 && w[pos + 3] != spv::StorageClassFunction) {
      vars.push_back(w[pos + 2]);
    }
    pos += count;
  }
  std::vector<uint32_t> out(w.begin(), w.begin() + 5);
  for (size_t pos = 5; pos < w.size();) {
    const uint32_t count = w[pos] >> 16, op = w[pos] & 0xffff;
    if (op != spv::OpEntryPoint) {
      out.insert(out.end(), w.begin() + pos, w.begin() + pos + count);
      pos += count;
      continue;
    }
    // OpEntryPoint model func "name" interface...: the name ends at the word with a 0 byte.
    size_t k = pos + 3;
    while (k < pos + count) {
      const uint32_t x = w[k++];
      if ((x & 0xff) == 0 || (x & 0xff00) == 0 || (x & 0xff0000) == 0 || (x & 0xff000000) == 0) break;
    }
    std::vector<uint32_t> insn(w.begin() + pos, w.begin() + pos + count);
    std::set<uint32_t> have(w.begin() + k, w.begin() + pos + count);
    for (uint32_t v : vars) {
      if (!have.count(v)) insn.push_back(v);
    }
    insn[0] = (static_cast<uint32_t>(insn.size()) << 16) | op;
    out.insert(out.end(), insn.begin(), insn.end());
    pos += count;
  }
  return out;
}

// LLVM lists a predecessor twice in a phi when it branches to the block on both edges of a
// conditional branch; llvm-spirv-15 keeps both pairs, which the validator rejects. Repeated
// (value, parent) pairs are dropped from the validator's copy (the compiler accepts them).
std::vector<uint32_t> DedupePhiParents(const std::vector<uint32_t>& w) {
  std::vector<uint32_t> out(w.begin(), w.begin() + std::min<size_t>(5, w.size()));
  for (size_t pos = 5; pos < w.size();) {
    const uint32_t count = w[pos] >> 16, op = w[pos] & 0xffff;
    if (count == 0 || pos + count > w.size()) return w;
    if (op != spv::OpPhi || count < 5) {
      out.insert(out.end(), w.begin() + pos, w.begin() + pos + count);
      pos += count;
      continue;
    }
    std::vector<uint32_t> insn(w.begin() + pos, w.begin() + pos + 3);
    std::set<uint32_t> parents;
    for (size_t k = pos + 3; k + 1 < pos + count; k += 2) {
      if (parents.insert(w[k + 1]).second) {
        insn.push_back(w[k]);
        insn.push_back(w[k + 1]);
      }
    }
    insn[0] = (static_cast<uint32_t>(insn.size()) << 16) | op;
    out.insert(out.end(), insn.begin(), insn.end());
    pos += count;
  }
  return out;
}

void ValidateSpirv(const std::vector<uint32_t>& words0) {
  CheckHeader(words0);
  const std::vector<uint32_t> words =
      DedupePhiParents(CompleteInterfaces(DominatorOrder(words0)));
  // Debug information is not validated: SPIRV-Tools 2023.1 rejects or cannot parse what
  // llvm-spirv-15 writes there, and the SGU reads only OpLine (see StripDebugInfo).
  const std::vector<uint32_t> module = internal::StripDebugInfo(words);
  spvtools::SpirvTools tools(TargetEnv(module[1]));
  Messages messages;
  messages.Attach(tools);
  // (Block order is fixed by DominatorOrder above. ValidatorOptions::SetSkipBlockLayout would
  // not help there: it is about the memory layout of Block-decorated structs.)
  spvtools::ValidatorOptions options;
  if (!tools.Validate(module.data(), module.size(), options)) {
    throw CompileError("error: invalid SPIR-V module (SPIRV-Tools validator):\n" + messages.text());
  }
}

std::string DisassembleSpirv(const std::vector<uint32_t>& words) {
  CheckHeader(words);
  const uint32_t options =
      SPV_BINARY_TO_TEXT_OPTION_INDENT | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES;
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  Messages messages;
  messages.Attach(tools);
  std::string text;
  if (tools.Disassemble(words, &text, options)) return text;
  // SPIRV-Tools cannot parse some debug information llvm-spirv-15 writes; show the rest.
  size_t removed = 0;
  const std::vector<uint32_t> stripped = internal::StripDebugInfo(words, &removed);
  spvtools::SpirvTools retry(SPV_ENV_UNIVERSAL_1_6);
  Messages retry_messages;
  retry_messages.Attach(retry);
  if (removed > 0 && retry.Disassemble(stripped, &text, options)) {
    return "; " + std::to_string(removed) +
           " debug-information instructions (OpenCL.DebugInfo.100) left out: SPIRV-Tools "
           "cannot parse them:\n; " +
           messages.text() + "\n" + text;
  }
  throw CompileError("error: cannot disassemble the SPIR-V module:\n" + messages.text());
}

}  // namespace sgu::compiler
