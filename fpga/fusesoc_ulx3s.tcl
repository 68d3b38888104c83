# SPDX-License-Identifier: Apache-2.0
# Yosys script of the FuseSoC `ulx3s` target (fpga/sgu.core): reads the sources that FuseSoC
# lists with the slang SystemVerilog frontend instead of read_verilog, then maps to ECP5 like
# fpga/flow.sh (SGU_ECP5: the ECP5 builds of sgu_mul32 and sgu_late_pick). Needs a Yosys with read_slang (>= 0.67 built with slang) as `yosys` on PATH.
yosys -import
source edalize_yosys_procs.tcl

# FuseSoC's read_files holds one `read_verilog -sv {file}` line per source, set_incdirs the -I
# folders, set_params one `chparam -set NAME VALUE top` line per parameter.
set files {}
foreach line [split [info body read_files] "\n"] {
  if {[regexp {\{(.+)\}} $line -> f]} { lappend files $f }
}
set incs {}
foreach word [info body set_incdirs] {
  if {[string match -I* $word]} { lappend incs $word }
}
set params {}
foreach line [split [info body set_params] "\n"] {
  if {[regexp {chparam -set (\S+) (\S+)} $line -> k v]} { lappend params -G "$k=$v" }
}

read_verilog -lib -specify +/ecp5/cells_sim.v +/ecp5/cells_bb.v
read_slang -DSYNTHESIS -DSGU_ECP5 {*}$incs {*}$files --top $top {*}$params
synth_ecp5 -top $top
write_json $name.json
