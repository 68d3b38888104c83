// SPDX-License-Identifier: Apache-2.0
// Black-box declarations of the ECP5 primitives that the board top (EHXPLLL), the ECP5 build
// of sgu_mul32 (MULT18X18D, under SGU_ECP5) and of sgu_late_pick (LUT4) instantiate, for
// synthesis.
//
// The slang frontend (read_slang) does not see the parameters of Yosys's ECP5 cell library, so a
// parameterized instance needs these declarations (same ports and parameters as Yosys's ECP5
// cells_bb.v, defaults included); synth_ecp5 and nextpnr then treat the cell as the primitive.
// fpga/flow.sh reads this file for every design. Empty outside synthesis: simulation bypasses the
// PLL (fpga/ulx3s_top.sv) and tests the ECP5 multiplier with a behavioural MULT18X18D
// (tb/fpga/mult18x18d_model.sv).

`ifdef SYNTHESIS
(* blackbox *)
module EHXPLLL #(
  parameter CLKI_DIV         = 1,
  parameter CLKFB_DIV        = 1,
  parameter CLKOP_DIV        = 8,
  parameter CLKOS_DIV        = 8,
  parameter CLKOS2_DIV       = 8,
  parameter CLKOS3_DIV       = 8,
  parameter CLKOP_ENABLE     = "ENABLED",
  parameter CLKOS_ENABLE     = "DISABLED",
  parameter CLKOS2_ENABLE    = "DISABLED",
  parameter CLKOS3_ENABLE    = "DISABLED",
  parameter CLKOP_CPHASE     = 0,
  parameter CLKOS_CPHASE     = 0,
  parameter CLKOS2_CPHASE    = 0,
  parameter CLKOS3_CPHASE    = 0,
  parameter CLKOP_FPHASE     = 0,
  parameter CLKOS_FPHASE     = 0,
  parameter CLKOS2_FPHASE    = 0,
  parameter CLKOS3_FPHASE    = 0,
  parameter FEEDBK_PATH      = "CLKOP",
  parameter CLKOP_TRIM_POL   = "RISING",
  parameter CLKOP_TRIM_DELAY = 0,
  parameter CLKOS_TRIM_POL   = "RISING",
  parameter CLKOS_TRIM_DELAY = 0,
  parameter OUTDIVIDER_MUXA  = "DIVA",
  parameter OUTDIVIDER_MUXB  = "DIVB",
  parameter OUTDIVIDER_MUXC  = "DIVC",
  parameter OUTDIVIDER_MUXD  = "DIVD",
  parameter PLL_LOCK_MODE    = 0,
  parameter PLL_LOCK_DELAY   = 200,
  parameter STDBY_ENABLE     = "DISABLED",
  parameter REFIN_RESET      = "DISABLED",
  parameter SYNC_ENABLE      = "DISABLED",
  parameter INT_LOCK_STICKY  = "ENABLED",
  parameter DPHASE_SOURCE    = "DISABLED",
  parameter PLLRST_ENA       = "DISABLED",
  parameter INTFB_WAKE       = "DISABLED"
) (
  input  CLKI, CLKFB, PHASESEL1, PHASESEL0, PHASEDIR, PHASESTEP, PHASELOADREG, STDBY,
  input  PLLWAKESYNC, RST, ENCLKOP, ENCLKOS, ENCLKOS2, ENCLKOS3,
  output CLKOP, CLKOS, CLKOS2, CLKOS3, LOCK, INTLOCK, REFCLK, CLKINTFB
);
endmodule

(* blackbox *)
module TRELLIS_DPR16X4 #(
  parameter        WCKMUX  = "WCK",
  parameter        WREMUX  = "WRE",
  parameter [63:0] INITVAL = 64'h0000000000000000
) (
  input  [3:0] DI,
  input  [3:0] WAD,
  input        WRE,
  input        WCK,
  input  [3:0] RAD,
  output [3:0] DO
);
endmodule

(* blackbox *)
module LUT4 #(
  parameter [15:0] INIT = 16'h0000
) (
  input  A,
  input  B,
  input  C,
  input  D,
  output Z
);
endmodule

(* blackbox *)
module MULT18X18D
`include "ecp5_mult18x18d.svh"
endmodule
`endif
