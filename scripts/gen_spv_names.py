#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the SPIR-V opcode-name table of the SGU compiler from the Khronos machine-readable
grammar (spirv-headers' spirv.core.grammar.json), so that error messages name instructions.

usage: gen_spv_names.py GRAMMAR.json OPENCL_STD_GRAMMAR.json OUTPUT.cc
"""
import json
import sys


def main():
    grammar_path, ocl_path, out_path = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(grammar_path) as f:
        grammar = json.load(f)
    names = {}
    for insn in grammar["instructions"]:
        names.setdefault(insn["opcode"], insn["opname"])
    lines = [
        "// Generated from spirv.core.grammar.json by scripts/gen_spv_names.py: do not edit.",
        "#include <cstdint>",
        "",
        "namespace sgu::compiler {",
        "",
        "// Name of a SPIR-V opcode (\"OpIAdd\"), or nullptr when the grammar has none.",
        "const char* SpvOpName(uint32_t op) {",
        "  switch (op) {",
    ]
    for code in sorted(names):
        lines.append('    case %d: return "%s";' % (code, names[code]))
    lines += ["    default: return nullptr;", "  }", "}", ""]
    with open(ocl_path) as f:
        ocl = json.load(f)
    lines += [
        "// Name of an OpenCL.std extended instruction (\"fma\"), or nullptr.",
        "const char* OpenClStdName(uint32_t op) {",
        "  switch (op) {",
    ]
    seen = set()
    for insn in ocl["instructions"]:
        if insn["opcode"] in seen:
            continue
        seen.add(insn["opcode"])
        lines.append('    case %d: return "%s";' % (insn["opcode"], insn["opname"]))
    lines += ["    default: return nullptr;", "  }", "}", "", "}  // namespace sgu::compiler", ""]
    text = "\n".join(lines)
    try:
        with open(out_path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(out_path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
