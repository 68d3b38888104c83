// SPDX-License-Identifier: Apache-2.0
// SGU register file: 32 vector registers (N lanes x 32 bits) and 32 scalar registers.
//
// Register specifiers are 6 bits: 0..31 select v0..v31, 32..63 select s0..s31. Reading a scalar
// register broadcasts it to every lane; s0 reads as zero. Each of the three read ports returns the
// pair (r, r+1) so that 64-bit operands need no second access (the high word is ignored for
// 32-bit operands). Reads are combinational; the single write port writes a register or a pair at
// the rising edge, in the lanes of wr_lanes_i for a vector register, always for a scalar register
// (lane 0 carries the value); writes to s0 are dropped. clear_i (kernel start) sets every register
// to 0 and s1..s8 to the kernel arguments, taking priority over a write.

module sgu_regfile #(
  parameter int unsigned NumLanes = 16  // SIMD width: 8, 16 or 32
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  input  logic                              clear_i,     // kernel start: zero, then load args
  input  logic [7:0][31:0]                  args_i,      // initial values of s1..s8
  input  logic [2:0][5:0]                   rd_spec_i,   // read port specifiers
  output logic [2:0][NumLanes-1:0][31:0]    rd_lo_o,     // register r of each port, per lane
  output logic [2:0][NumLanes-1:0][31:0]    rd_hi_o,     // register r+1 of each port, per lane
  input  logic                              wr_en_i,     // write enable
  input  logic [5:0]                        wr_spec_i,   // destination specifier (even for a pair)
  input  logic                              wr_pair_i,   // write (r, r+1)
  input  logic [NumLanes-1:0]               wr_lanes_i,  // lanes to write (vector destination)
  input  logic [NumLanes-1:0][31:0]         wr_lo_i,     // value of r per lane
  input  logic [NumLanes-1:0][31:0]         wr_hi_i      // value of r+1 per lane
);

  logic [31:0][NumLanes-1:0][31:0] vreg_q;
  logic [31:0][31:0]               sreg_q;

  // Reads.
  for (genvar p = 0; p < 3; p++) begin : gen_read_port
    logic [4:0] idx_lo, idx_hi;
    logic       scalar_lo, scalar_hi;
    logic [5:0] spec_hi;
    assign spec_hi   = rd_spec_i[p] + 6'd1;
    assign idx_lo    = rd_spec_i[p][4:0];
    assign idx_hi    = spec_hi[4:0];
    assign scalar_lo = rd_spec_i[p][5];
    assign scalar_hi = spec_hi[5];
    for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
      assign rd_lo_o[p][l] = scalar_lo ? sreg_q[idx_lo] : vreg_q[idx_lo][l];
      assign rd_hi_o[p][l] = scalar_hi ? sreg_q[idx_hi] : vreg_q[idx_hi][l];
    end
  end

  // Writes: one enable per register and lane, so each register is a plain enabled flop (cheap
  // to synthesize and to simulate).
  logic [4:0] wr_idx_hi;
  assign wr_idx_hi = wr_spec_i[4:0] + 5'd1;

  for (genvar r = 0; r < 32; r++) begin : gen_vreg
    for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
      logic we_lo, we_hi;
      assign we_lo = wr_en_i && !wr_spec_i[5] && wr_lanes_i[l] && (wr_spec_i[4:0] == 5'(r));
      assign we_hi = wr_en_i && !wr_spec_i[5] && wr_lanes_i[l] && wr_pair_i &&
                     (wr_idx_hi == 5'(r));
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          vreg_q[r][l] <= '0;
        end else if (clear_i) begin
          vreg_q[r][l] <= '0;
        end else if (we_lo) begin
          vreg_q[r][l] <= wr_lo_i[l];
        end else if (we_hi) begin
          vreg_q[r][l] <= wr_hi_i[l];
        end
      end
    end
  end

  // s0 is never written (it stays zero); s1..s8 take the kernel arguments at start.
  for (genvar r = 0; r < 32; r++) begin : gen_sreg
    logic        we_lo, we_hi;
    logic [31:0] init;
    assign we_lo = (r != 0) && wr_en_i && wr_spec_i[5] && (wr_spec_i[4:0] == 5'(r));
    assign we_hi = (r != 0) && wr_en_i && wr_spec_i[5] && wr_pair_i && (wr_idx_hi == 5'(r));
    assign init  = (r >= 1 && r <= 8) ? args_i[(r + 7) % 8] : 32'd0;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        sreg_q[r] <= '0;
      end else if (clear_i) begin
        sreg_q[r] <= init;
      end else if (we_lo) begin
        sreg_q[r] <= wr_lo_i[0];
      end else if (we_hi) begin
        sreg_q[r] <= wr_hi_i[0];
      end
    end
  end

endmodule
