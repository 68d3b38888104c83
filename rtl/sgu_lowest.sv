// SPDX-License-Identifier: Apache-2.0
// SGU lowest set bit: which bit of a vector is the lowest one set, as a one-hot vector and as an
// index (0 when no bit is set; any_o says whether one is).
//
// Written as AND/OR terms rather than as a priority chain of `if`s: Yosys keeps the order of an
// `if` chain, so a chain over N bits becomes N multiplexers in series, a path N levels deep unless
// ABC restructures it (it does not always: the LSU's lane selection was 16 LUT levels at SIMD16,
// and under the FPGA flow's muxcover the vote unit's `first` was 16 slice levels). Here each
// one-hot bit is "set and nothing set below" (an OR reduction) and each index bit an OR of
// one-hot bits: a few LUT levels.

module sgu_lowest #(
  parameter int unsigned Width = 16,
  parameter int unsigned IdxBits = (Width > 1) ? $clog2(Width) : 1
) (
  input  logic [Width-1:0]   vec_i,
  output logic [Width-1:0]   onehot_o,  // the lowest set bit of vec_i alone
  output logic [IdxBits-1:0] idx_o,     // its position (0 when vec_i == 0)
  output logic               any_o      // vec_i != 0
);
  // Each term is a reduction (Yosys builds those as balanced trees), not a serial chain: ABC maps
  // a chain written as one (none_below = none_below && !vec[i]) about three inputs per LUT level.
  for (genvar i = 0; i < Width; i++) begin : gen_onehot
    if (i == 0) begin : gen_first
      assign onehot_o[i] = vec_i[i];
    end else begin : gen_rest
      assign onehot_o[i] = vec_i[i] && !(|vec_i[i-1:0]);
    end
  end

  for (genvar b = 0; b < IdxBits; b++) begin : gen_idx
    logic [Width-1:0] has_bit;  // positions whose index has bit b set
    for (genvar i = 0; i < Width; i++) begin : gen_pos
      assign has_bit[i] = ((i >> b) & 1) != 0;
    end
    assign idx_o[b] = |(onehot_o & has_bit);
  end

  assign any_o = |vec_i;

endmodule
