#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Area budget of the SGU by block: maps each block on its own through fpga/flow.sh (synth_ecp5,
# ECP5 cells) and writes the table into docs/fpga.md ("Area per block"). One block at a time.
#
#   fpga/area.sh [--root DIR] [--quick] [--doc FILE]
#
#   --root DIR   read the RTL under DIR (e.g. a `git archive HEAD rtl` snapshot); default: rtl/
#   --quick      SIMD8 blocks only (skips the 16- and 32-lane crossbar and register file)
#   --doc FILE   write the table into FILE instead of docs/fpga.md
#
# `sgu_core (control)` is the core with its sub-blocks (lanes, MFUs, crossbar, register file, decoder,
# vote unit, mask stack) as black boxes: issue, operand and write-back multiplexers, retire port,
# counters and watchdog. Blocks are mapped out of context, so the ports of a block are kept
# (inside the core, logic that drives nothing is removed): the sum of the rows is an upper bound.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"

src=.
quick=0
doc=docs/fpga.md
while [ $# -gt 0 ]; do
  case "$1" in
    --root) src=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --doc) doc=$2; shift 2 ;;
    *) echo "usage: fpga/area.sh [--root DIR] [--quick] [--doc FILE]" >&2; exit 2 ;;
  esac
done

# label|top|name|extra flow options and parameters
runs=(
  "sgu_lane (integer ALU), one lane|sgu_lane|area_lane|"
  "sgu_mfu (multiply / FP unit), one per LanesPerMfu lanes|sgu_mfu|area_mfu|"
  "sgu_xbar|sgu_xbar|area_xbar_8|NumLanes=8"
  "sgu_regfile|sgu_regfile|area_regfile_8|NumLanes=8"
  "sgu_core (control), sub-blocks black boxes|sgu_core|area_core_ctrl_8|--blackbox sgu_lane --blackbox sgu_mfu --blackbox sgu_xbar --blackbox sgu_regfile --blackbox sgu_decode --blackbox sgu_vote --blackbox sgu_mask_stack NumLanes=8"
  "sgu_decode|sgu_decode|area_decode_8|NumLanes=8"
  "sgu_vote|sgu_vote|area_vote_8|NumLanes=8"
  "sgu_mask_stack|sgu_mask_stack|area_mask_stack_8|NumLanes=8"
  "sgu_lsu|sgu_lsu|area_lsu_8|NumLanes=8 AxiDataWidth=64"
  "sgu_icache|sgu_icache|area_icache|AxiDataWidth=64"
  "sgu_axi_rd_mux|sgu_axi_rd_mux|area_axi_rd_mux|"
  "sgu_csr|sgu_csr|area_csr|NumLanes=8 AxiDataWidth=64"
)
if [ $quick -eq 0 ]; then
  runs+=(
    "sgu_xbar|sgu_xbar|area_xbar_16|NumLanes=16"
    "sgu_xbar|sgu_xbar|area_xbar_32|NumLanes=32"
    "sgu_regfile|sgu_regfile|area_regfile_16|NumLanes=16"
    "sgu_regfile|sgu_regfile|area_regfile_32|NumLanes=32"
    "sgu_core (control), sub-blocks black boxes|sgu_core|area_core_ctrl_16|--blackbox sgu_lane --blackbox sgu_mfu --blackbox sgu_xbar --blackbox sgu_regfile --blackbox sgu_decode --blackbox sgu_vote --blackbox sgu_mask_stack NumLanes=16"
    "sgu_core (control), sub-blocks black boxes|sgu_core|area_core_ctrl_32|--blackbox sgu_lane --blackbox sgu_mfu --blackbox sgu_xbar --blackbox sgu_regfile --blackbox sgu_decode --blackbox sgu_vote --blackbox sgu_mask_stack NumLanes=32"
  )
fi

summaries=()
failed=0
for r in "${runs[@]}"; do
  IFS='|' read -r label top name args <<< "$r"
  # shellcheck disable=SC2086
  rc=0
  "$here/flow.sh" --root "$src" --stop synth --name "$name" $args "$top" || rc=$?
  # 3: larger than the 85F (the table shows it anyway); anything else is a failure.
  if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then failed=1; fi
  [ -f "build/fpga/$name/summary.json" ] && summaries+=("$label=build/fpga/$name/summary.json")
done

cmd="fpga/area.sh"
[ "$src" = . ] || cmd+=" --root $src"
[ $quick -eq 0 ] || cmd+=" --quick"
python3 "$here/flow_report.py" table --doc "$doc" --section area --kind area \
  --command "$cmd" "${summaries[@]}"
exit $failed
