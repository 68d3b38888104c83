#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Replicate the drivers of high-fanout nets in a mapped ECP5 netlist, by placement.

A SIMD design has many control signals that reach every lane: a register-file row number, an
operand register's clock enable, a result select, each driving 500 to 1,600 LUT and flip-flop
pins spread over the whole die. nextpnr routes each as one tree across the die, and on the SIMD16
board those few nets were a fifth of router2's overused wires (docs/timing.md "Routing"). Neither
Yosys nor nextpnr duplicates registers or LUTs to cut fanout, and keeping per-lane copies in the
RTL does not survive synthesis everywhere (Yosys merges equal flip-flops once a memory has
absorbed them). This script does what a commercial flow's physical optimisation does: it takes
the netlist that Yosys wrote and a placement of it that nextpnr wrote, and for every net driven
by a LUT4 or a flip-flop with at least --min-fanout sink pins it clusters the sinks by their
placed location (k-means, about --group pins per cluster) and gives each cluster a copy of the
driver (same inputs, same type and parameters), so each copy can be placed beside its sinks.
The function of the netlist is unchanged: every copy computes the same value from the same nets.

Usage: fpga/replicate.py NETLIST.json PLACED.json OUT.json [--top MODULE] [--min-fanout N]
                         [--group N]
       fpga/replicate.py selftest

  NETLIST.json  the mapped netlist (Yosys write_json; flow.sh's NAME.json)
  PLACED.json   nextpnr's placement of it (`--no-route --write PLACED.json`): sink locations
                come from the NEXTPNR_BEL attributes of the cells with the same names
  OUT.json      the netlist with the copies, to be placed and routed from scratch
Exit status 0; 2 on bad input (message on stderr, nothing written).
"""

import argparse
import copy
import json
import math
import os
import sys
import tempfile

import netlist_json

DRIVER_TYPES = {"LUT4": "Z", "TRELLIS_FF": "Q"}
CLOCK_PORTS = {"CLK", "WCK", "CLKA", "CLKB", "CLKI", "CLKFB"}


def die(msg):
    print(f"replicate: {msg}", file=sys.stderr)
    sys.exit(2)


def top_module(netlist, name):
    try:
        return netlist_json.top_module(netlist, name)
    except netlist_json.InputError as e:
        die(str(e))


def placed_locations(placed):
    try:
        return netlist_json.placed_locations(placed)
    except netlist_json.InputError as e:
        die(str(e))


def kmeans(points, k):
    """Deterministic k-means on 2D points: farthest-point seeding, 12 Lloyd iterations.
    Returns the cluster index of each point."""
    centres = [points[0]]
    d2 = [float("inf")] * len(points)
    while len(centres) < k:
        cx, cy = centres[-1]
        best, best_i = -1.0, 0
        for i, (x, y) in enumerate(points):
            d = (x - cx) ** 2 + (y - cy) ** 2
            if d < d2[i]:
                d2[i] = d
            if d2[i] > best:
                best, best_i = d2[i], i
        if best <= 0:
            break
        centres.append(points[best_i])
    assign = [0] * len(points)
    for _ in range(12):
        for i, (x, y) in enumerate(points):
            assign[i] = min(range(len(centres)),
                            key=lambda c: (x - centres[c][0]) ** 2 + (y - centres[c][1]) ** 2)
        sums = [[0.0, 0.0, 0] for _ in centres]
        for i, (x, y) in enumerate(points):
            s = sums[assign[i]]
            s[0] += x
            s[1] += y
            s[2] += 1
        centres = [(s[0] / s[2], s[1] / s[2]) if s[2] else centres[c]
                   for c, s in enumerate(sums)]
    return assign, centres


def replicate(netlist, loc, top=None, min_fanout=128, group=64):
    """Adds the copies to netlist (in place); returns a list of (net name, fanout, copies)."""
    mod = top_module(netlist, top)
    cells = mod["cells"]
    names = {}
    for n, v in mod.get("netnames", {}).items():
        bits = v.get("bits", [])
        for i, b in enumerate(bits):
            if isinstance(b, int):
                nm = n if len(bits) == 1 else f"{n}[{i}]"
                if b not in names or len(nm) < len(names[b]):
                    names[b] = nm
    driver = {}
    sinks = {}
    max_bit = 1
    for cname, cell in cells.items():
        dirs = cell.get("port_directions", {})
        for port, bits in cell.get("connections", {}).items():
            for i, b in enumerate(bits):
                if not isinstance(b, int):
                    continue
                max_bit = max(max_bit, b)
                if dirs.get(port) == "output":
                    driver[b] = (cname, port)
                elif dirs.get(port) == "input":
                    sinks.setdefault(b, []).append((cname, port, i))

    def where(cname):
        """A cell's location; a cell the packer renamed (slice multiplexers) takes the location
        of a neighbour that kept its name."""
        if cname in loc:
            return loc[cname]
        for bits in cells[cname].get("connections", {}).values():
            for b in bits:
                if not isinstance(b, int):
                    continue
                d = driver.get(b)
                if d and d[0] in loc:
                    return loc[d[0]]
        return None

    done = []
    next_bit = max_bit + 1
    for b in sorted(sinks, key=lambda x: -len(sinks[x])):
        pins = sinks[b]
        if len(pins) < min_fanout:
            break
        d = driver.get(b)
        # (A net that is also an output port keeps the port on the original driver, whose
        # net number is unchanged.)
        if d is None:
            continue
        dname, dport = d
        dcell = cells[dname]
        if DRIVER_TYPES.get(dcell.get("type")) != dport:
            continue
        if any(p in CLOCK_PORTS for _, p, _ in pins):
            continue
        located = [(pin, where(pin[0])) for pin in pins]
        points = [xy for _, xy in located if xy is not None]
        k = min(math.ceil(len(pins) / group), len(points))
        if k < 2:
            continue
        assign, centres = kmeans(points, k)
        # The original driver keeps the cluster nearest to where it was placed.
        home = loc.get(dname)
        keep = 0
        if home is not None:
            keep = min(range(len(centres)), key=lambda c: (home[0] - centres[c][0]) ** 2 +
                       (home[1] - centres[c][1]) ** 2)
        new_bit = {}
        for c in range(len(centres)):
            if c == keep:
                continue
            if not any(a == c for a in assign):
                continue
            nb = next_bit
            next_bit += 1
            new_bit[c] = nb
            dup = copy.deepcopy(dcell)
            dup["connections"][dport] = [nb]
            cells[f"{dname}$rep{c}"] = dup
            mod.setdefault("netnames", {})[f"{names.get(b, 'net' + str(b))}$rep{c}"] = {
                "hide_name": 0, "bits": [nb], "attributes": {}}
        it = iter(assign)
        for (cname, port, i), xy in located:
            c = next(it) if xy is not None else keep
            if c in new_bit:
                cells[cname]["connections"][port][i] = new_bit[c]
        done.append((names.get(b, f"net{b}"), len(pins), len(new_bit) + 1))
    return done


def verify(orig_mod, new_mod):
    """The replicated netlist computes what the original does: every original cell is there with
    the same type, parameters and connections, except input pins moved from a net to a copy of
    that net's driver; each copy is its driver with only the output changed. Returns a list of
    problems (empty when it holds)."""
    problems = []
    ocells, ncells = orig_mod["cells"], new_mod["cells"]
    alias = {}  # a copy's output bit -> the original driver's output bit
    copies = []
    for name, cell in ncells.items():
        if name in ocells:
            continue
        base = name.rsplit("$rep", 1)[0]
        if "$rep" not in name or base not in ocells:
            problems.append(f"unexpected new cell {name}")
            continue
        o = ocells[base]
        port = DRIVER_TYPES.get(o["type"])
        if port is None or cell["type"] != o["type"] or cell["parameters"] != o["parameters"]:
            problems.append(f"{name} is not a copy of {base}")
            continue
        alias[cell["connections"][port][0]] = o["connections"][port][0]
        copies.append((name, cell, o, port))
    # A copy's input may come from a copy of the original input's driver (that net was
    # replicated too): the same value.
    for name, cell, o, port in copies:
        for p, bits in o["connections"].items():
            nbits = cell["connections"].get(p, [])
            if p != port and (len(nbits) != len(bits) or any(
                    nb != b and alias.get(nb) != b for nb, b in zip(nbits, bits))):
                problems.append(f"{name}: input {p} differs from its original's")
    for name, o in ocells.items():
        n = ncells.get(name)
        if n is None:
            problems.append(f"cell {name} removed")
            continue
        if n["type"] != o["type"] or n["parameters"] != o["parameters"]:
            problems.append(f"cell {name} changed")
            continue
        for p, bits in o["connections"].items():
            nbits = n["connections"].get(p, [])
            if len(nbits) != len(bits) or any(
                    nb != b and alias.get(nb) != b for nb, b in zip(nbits, bits)):
                problems.append(f"{name}.{p} connected to another net")
    return problems


def selftest():
    # A flip-flop driving 8 LUT inputs, 4 at each end of the die: two copies, 4 pins each.
    lut = {"type": "LUT4", "port_directions": {"A": "input", "B": "input", "C": "input",
                                               "D": "input", "Z": "output"},
           "parameters": {"INIT": "0000000000000010"}, "attributes": {}}
    cells = {"ff": {"type": "TRELLIS_FF", "port_directions": {"CLK": "input", "DI": "input",
                                                             "Q": "output"},
                    "parameters": {}, "attributes": {},
                    "connections": {"CLK": [2], "DI": [3], "Q": [10]}}}
    placed = {}

    def add_lut(cells_, name, a_bit, z_bit, x, y):
        c = copy.deepcopy(lut)
        c["connections"] = {"A": [a_bit], "B": ["0"], "C": ["0"], "D": ["0"], "Z": [z_bit]}
        cells_[name] = c
        placed[name] = {"type": "TRELLIS_COMB",
                        "attributes": {"NEXTPNR_BEL": f"X{x}/Y{y}/SLICEA.K0"}}

    for i in range(8):
        add_lut(cells, f"l{i}", 10, 20 + i, 2 if i < 4 else 90, 5 + i)
    placed["ff"] = {"type": "TRELLIS_FF", "attributes": {"NEXTPNR_BEL": "X3/Y6/SLICEA.Q0"}}
    net = {"modules": {"t": {"attributes": {"top": "00000000000000000000000000000001"},
                             "ports": {"q": {"direction": "output", "bits": [10]}},
                             "cells": cells,
                             "netnames": {"q": {"hide_name": 0, "bits": [10], "attributes": {}}}}}}
    orig = copy.deepcopy(net["modules"]["t"])
    pristine = copy.deepcopy(net)
    done = replicate(net, placed_locations({"modules": {"t": {"cells": placed}}}), None, 8, 4)
    assert done == [("q", 8, 2)], done
    c = net["modules"]["t"]["cells"]
    assert len(c) == 10, len(c)
    new = [n for n in c if "$rep" in n]
    assert len(new) == 1 and c[new[0]]["connections"]["DI"] == [3], new
    nb = c[new[0]]["connections"]["Q"][0]
    for i in range(8):
        assert c[f"l{i}"]["connections"]["A"] == [10 if i < 4 else nb], (i, c[f"l{i}"])
    assert c["ff"]["connections"]["Q"] == [10]
    assert net["modules"]["t"]["ports"]["q"]["bits"] == [10]  # the port stays on the original
    assert verify(orig, net["modules"]["t"]) == []
    # verify() catches a pin moved to an unrelated net and a copy with other inputs.
    bad = copy.deepcopy(net["modules"]["t"])
    bad["cells"]["l0"]["connections"]["A"] = [3]
    assert verify(orig, bad) == ["l0.A connected to another net"], verify(orig, bad)
    bad = copy.deepcopy(net["modules"]["t"])
    bad["cells"][new[0]]["connections"]["DI"] = [4]
    assert len(verify(orig, bad)) == 1
    # A chain: l0 drives 9 pins of its own, so l0 is copied first; then the flip-flop's net is
    # split, and l0's copy keeps the original flip-flop (pins are assigned as they were when
    # the nets were counted), which verify() accepts as it accepts a pin on a copy.
    net2 = copy.deepcopy(pristine)
    c2 = net2["modules"]["t"]["cells"]
    for i in range(9):
        add_lut(c2, f"m{i}", 20, 40 + i, 1 if i < 5 else 95, 60 + i)
    orig2 = copy.deepcopy(net2["modules"]["t"])
    placed["l0"]["attributes"]["NEXTPNR_BEL"] = "X50/Y5/SLICEA.K0"
    done2 = replicate(net2, placed_locations({"modules": {"t": {"cells": placed}}}), None, 8, 5)
    assert [d[1:] for d in done2] == [(9, 2), (8, 2)], done2
    moved = [n for n in ("l0", "l1", "l2", "l3", "l4", "l5", "l6", "l7")
             if c2[n]["connections"]["A"] != [10]]
    assert moved == ["l0", "l4", "l5", "l6", "l7"], moved  # l0 at x 50 is nearer x 90
    assert verify(orig2, net2["modules"]["t"]) == []
    # Below the threshold nothing changes.
    assert replicate(net, {}, None, 9, 4) == []
    print("replicate selftest: ok")


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "selftest":
        selftest()
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("netlist")
    ap.add_argument("placed")
    ap.add_argument("out")
    ap.add_argument("--top", default=None)
    ap.add_argument("--min-fanout", type=int, default=128)
    ap.add_argument("--group", type=int, default=64)
    a = ap.parse_args()
    if a.min_fanout < 2 or a.group < 1:
        die("--min-fanout must be at least 2 and --group at least 1")
    try:
        netlist = netlist_json.load(a.netlist)
        placed = netlist_json.load(a.placed)
    except netlist_json.InputError as e:
        die(str(e))
    loc = placed_locations(placed)
    if not loc:
        die(f"{a.placed}: no placed cells (NEXTPNR_BEL attributes)")
    orig = copy.deepcopy(top_module(netlist, a.top))
    done = replicate(netlist, loc, a.top, a.min_fanout, a.group)
    problems = verify(orig, top_module(netlist, a.top))
    if problems:
        die("the replicated netlist is not equivalent (nothing written): " +
            "; ".join(problems[:5]))
    # Written whole or not at all.
    d = os.path.dirname(os.path.abspath(a.out))
    fd, tmp = tempfile.mkstemp(dir=d, suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump(netlist, f)
    os.replace(tmp, a.out)
    added = sum(c - 1 for _, _, c in done)
    print(f"replicate: {len(done)} nets with {a.min_fanout} or more sink pins, "
          f"{added} driver copies added (about {a.group} pins each)")
    for n, fo, c in done[:15]:
        print(f"  {fo:6d} pins -> {c:3d} drivers  {n[:110]}")


if __name__ == "__main__":
    main()
