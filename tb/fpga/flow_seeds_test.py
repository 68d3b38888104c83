#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""fpga/flow.sh --seeds against a stand-in nextpnr (NEXTPNR=this file): a small block is mapped
for real, then "placed and routed" by a fake router2 that diverges on seed 3 and converges on
every other seed. Checks that the flow moves on to the next seed, keeps the diverged attempt's
log, records every attempt in summary.json, and reports router-diverged (exit 5) when no seed
routes; and that a netlist over the device's LUT sites by Yosys's count is only packed (exit 3,
does-not-fit).

  flow_seeds_test.py SGU_ROOT    the test (run by ctest)
  the stand-in nextpnr: this file again, called by flow.sh with nextpnr's arguments and
  SGU_FAKE_NEXTPNR=1 in its environment
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time


def fake(args):
    log = args[args.index("-l") + 1]
    calls = os.environ.get("SGU_FAKE_CALLS")
    if calls:
        with open(calls, "a") as f:
            f.write(" ".join(args) + "\n")
    if "--pack-only" in args:  # the packing utilisation of a design over the 85F's LUT sites
        with open(log, "w") as f:
            f.write("Info: Device utilisation:\n")
            f.write("Info: \t          TRELLIS_FF:     900/  83640     1%\n")
            f.write("Info: \t        TRELLIS_COMB:   91000/  83640   108%\n")
        return 0
    seed = int(args[args.index("--seed") + 1])
    with open(log, "w") as f:
        f.write("Info: Logic utilisation before packing:\n")
        if seed == 3:  # falls to 1000 wires, then climbs: pnr_watch.py stops it
            counts = [5000, 2000, 1000] + [1000 + 100 * k for k in range(1, 400)]
        else:
            counts = [5000, 800, 90, 7, 0]
        for i, v in enumerate(counts):
            f.write(f"Info:     iter={i + 1} wires=9999 overused={v} overuse={v} archfail=NA\n")
            f.flush()
            time.sleep(0.05)
        f.write("Info: Max frequency for clock 'clk_i': 99.00 MHz (PASS at 75.00 MHz)\n")
    return 0


def main():
    if os.environ.get("SGU_FAKE_NEXTPNR") == "1":
        return fake(sys.argv[1:])
    root = os.path.abspath(sys.argv[1])
    out = os.path.join(root, "build", "fpga", "ci_flow_seeds")
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, NEXTPNR=os.path.abspath(__file__), SGU_FAKE_NEXTPNR="1")
    flow = [os.path.join(root, "fpga", "flow.sh"), "--device", "85k", "--router", "router2",
            "--name", "ci_flow_seeds", "--out", out]

    def run(*extra):
        p = subprocess.run(flow + list(extra), env=env, capture_output=True, text=True)
        print(p.stdout + p.stderr)
        return p.returncode, json.load(open(os.path.join(out, "summary.json")))

    rc, s = run("--seeds", "3,5", "sgu_lowest", "Width=8")
    assert rc == 0, rc
    assert s["attempts"] == [{"seed": 3, "result": "diverged"}, {"seed": 5, "result": "routed"}], s
    assert s["status"] == "routed" and s["seed"] == 5 and s["fmax_min_mhz"] == 99.0, s
    assert os.path.exists(os.path.join(out, "pnr.seed3.log"))

    # The same netlist again (no synthesis), seed 3 only.
    rc, s = run("--seeds", "3", "--netlist", os.path.join(out, "ci_flow_seeds.json"),
                "sgu_lowest", "Width=8")
    assert rc == 5, rc
    assert s["status"] == "router-diverged" and s["fmax_min_mhz"] is None, s
    assert s["attempts"] == [{"seed": 3, "result": "diverged"}], s

    # A netlist whose LUT sites by Yosys's count exceed the device (the same netlist, its
    # synth.stat claiming 90,000 LUT4): nextpnr only packs, no placement or seed is tried, and
    # the summary says the design does not fit by nextpnr's packed count.
    big = os.path.join(root, "build", "fpga", "ci_flow_seeds_big")
    shutil.rmtree(big, ignore_errors=True)
    os.makedirs(big)
    shutil.copy(os.path.join(out, "ci_flow_seeds.json"), big)
    stat = open(os.path.join(out, "synth.stat")).read()
    with open(os.path.join(big, "synth.stat"), "w") as f:
        f.write(re.sub(r"^(\s*)\d+(\s+LUT4)$", r"\g<1>90000\2", stat, flags=re.M))
    calls = os.path.join(big, "calls.txt")
    env["SGU_FAKE_CALLS"] = calls
    rc, s = run("--seeds", "1,2", "--netlist", os.path.join(big, "ci_flow_seeds.json"),
                "sgu_lowest", "Width=8")
    assert rc == 3, rc
    assert s["status"] == "does-not-fit" and s["fits"] is False, s
    assert s["not_fit"] == ["TRELLIS_COMB 91000/83640 (108%)"], s
    assert s["attempts"] == [], s
    lines = open(calls).read().splitlines()
    assert len(lines) == 1 and "--pack-only" in lines[0].split(), lines
    print("flow_seeds_test: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
