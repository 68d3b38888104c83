// SPDX-License-Identifier: Apache-2.0
// Shared pieces of the `sgu` command-line tool: the command table, argument parsing, file I/O.
#ifndef SGU_TOOLS_CLI_H_
#define SGU_TOOLS_CLI_H_

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace sgu {
namespace cli {

// A command-line mistake: main() prints it with the usage hint and exits with code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Any other failure (unreadable file, bad program): exit code 1.
class ToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One subcommand. `run` gets the arguments after the command name and returns the exit code.
struct Command {
  const char* name;
  const char* summary;
  const char* help;  // full usage text of `sgu NAME --help`
  int (*run)(const std::vector<std::string>& args);
};

// The commands, in the order `sgu --help` lists them (each cmd_*.cc defines one or more).
extern const Command kAsmCommand;
extern const Command kDisasmCommand;
extern const Command kSimCommand;
extern const Command kCompileCommand;
extern const Command kRunCommand;

// Options of one command: "--name VALUE", "--name=VALUE", flags, repeated options, positionals.
class Args {
 public:
  // value_opts take a value, flag_opts do not; "-o" style short names are allowed in both.
  Args(const std::vector<std::string>& argv, const std::vector<std::string>& value_opts,
       const std::vector<std::string>& flag_opts);
  bool Has(const std::string& name) const { return values_.count(name) != 0; }
  bool Flag(const std::string& name) const { return flags_.count(name) != 0; }
  // Last value of an option, or def.
  std::string Get(const std::string& name, const std::string& def = "") const;
  const std::vector<std::string>& All(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }
  bool help() const { return help_; }

 private:
  std::map<std::string, std::vector<std::string>> values_;
  std::map<std::string, bool> flags_;
  std::vector<std::string> positional_;
  bool help_ = false;
};

// Unsigned integer (decimal or 0x hex) in [0, max]; `what` names it in the UsageError.
uint64_t ParseUnsigned(const std::string& text, uint64_t max, const std::string& what);
// 32-bit value: -2^31..2^32-1, decimal or 0x hex.
uint32_t ParseWord(const std::string& text, const std::string& what);

std::string ReadFile(const std::string& path);
// Writes through a temporary file in the same directory and renames it: a failed run leaves
// neither a partial output nor a temporary file.
void WriteFileAtomic(const std::string& path, const std::string& bytes);

// A program from a file: raw little-endian words if the name ends in ".bin", else assembly.
std::vector<uint64_t> LoadProgram(const std::string& path);

// Removes the OpenCL build options (clBuildProgram style) from argv and returns them in order:
// -DNAME[=V] / -D NAME[=V], -IDIR / -I DIR, and every -cl-* option (-cl-std=CL2.0,
// -cl-fast-relaxed-math, ...). "-D" or "-I" without a value is a UsageError.
std::vector<std::string> TakeBuildOptions(std::vector<std::string>& argv);

// "X[,Y[,Z]]": one to three positive sizes; `what` names the option in the UsageError.
std::vector<uint32_t> ParseSizes(const std::string& text, const std::string& what);

}  // namespace cli
}  // namespace sgu

#endif  // SGU_TOOLS_CLI_H_
