// SPDX-License-Identifier: Apache-2.0
// SGU 32 x 32 -> 64 unsigned multiplier with registered operands: the one multiplier of sgu_mfu.
//
// a_i / b_i are registered at the clock edges where en_i is high; p_o = a * b of the registered
// operands, combinational after the register (sgu_mfu's S2). a_q_o / b_q_o are the registered
// operands, for the logic beside the product (the mulh correction).
//
// Two builds of the same function:
//   default          the operand registers and `a_q * b_q`, for simulation and any synthesis
//                    tool (Yosys maps the product onto DSP cells without their registers).
//   `SGU_ECP5        (defined by fpga/flow.sh): four ECP5 MULT18X18D, one per 16 x 16 partial
//                    product, with the operands registered inside the DSP (REG_INPUTA/B on CLK0,
//                    enable CE0), so no path runs from a flip-flop placed away from its DSP into
//                    the multiplier (docs/timing.md "What is left"); the partial products are
//                    summed in carry chains: p = HH << 32 + (HL + LH) << 16 + LL. a_q_o / b_q_o
//                    are then copies in the fabric. The declaration of MULT18X18D is in
//                    fpga/ecp5_prims.sv; tb/fpga checks this build against the default one with
//                    a behavioural MULT18X18D (tb/fpga/mult18x18d_model.sv).

module sgu_mul32 (
  input  logic        clk_i,
  input  logic        en_i,     // register a_i and b_i at this edge
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] a_q_o,    // the registered operands
  output logic [31:0] b_q_o,
  output logic [63:0] p_o       // a_q_o * b_q_o
);
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      a_q_o <= a_i;
      b_q_o <= b_i;
    end
  end

`ifdef SGU_ECP5
  // Partial product k = 2 * i + j: a's half i times b's half j (half 0 = bits 15:0).
  logic [3:0][31:0] pp;
  for (genvar k = 0; k < 4; k++) begin : gen_pp
    logic [17:0] a18, b18;
    logic [35:0] p36;
    assign a18 = {2'b00, a_i[16 * (k / 2) +: 16]};
    assign b18 = {2'b00, b_i[16 * (k % 2) +: 16]};
    // Only A, B, C, the sign and source selects, CLK0 and CE0 are connected (as Yosys's own DSP
    // mapping does): the cascade inputs SRIA / SRIB have no route from the constant nets, and
    // nextpnr ties the other clocks, enables and resets off itself (a tie to 0 in the RTL made
    // router1 fail on $PACKER_GND_NET). The cascade and register outputs are unused.
    /* verilator lint_off PINCONNECTEMPTY */
    /* verilator lint_off PINMISSING */
    MULT18X18D #(
      .REG_INPUTA_CLK("CLK0"),
      .REG_INPUTA_CE ("CE0"),
      .REG_INPUTA_RST("RST0"),
      .REG_INPUTB_CLK("CLK0"),
      .REG_INPUTB_CE ("CE0"),
      .REG_INPUTB_RST("RST0"),
      .GSR           ("DISABLED"),
      .RESETMODE     ("SYNC")
    ) u_mult (
        .A0(a18[0]), .A1(a18[1]), .A2(a18[2]), .A3(a18[3]), .A4(a18[4]), .A5(a18[5]),
        .A6(a18[6]), .A7(a18[7]), .A8(a18[8]), .A9(a18[9]), .A10(a18[10]), .A11(a18[11]),
        .A12(a18[12]), .A13(a18[13]), .A14(a18[14]), .A15(a18[15]), .A16(a18[16]), .A17(a18[17]),
        .B0(b18[0]), .B1(b18[1]), .B2(b18[2]), .B3(b18[3]), .B4(b18[4]), .B5(b18[5]),
        .B6(b18[6]), .B7(b18[7]), .B8(b18[8]), .B9(b18[9]), .B10(b18[10]), .B11(b18[11]),
        .B12(b18[12]), .B13(b18[13]), .B14(b18[14]), .B15(b18[15]), .B16(b18[16]), .B17(b18[17]),
        .C0(1'b0), .C1(1'b0), .C2(1'b0), .C3(1'b0), .C4(1'b0), .C5(1'b0),
        .C6(1'b0), .C7(1'b0), .C8(1'b0), .C9(1'b0), .C10(1'b0), .C11(1'b0),
        .C12(1'b0), .C13(1'b0), .C14(1'b0), .C15(1'b0), .C16(1'b0), .C17(1'b0),
        .P0(p36[0]), .P1(p36[1]), .P2(p36[2]), .P3(p36[3]), .P4(p36[4]), .P5(p36[5]),
        .P6(p36[6]), .P7(p36[7]), .P8(p36[8]), .P9(p36[9]), .P10(p36[10]), .P11(p36[11]),
        .P12(p36[12]), .P13(p36[13]), .P14(p36[14]), .P15(p36[15]), .P16(p36[16]), .P17(p36[17]),
        .P18(p36[18]), .P19(p36[19]), .P20(p36[20]), .P21(p36[21]), .P22(p36[22]), .P23(p36[23]),
        .P24(p36[24]), .P25(p36[25]), .P26(p36[26]), .P27(p36[27]), .P28(p36[28]), .P29(p36[29]),
        .P30(p36[30]), .P31(p36[31]), .P32(p36[32]), .P33(p36[33]), .P34(p36[34]), .P35(p36[35]),
        .SIGNEDA(1'b0), .SIGNEDB(1'b0), .SOURCEA(1'b0), .SOURCEB(1'b0),
        .CLK0(clk_i), .CE0(en_i),
        .SROA0(), .SROA1(), .SROA2(), .SROA3(), .SROA4(), .SROA5(), .SROA6(), .SROA7(), .SROA8(),
        .SROA9(), .SROA10(), .SROA11(), .SROA12(), .SROA13(), .SROA14(), .SROA15(), .SROA16(),
        .SROA17(),
        .SROB0(), .SROB1(), .SROB2(), .SROB3(), .SROB4(), .SROB5(), .SROB6(), .SROB7(), .SROB8(),
        .SROB9(), .SROB10(), .SROB11(), .SROB12(), .SROB13(), .SROB14(), .SROB15(), .SROB16(),
        .SROB17(),
        .ROA0(), .ROA1(), .ROA2(), .ROA3(), .ROA4(), .ROA5(), .ROA6(), .ROA7(), .ROA8(), .ROA9(),
        .ROA10(), .ROA11(), .ROA12(), .ROA13(), .ROA14(), .ROA15(), .ROA16(), .ROA17(),
        .ROB0(), .ROB1(), .ROB2(), .ROB3(), .ROB4(), .ROB5(), .ROB6(), .ROB7(), .ROB8(), .ROB9(),
        .ROB10(), .ROB11(), .ROB12(), .ROB13(), .ROB14(), .ROB15(), .ROB16(), .ROB17(),
        .ROC0(), .ROC1(), .ROC2(), .ROC3(), .ROC4(), .ROC5(), .ROC6(), .ROC7(), .ROC8(), .ROC9(),
        .ROC10(), .ROC11(), .ROC12(), .ROC13(), .ROC14(), .ROC15(), .ROC16(), .ROC17(),
        .SIGNEDP()
    );
    /* verilator lint_on PINMISSING */
    /* verilator lint_on PINCONNECTEMPTY */
    assign pp[k] = p36[31:0];
    logic unused;
    assign unused = ^p36[35:32];
  end

  logic [32:0] mid;  // HL + LH
  assign mid = {1'b0, pp[1]} + {1'b0, pp[2]};
  assign p_o = {pp[3], pp[0]} + {15'd0, mid, 16'd0};
`else
  assign p_o = a_q_o * b_q_o;
`endif

endmodule
