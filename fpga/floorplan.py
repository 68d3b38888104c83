#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Floorplan the lanes of an SGU board: pin each lane's registers into a box of its own.

nextpnr's static placer lays the SIMD16 board out as lane rows by bit columns (docs/fpga.md
"Routed timing, step by step", `fpga/placement.py`): what the crossbar and the LSU want, and
the opposite of what a lane's ALU wants, whose 32 operand bits converge on one carry chain. The
PyPI build of nextpnr takes no region constraints (they come only from a Python script); what it
does read from the netlist is a `BEL` attribute, which binds a cell to one site before
placement. This script gives the registers of each lane such attributes, in a box per lane:

  * the lanes' registers are found by their signal names in the mapped netlist (generate blocks
    indexed by the lane, `gen_lane[L]`, `gen_operands[L]` ..., and the per-lane slices of the
    core's packed vectors `l2_data_q`, `ws_q`, `wl_q` and of the operand registers); the
    crossbar's operand registers (`xb_q`) are left to the placer, since the crossbar joins
    every lane;
  * nextpnr's ECP5 packer clusters a flip-flop with the LUT that drives its D input (the LUT is
    the cluster's root). A pinned root alone leaves its flip-flop unplaced (nextpnr 0.11 binds
    the root and never places the cluster's children), a pinned flip-flop alone makes the
    placer's refinement fail when it moves the root: so a flip-flop fed by a LUT that feeds only
    it (and no slice multiplexer) is pinned together with that LUT, in one logic cell; a
    flip-flop fed by a register, a block RAM or a DSP is pinned alone; one fed by a carry chain,
    a slice multiplexer, a LUT RAM or a LUT shared with other flip-flops joins a cluster whose
    root is not ours and is left to the placer;
  * sites are chosen so that the pins are legal together: the flip-flops of one slice share a
    clock enable, those of one tile a clock and a set/reset (nextpnr's rules), so each slice
    takes one clock-enable group and each tile one clock/reset group;
  * the boxes form a grid over a region of the die; each lane gets the box nearest to where a
    first placement put it (so the crossbar, LSU and MFUs keep their neighbours), and in its
    box the tiles nearest the box's centre, at most --fill of each tile's eight logic cells.

Every other cell is left to the placer, which places around the pins (the pins are binding:
nextpnr never moves a cell with a `BEL` attribute).

Usage: fpga/floorplan.py NETLIST.json PLACED.json OUT.json [--top MODULE] [--grid CxR]
                         [--region X0:X1,Y0:Y1] [--fill N] [--order first|index] [--report]
       fpga/floorplan.py selftest

  NETLIST.json  the mapped netlist that will be placed (flow.sh's NAME.json or NAME.rep.json)
  PLACED.json   a placement of it or of its unreplicated form (nextpnr `--no-route --write`):
                the lanes' first positions, the die's logic tiles and the names of their sites
  OUT.json      the netlist with the BEL attributes
Exit status 0; 2 on bad input (message on stderr, nothing written).
"""

import argparse
import collections
import json
import os
import re
import statistics
import sys
import tempfile

import netlist_json

BEL_XY = netlist_json.BEL_XY
LANE_CTL = re.compile(r"\.gen_lane\[(\d+)\]\.u_lane\.ctl$")
# Per-lane generate blocks of the core and its register file (the lane index is the block's).
LANE_GEN = re.compile(r"\.u_core\.(?:u_regfile\.)?(?:gen_[a-z0-9_]+\[\d+\]\.)?"
                      r"gen_(?:lane|operands|fwd_val|fwd_nz|cond|lsu|wb|l2_val)"
                      r"\[(\d+)\]\.")
# Packed per-lane vectors: name suffix -> bits per lane.
# (Yosys names a register's output after one of the signals it drives: the operand registers
# of rs1 and rs3 appear as the vote unit's and the LSU's inputs.)
LANE_VEC = {r"\.u_core\.l2_data_q": 64, r"\.u_core\.u_regfile\.ws_q": 64,
            r"\.u_core\.u_regfile\.wl_q": 64, r"\.u_core\.u_vote\.data_i": 64,
            r"\.u_lsu\.wdata_i": 64}
SLICES = "ABCD"
# A logic site inside a tile, as nextpnr 0.11 names it: SLICEA.K0 (a LUT), SLICEA.FF1 (a
# flip-flop): the slice letter, the kind, the logic cell's index in the slice.
SITE = re.compile(r"^SLICE([A-D])\.([A-Z]+)([01])$")


def die(msg):
    print(f"floorplan: {msg}", file=sys.stderr)
    sys.exit(2)


def top_module(netlist, name=None):
    try:
        return netlist_json.top_module(netlist, name)
    except netlist_json.InputError as e:
        die(str(e))


class Sites:
    """The logic sites of the die, as a placement names them: for every tile that holds logic
    cells, the site name of each LUT and flip-flop of its eight logic cells."""

    def __init__(self, placed):
        self.comb_fmt = self.ff_fmt = None
        self.tiles = set()
        for cell in top_module(placed).get("cells", {}).values():
            bel = cell.get("attributes", {}).get("NEXTPNR_BEL", "")
            m = BEL_XY.match(bel)
            if not m:
                continue
            kind = cell.get("type")
            if kind not in ("TRELLIS_COMB", "TRELLIS_FF"):
                continue
            x, y, site = int(m.group(1)), int(m.group(2)), m.group(3)
            self.tiles.add((x, y))
            fmt = self._format(site)
            if fmt is None:
                die(f"unexpected logic site name {bel!r} in the placement")
            if kind == "TRELLIS_COMB":
                self.comb_fmt = self.comb_fmt or fmt
            else:
                self.ff_fmt = self.ff_fmt or fmt
        if not self.tiles or not self.comb_fmt or not self.ff_fmt:
            die("the placement has no placed LUTs and flip-flops (write it after placement)")

    @staticmethod
    def _format(site):
        m = SITE.match(site)
        return "SLICE{s}." + m.group(2) + "{i}" if m else None

    def name(self, fmt, x, y, slice_idx, lc):
        return f"X{x}/Y{y}/" + fmt.format(s=SLICES[slice_idx], i=lc)


class Netlist:
    def __init__(self, mod):
        self.mod = mod
        self.cells = mod.get("cells", {})
        self.driver = {}
        self.users = collections.defaultdict(list)
        for name, cell in self.cells.items():
            dirs = cell.get("port_directions", {})
            for port, bits in cell.get("connections", {}).items():
                for bit in bits:
                    if not isinstance(bit, int):
                        continue
                    if dirs.get(port) == "output":
                        self.driver[bit] = (name, port)
                    else:
                        self.users[bit].append((name, port))

    def bit(self, cell, port):
        bits = self.cells[cell].get("connections", {}).get(port, [])
        return bits[0] if bits else None

    def lanes_of_ffs(self):
        """{flip-flop cell: lane} for the lanes' registers."""
        lane_of = {}
        vecs = [(re.compile(rx + r"$"), w) for rx, w in LANE_VEC.items()]
        for name, net in self.mod.get("netnames", {}).items():
            m = LANE_GEN.search(name)
            per_bit = None
            if m:
                per_bit = lambda i, lane=int(m.group(1)): lane
            else:
                for rx, w in vecs:
                    if rx.search(name):
                        per_bit = lambda i, w=w: i // w
                        break
            if per_bit is None:
                continue
            for i, bit in enumerate(net.get("bits", [])):
                if not isinstance(bit, int):
                    continue
                drv = self.driver.get(bit)
                if drv and drv[1] == "Q" and self.cells[drv[0]]["type"] == "TRELLIS_FF":
                    lane_of.setdefault(drv[0], per_bit(i))
        return lane_of

    def unit(self, ff):
        """How a flip-flop can be pinned: ('pair', lut) through the LUT that drives it alone,
        ('ff', None) by itself, or None (it joins a cluster whose root is not ours to pin)."""
        d = self.bit(ff, "DI")
        if d is None:
            return ("ff", None)
        drv = self.driver.get(d)
        if drv is None:
            return ("ff", None)           # a constant
        cell, port = drv
        kind = self.cells[cell]["type"]
        if kind == "LUT4" and port == "Z":
            users = self.users.get(d, [])
            ffs = [u for u in users if self.cells[u[0]]["type"] == "TRELLIS_FF"]
            muxes = [u for u in users if self.cells[u[0]]["type"] in ("PFUMX", "L6MUX21")]
            if len(ffs) == 1 and not muxes and ffs[0][1] == "DI":
                return ("pair", cell)
            return None
        if kind in ("TRELLIS_FF", "DP16KD", "MULT18X18D", "TRELLIS_IO"):
            return ("ff", None)
        return None                        # a carry chain, a slice multiplexer, ...

    def control_keys(self, ff):
        """(tile key, slice key): what the flip-flops of one tile, and of one slice, share."""
        conn = self.cells[ff].get("connections", {})
        p = self.cells[ff].get("parameters", {})
        def net(port):
            bits = conn.get(port, [])
            return bits[0] if bits else None
        tile = (net("CLK"), net("LSR"), p.get("CLKMUX", "CLK"), p.get("LSRMUX", "LSR"),
                p.get("SRMODE", "LSR_OVER_CE"))
        slice_ = (net("CE"), p.get("CEMUX", "CE"), p.get("GSR", "ENABLED"))
        return tile, slice_


def lane_order(lane_pts, grid_c, grid_r):
    """Assign lanes to grid boxes (c, r) by their first positions: rows by y, columns by x."""
    lanes = sorted(lane_pts, key=lambda l: statistics.median(p[1] for p in lane_pts[l]))
    out = {}
    for r in range(grid_r):
        row = lanes[r * grid_c:(r + 1) * grid_c]
        row.sort(key=lambda l: statistics.median(p[0] for p in lane_pts[l]))
        for c, lane in enumerate(row):
            out[lane] = (c, r)
    return out


def floorplan(netlist, placed, top=None, grid=(4, 4), region=None, fill=8, order="first"):
    mod = top_module(netlist, top)
    nl = Netlist(mod)
    sites = Sites(placed)
    try:
        loc = netlist_json.placed_locations(placed)
    except netlist_json.InputError as e:
        die(str(e))
    lane_of = nl.lanes_of_ffs()
    if not lane_of:
        die("no lane registers found in the netlist (is it an SGU board's mapped netlist?)")
    lanes = sorted(set(lane_of.values()))
    gc, gr = grid
    if gc * gr < len(lanes):
        die(f"a {gc}x{gr} grid has fewer boxes than the {len(lanes)} lanes")
    # Units to pin per lane.
    # (unit() pairs a LUT with a flip-flop only when it drives no other, so no LUT is pinned
    # twice.)
    per_lane = collections.defaultdict(list)
    skipped = collections.Counter()
    for ff, lane in sorted(lane_of.items()):
        u = nl.unit(ff)
        if u is None:
            skipped["fed by a carry chain, a slice multiplexer or a shared LUT"] += 1
            continue
        per_lane[lane].append((u[0], u[1], ff) + nl.control_keys(ff))
    lane_pts = {l: [loc[u[2]] for u in per_lane[l] if u[2] in loc] for l in lanes}
    missing = [l for l in lanes if not lane_pts[l]]
    if missing:
        die(f"the placement has none of lane(s) {missing} registers: is it this netlist's?")
    xs = sorted(t[0] for t in sites.tiles)
    ys = sorted(t[1] for t in sites.tiles)
    x0, x1, y0, y1 = region or (xs[0], xs[-1], ys[0], ys[-1])
    if order == "index":
        box_of = {lane: (i % gc, i // gc) for i, lane in enumerate(lanes)}
    else:
        box_of = lane_order(lane_pts, gc, gr)
    bw, bh = (x1 - x0 + 1) / gc, (y1 - y0 + 1) / gr
    attrs = {}
    used_tiles = set()
    report = []
    for lane in lanes:
        c, r = box_of[lane]
        bx0, by0 = x0 + c * bw, y0 + r * bh
        cx, cy = bx0 + bw / 2, by0 + bh / 2
        tiles = sorted((t for t in sites.tiles
                        if bx0 <= t[0] < bx0 + bw and by0 <= t[1] < by0 + bh
                        and t not in used_tiles),
                       key=lambda t: (abs(t[0] - cx) + abs(t[1] - cy), t))
        # Group by tile key, then by slice key; each slice holds up to two units of one slice
        # key, each tile up to `fill` units of one tile key.
        by_tile = collections.defaultdict(lambda: collections.defaultdict(list))
        for u in per_lane[lane]:
            by_tile[u[3]][u[4]].append(u)
        ti = 0
        placed_units = 0
        for tkey in sorted(by_tile, key=str):
            slices = []                  # lists of at most two units, one slice key each
            for skey in sorted(by_tile[tkey], key=str):
                us = by_tile[tkey][skey]
                slices += [us[i:i + 2] for i in range(0, len(us), 2)]
            per_tile = max(1, fill // 2)
            for i in range(0, len(slices), per_tile):
                if ti >= len(tiles):
                    die(f"lane {lane}'s box ({bw:.0f} x {bh:.0f} tiles at {bx0:.0f},{by0:.0f})"
                        " has too few logic tiles: use a larger --region or a lower --fill")
                x, y = tiles[ti]
                ti += 1
                used_tiles.add((x, y))
                for s, units in enumerate(slices[i:i + per_tile]):
                    for lc, (kind, lut, ff, _, _) in enumerate(units):
                        if kind == "pair":
                            attrs[lut] = sites.name(sites.comb_fmt, x, y, s, lc)
                        attrs[ff] = sites.name(sites.ff_fmt, x, y, s, lc)
                        placed_units += 1
        report.append(f"lane {lane:2d}: box ({c},{r}) x {bx0:.0f}-{bx0 + bw - 1:.0f} "
                      f"y {by0:.0f}-{by0 + bh - 1:.0f}: {placed_units} registers pinned "
                      f"in {ti} tiles")
    for cell, bel in attrs.items():
        mod["cells"][cell].setdefault("attributes", {})["BEL"] = bel
    problem = check_legal(nl, attrs)
    if problem:
        die(f"internal error: an illegal pin ({problem})")
    report.append(f"{len(attrs)} cells pinned; left to the placer: "
                  + (", ".join(f"{n} ({why})" for why, n in sorted(skipped.items())) or "none"))
    return netlist, report


def check_legal(nl, attrs):
    """nextpnr's rules for the pinned flip-flops: one clock enable per slice, one clock and one
    set/reset per tile, one cell per site, a pinned LUT's flip-flop in the LUT's logic cell.
    Returns a description of the first violation, or None."""
    per_slice, per_tile, sites = {}, {}, {}
    for cell, bel in attrs.items():
        if bel in sites:
            return f"{cell} and {sites[bel]} on {bel}"
        sites[bel] = cell
        if nl.cells[cell]["type"] != "TRELLIS_FF":
            continue
        xy = BEL_XY.match(bel)
        m = SITE.match(xy.group(3))
        tile = f"X{xy.group(1)}/Y{xy.group(2)}"
        slice_ = f"{tile}/SLICE{m.group(1)}"
        tkey, skey = nl.control_keys(cell)
        if per_tile.setdefault(tile, tkey) != tkey:
            return f"two clock/set-reset groups in tile {tile}"
        if per_slice.setdefault(slice_, skey) != skey:
            return f"two clock enables in slice {slice_}"
        unit = nl.unit(cell)
        if unit and unit[0] == "pair" and unit[1] in attrs:
            lut_bel = attrs[unit[1]]
            lxy = BEL_XY.match(lut_bel)
            lm = SITE.match(lxy.group(3)) if lxy else None
            if not lm or (lxy.group(1), lxy.group(2), lm.group(1), lm.group(3)) != \
                    (xy.group(1), xy.group(2), m.group(1), m.group(3)):
                return f"{cell} on {bel}, its LUT on {lut_bel}"
    return None


def selftest():
    """Two lanes of two registers each: one fed by a LUT of its own (pinned through the LUT),
    one by a register (pinned itself); one more fed by a shared LUT (left alone)."""
    def ff(d, q, ce):
        return {"type": "TRELLIS_FF", "parameters": {},
                "port_directions": {"CLK": "input", "CE": "input", "DI": "input", "Q": "output"},
                "connections": {"CLK": [2], "CE": [ce], "DI": [d], "Q": [q]}}
    def lut(a, z):
        return {"type": "LUT4", "port_directions": {"A": "input", "Z": "output"},
                "connections": {"A": [a], "Z": [z]}}
    core = "gen_sgu.u_sgu.u_core"
    cells = {"l0": lut(3, 10), "f0": ff(10, 11, 4), "f1": ff(11, 12, 4), "k": ff(12, 13, 6),
             "l1": lut(3, 20), "g0": ff(20, 21, 5), "g1": ff(21, 22, 5),
             "s": lut(3, 30), "h0": ff(30, 31, 4), "h1": ff(30, 32, 4)}
    netnames = {f"{core}.gen_lane[0].u_lane.ctl": {"bits": [11, 12, 13, 31]},
                f"{core}.gen_lane[1].u_lane.ctl": {"bits": [21, 22, 32]}}
    netlist = {"modules": {"top": {"attributes": {"top": "1"}, "cells": cells,
                                   "netnames": netnames}}}
    pl = {"f0": ("X10/Y10/SLICEA.FF0", "TRELLIS_FF"), "f1": ("X11/Y10/SLICEA.FF0", "TRELLIS_FF"),
          "g0": ("X30/Y30/SLICEB.FF1", "TRELLIS_FF"), "g1": ("X31/Y30/SLICEA.FF0", "TRELLIS_FF"),
          "l0": ("X10/Y10/SLICEA.K0", "TRELLIS_COMB"), "x": ("X2/Y2/SLICEA.K0", "TRELLIS_COMB"),
          "y": ("X39/Y39/SLICEA.K0", "TRELLIS_COMB")}
    placed = {"modules": {"top": {"cells": {
        n: {"type": t, "attributes": {"NEXTPNR_BEL": b}} for n, (b, t) in pl.items()}}}}
    out, report = floorplan(netlist, placed, grid=(2, 1), fill=8)
    c = out["modules"]["top"]["cells"]
    got = {n: c[n].get("attributes", {}).get("BEL") for n in c}
    errors = []
    if not (got["l0"] or "").endswith(".K0") or got["f0"] != got["l0"][:-2] + "FF0":
        errors.append(f"f0 not pinned with its LUT, in the LUT's logic cell: {got}")
    if not (got["f1"] or "").startswith("X") or got["h0"] or got["h1"] or got["s"]:
        errors.append(f"f1 pinned itself, h0/h1 left alone: {got}")
    lane0_x = {int(BEL_XY.match(got[n]).group(1)) for n in ("l0", "f1")}
    lane1_x = {int(BEL_XY.match(got[n]).group(1)) for n in ("l1", "g1")}
    if max(lane0_x) > 20 or min(lane1_x) <= 20:
        errors.append(f"lane 0 not in the left box, lane 1 not in the right: {got}")
    if not got["k"] or got["k"].rsplit(".", 1)[0] in (got["f0"].rsplit(".", 1)[0],
                                                       got["f1"].rsplit(".", 1)[0]):
        errors.append(f"k (another clock enable) unpinned or in f0's or f1's slice: {got}")
    nl = Netlist(out["modules"]["top"])
    if check_legal(nl, {n: b for n, b in got.items() if b}):
        errors.append("check_legal rejects the result")
    bad = {"f0": "X1/Y1/SLICEA.FF0", "k": "X1/Y1/SLICEA.FF1"}
    if "clock enables" not in (check_legal(nl, bad) or ""):
        errors.append("check_legal accepts two clock enables in one slice")
    bad = {"l0": "X1/Y1/SLICEA.K1", "f0": "X1/Y1/SLICEA.FF0"}
    if "its LUT" not in (check_legal(nl, bad) or ""):
        errors.append("check_legal accepts a flip-flop outside its LUT's logic cell")
    if errors:
        print("floorplan selftest: " + "; ".join(errors))
        return 1
    print("floorplan selftest: ok (" + report[-1] + ")")
    return 0


def parse_region(text):
    m = re.fullmatch(r"(\d+):(\d+),(\d+):(\d+)", text)
    if not m:
        raise argparse.ArgumentTypeError("--region is X0:X1,Y0:Y1")
    return tuple(int(v) for v in m.groups())


def parse_grid(text):
    m = re.fullmatch(r"(\d+)x(\d+)", text)
    if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise argparse.ArgumentTypeError("--grid is CxR, e.g. 4x4")
    return int(m.group(1)), int(m.group(2))


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "selftest":
        sys.exit(selftest())
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("netlist")
    ap.add_argument("placed")
    ap.add_argument("out")
    ap.add_argument("--top")
    ap.add_argument("--grid", type=parse_grid, default=(4, 4))
    ap.add_argument("--region", type=parse_region)
    ap.add_argument("--fill", type=int, default=8, choices=range(2, 9),
                    help="pinned logic cells per tile (2..8)")
    ap.add_argument("--order", choices=("first", "index"), default="first",
                    help="lanes to boxes by the first placement's positions (rows by y, then x) "
                         "or by lane number (row by row)")
    ap.add_argument("--report", action="store_true", help="print where each lane went")
    a = ap.parse_args()
    try:
        netlist = netlist_json.load(a.netlist)
        placed = netlist_json.load(a.placed)
    except netlist_json.InputError as e:
        die(str(e))
    out, report = floorplan(netlist, placed, a.top, a.grid, a.region, a.fill, a.order)
    d = os.path.dirname(os.path.abspath(a.out))
    fd, tmp = tempfile.mkstemp(dir=d, suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(out, f)
        os.chmod(tmp, 0o644)
        os.replace(tmp, a.out)
    except OSError as e:
        os.unlink(tmp)
        die(f"cannot write {a.out}: {e}")
    print("\n".join(report if a.report else report[-1:]))


if __name__ == "__main__":
    main()
