// SPDX-License-Identifier: Apache-2.0
// SGU assembler and disassembler (syntax: docs/model.md "Assembler").
#ifndef SGU_ASM_H_
#define SGU_ASM_H_

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sgu/insn.h"

namespace sgu {

// An assembly error at a position of the source; what() = "file:line:col: error: msg".
class AsmError : public std::runtime_error {
 public:
  AsmError(std::string file, int line, int col, std::string msg);
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return col_; }
  const std::string& message() const { return msg_; }

 private:
  std::string file_;
  int line_;
  int col_;
  std::string msg_;
};

// An assembled program: words in order, labels as byte offsets from the program start.
struct Program {
  std::vector<uint64_t> words;
  std::map<std::string, uint32_t> labels;
};

// Assemble a source text. Throws AsmError on the first error. Every instruction is checked with
// IllegalReason(word, 32): a program that assembles is legal on the widest machine.
Program Assemble(const std::string& source, const std::string& filename = "<input>");

// One instruction word as canonical text. Legal words (at N = 32) re-assemble to the same
// word; illegal words come out as ".dword 0x...  # illegal: reason".
std::string Disassemble(uint64_t word);

// Reason why `word` is illegal on a machine of num_lanes lanes, nullopt if legal. The one
// legality function (defined in the sgu_isa library, also declared in sgu/insn.h): the model
// traps IllegalInsn exactly when it returns a value.
std::optional<std::string> IllegalReason(uint64_t word, unsigned num_lanes);

}  // namespace sgu

#endif  // SGU_ASM_H_
