// SPDX-License-Identifier: Apache-2.0
// SGU lane crossbar, multiplexer stage of one lane: the value lane l receives, from the source
// index and the range decision that sgu_xbar's index stage registered.
//
// A module and a file of its own so that the FPGA flow can tell these multiplexers from the
// rest of the crossbar: fpga/flow.sh maps the $_MUX_ trees of this file (the 2N:1 data
// multiplexer and the exec bit's N:1) onto the ECP5 slice multiplexers, and leaves the index
// stage's arithmetic and mode selection to ABC, which maps that in fewer levels than the slice
// multiplexers can (docs/fpga.md "Mapping choices"). res_o is don't-care unless en_i.

module sgu_xbar_mux #(
  parameter int unsigned NumLanes = 16,
  parameter int unsigned Lane     = 0,  // the receiving lane
  parameter int unsigned LaneBits = $clog2(NumLanes)
) (
  input  logic                      en_i,      // a shuffle is in the multiplexer stage
  input  logic [LaneBits-1:0]       src_i,     // source lane
  input  logic                      ok_i,      // the index is in range
  input  logic                      second_i,  // the source is in the second register (B)
  input  logic                      zero_i,    // the default is 0 rather than R[Lane]
  input  logic [NumLanes-1:0]       exec_i,    // the lanes that execute the shuffle
  input  logic [NumLanes-1:0][31:0] a_i,       // data A
  input  logic [NumLanes-1:0][31:0] r_i,       // B or the default R
  output logic [31:0]               res_o
);

  always_comb begin
    logic [31:0] picked;
    picked = 'x;
    res_o  = 'x;
    if (en_i) begin
      picked = second_i ? r_i[src_i] : a_i[src_i];
      res_o  = (ok_i && exec_i[src_i]) ? picked : (zero_i ? 32'd0 : r_i[Lane]);
    end
  end

endmodule
