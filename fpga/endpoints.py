#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Endpoints of a routed design that miss a clock period, grouped by the RTL line they come from.

nextpnr prints one critical path per clock and a slack histogram without names; a routed SGU
board has thousands of endpoints below 75 MHz and one run takes up to two hours, so a path at a
time is too slow a way to find what to restructure. With `--detailed-timing-report` (fpga/flow.sh
--pnr-arg=--detailed-timing-report, or FPGA_PNR_ARGS=--detailed-timing-report for fpga/sweep.sh)
nextpnr's JSON report lists, for every timing endpoint (a flip-flop's data, enable or reset
input, a RAM's or DSP's registered input), the latest arrival of its data after the clock edge:
the delay of the worst path into it. This script reads that list and the netlist nextpnr placed
(for each register's RTL source line) and prints, per RTL line and input kind, how many endpoints
miss the period and by how much: which registers to move or split, ranked by how many bits fail.

Usage: fpga/endpoints.py REPORT.json NETLIST.json [--mhz 75] [--lines N] [--min-ns NS]
       fpga/endpoints.py selftest
"""

import argparse
import collections
import json
import re
import sys

# Where a derived cell name starts (Yosys / ABC / nextpnr suffixes appended to a signal name).
DERIVED = re.compile(r"_(LUT4|CCU2C|TRELLIS_FF|TRELLIS_DPR16X4|PFUMX|L6MUX21|DP16KD|MULT18X18D)_|"
                     r"\$")
# Input kinds: what the endpoint's port is on its cell.
KIND = {"DI": "data", "M": "data", "CE": "enable", "LSR": "reset"}


def port_kind(port):
    if port in KIND:
        return KIND[port]
    if re.match(r"^(AD[AB]|ADDR|WAD|RAD)", port):
        return "ram address"
    if re.match(r"^(DI[AB]|DI\d|WD)", port):
        return "ram data"
    if re.match(r"^(CE[AB]|WE|OCE|WRE)", port):
        return "ram enable"
    if re.match(r"^[ABC]\d+$", port):
        return "dsp operand"
    return port


def load_sources(netlist):
    """cell name -> 'file:line' of its RTL source (registers keep theirs through synthesis)."""
    mods = netlist.get("modules", {})
    if not mods:
        return {}
    top = max(mods, key=lambda m: len(mods[m].get("cells", {})))
    out = {}
    for cn, c in mods[top].get("cells", {}).items():
        for part in c.get("attributes", {}).get("src", "").split("|"):
            if part and not part.startswith("/"):
                f, _, line = part.rpartition(":")
                out[cn] = f"{f.split('/')[-1]}:{line.split('.')[0]}"
                break
    return out


def signal_of(cell):
    """The signal a derived cell name starts from ('u_core.x_q_TRELLIS_FF_Q_3' -> 'u_core.x_q')."""
    m = DERIVED.search(cell)
    return cell[:m.start()] if m and m.start() > 0 else cell


def analyse(report, sources, period_ns):
    """Returns (endpoints, failing groups): groups keyed by (source, kind), each with the count,
    the worst arrival and the signal names seen, sorted by count then worst arrival."""
    ends = []
    for net in report.get("detailed_net_timings", []):
        for e in net.get("endpoints", []):
            d = e.get("delay")
            arrival = max(d) if isinstance(d, list) else float(d)
            ends.append((arrival, e["cell"], e["port"]))
    groups = {}
    for arrival, cell, port in ends:
        if arrival <= period_ns:
            continue
        src = sources.get(cell) or sources.get(cell.split("$")[0]) or "?"
        key = (src, port_kind(port))
        g = groups.setdefault(key, {"count": 0, "worst": 0.0, "signals": collections.Counter()})
        g["count"] += 1
        g["worst"] = max(g["worst"], arrival)
        g["signals"][signal_of(cell)] += 1
    ranked = sorted(groups.items(), key=lambda kv: (-kv[1]["count"], -kv[1]["worst"]))
    return ends, ranked


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "selftest":
        sys.exit(selftest())
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", help="nextpnr --report JSON written with --detailed-timing-report")
    ap.add_argument("netlist", help="the netlist nextpnr read (NAME.rep.json or NAME.json)")
    ap.add_argument("--mhz", type=float, default=75.0, help="the clock to judge against")
    ap.add_argument("--lines", type=int, default=40, help="groups to print")
    args = ap.parse_args()
    try:
        with open(args.report) as f:
            report = json.load(f)
        with open(args.netlist) as f:
            netlist = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"endpoints: cannot read: {e}")
    if not report.get("detailed_net_timings"):
        sys.exit(f"endpoints: {args.report} has no per-endpoint timing: place and route with "
                 "nextpnr's --detailed-timing-report")
    print_report(report, load_sources(netlist), args.mhz, args.lines)


def print_report(report, sources, mhz, lines):
    period = 1000.0 / mhz
    ends, ranked = analyse(report, sources, period)
    failing = sum(g["count"] for _, g in ranked)
    worst = max(a for a, _, _ in ends) if ends else 0.0
    print(f"{len(ends)} endpoints, {failing} above {period:.2f} ns ({mhz:g} MHz); worst "
          f"{worst:.2f} ns ({1000.0 / worst if worst else 0:.1f} MHz)")
    hist = collections.Counter(min(int((a - period) // 2), 5) for a, _, _ in ends if a > period)
    for b in sorted(hist):
        lo = period + 2 * b
        hi = "" if b == 5 else f"{lo + 2:.1f}"
        print(f"  {lo:5.1f} .. {hi:>5} ns: {hist[b]}")
    print(f"{'bits':>6} {'worst ns':>8}  {'kind':12s} source  (signals)")
    for (src, kind), g in ranked[:lines]:
        sig = ", ".join(f"{s} x{n}" if n > 1 else s for s, n in g["signals"].most_common(2))
        more = len(g["signals"]) - 2
        if more > 0:
            sig += f", +{more}"
        print(f"{g['count']:6d} {g['worst']:8.2f}  {kind:12s} {src}  ({sig})")


def selftest():
    """Three endpoints against a 10 ns period: two data inputs of one RTL line above it, one
    enable below. Returns 0 when the grouping and the counts are right, else a message."""
    import contextlib
    import io
    report = {"detailed_net_timings": [
        {"net": "a", "endpoints": [{"cell": "u.x_q_TRELLIS_FF_Q", "port": "DI", "delay": [1.0, 12.5]},
                                   {"cell": "u.x_q_TRELLIS_FF_Q_1", "port": "DI", "delay": [1.0, 11.0]}]},
        {"net": "b", "endpoints": [{"cell": "u.y_q_TRELLIS_FF_Q", "port": "CE", "delay": [0.5, 9.0]}]},
    ]}
    sources = {"u.x_q_TRELLIS_FF_Q": "core.sv:10", "u.x_q_TRELLIS_FF_Q_1": "core.sv:10",
               "u.y_q_TRELLIS_FF_Q": "core.sv:20"}
    ends, ranked = analyse(report, sources, 10.0)
    if len(ends) != 3 or len(ranked) != 1:
        return f"endpoints selftest: expected 3 endpoints and 1 failing group, got {ends} {ranked}"
    (src, kind), g = ranked[0]
    if (src, kind, g["count"], g["worst"], dict(g["signals"])) != \
            ("core.sv:10", "data", 2, 12.5, {"u.x_q": 2}):
        return f"endpoints selftest: wrong group {ranked[0]}"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print_report(report, sources, 100.0, 5)
    if "3 endpoints, 2 above 10.00 ns" not in out.getvalue():
        return f"endpoints selftest: wrong summary:\n{out.getvalue()}"
    print("endpoints selftest: ok")
    return 0


if __name__ == "__main__":
    main()
