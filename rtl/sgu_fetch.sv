// SPDX-License-Identifier: Apache-2.0
// SGU instruction fetch: one 64-byte line buffer refilled by an AXI4 INCR burst.
//
// The core presents pc_i with req_i; when the line holding pc_i is in the buffer, valid_o is
// high in the same cycle with the instruction word (zero latency on a hit, so straight-line code
// and short loops issue one instruction per cycle). On a miss the unit fetches the aligned
// 64-byte line (LineBytes / (AxiDataWidth/8) beats) and keeps, per beat, whether the response
// was an error; bus_err_o then accompanies valid_o for words in an error beat. The core checks
// the pc against the memory window before requesting, so a refill never leaves the window when
// MEM_BASE and MEM_LIMIT are multiples of 64. flush_i (kernel start) empties the buffer; a
// refill in progress completes, but its line is dropped.
//
// AXI rules obeyed: AR held until ready with a stable payload; R accepted every cycle.

`include "sgu_assert.svh"

module sgu_fetch #(
  parameter int unsigned AxiDataWidth = 64  // AXI data width in bits: 64..512
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    flush_i,     // invalidate the line buffer
  input  logic                    req_i,       // the core wants the word at pc_i
  input  logic [31:0]             pc_i,        // multiple of 8
  output logic                    valid_o,     // insn_o / bus_err_o hold the word at pc_i
  output logic [63:0]             insn_o,
  output logic                    bus_err_o,   // the word came back with an AXI error
  // AXI4 master read channels (burst fixed at one line).
  output logic                    ar_valid_o,
  input  logic                    ar_ready_i,
  output logic [31:0]             ar_addr_o,
  output logic [7:0]              ar_len_o,
  output logic [2:0]              ar_size_o,
  input  logic                    r_valid_i,
  output logic                    r_ready_o,
  input  logic [AxiDataWidth-1:0] r_data_i,
  input  logic [1:0]              r_resp_i,
  input  logic                    r_last_i
);
  localparam int unsigned LineBytes = 64;
  localparam int unsigned BeatBytes = AxiDataWidth / 8;
  localparam int unsigned Beats     = LineBytes / BeatBytes;
  localparam int unsigned BeatBits  = (Beats > 1) ? $clog2(Beats) : 1;

  typedef enum logic [1:0] {
    StIdle,
    StAddr,
    StData
  } state_e;

  state_e                    state_q, state_d;
  logic [Beats-1:0][AxiDataWidth-1:0] line_q, line_d;
  logic [Beats-1:0]          err_q, err_d;
  logic [25:0]               tag_q, tag_d;         // pc[31:6] of the buffered line
  logic                      line_valid_q, line_valid_d;
  logic                      drop_q, drop_d;       // flushed during the refill
  logic [BeatBits-1:0]       beat_q, beat_d;
  logic                      hit;
  logic [7:0][63:0]          words;
  logic [BeatBits-1:0]       beat_sel;

  assign hit     = line_valid_q && (tag_q == pc_i[31:6]);
  assign words   = line_q;
  assign valid_o = req_i && hit;
  assign insn_o  = words[pc_i[5:3]];
  assign beat_sel = BeatBits'(pc_i[5:0] >> $clog2(BeatBytes));
  assign bus_err_o = err_q[beat_sel];

  assign ar_valid_o = state_q == StAddr;
  assign ar_addr_o  = {tag_q, 6'd0};
  assign ar_len_o   = 8'(Beats - 1);
  assign ar_size_o  = 3'($clog2(BeatBytes));
  assign r_ready_o  = state_q == StData;

  always_comb begin
    state_d      = state_q;
    line_d       = line_q;
    err_d        = err_q;
    tag_d        = tag_q;
    line_valid_d = line_valid_q;
    drop_d       = drop_q || flush_i;
    beat_d       = beat_q;
    if (flush_i) begin
      line_valid_d = 1'b0;
    end
    unique case (state_q)
      StIdle: begin
        if (req_i && !hit && !flush_i) begin
          tag_d        = pc_i[31:6];
          line_valid_d = 1'b0;
          drop_d       = 1'b0;
          beat_d       = '0;
          state_d      = StAddr;
        end
      end
      StAddr: begin
        if (ar_ready_i) begin
          state_d = StData;
        end
      end
      StData: begin
        if (r_valid_i) begin
          line_d[beat_q] = r_data_i;
          err_d[beat_q]  = r_resp_i[1];
          beat_d         = beat_q + BeatBits'(1);
          if (r_last_i) begin
            line_valid_d = !drop_q && !flush_i;
            state_d      = StIdle;
          end
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= StIdle;
      line_q       <= '0;
      err_q        <= '0;
      tag_q        <= '0;
      line_valid_q <= 1'b0;
      drop_q       <= 1'b0;
      beat_q       <= '0;
    end else begin
      state_q      <= state_d;
      line_q       <= line_d;
      err_q        <= err_d;
      tag_q        <= tag_d;
      line_valid_q <= line_valid_d;
      drop_q       <= drop_d;
      beat_q       <= beat_d;
    end
  end

  logic unused;
  assign unused = r_resp_i[0];

  `SGU_ASSERT_INIT(LineBeats_A, Beats >= 1 && LineBytes % BeatBytes == 0)
  `SGU_ASSERT(ArStable_A, ar_valid_o && !ar_ready_i |=> ar_valid_o && $stable(ar_addr_o))
  `SGU_ASSERT(PcAligned_A, req_i |-> pc_i[2:0] == '0)

endmodule
