// SPDX-License-Identifier: Apache-2.0
// SGU RTL file list, in compile order. Every tool reads this list (Verilator, Yosys, FuseSoC).
sgu_isa_pkg.sv
sgu_pkg.sv
sgu_fpu_pkg.sv
sgu_lowest.sv
sgu_late_pick.sv
sgu_fpu_lzc.sv
sgu_fpu_exp.sv
sgu_fpu_align.sv
sgu_fpu_add.sv
sgu_fpu_norm.sv
sgu_mul32.sv
sgu_mfu.sv
sgu_mfu_sel.sv
sgu_decode.sv
sgu_regfile.sv
sgu_lane.sv
sgu_xbar_mux.sv
sgu_xbar.sv
sgu_vote.sv
sgu_mask_stack.sv
sgu_lsu.sv
sgu_icache.sv
sgu_axi_rd_mux.sv
sgu_csr.sv
sgu_core.sv
sgu_top.sv
