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
  parameter int unsigned Depth    = 16   // number of entries: 16 (one distributed RAM)
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

  logic [PtrBits-1:0] count_q, count_d;
  logic [IdxBits-1:0] top_q, top_d;  // count_q - 1, registered with it (the RAM's read row)
  logic [IdxBits-1:0] push_idx;

  // The entries are written one edge after the request, from registers (wr_*_q): the request
  // is decided at the end of X's trap checks and branch decisions, and as the enable of every
  // entry's 2 x NumLanes flip-flops it was a group of its own among the routed SIMD16 board's
  // late endpoints (docs/timing.md "Routed timing, step by step"). Now it is the write enable
  // of a distributed RAM (below) from one registered flag, at a row from a registered index. A
  // read in the cycle after a request takes the request's data when it is for the top entry
  // (the bypass below), so the stack behaves as if written at the request's edge.
  logic                wr_q, wr_saved_q;
  logic [IdxBits-1:0]  wr_idx_q;
  logic [NumLanes-1:0] wr_saved_d_q, wr_pending_d_q;

  // The entries: one sgu_lutram of 16 rows, {saved, pending} per row, the saved half written
  // by a push only. As flip-flops (2 x 16 x NumLanes, with a 16:1 read multiplexer per bit)
  // they were the largest block of the core's control, and the placer put them, with exec_q's
  // next value that reads them, far from X (the start of the SIMD16 placement's worst group at
  // ee0de03: exec_none_q -> X's registers; docs/timing.md, twenty-sixth session). The RAM
  // has no reset: an entry is read only after a push wrote it (NoUnderflow_A).
  logic [2*NumLanes-1:0] top_row;
  sgu_lutram #(
    .NumRead(1),
    .Width  (2 * NumLanes)
  ) u_ram (
    .clk_i(clk_i),
    .we_i (wr_q),
    .be_i ({wr_saved_q, 1'b1}),
    .wad_i(4'(wr_idx_q)),
    .di_i ({wr_saved_d_q, wr_pending_d_q}),
    .rad_i(4'(top_q)),
    .do_o (top_row)
  );

  assign push_idx      = IdxBits'(count_q);
  assign empty_o       = count_q == '0;
  assign full_o        = count_q == PtrBits'(Depth);
  assign top_saved_o   = (wr_q && wr_saved_q && wr_idx_q == top_q) ? wr_saved_d_q
                                                                   : top_row[NumLanes +: NumLanes];
  assign top_pending_o = (wr_q && wr_idx_q == top_q) ? wr_pending_d_q : top_row[NumLanes-1:0];

  always_comb begin
    count_d = count_q;
    if (clear_i) begin
      count_d = '0;
    end else if (push_i) begin
      count_d = count_q + PtrBits'(1);
    end else if (pop_i) begin
      count_d = count_q - PtrBits'(1);
    end
    top_d = IdxBits'(count_d - PtrBits'(1));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q    <= '0;
      top_q      <= '1;
      wr_q       <= 1'b0;
      wr_saved_q <= 1'b0;
    end else begin
      count_q    <= count_d;
      top_q      <= top_d;
      wr_q       <= !clear_i && (push_i || set_pending_i);
      wr_saved_q <= push_i;
    end
  end

  // Loaded at every edge, read only with wr_q.
  always_ff @(posedge clk_i) begin
    wr_idx_q       <= push_i ? push_idx : top_q;
    wr_saved_d_q   <= saved_i;
    wr_pending_d_q <= pending_i;
  end

  `SGU_ASSERT_INIT(Depth16_A, Depth == 16)  // the RAM's rows (sgu_isa_pkg MaskStackDepth)
  `SGU_ASSERT(TopQ_A, top_q == IdxBits'(count_q - PtrBits'(1)))
  `SGU_ASSERT(NoOverflow_A, push_i |-> !full_o)
  `SGU_ASSERT(NoUnderflow_A, (pop_i || set_pending_i) |-> !empty_o)
  `SGU_ASSERT(OneOp_A, $onehot0({push_i, pop_i, set_pending_i}))

endmodule
