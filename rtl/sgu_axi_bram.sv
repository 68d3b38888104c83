// SPDX-License-Identifier: Apache-2.0
// SGU on-chip memory: an AXI4 slave (bursts, byte strobes) and an AXI4-Lite host port over one
// inferred single-port block RAM, for programs and data on an FPGA board.
//
// Memory: SizeBytes bytes at [BaseAddr, BaseAddr + SizeBytes), DataWidth bits per RAM word, byte
// write enables; synchronous read (maps to ECP5 DP16KD block RAM). Contents are not reset.
//
// AXI4 slave (s_axi_*): one read burst and one write burst in flight (AR and AW are accepted when
// the previous burst of their direction has ended), INCR and FIXED bursts of up to 256 beats,
// narrow transfers (AxSIZE below the data width: the address steps by the transfer size and the
// strobes / byte lanes follow the address, as AXI specifies), IDs echoed. A beat whose address is
// outside the memory, and every beat of a WRAP (or reserved) burst, is not performed: reads
// return zero data with SLVERR on that beat; writes are dropped (the other beats of the burst are
// written) and B says SLVERR. W beats are accepted one per cycle as soon as their AW has been
// (WLAST ends the burst) into a register, and granted the RAM from there in the next cycle;
// B follows two cycles after WLAST.
// Reads: the first R beat comes 4 cycles after the AR handshake, then one beat per cycle while
// RREADY is high. The R channel leaves from registers of its own (a queue of three entries after
// the RAM's read register, the first of them the R channel's), so a master's logic starts from a
// flip-flop rather than from the block RAM's output (5.6 ns from clock to output on the ECP5:
// docs/timing.md "The routed paths with router1"). Valid/ready follow AXI: outputs stable while
// valid && !ready (assertions).
// The RAM's inputs (enable, write enable, address, byte enables, data) come straight from a
// request register (p_*_q) that the arbitration below loads one cycle ahead of the access, so
// that the block RAMs' pins, spread over the die, start from flip-flops rather than from the
// arbitration (the SIMD8 board's routed critical path at 15e64b1 ran from the R entries' valid
// flags through the arbitration into the block RAMs' enables: docs/timing.md, twentieth
// session). Every access is granted in order through that register, so a read granted after a
// write sees it. The arbitration depends on this module's registers only, never on a master's
// WVALID or RREADY: an AXI read is granted when the request register, the RAM's read register
// and the three R entries hold at most three beats between them, so the beat it returns always
// has room and a burst still streams one beat per cycle (the SGU's LSU drove the RAM's clock
// enable through WVALID / RREADY, the routed critical path of the SIMD8 board at d0b978e:
// docs/fpga.md "Routed timing, step by step"; counting this cycle's R handshake in the grant
// brought RREADY back, 77 late end bits on a SIMD16 placement: docs/timing.md, twentieth
// session).
//
// AXI4-Lite host port (s_axil_*, 32-bit words): a write needs AW and W together (both readies
// rise in the same cycle); WSTRB writes the addressed bytes. Each request is taken into a
// register first and performed from there (so the host's address decode and handshake never run
// into the RAM's enables: docs/timing.md "Timing of the pipelined core"); one write and one read
// are in flight at a time. B comes at the earliest two cycles after the AW/W handshake, a read's
// data at the earliest four cycles after its AR handshake. Out-of-range addresses: SLVERR, nothing written, zero
// read. The host port only uses RAM cycles that the AXI4 port leaves free (AXI4 write beats
// first, then AXI4 read beats, then the host): it is meant for loading programs and data and
// reading results while the SGU is idle, and may wait while the SGU streams.

`include "sgu_assert.svh"

module sgu_axi_bram #(
  parameter int unsigned DataWidth = 64,     // AXI4 data width in bits: 32, 64, ..., 512
  parameter int unsigned IdWidth   = 4,      // AXI4 ID width
  parameter int unsigned SizeBytes = 65536,  // memory size in bytes: a power of two
  parameter logic [31:0] BaseAddr  = '0      // first byte address (a multiple of SizeBytes)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // AXI4 slave: write address, data, response.
  input  logic                   s_axi_awvalid_i,
  output logic                   s_axi_awready_o,
  input  logic [IdWidth-1:0]     s_axi_awid_i,
  input  logic [31:0]            s_axi_awaddr_i,
  input  logic [7:0]             s_axi_awlen_i,
  input  logic [2:0]             s_axi_awsize_i,
  input  logic [1:0]             s_axi_awburst_i,
  input  logic                   s_axi_wvalid_i,
  output logic                   s_axi_wready_o,
  input  logic [DataWidth-1:0]   s_axi_wdata_i,
  input  logic [DataWidth/8-1:0] s_axi_wstrb_i,
  input  logic                   s_axi_wlast_i,
  output logic                   s_axi_bvalid_o,
  input  logic                   s_axi_bready_i,
  output logic [IdWidth-1:0]     s_axi_bid_o,
  output logic [1:0]             s_axi_bresp_o,
  // AXI4 slave: read address and data.
  input  logic                   s_axi_arvalid_i,
  output logic                   s_axi_arready_o,
  input  logic [IdWidth-1:0]     s_axi_arid_i,
  input  logic [31:0]            s_axi_araddr_i,
  input  logic [7:0]             s_axi_arlen_i,
  input  logic [2:0]             s_axi_arsize_i,
  input  logic [1:0]             s_axi_arburst_i,
  output logic                   s_axi_rvalid_o,
  input  logic                   s_axi_rready_i,
  output logic [IdWidth-1:0]     s_axi_rid_o,
  output logic [DataWidth-1:0]   s_axi_rdata_o,
  output logic [1:0]             s_axi_rresp_o,
  output logic                   s_axi_rlast_o,
  // AXI4-Lite host port, 32-bit data.
  input  logic                   s_axil_awvalid_i,
  output logic                   s_axil_awready_o,
  input  logic [31:0]            s_axil_awaddr_i,
  input  logic                   s_axil_wvalid_i,
  output logic                   s_axil_wready_o,
  input  logic [31:0]            s_axil_wdata_i,
  input  logic [3:0]             s_axil_wstrb_i,
  output logic                   s_axil_bvalid_o,
  input  logic                   s_axil_bready_i,
  output logic [1:0]             s_axil_bresp_o,
  input  logic                   s_axil_arvalid_i,
  output logic                   s_axil_arready_o,
  input  logic [31:0]            s_axil_araddr_i,
  output logic                   s_axil_rvalid_o,
  input  logic                   s_axil_rready_i,
  output logic [31:0]            s_axil_rdata_o,
  output logic [1:0]             s_axil_rresp_o
);
  localparam int unsigned StrbW     = DataWidth / 8;
  localparam int unsigned OffBits   = $clog2(StrbW);           // byte offset in a RAM word
  localparam int unsigned Depth     = SizeBytes / StrbW;        // RAM words
  localparam int unsigned WordBits  = $clog2(Depth);
  localparam int unsigned SizeBits  = $clog2(SizeBytes);
  localparam int unsigned LiteLanes = DataWidth / 32;           // 32-bit lanes in a RAM word
  localparam int unsigned LaneBits  = LiteLanes > 1 ? $clog2(LiteLanes) : 1;
  localparam logic [1:0]  RespOkay  = 2'b00;
  localparam logic [1:0]  RespSlvErr = 2'b10;
  localparam logic [1:0]  BurstFixed = 2'b00;

  // In the memory: the offset from BaseAddr is below SizeBytes.
  function automatic logic in_range(logic [31:0] addr);
    logic [31:0] off;
    off = addr - BaseAddr;
    return (off >> SizeBits) == '0;
  endfunction

  function automatic logic [WordBits-1:0] word_of(logic [31:0] addr);
    return WordBits'((addr - BaseAddr) >> OffBits);
  endfunction

  // Next beat address of a burst.
  function automatic logic [31:0] next_addr(logic [31:0] addr, logic [2:0] size,
                                            logic [1:0] burst);
    logic [31:0] step;
    step = 32'd1 << size;
    if (burst == BurstFixed) begin
      return addr;
    end
    // INCR (and WRAP, whose beats are not performed): later beats are aligned to the size.
    return (addr & ~(step - 32'd1)) + step;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // The RAM: one access per cycle (read or byte-masked write), from the request register p_*_q,
  // which the arbitration (ram_*) loads at every edge.
  logic                 ram_en, ram_we;
  logic [WordBits-1:0]  ram_addr;
  logic [StrbW-1:0]     ram_be;
  logic [DataWidth-1:0] ram_wdata;
  logic                 p_en_q, p_we_q;
  logic [WordBits-1:0]  p_addr_q;
  logic [StrbW-1:0]     p_be_q;
  logic [DataWidth-1:0] p_wdata_q;
  logic [DataWidth-1:0] ram_rdata_q;
  logic [DataWidth-1:0] mem_q [Depth];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) p_en_q <= 1'b0;
    else         p_en_q <= ram_en;
  end
  always_ff @(posedge clk_i) begin
    p_we_q    <= ram_we;
    p_addr_q  <= ram_addr;
    p_be_q    <= ram_be;
    p_wdata_q <= ram_wdata;
  end

  always_ff @(posedge clk_i) begin
    if (p_en_q) begin
      if (p_we_q) begin
        for (int b = 0; b < StrbW; b++) begin
          if (p_be_q[b]) begin
            mem_q[p_addr_q][8*b +: 8] <= p_wdata_q[8*b +: 8];
          end
        end
      end else begin
        ram_rdata_q <= mem_q[p_addr_q];
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // AXI4 write channel state.
  logic               wr_active_q, wr_active_d;
  logic [31:0]        wr_addr_q, wr_addr_d;
  logic [2:0]         wr_size_q, wr_size_d;
  logic [1:0]         wr_burst_q, wr_burst_d;
  logic [IdWidth-1:0] wr_id_q, wr_id_d;
  logic               wr_err_q, wr_err_d;
  logic [7:0]         wr_left_q, wr_left_d;   // beats after the current one (for the assertion)
  logic               b_valid_q, b_valid_d;
  logic [1:0]         b_resp_q, b_resp_d;
  logic               w_take;                 // a W beat is taken into the W register
  logic               w_beat;                 // the W register's beat is performed this cycle
  logic               w_ok;                   // and written to the RAM
  // The W register: a beat taken at the last edge, written (or dropped) in this cycle.
  logic                 wq_valid_q, wq_ok_q, wq_last_q;
  logic [WordBits-1:0]  wq_word_q;
  logic [DataWidth-1:0] wq_data_q;
  logic [StrbW-1:0]     wq_strb_q;

  // AXI4 read channel state.
  logic               rd_active_q, rd_active_d;
  logic [31:0]        rd_addr_q, rd_addr_d;
  logic [2:0]         rd_size_q, rd_size_d;
  logic [1:0]         rd_burst_q, rd_burst_d;
  logic [IdWidth-1:0] rd_id_q, rd_id_d;
  logic [7:0]         rd_left_q, rd_left_d;   // beats after the current one
  // The AXI read beat granted at the last edge (in the request register; its RAM read, if it is
  // performed, happens at the next edge), then the beat in the RAM's read register (r_*).
  logic               pr_valid_q, pr_err_q, pr_last_q;
  logic [IdWidth-1:0] pr_id_q;
  logic               r_valid_q, r_valid_d;
  logic               r_err_q, r_err_d;
  logic               r_last_q, r_last_d;
  logic [IdWidth-1:0] r_id_q, r_id_d;
  // R output: a queue of three entries, the first (q_q[0]) the beat on the R channel. The beat
  // read from the RAM (r_*_q, the RAM's read register) moves into the first entry that is free
  // once the R channel's handshake has been counted (r_take).
  typedef struct packed {
    logic                 err;
    logic                 last;
    logic [IdWidth-1:0]   id;
    logic [DataWidth-1:0] data;
  } rbeat_t;
  localparam int unsigned RQ = 3;             // entries
  logic                 r_take, r_pop;
  logic [RQ-1:0]        qv_q;                 // valid entries, from entry 0 up (ROrder_A)
  rbeat_t               q_q [RQ];
  logic               r_issue;                // an R beat is produced this cycle
  logic               r_ok;                   // from the RAM

  // Host port state.
  logic               hw_grant, hr_grant;     // host write / read performed this cycle
  logic               hb_valid_q, hb_valid_d;
  logic [1:0]         hb_resp_q, hb_resp_d;
  logic               hr_p_q;                 // host read granted at the last edge (in p_*_q)
  logic               hr_pend_q, hr_pend_d;   // ... two edges ago: the RAM output is it
  logic               hr_valid_q, hr_valid_d;
  logic [31:0]        hr_data_q, hr_data_d;
  logic [1:0]         hr_resp_q, hr_resp_d;
  logic [LaneBits-1:0] hw_lane, hr_lane;
  // Taken requests, performed when the RAM is free. A read request's registers stay as they
  // are until its response has been taken (no request is taken before), so the response is
  // made from them.
  logic               hw_take, hr_take;       // a host write / read request is taken
  logic               hw_req_q, hr_req_q;
  logic               hw_inr_q, hr_inr_q;     // in the memory
  logic [WordBits-1:0] hw_word_q, hr_word_q;
  logic [StrbW-1:0]   hw_be_q;
  logic [31:0]        hw_data_q;
  logic [LaneBits-1:0] hr_lane_req_q;

  if (LiteLanes > 1) begin : gen_lanes
    assign hw_lane = s_axil_awaddr_i[2 +: LaneBits];
    assign hr_lane = s_axil_araddr_i[2 +: LaneBits];
  end else begin : gen_one_lane
    assign hw_lane = '0;
    assign hr_lane = '0;
  end

  // Arbitration of the RAM port: AXI4 write beats, then AXI4 read beats, then the host; from
  // registers only.
  assign w_take  = wr_active_q && s_axi_wvalid_i;
  assign w_beat  = wq_valid_q;
  assign w_ok    = wq_valid_q && wq_ok_q;
  assign r_pop   = qv_q[0] && s_axi_rready_i;
  assign r_take  = r_valid_q && !(qv_q[RQ-1] && !r_pop);
  // A read is granted when at most three beats are in the request register, the RAM's read
  // register and the R queue: with four places for them (the read register and the queue's
  // three entries) the beat then finds the RAM's read register free (or emptied at that edge)
  // when its read is performed (RRoom_A), and a burst still streams one beat per cycle (the
  // request register, the read register and the first entry in flight). From registers only:
  // the master's RREADY does not reach the grant (the queue fills from entry 0 up, so a full
  // queue is qv_q[RQ-1], one entry free or none qv_q[RQ-2]).
  assign r_issue = !w_beat && rd_active_q &&
                   !(qv_q[RQ-1] && (pr_valid_q || r_valid_q)) &&
                   !(qv_q[RQ-2] && pr_valid_q && r_valid_q);
  assign r_ok    = r_issue && !rd_burst_q[1] && in_range(rd_addr_q);
  assign hw_grant = !w_beat && !r_issue && hw_req_q;
  // A host read only when no AXI read beat is in the request register or the RAM's read
  // register: its data then has the read register to itself until hr_pend_q takes it.
  assign hr_grant = !w_beat && !r_issue && !hw_grant && hr_req_q && !r_valid_q && !pr_valid_q;
  // A request is taken when the previous one of its direction has ended (its response taken).
  assign hw_take  = s_axil_awvalid_i && s_axil_wvalid_i && !hw_req_q && !hb_valid_q;
  assign hr_take  = s_axil_arvalid_i && !hr_req_q && !hr_p_q && !hr_pend_q && !hr_valid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hw_req_q <= 1'b0;
      hr_req_q <= 1'b0;
    end else begin
      hw_req_q <= hw_take || (hw_req_q && !hw_grant);
      hr_req_q <= hr_take || (hr_req_q && !hr_grant);
    end
  end
  always_ff @(posedge clk_i) begin
    if (hw_take) begin
      hw_inr_q  <= in_range(s_axil_awaddr_i);
      hw_word_q <= word_of(s_axil_awaddr_i);
      hw_data_q <= s_axil_wdata_i;
      for (int l = 0; l < LiteLanes; l++) begin
        hw_be_q[4*l +: 4] <= (LaneBits'(l) == hw_lane) ? s_axil_wstrb_i : 4'd0;
      end
    end
    if (hr_take) begin
      hr_inr_q      <= in_range(s_axil_araddr_i);
      hr_word_q     <= word_of(s_axil_araddr_i);
      hr_lane_req_q <= hr_lane;
    end
  end

  always_comb begin
    ram_en    = 1'b0;
    ram_we    = 1'b0;
    ram_addr  = '0;
    ram_be    = '0;
    ram_wdata = wq_data_q;
    if (w_beat) begin
      ram_en   = w_ok;
      ram_we   = 1'b1;
      ram_addr = wq_word_q;
      ram_be   = wq_strb_q;
    end else if (r_issue) begin
      ram_en   = r_ok;
      ram_addr = word_of(rd_addr_q);
    end else if (hw_grant) begin
      ram_en    = hw_inr_q;
      ram_we    = 1'b1;
      ram_addr  = hw_word_q;
      ram_wdata = {LiteLanes{hw_data_q}};
      ram_be    = hw_be_q;
    end else if (hr_grant) begin
      ram_en   = hr_inr_q;
      ram_addr = hr_word_q;
    end
  end

  // AXI4 write.
  always_comb begin
    wr_active_d = wr_active_q;
    wr_addr_d   = wr_addr_q;
    wr_size_d   = wr_size_q;
    wr_burst_d  = wr_burst_q;
    wr_id_d     = wr_id_q;
    wr_err_d    = wr_err_q;
    wr_left_d   = wr_left_q;
    b_valid_d   = b_valid_q;
    b_resp_d    = b_resp_q;
    // The burst's registers follow AW's payload whenever AW is ready, valid or not (they are
    // read only while wr_active_q), so that only wr_active_q waits for AWVALID: their enables
    // start from this module's registers, not from the master's handshake (see AR below).
    if (s_axi_awvalid_i && s_axi_awready_o) begin
      wr_active_d = 1'b1;
    end
    if (s_axi_awready_o) begin
      wr_addr_d   = s_axi_awaddr_i;
      wr_size_d   = s_axi_awsize_i;
      wr_burst_d  = s_axi_awburst_i;
      wr_id_d     = s_axi_awid_i;
      wr_err_d    = 1'b0;
      wr_left_d   = s_axi_awlen_i;
    end
    if (w_take) begin
      wr_addr_d = next_addr(wr_addr_q, wr_size_q, wr_burst_q);
      wr_left_d = wr_left_q - 1'b1;
      if (s_axi_wlast_i) begin
        wr_active_d = 1'b0;
      end
    end
    if (w_beat) begin
      if (!w_ok) begin
        wr_err_d = 1'b1;
      end
      if (wq_last_q) begin
        b_valid_d = 1'b1;
        b_resp_d  = (wr_err_q || !w_ok) ? RespSlvErr : RespOkay;
      end
    end
    if (s_axi_bvalid_o && s_axi_bready_i) begin
      b_valid_d = 1'b0;
    end
  end

  // AXI4 read.
  always_comb begin
    rd_active_d = rd_active_q;
    rd_addr_d   = rd_addr_q;
    rd_size_d   = rd_size_q;
    rd_burst_d  = rd_burst_q;
    rd_id_d     = rd_id_q;
    rd_left_d   = rd_left_q;
    r_valid_d   = r_valid_q;
    r_err_d     = r_err_q;
    r_last_d    = r_last_q;
    r_id_d      = r_id_q;
    if (r_take) begin
      r_valid_d = 1'b0;
    end
    // The beat granted at the last edge reaches the RAM's read register (empty or emptied now).
    if (pr_valid_q) begin
      r_valid_d = 1'b1;
      r_err_d   = pr_err_q;
      r_last_d  = pr_last_q;
      r_id_d    = pr_id_q;
    end
    // The burst's registers follow AR's payload whenever AR is ready, valid or not (they are
    // read only while rd_active_q), so that only rd_active_q waits for ARVALID: the master's
    // valid (the SGU's LSU decides its next AR from the R handshake) was the enable of the 32
    // address flip-flops, 33 of the SIMD8 board's 37 late endpoints (routed at 0d93678, 9 LUT4
    // from the LSU's read state: docs/timing.md, twenty-sixth session).
    if (s_axi_arvalid_i && s_axi_arready_o) begin
      rd_active_d = 1'b1;
    end
    if (s_axi_arready_o) begin
      rd_addr_d   = s_axi_araddr_i;
      rd_size_d   = s_axi_arsize_i;
      rd_burst_d  = s_axi_arburst_i;
      rd_id_d     = s_axi_arid_i;
      rd_left_d   = s_axi_arlen_i;
    end
    if (r_issue) begin
      rd_addr_d = next_addr(rd_addr_q, rd_size_q, rd_burst_q);
      rd_left_d = rd_left_q - 1'b1;
      if (rd_left_q == '0) begin
        rd_active_d = 1'b0;
      end
    end
  end

  // Host port.
  always_comb begin
    hb_valid_d = hb_valid_q;
    hb_resp_d  = hb_resp_q;
    hr_pend_d  = hr_p_q;
    hr_valid_d = hr_valid_q;
    hr_data_d  = hr_data_q;
    hr_resp_d  = hr_resp_q;
    if (hw_grant) begin
      hb_valid_d = 1'b1;
      hb_resp_d  = hw_inr_q ? RespOkay : RespSlvErr;
    end else if (s_axil_bvalid_o && s_axil_bready_i) begin
      hb_valid_d = 1'b0;
    end
    if (hr_pend_q) begin
      hr_valid_d = 1'b1;
      hr_data_d  = hr_inr_q ? ram_rdata_q[32*hr_lane_req_q +: 32] : '0;
      hr_resp_d  = hr_inr_q ? RespOkay : RespSlvErr;
    end else if (s_axil_rvalid_o && s_axil_rready_i) begin
      hr_valid_d = 1'b0;
    end
  end

  assign s_axi_awready_o = !wr_active_q && !wq_valid_q && !b_valid_q;
  assign s_axi_wready_o  = wr_active_q;
  assign s_axi_bvalid_o  = b_valid_q;
  assign s_axi_bid_o     = wr_id_q;
  assign s_axi_bresp_o   = b_resp_q;
  assign s_axi_arready_o = !rd_active_q;
  assign s_axi_rvalid_o  = qv_q[0];
  assign s_axi_rid_o     = q_q[0].id;
  assign s_axi_rdata_o   = q_q[0].data;
  assign s_axi_rresp_o   = q_q[0].err ? RespSlvErr : RespOkay;
  assign s_axi_rlast_o   = q_q[0].last;

  // The R queue. A handshake shifts the entries down by one; the RAM's beat (r_take) goes into
  // the first entry free after that shift. An entry loads only when it changes (the data's
  // enables: the shift, or the RAM's beat into it).
  logic [RQ-1:0] qv_sh;    // valid entries after this cycle's handshake
  logic [RQ-1:0] q_in;     // the entry the RAM's beat goes into (one-hot, or none)
  rbeat_t        r_beat;
  assign qv_sh  = r_pop ? (qv_q >> 1) : qv_q;
  assign r_beat = '{err: r_err_q, last: r_last_q, id: r_id_q,
                    data: r_err_q ? '0 : ram_rdata_q};
  for (genvar i = 0; i < RQ; i++) begin : gen_rq
    if (i == 0) begin : gen_first
      assign q_in[i] = r_take && !qv_sh[i];
    end else begin : gen_next
      assign q_in[i] = r_take && !qv_sh[i] && qv_sh[i-1];
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) qv_q[i] <= 1'b0;
      else         qv_q[i] <= qv_sh[i] || q_in[i];
    end
    always_ff @(posedge clk_i) begin
      if (q_in[i]) begin
        q_q[i] <= r_beat;
      end else if (r_pop) begin
        q_q[i] <= q_q[(i + 1 < RQ) ? i + 1 : i];
      end
    end
  end

  // The W register: loaded at every edge (a beat or none); the beat's address decision is made
  // here, from wr_addr_q.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wq_valid_q <= 1'b0;
    end else begin
      wq_valid_q <= w_take;
    end
  end
  always_ff @(posedge clk_i) begin
    if (w_take) begin
      wq_ok_q   <= !wr_burst_q[1] && in_range(wr_addr_q);  // FIXED or INCR
      wq_last_q <= s_axi_wlast_i;
      wq_word_q <= word_of(wr_addr_q);
      wq_data_q <= s_axi_wdata_i;
      wq_strb_q <= s_axi_wstrb_i;
    end
  end

  assign s_axil_awready_o = hw_take;
  assign s_axil_wready_o  = hw_take;
  assign s_axil_bvalid_o  = hb_valid_q;
  assign s_axil_bresp_o   = hb_resp_q;
  assign s_axil_arready_o = hr_take;
  assign s_axil_rvalid_o  = hr_valid_q;
  assign s_axil_rdata_o   = hr_data_q;
  assign s_axil_rresp_o   = hr_resp_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_active_q <= 1'b0;
      wr_addr_q   <= '0;
      wr_size_q   <= '0;
      wr_burst_q  <= '0;
      wr_id_q     <= '0;
      wr_err_q    <= 1'b0;
      wr_left_q   <= '0;
      b_valid_q   <= 1'b0;
      b_resp_q    <= '0;
      rd_active_q <= 1'b0;
      rd_addr_q   <= '0;
      rd_size_q   <= '0;
      rd_burst_q  <= '0;
      rd_id_q     <= '0;
      rd_left_q   <= '0;
      pr_valid_q  <= 1'b0;
      pr_err_q    <= 1'b0;
      pr_last_q   <= 1'b0;
      pr_id_q     <= '0;
      r_valid_q   <= 1'b0;
      r_err_q     <= 1'b0;
      r_last_q    <= 1'b0;
      r_id_q      <= '0;
      hr_p_q      <= 1'b0;
      hb_valid_q  <= 1'b0;
      hb_resp_q   <= '0;
      hr_pend_q   <= 1'b0;
      hr_valid_q  <= 1'b0;
      hr_data_q   <= '0;
      hr_resp_q   <= '0;
    end else begin
      wr_active_q <= wr_active_d;
      wr_addr_q   <= wr_addr_d;
      wr_size_q   <= wr_size_d;
      wr_burst_q  <= wr_burst_d;
      wr_id_q     <= wr_id_d;
      wr_err_q    <= wr_err_d;
      wr_left_q   <= wr_left_d;
      b_valid_q   <= b_valid_d;
      b_resp_q    <= b_resp_d;
      rd_active_q <= rd_active_d;
      rd_addr_q   <= rd_addr_d;
      rd_size_q   <= rd_size_d;
      rd_burst_q  <= rd_burst_d;
      rd_id_q     <= rd_id_d;
      rd_left_q   <= rd_left_d;
      pr_valid_q  <= r_issue;
      pr_err_q    <= !r_ok;
      pr_last_q   <= rd_left_q == '0;
      pr_id_q     <= rd_id_q;
      r_valid_q   <= r_valid_d;
      r_err_q     <= r_err_d;
      r_last_q    <= r_last_d;
      r_id_q      <= r_id_d;
      hr_p_q      <= hr_grant;
      hb_valid_q  <= hb_valid_d;
      hb_resp_q   <= hb_resp_d;
      hr_pend_q   <= hr_pend_d;
      hr_valid_q  <= hr_valid_d;
      hr_data_q   <= hr_data_d;
      hr_resp_q   <= hr_resp_d;
    end
  end

  `SGU_ASSERT_INIT(DataWidth_A, DataWidth >= 32 && DataWidth <= 512 &&
                                (DataWidth & (DataWidth - 1)) == 0)
  `SGU_ASSERT_INIT(SizeBytes_A, SizeBytes >= 2 * DataWidth / 8 &&
                                (SizeBytes & (SizeBytes - 1)) == 0)
  `SGU_ASSERT_INIT(BaseAddr_A, (BaseAddr & (SizeBytes - 1)) == 0)
  // Outputs stable while valid && !ready.
  `SGU_ASSERT(RStable_A, s_axi_rvalid_o && !s_axi_rready_i |=>
                         s_axi_rvalid_o && $stable(s_axi_rdata_o) && $stable(s_axi_rresp_o) &&
                         $stable(s_axi_rlast_o) && $stable(s_axi_rid_o))
  `SGU_ASSERT(BStable_A, s_axi_bvalid_o && !s_axi_bready_i |=>
                         s_axi_bvalid_o && $stable(s_axi_bresp_o) && $stable(s_axi_bid_o))
  `SGU_ASSERT(HostRStable_A, s_axil_rvalid_o && !s_axil_rready_i |=>
                             s_axil_rvalid_o && $stable(s_axil_rdata_o))
  // WLAST marks the beat AWLEN announced.
  `SGU_ASSERT(WLast_A, w_take |-> s_axi_wlast_i == (wr_left_q == '0))
  // One RAM access per cycle; the RAM output is never replaced under a pending R beat.
  `SGU_ASSERT(RamOwner_A, $onehot0({w_beat, r_issue, hw_grant, hr_grant}))
  `SGU_ASSERT(RamHold_A, r_valid_q && !r_take |-> !(p_en_q && !p_we_q))
  // The R entries fill in order, and a beat read from the RAM always finds room.
  `SGU_ASSERT(ROrder_A, ((qv_q >> 1) & ~qv_q) == '0)
  `SGU_ASSERT(RRoom_A, pr_valid_q && r_valid_q |-> r_take)
  // A host read's data is not replaced before it is taken.
  `SGU_ASSERT(HostHold_A, hr_pend_q |-> !r_valid_q)

endmodule
