// SPDX-License-Identifier: Apache-2.0
// SGU load/store unit: per-lane gather/scatter over AXI4, with the address checks of docs/isa.md.
//
// Check, then request: chk_i (one cycle, while busy_o is low) samples the byte addresses addr_i and
// the store data wdata_i into the LSU's registers; in the next cycle each active lane is checked
// from those registers (alignment, then the [mem_base, mem_limit) window) and the result
// registered; in the cycle after that the first faulting lane and the first active lane are found
// and registered, so that from the third cycle after chk_i fault_o, fault_misaligned_o and
// fault_addr_o report the first faulting lane in lane order (from registers; the address through
// one multiplexer over the lanes, selected by a registered one-hot lane; valid while busy_o is
// low), and checked_o is high. The core traps instead of requesting when fault_o is set, so
// nothing reaches memory. req_i is a one-cycle pulse while busy_o is low, at least three cycles
// after chk_i; the request works on the sampled addresses and data, and store_i, size, once_i,
// lanes_i, mem_base_i and mem_limit_i must stay stable from chk_i until done_o. (Registering the
// addresses before the checks, the checks and the lane selection keeps the address adders (in
// the lanes), the comparators and the lanes' multiplexers in stages of their own: the lanes'
// operand registers reach the LSU's address registers through the adders alone, rather than
// through the comparators into the fault registers too, the SIMD16 board's routed critical path
// at 6911ff3, docs/timing.md, twentieth session; and out of the core's execute-stage control
// path and the AXI payload's: docs/fpga.md "Timing of the pipelined core".)
//
// Execution: active lanes are served in lane order, one single-beat AXI transfer each (a scalar
// address, once_i, is served once and its load data is given to every lane). A read costs one AR
// handshake plus the R beat; a write puts AW and W up together and waits for B. Each beat's
// address, store data and strobes are registered as the beat starts (the AXI payload comes from
// flip-flops), at no cost in cycles: the next lane is registered when the current beat starts, so a
// beat's multiplexers take a registered one-hot lane. Store data is not shifted to the address: its
// bytes are repeated across the beat and the strobes pick them (see wbeat). An error response ends
// the request: done_o with bus_err_o and the failing address; for stores the earlier lanes have
// been written. Throughput: one lane per 2 + memory latency cycles (coalescing is the block
// engine's job). A read beat is registered once, beside the LSU (its bytes picked by the address
// and extended by the load type: rb_q), and reaches the lanes' load registers (rdata_o) one edge
// later, so that the lanes' N x 64 load registers and their enables start from flip-flops, not
// from the R channel's handshake and the beat's byte selection (on the SIMD8 board they were
// 1,024 of the 3,171 endpoints above 13.3 ns at 77e9005: docs/fpga.md "Routed timing, step by
// step"); the clear of the load registers at the request is registered the same way. done_o
// comes one cycle after the last response for a store or an error, two for a load (StLast), with
// the load data in rdata_o.
//
// AXI rules obeyed: one transfer in flight, valid held until ready, payload stable while valid &&
// !ready (checked by assertions below).

`include "sgu_assert.svh"

module sgu_lsu #(
  parameter int unsigned NumLanes     = 16,  // SIMD width: 8, 16 or 32
  parameter int unsigned AxiDataWidth = 64   // AXI data width in bits: 64..512
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  // Request from the core.
  input  logic                             chk_i,          // sample addr_i and check it
  input  logic                             ld_i,           // load the address and data
                                                           // registers (at chk_i and at any
                                                           // edge outside a request: the core's
                                                           // first cycle of every instruction)
  input  logic                             req_i,          // start (pulse, only while !busy_o)
  input  logic                             store_i,        // 1: store, 0: load
  input  logic [1:0]                       size_log2_i,    // access size: 1 << size_log2_i bytes
  input  logic [3:0]                       dt_i,           // load type: the data is extended by it
  input  logic                             once_i,         // scalar address: one access
  input  logic [NumLanes-1:0]              lanes_i,        // active lanes
  input  logic [NumLanes-1:0][31:0]        addr_i,         // byte address per lane (at chk_i)
  input  logic [NumLanes-1:0][63:0]        wdata_i,        // store data per lane
  input  logic [31:0]                      mem_base_i,     // access window
  input  logic [31:0]                      mem_limit_i,
  // Pre-request checks (registered at chk_i).
  output logic                             fault_o,        // some active lane faults
  output logic                             fault_misaligned_o,  // 1: misaligned, 0: outside window
  output logic [31:0]                      fault_addr_o,   // address of the first faulting lane
  output logic                             checked_o,      // the fault outputs are those of the
                                                           // last chk_i (low until its second cycle)
  // Completion.
  output logic                             busy_o,
  output logic                             done_o,         // pulse: request finished
  output logic                             bus_err_o,      // with done_o: an AXI error ended it
  output logic [31:0]                      err_addr_o,     // with bus_err_o: failing address
  output logic [NumLanes-1:0][63:0]        rdata_o,        // load data per lane, ext_dt by dt_i
  // AXI4 master, read address and data.
  output logic                             ar_valid_o,
  input  logic                             ar_ready_i,
  output logic [31:0]                      ar_addr_o,
  output logic [2:0]                       ar_size_o,
  input  logic                             r_valid_i,
  output logic                             r_ready_o,
  input  logic [AxiDataWidth-1:0]          r_data_i,
  input  logic [1:0]                       r_resp_i,
  // AXI4 master, write address, data and response.
  output logic                             aw_valid_o,
  input  logic                             aw_ready_i,
  output logic [31:0]                      aw_addr_o,
  output logic [2:0]                       aw_size_o,
  output logic                             w_valid_o,
  input  logic                             w_ready_i,
  output logic [AxiDataWidth-1:0]          w_data_o,
  output logic [AxiDataWidth/8-1:0]        w_strb_o,
  input  logic                             b_valid_i,
  output logic                             b_ready_o,
  input  logic [1:0]                       b_resp_i
);
  localparam int unsigned StrbW    = AxiDataWidth / 8;
  localparam int unsigned OffBits  = $clog2(StrbW);

  typedef enum logic [2:0] {
    StIdle,
    StAddr,   // AR, or AW and W, offered
    StResp,   // waiting for R or B
    StLast,   // a load's last beat goes from rb_q into the lanes' registers
    StDone    // report completion (load data registered)
  } state_e;

  state_e                    state_q, state_d;
  logic [NumLanes-1:0][63:0] rdata_q;
  logic                      rdata_clr, rdata_ld;  // clear at the request, load a read beat
  logic                      aw_done_q, aw_done_d, w_done_q, w_done_d;
  logic                      err_q, err_d;
  logic [31:0]               err_addr_q, err_addr_d;
  logic [NumLanes-1:0]       cur_d;
  logic [63:0]               rbeat, wbeat;
  logic [7:0]                strb8;
  logic                      resp_err;

  // ---------------------------------------------------------------- pre-request checks
  logic [NumLanes-1:0] lane_misaligned, lane_outside;
  logic [3:0]          size_bytes;
  assign size_bytes = 4'd1 << size_log2_i;

  // addr + size > limit  <=>  addr >= limit rounded down to a multiple of size, for an
  // address that is a multiple of size (addr > limit - size, and the multiples of size above
  // limit - size start at that rounding); a misaligned lane faults as misaligned whatever its
  // range (the model checks alignment first), so its range bit is not used. Each lane has two
  // comparators and no adder, and no subtraction stands before them.
  logic [3:0]  size_m1;
  logic [31:0] limit_al;
  assign size_m1  = size_bytes - 4'd1;
  assign limit_al = mem_limit_i & ~{28'd0, size_m1};

  // Registered at chk_i: the addresses and the store data. The enable is ld_i, which the core
  // raises at chk_i and at the first edge of every other instruction in X, when nothing reads
  // these registers: they are read from chk_i to the end of the request it starts (or, after a
  // fault, while the faulting instruction is in X), and the core hands no other instruction to X
  // in that time (ChkLd_A, LdIdle_A, ChkHold_A).
  logic [NumLanes-1:0][31:0] addr_q;
  logic [NumLanes-1:0][63:0] wdata_q;
  always_ff @(posedge clk_i) begin
    if (ld_i) begin
      addr_q  <= addr_i;
      wdata_q <= wdata_i;
    end
  end

  logic chk1_q;  // chk_i was at the last edge: the lanes are checked now
  logic chk2_q;  // ... two edges ago: the lane selection of the checks is made now
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chk1_q <= 1'b0;
      chk2_q <= 1'b0;
    end else begin
      chk1_q <= chk_i;
      chk2_q <= chk1_q && !chk_i;  // a new check cancels the one in flight
    end
  end

  // The checks, from the address registers, in the cycle after chk_i; evaluated only then
  // (otherwise don't-care: no gate), so that the simulation skips the per-lane compares in the
  // other cycles.
  always_comb begin
    lane_misaligned = 'x;
    lane_outside    = 'x;
    if (chk1_q) begin
      for (int unsigned l = 0; l < NumLanes; l++) begin
        lane_misaligned[l] = (addr_q[l][2:0] & (3'(size_bytes) - 3'd1)) != '0;
        lane_outside[l]    = (addr_q[l] < mem_base_i) || (addr_q[l] >= limit_al);
      end
    end
  end

  // Per active lane whether it faults and how, registered at the edge after chk_i.
  logic [NumLanes-1:0] bad_q, mis_q;
  always_ff @(posedge clk_i) begin
    if (chk1_q) begin
      bad_q <= lanes_i & (lane_misaligned | lane_outside);
      mis_q <= lane_misaligned;
    end
  end

  // The first faulting lane (sgu_lowest: AND/OR terms, not a priority chain) and the first
  // active lane, in the second cycle after chk_i, from the checks' registers; registered with
  // the one-hot lane that selects the faulting lane's address.
  logic [NumLanes-1:0] bad_onehot, act_onehot;
  logic                bad_any, act_any;
  sgu_lowest #(
    .Width(NumLanes)
  ) u_bad_first (
    .vec_i   (bad_q),
    .onehot_o(bad_onehot),
    /* verilator lint_off PINCONNECTEMPTY */
    .idx_o   (),
    /* verilator lint_on PINCONNECTEMPTY */
    .any_o   (bad_any)
  );
  sgu_lowest #(
    .Width(NumLanes)
  ) u_act_first (
    .vec_i   (lanes_i),
    .onehot_o(act_onehot),
    /* verilator lint_off PINCONNECTEMPTY */
    .idx_o   (),
    /* verilator lint_on PINCONNECTEMPTY */
    .any_o   (act_any)
  );

  // ---------------------------------------------------------------- lane sequencing
  // One registered one-hot lane number, sel_oh_q, selects everything taken from one lane: from
  // the third cycle after chk_i it is the first faulting lane if a lane faults (fault_addr_o: the
  // core reads it then, and sends no request), else the first active lane (the request's first
  // beat); when a beat starts it becomes the lane after that beat's. The address and store-data
  // multiplexers over the lanes are AND-OR terms of registered one-hot bits and registered data
  // (no lane-number decoding and no state in front of them). A beat's address, store data and
  // strobes are registered as the beat starts (beat_*_q), so the AXI payload comes from
  // flip-flops (docs/timing.md "Timing of the pipelined core").
  logic [NumLanes-1:0] cur_q;       // the lane being served (one-hot)
  logic [NumLanes-1:0] rest_q;      // lanes still to do after it
  logic [NumLanes-1:0] rest_d;
  logic [NumLanes-1:0] rest_nx;     // the lanes after the beat that starts now (if one does)
  logic [NumLanes-1:0] sel_oh_q;    // the lane selected (see above)
  logic [NumLanes-1:0] after_oh;    // lowest of rest_nx (the lane after the next beat's)
  logic                fault_q, fault_mis_q;
  logic [31:0]         sel_addr;
  logic [63:0]         sel_wdata;
  logic [OffBits-1:0]  sel_off;

  // Evaluated only in the cycles that can use them (otherwise don't-care: no gate, and the
  // simulation skips the N x 96-bit AND-OR), decided from registers (the request itself comes
  // from the core's decisions, which read fault_addr_o): from the checks' result until the
  // request (sel_live_q: the fault address, the first beat) and while a response is awaited
  // (the next beat starts with it).
  logic sel_live_q, sel_use;
  assign sel_use = sel_live_q || (state_q == StResp);
  always_comb begin
    sel_addr  = 'x;
    sel_wdata = 'x;
    if (sel_use) begin
      sel_addr = '0;
      for (int unsigned l = 0; l < NumLanes; l++) sel_addr |= addr_q[l] & {32{sel_oh_q[l]}};
      if (store_i) begin
        sel_wdata = '0;
        for (int unsigned l = 0; l < NumLanes; l++) sel_wdata |= wdata_q[l] & {64{sel_oh_q[l]}};
      end
    end
  end

  logic beat_start;  // the next cycle offers a new beat (enters StAddr)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)              sel_live_q <= 1'b0;
    else if (chk2_q)          sel_live_q <= 1'b1;
    else if (req_i || chk_i)  sel_live_q <= 1'b0;
  end
  assign sel_off = sel_addr[OffBits-1:0];

  always_ff @(posedge clk_i) begin
    if (chk2_q) begin
      fault_q     <= bad_any;
      fault_mis_q <= |(mis_q & bad_onehot);
      sel_oh_q    <= bad_any ? bad_onehot : act_onehot;
    end else if (beat_start) begin
      sel_oh_q    <= after_oh;
    end
  end
  assign fault_o            = fault_q;
  assign fault_misaligned_o = fault_mis_q;
  assign fault_addr_o       = sel_addr;  // the first faulting lane's while idle after chk_i

  // Low from chk_i until the lane selection above is registered.
  logic checked_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)     checked_q <= 1'b0;
    else if (chk_i)  checked_q <= 1'b0;
    else if (chk2_q) checked_q <= 1'b1;
  end
  assign checked_o = checked_q && !chk_i;

  // A request starts with no fault, so sel_oh_q is then its first active lane.
  assign rest_nx = ((state_q == StIdle) ? (once_i ? '0 : lanes_i) : rest_q) & ~sel_oh_q;

  sgu_lowest #(
    .Width(NumLanes)
  ) u_nxt (
    .vec_i   (rest_nx),
    .onehot_o(after_oh),
    /* verilator lint_off PINCONNECTEMPTY */
    .idx_o   (),
    .any_o   ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  // Store data: the access's bytes repeated across the beat (a byte 8 times, a half-word 4
  // times, a word twice, a double word once, then the 64 bits across a wider bus), so that the
  // bytes the strobes select hold the data at any aligned address without a shift by the
  // address; the other bytes are don't-care to the slave (AXI4 A3.4.3, write strobes).
  logic [31:0]             beat_addr_q;
  logic [AxiDataWidth-1:0] beat_wdata_q;
  logic [StrbW-1:0]        beat_strb_q;
  logic [OffBits-1:0]      beat_off;

  always_comb begin
    unique case (size_log2_i)
      2'd0:    wbeat = {8{sel_wdata[7:0]}};
      2'd1:    wbeat = {4{sel_wdata[15:0]}};
      2'd2:    wbeat = {2{sel_wdata[31:0]}};
      default: wbeat = sel_wdata;
    endcase
  end
  assign strb8 = 8'((9'd1 << size_bytes) - 9'd1);

  // Loaded in every cycle the selection is live outside StAddr (beat_ld), not on beat_start: the
  // values at the edge a beat starts are the same (the selected lane does not change before it),
  // and the enable comes from registers, not from the request or the response handshake (on the
  // SIMD8 board beat_start's 104 enables were a group of their own above 13.3 ns at 8273487:
  // docs/timing.md "Routed timing, step by step"). In StAddr the payload stays as AXI requires;
  // in StResp the registers already take the next beat's, so the beat awaiting its response
  // keeps its address in fly_addr_q (loaded in StAddr): the read data's byte offset and the
  // failing address of an error response come from there.
  logic beat_ld;
  assign beat_ld = sel_use && (state_q != StAddr);
  always_ff @(posedge clk_i) begin
    if (beat_ld) begin
      beat_addr_q  <= sel_addr;
      beat_wdata_q <= {(AxiDataWidth / 64){wbeat}};
      beat_strb_q  <= StrbW'(strb8) << sel_off;
    end
  end

  logic [31:0] fly_addr_q;  // the address of the beat in StAddr / StResp
  always_ff @(posedge clk_i) begin
    if (state_q == StAddr) fly_addr_q <= beat_addr_q;
  end
  assign beat_off = fly_addr_q[OffBits-1:0];
  // The beat's bytes extended by the load type here, once, rather than per lane in the core.
  assign rbeat    = sgu_pkg::ext_dt(64'(r_data_i >> (8 * beat_off)), dt_i);
  assign resp_err = store_i ? b_resp_i[1] : r_resp_i[1];

  assign busy_o     = state_q != StIdle;
  assign ar_valid_o = (state_q == StAddr) && !store_i;
  assign ar_addr_o  = beat_addr_q;
  assign ar_size_o  = {1'b0, size_log2_i};
  assign aw_valid_o = (state_q == StAddr) && store_i && !aw_done_q;
  assign aw_addr_o  = beat_addr_q;
  assign aw_size_o  = {1'b0, size_log2_i};
  assign w_valid_o  = (state_q == StAddr) && store_i && !w_done_q;
  assign w_data_o   = beat_wdata_q;
  assign w_strb_o   = beat_strb_q;
  assign r_ready_o  = (state_q == StResp) && !store_i;
  assign b_ready_o  = (state_q == StResp) && store_i;

  always_comb begin
    state_d    = state_q;
    rest_d     = rest_q;
    rdata_clr  = 1'b0;
    rdata_ld   = 1'b0;
    aw_done_d  = aw_done_q;
    w_done_d   = w_done_q;
    err_d      = err_q;
    err_addr_d = err_addr_q;
    bus_err_o  = 1'b0;
    err_addr_o = err_addr_q;
    beat_start = 1'b0;
    cur_d      = cur_q;
    unique case (state_q)
      StIdle: begin
        if (req_i) begin
          // A scalar address is accessed once, by the first active lane.
          rdata_clr  = 1'b1;
          rest_d     = rest_nx;
          cur_d      = sel_oh_q;
          beat_start = 1'b1;
          state_d    = StAddr;
        end
      end
      StAddr: begin
        if (store_i) begin
          aw_done_d = aw_done_q || aw_ready_i;
          w_done_d  = w_done_q || w_ready_i;
          if ((aw_done_q || aw_ready_i) && (w_done_q || w_ready_i)) begin
            state_d = StResp;
          end
        end else if (ar_ready_i) begin
          state_d = StResp;
        end
      end
      StResp: begin
        if ((store_i && b_valid_i) || (!store_i && r_valid_i)) begin
          aw_done_d = 1'b0;
          w_done_d  = 1'b0;
          if (resp_err) begin
            err_d      = 1'b1;
            err_addr_d = fly_addr_q;
            state_d    = StDone;
            rest_d     = '0;
          end else begin
            rdata_ld = !store_i;
            if (rest_q == '0) begin
              state_d = store_i ? StDone : StLast;
            end else begin
              rest_d     = rest_nx;
              cur_d      = sel_oh_q;
              beat_start = 1'b1;
              state_d    = StAddr;
            end
          end
        end
      end
      StLast: begin
        state_d = StDone;
      end
      StDone: begin
        bus_err_o = err_q;
        err_d     = 1'b0;
        state_d   = StIdle;
      end
      default: state_d = StIdle;
    endcase
  end

  assign rdata_o = rdata_q;

  // done_o from a flip-flop of its own (state_q == StDone, registered from state_d): the core's
  // x_done, and through it the issue advance and every lane's forward select, start from it
  // instead of a decode of the state (docs/timing.md, fifteenth session).
  logic done_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) done_q <= 1'b0;
    else         done_q <= state_d == StDone;
  end
  assign done_o = done_q;

  // Load data: cleared one edge after the request, each read beat one edge after it arrived,
  // into its lane (every lane for a scalar address): from the registered beat (rb_q), its lanes
  // and the registered strobes of the clear and the load, so that the lanes' registers and
  // their enables start from flip-flops. The clear comes before the first beat's load (a beat
  // arrives at least two cycles after the request). A register of its own, written only in
  // those cycles (the simulation copies the N x 64 bits only then).
  logic                rb_ld_q, rb_clr_q;
  logic [63:0]         rb_q;
  logic [NumLanes-1:0] rb_lanes_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rb_ld_q  <= 1'b0;
      rb_clr_q <= 1'b0;
    end else begin
      rb_ld_q  <= rdata_ld;
      rb_clr_q <= rdata_clr;
    end
  end
  always_ff @(posedge clk_i) begin
    if (rdata_ld) begin
      rb_q       <= rbeat;
      rb_lanes_q <= once_i ? '1 : cur_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rdata_q <= '0;
    end else if (rb_clr_q) begin
      rdata_q <= '0;
    end else if (rb_ld_q) begin
      for (int unsigned l = 0; l < NumLanes; l++) begin
        if (rb_lanes_q[l]) rdata_q[l] <= rb_q;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      rest_q    <= '0;
      cur_q     <= '0;
      aw_done_q <= 1'b0;
      w_done_q  <= 1'b0;
      err_q     <= 1'b0;
      err_addr_q <= '0;
    end else begin
      state_q   <= state_d;
      rest_q    <= rest_d;
      cur_q     <= cur_d;
      aw_done_q <= aw_done_d;
      w_done_q  <= w_done_d;
      err_q     <= err_d;
      err_addr_q <= err_addr_d;
    end
  end

  logic unused;
  assign unused = act_any ^ r_resp_i[0] ^ b_resp_i[0];

  `SGU_ASSERT_INIT(DataWidth_A, AxiDataWidth >= 64 && AxiDataWidth <= 512 &&
                                (AxiDataWidth & (AxiDataWidth - 1)) == 0)
  `SGU_ASSERT(ReqWhenIdle_A, req_i |-> state_q == StIdle && lanes_i != '0 && !fault_o)
  `SGU_ASSERT(ReqAfterChecks_A, req_i |-> checked_o)
  `SGU_ASSERT(ChkWhenIdle_A, chk_i |-> state_q == StIdle && !req_i)
  `SGU_ASSERT(ChkLd_A, chk_i |-> ld_i)
  `SGU_ASSERT(LdIdle_A, ld_i |-> state_q == StIdle && !req_i)
  `SGU_ASSERT(ArStable_A, ar_valid_o && !ar_ready_i |=> ar_valid_o && $stable(ar_addr_o))
  `SGU_ASSERT(AwStable_A, aw_valid_o && !aw_ready_i |=> aw_valid_o && $stable(aw_addr_o))
  `SGU_ASSERT(WStable_A, w_valid_o && !w_ready_i |=> w_valid_o && $stable(w_data_o) &&
                                                      $stable(w_strb_o))
  // The lane selection is evaluated whenever it is used (sel_use).
  `SGU_ASSERT(SelUse_A, (beat_start || (fault_o && checked_o)) |-> sel_use)
  `SGU_ASSERT(BeatLd_A, beat_start |-> beat_ld)
  // The clear of the load registers and a beat's load never meet.
  `SGU_ASSERT(ClrBeforeBeat_A, rb_clr_q |-> !rb_ld_q)
  `SGU_ASSERT(DoneQ_A, done_o == (state_q == StDone))
  `SGU_ASSERT(InputsStable_A, busy_o && !done_o |=> !chk_i && $stable(lanes_i) && $stable(store_i))

endmodule
