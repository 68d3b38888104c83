#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reads the logs of one fpga/flow.sh run into summary.json, and writes tables of runs into docs.

  flow_report.py summary --out DIR --name NAME ... --status STATUS
      Parses DIR/synth.stat (Yosys `stat`, 0.23 or 0.5x+ layout), DIR/pnr.log and DIR/report.json
      (nextpnr), writes DIR/summary.json, prints one line, and exits 3 when the design does not
      fit the device (more than --max-util % of its LUTs, DSPs or block RAMs), else 0.

  flow_report.py table --doc docs/fpga.md --section NAME --kind sweep|area --command CMD S.json...
      Replaces the lines between `<!-- NAME: begin ... -->` and `<!-- NAME: end -->` in the
      document (or appends the section) with a table of the given summaries and the command
      that produced them.

summary.json fields: name, top, params, device, freq_target_mhz, mapper, yosys, status, cells
(every cell type), lut4, ff, dsp, ebr, pfumx, l6mux, ccu2c, lutram, lut_slots (LUT4 + 2 x CCU2C
+ 2 x TRELLIS_DPR16X4: the LUT sites the design needs), util (resource -> [used, available,
percent], from nextpnr), fits, fmax_mhz (clock -> MHz), fmax_min_mhz, timing_met,
max_delay_ns (combinational designs), critical_path (start, end, start_src and end_src: the
RTL lines of its registers, delay, logic and routing ns, logic levels, longest_net_ns, nets: each
net's delay and the tiles it joins), errors, times_s, attempts (seed and result of each place
and route: routed, timeout, diverged, failed), seed (the last one tried).
"""

import argparse
import datetime
import json
import os
import re
import sys

# Resources of the ECP5 devices (LUT4 sites = TRELLIS_COMB, MULT18X18D, DP16KD, TRELLIS_FF).
DEVICES = {
    "25k": {"TRELLIS_COMB": 24288, "MULT18X18D": 28, "DP16KD": 56, "TRELLIS_FF": 24288},
    "45k": {"TRELLIS_COMB": 43848, "MULT18X18D": 72, "DP16KD": 108, "TRELLIS_FF": 43848},
    "85k": {"TRELLIS_COMB": 83640, "MULT18X18D": 156, "DP16KD": 208, "TRELLIS_FF": 83640},
}
FIT_RESOURCES = ("TRELLIS_COMB", "MULT18X18D", "DP16KD", "TRELLIS_FF", "TRELLIS_IO")
NOT_FIT_PATTERNS = re.compile(
    r"no Bels remaining|Unable to place cell|Unable to find legal placement|"
    r"failed to place|Design uses|too many|exceeds the number", re.IGNORECASE)
COUNT_WORDS = {"wires", "wire", "bits", "ports", "port", "cells", "memories", "memory",
               "processes", "public", "submodules"}


def parse_stat(path):
    """Cell counts of the top (or the design hierarchy total) from a Yosys `stat` output."""
    if not os.path.exists(path):
        return {}
    blocks = {}
    current = None
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"^=== (.+) ===\s*$", line)
        if m:
            current = m.group(1)
            blocks[current] = {}
            continue
        if current is None:
            continue
        m = re.match(r"^\s*(\d+)\s+([A-Za-z$\\_][\w$\\.:]*)\s*$", line)  # 0.5x+: "4660   LUT4"
        if not m:
            m2 = re.match(r"^\s+([A-Za-z$\\_][\w$\\.:]*)\s+(\d+)\s*$", line)  # 0.23: "LUT4  4660"
            if m2:
                m = (None, m2.group(2), m2.group(1))
        if m:
            count, cell = int(m[1]), m[2]
            if cell.lower() in COUNT_WORDS:
                continue
            blocks[current][cell] = count
    if not blocks:
        return {}
    if "design hierarchy" in blocks and blocks["design hierarchy"]:
        return blocks["design hierarchy"]
    # Flattened design: the one block with cells (black boxes print none).
    best = max(blocks.values(), key=lambda b: sum(b.values()))
    return best


def parse_pnr_log(path):
    util, fmax, errors = {}, {}, []
    max_delay = None
    if not os.path.exists(path):
        return util, fmax, max_delay, errors
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+(\d+)%", line)
        if m:
            util[m.group(1)] = [int(m.group(2)), int(m.group(3)), int(m.group(4))]
            continue
        m = re.search(r"Max frequency for clock\s+'([^']+)':\s+([\d.]+) MHz", line)
        if m:
            fmax[m.group(1)] = float(m.group(2))
            continue
        m = re.search(r"Max delay <async> -> <async>\s*:\s*([\d.]+) ns", line)
        if m:
            max_delay = float(m.group(1))
            continue
        if line.startswith("ERROR:"):
            errors.append(line[len("ERROR:"):].strip())
    return util, fmax, max_delay, errors


def netlist_sources(path):
    """Cell name -> RTL source (file:line) of the cells of a Yosys JSON netlist that have one.

    Registers keep the line of their always_ff block; LUTs made by ABC have only the techmap
    library's line and are left out. Files are given from their rtl/ or fpga/ directory on."""
    try:
        design = json.load(open(path))
    except (OSError, ValueError):
        return {}
    srcs = {}
    for mod in design.get("modules", {}).values():
        for name, cell in mod.get("cells", {}).items():
            for src in str(cell.get("attributes", {}).get("src", "")).split("|"):
                m = re.search(r"(?:^|/)((?:rtl|fpga)/[^/:]+:\d+)", src)
                if m:
                    srcs[name] = m.group(1)
                    break
    return srcs


def summarize_path(path, srcs=None):
    """One critical path from nextpnr's report: endpoints, delay split, logic levels, and with
    the netlist's sources, the RTL lines of its start and end registers and the route of the
    path over the die (tile of each cell, and each net's delay)."""
    segs = path.get("path", [])
    if not segs:
        return None
    srcs = srcs or {}
    logic = sum(s.get("delay", 0.0) for s in segs if s.get("type") != "routing")
    routing = sum(s.get("delay", 0.0) for s in segs if s.get("type") == "routing")
    levels = sum(1 for s in segs if s.get("type") == "logic")
    first, last = segs[0].get("from", {}), segs[-1].get("to", {})

    def short(cell):  # Yosys's generated names can run to hundreds of characters
        return cell if len(cell) <= 48 else cell[:22] + "..." + cell[-23:]

    hops = [{"net_ns": round(s.get("delay", 0.0), 2), "from": s.get("from", {}).get("loc"),
             "to": s.get("to", {}).get("loc")} for s in segs if s.get("type") == "routing"]
    return {
        "from_clock": path.get("from"), "to_clock": path.get("to"),
        "start": f"{short(first.get('cell', '?'))}.{first.get('port', '?')}",
        "end": f"{short(last.get('cell', '?'))}.{last.get('port', '?')}",
        "start_src": srcs.get(first.get("cell", "")), "end_src": srcs.get(last.get("cell", "")),
        "delay_ns": round(logic + routing, 2), "logic_ns": round(logic, 2),
        "routing_ns": round(routing, 2), "logic_levels": levels,
        "longest_net_ns": max((h["net_ns"] for h in hops), default=0.0), "nets": hops,
    }


def lut_sites(cells):
    """LUT sites by Yosys's count: LUT4 + 2 x CCU2C + 2 x DPR16X4 (below nextpnr's packed count,
    TRELLIS_COMB, which also counts the LUT RAM's write port)."""
    return cells.get("LUT4", 0) + 2 * cells.get("CCU2C", 0) + 2 * cells.get("TRELLIS_DPR16X4", 0)


def cmd_over(a):
    """Exit 0 when the netlist's LUT sites by Yosys's count exceed the device (fpga/flow.sh then
    only packs it), 1 otherwise; prints the count and the device's."""
    n = lut_sites(parse_stat(os.path.join(a.out, "synth.stat")))
    cap = DEVICES[a.device]["TRELLIS_COMB"]
    print(n, cap)
    return 0 if n > cap else 1


def cmd_summary(a):
    cells = parse_stat(os.path.join(a.out, "synth.stat"))
    util, fmax, max_delay, errors = parse_pnr_log(os.path.join(a.out, "pnr.log"))
    crit = None
    report_path = os.path.join(a.out, "report.json")
    if os.path.exists(report_path):
        try:
            rep = json.load(open(report_path))
            for clk, v in rep.get("fmax", {}).items():
                fmax[clk] = round(float(v.get("achieved", 0.0)), 2)
            srcs = netlist_sources(os.path.join(a.out, a.name + ".json"))
            paths = [summarize_path(p, srcs) for p in rep.get("critical_paths", [])]
            paths = [p for p in paths if p]
            if paths:
                crit = max(paths, key=lambda p: p["delay_ns"])
            for k, v in rep.get("utilization", {}).items():
                avail = v.get("available", 0)
                util[k] = [v.get("used", 0), avail, round(100.0 * v.get("used", 0) / avail)
                           if avail else 0]
        except (ValueError, OSError) as e:
            errors.append(f"report.json unreadable: {e}")
    g = cells.get
    lutram = g("TRELLIS_DPR16X4", 0)
    s = {
        "name": a.name, "top": a.top, "params": a.params.split() if a.params else [],
        "device": a.device, "freq_target_mhz": float(a.freq), "mapper": a.mapper,
        "yosys": a.yosys, "status": a.status, "cells": cells,
        "lut4": g("LUT4", 0), "ff": g("TRELLIS_FF", 0), "dsp": g("MULT18X18D", 0),
        "alu54": g("ALU54B", 0), "ebr": g("DP16KD", 0), "pfumx": g("PFUMX", 0),
        "l6mux": g("L6MUX21", 0), "ccu2c": g("CCU2C", 0), "lutram": lutram,
        "lut_slots": lut_sites(cells),
        "util": util, "fmax_mhz": fmax, "max_delay_ns": max_delay,
        "critical_path": crit, "errors": errors[:10],
        "times_s": {k: int(v) for k, v in (t.split("=") for t in a.times.split() if "=" in t)},
        "attempts": [{"seed": int(x.split(":")[0]), "result": x.split(":")[1]}
                     for x in a.attempts.split() if ":" in x],
    }
    s["seed"] = s["attempts"][-1]["seed"] if s["attempts"] else None
    # Fit: nextpnr's numbers when it got that far, else the synthesis estimate.
    cap = DEVICES[a.device]
    limit = float(a.max_util)
    over = []
    if util:
        for r in FIT_RESOURCES:
            if r in util and util[r][1] and 100.0 * util[r][0] / util[r][1] > limit:
                over.append(f"{r} {util[r][0]}/{util[r][1]} ({util[r][2]}%)")
    else:
        est = {"TRELLIS_COMB": s["lut_slots"], "MULT18X18D": s["dsp"], "DP16KD": s["ebr"],
               "TRELLIS_FF": s["ff"]}
        s["util"] = {k: [v, cap[k], round(100.0 * v / cap[k])] for k, v in est.items()}
        for r, (used, avail, _) in s["util"].items():
            if 100.0 * used / avail > limit:
                over.append(f"{r} {used}/{avail} ({100.0 * used / avail:.0f}%, estimate)")
    if a.status == "pnr-failed" and any(NOT_FIT_PATTERNS.search(e) for e in errors):
        over = over or ["placement failed: " + errors[0]]
    s["fits"] = None if a.status == "synth-failed" else not over
    s["not_fit"] = over
    if s["fits"] is False:
        s["status"] = "does-not-fit"
    if fmax and a.status in ("pnr-timeout", "router-diverged", "placed"):
        # Stopped while routing, or placed only (--stop place): the log's only Fmax is
        # nextpnr's estimate after placement,
        # which is not a result (kept apart, and never called an Fmax).
        s["fmax_placed_estimate_mhz"] = round(min(fmax.values()), 2)
        s["fmax_mhz"] = {}
        s["fmax_min_mhz"] = None
        s["timing_met"] = None
    elif fmax:
        s["fmax_min_mhz"] = round(min(fmax.values()), 2)
        s["timing_met"] = s["fmax_min_mhz"] >= float(a.freq)
    else:
        s["fmax_min_mhz"] = None
        s["timing_met"] = None
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(s, f, indent=1, sort_keys=True)
        f.write("\n")
    comb = s["util"].get("TRELLIS_COMB")
    line = (f"{a.name} [{a.device}]: LUT4 {s['lut4']}  FF {s['ff']}  DSP {s['dsp']}  "
            f"EBR {s['ebr']}  PFUMX {s['pfumx']}  L6MUX {s['l6mux']}  CCU2C {s['ccu2c']}")
    if comb:
        line += f"  LUT sites {comb[0]}/{comb[1]} ({comb[2]}%)"
    if s["fmax_min_mhz"] is not None:
        line += f"  Fmax {s['fmax_min_mhz']:.1f} MHz (target {float(a.freq):.0f})"
    elif max_delay is not None:
        line += f"  comb. delay {max_delay:.1f} ns"
    line += f"  -> {s['status']}"
    print(line)
    if over:
        print(f"{a.name}: does not fit the ECP5-{a.device.upper()[:-1]}F: " + "; ".join(over))
        return 3
    return 0


def fmt_pct(s, res):
    u = s.get("util", {}).get(res)
    return f" ({u[2]}%)" if u else ""


def table_sweep(summaries):
    rows = ["| configuration | device | LUT4 | FF | DSP | EBR | PFUMX / L6MUX | Fmax (MHz) | result |",
            "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for s in summaries:
        fm = f"{s['fmax_min_mhz']:.1f}" if s.get("fmax_min_mhz") else "-"
        if s.get("fits") is False:
            result = "**does not fit**: " + "; ".join(s.get("not_fit", []))
        elif s.get("status") == "synth-failed":
            result = "synthesis failed"
        elif s.get("status") in ("pnr-timeout", "router-diverged"):
            # Summaries written before the estimate was kept apart have it as fmax_min_mhz.
            est = s.get("fmax_placed_estimate_mhz") or s.get("fmax_min_mhz")
            fm = "-"
            if s["status"] == "router-diverged":
                seeds = ", ".join(str(t["seed"]) for t in s.get("attempts", []))
                why = f"router2 diverged on every seed tried ({seeds})"
            else:
                why = (f"place and route stopped at the time limit "
                       f"({s.get('times_s', {}).get('pnr', '?')} s) while routing")
            result = (f"fits after packing; {why}, no Fmax"
                      + (f" (nextpnr's estimate after placement: {est:.1f} MHz)" if est else ""))
        elif s.get("timing_met") is False:
            cp = s.get("critical_path") or {}
            result = (f"fits, misses {s['freq_target_mhz']:.0f} MHz; path "
                      f"{cp.get('start_src') or cp.get('start', '?')} -> "
                      f"{cp.get('end_src') or cp.get('end', '?')} ({cp.get('logic_levels', '?')}"
                      f" logic levels, {cp.get('logic_ns', '?')} ns logic + "
                      f"{cp.get('routing_ns', '?')} ns routing)")
        else:
            result = "fits" + (", meets target" if s.get("timing_met") else "")
        rows.append(
            f"| {s['name']} | ECP5-{s['device'].upper()[:-1]}F | {s['lut4']}{fmt_pct(s, 'TRELLIS_COMB')} "
            f"| {s['ff']} | {s['dsp']}{fmt_pct(s, 'MULT18X18D')} | {s['ebr']} "
            f"| {s['pfumx']} / {s['l6mux']} | {fm} | {result} |")
    return rows


def table_area(summaries):
    rows = ["| block | parameters | LUT4 | CCU2C | FF | DSP | EBR | PFUMX / L6MUX | synth (s) |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for s in summaries:
        params = " ".join(s.get("params", [])) or "-"
        label = s.get("label") or s["top"]
        rows.append(f"| {label} | {params} | {s['lut4']} | {s['ccu2c']} | {s['ff']} | {s['dsp']} "
                    f"| {s['ebr']} | {s['pfumx']} / {s['l6mux']} | {s['times_s'].get('synth', '-')} |")
    return rows


def cmd_table(a):
    summaries = []
    for p in a.summaries:
        label = None
        if "=" in p and not os.path.exists(p):
            label, p = p.split("=", 1)
        if not os.path.exists(p):
            print(f"flow_report: no summary {p}", file=sys.stderr)
            return 1
        s = json.load(open(p))
        if label:
            s["label"] = label
        summaries.append(s)
    rows = table_sweep(summaries) if a.kind == "sweep" else table_area(summaries)
    first = summaries[0] if summaries else {}
    stamp = datetime.date.today().isoformat()
    body = ([a.heading, ""] if a.heading else []) + [
        f"Written by `{a.command}` on {stamp} (Yosys {first.get('yosys', '?')}, "
        f"mapper `{first.get('mapper', '?')}`).", ""] + rows
    begin = f"<!-- {a.section}: begin"
    begin_line = f"{begin} (written by fpga/flow_report.py; edits up to the end marker are lost) -->"
    end = f"<!-- {a.section}: end -->"
    text = open(a.doc).read() if os.path.exists(a.doc) else ""
    if begin in text and end in text:
        pre, rest = text.split(begin, 1)
        _, post = rest.split(end, 1)
        text = pre + begin_line + "\n" + "\n".join(body) + "\n" + end + post
    else:
        text += f"\n{begin_line}\n" + "\n".join(body) + f"\n{end}\n"
    with open(a.doc, "w") as f:
        f.write(text)
    print("\n".join(rows))
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("summary")
    s.add_argument("--out", required=True)
    s.add_argument("--name", required=True)
    s.add_argument("--top", required=True)
    s.add_argument("--params", default="")
    s.add_argument("--device", default="85k", choices=sorted(DEVICES))
    s.add_argument("--freq", default="75")
    s.add_argument("--mapper", default="yowasp")
    s.add_argument("--yosys", default="")
    s.add_argument("--max-util", default="100")
    s.add_argument("--times", default="")
    s.add_argument("--status", required=True)
    s.add_argument("--attempts", default="",
                   help="place-and-route attempts, SEED:RESULT separated by spaces")
    o = sub.add_parser("over")
    o.add_argument("--out", required=True)
    o.add_argument("--device", default="85k", choices=sorted(DEVICES))
    t = sub.add_parser("table")
    t.add_argument("--doc", required=True)
    t.add_argument("--section", required=True)
    t.add_argument("--kind", choices=["sweep", "area"], required=True)
    t.add_argument("--command", required=True)
    t.add_argument("--heading", default="", help="a Markdown heading put first in the section")
    t.add_argument("summaries", nargs="+", help="summary.json files, or LABEL=summary.json")
    a = p.parse_args()
    return {"summary": cmd_summary, "over": cmd_over, "table": cmd_table}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
