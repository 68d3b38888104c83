// SPDX-License-Identifier: Apache-2.0
// SGU lowest set bit: which bit of a vector is the lowest one set, as a one-hot vector and as an
// index (0 when no bit is set; any_o says whether one is).
//
// Written as AND/OR terms rather than as a priority chain of `if`s: Yosys keeps the order of an
// `if` chain, so a chain over N bits becomes N multiplexers in series, a path N levels deep unless
// ABC restructures it (it does not always: the LSU's lane selection was 16 LUT levels at SIMD16,
// and under the FPGA flow's muxcover the vote unit's `first` was 16 slice levels). Here each
// one-hot bit is "set and nothing set below" (a prefix OR) and each index bit an OR of one-hot
// bits: a few LUT levels.

module sgu_lowest #(
  parameter int unsigned Width = 16,
  parameter int unsigned IdxBits = (Width > 1) ? $clog2(Width) : 1
) (
  input  logic [Width-1:0]   vec_i,
  output logic [Width-1:0]   onehot_o,  // the lowest set bit of vec_i alone
  output logic [IdxBits-1:0] idx_o,     // its position (0 when vec_i == 0)
  output logic               any_o      // vec_i != 0
);
  always_comb begin
    logic none_below;
    none_below = 1'b1;
    idx_o      = '0;
    for (int i = 0; i < Width; i++) begin
      onehot_o[i] = vec_i[i] && none_below;
      none_below  = none_below && !vec_i[i];
      idx_o       = idx_o | (IdxBits'(i) & {IdxBits{onehot_o[i]}});
    end
    any_o = !none_below;
  end

endmodule
