// SPDX-License-Identifier: Apache-2.0
// Behavioural model of the ECP5 MULT18X18D, for simulation only: the subset sgu_mul32's ECP5
// build uses (tb/fpga/mul32_test.cc), written from Lattice's sysDSP usage guide (TN1267): an
// 18 x 18 multiplier, P = A * B (each operand signed when its SIGNEDA / SIGNEDB input is high),
// with the A and B inputs registered on CLK0 with clock enable CE0 when REG_INPUTA_CLK /
// REG_INPUTB_CLK is "CLK0" (synchronous reset RST0), combinational when "NONE". Any other
// register, clock, cascade or bypass setting stops the simulation: the model does not have it.
// The C, SRI/SRO and RO ports are not modelled (RO outputs 0).

// The primitive's ports that the model does not use, and its names, are the primitive's own.
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off DECLFILENAME */

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
  always_ff @(posedge CLK0) begin
    if (RST0) begin
      a_q  <= '0;
      b_q  <= '0;
      sa_q <= 1'b0;
      sb_q <= 1'b0;
    end else if (CE0) begin
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
