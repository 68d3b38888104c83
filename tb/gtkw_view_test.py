#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The generated GTKWave view, checked in the real GTKWave (under Xvfb).

  gtkw_view_test.py SGU_COSIM SGU_GTKW_FILTER PROGRAM.s

Runs PROGRAM.s with sgu-cosim --trace, opens the .gtkw in GTKWave with gtkw_view_test.tcl and
checks what GTKWave shows: the whole run in the initial window, time in ns, every trace of the
file present and (with every group opened) holding a value, the instruction trace translated
by the filter process exactly as sgu-gtkw-filter translates rvfi_insn_o, and each lane's exec
bit equal to its bit of exec_q. Exits 77 (ctest: skipped) when gtkwave or xvfb-run is missing.
"""
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
SIMD = 8
LANES = 5      # lanes 5..7 off (exec_q 0x1f), so the lane-to-bit mapping shows
MARKER = 1500  # ns, inside the kernel


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    cosim, filt, program = sys.argv[1:]
    for tool in ("gtkwave", "xvfb-run"):
        if not shutil.which(tool):
            print(f"skipped: {tool} is not installed")
            return SKIP
    tmp = tempfile.mkdtemp(prefix="sgu_gtkw_view_")
    fst = os.path.join(tmp, "view.fst")
    gtkw = os.path.join(tmp, "view.gtkw")
    subprocess.run([cosim, program, "--simd", str(SIMD), "--lanes", str(LANES), "--trace", fst],
                   check=True, stdout=subprocess.DEVNULL)
    tcl = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gtkw_view_test.tcl")
    env = dict(os.environ, SGU_MARKER=str(MARKER))
    try:
        run = subprocess.run(["xvfb-run", "-a", "gtkwave", "-S", tcl, gtkw], env=env,
                             capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        fail("GTKWave did not finish within 120 s")
    out = run.stdout.splitlines()
    if "DONE" not in out:
        fail("GTKWave did not run the script:\n" + run.stdout + run.stderr)

    def field(key):
        return next(line.split()[1:] for line in out if line.startswith(key + " "))

    # Whole run in view, time in ns.
    start, end = (int(v) for v in field("WINDOW"))
    max_time = int(field("MAXTIME")[0])
    if field("UNIT")[0] != "n":
        fail("time unit is not ns: " + field("UNIT")[0])
    if start != 0 or end < max_time or end > 1.2 * max_time:
        fail(f"initial window {start}..{end} ns does not show the run 0..{max_time} ns snugly")

    # Every row of the save file is a trace in GTKWave, every signal row has a value.
    rows = [line for line in open(gtkw) if line[0] not in "@[*^\n"]
    traces = [line[len("TRACE "):].split("|", 2) for line in out if line.startswith("TRACE ")]
    if len(traces) != len(rows) or int(field("TRACES")[0]) != len(rows):
        fail(f"{len(rows)} rows in the save file, GTKWave shows {len(traces)}")
    values = {}
    for flags, name, value in traces:
        is_group_row = int(flags) & (1 << 9)
        if not is_group_row and value == "":
            fail(f"trace {name} has no value (signal missing from the FST?)")
        values.setdefault(name, []).append(value)

    # The instruction trace: the filter's text for the word rvfi_insn_o holds, not hex.
    insn_hex = values["rvfi_insn_o[63:0]"][0]
    want = subprocess.run([filt], input=insn_hex + "\n", capture_output=True, text=True,
                          check=True).stdout.strip()
    got = values["instruction"][0]
    if got != want or got == insn_hex:
        fail(f"instruction trace shows '{got}', the filter makes '{want}' of {insn_hex}")

    # Lane l's exec row is bit l of exec_q.
    exec_q = int(values["exec_q[7:0]"][0], 16)
    lane_exec = values["exec"]
    if [int(v) for v in lane_exec] != [(exec_q >> lane) & 1 for lane in range(SIMD)]:
        fail(f"lane exec rows {lane_exec} do not match exec_q {exec_q:02x}")
    if exec_q in (0, (1 << SIMD) - 1):
        fail(f"exec_q {exec_q:02x} at {MARKER} ns: all lanes alike, the mapping is not checked")

    print(f"ok: window 0..{end} ns for a {max_time} ns run, {len(rows)} traces, "
          f"instruction '{got}' at {MARKER} ns, lane exec {''.join(lane_exec)}")
    shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
