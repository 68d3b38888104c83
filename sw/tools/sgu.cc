// SPDX-License-Identifier: Apache-2.0
// `sgu`: the SGU command-line tool. One subcommand per entry of kCommands; adding a command is
// one cmd_*.cc file defining a cli::Command and one line in the table below.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli.h"
#include "sgu/asm.h"
#include "sgu/compiler.h"

namespace {

using sgu::cli::Command;

const Command* const kCommands[] = {
    &sgu::cli::kCompileCommand,
    &sgu::cli::kRunCommand,
    &sgu::cli::kAsmCommand,
    &sgu::cli::kDisasmCommand,
    &sgu::cli::kSimCommand,
};

void PrintHelp(std::FILE* out) {
  std::fprintf(out,
               "usage: sgu COMMAND [ARGS...]\n"
               "       sgu COMMAND --help\n\n"
               "The SGU software tools (docs/user-guide.md, docs/model.md).\n\ncommands:\n");
  for (const Command* c : kCommands) std::fprintf(out, "  %-8s %s\n", c->name, c->summary);
  std::fprintf(out,
               "\nexit status: 0 success, 1 error (or the kernel faulted), 2 usage error\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    PrintHelp(stderr);
    return 2;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    PrintHelp(stdout);
    return 0;
  }
  const Command* cmd = nullptr;
  for (const Command* c : kCommands) {
    if (args[0] == c->name) cmd = c;
  }
  if (cmd == nullptr) {
    std::fprintf(stderr, "sgu: unknown command '%s' (see sgu --help)\n", args[0].c_str());
    return 2;
  }
  args.erase(args.begin());
  try {
    return cmd->run(args);
  } catch (const sgu::cli::UsageError& e) {
    std::fprintf(stderr, "sgu %s: %s (see sgu %s --help)\n", cmd->name, e.what(), cmd->name);
    return 2;
  } catch (const sgu::AsmError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const sgu::compiler::CompileError& e) {
    // Ready to print: clang's diagnostics or "FILE:LINE: error: ...".
    std::string m = e.what();
    while (!m.empty() && m.back() == '\n') m.pop_back();
    std::fprintf(stderr, "%s\n", m.c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sgu %s: error: %s\n", cmd->name, e.what());
    return 1;
  }
}
