// SPDX-License-Identifier: Apache-2.0
// SGU control/status registers behind an AXI4-Lite slave (register map: docs/isa.md).
//
// Writes: AW and W are accepted independently (either may come first); when both are held the
// register is written (WSTRB per byte) and B is raised with OKAY, or SLVERR for an address that
// names no register. Reads: AR is accepted when no R is pending; R carries the register (SLVERR
// and 0 for an unknown address). One transaction per direction in flight; throughput one write
// per 3 cycles and one read per 2. A write of CTRL.start while the core is busy is ignored (the
// run in progress is not disturbed); the start pulse goes to the core in the cycle after the
// write. Status inputs (busy, done, cause, counters) come from the core, the instruction cache
// counters from sgu_icache.

`include "sgu_assert.svh"

module sgu_csr #(
  parameter int unsigned NumLanes       = 16,    // reported in CONFIG
  parameter int unsigned AxiDataWidth   = 64,    // reported in CONFIG
  parameter int unsigned ICacheBytes    = 1024,  // reported in ICACHE_CONFIG
  parameter int unsigned ICacheLineBytes = 64    // reported in ICACHE_CONFIG
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // AXI4-Lite slave.
  input  logic              aw_valid_i,
  output logic              aw_ready_o,
  input  logic [7:0]        aw_addr_i,
  input  logic              w_valid_i,
  output logic              w_ready_o,
  input  logic [31:0]       w_data_i,
  input  logic [3:0]        w_strb_i,
  output logic              b_valid_o,
  input  logic              b_ready_i,
  output logic [1:0]        b_resp_o,
  input  logic              ar_valid_i,
  output logic              ar_ready_o,
  input  logic [7:0]        ar_addr_i,
  output logic              r_valid_o,
  input  logic              r_ready_i,
  output logic [31:0]       r_data_o,
  output logic [1:0]        r_resp_o,
  // To the core.
  output logic              start_o,       // pulse: start a kernel
  output logic [31:0]       pc_start_o,
  output logic [31:0]       lanes_o,
  output logic [31:0]       mem_base_o,
  output logic [31:0]       mem_limit_o,
  output logic [31:0]       watchdog_o,
  output logic [7:0][31:0]  args_o,
  // From the core.
  input  logic              busy_i,
  input  logic              done_i,        // pulse: halt retired
  input  logic              trap_i,        // pulse: trap retired
  input  logic [7:0]        cause_i,       // with trap_i
  input  logic [31:0]       trap_pc_i,     // with trap_i
  input  logic [31:0]       trap_val_i,    // with trap_i
  input  logic [63:0]       cycles_i,
  input  logic [63:0]       instret_i,
  // From the instruction cache (performance counters, cleared at kernel start).
  input  logic [63:0]       icache_hits_i,
  input  logic [63:0]       icache_misses_i
);
  import sgu_isa_pkg::*;

  logic              aw_held_q, w_held_q, b_pend_q, r_pend_q;
  logic [7:0]        aw_addr_q;
  logic [31:0]       w_data_q;
  logic [3:0]        w_strb_q;
  logic [1:0]        b_resp_q, r_resp_q;
  logic [31:0]       r_data_q;
  logic              start_q;
  logic              done_q, trapped_q;
  logic [7:0]        cause_q;
  logic [31:0]       trap_pc_q, trap_val_q;
  logic [31:0]       pc_start_q, lanes_q, mem_base_q, mem_limit_q, watchdog_q;
  logic [7:0][31:0]  args_q;
  logic              do_write;
  logic [31:0]       rd_value;
  logic              rd_ok, wr_ok;

  function automatic logic [31:0] merge(logic [31:0] old, logic [31:0] data, logic [3:0] strb);
    logic [31:0] r;
    for (int b = 0; b < 4; b++) begin
      r[8*b +: 8] = strb[b] ? data[8*b +: 8] : old[8*b +: 8];
    end
    return r;
  endfunction

  assign aw_ready_o = !aw_held_q && !b_pend_q;
  assign w_ready_o  = !w_held_q && !b_pend_q;
  assign b_valid_o  = b_pend_q;
  assign b_resp_o   = b_resp_q;
  assign ar_ready_o = !r_pend_q;
  assign r_valid_o  = r_pend_q;
  assign r_data_o   = r_data_q;
  assign r_resp_o   = r_resp_q;
  assign do_write   = aw_held_q && w_held_q && !b_pend_q;

  // Register read mux.
  always_comb begin
    rd_ok = 1'b1;
    unique case (ar_addr_i)
      CsrCtrl:      rd_value = '0;
      CsrStatus:    rd_value = {29'd0, trapped_q, done_q, busy_i};
      CsrCause:     rd_value = {24'd0, cause_q};
      CsrTrapPc:    rd_value = trap_pc_q;
      CsrTrapVal:   rd_value = trap_val_q;
      CsrPcStart:   rd_value = pc_start_q;
      CsrLanes:     rd_value = lanes_q;
      CsrMemBase:   rd_value = mem_base_q;
      CsrMemLimit:  rd_value = mem_limit_q;
      CsrWatchdog:  rd_value = watchdog_q;
      CsrCyclesLo:  rd_value = cycles_i[31:0];
      CsrCyclesHi:  rd_value = cycles_i[63:32];
      CsrInstretLo: rd_value = instret_i[31:0];
      CsrInstretHi: rd_value = instret_i[63:32];
      CsrConfig:    rd_value = {8'(IsaVersion), 8'(MaskStackDepth), 8'(AxiDataWidth / 8),
                                8'(NumLanes)};
      CsrArg0, CsrArg1, CsrArg2, CsrArg3, CsrArg4, CsrArg5, CsrArg6, CsrArg7:
                    rd_value = args_q[ar_addr_i[4:2]];
      CsrIcacheConfig:   rd_value = {8'd1, 8'(ICacheLineBytes), 16'(ICacheBytes)};
      CsrIcacheHitsLo:   rd_value = icache_hits_i[31:0];
      CsrIcacheHitsHi:   rd_value = icache_hits_i[63:32];
      CsrIcacheMissesLo: rd_value = icache_misses_i[31:0];
      CsrIcacheMissesHi: rd_value = icache_misses_i[63:32];
      default: begin
        rd_value = '0;
        rd_ok    = 1'b0;
      end
    endcase
  end

  always_comb begin
    unique case (aw_addr_q)
      CsrCtrl, CsrPcStart, CsrLanes, CsrMemBase, CsrMemLimit, CsrWatchdog,
      CsrArg0, CsrArg1, CsrArg2, CsrArg3, CsrArg4, CsrArg5, CsrArg6, CsrArg7: wr_ok = 1'b1;
      default: wr_ok = 1'b0;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_held_q   <= 1'b0;
      w_held_q    <= 1'b0;
      b_pend_q    <= 1'b0;
      r_pend_q    <= 1'b0;
      aw_addr_q   <= '0;
      w_data_q    <= '0;
      w_strb_q    <= '0;
      b_resp_q    <= '0;
      r_resp_q    <= '0;
      r_data_q    <= '0;
      start_q     <= 1'b0;
      done_q      <= 1'b0;
      trapped_q   <= 1'b0;
      cause_q     <= '0;
      trap_pc_q   <= '0;
      trap_val_q  <= '0;
      pc_start_q  <= '0;
      lanes_q     <= '0;
      mem_base_q  <= '0;
      mem_limit_q <= '0;
      watchdog_q  <= '0;
      args_q      <= '0;
    end else begin
      start_q <= 1'b0;
      // Write address / data capture.
      if (aw_valid_i && aw_ready_o) begin
        aw_held_q <= 1'b1;
        aw_addr_q <= aw_addr_i;
      end
      if (w_valid_i && w_ready_o) begin
        w_held_q <= 1'b1;
        w_data_q <= w_data_i;
        w_strb_q <= w_strb_i;
      end
      if (do_write) begin
        aw_held_q <= 1'b0;
        w_held_q  <= 1'b0;
        b_pend_q  <= 1'b1;
        b_resp_q  <= wr_ok ? 2'b00 : 2'b10;
        unique case (aw_addr_q)
          CsrCtrl: begin
            if (w_strb_q[0] && w_data_q[0] && !busy_i) begin
              start_q   <= 1'b1;
              done_q    <= 1'b0;
              trapped_q <= 1'b0;
              cause_q   <= '0;
            end
            if (w_strb_q[0] && w_data_q[1]) begin
              done_q    <= 1'b0;
              trapped_q <= 1'b0;
              cause_q   <= '0;
            end
          end
          CsrPcStart:  pc_start_q  <= merge(pc_start_q, w_data_q, w_strb_q);
          CsrLanes:    lanes_q     <= merge(lanes_q, w_data_q, w_strb_q);
          CsrMemBase:  mem_base_q  <= merge(mem_base_q, w_data_q, w_strb_q);
          CsrMemLimit: mem_limit_q <= merge(mem_limit_q, w_data_q, w_strb_q);
          CsrWatchdog: watchdog_q  <= merge(watchdog_q, w_data_q, w_strb_q);
          CsrArg0, CsrArg1, CsrArg2, CsrArg3, CsrArg4, CsrArg5, CsrArg6, CsrArg7:
            args_q[aw_addr_q[4:2]] <= merge(args_q[aw_addr_q[4:2]], w_data_q, w_strb_q);
          default: ;
        endcase
      end
      if (b_pend_q && b_ready_i) begin
        b_pend_q <= 1'b0;
      end
      // Reads.
      if (ar_valid_i && ar_ready_o) begin
        r_pend_q <= 1'b1;
        r_data_q <= rd_value;
        r_resp_q <= rd_ok ? 2'b00 : 2'b10;
      end else if (r_pend_q && r_ready_i) begin
        r_pend_q <= 1'b0;
      end
      // Status from the core.
      if (done_i) begin
        done_q <= 1'b1;
      end
      if (trap_i) begin
        trapped_q  <= 1'b1;
        cause_q    <= cause_i;
        trap_pc_q  <= trap_pc_i;
        trap_val_q <= trap_val_i;
      end
    end
  end

  assign start_o     = start_q;
  assign pc_start_o  = pc_start_q;
  assign lanes_o     = lanes_q;
  assign mem_base_o  = mem_base_q;
  assign mem_limit_o = mem_limit_q;
  assign watchdog_o  = watchdog_q;
  assign args_o      = args_q;

  `SGU_ASSERT(BStable_A, b_valid_o && !b_ready_i |=> b_valid_o && $stable(b_resp_o))
  `SGU_ASSERT(RStable_A, r_valid_o && !r_ready_i |=> r_valid_o && $stable(r_data_o))

endmodule
