// SPDX-License-Identifier: Apache-2.0
// Behavioural model of the ECP5 MULT18X18D, for simulation only: the subset sgu_mul32's ECP5
// build uses (tb/fpga/mul32_test.cc), written from Lattice's sysDSP usage guide (TN1267): an
// 18 x 18 multiplier, P = A * B (each operand signed when its SIGNEDA / SIGNEDB input is high),
// with the A and B inputs registered on CLK0 with clock enable CE0 when REG_INPUTA_CLK /
// REG_INPUTB_CLK is "CLK0", combinational when "NONE" (the reset RST0 is not modelled). Any other
// register, clock, cascade or bypass setting stops the simulation: the model does not have it.
// The C, SRI/SRO and RO ports are not modelled (RO outputs 0).

// The primitive's ports that the model does not use, and its names, are the primitive's own.
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off DECLFILENAME */

module MULT18X18D
`include "ecp5_mult18x18d.svh"
  localparam bit RegA = REG_INPUTA_CLK == "CLK0";
  localparam bit RegB = REG_INPUTB_CLK == "CLK0";

  initial begin
    if (!(REG_INPUTA_CLK inside {"NONE", "CLK0"}) || !(REG_INPUTB_CLK inside {"NONE", "CLK0"}) ||
        (RegA && (REG_INPUTA_CE != "CE0" || REG_INPUTA_RST != "RST0")) ||
        (RegB && (REG_INPUTB_CE != "CE0" || REG_INPUTB_RST != "RST0")) ||
        REG_INPUTC_CLK != "NONE" || REG_PIPELINE_CLK != "NONE" || REG_OUTPUT_CLK != "NONE" ||
        MULT_BYPASS != "DISABLED" || CAS_MATCH_REG != "FALSE" || RESETMODE != "SYNC") begin
      $fatal(1, "MULT18X18D model: a configuration it does not model");
    end
  end

  logic [17:0] a, b, a_q, b_q, a_m, b_m;
  logic        sa, sb, sa_q, sb_q, sa_m, sb_m;
  assign a  = {A17, A16, A15, A14, A13, A12, A11, A10, A9, A8, A7, A6, A5, A4, A3, A2, A1, A0};
  assign b  = {B17, B16, B15, B14, B13, B12, B11, B10, B9, B8, B7, B6, B5, B4, B3, B2, B1, B0};
  assign sa = SIGNEDA;
  assign sb = SIGNEDB;

  // The sign controls are registered with their operand.
  // RST0 is not modelled: sgu_mul32 leaves it open and nextpnr ties it off.
  always_ff @(posedge CLK0) begin
    if (CE0) begin
      a_q  <= a;
      b_q  <= b;
      sa_q <= sa;
      sb_q <= sb;
    end
  end

  assign a_m  = RegA ? a_q : a;
  assign b_m  = RegB ? b_q : b;
  assign sa_m = RegA ? sa_q : sa;
  assign sb_m = RegB ? sb_q : sb;

  logic [35:0] p;
  assign p = 36'($signed({sa_m & a_m[17], a_m}) * $signed({sb_m & b_m[17], b_m}));
  assign {P35, P34, P33, P32, P31, P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20, P19,
          P18, P17, P16, P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0} = p;
  assign SIGNEDP = sa_m | sb_m;
  assign {ROA17, ROA16, ROA15, ROA14, ROA13, ROA12, ROA11, ROA10, ROA9, ROA8, ROA7, ROA6, ROA5,
          ROA4, ROA3, ROA2, ROA1, ROA0} = '0;
  assign {ROB17, ROB16, ROB15, ROB14, ROB13, ROB12, ROB11, ROB10, ROB9, ROB8, ROB7, ROB6, ROB5,
          ROB4, ROB3, ROB2, ROB1, ROB0} = '0;
  assign {ROC17, ROC16, ROC15, ROC14, ROC13, ROC12, ROC11, ROC10, ROC9, ROC8, ROC7, ROC6, ROC5,
          ROC4, ROC3, ROC2, ROC1, ROC0} = '0;
  assign {SROA17, SROA16, SROA15, SROA14, SROA13, SROA12, SROA11, SROA10, SROA9, SROA8, SROA7,
          SROA6, SROA5, SROA4, SROA3, SROA2, SROA1, SROA0} = '0;
  assign {SROB17, SROB16, SROB15, SROB14, SROB13, SROB12, SROB11, SROB10, SROB9, SROB8, SROB7,
          SROB6, SROB5, SROB4, SROB3, SROB2, SROB1, SROB0} = '0;

endmodule
