// SPDX-License-Identifier: Apache-2.0
// SGU MFU operand select: the operands of lane pass_i of a group of LanesPerMfu lanes, for the
// group's one sgu_mfu (docs/architecture.md "Sharing the MFU").
//
// Purely combinational: one LanesPerMfu:1 multiplexer per operand bit (160 bits). Kept in its own
// file because the FPGA flow maps the multiplexers of this file, like the crossbar's, onto the
// ECP5 slice multiplexers (fpga/flow.sh, docs/timing.md "Mapping choices"): a 4:1 multiplexer in 2
// LUT4 instead of 3.

module sgu_mfu_sel #(
  parameter int unsigned LanesPerMfu = 1,  // 1, 2, 4 or 8
  parameter int unsigned PassBits    = (LanesPerMfu > 1) ? $clog2(LanesPerMfu) : 1  // pass_i width
) (
  input  logic [PassBits-1:0]              pass_i,  // lane of the group, 0..LanesPerMfu-1
  input  logic [LanesPerMfu-1:0][31:0]     fc_i,    // FP operand c (the fma addend) per lane
  input  logic [LanesPerMfu-1:0][63:0]     ia_i,    // operand a (extended; low word: FP a)
  input  logic [LanesPerMfu-1:0][63:0]     ib_i,    // operand b (extended; low word: FP b)
  output logic [31:0]                      fc_o,
  output logic [63:0]                      ia_o,
  output logic [63:0]                      ib_o
);
  if (LanesPerMfu == 1) begin : gen_one
    logic unused;
    assign unused = ^pass_i;
    assign fc_o = fc_i[0];
    assign ia_o = ia_i[0];
    assign ib_o = ib_i[0];
  end else begin : gen_mux
    assign fc_o = fc_i[pass_i];
    assign ia_o = ia_i[pass_i];
    assign ib_o = ib_i[pass_i];
  end

endmodule
