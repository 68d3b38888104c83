#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The FPGA sweep of `make fpga`: the ULX3S board top (fpga/ulx3s_top.sv) with the SGU at SIMD 8,
# 16 and 32 on the ECP5-85F and at SIMD8 on the 45F and 25F, judged against 75 MHz, plus the
# board without the SGU (bring-up image) on the 85F and 25F; each through fpga/flow.sh
# (read_slang, synth_ecp5, nextpnr-ecp5 with the ULX3S pins, ecppack). Writes the table into
# docs/fpga.md ("Sweep") and docs/performance.md ("FPGA"). One run at a time.
#
#   fpga/sweep.sh [--root DIR] [--force] [--resume] [--only NAME[,NAME...]]
#
#   --root DIR  read the RTL under DIR (a snapshot inside the repository); default: the tree
#   --force     map every configuration. Without it, a configuration with more lanes than one
#               that did not fit the same device is reported from that run instead of being
#               mapped: mapping the SIMD8 core alone takes tens of minutes. The smaller devices
#               place the 85F run's netlist again (mapping does not depend on the device).
#   --resume    keep the results of configurations that already have a summary (a sweep that
#               was interrupted, or the table rewritten); delete build/fpga/board_* to start over
#   --only N,.. run only the named configurations (board_simd16_85k, ...) and write no table: two
#               subsets run side by side on a two-core machine, then `--resume` writes the tables
#               from their summaries
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"

src=.
force=${FPGA_FORCE:-0}
resume=0
only=
while [ $# -gt 0 ]; do
  case "$1" in
    --root) src=$2; shift 2 ;;
    --force) force=1; shift ;;
    --resume) resume=1; shift ;;
    --only) only=",$2,"; shift 2 ;;
    *) echo "usage: fpga/sweep.sh [--root DIR] [--force] [--resume] [--only NAME[,NAME...]]" >&2
       exit 2 ;;
  esac
done

# 75 MHz from the 25 MHz oscillator (yowasp-ecppll -i 25 -o 75).
pll75=(SysClkHz=75000000 PllClkiDiv=1 PllClkfbDiv=3 PllClkopDiv=8 PllClkopCphase=4)
pll20=(SysClkHz=20000000 PllClkiDiv=5 PllClkfbDiv=4 PllClkopDiv=30 PllClkopCphase=14)
# Every configuration is judged against 75 MHz (--freq 75: the summary's target). The board
# without the SGU is built with its PLL at 75 MHz. The SGU's configurations are placed and
# routed with the board's own 20 MHz clock (make fpga-board's defaults) unless FPGA_SGU_PLL=75:
# nextpnr's timing-driven router, pulled towards a constraint the placement cannot reach,
# diverges more often (docs/timing.md "Routed timing, step by step"), and the Fmax it reports is
# the routed design's either way. Routing the whole SGU takes tens of minutes: each attempt
# stops after FPGA_PNR_TIMEOUT seconds (default 14400: the SIMD16 board of 612a843 took about
# 8,400 s, 7,769 of them routing, on a core of its own) and reports its packing; the seeds of
# FPGA_SEEDS (default 1,2,3) are tried in turn, the next one when router2 diverges
# (fpga/pnr_watch.py). The electrostatic placer (FPGA_PLACER, default static) leaves the router
# less to do on this design than nextpnr's default HeAP. The router is FPGA_ROUTER (default
# router1, which routes the SIMD8 board where router2 diverged, and to a higher Fmax; router2
# was the one that converged when the register file was in block RAM). The board top's defaults
# are the configuration that routes (fpga/ulx3s_top.sv: the register file in distributed RAM,
# LanesPerMfu 4 at SIMD8 and 8 above). The drivers of nets with FPGA_REPLICATE (default 128) or
# more pins are copied by a first placement (fpga/replicate.py; 0 turns it off).
# FPGA_PNR_ARGS: more nextpnr options, separated by spaces (e.g. --detailed-timing-report, whose
# per-net delays fpga/logic_depth.py --routed reads).
pnr_args=()
for a in ${FPGA_PNR_ARGS:-}; do pnr_args+=("--pnr-arg=$a"); done
if [ "${FPGA_SGU_PLL:-20}" = 75 ]; then pll_sgu=("${pll75[@]}"); else pll_sgu=("${pll20[@]}"); fi
flow=("$here/flow.sh" --root "$src" --list rtl/sgu_files.f --list fpga/board_files.f
      --lpf fpga/ulx3s.lpf --freq 75 --pnr-timeout "${FPGA_PNR_TIMEOUT:-14400}"
      --placer "${FPGA_PLACER:-static}" --router "${FPGA_ROUTER:-router1}"
      --seeds "${FPGA_SEEDS:-1,2,3}" --replicate "${FPGA_REPLICATE:-128}" "${pnr_args[@]}")

# name|device|lanes (0: without the SGU)|smaller configuration whose failure decides this one|
# configuration whose mapped netlist is placed again (mapping does not depend on the device)
configs=(
  "board_nosgu_85k|85k|0||"
  "board_nosgu_25k|25k|0||board_nosgu_85k"
  "board_simd8_85k|85k|8||"
  "board_simd16_85k|85k|16|board_simd8_85k|"
  "board_simd32_85k|85k|32|board_simd16_85k|"
  "board_simd8_45k|45k|8||board_simd8_85k"
  "board_simd8_25k|25k|8||board_simd8_85k"
)

if [ -n "$only" ]; then
  for n in ${only//,/ }; do
    case "|${configs[*]}" in
      *"|$n|"*|*" $n|"*) ;;
      *) echo "sweep: --only: no configuration named $n" >&2; exit 2 ;;
    esac
  done
fi

summaries=()
for c in "${configs[@]}"; do
  IFS='|' read -r name device lanes after reuse <<< "$c"
  if [ -n "$only" ] && [[ $only != *",$name,"* ]]; then
    continue
  fi
  out=build/fpga/$name
  if [ $resume -eq 1 ] && [ -f "$out/summary.json" ] &&
     ! grep -q '"status": "not-run"' "$out/summary.json"; then
    echo "sweep: $name: kept from the earlier run"
  elif [ "$force" != 1 ] && [ -n "$after" ] && [ -f "build/fpga/$after/summary.json" ] &&
     python3 -c "import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))['fits'] is False else 1)" \
       "build/fpga/$after/summary.json"; then
    echo "sweep: $name: not mapped: $after does not fit the same device, so this larger one cannot"
    mkdir -p "$out"
    python3 - "$after" "$name" "$device" "$lanes" > "$out/summary.json" <<'EOF'
import json, sys
after, name, device, lanes = sys.argv[1:5]
s = json.load(open(f"build/fpga/{after}/summary.json"))
caps = {"25k": 24288, "45k": 43848, "85k": 83640}
t = {"name": name, "top": "ulx3s_top", "device": device, "params": [f"NumLanes={lanes}"],
     "status": "not-run", "fits": False, "mapper": s.get("mapper"), "yosys": s.get("yosys"),
     "freq_target_mhz": s.get("freq_target_mhz"), "fmax_min_mhz": None, "timing_met": None,
     "times_s": {}, "util": {}, "critical_path": None}
for k in ("lut4", "ff", "dsp", "ebr", "pfumx", "l6mux", "ccu2c", "lut_slots"):
    t[k] = "-"
# The measured run this one is judged by (through a chain of not-run configurations).
ref, comb = s.get("ref_name", after), s.get("ref_comb")
if comb is None:
    comb = s["util"].get("TRELLIS_COMB", [s["lut_slots"]])[0]
t["ref_name"], t["ref_comb"] = ref, comb
t["not_fit"] = [f"not mapped: {ref} already needs {comb} LUT sites, "
                f"{100 * comb / caps[device]:.0f}% of the ECP5-{device[:-1]}F's {caps[device]}"]
json.dump(t, sys.stdout, indent=1)
EOF
  else
    if [ "$lanes" = 0 ]; then
      params=("${pll75[@]}" WithSgu=0)
    else
      params=("${pll_sgu[@]}" NumLanes="$lanes")
    fi
    from=()
    if [ -n "$reuse" ] && [ -f "build/fpga/$reuse/$reuse.json" ] && [ -f "build/fpga/$reuse/synth.stat" ]; then
      from=(--netlist "build/fpga/$reuse/$reuse.json")
    fi
    "${flow[@]}" --device "$device" --name "$name" "${from[@]}" ulx3s_top "${params[@]}"
    echo "sweep: $name: exit $?"
  fi
  [ -f "$out/summary.json" ] && summaries+=("$name=$out/summary.json")
done

[ -n "$only" ] && exit 0

cmd="make fpga"
[ "$src" = . ] || cmd="fpga/sweep.sh --root $src"
python3 "$here/flow_report.py" table --doc docs/fpga.md --section sweep --kind sweep \
  --command "$cmd" "${summaries[@]}"
python3 "$here/flow_report.py" table --doc docs/performance.md --section fpga --kind sweep \
  --heading "## FPGA: ECP5 area and Fmax (docs/fpga.md)" \
  --command "$cmd" "${summaries[@]}" > /dev/null
