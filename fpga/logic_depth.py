#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Deepest register-to-register paths of a mapped ECP5 netlist, before place and route.

nextpnr reports a critical path only after routing, and the whole SGU takes longer to route than
anyone wants to wait while restructuring the RTL. This script reads the netlist that
fpga/flow.sh writes (Yosys JSON after synth_ecp5), walks every combinational path from a
register, block RAM or DSP output to a register, block RAM or DSP input, and prints the slowest
ones with a simple delay model: a fixed routing delay per net plus a per-cell delay
(docs/timing.md "Timing of the pipelined core"). The model ranks paths; it does not replace the
routed timing report, and its absolute numbers are estimates.

Usage: fpga/logic_depth.py NETLIST.json [--top MODULE] [--paths N] [--net-delay NS] [--verbose]
                          [--to REGEX]   (only paths into registers whose source line or cell
                                         name matches, e.g. --to sgu_regfile.sv:307: the paths
                                         behind a line fpga/endpoints.py ranks)
                          [--placed PLACED.json [--tile-delay NS] [--over NS]]
                                         (net delays from a placement nextpnr wrote, --write
                                         with --no-route: a base delay plus one per tile of
                                         Manhattan distance, fitted to routed SGU boards; the
                                         netlist must be the one placed, e.g. NAME.rep.json;
                                         --over prints how many end bits exceed NS, by RTL
                                         line of start and end)
       fpga/logic_depth.py selftest   (checks the walk on a small netlist built here)
"""

import argparse
import collections
import json
import re
import sys

import netlist_json

# Delays in ns (ECP5 speed grade 6, rounded from the Lattice data sheet and nextpnr's cell
# timing). Keys: (cell type, input port prefix, output port prefix).
CELL_DELAY = {
    "LUT4": 0.25,
    "PFUMX": 0.25,
    "L6MUX21": 0.2,
    "TRELLIS_DPR16X4": 0.5,   # read address to data
    "MULT18X18D": 4.5,        # unregistered multiplier
    "ALU54B": 2.5,
}
CCU2C_IN_COUT = 0.4
CCU2C_CIN_COUT = 0.06
CCU2C_IN_S = 0.4
CCU2C_CIN_S = 0.25
CLK_TO_Q = {"TRELLIS_FF": 0.4, "DP16KD": 4.3, "MULT18X18D": 0.5, "TRELLIS_DPR16X4": 0.5}
SETUP = 0.1
# With a placement (--placed): a net's delay from its driver to one load is NET_BASE plus
# TILE_DELAY per tile of Manhattan distance. Chosen among a few candidates by comparing each end
# bit's estimate (--dump-ends) on the routed SIMD8 board s8A's placement with nextpnr's routed
# arrival at that endpoint (its --detailed-timing-report): the pair whose count above 13.33 ns
# and whose error on the late endpoints came closest (docs/fpga.md "Timing of the pipelined
# core"). nextpnr's report gives arrivals, not per-net delays, so it is not a per-net fit.
NET_BASE = 0.55
TILE_DELAY = 0.055
DERIVED = re.compile(r"_(LUT4|CCU2C|TRELLIS_FF|TRELLIS_DPR16X4|PFUMX|L6MUX21|DP16KD|MULT18X18D)_")

# Ports that end a path (sampled at the clock edge).
SYNC_INPUTS = {
    "TRELLIS_FF": None,  # every input
    "DP16KD": None,
    "TRELLIS_DPR16X4": re.compile(r"^(WAD|DI|WRE)"),
}


def is_mult_registered(cell):
    p = cell.get("parameters", {})
    return any(str(p.get(k, "NONE")).upper() not in ("NONE", '"NONE"')
               for k in ("REG_INPUTA_CLK", "REG_INPUTB_CLK", "REG_OUTPUT_CLK"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("netlist")
    ap.add_argument("--top", help="module (default: the one with the most cells)")
    ap.add_argument("--paths", type=int, default=20,
                    help="paths to print (one per start and end register line)")
    ap.add_argument("--net-delay", type=float, default=0.9, help="routing delay per net, ns")
    ap.add_argument("--verbose", action="store_true", help="print every net of each path")
    ap.add_argument("--inputs", action="store_true",
                    help="with --verbose: also every input of each cell on the path, with its "
                         "arrival (which signals a LUT chain combines)")
    ap.add_argument("--to", help="regular expression: only end registers whose source line or "
                    "cell name matches")
    ap.add_argument("--from", dest="frm",
                    help="regular expression: only paths (of the deepest into each end bit) whose "
                    "start register's source line or cell name matches")
    ap.add_argument("--placed", help="a placement of this netlist written by nextpnr (--write): "
                    "net delays from the distance between driver and load")
    ap.add_argument("--net-base", type=float, default=NET_BASE,
                    help="with --placed: delay of a net within a tile, ns")
    ap.add_argument("--tile-delay", type=float, default=TILE_DELAY,
                    help="with --placed: delay per tile of Manhattan distance, ns")
    ap.add_argument("--dump-ends", help="write every end bit's estimate to this JSON file "
                    "([cell, port, ns], for comparing with a routed report)")
    ap.add_argument("--over", type=float,
                    help="also count the end bits whose estimate exceeds NS, by start and end line")
    args = ap.parse_args()
    if args.netlist == "selftest":
        sys.exit(selftest())
    try:
        with open(args.netlist) as f:
            design = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"logic_depth: cannot read {args.netlist}: {e}")
    placed = None
    if args.placed:
        try:
            placed = netlist_json.placed_locations(netlist_json.load(args.placed))
        except netlist_json.InputError as e:
            sys.exit(f"logic_depth: {e}")
        if not placed:
            sys.exit(f"logic_depth: {args.placed} has no placed cells (nextpnr --write after "
                     "placement)")
    run(design, args, placed)


def run(design, args, placed=None):
    """Prints the report of one netlist (a Yosys JSON design)."""
    mods = design.get("modules", {})
    if not mods:
        sys.exit("logic_depth: no modules in the netlist")
    top = args.top or max(mods, key=lambda m: len(mods[m].get("cells", {})))
    if top not in mods:
        sys.exit(f"logic_depth: no module {top}")
    mod = mods[top]
    cells = mod["cells"]

    # Net names: the best name of each bit. Names that Yosys derived from a cell's ports
    # ("x_LUT4_Z_D...") are cut back to the signal they start from, and rank after names that
    # came from the RTL.
    name = {}
    for n, info in mod.get("netnames", {}).items():
        hidden = info.get("hide_name", 0)
        m = DERIVED.search(n)
        base = n[:m.start()] if m else n
        for i, b in enumerate(info["bits"]):
            if isinstance(b, str):
                continue
            label = base + ("~" if m else "") + ("" if len(info["bits"]) == 1 or m else f"[{i}]")
            score = (hidden, n.startswith("$"), m is not None, len(label))
            if b not in name or score < name[b][0]:
                name[b] = (score, label)

    # Drivers and loads per bit.
    driver = {}                        # bit -> (cell, port)
    loads = collections.defaultdict(list)
    for cn, c in cells.items():
        for port, bits in c["connections"].items():
            d = c["port_directions"].get(port)
            for b in bits:
                if isinstance(b, str):
                    continue
                if d == "output":
                    driver[b] = (cn, port)
                else:
                    loads[b].append((cn, port))

    def comb_arcs(cn, c):
        """(input port, output port, delay) of a combinational cell; [] for a sequential one."""
        t = c["type"]
        ins = [p for p, d in c["port_directions"].items() if d == "input"]
        outs = [p for p, d in c["port_directions"].items() if d == "output"]
        if t == "CCU2C":
            arcs = []
            for p in ins:
                if p == "CIN":
                    arcs += [("CIN", "COUT", CCU2C_CIN_COUT), ("CIN", "S0", CCU2C_CIN_S),
                             ("CIN", "S1", CCU2C_CIN_S)]
                else:
                    bit = p[-1]
                    arcs += [(p, "COUT", CCU2C_IN_COUT), (p, "S1", CCU2C_IN_S)]
                    if bit == "0":
                        arcs.append((p, "S0", CCU2C_IN_S))
            return arcs
        if t == "TRELLIS_DPR16X4":
            return [(p, o, CELL_DELAY[t]) for p in ins if p.startswith("RAD") for o in outs]
        if t == "MULT18X18D":
            if is_mult_registered(c):
                return []
            return [(p, o, CELL_DELAY[t]) for p in ins if p[0] in "AB" and p[1:].isdigit()
                    for o in outs if o.startswith("P")]
        if t in ("LUT4", "PFUMX", "L6MUX21", "ALU54B"):
            return [(p, o, CELL_DELAY[t]) for p in ins for o in outs]
        return []

    def net_delay(b, load_cell):
        """Routing delay from the driver of bit b to one load cell."""
        if placed is None or b not in driver:
            return args.net_delay
        a, z = placed.get(driver[b][0]), placed.get(load_cell)
        if a is None or z is None:
            return args.net_delay
        return args.net_base + args.tile_delay * (abs(a[0] - z[0]) + abs(a[1] - z[1]))

    # Timing graph over (cell, port) nodes collapsed to bits: arrival time per bit.
    arcs_of = {}
    for cn, c in cells.items():
        arcs_of[cn] = comb_arcs(cn, c)

    # Start points: outputs of sequential cells (and top-level inputs, at 0).
    arrival = {}
    prev = {}
    indeg = collections.Counter()
    # Edges: bit (input of comb cell) -> bit (output), through the cell.
    succ = collections.defaultdict(list)
    for cn, c in cells.items():
        conns = c["connections"]
        for pi, po, dl in arcs_of[cn]:
            for bi in conns.get(pi, []):
                if isinstance(bi, str):
                    continue
                for bo in conns.get(po, []):
                    if isinstance(bo, str):
                        continue
                    succ[bi].append((bo, dl, cn))
                    indeg[bo] += 1
    for b, (cn, port) in driver.items():
        c = cells[cn]
        if not arcs_of[cn] or c["type"] in ("MULT18X18D",) and is_mult_registered(c):
            arrival[b] = CLK_TO_Q.get(c["type"], 0.0)
            prev[b] = None
    for b in list(loads):
        if b not in driver:
            arrival.setdefault(b, 0.0)
            prev.setdefault(b, None)

    # Kahn's algorithm over bits; a bit's arrival is at its driver's output, and each hop to a
    # load adds the net delay.
    queue = collections.deque(b for b in arrival if indeg[b] == 0)
    seen = 0
    while queue:
        b = queue.popleft()
        seen += 1
        carry = b in driver and driver[b][1] == "COUT"  # dedicated carry routing
        for bo, dl, cn in succ.get(b, []):
            t = arrival.get(b, 0.0) + (0.0 if carry else net_delay(b, cn)) + dl
            if t > arrival.get(bo, -1.0):
                arrival[bo] = t
                prev[bo] = (b, cn)
            indeg[bo] -= 1
            if indeg[bo] == 0:
                queue.append(bo)
    looped = [b for b in indeg if indeg[b] > 0]
    if looped:
        print(f"logic_depth: {len(looped)} bits on combinational loops (not timed)",
              file=sys.stderr)

    def src(cn):
        """The RTL line a cell came from (registers keep it; LUTs made by ABC do not)."""
        for part in cells[cn].get("attributes", {}).get("src", "").split("|"):
            if part and not part.startswith("/"):
                f, _, line = part.rpartition(":")
                return f"{f.split('/')[-1]}:{line.split('.')[0]}"
        return "?"

    # End points: inputs of sequential cells.
    ends = []
    for cn, c in cells.items():
        t = c["type"]
        if t in SYNC_INPUTS or (t == "MULT18X18D" and is_mult_registered(c)):
            pat = SYNC_INPUTS.get(t)
            for port, bits in c["connections"].items():
                if c["port_directions"].get(port) != "input" or port.startswith("CLK"):
                    continue
                if pat is not None and not pat.match(port):
                    continue
                for b in bits:
                    if isinstance(b, str) or b not in arrival:
                        continue
                    ends.append((arrival[b] + net_delay(b, cn) + SETUP, b, cn, port))
    if getattr(args, "dump_ends", None):
        with open(args.dump_ends, "w") as f:
            json.dump([[cn, port, round(d, 3)] for d, b, cn, port in ends], f)
    to = re.compile(args.to) if getattr(args, "to", None) else None
    if to:
        ends = [e for e in ends if to.search(e[2]) or to.search(src(e[2]))]
    ends.sort(reverse=True)

    def label(b):
        return name.get(b, (None, f"<bit {b}>"))[1]

    def trace(b):
        path = []
        while b is not None:
            p = prev.get(b)
            path.append((b, cells[p[1]]["type"] if p else
                         (cells[driver[b][0]]["type"] if b in driver else "input")))
            b = p[0] if p else None
        return list(reversed(path))

    frm = re.compile(args.frm) if getattr(args, "frm", None) else None
    if frm:
        def from_matches(b):
            p = trace(b)[0][0]
            cn = driver[p][0] if p in driver else None
            return cn is not None and (frm.search(cn) or frm.search(src(cn)))
        ends = [e for e in ends if from_matches(e[1])]
    if not ends:
        sys.exit("logic_depth: no register-to-register paths found")

    def start_of(b):
        p = trace(b)[0][0]
        return driver[p][0] if p in driver else None

    def describe(cn):
        if cn is None:
            return "top-level input"
        return f"{cells[cn]['type']} {src(cn)}"

    model = (f"net delay {args.net_base} + {args.tile_delay} ns per tile (placed)" if placed
             else f"net delay {args.net_delay} ns")
    if getattr(args, "over", None):
        over = [e for e in ends if e[0] > args.over]
        groups = collections.Counter((describe(start_of(e[1])), describe(e[2])) for e in over)
        print(f"{len(over)} of {len(ends)} end bits above {args.over} ns; by start -> end:")
        for (a, z), n in groups.most_common(getattr(args, "paths", 20)):
            print(f"  {n:6d}  {a}  ->  {z}")
    print(f"{top}: {len(cells)} cells; {model}; worst estimated path "
          f"{ends[0][0]:.1f} ns ({1000.0 / ends[0][0]:.1f} MHz)")
    shown = set()
    for d, b, cn, port in ends:
        s0 = start_of(b)
        key = (describe(s0), describe(cn))
        if key in shown:
            continue
        shown.add(key)
        path = trace(b)
        kinds = collections.Counter(t for _, t in path[1:])
        levels = ", ".join(f"{n} {t}" for t, n in kinds.most_common())
        print(f"{d:5.1f} ns  {describe(s0)}  ->  {describe(cn)} {port}   ({levels})")
        if args.verbose:
            for bit, t in path:
                at = ""
                if placed is not None and bit in driver and driver[bit][0] in placed:
                    at = "(%d,%d)" % placed[driver[bit][0]]
                # A register start is named by its cell too: the net's best name may be one
                # that Yosys derived from a load far away.
                cell = (f"  [{driver[bit][0]}]" if bit in driver and
                        cells[driver[bit][0]]["type"] == "TRELLIS_FF" else "")
                # The driving cell's source line: Yosys names a LUT's output after a register
                # it ends in, so the line tells which RTL statement the LUT belongs to.
                where = f"  <{src(driver[bit][0])}>" if bit in driver else ""
                print(f"         {arrival.get(bit, 0.0):6.1f}  {t:16s} {at:9s} {label(bit)}"
                      f"{cell}{where}")
                if getattr(args, "inputs", False) and bit in driver and not cell:
                    c = cells[driver[bit][0]]
                    for port, bits in sorted(c["connections"].items()):
                        if c["port_directions"].get(port) != "input":
                            continue
                        for ib in bits:
                            if isinstance(ib, int):
                                print(f"                 {port:4s} {arrival.get(ib, 0.0):6.1f}  "
                                      f"{label(ib)}")
            if placed is not None and cn in placed:
                print(f"         {d:6.1f}  {'end':16s} {'(%d,%d)' % placed[cn]:9s} {cn}")
        if len(shown) >= args.paths:
            break


def c_type(cells, cn):
    return cells[cn]["type"]


def selftest():
    """A netlist with two register-to-register paths whose delays are worked out by hand:
    q1 -> LUT4 -> LUT4 -> CCU2C (A0 to COUT) -> CCU2C (CIN to S0) -> d1, and q1 -> LUT4 -> d2.
    Returns 0 when the report names the long path with its delay, else a message."""
    import contextlib
    import io

    def ff(name, d, q):
        return name, {"type": "TRELLIS_FF", "attributes": {"src": f"t.sv:{name[-1]}"},
                      "port_directions": {"CLK": "input", "DI": "input", "Q": "output"},
                      "connections": {"CLK": [1], "DI": [d], "Q": [q]}}

    def lut(name, a, z):
        return name, {"type": "LUT4", "port_directions": {"A": "input", "B": "input",
                      "C": "input", "D": "input", "Z": "output"},
                      "connections": {"A": [a], "B": ["0"], "C": ["0"], "D": ["0"], "Z": [z]}}

    ccu_ports = {p: "input" for p in ("A0", "B0", "C0", "D0", "A1", "B1", "C1", "D1", "CIN")}
    ccu_ports.update({"S0": "output", "S1": "output", "COUT": "output"})

    def ccu(name, conns):
        full = {p: ["0"] for p in ccu_ports}
        full.update(conns)
        return name, {"type": "CCU2C", "port_directions": ccu_ports, "connections": full}

    cells = dict([ff("ff1", 20, 10), lut("l1", 10, 11), lut("l2", 11, 12),
                  ccu("c1", {"A0": [12], "COUT": [13], "S0": [30], "S1": [31]}),
                  ccu("c2", {"CIN": [13], "S0": [14], "S1": [32], "COUT": [33]}),
                  ff("ff2", 14, 15), lut("l3", 10, 16), ff("ff3", 16, 17)])
    design = {"modules": {"t": {"cells": cells, "netnames": {}}}}
    args = argparse.Namespace(top=None, paths=5, net_delay=0.9, verbose=False)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        run(design, args)
    text = out.getvalue()
    # clock-to-Q, then per hop the net and the cell; the carry hop has no net; then the last
    # net and the setup time.
    long_path = (CLK_TO_Q["TRELLIS_FF"] + 0.9 + CELL_DELAY["LUT4"] + 0.9 + CELL_DELAY["LUT4"]
                 + 0.9 + CCU2C_IN_COUT + CCU2C_CIN_S + 0.9 + SETUP)
    short_path = CLK_TO_Q["TRELLIS_FF"] + 0.9 + CELL_DELAY["LUT4"] + 0.9 + SETUP
    want_first = f"worst estimated path {long_path:.1f} ns"
    lines = [ln for ln in text.splitlines() if " ns  " in ln]
    if want_first not in text or len(lines) < 2 or not lines[0].strip().startswith(
            f"{long_path:.1f} ns  TRELLIS_FF t.sv:1  ->  TRELLIS_FF t.sv:2 DI"):
        return f"logic_depth selftest: expected the {long_path:.1f} ns path first:\n{text}"
    if not lines[1].strip().startswith(f"{short_path:.1f} ns  TRELLIS_FF t.sv:1  ->  "
                                       "TRELLIS_FF t.sv:3 DI"):
        return f"logic_depth selftest: expected the {short_path:.1f} ns path second:\n{text}"
    # With a placement: every cell in tile (1, 1) but ff3 at (61, 41), 100 tiles from l3, so the
    # l3 -> ff3 net costs NET_BASE + 100 x TILE_DELAY and that path becomes the worst.
    placed = {c: (1, 1) for c in cells}
    placed["ff3"] = (61, 41)
    args = argparse.Namespace(top=None, paths=5, net_delay=0.9, verbose=False,
                              net_base=NET_BASE, tile_delay=TILE_DELAY, over=7.0)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        run(design, args, placed)
    text = out.getvalue()
    far_path = (CLK_TO_Q["TRELLIS_FF"] + NET_BASE + CELL_DELAY["LUT4"] + NET_BASE
                + 100 * TILE_DELAY + SETUP)
    if (f"worst estimated path {far_path:.1f} ns" not in text or
            "1 of 3 end bits above 7.0 ns" not in text):
        return (f"logic_depth selftest: expected the placed {far_path:.1f} ns path first, "
                f"alone above 7 ns:\n{text}")
    print(f"logic_depth selftest: ok ({long_path:.2f} ns and {short_path:.2f} ns paths; placed "
          f"{far_path:.2f} ns)")
    return 0


if __name__ == "__main__":
    main()
