// SPDX-License-Identifier: Apache-2.0
// Timing harness: one sgu_lane between two rows of flip-flops, so that out-of-context place and
// route reports the Fmax of the lane's datapath alone (64-bit ALU, multiplier, FP32 FMA). The
// lane is purely combinational; in today's core its path also includes the register-file read
// before it and the write-back after it. Used by docs/fpga.md ("Timing"); not part of the unit.

module sgu_lane_timing (
  input  logic        clk_i,
  input  logic [7:0]  opcode_i,
  input  logic [3:0]  dt_i,
  input  logic [3:0]  mod_i,
  input  logic [31:0] imm_i,
  input  logic [63:0] a_i,
  input  logic [63:0] b_i,
  input  logic [63:0] c_i,
  output logic [63:0] res_o,
  output logic        res_valid_o
);
  logic [7:0]  opcode_q;
  logic [3:0]  dt_q, mod_q;
  logic [31:0] imm_q;
  logic [63:0] a_q, b_q, c_q, res_d, res_q;
  logic        res_valid_d, res_valid_q;

  always_ff @(posedge clk_i) begin
    opcode_q    <= opcode_i;
    dt_q        <= dt_i;
    mod_q       <= mod_i;
    imm_q       <= imm_i;
    a_q         <= a_i;
    b_q         <= b_i;
    c_q         <= c_i;
    res_q       <= res_d;
    res_valid_q <= res_valid_d;
  end

  sgu_lane u_lane (
    .opcode_i   (opcode_q),
    .dt_i       (dt_q),
    .mod_i      (mod_q),
    .imm_i      (imm_q),
    .a_i        (a_q),
    .b_i        (b_q),
    .c_i        (c_q),
    .res_o      (res_d),
    .res_valid_o(res_valid_d)
  );

  assign res_o       = res_q;
  assign res_valid_o = res_valid_q;

endmodule
