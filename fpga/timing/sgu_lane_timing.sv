// SPDX-License-Identifier: Apache-2.0
// Timing harness: one sgu_lane and one sgu_mfu between rows of flip-flops, so that out-of-context
// place and route reports the Fmax of a lane's datapaths alone: the single-cycle ALU (operand
// flops -> ALU -> result flops, as in the core's execute stage) and the four stages of the MFU
// fed by the lane's operands (the last stage ends in the result flops, as the core's write-back
// does). In the core the ALU path also includes the write-back multiplexer and the register
// file's bypass, and with LanesPerMfu > 1 the MFU's operands pass a LanesPerMfu:1 multiplexer.
// Used by docs/timing.md ("Whole core"); not part of the unit.

module sgu_lane_timing (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [7:0]  opcode_i,
  input  logic [3:0]  dt_i,
  input  logic [3:0]  mod_i,
  input  logic [31:0] imm_i,
  input  logic [63:0] a_i,
  input  logic [63:0] b_i,
  input  logic [63:0] c_i,
  input  logic        alu_en_i,
  input  logic        long_valid_i,
  input  logic        fpu_i,         // MFU control, decoded by the core from the instruction
  input  logic [3:0]  fop_i,
  input  logic        mulh_i,
  input  logic        shift_i,
  input  logic        right_i,
  input  logic        wide_i,
  input  logic [1:0]  step_i,
  output logic [63:0] res_o,
  output logic [31:0] late_o,        // the lane's compare / min / max result, registered
  output logic [63:0] long_res_o
);
  logic [7:0]  opcode_q;
  logic [3:0]  dt_q, mod_q, fop_q;
  logic [31:0] imm_q;
  logic [63:0] a_q, b_q, c_q, res_d, res_q, long_d, long_q, ia, ib;
  logic        fwd_sum;
  logic [31:0] fwd_add, fwd_early, res_hi;
  assign res_d = {res_hi, fwd_sum ? fwd_add : fwd_early};  // the lane's result, as the core picks it
  logic [31:0] late_d, late_q;
  logic        alu_en_q, long_valid_q, fpu_q, mulh_q, shift_q, right_q, wide_q;
  logic        a_nz_q;  // a_i's low word != 0, registered (as the core's register file does)
  logic [1:0]  step_q;

  always_ff @(posedge clk_i) begin
    opcode_q     <= opcode_i;
    dt_q         <= dt_i;
    mod_q        <= mod_i;
    imm_q        <= imm_i;
    a_q          <= a_i;
    a_nz_q       <= a_i[31:0] != '0;
    b_q          <= b_i;
    c_q          <= c_i;
    alu_en_q     <= alu_en_i;
    long_valid_q <= long_valid_i;
    fpu_q        <= fpu_i;
    fop_q        <= fop_i;
    mulh_q       <= mulh_i;
    shift_q      <= shift_i;
    right_q      <= right_i;
    wide_q       <= wide_i;
    step_q       <= step_i;
    res_q        <= res_d;
    late_q       <= late_d;
    long_q       <= long_d;
  end

  // The lane registers its own controls (sgu_lane): decoded from the input registers here, as
  // the core decodes them in D.
  sgu_lane u_lane (
    .clk_i    (clk_i),
    .ld_i     (1'b1),
    .ctl_i    (sgu_pkg::alu_decode(opcode_q, dt_q, mod_q)),
    .imm_i    ((opcode_q == sgu_isa_pkg::OpLui) ? {1'b0, imm_q[23:0], 8'd0}  // as the core does
                                                : {imm_q[31], imm_q}),
    .a_i      (a_q),
    .a_nz_i   (a_nz_q),
    .b_i      (b_q),
    .c_i      (c_q),
    .alu_en_i (alu_en_q),
    .fwd_sum_o  (fwd_sum),
    .fwd_add_o  (fwd_add),
    .fwd_early_o(fwd_early),
    .res_hi_o   (res_hi),
    .late_o   (late_d),
    .sh_en_i  (1'b1),
    .sh_res_o (),
    .ia_o     (ia),
    .ib_o     (ib)
  );

  sgu_mfu u_mfu (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (long_valid_q),
    .fpu_i   (fpu_q),
    .ld_fp_i (long_valid_q && fpu_q),
    .ld_int_i(long_valid_q && !fpu_q),
    .fop_i   (fop_q),
    .cond_i  (mod_q[2:0]),
    .a_i     (ia[31:0]),
    .b_i     (ib[31:0]),
    .c_i     (c_q[31:0]),
    .ia_i    (ia),
    .ib_i    (ib),
    .mulh_i  (mulh_q),
    .shift_i (shift_q),
    .right_i (right_q),
    .wide_i  (wide_q),
    .alu_i   (sgu_pkg::op_is_alu64(opcode_q, dt_q)),
    .alu_op_i(sgu_pkg::alu64_op(opcode_q)),
    .step_i  (step_q),
    .dt_i    (dt_q),
    .result_o(long_d)
  );

  assign res_o      = res_q;
  assign late_o     = late_q;
  assign long_res_o = long_q;

endmodule
