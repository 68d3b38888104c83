// SPDX-License-Identifier: Apache-2.0
// Black-box declarations of the ECP5 primitives that the board top (EHXPLLL) and the ECP5 build
// of sgu_mul32 (MULT18X18D, under SGU_ECP5) instantiate, for synthesis.
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
module MULT18X18D #(
  parameter REG_INPUTA_CLK   = "NONE",
  parameter REG_INPUTA_CE    = "CE0",
  parameter REG_INPUTA_RST   = "RST0",
  parameter REG_INPUTB_CLK   = "NONE",
  parameter REG_INPUTB_CE    = "CE0",
  parameter REG_INPUTB_RST   = "RST0",
  parameter REG_INPUTC_CLK   = "NONE",
  parameter REG_INPUTC_CE    = "CE0",
  parameter REG_INPUTC_RST   = "RST0",
  parameter REG_PIPELINE_CLK = "NONE",
  parameter REG_PIPELINE_CE  = "CE0",
  parameter REG_PIPELINE_RST = "RST0",
  parameter REG_OUTPUT_CLK   = "NONE",
  parameter REG_OUTPUT_CE    = "CE0",
  parameter REG_OUTPUT_RST   = "RST0",
  parameter CLK0_DIV         = "ENABLED",
  parameter CLK1_DIV         = "ENABLED",
  parameter CLK2_DIV         = "ENABLED",
  parameter CLK3_DIV         = "ENABLED",
  parameter HIGHSPEED_CLK    = "NONE",
  parameter GSR              = "ENABLED",
  parameter CAS_MATCH_REG    = "FALSE",
  parameter SOURCEB_MODE     = "B_SHIFT",
  parameter MULT_BYPASS      = "DISABLED",
  parameter RESETMODE        = "SYNC"
) (
  input  A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15, A16, A17,
  input  B0, B1, B2, B3, B4, B5, B6, B7, B8, B9, B10, B11, B12, B13, B14, B15, B16, B17,
  input  C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16, C17,
  input  SIGNEDA, SIGNEDB, SOURCEA, SOURCEB,
  input  CLK0, CLK1, CLK2, CLK3, CE0, CE1, CE2, CE3, RST0, RST1, RST2, RST3,
  input  SRIA0, SRIA1, SRIA2, SRIA3, SRIA4, SRIA5, SRIA6, SRIA7, SRIA8, SRIA9, SRIA10, SRIA11,
         SRIA12, SRIA13, SRIA14, SRIA15, SRIA16, SRIA17,
  input  SRIB0, SRIB1, SRIB2, SRIB3, SRIB4, SRIB5, SRIB6, SRIB7, SRIB8, SRIB9, SRIB10, SRIB11,
         SRIB12, SRIB13, SRIB14, SRIB15, SRIB16, SRIB17,
  output SROA0, SROA1, SROA2, SROA3, SROA4, SROA5, SROA6, SROA7, SROA8, SROA9, SROA10, SROA11,
         SROA12, SROA13, SROA14, SROA15, SROA16, SROA17,
  output SROB0, SROB1, SROB2, SROB3, SROB4, SROB5, SROB6, SROB7, SROB8, SROB9, SROB10, SROB11,
         SROB12, SROB13, SROB14, SROB15, SROB16, SROB17,
  output ROA0, ROA1, ROA2, ROA3, ROA4, ROA5, ROA6, ROA7, ROA8, ROA9, ROA10, ROA11, ROA12, ROA13,
         ROA14, ROA15, ROA16, ROA17,
  output ROB0, ROB1, ROB2, ROB3, ROB4, ROB5, ROB6, ROB7, ROB8, ROB9, ROB10, ROB11, ROB12, ROB13,
         ROB14, ROB15, ROB16, ROB17,
  output ROC0, ROC1, ROC2, ROC3, ROC4, ROC5, ROC6, ROC7, ROC8, ROC9, ROC10, ROC11, ROC12, ROC13,
         ROC14, ROC15, ROC16, ROC17,
  output P0, P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12, P13, P14, P15, P16, P17, P18,
         P19, P20, P21, P22, P23, P24, P25, P26, P27, P28, P29, P30, P31, P32, P33, P34, P35,
  output SIGNEDP
);
endmodule
`endif
