// SPDX-License-Identifier: Apache-2.0
// SGU UART to AXI4-Lite master bridge: a host reads and writes 32-bit words over a serial line.
//
// Line: 8N1 (one start bit, 8 data bits LSB first, one stop bit, no parity), ClksPerBit clock
// cycles per bit (f_clk / baud). The receiver samples the middle of each bit after a two-flop
// synchronizer; a stop bit of 0 is a framing error.
//
// Request frames (host -> bridge; multi-byte fields little-endian; CRC-8 below):
//
//   | byte | write ('W')                | read ('R')                 |
//   |------|----------------------------|----------------------------|
//   | 0    | 0x57                       | 0x52                       |
//   | 1-4  | address                    | address                    |
//   | 5-8  | data                       | CRC-8 of bytes 0-4 (byte 5)|
//   | 9    | CRC-8 of bytes 0-8         |                            |
//
// Reply (bridge -> host), always 6 bytes: status, data (4 bytes: the word read; 0 for a write or
// an error), CRC-8 of the 5 bytes before it. Status codes (StatusOk ... below):
//   0x00 OK;  0x02 AXI SLVERR;  0x03 AXI DECERR (the AXI response code);
//   0x10 bad CRC;  0x11 unknown command byte;  0x12 timeout (a frame stopped half-way);
//   0x13 framing error (a stop bit was 0);  0x14 unaligned address (not a multiple of 4);
//   0x15 overrun (bytes arrived while a frame was being executed or answered).
// CRC-8: polynomial x^8 + x^2 + x + 1 (0x07), initial value 0, no reflection, no final XOR
// (CRC-8/SMBUS; the CRC of "123456789" is 0xF4).
//
// Handling of bad input: the AXI transaction starts only after the whole frame has arrived and
// its CRC matches, and writes carry the full word (WSTRB 0xF) to a word-aligned address, so a
// malformed frame never writes anything, let alone a partial word. After any error the bridge
// drops incoming bytes until the line has been idle for TimeoutBits bit times and then sends one
// error reply, so the host and the bridge are back in step after every reply. A frame whose next
// byte does not come within TimeoutBits bit times is dropped with a timeout reply. One frame at a
// time: the host waits for each reply before sending the next frame.
//
// AXI4-Lite master: one transaction at a time; AW and W are raised together; every valid is
// held until its ready, with address and data stable (assertions below); BREADY and RREADY are
// high while a response is awaited. The slave must answer (no timeout on the AXI side).
//
// Latency: a write costs 10 + 6 bytes on the line (160 bit times) plus the AXI latency; a read
// 6 + 6 bytes. At 115200 baud that is about 720 written words per second.

`include "sgu_assert.svh"

module sgu_uart_axil #(
  parameter int unsigned ClksPerBit  = 217,  // clock cycles per UART bit (f_clk / baud), >= 4
  parameter int unsigned TimeoutBits = 1000  // idle bit times that end a frame or an error drain
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // UART (idle high). rx_i is asynchronous: synchronized here.
  input  logic        rx_i,
  output logic        tx_o,
  // AXI4-Lite master.
  output logic        m_axil_awvalid_o,
  input  logic        m_axil_awready_i,
  output logic [31:0] m_axil_awaddr_o,
  output logic        m_axil_wvalid_o,
  input  logic        m_axil_wready_i,
  output logic [31:0] m_axil_wdata_o,
  output logic [3:0]  m_axil_wstrb_o,
  input  logic        m_axil_bvalid_i,
  output logic        m_axil_bready_o,
  input  logic [1:0]  m_axil_bresp_i,
  output logic        m_axil_arvalid_o,
  input  logic        m_axil_arready_i,
  output logic [31:0] m_axil_araddr_o,
  input  logic        m_axil_rvalid_i,
  output logic        m_axil_rready_o,
  input  logic [31:0] m_axil_rdata_i,
  input  logic [1:0]  m_axil_rresp_i,
  // Activity (for LEDs): a byte was received / is being sent.
  output logic        rx_byte_o,     // pulse: a byte was received
  output logic        tx_busy_o
);
  // Commands and status codes (the host side is fpga/uart_host.py and tb/uart_host.h).
  localparam logic [7:0] CmdWrite         = 8'h57;  // 'W'
  localparam logic [7:0] CmdRead          = 8'h52;  // 'R'
  localparam logic [7:0] StatusOk         = 8'h00;
  localparam logic [7:0] StatusBadCrc     = 8'h10;
  localparam logic [7:0] StatusUnknownCmd = 8'h11;
  localparam logic [7:0] StatusTimeout    = 8'h12;
  localparam logic [7:0] StatusFrameErr   = 8'h13;
  localparam logic [7:0] StatusUnaligned  = 8'h14;
  localparam logic [7:0] StatusOverrun    = 8'h15;
  localparam int unsigned ReplyBytes      = 6;

  localparam int unsigned BitCntW  = $clog2(ClksPerBit + 1);
  localparam int unsigned IdleCycles = TimeoutBits * ClksPerBit;
  localparam int unsigned IdleCntW = $clog2(IdleCycles + 1);

  // CRC-8/SMBUS of one more byte.
  function automatic logic [7:0] crc8(logic [7:0] crc, logic [7:0] data);
    logic [7:0] c;
    c = crc ^ data;
    for (int i = 0; i < 8; i++) begin
      c = c[7] ? ((c << 1) ^ 8'h07) : (c << 1);
    end
    return c;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Receiver: two-flop synchronizer, mid-bit sampling.
  typedef enum logic [2:0] {
    RxIdle,   // line high, waiting for a start bit
    RxStart,  // half a bit into the start bit
    RxData,   // 8 data bits
    RxStop,   // the stop bit
    RxWaitHi  // after a framing error: wait for the line to go high
  } rx_state_e;

  logic [1:0]         rx_sync_q;
  logic               rx;
  rx_state_e          rx_state_q, rx_state_d;
  logic [BitCntW-1:0] rx_cnt_q, rx_cnt_d;
  logic [2:0]         rx_bit_q, rx_bit_d;
  logic [7:0]         rx_shift_q, rx_shift_d;
  logic               rx_valid, rx_ferr;  // pulses: a byte (or a framing error) at the stop bit

  assign rx = rx_sync_q[1];

  always_comb begin
    rx_state_d = rx_state_q;
    rx_cnt_d   = rx_cnt_q;
    rx_bit_d   = rx_bit_q;
    rx_shift_d = rx_shift_q;
    rx_valid   = 1'b0;
    rx_ferr    = 1'b0;
    unique case (rx_state_q)
      RxIdle: begin
        if (!rx) begin
          rx_state_d = RxStart;
          rx_cnt_d   = BitCntW'(ClksPerBit / 2 - 1);
        end
      end
      RxStart: begin
        if (rx_cnt_q != '0) begin
          rx_cnt_d = rx_cnt_q - 1'b1;
        end else if (rx) begin
          rx_state_d = RxIdle;  // a glitch, not a start bit
        end else begin
          rx_state_d = RxData;
          rx_cnt_d   = BitCntW'(ClksPerBit - 1);
          rx_bit_d   = '0;
        end
      end
      RxData: begin
        if (rx_cnt_q != '0) begin
          rx_cnt_d = rx_cnt_q - 1'b1;
        end else begin
          rx_shift_d = {rx, rx_shift_q[7:1]};
          rx_cnt_d   = BitCntW'(ClksPerBit - 1);
          rx_bit_d   = rx_bit_q + 1'b1;
          if (rx_bit_q == 3'd7) begin
            rx_state_d = RxStop;
          end
        end
      end
      RxStop: begin
        if (rx_cnt_q != '0) begin
          rx_cnt_d = rx_cnt_q - 1'b1;
        end else if (rx) begin
          rx_valid   = 1'b1;
          rx_state_d = RxIdle;
        end else begin
          rx_ferr    = 1'b1;
          rx_state_d = RxWaitHi;
        end
      end
      RxWaitHi: begin
        if (rx) begin
          rx_state_d = RxIdle;
        end
      end
      default: rx_state_d = RxIdle;
    endcase
  end

  // Idle time of the line: cycles since the receiver last left RxIdle (saturating).
  logic [IdleCntW-1:0] idle_cnt_q, idle_cnt_d;
  logic                line_idle;  // the line has been idle for TimeoutBits bit times

  always_comb begin
    if (rx_state_q != RxIdle || !rx) begin
      idle_cnt_d = '0;
    end else if (idle_cnt_q != IdleCntW'(IdleCycles)) begin
      idle_cnt_d = idle_cnt_q + 1'b1;
    end else begin
      idle_cnt_d = idle_cnt_q;
    end
  end
  assign line_idle = idle_cnt_q == IdleCntW'(IdleCycles);

  // The receiver's and the line's events, registered before the frame logic reads them: the
  // serial side sits by the pins at the die's edge, the frame logic by the AXI side, and the
  // registers leave the wire between them with nothing before or after it (on the SIMD16 board
  // the bridge's own paths, 8 LUT4 with its cells spread across the die, were a group of 68 to
  // 103 late end bits: docs/timing.md, nineteenth session). One cycle later changes nothing
  // the host can see: rx_shift_q holds the byte from its last data bit until half a bit into
  // the next start bit, so rx_data_q, loaded at every edge, holds it whenever rx_valid_q does.
  logic       rx_valid_q, rx_ferr_q, line_idle_q;
  logic [7:0] rx_data_q;

  // ---------------------------------------------------------------------------------------------
  // Transmitter: 10-bit shift register (start, 8 data, stop).
  logic [9:0]         tx_shift_q, tx_shift_d;
  logic [3:0]         tx_left_q, tx_left_d;   // bits still to send
  logic [BitCntW-1:0] tx_cnt_q, tx_cnt_d;
  logic               tx_load;                // the frame logic sends tx_byte (only while
  logic [7:0]         tx_byte;                // tx_ready)
  // The frame logic's request, registered on its way to the transmitter (as the receiver's
  // events are on theirs, above), and the transmitter's idle state registered on its way back
  // (tx_idle_q == (tx_left_q == 0), from the transmitter's own next state, so that neither
  // side's logic runs into the other's registers). The transmitter can take a request when it
  // is idle and none is pending (tx_ready).
  logic               tx_req_q, tx_idle_q, tx_ready;
  logic [7:0]         tx_byte_q;
  assign tx_ready = tx_idle_q && !tx_req_q;

  always_comb begin
    tx_shift_d = tx_shift_q;
    tx_left_d  = tx_left_q;
    tx_cnt_d   = tx_cnt_q;
    if (tx_req_q) begin
      tx_shift_d = {1'b1, tx_byte_q, 1'b0};
      tx_left_d  = 4'd10;
      tx_cnt_d   = BitCntW'(ClksPerBit - 1);
    end else if (tx_left_q != '0) begin
      if (tx_cnt_q != '0) begin
        tx_cnt_d = tx_cnt_q - 1'b1;
      end else begin
        tx_shift_d = {1'b1, tx_shift_q[9:1]};
        tx_left_d  = tx_left_q - 1'b1;
        tx_cnt_d   = BitCntW'(ClksPerBit - 1);
      end
    end
  end
  assign tx_o = tx_left_q == '0 ? 1'b1 : tx_shift_q[0];

  // ---------------------------------------------------------------------------------------------
  // Frame handling and the AXI4-Lite master.
  typedef enum logic [2:0] {
    StIdle,     // waiting for a command byte
    StCollect,  // receiving the rest of a frame
    StDrain,    // after an error: drop bytes until the line is idle
    StWrite,    // AW and W offered, then waiting for B
    StRead,     // AR offered, then waiting for R
    StReply     // sending the 6-byte reply
  } state_e;

  state_e      state_q, state_d;
  logic        is_write_q, is_write_d;
  logic [3:0]  count_q, count_d;       // bytes of the frame received so far
  logic [7:0]  crc_q, crc_d;           // CRC of the frame bytes received so far
  logic [31:0] addr_q, addr_d;
  logic [31:0] data_q, data_d;         // write data, then the reply data
  logic [7:0]  status_q, status_d;
  logic        aw_done_q, aw_done_d, w_done_q, w_done_d, ar_done_q, ar_done_d;
  logic [2:0]  reply_idx_q, reply_idx_d;  // reply byte being sent
  logic [7:0]  reply_crc_q, reply_crc_d;
  logic        overrun_q, overrun_d;   // bytes came in while busy: drain after the reply
  logic [3:0]  frame_len;

  assign frame_len = is_write_q ? 4'd10 : 4'd6;

  always_comb begin
    state_d     = state_q;
    is_write_d  = is_write_q;
    count_d     = count_q;
    crc_d       = crc_q;
    addr_d      = addr_q;
    data_d      = data_q;
    status_d    = status_q;
    aw_done_d   = aw_done_q;
    w_done_d    = w_done_q;
    ar_done_d   = ar_done_q;
    reply_idx_d = reply_idx_q;
    reply_crc_d = reply_crc_q;
    overrun_d   = overrun_q;
    tx_load     = 1'b0;
    tx_byte     = '0;
    // Bytes (or framing errors) arriving while a frame is executed or answered.
    if ((state_q == StWrite || state_q == StRead || state_q == StReply) &&
        (rx_valid_q || rx_ferr_q)) begin
      overrun_d = 1'b1;
    end
    unique case (state_q)
      StIdle: begin
        if (rx_ferr_q) begin
          status_d = StatusFrameErr;
          state_d  = StDrain;
        end else if (rx_valid_q) begin
          crc_d   = crc8(8'h00, rx_data_q);
          count_d = 4'd1;
          addr_d  = '0;
          data_d  = '0;
          if (rx_data_q == CmdWrite || rx_data_q == CmdRead) begin
            is_write_d = rx_data_q == CmdWrite;
            state_d    = StCollect;
          end else begin
            status_d = StatusUnknownCmd;
            state_d  = StDrain;
          end
        end
      end
      StCollect: begin
        if (rx_ferr_q) begin
          status_d = StatusFrameErr;
          state_d  = StDrain;
        end else if (rx_valid_q) begin
          crc_d   = crc8(crc_q, rx_data_q);
          count_d = count_q + 1'b1;
          if (count_q <= 4'd4) begin
            addr_d = {rx_data_q, addr_q[31:8]};
          end else if (is_write_q && count_q <= 4'd8) begin
            data_d = {rx_data_q, data_q[31:8]};
          end
          if (count_q + 1'b1 == frame_len) begin
            // Whole frame: the CRC over all its bytes, CRC byte included, is 0 when it matches.
            data_d = is_write_q ? data_q : '0;
            if (crc8(crc_q, rx_data_q) != 8'h00) begin
              status_d = StatusBadCrc;
              state_d  = StDrain;
            end else if (addr_q[1:0] != 2'b00) begin
              status_d = StatusUnaligned;
              state_d  = StDrain;
            end else begin
              aw_done_d = 1'b0;
              w_done_d  = 1'b0;
              ar_done_d = 1'b0;
              state_d   = is_write_q ? StWrite : StRead;
            end
          end
        end else if (line_idle_q) begin
          status_d = StatusTimeout;
          data_d   = '0;
          state_d  = StReply;
          reply_idx_d = '0;
          reply_crc_d = '0;
        end
      end
      StDrain: begin
        if (line_idle_q) begin
          data_d      = '0;
          reply_idx_d = '0;
          reply_crc_d = '0;
          state_d     = StReply;
        end
      end
      StWrite: begin
        if (m_axil_awvalid_o && m_axil_awready_i) begin
          aw_done_d = 1'b1;
        end
        if (m_axil_wvalid_o && m_axil_wready_i) begin
          w_done_d = 1'b1;
        end
        if (m_axil_bvalid_i && m_axil_bready_o) begin
          status_d    = m_axil_bresp_i == 2'b00 ? StatusOk : {6'd0, m_axil_bresp_i};
          data_d      = '0;
          reply_idx_d = '0;
          reply_crc_d = '0;
          state_d     = StReply;
        end
      end
      StRead: begin
        if (m_axil_arvalid_o && m_axil_arready_i) begin
          ar_done_d = 1'b1;
        end
        if (m_axil_rvalid_i && m_axil_rready_o) begin
          status_d    = m_axil_rresp_i == 2'b00 ? StatusOk : {6'd0, m_axil_rresp_i};
          data_d      = m_axil_rresp_i == 2'b00 ? m_axil_rdata_i : '0;
          reply_idx_d = '0;
          reply_crc_d = '0;
          state_d     = StReply;
        end
      end
      StReply: begin
        if (tx_ready) begin
          tx_load = 1'b1;
          unique case (reply_idx_q)
            3'd0:    tx_byte = status_q;
            3'd1:    tx_byte = data_q[7:0];
            3'd2:    tx_byte = data_q[15:8];
            3'd3:    tx_byte = data_q[23:16];
            3'd4:    tx_byte = data_q[31:24];
            default: tx_byte = reply_crc_q;
          endcase
          reply_crc_d = crc8(reply_crc_q, tx_byte);
          reply_idx_d = reply_idx_q + 1'b1;
          if (reply_idx_q == 3'(ReplyBytes - 1)) begin
            if (overrun_d) begin
              overrun_d = 1'b0;
              status_d  = StatusOverrun;
              state_d   = StDrain;
            end else begin
              state_d = StIdle;
            end
          end
        end
      end
      default: state_d = StIdle;
    endcase
  end

  assign m_axil_awvalid_o = state_q == StWrite && !aw_done_q;
  assign m_axil_awaddr_o  = addr_q;
  assign m_axil_wvalid_o  = state_q == StWrite && !w_done_q;
  assign m_axil_wdata_o   = data_q;
  assign m_axil_wstrb_o   = 4'hF;
  assign m_axil_bready_o  = state_q == StWrite && aw_done_q && w_done_q;
  assign m_axil_arvalid_o = state_q == StRead && !ar_done_q;
  assign m_axil_araddr_o  = addr_q;
  assign m_axil_rready_o  = state_q == StRead && ar_done_q;
  assign rx_byte_o        = rx_valid;
  assign tx_busy_o        = tx_left_q != '0 || tx_req_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rx_sync_q   <= 2'b11;
      rx_state_q  <= RxIdle;
      rx_cnt_q    <= '0;
      rx_bit_q    <= '0;
      rx_shift_q  <= '0;
      idle_cnt_q  <= '0;
      tx_shift_q  <= '1;
      tx_left_q   <= '0;
      tx_req_q    <= 1'b0;
      tx_idle_q   <= 1'b1;
      tx_byte_q   <= '0;
      rx_valid_q  <= 1'b0;
      rx_ferr_q   <= 1'b0;
      line_idle_q <= 1'b0;
      rx_data_q   <= '0;
      tx_cnt_q    <= '0;
      state_q     <= StIdle;
      is_write_q  <= 1'b0;
      count_q     <= '0;
      crc_q       <= '0;
      addr_q      <= '0;
      data_q      <= '0;
      status_q    <= '0;
      aw_done_q   <= 1'b0;
      w_done_q    <= 1'b0;
      ar_done_q   <= 1'b0;
      reply_idx_q <= '0;
      reply_crc_q <= '0;
      overrun_q   <= 1'b0;
    end else begin
      rx_sync_q   <= {rx_sync_q[0], rx_i};
      rx_state_q  <= rx_state_d;
      rx_cnt_q    <= rx_cnt_d;
      rx_bit_q    <= rx_bit_d;
      rx_shift_q  <= rx_shift_d;
      idle_cnt_q  <= idle_cnt_d;
      tx_shift_q  <= tx_shift_d;
      tx_left_q   <= tx_left_d;
      tx_req_q    <= tx_load;
      tx_idle_q   <= tx_left_d == '0;
      tx_byte_q   <= tx_byte;
      rx_valid_q  <= rx_valid;
      rx_ferr_q   <= rx_ferr;
      line_idle_q <= line_idle;
      rx_data_q   <= rx_shift_q;
      tx_cnt_q    <= tx_cnt_d;
      state_q     <= state_d;
      is_write_q  <= is_write_d;
      count_q     <= count_d;
      crc_q       <= crc_d;
      addr_q      <= addr_d;
      data_q      <= data_d;
      status_q    <= status_d;
      aw_done_q   <= aw_done_d;
      w_done_q    <= w_done_d;
      ar_done_q   <= ar_done_d;
      reply_idx_q <= reply_idx_d;
      reply_crc_q <= reply_crc_d;
      overrun_q   <= overrun_d;
    end
  end

  `SGU_ASSERT_INIT(ClksPerBit_A, ClksPerBit >= 4)
  `SGU_ASSERT_INIT(TimeoutBits_A, TimeoutBits >= 20)
  `SGU_ASSERT(AwStable_A, m_axil_awvalid_o && !m_axil_awready_i |=>
                          m_axil_awvalid_o && $stable(m_axil_awaddr_o))
  `SGU_ASSERT(WStable_A, m_axil_wvalid_o && !m_axil_wready_i |=>
                         m_axil_wvalid_o && $stable(m_axil_wdata_o))
  `SGU_ASSERT(ArStable_A, m_axil_arvalid_o && !m_axil_arready_i |=>
                          m_axil_arvalid_o && $stable(m_axil_araddr_o))
  // A write reaches the bus only as a whole, aligned word.
  `SGU_ASSERT(WholeWord_A, m_axil_awvalid_o |-> m_axil_awaddr_o[1:0] == 2'b00 &&
                           m_axil_wstrb_o == 4'hF)
  `SGU_ASSERT(TxLoadIdle_A, tx_req_q |-> tx_left_q == '0)
  // The byte the frame logic takes is the one the receiver completed.
  `SGU_ASSERT(RxData_A, rx_valid_q |-> rx_data_q == rx_shift_q)
  `SGU_ASSERT(TxIdle_A, tx_idle_q == (tx_left_q == '0))

endmodule
