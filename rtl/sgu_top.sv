// SPDX-License-Identifier: Apache-2.0
// SGU top level: core, instruction fetch, load/store unit, AXI4 master, AXI4-Lite slave.
//
// Block diagram (docs/architecture.md):
//
//   AXI4-Lite --> sgu_csr --start/args--> sgu_core --retire port--> rvfi_*
//                    ^  status/counters     |   \
//                    +----------------------+    +--> sgu_lsu ---AR/R, AW/W/B--+
//                                           |                                  +--> AXI4 master
//                                           +--> sgu_icache -AR/R (bursts)-----+
//                                                 (sgu_axi_rd_mux shares AR/R)
//
// The AXI4 master uses ID 0 for every transaction, INCR bursts of one instruction cache line
// (ICacheLineBytes, 64 by default) for instruction fetch and single beats for loads and stores;
// it never has more than one read and one write in flight.

`include "sgu_assert.svh"

module sgu_top #(
  parameter int unsigned NumLanes     = 16,  // SIMD width: 8, 16 or 32
  parameter int unsigned AxiDataWidth = 64,  // AXI4 data width in bits: 64, 128, 256 or 512
  parameter int unsigned AxiIdWidth   = 4,   // AXI4 ID width
  parameter int unsigned ICacheBytes  = 1024,  // instruction cache size: power of two, 256..8192
  parameter int unsigned ICacheLineBytes = 64,  // its line: power of two, AxiDataWidth/8..64
  parameter int unsigned LanesPerMfu  = 1,  // lanes sharing one multiply / FP unit: 1, 2, 4 or 8
  parameter int unsigned RfBlockRam   = 1   // register file in block RAM (1) or distributed RAM (0)
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  output logic                              irq_o,           // level: run finished (done or trap)
  // AXI4-Lite slave: control and status registers.
  input  logic                              s_axil_awvalid_i,
  output logic                              s_axil_awready_o,
  input  logic [7:0]                        s_axil_awaddr_i,
  input  logic                              s_axil_wvalid_i,
  output logic                              s_axil_wready_o,
  input  logic [31:0]                       s_axil_wdata_i,
  input  logic [3:0]                        s_axil_wstrb_i,
  output logic                              s_axil_bvalid_o,
  input  logic                              s_axil_bready_i,
  output logic [1:0]                        s_axil_bresp_o,
  input  logic                              s_axil_arvalid_i,
  output logic                              s_axil_arready_o,
  input  logic [7:0]                        s_axil_araddr_i,
  output logic                              s_axil_rvalid_o,
  input  logic                              s_axil_rready_i,
  output logic [31:0]                       s_axil_rdata_o,
  output logic [1:0]                        s_axil_rresp_o,
  // AXI4 master: memory.
  output logic                              m_axi_arvalid_o,
  input  logic                              m_axi_arready_i,
  output logic [AxiIdWidth-1:0]             m_axi_arid_o,
  output logic [31:0]                       m_axi_araddr_o,
  output logic [7:0]                        m_axi_arlen_o,
  output logic [2:0]                        m_axi_arsize_o,
  output logic [1:0]                        m_axi_arburst_o,
  input  logic                              m_axi_rvalid_i,
  output logic                              m_axi_rready_o,
  input  logic [AxiIdWidth-1:0]             m_axi_rid_i,
  input  logic [AxiDataWidth-1:0]           m_axi_rdata_i,
  input  logic [1:0]                        m_axi_rresp_i,
  input  logic                              m_axi_rlast_i,
  output logic                              m_axi_awvalid_o,
  input  logic                              m_axi_awready_i,
  output logic [AxiIdWidth-1:0]             m_axi_awid_o,
  output logic [31:0]                       m_axi_awaddr_o,
  output logic [7:0]                        m_axi_awlen_o,
  output logic [2:0]                        m_axi_awsize_o,
  output logic [1:0]                        m_axi_awburst_o,
  output logic                              m_axi_wvalid_o,
  input  logic                              m_axi_wready_i,
  output logic [AxiDataWidth-1:0]           m_axi_wdata_o,
  output logic [AxiDataWidth/8-1:0]         m_axi_wstrb_o,
  output logic                              m_axi_wlast_o,
  input  logic                              m_axi_bvalid_i,
  output logic                              m_axi_bready_o,
  input  logic [AxiIdWidth-1:0]             m_axi_bid_i,
  input  logic [1:0]                        m_axi_bresp_i,
  // Retire port (see sgu_core).
  output logic                              rvfi_valid_o,
  output logic [63:0]                       rvfi_order_o,
  output logic [31:0]                       rvfi_pc_o,
  output logic [63:0]                       rvfi_insn_o,
  output logic                              rvfi_trap_o,
  output logic [7:0]                        rvfi_cause_o,
  output logic [31:0]                       rvfi_tval_o,
  output logic                              rvfi_halt_o,
  output logic                              rvfi_rd_we_o,
  output logic [5:0]                        rvfi_rd_o,
  output logic                              rvfi_rd_pair_o,
  output logic [NumLanes-1:0]               rvfi_lane_mask_o,
  output logic [NumLanes-1:0][31:0]         rvfi_data_lo_o,
  output logic [NumLanes-1:0][31:0]         rvfi_data_hi_o,
  output logic [NumLanes-1:0]               rvfi_exec_o
);

  // CSR <-> core.
  logic             start, busy, done, trap;
  logic [31:0]      pc_start, lanes, mem_base, mem_limit, watchdog, trap_pc, trap_val;
  logic [7:0][31:0] args;
  logic [7:0]       cause;
  logic [63:0]      cycles, instret, icache_hits, icache_misses;

  sgu_csr #(
    .NumLanes       (NumLanes),
    .AxiDataWidth   (AxiDataWidth),
    .ICacheBytes    (ICacheBytes),
    .ICacheLineBytes(ICacheLineBytes)
  ) u_csr (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .aw_valid_i (s_axil_awvalid_i),
    .aw_ready_o (s_axil_awready_o),
    .aw_addr_i  (s_axil_awaddr_i),
    .w_valid_i  (s_axil_wvalid_i),
    .w_ready_o  (s_axil_wready_o),
    .w_data_i   (s_axil_wdata_i),
    .w_strb_i   (s_axil_wstrb_i),
    .b_valid_o  (s_axil_bvalid_o),
    .b_ready_i  (s_axil_bready_i),
    .b_resp_o   (s_axil_bresp_o),
    .ar_valid_i (s_axil_arvalid_i),
    .ar_ready_o (s_axil_arready_o),
    .ar_addr_i  (s_axil_araddr_i),
    .r_valid_o  (s_axil_rvalid_o),
    .r_ready_i  (s_axil_rready_i),
    .r_data_o   (s_axil_rdata_o),
    .r_resp_o   (s_axil_rresp_o),
    .start_o    (start),
    .pc_start_o (pc_start),
    .lanes_o    (lanes),
    .mem_base_o (mem_base),
    .mem_limit_o(mem_limit),
    .watchdog_o (watchdog),
    .args_o     (args),
    .busy_i     (busy),
    .done_i     (done),
    .trap_i     (trap),
    .cause_i    (cause),
    .trap_pc_i  (trap_pc),
    .trap_val_i (trap_val),
    .cycles_i       (cycles),
    .instret_i      (instret),
    .icache_hits_i  (icache_hits),
    .icache_misses_i(icache_misses)
  );

  // Core <-> fetch, LSU.
  logic                          fetch_flush, fetch_req, fetch_valid, fetch_err;
  logic [31:0]                   fetch_pc;
  logic [63:0]                   fetch_insn;
  sgu_pkg::predec_t              fetch_pre;
  logic                          lsu_chk, lsu_ld, lsu_req, lsu_store, lsu_once;
  logic                          lsu_fault, lsu_fault_misaligned;
  logic                          lsu_busy, lsu_done, lsu_bus_err;
  logic [1:0]                    lsu_size_log2;
  logic [3:0]                    lsu_dt;
  logic [NumLanes-1:0]           lsu_lanes;
  logic [NumLanes-1:0][31:0]     lsu_addr;
  logic [NumLanes-1:0][63:0]     lsu_wdata, lsu_rdata;
  logic [31:0]                   lsu_fault_addr, lsu_err_addr;
  logic                          lsu_checked;

  sgu_core #(
    .NumLanes   (NumLanes),
    .LanesPerMfu(LanesPerMfu),
    .RfBlockRam (RfBlockRam)
  ) u_core (
    .clk_i                 (clk_i),
    .rst_ni                (rst_ni),
    .start_i               (start),
    .pc_start_i            (pc_start),
    .lanes_i               (lanes),
    .mem_base_i            (mem_base),
    .mem_limit_i           (mem_limit),
    .watchdog_i            (watchdog),
    .args_i                (args),
    .busy_o                (busy),
    .done_o                (done),
    .trap_o                (trap),
    .cause_o               (cause),
    .trap_pc_o             (trap_pc),
    .trap_val_o            (trap_val),
    .cycles_o              (cycles),
    .instret_o             (instret),
    .fetch_flush_o         (fetch_flush),
    .fetch_req_o           (fetch_req),
    .fetch_pc_o            (fetch_pc),
    .fetch_valid_i         (fetch_valid),
    .fetch_insn_i          (fetch_insn),
    .fetch_pre_i           (fetch_pre),
    .fetch_err_i           (fetch_err),
    .lsu_chk_o             (lsu_chk),
    .lsu_ld_o              (lsu_ld),
    .lsu_req_o             (lsu_req),
    .lsu_store_o           (lsu_store),
    .lsu_size_log2_o       (lsu_size_log2),
    .lsu_dt_o              (lsu_dt),
    .lsu_once_o            (lsu_once),
    .lsu_lanes_o           (lsu_lanes),
    .lsu_addr_o            (lsu_addr),
    .lsu_wdata_o           (lsu_wdata),
    .lsu_fault_i           (lsu_fault),
    .lsu_fault_misaligned_i(lsu_fault_misaligned),
    .lsu_fault_addr_i      (lsu_fault_addr),
    .lsu_checked_i         (lsu_checked),
    .lsu_done_i            (lsu_done),
    .lsu_bus_err_i         (lsu_bus_err),
    .lsu_err_addr_i        (lsu_err_addr),
    .lsu_rdata_i           (lsu_rdata),
    .rvfi_valid_o          (rvfi_valid_o),
    .rvfi_order_o          (rvfi_order_o),
    .rvfi_pc_o             (rvfi_pc_o),
    .rvfi_insn_o           (rvfi_insn_o),
    .rvfi_trap_o           (rvfi_trap_o),
    .rvfi_cause_o          (rvfi_cause_o),
    .rvfi_tval_o           (rvfi_tval_o),
    .rvfi_halt_o           (rvfi_halt_o),
    .rvfi_rd_we_o          (rvfi_rd_we_o),
    .rvfi_rd_o             (rvfi_rd_o),
    .rvfi_rd_pair_o        (rvfi_rd_pair_o),
    .rvfi_lane_mask_o      (rvfi_lane_mask_o),
    .rvfi_data_lo_o        (rvfi_data_lo_o),
    .rvfi_data_hi_o        (rvfi_data_hi_o),
    .rvfi_exec_o           (rvfi_exec_o)
  );

  // Fetch and LSU read channels, shared through the multiplexer.
  logic        f_ar_valid, f_ar_ready, f_r_valid, f_r_ready;
  logic [31:0] f_ar_addr;
  logic [7:0]  f_ar_len;
  logic [2:0]  f_ar_size;
  logic        l_ar_valid, l_ar_ready, l_r_valid, l_r_ready;
  logic [31:0] l_ar_addr;
  logic [2:0]  l_ar_size;

  sgu_icache #(
    .NumLanes    (NumLanes),
    .AxiDataWidth(AxiDataWidth),
    .CacheBytes  (ICacheBytes),
    .LineBytes   (ICacheLineBytes)
  ) u_icache (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .flush_i   (fetch_flush),
    .req_i     (fetch_req),
    .pc_i      (fetch_pc),
    .valid_o   (fetch_valid),
    .insn_o    (fetch_insn),
    .pre_o     (fetch_pre),
    .bus_err_o (fetch_err),
    .hits_o    (icache_hits),
    .misses_o  (icache_misses),
    .ar_valid_o(f_ar_valid),
    .ar_ready_i(f_ar_ready),
    .ar_addr_o (f_ar_addr),
    .ar_len_o  (f_ar_len),
    .ar_size_o (f_ar_size),
    .r_valid_i (f_r_valid),
    .r_ready_o (f_r_ready),
    .r_data_i  (m_axi_rdata_i),
    .r_resp_i  (m_axi_rresp_i),
    .r_last_i  (m_axi_rlast_i)
  );

  sgu_lsu #(
    .NumLanes    (NumLanes),
    .AxiDataWidth(AxiDataWidth)
  ) u_lsu (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .chk_i             (lsu_chk),
    .ld_i              (lsu_ld),
    .req_i             (lsu_req),
    .store_i           (lsu_store),
    .size_log2_i       (lsu_size_log2),
    .dt_i              (lsu_dt),
    .once_i            (lsu_once),
    .lanes_i           (lsu_lanes),
    .addr_i            (lsu_addr),
    .wdata_i           (lsu_wdata),
    .mem_base_i        (mem_base),
    .mem_limit_i       (mem_limit),
    .fault_o           (lsu_fault),
    .fault_misaligned_o(lsu_fault_misaligned),
    .fault_addr_o      (lsu_fault_addr),
    .checked_o         (lsu_checked),
    .busy_o            (lsu_busy),
    .done_o            (lsu_done),
    .bus_err_o         (lsu_bus_err),
    .err_addr_o        (lsu_err_addr),
    .rdata_o           (lsu_rdata),
    .ar_valid_o        (l_ar_valid),
    .ar_ready_i        (l_ar_ready),
    .ar_addr_o         (l_ar_addr),
    .ar_size_o         (l_ar_size),
    .r_valid_i         (l_r_valid),
    .r_ready_o         (l_r_ready),
    .r_data_i          (m_axi_rdata_i),
    .r_resp_i          (m_axi_rresp_i),
    .aw_valid_o        (m_axi_awvalid_o),
    .aw_ready_i        (m_axi_awready_i),
    .aw_addr_o         (m_axi_awaddr_o),
    .aw_size_o         (m_axi_awsize_o),
    .w_valid_o         (m_axi_wvalid_o),
    .w_ready_i         (m_axi_wready_i),
    .w_data_o          (m_axi_wdata_o),
    .w_strb_o          (m_axi_wstrb_o),
    .b_valid_i         (m_axi_bvalid_i),
    .b_ready_o         (m_axi_bready_o),
    .b_resp_i          (m_axi_bresp_i)
  );

  sgu_axi_rd_mux u_rd_mux (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .f_ar_valid_i(f_ar_valid),
    .f_ar_ready_o(f_ar_ready),
    .f_ar_addr_i (f_ar_addr),
    .f_ar_len_i  (f_ar_len),
    .f_ar_size_i (f_ar_size),
    .f_r_valid_o (f_r_valid),
    .f_r_ready_i (f_r_ready),
    .l_ar_valid_i(l_ar_valid),
    .l_ar_ready_o(l_ar_ready),
    .l_ar_addr_i (l_ar_addr),
    .l_ar_size_i (l_ar_size),
    .l_r_valid_o (l_r_valid),
    .l_r_ready_i (l_r_ready),
    .ar_valid_o  (m_axi_arvalid_o),
    .ar_ready_i  (m_axi_arready_i),
    .ar_addr_o   (m_axi_araddr_o),
    .ar_len_o    (m_axi_arlen_o),
    .ar_size_o   (m_axi_arsize_o),
    .r_valid_i   (m_axi_rvalid_i),
    .r_ready_o   (m_axi_rready_o),
    .r_last_i    (m_axi_rlast_i)
  );

  assign m_axi_arid_o    = '0;
  assign m_axi_arburst_o = 2'b01;  // INCR
  assign m_axi_awid_o    = '0;
  assign m_axi_awlen_o   = 8'd0;
  assign m_axi_awburst_o = 2'b01;
  assign m_axi_wlast_o   = 1'b1;   // single-beat writes

  // irq: a run has finished and its status has not been cleared.
  logic irq_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      irq_q <= 1'b0;
    end else if (start) begin
      irq_q <= 1'b0;
    end else if (done || trap) begin
      irq_q <= 1'b1;
    end
  end
  assign irq_o = irq_q;

  logic unused;
  assign unused = lsu_busy ^ ^m_axi_rid_i ^ ^m_axi_bid_i;

  `SGU_ASSERT_INIT(NumLanes_A, NumLanes == 8 || NumLanes == 16 || NumLanes == 32)
  `SGU_ASSERT_INIT(AxiDataWidth_A, AxiDataWidth == 64 || AxiDataWidth == 128 ||
                                   AxiDataWidth == 256 || AxiDataWidth == 512)
  `SGU_ASSERT(ArStable_A, m_axi_arvalid_o && !m_axi_arready_i |=>
                          m_axi_arvalid_o && $stable(m_axi_araddr_o) && $stable(m_axi_arlen_o))
  `SGU_ASSERT(RdataKnown_A, m_axi_rvalid_i |-> !$isunknown(m_axi_rresp_i))

endmodule
