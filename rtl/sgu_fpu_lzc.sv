// SPDX-License-Identifier: Apache-2.0
// SGU FPU normalisation count: leading zeros of the 76-bit magnitude, bounded by the subnormal limit.
//
// The counting half of normalisation (sgu_fpu_norm shifts by the count one stage later).
// The count is the leading-zero count of the magnitude with the subnormal limit ORed in: a
// one at bit 76 - etop (sgu_fpu_pkg::fpu_norm_limit, made a stage earlier) stops the count
// at etop - 1, the largest shift that keeps the exponent >= 1. So cnt_o = min(leading zeros
// of mag_i, etop - 1), and the leading-zero count and the subnormal limit come out of one
// count. A zero magnitude without a limit counts 76 (the result is zero whatever the shift).
//
// Latency: combinational (stage S4 of sgu_mfu).

module sgu_fpu_lzc (
  input  logic        en_i,    // count (else cnt_o is don't-care and nothing is computed)
  input  logic [75:0] mag_i,   // unsigned magnitude to normalise
  input  logic [75:0] limit_i, // subnormal limit: one-hot at bit 76 - etop, or zero
  output logic [6:0]  cnt_o    // left shift that normalises mag_i or reaches exponent 1
);

  localparam int unsigned WinW   = sgu_fpu_pkg::FpuWinWidth;  // 76
  localparam int unsigned BlkW   = 8;                         // bits per block
  localparam int unsigned NumBlk = 10;                        // 80 bits: see leaves

  // Two levels, which map to few LUT levels: the count within each 8-bit block, then the
  // first block (from the top) that holds a one. The leaves are the window, then a one that
  // bounds the count at 76, then three zeros. Block b (b = 0 at the top) covers leaves
  // [79 - 8b : 72 - 8b], so the count is 8 * b plus the count within the block.
  logic [NumBlk*BlkW-1:0]      leaves;
  logic [NumBlk-1:0][BlkW-1:0] blk;
  logic [NumBlk-1:0]           blk_nz;
  logic [NumBlk-1:0][2:0]      blk_cnt;

  assign leaves = {mag_i | limit_i, 1'b1, {(NumBlk * BlkW - WinW - 1){1'b0}}};

  always_comb begin
    logic [3:1] top4;  // the upper half, without its lowest bit (never needed)
    logic       top2;  // the upper bit of the remaining pair
    blk     = 'x;
    blk_nz  = 'x;
    blk_cnt = 'x;
    top4    = 'x;
    top2    = 'x;
    if (en_i) begin
      for (int unsigned b = 0; b < NumBlk; b++) begin
        blk[b]     = leaves[(NumBlk - b) * BlkW - 1 -: BlkW];
        blk_nz[b]  = |blk[b];
        // Leading zeros within the block as a halving tree (3 levels; 7 for an empty block,
        // which is never selected).
        blk_cnt[b][2] = ~|blk[b][7:4];
        top4          = blk_cnt[b][2] ? blk[b][3:1] : blk[b][7:5];
        blk_cnt[b][1] = ~|top4[3:2];
        top2          = blk_cnt[b][1] ? top4[1] : top4[3];
        blk_cnt[b][0] = ~top2;
      end
    end
  end

  // The first nonzero block (block 0 holds the top bits; the bounding one makes one nonzero):
  // sgu_lowest gives it as AND/OR terms rather than a chain of 10 multiplexers, then its count
  // is selected by an AND-OR.
  logic [NumBlk-1:0] first_blk;
  logic [3:0]        first_idx;
  logic              any_blk;

  sgu_lowest #(
    .Width(NumBlk)
  ) u_first_blk (
    .vec_i   (blk_nz),
    .onehot_o(first_blk),
    .idx_o   (first_idx),
    .any_o   (any_blk)
  );

  always_comb begin
    logic [2:0] in_blk;
    in_blk = '0;
    cnt_o  = 'x;
    if (en_i) begin
      for (int unsigned b = 0; b < NumBlk; b++) begin
        in_blk = in_blk | (blk_cnt[b] & {3{first_blk[b]}});
      end
      cnt_o = {first_idx, in_blk};
    end
  end

  logic unused_any;
  assign unused_any = any_blk;  // always 1: the bounding one is in block 9

`ifndef SYNTHESIS
  // The count reaches the leading one or the limit, and passes no one (any input).
  logic [WinW-1:0] check;
  assign check = mag_i | limit_i;
  always_comb begin
    if (en_i && !$isunknown(check) && check != '0) begin
      assert (check[7'(WinW - 1) - cnt_o])
        else $error("sgu_fpu_lzc: count stopped early");
      assert ((check >> (7'(WinW) - cnt_o)) == '0)
        else $error("sgu_fpu_lzc: count passed the leading one");
    end
  end
`endif

endmodule
