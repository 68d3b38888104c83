// SPDX-License-Identifier: Apache-2.0
// SGU board top for the ULX3S (ECP5-85F): the SGU, on-chip memory and a UART host link.
//
//   25 MHz osc --EHXPLLL--> clk (SysClkHz)
//   btn[0] (PWR, low when pressed) + PLL lock --> reset (asynchronous assert, synchronous
//                                                 release after 16 cycles)
//   ftdi_txd --> sgu_uart_axil --AXI4-Lite--> sgu_axil_slice --> sgu_axil_split
//   ftdi_rxd <--      (host)                    (registers)
//       sgu_axil_split --0x0000_0000 + MemBytes--> sgu_axi_bram host port
//                      --0x4000_0000 + 0xFF------> sgu_top CSRs
//   sgu_top --AXI4 master (64-bit)-----------------> sgu_axi_bram AXI4
//   led[0] busy  led[1] done  led[2] trap  led[3] heartbeat  led[4] UART rx  led[5] UART tx
//   led[6] PLL lock  led[7] reset held
//
// Address map seen by the host over the UART (docs/fpga.md): the memory at 0x0000_0000 (the SGU
// sees it at the same addresses: program, data, results), the SGU's AXI4-Lite registers at
// 0x4000_0000 (offsets of docs/isa.md "AXI4-Lite registers"); anything else answers DECERR.
// WithSgu = 0 builds the board without the SGU (UART, memory, LEDs): a bring-up image that
// also fits the smaller ECP5 parts; its register region then answers DECERR.
//
// Port names are the ULX3S's (fpga/ulx3s.lpf), not the _i/_o of the RTL. In simulation (no
// SYNTHESIS define) the PLL is bypassed: clk is clk_25mhz and the lock is immediate.

`include "sgu_assert.svh"

module ulx3s_top #(
  parameter int unsigned NumLanes       = 16,          // SGU SIMD width: 8, 16 or 32
  parameter int unsigned WithSgu        = 1,           // 0: board without the SGU (bring-up)
  // Lanes per multiply / FP unit (sgu_top): the board shares one MFU among 4 lanes at SIMD8
  // and among 8 at SIMD16 and SIMD32, so that SIMD16 fits the ECP5-85F within 80 % of its LUTs
  // (docs/timing.md "Whole core"; an FP or multiply instruction then takes 4 or 8 cycles in X).
  parameter int unsigned LanesPerMfu    = (NumLanes <= 8) ? 4 : 8,
  // The SGU's register file in block RAM (1) or distributed RAM (0): the block RAM build uses
  // fewer LUTs but does not route on the ECP5; the distributed RAM build does (docs/fpga.md
  // "Routing").
  parameter int unsigned RfBlockRam     = 0,
  parameter int unsigned MemBytes       = 65536,       // on-chip memory in bytes (power of 2)
  parameter int unsigned SysClkHz       = 50_000_000,  // clock after the PLL
  parameter int unsigned Baud           = 115_200,     // UART baud rate
  parameter int unsigned UartClksPerBit = SysClkHz / Baud,  // override for simulation
  parameter int unsigned UartTimeoutBits = 1000,       // UART frame timeout in bit times
  // EHXPLLL settings for SysClkHz from 25 MHz (yowasp-ecppll -i 25 -o 50): VCO = 25 MHz *
  // PllClkfbDiv * PllClkopDiv / PllClkiDiv must lie in 400..800 MHz.
  parameter int unsigned PllClkiDiv     = 1,
  parameter int unsigned PllClkfbDiv    = 2,
  parameter int unsigned PllClkopDiv    = 12,
  parameter int unsigned PllClkopCphase = 5
) (
  input  logic       clk_25mhz,   // 25 MHz oscillator (G2)
  input  logic [6:0] btn,         // btn[0] PWR (low when pressed): reset; btn[1..6] unused
  input  logic       ftdi_txd,    // UART from the host (FTDI TXD)
  output logic       ftdi_rxd,    // UART to the host (FTDI RXD)
  output logic [7:0] led,
  output logic       wifi_gpio0   // held high: keeps the ESP32 from resetting the board
);
  localparam int unsigned AxiDataWidth = 64;
  localparam int unsigned AxiIdWidth   = 4;

  // ---------------------------------------------------------------------------------------------
  // Clock and reset.
  logic clk, pll_locked;
`ifdef SYNTHESIS
  (* FREQUENCY_PIN_CLKI = "25" *)
  (* ICP_CURRENT = "12" *) (* LPF_RESISTOR = "8" *) (* MFG_ENABLE_FILTEROPAMP = "1" *)
  (* MFG_GMCREF_SEL = "2" *)
  EHXPLLL #(
    .PLLRST_ENA      ("DISABLED"),
    .INTFB_WAKE      ("DISABLED"),
    .STDBY_ENABLE    ("DISABLED"),
    .DPHASE_SOURCE   ("DISABLED"),
    .OUTDIVIDER_MUXA ("DIVA"),
    .OUTDIVIDER_MUXB ("DIVB"),
    .OUTDIVIDER_MUXC ("DIVC"),
    .OUTDIVIDER_MUXD ("DIVD"),
    .CLKI_DIV        (PllClkiDiv),
    .CLKOP_ENABLE    ("ENABLED"),
    .CLKOP_DIV       (PllClkopDiv),
    .CLKOP_CPHASE    (PllClkopCphase),
    .CLKOP_FPHASE    (0),
    .FEEDBK_PATH     ("CLKOP"),
    .CLKFB_DIV       (PllClkfbDiv)
  ) u_pll (
    .RST         (1'b0),
    .STDBY       (1'b0),
    .CLKI        (clk_25mhz),
    .CLKOP       (clk),
    .CLKFB       (clk),
    .CLKINTFB    (),
    .PHASESEL0   (1'b0),
    .PHASESEL1   (1'b0),
    .PHASEDIR    (1'b1),
    .PHASESTEP   (1'b1),
    .PHASELOADREG(1'b1),
    .PLLWAKESYNC (1'b0),
    .ENCLKOP     (1'b0),
    .LOCK        (pll_locked)
  );
`else
  assign clk        = clk_25mhz;
  assign pll_locked = 1'b1;
`endif

  // Reset: held while the PWR button is pressed or the PLL is not locked, released
  // synchronously 16 cycles later.
  logic       rst_req_n, rst_n;
  logic [4:0] rst_cnt_q, rst_cnt_d;
  assign rst_req_n = btn[0] && pll_locked;
  assign rst_cnt_d = rst_cnt_q + 5'd1;
  always_ff @(posedge clk or negedge rst_req_n) begin
    if (!rst_req_n) begin
      rst_cnt_q <= '0;
    end else if (!rst_cnt_q[4]) begin
      rst_cnt_q <= rst_cnt_d;
    end
  end
  assign rst_n = rst_cnt_q[4];

  // ---------------------------------------------------------------------------------------------
  // UART host bridge, a register slice, and the address split.
  logic        u_awvalid, u_awready, u_wvalid, u_wready, u_bvalid, u_bready;
  logic        u_arvalid, u_arready, u_rvalid, u_rready;
  logic [31:0] u_awaddr, u_wdata, u_araddr, u_rdata;
  logic [3:0]  u_wstrb;
  logic [1:0]  u_bresp, u_rresp;
  logic        h_awvalid, h_awready, h_wvalid, h_wready, h_bvalid, h_bready;
  logic        h_arvalid, h_arready, h_rvalid, h_rready;
  logic [31:0] h_awaddr, h_wdata, h_araddr, h_rdata;
  logic [3:0]  h_wstrb;
  logic [1:0]  h_bresp, h_rresp;
  logic        rx_byte, tx_busy;

  sgu_uart_axil #(
    .ClksPerBit (UartClksPerBit),
    .TimeoutBits(UartTimeoutBits)
  ) u_uart (
    .clk_i           (clk),
    .rst_ni          (rst_n),
    .rx_i            (ftdi_txd),
    .tx_o            (ftdi_rxd),
    .m_axil_awvalid_o(u_awvalid),
    .m_axil_awready_i(u_awready),
    .m_axil_awaddr_o (u_awaddr),
    .m_axil_wvalid_o (u_wvalid),
    .m_axil_wready_i (u_wready),
    .m_axil_wdata_o  (u_wdata),
    .m_axil_wstrb_o  (u_wstrb),
    .m_axil_bvalid_i (u_bvalid),
    .m_axil_bready_o (u_bready),
    .m_axil_bresp_i  (u_bresp),
    .m_axil_arvalid_o(u_arvalid),
    .m_axil_arready_i(u_arready),
    .m_axil_araddr_o (u_araddr),
    .m_axil_rvalid_i (u_rvalid),
    .m_axil_rready_o (u_rready),
    .m_axil_rdata_i  (u_rdata),
    .m_axil_rresp_i  (u_rresp),
    .rx_byte_o       (rx_byte),
    .tx_busy_o       (tx_busy)
  );

  // Registers on every channel between the bridge and the split: the bridge's state machine
  // no longer takes the memory's ready and responses through the split's combinational
  // routing (on the SIMD16 board the placer spread the bridge's few cells around the SGU, and
  // that path was the worst of the placement: docs/timing.md, twelfth session).
  sgu_axil_slice u_slice (
    .clk_i      (clk),
    .rst_ni     (rst_n),
    .s_awvalid_i(u_awvalid),
    .s_awready_o(u_awready),
    .s_awaddr_i (u_awaddr),
    .s_wvalid_i (u_wvalid),
    .s_wready_o (u_wready),
    .s_wdata_i  (u_wdata),
    .s_wstrb_i  (u_wstrb),
    .s_bvalid_o (u_bvalid),
    .s_bready_i (u_bready),
    .s_bresp_o  (u_bresp),
    .s_arvalid_i(u_arvalid),
    .s_arready_o(u_arready),
    .s_araddr_i (u_araddr),
    .s_rvalid_o (u_rvalid),
    .s_rready_i (u_rready),
    .s_rdata_o  (u_rdata),
    .s_rresp_o  (u_rresp),
    .m_awvalid_o(h_awvalid),
    .m_awready_i(h_awready),
    .m_awaddr_o (h_awaddr),
    .m_wvalid_o (h_wvalid),
    .m_wready_i (h_wready),
    .m_wdata_o  (h_wdata),
    .m_wstrb_o  (h_wstrb),
    .m_bvalid_i (h_bvalid),
    .m_bready_o (h_bready),
    .m_bresp_i  (h_bresp),
    .m_arvalid_o(h_arvalid),
    .m_arready_i(h_arready),
    .m_araddr_o (h_araddr),
    .m_rvalid_i (h_rvalid),
    .m_rready_o (h_rready),
    .m_rdata_i  (h_rdata),
    .m_rresp_i  (h_rresp)
  );

  // Port 0: memory; port 1: SGU registers.
  logic [1:0]       p_awvalid, p_awready, p_wvalid, p_wready, p_bvalid, p_bready;
  logic [1:0]       p_arvalid, p_arready, p_rvalid, p_rready;
  logic [31:0]      p_awaddr, p_wdata, p_araddr;
  logic [3:0]       p_wstrb;
  logic [1:0][1:0]  p_bresp, p_rresp;
  logic [1:0][31:0] p_rdata;

  sgu_axil_split #(
    .Base0(32'h0000_0000),
    .Mask0(~(32'(MemBytes) - 32'd1)),
    .Base1(WithSgu != 0 ? 32'h4000_0000 : 32'h0000_0001),  // without the SGU: never matches
    .Mask1(WithSgu != 0 ? 32'hFFFF_FF00 : 32'h0000_0000)
  ) u_split (
    .clk_i      (clk),
    .rst_ni     (rst_n),
    .s_awvalid_i(h_awvalid),
    .s_awready_o(h_awready),
    .s_awaddr_i (h_awaddr),
    .s_wvalid_i (h_wvalid),
    .s_wready_o (h_wready),
    .s_wdata_i  (h_wdata),
    .s_wstrb_i  (h_wstrb),
    .s_bvalid_o (h_bvalid),
    .s_bready_i (h_bready),
    .s_bresp_o  (h_bresp),
    .s_arvalid_i(h_arvalid),
    .s_arready_o(h_arready),
    .s_araddr_i (h_araddr),
    .s_rvalid_o (h_rvalid),
    .s_rready_i (h_rready),
    .s_rdata_o  (h_rdata),
    .s_rresp_o  (h_rresp),
    .m_awvalid_o(p_awvalid),
    .m_awready_i(p_awready),
    .m_awaddr_o (p_awaddr),
    .m_wvalid_o (p_wvalid),
    .m_wready_i (p_wready),
    .m_wdata_o  (p_wdata),
    .m_wstrb_o  (p_wstrb),
    .m_bvalid_i (p_bvalid),
    .m_bready_o (p_bready),
    .m_bresp_i  (p_bresp),
    .m_arvalid_o(p_arvalid),
    .m_arready_i(p_arready),
    .m_araddr_o (p_araddr),
    .m_rvalid_i (p_rvalid),
    .m_rready_o (p_rready),
    .m_rdata_i  (p_rdata),
    .m_rresp_i  (p_rresp)
  );

  // ---------------------------------------------------------------------------------------------
  // The SGU's AXI4 master to the memory.
  logic                      m_awvalid, m_awready, m_wvalid, m_wready, m_wlast, m_bvalid, m_bready;
  logic                      m_arvalid, m_arready, m_rvalid, m_rready, m_rlast;
  logic [AxiIdWidth-1:0]     m_awid, m_bid, m_arid, m_rid;
  logic [31:0]               m_awaddr, m_araddr;
  logic [7:0]                m_awlen, m_arlen;
  logic [2:0]                m_awsize, m_arsize;
  logic [1:0]                m_awburst, m_arburst, m_bresp, m_rresp;
  logic [AxiDataWidth-1:0]   m_wdata, m_rdata;
  logic [AxiDataWidth/8-1:0] m_wstrb;
  logic                      sgu_irq, retire, retire_halt, retire_trap;

  if (WithSgu != 0) begin : gen_sgu
    // The retire port is for verification; only the record's valid, halt and trap bits are
    // used here (the LEDs), so synthesis removes the rest.
    logic                       rvfi_valid, rvfi_trap, rvfi_halt, rvfi_rd_we, rvfi_rd_pair;
    logic [63:0]                rvfi_order, rvfi_insn;
    logic [31:0]                rvfi_pc, rvfi_tval;
    logic [7:0]                 rvfi_cause;
    logic [5:0]                 rvfi_rd;
    logic [NumLanes-1:0]        rvfi_lane_mask, rvfi_exec;
    logic [NumLanes-1:0][31:0]  rvfi_data_lo, rvfi_data_hi;
    logic                       unused_rvfi;

    sgu_top #(
      .NumLanes    (NumLanes),
      .AxiDataWidth(AxiDataWidth),
      .AxiIdWidth  (AxiIdWidth),
      .LanesPerMfu (LanesPerMfu),
      .RfBlockRam  (RfBlockRam)
    ) u_sgu (
      .clk_i           (clk),
      .rst_ni          (rst_n),
      .irq_o           (sgu_irq),
      .s_axil_awvalid_i(p_awvalid[1]),
      .s_axil_awready_o(p_awready[1]),
      .s_axil_awaddr_i (p_awaddr[7:0]),
      .s_axil_wvalid_i (p_wvalid[1]),
      .s_axil_wready_o (p_wready[1]),
      .s_axil_wdata_i  (p_wdata),
      .s_axil_wstrb_i  (p_wstrb),
      .s_axil_bvalid_o (p_bvalid[1]),
      .s_axil_bready_i (p_bready[1]),
      .s_axil_bresp_o  (p_bresp[1]),
      .s_axil_arvalid_i(p_arvalid[1]),
      .s_axil_arready_o(p_arready[1]),
      .s_axil_araddr_i (p_araddr[7:0]),
      .s_axil_rvalid_o (p_rvalid[1]),
      .s_axil_rready_i (p_rready[1]),
      .s_axil_rdata_o  (p_rdata[1]),
      .s_axil_rresp_o  (p_rresp[1]),
      .m_axi_arvalid_o (m_arvalid),
      .m_axi_arready_i (m_arready),
      .m_axi_arid_o    (m_arid),
      .m_axi_araddr_o  (m_araddr),
      .m_axi_arlen_o   (m_arlen),
      .m_axi_arsize_o  (m_arsize),
      .m_axi_arburst_o (m_arburst),
      .m_axi_rvalid_i  (m_rvalid),
      .m_axi_rready_o  (m_rready),
      .m_axi_rid_i     (m_rid),
      .m_axi_rdata_i   (m_rdata),
      .m_axi_rresp_i   (m_rresp),
      .m_axi_rlast_i   (m_rlast),
      .m_axi_awvalid_o (m_awvalid),
      .m_axi_awready_i (m_awready),
      .m_axi_awid_o    (m_awid),
      .m_axi_awaddr_o  (m_awaddr),
      .m_axi_awlen_o   (m_awlen),
      .m_axi_awsize_o  (m_awsize),
      .m_axi_awburst_o (m_awburst),
      .m_axi_wvalid_o  (m_wvalid),
      .m_axi_wready_i  (m_wready),
      .m_axi_wdata_o   (m_wdata),
      .m_axi_wstrb_o   (m_wstrb),
      .m_axi_wlast_o   (m_wlast),
      .m_axi_bvalid_i  (m_bvalid),
      .m_axi_bready_o  (m_bready),
      .m_axi_bid_i     (m_bid),
      .m_axi_bresp_i   (m_bresp),
      .rvfi_valid_o    (rvfi_valid),
      .rvfi_order_o    (rvfi_order),
      .rvfi_pc_o       (rvfi_pc),
      .rvfi_insn_o     (rvfi_insn),
      .rvfi_trap_o     (rvfi_trap),
      .rvfi_cause_o    (rvfi_cause),
      .rvfi_tval_o     (rvfi_tval),
      .rvfi_halt_o     (rvfi_halt),
      .rvfi_rd_we_o    (rvfi_rd_we),
      .rvfi_rd_o       (rvfi_rd),
      .rvfi_rd_pair_o  (rvfi_rd_pair),
      .rvfi_lane_mask_o(rvfi_lane_mask),
      .rvfi_data_lo_o  (rvfi_data_lo),
      .rvfi_data_hi_o  (rvfi_data_hi),
      .rvfi_exec_o     (rvfi_exec)
    );
    assign retire      = rvfi_valid;
    assign retire_halt = rvfi_halt;
    assign retire_trap = rvfi_trap;
    assign unused_rvfi = ^{rvfi_order, rvfi_insn, rvfi_pc, rvfi_tval, rvfi_cause, rvfi_rd,
                           rvfi_rd_we, rvfi_rd_pair, rvfi_lane_mask, rvfi_exec, rvfi_data_lo,
                           rvfi_data_hi};
  end else begin : gen_no_sgu
    assign sgu_irq     = 1'b0;
    assign retire      = 1'b0;
    assign retire_halt = 1'b0;
    assign retire_trap = 1'b0;
    // The register region is not decoded (Mask1 matches nothing): port 1 is idle.
    assign p_awready[1] = 1'b0;
    assign p_wready[1]  = 1'b0;
    assign p_bvalid[1]  = 1'b0;
    assign p_bresp[1]   = 2'b11;
    assign p_arready[1] = 1'b0;
    assign p_rvalid[1]  = 1'b0;
    assign p_rdata[1]   = '0;
    assign p_rresp[1]   = 2'b11;
    // No AXI4 master.
    assign m_awvalid = 1'b0;
    assign m_awid    = '0;
    assign m_awaddr  = '0;
    assign m_awlen   = '0;
    assign m_awsize  = '0;
    assign m_awburst = '0;
    assign m_wvalid  = 1'b0;
    assign m_wdata   = '0;
    assign m_wstrb   = '0;
    assign m_wlast   = 1'b0;
    assign m_bready  = 1'b0;
    assign m_arvalid = 1'b0;
    assign m_arid    = '0;
    assign m_araddr  = '0;
    assign m_arlen   = '0;
    assign m_arsize  = '0;
    assign m_arburst = '0;
    assign m_rready  = 1'b0;
    logic unused_no_sgu;
    assign unused_no_sgu = ^{p_awvalid[1], p_wvalid[1], p_bready[1], p_arvalid[1], p_rready[1],
                             m_awready, m_wready, m_bvalid, m_bid, m_bresp, m_arready, m_rvalid,
                             m_rid, m_rdata, m_rresp, m_rlast};
  end

  sgu_axi_bram #(
    .DataWidth(AxiDataWidth),
    .IdWidth  (AxiIdWidth),
    .SizeBytes(MemBytes),
    .BaseAddr (32'h0000_0000)
  ) u_mem (
    .clk_i           (clk),
    .rst_ni          (rst_n),
    .s_axi_awvalid_i (m_awvalid),
    .s_axi_awready_o (m_awready),
    .s_axi_awid_i    (m_awid),
    .s_axi_awaddr_i  (m_awaddr),
    .s_axi_awlen_i   (m_awlen),
    .s_axi_awsize_i  (m_awsize),
    .s_axi_awburst_i (m_awburst),
    .s_axi_wvalid_i  (m_wvalid),
    .s_axi_wready_o  (m_wready),
    .s_axi_wdata_i   (m_wdata),
    .s_axi_wstrb_i   (m_wstrb),
    .s_axi_wlast_i   (m_wlast),
    .s_axi_bvalid_o  (m_bvalid),
    .s_axi_bready_i  (m_bready),
    .s_axi_bid_o     (m_bid),
    .s_axi_bresp_o   (m_bresp),
    .s_axi_arvalid_i (m_arvalid),
    .s_axi_arready_o (m_arready),
    .s_axi_arid_i    (m_arid),
    .s_axi_araddr_i  (m_araddr),
    .s_axi_arlen_i   (m_arlen),
    .s_axi_arsize_i  (m_arsize),
    .s_axi_arburst_i (m_arburst),
    .s_axi_rvalid_o  (m_rvalid),
    .s_axi_rready_i  (m_rready),
    .s_axi_rid_o     (m_rid),
    .s_axi_rdata_o   (m_rdata),
    .s_axi_rresp_o   (m_rresp),
    .s_axi_rlast_o   (m_rlast),
    .s_axil_awvalid_i(p_awvalid[0]),
    .s_axil_awready_o(p_awready[0]),
    .s_axil_awaddr_i (p_awaddr),
    .s_axil_wvalid_i (p_wvalid[0]),
    .s_axil_wready_o (p_wready[0]),
    .s_axil_wdata_i  (p_wdata),
    .s_axil_wstrb_i  (p_wstrb),
    .s_axil_bvalid_o (p_bvalid[0]),
    .s_axil_bready_i (p_bready[0]),
    .s_axil_bresp_o  (p_bresp[0]),
    .s_axil_arvalid_i(p_arvalid[0]),
    .s_axil_arready_o(p_arready[0]),
    .s_axil_araddr_i (p_araddr),
    .s_axil_rvalid_o (p_rvalid[0]),
    .s_axil_rready_i (p_rready[0]),
    .s_axil_rdata_o  (p_rdata[0]),
    .s_axil_rresp_o  (p_rresp[0])
  );

  // ---------------------------------------------------------------------------------------------
  // Status LEDs. A run is in progress from a host write of CTRL.start until the SGU's interrupt;
  // done and trap come from the retire record that ended it, and clear at the next start.
  logic        start_wr;
  logic        running_q, running_d, done_q, done_d, trap_q, trap_d;
  logic [24:0] beat_q, beat_d;
  logic [20:0] rx_led_q, rx_led_d, tx_led_q, tx_led_d;  // activity stretched to ~40 ms at 50 MHz

  assign start_wr = p_awvalid[1] && p_awready[1] && p_awaddr[7:0] == sgu_isa_pkg::CsrCtrl &&
                    p_wstrb[0] && p_wdata[0];

  always_comb begin
    running_d = running_q;
    done_d    = done_q;
    trap_d    = trap_q;
    if (start_wr) begin
      running_d = 1'b1;
      done_d    = 1'b0;
      trap_d    = 1'b0;
    end else if (sgu_irq) begin
      running_d = 1'b0;
    end
    if (retire && retire_halt) begin
      done_d = 1'b1;
    end
    if (retire && retire_trap) begin
      trap_d = 1'b1;
    end
    beat_d   = beat_q + 1'b1;
    rx_led_d = rx_byte ? '1 : (rx_led_q != '0 ? rx_led_q - 1'b1 : rx_led_q);
    tx_led_d = tx_busy ? '1 : (tx_led_q != '0 ? tx_led_q - 1'b1 : tx_led_q);
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      running_q <= 1'b0;
      done_q    <= 1'b0;
      trap_q    <= 1'b0;
      beat_q    <= '0;
      rx_led_q  <= '0;
      tx_led_q  <= '0;
    end else begin
      running_q <= running_d;
      done_q    <= done_d;
      trap_q    <= trap_d;
      beat_q    <= beat_d;
      rx_led_q  <= rx_led_d;
      tx_led_q  <= tx_led_d;
    end
  end

  assign led[0]     = running_q;
  assign led[1]     = done_q;
  assign led[2]     = trap_q;
  assign led[3]     = beat_q[24];
  assign led[4]     = rx_led_q != '0;
  assign led[5]     = tx_led_q != '0;
  assign led[6]     = pll_locked;
  assign led[7]     = !rst_n;
  assign wifi_gpio0 = 1'b1;

  logic unused;
  assign unused = ^{btn[6:1], p_awaddr[31:8], p_araddr[31:8]};

  `SGU_ASSERT_INIT(WithSgu_A, WithSgu <= 1)
  `SGU_ASSERT_INIT(Uart_A, Baud > 0 && SysClkHz / Baud >= 4 && UartClksPerBit >= 4)
  `SGU_ASSERT_INIT(MemBytes_A, MemBytes >= 1024 && (MemBytes & (MemBytes - 1)) == 0 &&
                               MemBytes <= 32'h1000_0000)

endmodule
