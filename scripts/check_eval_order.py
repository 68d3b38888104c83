#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Flags calls in the compiler's lowering whose arguments emit code in an unspecified order.

C++ leaves the order in which a call's arguments are evaluated unspecified: GCC evaluates
them right to left, Clang left to right. In sw/compiler/lower.cc, helpers such as Word() and
Mat() emit an instruction when they materialise a constant, and NewReg() numbers a virtual
register; a call like `Emit(op, dt, 0, rd, Word(a), Word(b))` therefore compiled a kernel to
different code (same instructions, another order and other registers) depending on the host
compiler. The lowering evaluates such operands into locals first, in program order
(`const Opnd ra = Word(a), rb = Word(b);`: the declarators of one declaration are evaluated in
order). This check finds any call with two or more arguments that call such a helper.

  scripts/check_eval_order.py FILE...   exit 1 and one line per call found, else exit 0
"""
import re
import sys

# Members of the lowering and local lambdas that emit instructions or allocate registers.
EMITTING = ("Emit Mat Word Bin Cmp Un Sel Cvt Div DivConst RoundFloat Popcount32 Clz32 First "
            "LoadField AddrAdd LoadBuiltin LocalId Lane ToWords FromWords NewReg NewV Get Get1 "
            "Address explicit_reg half fop shfl").split()
EMIT_RE = re.compile(r"\b(" + "|".join(EMITTING) + r")\s*\(")
CALL_RE = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "static_cast", "catch",
            "reinterpret_cast", "const_cast", "decltype", "alignof"}


def blank(m):
    return " " * len(m.group(0))


def strip(src):
    """Comments and string contents replaced by spaces (line numbers kept)."""
    src = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), src, flags=re.S)
    src = re.sub(r"//[^\n]*", blank, src)
    src = re.sub(r'"(\\.|[^"\\\n])*"', lambda m: '"' + " " * (len(m.group(0)) - 2) + '"', src)
    src = re.sub(r"'(\\.|[^'\\\n])'", lambda m: "'" + " " * (len(m.group(0)) - 2) + "'", src)
    return src


def arguments(s, start):
    """The top-level arguments of the call whose '(' ends just before start."""
    depth, i, cur, args = 1, start, start, []
    while depth and i < len(s):
        c = s[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 1:
            args.append(s[cur:i])
            cur = i + 1
        i += 1
    args.append(s[cur:i - 1])
    return args


def check(path):
    s = strip(open(path, encoding="utf-8").read())
    found = []
    for m in CALL_RE.finditer(s):
        if m.group(1) in KEYWORDS:
            continue
        n = sum(1 for a in arguments(s, m.end()) if EMIT_RE.search(a))
        if n >= 2:
            line = s.count("\n", 0, m.start()) + 1
            found.append(f"{path}:{line}: {m.group(1)}(...) has {n} arguments that emit code or "
                         "allocate registers; their order is unspecified: evaluate them into "
                         "locals first")
    return found


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    found = []
    for path in argv[1:]:
        try:
            found += check(path)
        except OSError as e:
            print(f"check_eval_order: {e}", file=sys.stderr)
            return 2
    for f in found:
        print(f)
    if not found:
        print(f"check_eval_order: {len(argv) - 1} file(s), no call with emitting arguments in "
              "unspecified order")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
