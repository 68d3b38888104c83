// SPDX-License-Identifier: Apache-2.0
// Board file list, read after rtl/sgu_files.f (the unit): the host link, the on-chip memory, the
// ECP5 primitives for synthesis and the ULX3S top. Paths are relative to this folder. Read by
// fpga/flow.sh, tb/fpga/CMakeLists.txt, fpga/gen_core.py (fpga/sgu.core).
../rtl/sgu_uart_axil.sv
../rtl/sgu_skid.sv
../rtl/sgu_axil_slice.sv
../rtl/sgu_axil_split.sv
../rtl/sgu_axi_bram.sv
ecp5_prims.sv
ulx3s_top.sv
