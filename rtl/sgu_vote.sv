// SPDX-License-Identifier: Apache-2.0
// SGU vote unit: any / all / ballot over the active lanes, and the value of the first active lane.
//
// any / all / ballot take two stages: each lane's condition (active and rs1 != 0) is registered
// at every edge a vote is in X (vote_ld_i; the last load is the edge it leaves X), and vote_o is
// the reduction of those registers in L2, where the core picks it (like a shuffle's or a short
// shift's result: it is not forwarded out of X). So no path runs from the lanes' operand
// registers through the reduction over every lane in one cycle (docs/fpga.md "Routed timing,
// step by step"). `first` takes three cycles in X: in the first the lowest active lane is
// registered as a one-hot vector beside the lanes (low_en_i; from exec_i, which no instruction
// changes while the `first` is in X); in the second, while the core holds the operand registers,
// that lane's value is picked by an AND-OR over the lanes and registered (first_en_i); in the
// third first_o is that register extended by the type (after the register: the AND-OR over the
// die is the longer part, and on the SIMD8 board at 77e9005 the extension in front of the
// register made it 7 LUT levels). So neither the exec mask's lowest-lane logic nor the core's
// state precedes the AND-OR over the die (once SIMD16's routed critical path), and the value's
// path into the core's write-back does not start at the lanes' operand forwards (docs/fpga.md
// "Timing of the pipelined core").
// Results are uniform: the core writes them to a scalar register or broadcasts them to the
// active lanes of a vector register (docs/isa.md "Lane identity, special values, votes"). `all`
// over no active lane is 1; `first` with no active lane is 0.

`include "sgu_assert.svh"

module sgu_vote #(
  parameter int unsigned NumLanes = 16  // SIMD width: 8, 16 or 32
) (
  input  logic                      clk_i,
  input  logic                      low_en_i,    // a `first`'s first cycle in X: register
                                                 // the lowest active lane (one-hot)
  input  logic                      first_en_i,  // its second cycle: register that lane's value
  input  logic                      vote_ld_i,   // a vote is in X: register its conditions
  input  logic [3:0]                mode_i,      // ModVote* value (of the vote in X)
  input  logic [3:0]                dt_i,        // the `first`'s type: first_o is extended by it
  input  logic [NumLanes-1:0]       exec_i,      // active lanes
  input  logic [NumLanes-1:0][31:0] cond_i,      // per-lane condition value (rs1 low word)
  input  logic [NumLanes-1:0][63:0] data_i,      // per-lane value for `first` (rs1 pair)
  output logic [31:0]               vote_o,      // any/all: 0/1; ballot: lane bit mask (of the
                                                 // vote that left X at the last vote_ld_i)
  output logic [63:0]               first_o      // rs1 (pair) of the lowest active lane,
                                                 // extended by dt_i (ext_dt)
);
  import sgu_isa_pkg::*;

  // Each lane's condition, and per group of four lanes whether one of them is set (any) and
  // whether one of them is active with a zero condition (all fails), registered: the L2 side
  // is then one OR over N / 4 registers, not a reduction or a compare over N lanes (the vote's
  // path into the lanes' forwards was the latest group of a SIMD16 placement: docs/fpga.md).
  // The group terms add one level in X, after the lanes' zero detects, beside the ALU.
  localparam int unsigned Groups = NumLanes / 4;
  logic [NumLanes-1:0] set, set_q, miss;
  logic [Groups-1:0]   any_g, miss_g, any_g_q, miss_g_q;
  logic [3:0]          mode_q;
  for (genvar l = 0; l < NumLanes; l++) begin : gen_cond
    assign set[l]  = exec_i[l] && (cond_i[l] != '0);
    assign miss[l] = exec_i[l] && !set[l];
  end
  for (genvar g = 0; g < Groups; g++) begin : gen_group
    assign any_g[g]  = |set[4*g +: 4];
    assign miss_g[g] = |miss[4*g +: 4];
  end

  always_ff @(posedge clk_i) begin
    if (vote_ld_i) begin
      set_q    <= set;
      any_g_q  <= any_g;
      miss_g_q <= miss_g;
      mode_q   <= mode_i;
    end
  end

  always_comb begin
    unique case (mode_q)
      ModVoteAny: vote_o = {31'd0, |any_g_q};
      ModVoteAll: vote_o = {31'd0, miss_g_q == '0};
      default:    vote_o = 32'(set_q);  // ballot
    endcase
  end

  `SGU_ASSERT_INIT(Groups_A, NumLanes % 4 == 0)

  // The lowest active lane as a one-hot vector (sgu_lowest: AND/OR terms, no priority chain),
  // registered; in the next cycle its value as an AND-OR over the lanes (0 when no lane is
  // active: the vector is 0), registered. (A priority chain of `if`s here was once the core's
  // slowest path: 16 slice multiplexer levels in series, 31 ns estimated; then, unregistered,
  // the one-hot after the core's exec state was SIMD16's routed critical path, 49.9 MHz.)
  localparam int unsigned LaneBits = $clog2(NumLanes);
  logic [NumLanes-1:0] first_onehot;
  logic [LaneBits-1:0] first_idx;
  logic                any_exec;

  sgu_lowest #(
    .Width(NumLanes)
  ) u_first (
    .vec_i   (exec_i),
    .onehot_o(first_onehot),
    .idx_o   (first_idx),
    .any_o   (any_exec)
  );

  logic [NumLanes-1:0] low_q;
  always_ff @(posedge clk_i) begin
    if (low_en_i) low_q <= first_onehot;
  end

  // Only in a `first`'s second cycle (the register loads only then; otherwise don't-care).
  logic [63:0] first_d;
  always_comb begin
    first_d = 'x;
    if (first_en_i) begin
      first_d = '0;
      for (int unsigned l = 0; l < NumLanes; l++) begin
        first_d |= data_i[l] & {64{low_q[l]}};
      end
    end
  end

  logic [63:0] first_q;
  always_ff @(posedge clk_i) begin
    if (first_en_i) first_q <= first_d;
  end
  assign first_o = sgu_pkg::ext_dt(first_q, dt_i);

  logic unused;
  assign unused = ^{first_idx, any_exec};

endmodule
