#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate every encoding-aware file from isa/sgu_isa.txt.

Writes rtl/sgu_isa_pkg.sv, sw/include/sgu/isa_gen.h and docs/isa.md (docs/isa.md = the
hand-written design in isa/isa_design.md followed by generated tables).

  scripts/gen_isa.py           regenerate the files
  scripts/gen_isa.py --check   exit 1 and name each file that differs from what would be written

The parser checks the source: fields cover all 64 bits without overlap, opcodes and names are
unique and fit 8 bits, no instruction sits in a reserved range, every typeset/modset exists, and
the legality attributes of each insn line are consistent (operand attributes d/m/s/v/u, imm:special
and imm:width, forbid: pairs of its own type and modifier sets, pair_excluded registers). The
attributes become the decode table of both outputs: sgu_isa_pkg::insn_info (RTL decoder) and
isa::kInsns (C++ CheckLegal, random program generator), and the legality section of docs/isa.md.
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
REGS = ["rd", "rs1", "rs2", "rs3"]
# Register operand attributes (isa/sgu_isa.txt header): width source and register kind, with the
# codes the generated SV package and C++ header use.
WIDTHS = {"": ("32", 0), "d": ("dt", 1), "m": ("mod", 2)}
WIDTH_NAMES = {0: "Fixed32", 1: "Dt", 2: "Mod"}
KINDS = {"": ("any", 0), "s": ("scalar", 1), "v": ("vector", 2), "u": ("uniform", 3)}
KIND_NAMES = {0: "Any", 1: "Scalar", 2: "Vector", 3: "Uniform"}
IMM_RULES = {"": 0, "special": 1, "width": 2}
IMM_RULE_NAMES = {0: "Any", 1: "Special", 2: "GroupWidth"}
MAX_FORBID = 2  # forbid: attributes per instruction (a fixed-size table in RTL and C++)
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
    isa = {"fields": [], "dtypes": [], "typesets": {}, "modsets": {}, "modflags": {}, "insns": [],
           "reserved": [], "causes": [], "csrs": [], "specials": [], "params": {},
           "pair_excluded": []}
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
                    vals, flags = {}, {}
                    for a in args[1:]:
                        parts = a.split(":")
                        if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] != "w"):
                            raise IsaError(f"{where}: bad modset value '{a}' (VALUE:NAME[:w])")
                        vals[int(parts[0])] = parts[1]
                        flags[int(parts[0])] = parts[2:]
                    isa["modsets"][args[0]] = vals
                    isa["modflags"][args[0]] = flags
                elif kind == "pair_excluded":
                    isa["pair_excluded"] += args
                elif kind == "insn":
                    if len(args) < 7:
                        raise IndexError("too few fields")
                    name, opc, form, ts, ms, operands = args[:6]
                    extra, sem = args[6:-1], args[-1]
                    isa["insns"].append(parse_insn(name, opc, form, ts, ms, operands, extra, sem,
                                                   where))
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


def parse_insn(name, opc, form, ts, ms, operands, extra, sem, where):
    """One insn line: the operand list with its attributes and the forbid: pairs."""
    i = {"name": name, "opcode": int(opc, 0), "form": form, "typeset": ts, "modset": ms,
         "uses": [], "regs": {r: {"width": 0, "kind": 0, "attrs": ""} for r in REGS},
         "imm_rule": 0, "forbid": [], "sem": sem, "where": where}
    for op in ([] if operands == "-" else operands.split(",")):
        field, _, attrs = op.partition(":")
        if field not in USE_BITS:
            raise IsaError(f"{where}: unknown operand '{field}'")
        if field in i["uses"]:
            raise IsaError(f"{where}: operand {field} listed twice")
        i["uses"].append(field)
        if field == "imm":
            if attrs not in IMM_RULES:
                raise IsaError(f"{where}: unknown imm rule '{attrs}' (special, width)")
            i["imm_rule"] = IMM_RULES[attrs]
            continue
        widths = [a for a in attrs if a in WIDTHS]
        kinds = [a for a in attrs if a in KINDS]
        if len(widths) + len(kinds) != len(attrs) or len(widths) > 1 or len(kinds) > 1:
            raise IsaError(f"{where}: bad attributes '{attrs}' of {field} (one of d m, one of s v u)")
        if kinds == ["u"] and field != "rd":
            raise IsaError(f"{where}: attribute u is for rd only")
        i["regs"][field] = {"width": WIDTHS[widths[0] if widths else ""][1],
                            "kind": KINDS[kinds[0] if kinds else ""][1], "attrs": attrs}
    for e in extra:
        if not e.startswith("forbid:") or "/" not in e:
            raise IsaError(f"{where}: unknown attribute '{e}' (forbid:DTS/MODS)")
        dts, mods = e[len("forbid:"):].split("/")
        i["forbid"].append((dts.split(","), mods.split(",")))
    return i


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
        check_insn_rules(isa, i)
        for r in isa["reserved"]:
            if r["lo"] <= i["opcode"] <= r["hi"]:
                raise IsaError(f"{w}: opcode {i['opcode']:#x} lies in reserved range {r['group']}")
    for r in isa["pair_excluded"]:
        reg_number(r)
    for a in isa["reserved"]:
        for b in isa["reserved"]:
            if a is not b and a["lo"] <= b["hi"] and b["lo"] <= a["hi"]:
                raise IsaError(f"reserved ranges {a['group']} and {b['group']} overlap")


def reg_number(name):
    """Register number of a name: v0..v31 are 0..31, s0..s31 are 32..63."""
    m = re.fullmatch(r"([vs])([0-9]+)", name)
    if not m or int(m.group(2)) > 31:
        raise IsaError(f"bad register name '{name}'")
    return int(m.group(2)) + (32 if m.group(1) == "s" else 0)


def check_insn_rules(isa, i):
    """The legality attributes of one instruction are consistent with its type and mod sets."""
    w = i["where"]
    dtypes = {d["name"]: d for d in isa["dtypes"]}
    mods = isa["modsets"][i["modset"]]
    for r, a in i["regs"].items():
        if a["width"] == WIDTHS["d"][1] and i["typeset"] == "none":
            raise IsaError(f"{w}: {r}:d on an instruction without a type (typeset none)")
        if a["width"] == WIDTHS["m"][1]:
            for v, n in mods.items():
                if n not in dtypes or dtypes[n]["code"] != v:
                    raise IsaError(f"{w}: {r}:m needs a modset whose values are dtype codes")
    if i["imm_rule"] == IMM_RULES["width"] and not any(isa["modflags"][i["modset"]].values()):
        raise IsaError(f"{w}: imm:width needs mod values flagged :w in modset {i['modset']}")
    if len(i["forbid"]) > MAX_FORBID:
        raise IsaError(f"{w}: more than {MAX_FORBID} forbid: attributes")
    for dts, ms in i["forbid"]:
        for d in dts:
            if d not in isa["typesets"][i["typeset"]]:
                raise IsaError(f"{w}: forbid: dtype {d} is not in typeset {i['typeset']}")
        for m in ms:
            if m not in mods.values():
                raise IsaError(f"{w}: forbid: mod {m} is not in modset {i['modset']}")


def forbid_masks(isa, i):
    """[(dt mask, mod mask)] of the forbid: attributes, padded to MAX_FORBID with (0, 0)."""
    codes = {d["name"]: d["code"] for d in isa["dtypes"]}
    byname = {n: v for v, n in isa["modsets"][i["modset"]].items()}
    out = []
    for dts, ms in i["forbid"]:
        out.append((sum(1 << codes[d] for d in dts), sum(1 << byname[m] for m in ms)))
    return out + [(0, 0)] * (MAX_FORBID - len(out))


def imm_mod_mask(isa, i):
    """mod values that take a group width (imm:width), else 0."""
    if i["imm_rule"] != IMM_RULES["width"]:
        return 0
    return sum(1 << v for v, f in isa["modflags"][i["modset"]].items() if "w" in f)


def reg_codes(i, key):
    """The width or kind codes of rd, rs1, rs2, rs3 packed 2 bits each, rd lowest."""
    return sum(i["regs"][r][key] << (2 * k) for k, r in enumerate(REGS))


def dtypes64_mask(isa):
    return sum(1 << d["code"] for d in isa["dtypes"] if d["bits"] == 64)


def pair_excluded_mask(isa):
    return sum(1 << reg_number(r) for r in isa["pair_excluded"])


def operand_text(i):
    """The OPERANDS column as written in the source."""
    out = []
    for u in i["uses"]:
        if u == "imm":
            rule = {v: k for k, v in IMM_RULES.items()}[i["imm_rule"]]
            out.append("imm" + (":" + rule if rule else ""))
        else:
            a = i["regs"][u]["attrs"]
            out.append(u + (":" + a if a else ""))
    return out


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
    o.append("\n  // Legality attributes (isa/sgu_isa.txt, insn lines): the decoder's only source of rules.\n")
    o.append(f"  localparam int unsigned NumSpecials = {len(isa['specials'])};  // csrr imm:special bound\n")
    o.append(f"  localparam logic [15:0] Dtypes64 = 16'h{dtypes64_mask(isa):04x};  // dt codes of 64-bit types\n")
    o.append(f"  localparam logic [63:0] PairExcluded = 64'h{pair_excluded_mask(isa):016x};  "
             f"// registers no pair may name ({' '.join(isa['pair_excluded'])})\n")
    o.append(f"  localparam int unsigned MaxForbid = {MAX_FORBID};  // forbid: pairs per instruction\n")
    o.append("  // Width of a register operand (insn_info_t.width).\n")
    o.append("  localparam logic [1:0] WidthFixed32 = 2'd0;  // 32 bits whatever dt says\n")
    o.append("  localparam logic [1:0] WidthDt      = 2'd1;  // type dt: a pair when dt is 64-bit (:d)\n")
    o.append("  localparam logic [1:0] WidthMod     = 2'd2;  // type named by mod: a pair for 64 bits (:m)\n")
    o.append("  // Register kind of an operand (insn_info_t.kind).\n")
    o.append("  localparam logic [1:0] RegAny       = 2'd0;  // vector or scalar (a scalar rd needs scalar sources)\n")
    o.append("  localparam logic [1:0] RegScalar    = 2'd1;  // scalar only (:s)\n")
    o.append("  localparam logic [1:0] RegVector    = 2'd2;  // vector only (:v)\n")
    o.append("  localparam logic [1:0] RegUniform   = 2'd3;  // rd: uniform result, scalar rd with vector sources (:u)\n")
    o.append("  // Rule of the immediate (insn_info_t.imm_rule).\n")
    o.append("  localparam logic [1:0] ImmAny        = 2'd0;  // any 24-bit value\n")
    o.append("  localparam logic [1:0] ImmSpecial    = 2'd1;  // imm < NumSpecials (imm:special)\n")
    o.append("  localparam logic [1:0] ImmGroupWidth = 2'd2;  // imm <= log2 NumLanes for imm_mods, else 0 (imm:width)\n")
    o.append("\n  // Static decode information of one opcode.\n")
    o.append("  typedef struct packed {\n")
    o.append("    logic        valid;     // opcode is defined\n")
    o.append("    logic [4:0]  uses;      // fields read: {imm, rs3, rs2, rs1, rd}; others must be zero\n")
    o.append("    logic [15:0] dtypes;    // legal dt values (bit per code)\n")
    o.append("    logic [15:0] mods;      // legal mod values (bit per value)\n")
    o.append("    logic [3:0][1:0] width; // Width* of {rs3, rs2, rs1, rd}\n")
    o.append("    logic [3:0][1:0] kind;  // Reg* of {rs3, rs2, rs1, rd}\n")
    o.append("    logic [1:0]  imm_rule;  // Imm*\n")
    o.append("    logic [15:0] imm_mods;  // ImmGroupWidth: mod values that take a group width\n")
    o.append("    logic [MaxForbid-1:0][15:0] forbid_dts;   // pair k: these dt values are illegal ...\n")
    o.append("    logic [MaxForbid-1:0][15:0] forbid_mods;  // ... together with these mod values\n")
    o.append("  } insn_info_t;\n\n")
    o.append("  function automatic insn_info_t insn_info(logic [7:0] opcode);\n")
    o.append("    insn_info_t info;\n")
    o.append("    unique case (opcode)\n")
    fw = 16 * MAX_FORBID
    for i in ins:
        fb = forbid_masks(isa, i)
        fdts = sum(d << (16 * k) for k, (d, _) in enumerate(fb))
        fmods = sum(m << (16 * k) for k, (_, m) in enumerate(fb))
        o.append(f"      Op{camel(i['name'])}: info = '{{1'b1, 5'h{uses_mask(i):02x}, "
                 f"16'h{dtype_mask(isa, i['typeset']):04x}, 16'h{mod_mask(isa, i['modset']):04x}, "
                 f"8'h{reg_codes(i, 'width'):02x}, 8'h{reg_codes(i, 'kind'):02x}, 2'd{i['imm_rule']}, "
                 f"16'h{imm_mod_mask(isa, i):04x}, {fw}'h{fdts:0{fw // 4}x}, {fw}'h{fmods:0{fw // 4}x}}};\n")
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
    o.append("\n// Legality attributes (isa/sgu_isa.txt, insn lines): CheckLegal's only source of rules.\n")
    o.append(f"inline constexpr unsigned kNumSpecials = {len(isa['specials'])};  // csrr imm:special bound\n")
    o.append(f"inline constexpr uint16_t kDtypes64 = 0x{dtypes64_mask(isa):04x};  // dt codes of 64-bit types\n")
    o.append(f"inline constexpr uint64_t kPairExcluded = 0x{pair_excluded_mask(isa):016x}ull;  "
             f"// registers no pair may name ({' '.join(isa['pair_excluded'])})\n")
    o.append(f"inline constexpr unsigned kMaxForbid = {MAX_FORBID};  // forbid: pairs per instruction\n\n")
    o.append("// Width of a register operand.\nenum class OperandWidth : uint8_t {\n"
             "  kFixed32,  // 32 bits whatever dt says\n"
             "  kDt,       // type dt: a pair when dt is 64-bit (:d)\n"
             "  kMod,      // type named by mod: a pair when that type is 64-bit (:m)\n};\n\n")
    o.append("// Register kind of an operand.\nenum class RegKind : uint8_t {\n"
             "  kAny,      // vector or scalar; a scalar rd needs scalar sources\n"
             "  kScalar,   // scalar only (:s)\n"
             "  kVector,   // vector only (:v)\n"
             "  kUniform,  // rd: uniform result, a scalar rd may have vector sources (:u)\n};\n\n")
    o.append("// Rule of the immediate.\nenum class ImmRule : uint8_t {\n"
             "  kAny,         // any 24-bit value\n"
             "  kSpecial,     // 0 <= imm < kNumSpecials (imm:special)\n"
             "  kGroupWidth,  // 0 <= imm <= log2 NumLanes for the mods in imm_mods, else 0 (imm:width)\n};\n\n")
    o.append("struct RegOperand {\n  OperandWidth width;\n  RegKind kind;\n};\n\n")
    o.append("// forbid:DTS/MODS: dt in dts together with mod in mods is illegal.\n"
             "struct ForbidPair {\n  uint16_t dts;\n  uint16_t mods;\n};\n\n")
    o.append("// Register operands in InsnInfo::regs.\n"
             "enum RegIndex : unsigned { kRegRd = 0, kRegRs1 = 1, kRegRs2 = 2, kRegRs3 = 3 };\n\n")
    o.append("struct InsnInfo {\n  const char* name;\n  Op op;\n  Form form;\n"
             "  uint16_t dtypes;              // legal dt values (bit per code)\n"
             "  uint16_t mods;                // legal mod values (bit per value)\n"
             "  const char* const* mod_names; // names of the mod values, indexed by value\n"
             "  uint8_t uses;                 // kUse* bits: fields read; the others must be zero\n"
             "  RegOperand regs[4];           // rd, rs1, rs2, rs3 (RegIndex); meaningful when used\n"
             "  ImmRule imm_rule;\n"
             "  uint16_t imm_mods;            // kGroupWidth: mod values that take a group width\n"
             "  ForbidPair forbid[kMaxForbid];  // {0, 0}: unused entry\n"
             "  const char* semantics;\n};\n\n")
    o.append(f"inline constexpr InsnInfo kInsns[{len(ins)}] = {{\n")
    for i in ins:
        sem = i["sem"].replace("\\", "\\\\").replace('"', '\\"')
        regs = ", ".join(
            f"{{OperandWidth::k{WIDTH_NAMES[i['regs'][r]['width']]}, RegKind::k{KIND_NAMES[i['regs'][r]['kind']]}}}"
            for r in REGS)
        forbid = ", ".join(f"{{0x{d:04x}, 0x{m:04x}}}" for d, m in forbid_masks(isa, i))
        o.append(f"    {{\"{i['name']}\", Op::k{camel(i['name'])}, Form::k{i['form']}, "
                 f"0x{dtype_mask(isa, i['typeset']):04x}, 0x{mod_mask(isa, i['modset']):04x}, "
                 f"kModNames{camel(i['modset'])}, 0x{uses_mask(i):02x},\n"
                 f"     {{{regs}}},\n"
                 f"     ImmRule::k{IMM_RULE_NAMES[i['imm_rule']]}, 0x{imm_mod_mask(isa, i):04x}, {{{forbid}}},\n"
                 f"     \"{sem}\"}},\n")
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
    o.append("\nModifier sets (`mod`, written as a suffix after the type; `(:w)`: takes a group width, "
             "see `imm:width`):\n\n")
    for ms, vals in isa["modsets"].items():
        if ms == "none":
            o.append("- `none`: no modifier (mod must be 0)\n")
        else:
            o.append(f"- `{ms}`: " + ", ".join(
                f"{v} `{n}`" + (" (:w)" if "w" in isa["modflags"][ms][v] else "")
                for v, n in sorted(vals.items())) + "\n")
    o.append("\n### Assembly forms\n\n| form | operands | meaning |\n|---|---|---|\n")
    for f, (ops, t) in FORMS.items():
        o.append(f"| {f} | `{ops}` | {t} |\n")
    o.append("\n### Instructions\n\nThe operands column is the line's OPERANDS field with its legality attributes "
             "(see Legality rules below).\n\n"
             "| opcode | mnemonic | form | types | mod | operands | semantics |\n"
             "|---|---|---|---|---|---|---|\n")
    for i in sorted(isa["insns"], key=lambda i: i["opcode"]):
        ops = ", ".join(f"`{t}`" for t in operand_text(i)) or "-"
        for dts, ms in i["forbid"]:
            ops += f", not `{','.join(dts)}` with `{','.join(ms)}`"
        o.append(f"| 0x{i['opcode']:02x} | `{i['name']}` | {i['form']} | {i['typeset']} | {i['modset']} | "
                 f"{ops} | {i['sem'].replace('|', '&#124;')} |\n")
    o.append(gen_md_rules(isa))
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


def gen_md_rules(isa):
    """The legality rules as the attributes state them, instruction by instruction."""
    ins = sorted(isa["insns"], key=lambda i: i["opcode"])

    def names(pred):
        return ", ".join(f"`{i['name']}`" for i in ins if pred(i)) or "none"

    def regs_with(key, code):
        out = []
        for i in ins:
            rs = [r for r in REGS if r in i["uses"] and i["regs"][r][key] == code]
            if rs:
                out.append(f"`{i['name']}` {'/'.join(rs)}")
        return ", ".join(out) or "none"

    wide = [d["name"] for d in isa["dtypes"] if d["bits"] == 64]
    o = ["\n### Legality rules\n\n",
         "An instruction word is legal exactly when every rule below holds; each one is an attribute "
         f"of the instruction's line in `{SRC}`, and the RTL decoder (`sgu_isa_pkg::insn_info`), the "
         "C++ `isa::CheckLegal` (`kInsns`) and the random program generator read nothing else. A "
         "word that breaks one traps `IllegalInsn` (tval = low 32 bits of the word).\n\n",
         "1. The opcode is defined (table above); `dt` is in the type set and `mod` in the modifier "
         "set.\n",
         "2. Every field not in the operands column is zero.\n",
         "3. Forbidden `dt`/`mod` pairs (`forbid:`): "
         + (", ".join(f"`{i['name']}` {','.join(d)} with {','.join(m)}" for i in ins for d, m in i["forbid"])
            or "none") + ".\n",
         f"4. Register kinds: scalar only (`:s`): {regs_with('kind', KINDS['s'][1])}; vector only "
         f"(`:v`): {regs_with('kind', KINDS['v'][1])}.\n",
         "5. A scalar `rd` needs every register source to be scalar, except for the uniform results "
         f"(`rd:u`): {names(lambda i: i['regs']['rd']['kind'] == KINDS['u'][1])}.\n",
         f"6. 64-bit operands: when `dt` is {' or '.join(wide)}, the operands marked `:d` are register "
         "pairs; when `mod` names a 64-bit type, those marked `:m` are ("
         f"{regs_with('width', WIDTHS['m'][1])}). Operands without either are 32 bits whatever `dt` "
         "says (addresses, conditions, indices, the operands of untyped instructions). "
         "A pair names an even register"
         + (f" and not {', '.join(f'`{r}`' for r in isa['pair_excluded'])}" if isa["pair_excluded"] else "")
         + ".\n",
         f"7. `imm:special` ({names(lambda i: i['imm_rule'] == IMM_RULES['special'])}): "
         f"0 <= imm < {len(isa['specials'])}, the number of special values. `imm:width` "
         f"({names(lambda i: i['imm_rule'] == IMM_RULES['width'])}): 0 <= imm <= log2 N for the "
         "modifiers that take a group width ("
         + ", ".join(f"`{n}`" for ms, fl in isa["modflags"].items() for v, n in sorted(isa["modsets"][ms].items())
                     if "w" in fl.get(v, []))
         + "), imm = 0 for the others. The immediate is compared as an unsigned 24-bit field: a "
         "negative value breaks both rules.\n"]
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
