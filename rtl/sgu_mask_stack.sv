// SPDX-License-Identifier: Apache-2.0
// SGU mask stack: the reconvergence stack of {saved, pending} execution masks.
//
// push_i writes {saved_i, pending_i} on top; pop_i removes the top entry; set_pending_i replaces
// the pending mask of the top entry (used by `else`). One operation per cycle; the core checks
// full_o / empty_o first and traps instead of overflowing or underflowing, so an illegal request
// is an assertion failure here. clear_i (kernel start) empties the stack.

`include "sgu_assert.svh"

module sgu_mask_stack #(
  parameter int unsigned NumLanes = 16,  // SIMD width: 8, 16 or 32
  parameter int unsigned Depth    = 16   // number of entries
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                clear_i,        // empty the stack
  input  logic                push_i,         // push {saved_i, pending_i}
  input  logic                pop_i,          // drop the top entry
  input  logic                set_pending_i,  // top.pending = pending_i
  input  logic [NumLanes-1:0] saved_i,
  input  logic [NumLanes-1:0] pending_i,
  output logic [NumLanes-1:0] top_saved_o,    // top entry (undefined when empty)
  output logic [NumLanes-1:0] top_pending_o,
  output logic                empty_o,
  output logic                full_o
);
  localparam int unsigned PtrBits = $clog2(Depth + 1);
  localparam int unsigned IdxBits = $clog2(Depth);

  logic [Depth-1:0][NumLanes-1:0] saved_q, pending_q;
  logic [PtrBits-1:0]             count_q, count_d;
  logic [IdxBits-1:0]             top, push_idx;

  // The entries are written one edge after the request, from registers (wr_*_q): the request
  // is decided at the end of X's trap checks and branch decisions, and as the enable of every
  // entry's 2 x NumLanes flip-flops it was a group of its own among the routed SIMD16 board's
  // late endpoints (docs/timing.md "Routed timing, step by step"). Now it loads one valid flag;
  // the entries' enables come from the registered index. A read in the cycle after a request
  // takes the request's data when it is for the top entry (the bypass below), so the stack
  // behaves as if written at the request's edge.
  logic                wr_q, wr_saved_q;
  logic [IdxBits-1:0]  wr_idx_q;
  logic [NumLanes-1:0] wr_saved_d_q, wr_pending_d_q;

  assign top           = IdxBits'(count_q - PtrBits'(1));
  assign push_idx      = IdxBits'(count_q);
  assign empty_o       = count_q == '0;
  assign full_o        = count_q == PtrBits'(Depth);
  assign top_saved_o   = (wr_q && wr_saved_q && wr_idx_q == top) ? wr_saved_d_q : saved_q[top];
  assign top_pending_o = (wr_q && wr_idx_q == top) ? wr_pending_d_q : pending_q[top];

  always_comb begin
    count_d = count_q;
    if (clear_i) begin
      count_d = '0;
    end else if (push_i) begin
      count_d = count_q + PtrBits'(1);
    end else if (pop_i) begin
      count_d = count_q - PtrBits'(1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q    <= '0;
      wr_q       <= 1'b0;
      wr_saved_q <= 1'b0;
    end else begin
      count_q    <= count_d;
      wr_q       <= !clear_i && (push_i || set_pending_i);
      wr_saved_q <= push_i;
    end
  end

  // Loaded at every edge, read only with wr_q.
  always_ff @(posedge clk_i) begin
    wr_idx_q       <= push_i ? push_idx : top;
    wr_saved_d_q   <= saved_i;
    wr_pending_d_q <= pending_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      saved_q   <= '0;
      pending_q <= '0;
    end else if (wr_q) begin
      if (wr_saved_q) saved_q[wr_idx_q] <= wr_saved_d_q;
      pending_q[wr_idx_q] <= wr_pending_d_q;
    end
  end

  `SGU_ASSERT_INIT(DepthPow2_A, Depth >= 2 && (Depth & (Depth - 1)) == 0)
  `SGU_ASSERT(NoOverflow_A, push_i |-> !full_o)
  `SGU_ASSERT(NoUnderflow_A, (pop_i || set_pending_i) |-> !empty_o)
  `SGU_ASSERT(OneOp_A, $onehot0({push_i, pop_i, set_pending_i}))

endmodule
