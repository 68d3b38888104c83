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

  scripts/check_eval_order.py --selftest   the check on a known bad and a known good snippet
  scripts/check_eval_order.py FILE...      exit 1 and one line per call found, else exit 0
"""
import re
import sys

# The primitives: emitting an instruction and numbering a virtual register. Every function or
# lambda of the checked files that calls one of them (directly or through another) is found from
# the source (emitting_names), so a new helper needs no entry here.
PRIMITIVES = {"Emit", "NewReg", "NewV"}
CALL_RE = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "static_cast", "catch",
            "reinterpret_cast", "const_cast", "decltype", "alignof"}
# A function's definition: a member defined out of its class at the start of a line ("Val
# Lowerer::Bin("), one defined in its class ("  Val Get1(... ) { ..."), or a named lambda ("auto
# half = [&]("). body_after() keeps only those followed by a body.
DEF_RE = re.compile(r"^[A-Za-z_][\w:<>,&* ]*?\b\w+::(\w+)\s*\("
                    r"|^[ \t]+(?:[\w:<>,&*]+[ \t]+)+(\w+)\s*\("
                    r"|\bauto\s+(\w+)\s*=\s*\[[^\]]*\]\s*\(", re.M)


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


def body_after(s, start):
    """The text of the brace-delimited body that follows the parameter list at start."""
    depth, i = 1, start
    while depth and i < len(s):  # skip the parameters
        depth += {"(": 1, ")": -1}.get(s[i], 0)
        i += 1
    j = s.find("{", i)
    if j < 0 or s[i:j].count(";"):  # a declaration, not a definition
        return ""
    depth, k = 1, j + 1
    while depth and k < len(s):
        depth += {"{": 1, "}": -1}.get(s[k], 0)
        k += 1
    return s[j:k]


def emitting_names(texts):
    """Names of the functions and lambdas that emit code or allocate registers (a fixed point)."""
    bodies = {}
    for s in texts:
        for m in DEF_RE.finditer(s):
            name = m.group(1) or m.group(2) or m.group(3)
            if name in KEYWORDS:
                continue
            bodies[name] = bodies.get(name, "") + body_after(s, m.end())
    names = set(PRIMITIVES)
    while True:
        pattern = re.compile(r"\b(" + "|".join(sorted(names)) + r")\s*\(")
        more = {n for n, b in bodies.items() if n not in names and pattern.search(b)}
        if not more:
            return names
        names |= more


def check(path, s, emit_re):
    found = []
    for m in CALL_RE.finditer(s):
        if m.group(1) in KEYWORDS:
            continue
        n = sum(1 for a in arguments(s, m.end()) if emit_re.search(a))
        if n >= 2:
            line = s.count("\n", 0, m.start()) + 1
            found.append(f"{path}:{line}: {m.group(1)}(...) has {n} arguments that emit code or "
                         "allocate registers; their order is unspecified: evaluate them into "
                         "locals first")
    return found


SELFTEST_BAD = """
Opnd Lowerer::Word(const Val& v) { if (v.is_const) return Mat(v); return v.o; }
Opnd Lowerer::Mat(const Val& v) { Opnd r = NewReg(true, false); Emit(Op::kLi, 0, 0, r); return r; }
void Lowerer::Lower() {
  auto pick = [&](const Val& v) -> Opnd { return Word(v); };
  Emit(Op::kAdd, 0, 0, rd, pick(a), Word(b));  // two emitting arguments
}
"""
SELFTEST_GOOD = SELFTEST_BAD.replace(
    "Emit(Op::kAdd, 0, 0, rd, pick(a), Word(b));",
    "const Opnd ra = pick(a), rb = Word(b);\n  Emit(Op::kAdd, 0, 0, rd, ra, rb);")


def selftest():
    """The check finds the call through a lambda and a helper, and passes the fixed code."""
    bad, good = strip(SELFTEST_BAD), strip(SELFTEST_GOOD)
    names = emitting_names([bad])
    emit_re = re.compile(r"\b(" + "|".join(sorted(names)) + r")\s*\(")
    ok = {"Word", "Mat", "pick"} <= names
    ok = ok and len(check("bad", bad, emit_re)) == 1 and not check("good", good, emit_re)
    print("check_eval_order selftest: " + ("pass" if ok else "FAIL"))
    return 0 if ok else 1


def main(argv):
    if argv[1:] == ["--selftest"]:
        return selftest()
    if len(argv) < 2:
        usage = [l.strip() for l in __doc__.splitlines() if "check_eval_order.py " in l]
        print("usage:\n  " + "\n  ".join(usage), file=sys.stderr)
        return 2
    try:
        texts = {p: strip(open(p, encoding="utf-8").read()) for p in argv[1:]}
    except OSError as e:
        print(f"check_eval_order: {e}", file=sys.stderr)
        return 2
    names = emitting_names(texts.values())
    emit_re = re.compile(r"\b(" + "|".join(sorted(names)) + r")\s*\(")
    found = []
    for path, s in texts.items():
        found += check(path, s, emit_re)
    for f in found:
        print(f)
    if not found:
        print(f"check_eval_order: {len(argv) - 1} file(s), {len(names)} functions that emit "
              "code or allocate registers, no call with two of them in unspecified order")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
