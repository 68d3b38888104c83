// SPDX-License-Identifier: Apache-2.0
// SGU FPU aligned add: |x*y + z| in the 76-bit window.
//
// Adds the exact 48-bit mantissa product P (from the shared multiplier of sgu_mfu) and the
// addend Z that sgu_fpu_align placed in the window, and gives the unrounded magnitude, the
// sticky bit and the sign; sgu_mfu counts the magnitude's normalising shift (sgu_fpu_lzc) in
// the next stage, and sgu_fpu_norm shifts it in the one after. The window layout is the one of sgu_fpu_exp: P sits at win[49:2],
// never shifted.
//
// The addend arrives as the adder operand Zop = eff_sub ? ~Z : Z and the carry-in as
// eff_sub & !sticky, both made a stage earlier, so that the 77-bit carry chain starts at once:
//   sum = P + Zop + cin.
// For a subtraction with sticky addend bits the +1 of the two's complement is dropped: the
// window then holds the truncation of the true difference and the sticky bit stands for the
// rest. A negative sum (the addend is larger; it never has sticky bits then, so cin = 1) is
// replaced by Z - P = ~(P + Zop) from a second carry chain beside the first, instead of
// negating the sum after it.
// An exact zero sum of two addends of opposite sign is +0 (round to nearest); two zeros of
// equal sign keep it; otherwise the sign of the larger addend wins. "The sum is zero" is
// found from P and Zop bit by bit (sum bit i is 0 for all i exactly when the carry each bit
// needs, a_i ^ b_i, is the carry the bit below gives, a_i-1 | b_i-1, or cin at bit 0), beside
// the carry chain rather than after it.
//
// Latency: combinational (stage S3 of sgu_mfu). With en_i low (no FP operation in the stage)
// the outputs are don't-care and nothing is computed: a simulator skips the 77-bit adds,
// synthesis adds no gate.

module sgu_fpu_add (
  input  logic        en_i,        // an FP operation is in the stage
  input  logic [47:0] prod_i,      // exact product of the two 24-bit mantissas
  input  logic        prod_sign_i, // sign of the product
  input  logic [75:0] z_op_i,      // aligned addend, complemented if eff_sub_i (sgu_fpu_align)
  input  logic        z_sticky_i,  // some addend bit lies below the window
  input  logic        z_sign_i,    // sign of the addend
  input  logic        eff_sub_i,   // prod_sign_i ^ z_sign_i
  input  logic        cin_i,       // eff_sub_i & !z_sticky_i
  output logic [75:0] mag_o,       // |x*y + z| in the window, bits below win[0] in sticky_o
  output logic        sticky_o,    // some nonzero bit of |x*y + z| lies below mag_o[0]
  output logic        sign_o,      // sign of the result, IEEE RNE rule for an exact zero sum
  output logic        neg_o        // the sum was negative: mag_o is Z - P
);

  localparam int unsigned WinW = sgu_fpu_pkg::FpuWinWidth;  // 76

  logic [WinW:0] a, b;  // the adder operands, 77 bits (bit 76 is the sign)
  assign a = {1'b0, {(WinW - 50){1'b0}}, prod_i, 2'b00};
  assign b = {eff_sub_i, z_op_i};

  logic [WinW:0] sum, sum_nocin;
  logic [WinW-1:0] diff;
  logic          sum_neg;

  always_comb begin
    sum       = 'x;
    sum_nocin = 'x;
    if (en_i) begin
      sum       = a + b + {{WinW{1'b0}}, cin_i};
      sum_nocin = a + b;
    end
  end
  assign diff      = ~sum_nocin[WinW-1:0];  // Z - P when eff_sub_i
  assign sum_neg   = sum[WinW];

  assign mag_o    = sum_neg ? diff : sum[WinW-1:0];
  assign sticky_o = z_sticky_i;
  // Sticky addend bits only arise when the product dominates, so a negative sum never has
  // them (then cin = 1 and diff is exactly -sum); sgu_mfu checks that on real operations.
  assign neg_o    = sum_neg;

  // sum == 0 (all 77 bits), without waiting for the carry chain.
  logic [WinW:0] carry_gives;
  logic          sum_zero;
  assign carry_gives = {a[WinW-1:0] | b[WinW-1:0], cin_i};
  assign sum_zero    = ((a ^ b) == carry_gives) & ~z_sticky_i;

  always_comb begin
    sign_o = prod_sign_i;
    if (sum_zero) begin
      sign_o = prod_sign_i & z_sign_i;
    end else if (sum_neg) begin
      sign_o = z_sign_i;
    end
  end

  logic unused_sum;
  assign unused_sum = sum_nocin[WinW];

endmodule
