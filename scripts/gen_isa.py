#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate every encoding-aware file from isa/sgu_isa.txt.

Writes rtl/sgu_isa_pkg.sv, sw/include/sgu/isa_gen.h and docs/isa.md (docs/isa.md = the
hand-written design in isa/isa_design.md followed by generated tables).

  scripts/gen_isa.py           regenerate the files
  scripts/gen_isa.py --check   exit 1 and name each file that differs from what would be written

The parser checks the source: fields cover all 64 bits without overlap, opcodes and names are
unique and fit 8 bits, no instruction sits in a reserved range, every typeset/modset exists.
"""
import argparse
import os
import re
import shlex
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = "isa/sgu_isa.txt"
DESIGN = "isa/isa_design.md"
OUT_SV = "rtl/sgu_isa_pkg.sv"
OUT_H = "sw/include/sgu/isa_gen.h"
OUT_MD = "docs/isa.md"

USE_BITS = {"rd": 0, "rs1": 1, "rs2": 2, "rs3": 3, "imm": 4}
FORMS = {
    "N": ("", "no operands"),
    "I": ("IMM", "immediate"),
    "L": ("LABEL", "branch target (label or instruction offset)"),
    "RL": ("rs1, LABEL", "scalar condition and branch target"),
    "S": ("rs1", "one source"),
    "R": ("rd", "destination only"),
    "RR": ("rd, rs1", "destination and one source"),
    "RI": ("rd, IMM", "destination and immediate"),
    "RRR": ("rd, rs1, rs2", "destination and two sources"),
    "RRRR": ("rd, rs1, rs2, rs3", "destination and three sources"),
    "RRI": ("rd, rs1, IMM", "destination, source and immediate"),
    "SHFL": ("rd, rs1, rs2[, rs3]", "crossbar: data A, index/delta, B or default (s0 if omitted)"),
    "LD": ("rd, [rs1 + IMM]", "load"),
    "ST": ("[rs1 + IMM], rs2", "store"),
}


class IsaError(Exception):
    pass


def camel(name):
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[_\s]+", name) if p)


def parse(path):
    isa = {"fields": [], "dtypes": [], "typesets": {}, "modsets": {}, "insns": [],
           "reserved": [], "causes": [], "csrs": [], "specials": [], "params": {}}
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            try:
                tok = shlex.split(raw, comments=True)
            except ValueError as e:
                raise IsaError(f"{path}:{lineno}: {e}")
            if not tok:
                continue
            kind, args = tok[0], tok[1:]
            where = f"{path}:{lineno}"
            try:
                if kind == "field":
                    isa["fields"].append({"name": args[0], "msb": int(args[1]), "lsb": int(args[2]),
                                          "signed": len(args) > 3 and args[3] == "signed"})
                elif kind == "dtype":
                    isa["dtypes"].append({"name": args[0], "code": int(args[1]), "bits": int(args[2]),
                                          "cls": args[3]})
                elif kind == "typeset":
                    isa["typesets"][args[0]] = args[1:]
                elif kind == "modset":
                    vals = {}
                    for a in args[1:]:
                        v, n = a.split(":")
                        vals[int(v)] = n
                    isa["modsets"][args[0]] = vals
                elif kind == "insn":
                    name, opc, form, ts, ms, uses, sem = args
                    isa["insns"].append({"name": name, "opcode": int(opc, 0), "form": form,
                                         "typeset": ts, "modset": ms,
                                         "uses": [] if uses == "-" else uses.split(","),
                                         "sem": sem, "where": where})
                elif kind == "reserved":
                    isa["reserved"].append({"lo": int(args[0], 0), "hi": int(args[1], 0),
                                            "group": args[2], "text": args[3]})
                elif kind == "cause":
                    isa["causes"].append({"name": args[0], "code": int(args[1]), "text": args[2]})
                elif kind == "csr":
                    isa["csrs"].append({"name": args[0], "addr": int(args[1], 0), "access": args[2],
                                        "text": args[3]})
                elif kind == "special":
                    isa["specials"].append({"name": args[0], "index": int(args[1]), "text": args[2]})
                elif kind in ("isa_version", "mask_stack_depth"):
                    isa["params"][kind] = int(args[0])
                else:
                    raise IsaError(f"{where}: unknown line kind '{kind}'")
            except (IndexError, ValueError) as e:
                raise IsaError(f"{where}: malformed '{kind}' line ({e})")
    check(isa)
    return isa


def check(isa):
    covered = [None] * 64
    for f in isa["fields"]:
        for b in range(f["lsb"], f["msb"] + 1):
            if covered[b]:
                raise IsaError(f"bit {b} is in both field {covered[b]} and {f['name']}")
            covered[b] = f["name"]
    if None in covered:
        raise IsaError(f"bit {covered.index(None)} belongs to no field")
    names, opcodes = set(), {}
    dtnames = {d["name"] for d in isa["dtypes"]}
    for ts, members in isa["typesets"].items():
        for m in members:
            if m not in dtnames:
                raise IsaError(f"typeset {ts}: unknown dtype {m}")
    for i in isa["insns"]:
        w = i["where"]
        if i["name"] in names:
            raise IsaError(f"{w}: duplicate instruction name {i['name']}")
        names.add(i["name"])
        if not 0 <= i["opcode"] <= 0xFF:
            raise IsaError(f"{w}: opcode {i['opcode']:#x} does not fit 8 bits")
        if i["opcode"] in opcodes:
            raise IsaError(f"{w}: opcode {i['opcode']:#x} used by {opcodes[i['opcode']]} and {i['name']}")
        opcodes[i["opcode"]] = i["name"]
        if i["typeset"] not in isa["typesets"]:
            raise IsaError(f"{w}: unknown typeset {i['typeset']}")
        if i["modset"] not in isa["modsets"]:
            raise IsaError(f"{w}: unknown modset {i['modset']}")
        if i["form"] not in FORMS:
            raise IsaError(f"{w}: unknown form {i['form']}")
        for u in i["uses"]:
            if u not in USE_BITS:
                raise IsaError(f"{w}: unknown field use {u}")
        for r in isa["reserved"]:
            if r["lo"] <= i["opcode"] <= r["hi"]:
                raise IsaError(f"{w}: opcode {i['opcode']:#x} lies in reserved range {r['group']}")
    for a in isa["reserved"]:
        for b in isa["reserved"]:
            if a is not b and a["lo"] <= b["hi"] and b["lo"] <= a["hi"]:
                raise IsaError(f"reserved ranges {a['group']} and {b['group']} overlap")


def dtype_mask(isa, ts):
    codes = {d["name"]: d["code"] for d in isa["dtypes"]}
    m = 0
    for n in isa["typesets"][ts]:
        m |= 1 << codes[n]
    return m


def mod_mask(isa, ms):
    m = 0
    for v in isa["modsets"][ms]:
        m |= 1 << v
    return m


def uses_mask(i):
    m = 0
    for u in i["uses"]:
        m |= 1 << USE_BITS[u]
    return m


HEADER_SV = f"// Generated by scripts/gen_isa.py from {SRC}. Do not edit: edit the source and run `make isa`.\n"
HEADER_H = f"// Generated by scripts/gen_isa.py from {SRC}. Do not edit: edit the source and run `make isa`.\n"
HEADER_MD = (f"<!-- Generated by scripts/gen_isa.py from {DESIGN} and {SRC}. Do not edit: edit the sources "
             "and run `make isa`. -->\n")


def gen_sv(isa):
    o = [HEADER_SV, "// SPDX-License-Identifier: Apache-2.0\n",
         "// SGU instruction set package: encodings, trap causes, register map, decode table.\n\n",
         "package sgu_isa_pkg;\n\n"]
    p = isa["params"]
    o.append(f"  localparam int unsigned IsaVersion = {p['isa_version']};\n")
    o.append(f"  localparam int unsigned MaskStackDepth = {p['mask_stack_depth']};\n\n")
    o.append("  // Instruction word fields.\n")
    for f in isa["fields"]:
        o.append(f"  localparam int unsigned {camel(f['name'])}Lsb = {f['lsb']};\n")
        o.append(f"  localparam int unsigned {camel(f['name'])}Width = {f['msb'] - f['lsb'] + 1};\n")
    o.append("\n  typedef struct packed {\n")
    for f in sorted(isa["fields"], key=lambda f: -f["msb"]):
        o.append(f"    logic [{f['msb'] - f['lsb']}:0] {f['name']};\n")
    o.append("  } insn_t;\n\n")
    o.append("  typedef enum logic [7:0] {\n")
    ins = sorted(isa["insns"], key=lambda i: i["opcode"])
    o.append(",\n".join(f"    Op{camel(i['name'])} = 8'h{i['opcode']:02x}" for i in ins))
    o.append("\n  } opcode_e;\n\n")
    o.append("  typedef enum logic [3:0] {\n")
    o.append(",\n".join(f"    Dt{camel(d['name'])} = 4'd{d['code']}" for d in isa["dtypes"]))
    o.append("\n  } dtype_e;\n\n")
    for ms, vals in isa["modsets"].items():
        if ms in ("none", "src"):
            continue
        o.append(f"  // mod values of the '{ms}' set\n")
        for v, n in sorted(vals.items()):
            o.append(f"  localparam logic [3:0] Mod{camel(ms)}{camel(n)} = 4'd{v};\n")
    o.append("\n  typedef enum logic [7:0] {\n")
    o.append(",\n".join(f"    Cause{c['name']} = 8'd{c['code']}" for c in isa["causes"]))
    o.append("\n  } cause_e;\n\n")
    o.append("  // AXI4-Lite register byte addresses.\n")
    for c in isa["csrs"]:
        o.append(f"  localparam logic [7:0] Csr{camel(c['name'].lower())} = 8'h{c['addr']:02x};\n")
    o.append("\n  // csrr special value numbers.\n")
    for s in isa["specials"]:
        o.append(f"  localparam int unsigned Special{s['name']} = {s['index']};\n")
    o.append("\n  // Static decode information of one opcode.\n")
    o.append("  typedef struct packed {\n")
    o.append("    logic        valid;   // opcode is defined\n")
    o.append("    logic [4:0]  uses;    // fields read: {imm, rs3, rs2, rs1, rd}; others must be zero\n")
    o.append("    logic [15:0] dtypes;  // legal dt values (bit per code)\n")
    o.append("    logic [15:0] mods;    // legal mod values (bit per value)\n")
    o.append("  } insn_info_t;\n\n")
    o.append("  function automatic insn_info_t insn_info(logic [7:0] opcode);\n")
    o.append("    insn_info_t info;\n")
    o.append("    unique case (opcode)\n")
    for i in ins:
        o.append(f"      Op{camel(i['name'])}: info = '{{1'b1, 5'h{uses_mask(i):02x}, "
                 f"16'h{dtype_mask(isa, i['typeset']):04x}, 16'h{mod_mask(isa, i['modset']):04x}}};\n")
    o.append("      default: info = '0;\n")
    o.append("    endcase\n")
    o.append("    return info;\n")
    o.append("  endfunction\n\n")
    o.append("endpackage\n")
    return "".join(o)


def gen_h(isa):
    o = [HEADER_H, "// SPDX-License-Identifier: Apache-2.0\n",
         "// SGU instruction set: encodings, trap causes, register map, decode table.\n",
         "#ifndef SGU_ISA_GEN_H_\n#define SGU_ISA_GEN_H_\n\n#include <cstdint>\n\n",
         "namespace sgu {\nnamespace isa {\n\n"]
    p = isa["params"]
    o.append(f"inline constexpr uint32_t kIsaVersion = {p['isa_version']};\n")
    o.append(f"inline constexpr uint32_t kMaskStackDepth = {p['mask_stack_depth']};\n\n")
    o.append("// Instruction word fields: bit position and width.\n")
    for f in isa["fields"]:
        o.append(f"inline constexpr unsigned k{camel(f['name'])}Lsb = {f['lsb']};\n")
        o.append(f"inline constexpr unsigned k{camel(f['name'])}Width = {f['msb'] - f['lsb'] + 1};\n")
    o.append("\nenum class Op : uint8_t {\n")
    ins = sorted(isa["insns"], key=lambda i: i["opcode"])
    for i in ins:
        o.append(f"  k{camel(i['name'])} = 0x{i['opcode']:02x},\n")
    o.append("};\n\nenum class Dtype : uint8_t {\n")
    for d in isa["dtypes"]:
        o.append(f"  k{camel(d['name'])} = {d['code']},\n")
    o.append("};\n\n")
    o.append("enum class DtypeClass : uint8_t { kInt, kUint, kFloat };\n\n")
    o.append("struct DtypeInfo {\n  const char* name;  // nullptr: code not defined\n"
             "  unsigned bits;\n  DtypeClass cls;\n};\n\n")
    o.append("inline constexpr DtypeInfo kDtypes[16] = {\n")
    byc = {d["code"]: d for d in isa["dtypes"]}
    for c in range(16):
        d = byc.get(c)
        if d:
            cls = {"int": "kInt", "uint": "kUint", "float": "kFloat"}[d["cls"]]
            o.append(f"    {{\"{d['name']}\", {d['bits']}, DtypeClass::{cls}}},\n")
        else:
            o.append("    {nullptr, 0, DtypeClass::kInt},\n")
    o.append("};\n\n")
    for ms, vals in isa["modsets"].items():
        if ms == "none":
            continue
        o.append(f"// mod values of the '{ms}' set\n")
        o.append(f"enum class Mod{camel(ms)} : uint8_t {{\n")
        for v, n in sorted(vals.items()):
            o.append(f"  k{camel(n)} = {v},\n")
        o.append("};\n")
    o.append("\n// Names of each mod value per modset (nullptr: value not legal).\n")
    for ms, vals in isa["modsets"].items():
        names = ", ".join(
            ("nullptr" if (v not in vals or vals[v] == "-") else f'"{vals[v]}"') for v in range(16))
        o.append(f"inline constexpr const char* kModNames{camel(ms)}[16] = {{{names}}};\n")
    o.append("\nenum class Cause : uint8_t {\n")
    for c in isa["causes"]:
        o.append(f"  k{c['name']} = {c['code']},  // {c['text']}\n")
    o.append("};\n\n")
    o.append("inline const char* CauseName(Cause c) {\n  switch (c) {\n")
    for c in isa["causes"]:
        o.append(f"    case Cause::k{c['name']}: return \"{c['name']}\";\n")
    o.append("  }\n  return \"Unknown\";\n}\n\n")
    o.append("// AXI4-Lite register byte addresses.\nnamespace csr {\n")
    for c in isa["csrs"]:
        o.append(f"inline constexpr uint32_t k{camel(c['name'].lower())} = 0x{c['addr']:02x};  // {c['text']}\n")
    o.append("}  // namespace csr\n\n")
    o.append("// csrr special value numbers.\nenum class Special : uint32_t {\n")
    for s in isa["specials"]:
        o.append(f"  k{s['name']} = {s['index']},\n")
    o.append("};\n\n")
    o.append("// Names of the special values, indexed by number (csrr operand syntax).\n")
    specials = sorted(isa["specials"], key=lambda s: s["index"])
    if [s["index"] for s in specials] != list(range(len(specials))):
        raise IsaError("special value numbers must be 0, 1, 2, ... without gaps")
    o.append(f"inline constexpr const char* kSpecialNames[{len(specials)}] = {{"
             + ", ".join(f'"{s["name"]}"' for s in specials) + "};\n\n")
    o.append("enum class Form : uint8_t {")
    o.append(", ".join(f"k{f}" for f in FORMS))
    o.append("};\n\n")
    o.append("// Field-use bits of InsnInfo::uses.\n")
    for u, b in USE_BITS.items():
        o.append(f"inline constexpr uint8_t kUse{camel(u)} = 1u << {b};\n")
    o.append("\nstruct InsnInfo {\n  const char* name;\n  Op op;\n  Form form;\n"
             "  uint16_t dtypes;              // legal dt values (bit per code)\n"
             "  uint16_t mods;                // legal mod values (bit per value)\n"
             "  const char* const* mod_names; // names of the mod values, indexed by value\n"
             "  uint8_t uses;                 // kUse* bits: fields read; the others must be zero\n"
             "  const char* semantics;\n};\n\n")
    o.append(f"inline constexpr InsnInfo kInsns[{len(ins)}] = {{\n")
    for i in ins:
        sem = i["sem"].replace("\\", "\\\\").replace('"', '\\"')
        o.append(f"    {{\"{i['name']}\", Op::k{camel(i['name'])}, Form::k{i['form']}, "
                 f"0x{dtype_mask(isa, i['typeset']):04x}, 0x{mod_mask(isa, i['modset']):04x}, "
                 f"kModNames{camel(i['modset'])}, 0x{uses_mask(i):02x}, \"{sem}\"}},\n")
    o.append("};\n\n")
    o.append("// The decode entry of an opcode, or nullptr when the opcode is undefined.\n")
    o.append("inline const InsnInfo* LookupOpcode(uint8_t opcode) {\n"
             "  for (const InsnInfo& i : kInsns) {\n    if (static_cast<uint8_t>(i.op) == opcode) return &i;\n  }\n"
             "  return nullptr;\n}\n\n")
    o.append("}  // namespace isa\n}  // namespace sgu\n\n#endif  // SGU_ISA_GEN_H_\n")
    return "".join(o)


def gen_md(isa, design):
    o = [HEADER_MD, "\n", design.rstrip() + "\n\n", "## Generated reference\n\n",
         f"Everything below is generated from `{SRC}`.\n\n"]
    o.append("### Instruction word\n\n| field | bits | notes |\n|---|---|---|\n")
    for f in sorted(isa["fields"], key=lambda f: -f["msb"]):
        o.append(f"| `{f['name']}` | {f['msb']}:{f['lsb']} | {'signed' if f['signed'] else ''} |\n")
    o.append("\n### Operand types (`dt`)\n\n| code | suffix | bits | class |\n|---|---|---|---|\n")
    for d in isa["dtypes"]:
        o.append(f"| {d['code']} | `.{d['name']}` | {d['bits']} | {d['cls']} |\n")
    o.append("\nType sets:\n\n")
    for ts, m in isa["typesets"].items():
        o.append(f"- `{ts}`: {', '.join(m) if ts != 'none' else 'no suffix (dt must be 0)'}\n")
    o.append("\nModifier sets (`mod`, written as a suffix after the type):\n\n")
    for ms, vals in isa["modsets"].items():
        if ms == "none":
            o.append("- `none`: no modifier (mod must be 0)\n")
        else:
            o.append(f"- `{ms}`: " + ", ".join(f"{v} `{n}`" for v, n in sorted(vals.items())) + "\n")
    o.append("\n### Assembly forms\n\n| form | operands | meaning |\n|---|---|---|\n")
    for f, (ops, t) in FORMS.items():
        o.append(f"| {f} | `{ops}` | {t} |\n")
    o.append("\n### Instructions\n\n| opcode | mnemonic | form | types | mod | fields | semantics |\n"
             "|---|---|---|---|---|---|---|\n")
    for i in sorted(isa["insns"], key=lambda i: i["opcode"]):
        o.append(f"| 0x{i['opcode']:02x} | `{i['name']}` | {i['form']} | {i['typeset']} | {i['modset']} | "
                 f"{', '.join(i['uses']) or '-'} | {i['sem'].replace('|', '&#124;')} |\n")
    o.append("\n### Reserved opcode ranges\n\n| opcodes | group | held for |\n|---|---|---|\n")
    for r in sorted(isa["reserved"], key=lambda r: r["lo"]):
        rng = f"0x{r['lo']:02x}" if r["lo"] == r["hi"] else f"0x{r['lo']:02x}-0x{r['hi']:02x}"
        o.append(f"| {rng} | {r['group']} | {r['text']} |\n")
    used = {i["opcode"] for i in isa["insns"]}
    for r in isa["reserved"]:
        used |= set(range(r["lo"], r["hi"] + 1))
    free = [c for c in range(256) if c not in used]
    o.append(f"\n{len(free)} of 256 opcodes are unassigned (all decode as illegal).\n")
    o.append("\n### Trap causes\n\n| code | name | meaning |\n|---|---|---|\n")
    for c in isa["causes"]:
        o.append(f"| {c['code']} | `{c['name']}` | {c['text']} |\n")
    o.append("\n### AXI4-Lite registers\n\n| address | name | access | meaning |\n|---|---|---|---|\n")
    for c in isa["csrs"]:
        o.append(f"| 0x{c['addr']:02x} | `{c['name']}` | {c['access']} | {c['text']} |\n")
    o.append("\n### Special values (`csrr rd, NAME`)\n\n| number | name | value |\n|---|---|---|\n")
    for s in isa["specials"]:
        o.append(f"| {s['index']} | `{s['name']}` | {s['text']} |\n")
    return "".join(o)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    ap.add_argument("--root", default=ROOT, help="repository root")
    a = ap.parse_args()
    try:
        isa = parse(os.path.join(a.root, SRC))
    except (IsaError, OSError) as e:
        print(f"gen_isa: error: {e}", file=sys.stderr)
        return 2
    with open(os.path.join(a.root, DESIGN)) as f:
        design = f.read()
    outputs = {OUT_SV: gen_sv(isa), OUT_H: gen_h(isa), OUT_MD: gen_md(isa, design)}
    stale = []
    for rel, text in outputs.items():
        path = os.path.join(a.root, rel)
        old = open(path).read() if os.path.exists(path) else None
        if old == text:
            continue
        if a.check:
            stale.append(rel)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path + ".tmp", "w") as f:
                f.write(text)
            os.replace(path + ".tmp", path)
            print(f"gen_isa: wrote {rel}")
    if stale:
        for rel in stale:
            print(f"gen_isa: {rel} differs from what {SRC} generates; run `make isa`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
