// SPDX-License-Identifier: Apache-2.0
// SGU lane crossbar, one multiplexer of one lane: the value of the source that sel_i names
// among NumIn, with that source's exec bit. sgu_xbar uses it twice per lane: in the group stage
// (X: NumIn = G lanes of one group, sel_i the index within the group) and in the final stage
// (L2: NumIn = the groups' candidates, sel_i the group).
//
// A module and a file of its own so that the FPGA flow can tell these multiplexers from the
// rest of the crossbar: fpga/flow.sh maps the $_MUX_ trees of this file onto the ECP5 slice
// multiplexers, and leaves the index stage's arithmetic and mode selection to ABC, which maps
// that in fewer levels than the slice multiplexers can (docs/timing.md "Mapping choices").
// The outputs are don't-care unless en_i (no gate in synthesis; the simulation skips the
// selection).

module sgu_xbar_mux #(
  parameter int unsigned NumIn   = 4,
  parameter int unsigned SelBits = (NumIn > 1) ? $clog2(NumIn) : 1
) (
  input  logic                   en_i,
  input  logic [SelBits-1:0]     sel_i,
  input  logic [NumIn-1:0][31:0] data_i,
  input  logic [NumIn-1:0]       bit_i,   // the sources' exec bits
  output logic [31:0]            data_o,
  output logic                   bit_o
);

  always_comb begin
    data_o = 'x;
    bit_o  = 'x;
    if (en_i) begin
      data_o = data_i[sel_i];
      bit_o  = bit_i[sel_i];
    end
  end

endmodule
