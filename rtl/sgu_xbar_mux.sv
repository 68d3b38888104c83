// SPDX-License-Identifier: Apache-2.0
// SGU lane crossbar, multiplexer stage of one lane: the value lane l receives, from the source
// index and the range decision that sgu_xbar's index stage registered, from C (sgu_xbar: A or
// B per source lane).
//
// A module and a file of its own so that the FPGA flow can tell these multiplexers from the
// rest of the crossbar: fpga/flow.sh maps the $_MUX_ trees of this file (the N:1 data
// multiplexer and the exec bit's N:1) onto the ECP5 slice multiplexers, and leaves the index
// stage's arithmetic and mode selection to ABC, which maps that in fewer levels than the slice
// multiplexers can (docs/timing.md "Mapping choices"). res_o is don't-care unless en_i.

module sgu_xbar_mux #(
  parameter int unsigned NumLanes = 16,
  parameter int unsigned LaneBits = $clog2(NumLanes)
) (
  input  logic                      en_i,      // a shuffle is in the multiplexer stage
  input  logic [LaneBits-1:0]       src_i,     // source lane
  input  logic                      ok_i,      // the index is in range
  input  logic                      held_i,    // the value is hold_i (a two-pass shuffle's
                                               // lane whose source is in A, second pass)
  input  logic [31:0]               hold_i,    // ... the first pass's result
  input  logic                      zero_i,    // the default is 0 rather than R[l]
  input  logic [NumLanes-1:0]       exec_i,    // the lanes that execute the shuffle
  input  logic [NumLanes-1:0][31:0] c_i,       // per source lane: A or B (sgu_xbar's C)
  input  logic [31:0]               r_i,       // the default R[l] of the receiving lane l
  output logic [31:0]               res_o,     // the value: take ? pick_o : dflt_o
  // The value's parts, for a caller that makes the last choice itself (the core: into the
  // write registers, sgu_core gen_l2_val): take = early_o && src_exec_o.
  output logic [31:0]               pick_o,    // C[src]
  output logic                      src_exec_o,  // exec[src]
  output logic                      early_o,   // in range, not held (registers only)
  output logic [31:0]               dflt_o     // the default (registers only)
);

  // The default side (held value, 0 or R) comes from registers only, so the N:1 multiplexer
  // is followed by one 2:1 selection.
  always_comb begin
    pick_o     = 'x;
    src_exec_o = 'x;
    early_o    = 'x;
    dflt_o     = 'x;
    res_o      = 'x;
    if (en_i) begin
      pick_o     = c_i[src_i];
      src_exec_o = exec_i[src_i];
      early_o    = ok_i && !held_i;
      dflt_o     = held_i ? hold_i : (zero_i ? 32'd0 : r_i);
      res_o      = (early_o && src_exec_o) ? pick_o : dflt_o;
    end
  end

endmodule
