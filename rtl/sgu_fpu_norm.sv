// SPDX-License-Identifier: Apache-2.0
// SGU FPU normaliser: left-normalise a 76-bit magnitude and decide its binary32 RNE rounding.
//
// The one normalising shifter of the FPU, shared by the fused multiply-add (add, sub, mul,
// fma) and int->float conversion. It delivers the value before rounding (exponent field and
// fraction, pre_o), whether to round it up (round_up_o) and whether it overflows (overflow_o);
// sgu_mfu registers them and adds the rounding increment in its next stage (S5), so that the
// shift and the increment's carry chain are not in one cycle. It shifts left by the count of sgu_fpu_lzc (one stage
// earlier): the leading zeros of the magnitude, or fewer where the exponent would drop below
// 1. After the shift, either bit 75 is set (normal result, exponent etop_i - shift) or the
// limit was hit (subnormal or zero result, exponent field 0). Bits 74:52 are the fraction,
// bit 51 the round bit, bits 50:0 and sticky_i the sticky bit; ties go to even. The sticky
// bits are taken from the magnitude under a mask made from the shift amount, beside the
// shifter rather than after it. When the rounding increment is added to {exponent, fraction}
// (sgu_mfu S5), a carry out of the fraction moves into the exponent field (subnormal -> normal,
// max -> infinity); an exponent of 255 or more before rounding is overflow_o (infinity).
//
// Latency: combinational (stage S4 of sgu_mfu). With en_i low (the stage's result is not the
// normaliser's) the outputs are don't-care and nothing is computed: a simulator skips the shift
// and the rounding decision, synthesis adds no gate.

module sgu_fpu_norm (
  input  logic        en_i,      // the stage's result comes from the normaliser
  input  logic [75:0] mag_i,     // unsigned magnitude to normalise
  input  logic [6:0]  shamt_i,   // left shift, from sgu_fpu_lzc: 0..76
  input  logic [9:0]  etop_i,    // biased exponent of mag_i[75]
  input  logic        sticky_i,    // nonzero bits of the value lie below mag_i[0]
  output logic [30:0] pre_o,       // {exponent field, fraction} before rounding
  output logic        round_up_o,  // RNE: add 1 to pre_o
  output logic        overflow_o   // the exponent is 255 or more: the result is infinity
);

  localparam int unsigned WinW = sgu_fpu_pkg::FpuWinWidth;  // 76
  localparam int unsigned RndBit = 51;                       // round bit after the shift

  always_comb begin
    // The bits below the round bit of the shifted magnitude are not used: the sticky bit is
    // taken from mag_i under a mask made from the shift amount, beside the shifter.
    // verilator lint_off UNUSEDSIGNAL
    logic [WinW-1:0] norm;
    // verilator lint_on UNUSEDSIGNAL
    logic [9:0]      exp_pre;     // exponent field before rounding: 0 for subnormal or zero
    logic            overflow;
    logic [WinW-1:0] below_mask;  // bits of mag_i that land below the round bit
    logic            round_bit, sticky;
    norm       = 'x;
    exp_pre    = 'x;
    overflow   = 'x;
    below_mask = 'x;
    round_bit  = 'x;
    sticky     = 'x;
    pre_o      = 'x;
    round_up_o = 'x;
    overflow_o = 'x;
    if (en_i) begin
      norm     = mag_i << shamt_i;
      exp_pre  = norm[WinW-1] ? (etop_i - {3'b000, shamt_i}) : 10'd0;
      overflow = exp_pre > 10'd254;
      // mag_i[50 - shamt_i : 0] (none for a shift of 51 or more): all ones shifted right by
      // 25 + shamt_i.
      below_mask = {WinW{1'b1}} >> (8'(WinW - RndBit) + {1'b0, shamt_i});
      // Round to nearest, ties to even.
      round_bit = norm[RndBit];
      sticky    = |(mag_i & below_mask) | sticky_i;
      round_up_o = round_bit & (sticky | norm[RndBit+1]);
      pre_o      = {exp_pre[7:0], norm[74:52]};
      overflow_o = overflow;
    end
  end

endmodule
