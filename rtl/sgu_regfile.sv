// SPDX-License-Identifier: Apache-2.0
// SGU register file: 32 vector registers (N lanes x 32 bits) and 32 scalar registers, in RAM.
//
// Register specifiers are 6 bits: 0..31 select v0..v31, 32..63 select s0..s31. Reading a scalar
// register broadcasts it to every lane; s0 reads as zero. A 64-bit operand is an even/odd pair
// (r, r+1) (the decoder traps odd pairs), so the file is organised in pair rows: row k holds
// registers 2k (low half) and 2k+1 (high half). Each read port reads one row and returns both
// halves: rd_lo_o is register r (the row's low or high half by r[0]) and rd_hi_o the row's high
// half (register r+1 of a pair; meaningless for odd r, which no pair names).
//
// Storage (the shape of FPGA RAM, docs/architecture.md "Register file"):
//   vmem[16]  rows of N x 64 bits, one write port with a write enable per lane and half,
//             three synchronous read ports (a synthesis tool replicates the array per read port:
//             ECP5 distributed RAM (DPR16X4) or block RAM (EBR), no flops, no wide muxes)
//   smem[16]  the same for the scalar registers, 64 bits wide.
// Reads are synchronous: the specifiers rd_spec_i are sampled at the rising edge when re_i is
// high (the instruction moves from decode to execute) for the ports in rd_en_i (an operand the
// instruction does not read is not fetched), and rd_lo_o / rd_hi_o hold that row until the
// port's next read. The RAMs are read-before-write; a write at the same edge as the read
// is forwarded by a bypass register (wdata_q, per port and half hit bits), so a read always
// returns the value after every write up to and including that edge.
//
// Write port: wr_en_i writes register wr_spec_i (or the pair wr_spec_i, wr_spec_i+1) at the
// rising edge, in the lanes of wr_lanes_i for a vector register, always for a scalar one (lane 0
// carries the value); writes to s0 are dropped.
//
// Clear: clear_i (kernel start) starts a sequence of 16 cycles (clearing_o high) that writes
// every row: vectors to zero, scalars to zero except s1..s8 = args_i[0..7]. The core issues no
// instruction while clearing_o is high, and wr_en_i must be low.

`include "sgu_assert.svh"

module sgu_regfile #(
  parameter int unsigned NumLanes = 16  // SIMD width: 8, 16 or 32
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  input  logic                              clear_i,     // kernel start: begin the clear
  output logic                              clearing_o,  // the clear sequence is running
  input  logic [7:0][31:0]                  args_i,      // values of s1..s8 after the clear
  input  logic                              re_i,        // sample rd_spec_i at this edge
  input  logic [2:0]                        rd_en_i,     // ports whose operand is read
  input  logic [2:0][5:0]                   rd_spec_i,   // read port specifiers
  output logic [2:0][NumLanes-1:0][31:0]    rd_lo_o,     // register r of each port, per lane
  output logic [2:0][NumLanes-1:0][31:0]    rd_hi_o,     // register r+1 (pairs), per lane
  input  logic                              wr_en_i,     // write enable
  input  logic [5:0]                        wr_spec_i,   // destination specifier (even for a pair)
  input  logic                              wr_pair_i,   // write (r, r+1)
  input  logic [NumLanes-1:0]               wr_lanes_i,  // lanes to write (vector destination)
  input  logic [NumLanes-1:0][31:0]         wr_lo_i,     // value of r per lane
  input  logic [NumLanes-1:0][31:0]         wr_hi_i      // value of r+1 per lane
);

  // ------------------------------------------------------------------------------ clear
  logic       clearing_q;
  logic [3:0] clr_row_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      clearing_q <= 1'b0;
      clr_row_q  <= '0;
    end else if (clear_i) begin
      clearing_q <= 1'b1;
      clr_row_q  <= '0;
    end else if (clearing_q) begin
      clr_row_q  <= clr_row_q + 4'd1;
      clearing_q <= clr_row_q != 4'd15;
    end
  end
  assign clearing_o = clearing_q;

  // Scalar row r of the clear: {s(2r+1), s(2r)}, with s1..s8 = args_i[0..7].
  logic [63:0] clr_srow;
  always_comb begin
    clr_srow = '0;
    for (int unsigned h = 0; h < 2; h++) begin
      logic [4:0] s;
      s = {clr_row_q, 1'(h)};
      if (s >= 5'd1 && s <= 5'd8) clr_srow[32*h+:32] = args_i[s-5'd1];
    end
  end

  // ------------------------------------------------------------------------------ write port
  // Row write with a byte-lane style enable per lane and half.
  logic                          v_we, s_we;
  logic [3:0]                    w_row;
  logic [NumLanes-1:0][1:0]      v_wen;
  logic [1:0]                    s_wen;
  logic [NumLanes-1:0][63:0]     v_wdata;
  logic [63:0]                   s_wdata;
  logic [1:0]                    half_en;

  // Halves written by a (non-clear) write: a pair writes both, a single register its own half.
  assign half_en = wr_pair_i ? 2'b11 : (wr_spec_i[0] ? 2'b10 : 2'b01);

  always_comb begin
    if (clearing_q) begin
      v_we    = 1'b1;
      s_we    = 1'b1;
      w_row   = clr_row_q;
      v_wen   = '1;
      s_wen   = 2'b11;
      v_wdata = '0;
      s_wdata = clr_srow;
    end else begin
      v_we  = wr_en_i && !wr_spec_i[5];
      s_we  = wr_en_i && wr_spec_i[5] && (wr_spec_i[4:0] != 5'd0);
      w_row = wr_spec_i[4:1];
      for (int unsigned l = 0; l < NumLanes; l++) begin
        v_wen[l]   = wr_lanes_i[l] ? half_en : 2'b00;
        // A single register's value goes to its half; a pair's lo/hi to low/high halves.
        v_wdata[l] = (!wr_pair_i && wr_spec_i[0]) ? {wr_lo_i[l], wr_lo_i[l]} : {wr_hi_i[l], wr_lo_i[l]};
      end
      s_wen   = half_en;
      s_wdata = (!wr_pair_i && wr_spec_i[0]) ? {wr_lo_i[0], wr_lo_i[0]} : {wr_hi_i[0], wr_lo_i[0]};
    end
  end

  // ------------------------------------------------------------------------------ storage
  logic [NumLanes-1:0][63:0] vmem [16];
  logic [63:0]               smem [16];

  always_ff @(posedge clk_i) begin
    if (v_we) begin
      for (int unsigned l = 0; l < NumLanes; l++) begin
        if (v_wen[l][0]) vmem[w_row][l][31:0]  <= v_wdata[l][31:0];
        if (v_wen[l][1]) vmem[w_row][l][63:32] <= v_wdata[l][63:32];
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (s_we) begin
      if (s_wen[0]) smem[w_row][31:0]  <= s_wdata[31:0];
      if (s_wen[1]) smem[w_row][63:32] <= s_wdata[63:32];
    end
  end

  // ------------------------------------------------------------------------------ read ports
  logic [2:0][NumLanes-1:0][63:0] v_q;
  logic [2:0][63:0]               s_q;
  logic [2:0]                     scalar_q, odd_q;

  for (genvar p = 0; p < 3; p++) begin : gen_read
    always_ff @(posedge clk_i) begin
      if (re_i && rd_en_i[p]) begin
        v_q[p] <= vmem[rd_spec_i[p][4:1]];
        s_q[p] <= smem[rd_spec_i[p][4:1]];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      scalar_q <= '0;
      odd_q    <= '0;
    end else if (re_i) begin
      for (int unsigned p = 0; p < 3; p++) begin
        if (rd_en_i[p]) begin
          scalar_q[p] <= rd_spec_i[p][5];
          odd_q[p]    <= rd_spec_i[p][0];
        end
      end
    end
  end

  // Bypass of the write at the read edge: per port the halves it hit, and the written row.
  logic [2:0][1:0]           v_hit_q, s_hit_q;
  logic [NumLanes-1:0][1:0]  byp_wen_q;
  logic [NumLanes-1:0][63:0] byp_v_q;
  logic [63:0]               byp_s_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_hit_q <= '0;
      s_hit_q <= '0;
    end else if (re_i) begin
      for (int unsigned p = 0; p < 3; p++) begin
        if (rd_en_i[p]) begin
          v_hit_q[p] <= (v_we && !rd_spec_i[p][5] && w_row == rd_spec_i[p][4:1]) ? 2'b11 : 2'b00;
          s_hit_q[p] <= (s_we && rd_spec_i[p][5] && w_row == rd_spec_i[p][4:1]) ? s_wen : 2'b00;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (re_i && v_we) begin
      byp_wen_q <= v_wen;
      byp_v_q   <= v_wdata;
    end
    if (re_i && s_we) begin
      byp_s_q <= s_wdata;
    end
  end

  for (genvar p = 0; p < 3; p++) begin : gen_out
    logic [63:0] srow;
    for (genvar h = 0; h < 2; h++) begin : gen_shalf
      assign srow[32*h+:32] = s_hit_q[p][h] ? byp_s_q[32*h+:32] : s_q[p][32*h+:32];
    end
    for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
      logic [63:0] vrow, row;
      for (genvar h = 0; h < 2; h++) begin : gen_vhalf
        assign vrow[32*h+:32] = (v_hit_q[p][h] && byp_wen_q[l][h]) ? byp_v_q[l][32*h+:32]
                                                                  : v_q[p][l][32*h+:32];
      end
      assign row           = scalar_q[p] ? srow : vrow;
      assign rd_lo_o[p][l] = odd_q[p] ? row[63:32] : row[31:0];
      assign rd_hi_o[p][l] = row[63:32];
    end
  end

  `SGU_ASSERT(NoWriteInClear_A, clearing_q |-> !wr_en_i)

endmodule
