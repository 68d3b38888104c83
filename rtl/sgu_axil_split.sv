// SPDX-License-Identifier: Apache-2.0
// SGU AXI4-Lite address split: one master, two slaves chosen by address, DECERR elsewhere.
//
// Slave 0 answers addresses with (addr & Mask0) == Base0, slave 1 those with
// (addr & Mask1) == Base1 (slave 0 wins if both match); any other address gets DECERR from the
// split itself (writes are accepted and dropped, reads return 0). Addresses are passed on
// unchanged: a slave ignores the bits it does not decode.
//
// One transaction per direction in flight: when AW and W are both offered, AWADDR is decoded into
// a register (one cycle), then the write is routed (the chosen slave's AWREADY and WREADY are
// passed back, and each channel stops being offered once taken), then its B is passed back; the
// next AW is accepted after that B has been taken. Reads likewise (AR decoded, routed, then R).
// Valid/ready and payloads are routed combinationally from the registered choice: one cycle of
// added latency per request (two for a DECERR response). Decoded and routed in the same cycle,
// the address compare, the choice and the slave's ready made one path into the enables of the
// master's skid registers (sgu_axil_slice), 9 LUT4 and 192 end bits above 13.33 ns in the
// SIMD16 board's depth model at 7a9e713 (docs/timing.md, twenty-sixth session).

`include "sgu_assert.svh"

module sgu_axil_split #(
  parameter logic [31:0] Base0 = 32'h0000_0000,  // slave 0 region
  parameter logic [31:0] Mask0 = 32'hF000_0000,
  parameter logic [31:0] Base1 = 32'h4000_0000,  // slave 1 region
  parameter logic [31:0] Mask1 = 32'hFFFF_FF00
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Master side (from the bridge).
  input  logic        s_awvalid_i,
  output logic        s_awready_o,
  input  logic [31:0] s_awaddr_i,
  input  logic        s_wvalid_i,
  output logic        s_wready_o,
  input  logic [31:0] s_wdata_i,
  input  logic [3:0]  s_wstrb_i,
  output logic        s_bvalid_o,
  input  logic        s_bready_i,
  output logic [1:0]  s_bresp_o,
  input  logic        s_arvalid_i,
  output logic        s_arready_o,
  input  logic [31:0] s_araddr_i,
  output logic        s_rvalid_o,
  input  logic        s_rready_i,
  output logic [31:0] s_rdata_o,
  output logic [1:0]  s_rresp_o,
  // Slave ports 0 and 1 (index = port).
  output logic [1:0]        m_awvalid_o,
  input  logic [1:0]        m_awready_i,
  output logic [31:0]       m_awaddr_o,
  output logic [1:0]        m_wvalid_o,
  input  logic [1:0]        m_wready_i,
  output logic [31:0]       m_wdata_o,
  output logic [3:0]        m_wstrb_o,
  input  logic [1:0]        m_bvalid_i,
  output logic [1:0]        m_bready_o,
  input  logic [1:0][1:0]   m_bresp_i,
  output logic [1:0]        m_arvalid_o,
  input  logic [1:0]        m_arready_i,
  output logic [31:0]       m_araddr_o,
  input  logic [1:0]        m_rvalid_i,
  output logic [1:0]        m_rready_o,
  input  logic [1:0][31:0]  m_rdata_i,
  input  logic [1:0][1:0]   m_rresp_i
);
  localparam logic [1:0] RespDecErr = 2'b11;

  // Target of an address: 0, 1, or 2 (no slave).
  function automatic logic [1:0] decode(logic [31:0] addr);
    if ((addr & Mask0) == Base0) begin
      return 2'd0;
    end else if ((addr & Mask1) == Base1) begin
      return 2'd1;
    end
    return 2'd2;
  endfunction

  typedef enum logic [1:0] {
    PhAddr,   // waiting for an address (and write data): decoded into wsel_q / rsel_q
    PhRoute,  // offered to the chosen slave (or taken for DECERR)
    PhResp,   // waiting for the slave's response
    PhErr    // the split's own DECERR response
  } phase_e;

  // Writes.
  phase_e     wph_q, wph_d;
  logic [1:0] wsel_q, wsel_d;   // chosen slave, valid outside PhAddr
  logic       aw_done_q, aw_done_d, w_done_q, w_done_d;

  // The slaves' valids from registers only (a block of their own: the slaves' readies, which
  // the block below reads, depend on them).
  for (genvar i = 0; i < 2; i++) begin : gen_wvalid
    assign m_awvalid_o[i] = wph_q == PhRoute && wsel_q == 2'(i) && !aw_done_q;
    assign m_wvalid_o[i]  = wph_q == PhRoute && wsel_q == 2'(i) && !w_done_q;
  end

  always_comb begin
    m_bready_o  = '0;
    s_awready_o = 1'b0;
    s_wready_o  = 1'b0;
    s_bvalid_o  = 1'b0;
    s_bresp_o   = RespDecErr;
    wph_d       = wph_q;
    wsel_d      = wsel_q;
    aw_done_d   = aw_done_q;
    w_done_d    = w_done_q;
    unique case (wph_q)
      PhAddr: begin
        if (s_awvalid_i && s_wvalid_i) begin
          wsel_d = decode(s_awaddr_i);
          wph_d  = PhRoute;
        end
      end
      PhRoute: begin  // AW and W stay offered until taken (AwHeld_A, WHeld_A)
        if (wsel_q == 2'd2) begin
          // No slave: take both and answer DECERR.
          s_awready_o = 1'b1;
          s_wready_o  = 1'b1;
          wph_d       = PhErr;
        end else begin
          s_awready_o = !aw_done_q && m_awready_i[wsel_q[0]];
          s_wready_o  = !w_done_q && m_wready_i[wsel_q[0]];
          aw_done_d   = aw_done_q || m_awready_i[wsel_q[0]];
          w_done_d    = w_done_q || m_wready_i[wsel_q[0]];
          if (aw_done_d && w_done_d) begin
            wph_d = PhResp;
          end
        end
      end
      PhResp: begin
        m_bready_o[wsel_q[0]] = s_bready_i;
        s_bvalid_o = m_bvalid_i[wsel_q[0]];
        s_bresp_o  = m_bresp_i[wsel_q[0]];
        if (m_bvalid_i[wsel_q[0]] && s_bready_i) begin
          aw_done_d = 1'b0;
          w_done_d  = 1'b0;
          wph_d     = PhAddr;
        end
      end
      PhErr: begin
        s_bvalid_o = 1'b1;
        if (s_bready_i) begin
          wph_d = PhAddr;
        end
      end
      default: wph_d = PhAddr;
    endcase
  end

  // Reads.
  phase_e      rph_q, rph_d;
  logic [1:0]  rsel_q, rsel_d;

  for (genvar i = 0; i < 2; i++) begin : gen_rvalid
    assign m_arvalid_o[i] = rph_q == PhRoute && rsel_q == 2'(i);
  end

  always_comb begin
    m_rready_o  = '0;
    s_arready_o = 1'b0;
    s_rvalid_o  = 1'b0;
    s_rdata_o   = '0;
    s_rresp_o   = RespDecErr;
    rph_d       = rph_q;
    rsel_d      = rsel_q;
    unique case (rph_q)
      PhAddr: begin
        if (s_arvalid_i) begin
          rsel_d = decode(s_araddr_i);
          rph_d  = PhRoute;
        end
      end
      PhRoute: begin  // AR stays offered until taken (ArHeld_A)
        if (rsel_q == 2'd2) begin
          s_arready_o = 1'b1;
          rph_d       = PhErr;
        end else begin
          s_arready_o = m_arready_i[rsel_q[0]];
          if (m_arready_i[rsel_q[0]]) begin
            rph_d = PhResp;
          end
        end
      end
      PhResp: begin
        m_rready_o[rsel_q[0]] = s_rready_i;
        s_rvalid_o = m_rvalid_i[rsel_q[0]];
        s_rdata_o  = m_rdata_i[rsel_q[0]];
        s_rresp_o  = m_rresp_i[rsel_q[0]];
        if (m_rvalid_i[rsel_q[0]] && s_rready_i) begin
          rph_d = PhAddr;
        end
      end
      PhErr: begin
        s_rvalid_o = 1'b1;
        if (s_rready_i) begin
          rph_d = PhAddr;
        end
      end
      default: rph_d = PhAddr;
    endcase
  end

  assign m_awaddr_o = s_awaddr_i;
  assign m_wdata_o  = s_wdata_i;
  assign m_wstrb_o  = s_wstrb_i;
  assign m_araddr_o = s_araddr_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wph_q     <= PhAddr;
      wsel_q    <= '0;
      aw_done_q <= 1'b0;
      w_done_q  <= 1'b0;
      rph_q     <= PhAddr;
      rsel_q    <= '0;
    end else begin
      wph_q     <= wph_d;
      wsel_q    <= wsel_d;
      aw_done_q <= aw_done_d;
      w_done_q  <= w_done_d;
      rph_q     <= rph_d;
      rsel_q    <= rsel_d;
    end
  end

  // The master keeps AW and W offered until both are taken (AXI: valid is never withdrawn).
  `SGU_ASSERT(AwHeld_A, s_awvalid_i && !s_awready_o |=> s_awvalid_i && $stable(s_awaddr_i))
  `SGU_ASSERT(WHeld_A, s_wvalid_i && !s_wready_o |=> s_wvalid_i)
  // A routed write has both channels offered or taken (so the decoded address is AWADDR's).
  `SGU_ASSERT(RouteW_A, wph_q == PhRoute |-> (s_awvalid_i || aw_done_q) && (s_wvalid_i || w_done_q))
  `SGU_ASSERT(RouteR_A, rph_q == PhRoute |-> s_arvalid_i)
  `SGU_ASSERT(ArHeld_A, s_arvalid_i && !s_arready_o |=> s_arvalid_i && $stable(s_araddr_i))

endmodule
