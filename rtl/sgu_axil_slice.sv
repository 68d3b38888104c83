// SPDX-License-Identifier: Apache-2.0
// SGU AXI4-Lite register slice: every channel through a skid buffer (sgu_skid), so that every
// signal the slice drives, on either side, comes from a flip-flop.
//
// Used on the board between the UART bridge and the address split (fpga/ulx3s_top.sv): the
// bridge's state machine took the memory's ready and response through the combinational split,
// and on the SIMD16 board, whose SGU fills the die, the placer put the bridge's few cells far
// from the memory's host port (docs/timing.md, twelfth session). One cycle more per channel,
// nothing at a UART's pace; the channels stay independent (AW and W each have their own
// buffer, as AXI allows).

module sgu_axil_slice (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Slave side (from the master).
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
  // Master side (to the slave).
  output logic        m_awvalid_o,
  input  logic        m_awready_i,
  output logic [31:0] m_awaddr_o,
  output logic        m_wvalid_o,
  input  logic        m_wready_i,
  output logic [31:0] m_wdata_o,
  output logic [3:0]  m_wstrb_o,
  input  logic        m_bvalid_i,
  output logic        m_bready_o,
  input  logic [1:0]  m_bresp_i,
  output logic        m_arvalid_o,
  input  logic        m_arready_i,
  output logic [31:0] m_araddr_o,
  input  logic        m_rvalid_i,
  output logic        m_rready_o,
  input  logic [31:0] m_rdata_i,
  input  logic [1:0]  m_rresp_i
);
  sgu_skid #(.Width(32)) u_aw (
    .clk_i, .rst_ni,
    .s_valid_i(s_awvalid_i), .s_ready_o(s_awready_o), .s_data_i(s_awaddr_i),
    .m_valid_o(m_awvalid_o), .m_ready_i(m_awready_i), .m_data_o(m_awaddr_o)
  );
  sgu_skid #(.Width(36)) u_w (
    .clk_i, .rst_ni,
    .s_valid_i(s_wvalid_i), .s_ready_o(s_wready_o), .s_data_i({s_wstrb_i, s_wdata_i}),
    .m_valid_o(m_wvalid_o), .m_ready_i(m_wready_i), .m_data_o({m_wstrb_o, m_wdata_o})
  );
  sgu_skid #(.Width(2)) u_b (
    .clk_i, .rst_ni,
    .s_valid_i(m_bvalid_i), .s_ready_o(m_bready_o), .s_data_i(m_bresp_i),
    .m_valid_o(s_bvalid_o), .m_ready_i(s_bready_i), .m_data_o(s_bresp_o)
  );
  sgu_skid #(.Width(32)) u_ar (
    .clk_i, .rst_ni,
    .s_valid_i(s_arvalid_i), .s_ready_o(s_arready_o), .s_data_i(s_araddr_i),
    .m_valid_o(m_arvalid_o), .m_ready_i(m_arready_i), .m_data_o(m_araddr_o)
  );
  sgu_skid #(.Width(34)) u_r (
    .clk_i, .rst_ni,
    .s_valid_i(m_rvalid_i), .s_ready_o(m_rready_o), .s_data_i({m_rresp_i, m_rdata_i}),
    .m_valid_o(s_rvalid_o), .m_ready_i(s_rready_i), .m_data_o({s_rresp_o, s_rdata_o})
  );
endmodule
