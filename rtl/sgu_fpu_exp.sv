// SPDX-License-Identifier: Apache-2.0
// SGU FPU exponent path: operand selection, mantissas, exponents and addend shift of the FMA.
//
// The first half of the exact sum x*y + z of three finite binary32 values (subnormals
// included): it hands out the two 24-bit mantissas for the shared multiplier of sgu_mfu and
// the addend's mantissa for the alignment shifter (sgu_fpu_align), with the amount of that
// right shift and the exponent of window bit 75. Signs are not handled here (sgu_fpu_add).
// The fma operands are selected from the unit's operands a, b, c here, after each operand's
// fields (hidden bit, effective exponent) are formed, so the selection adds one level to
// the exponent path instead of sitting before the exponent-field logic:
//   x = a;  y = b or 1.0;  z = c, b, a (float->int) or 0 (mul: -0; int->float: +0).
// Infinities and NaNs are the caller's business: their exponent 255 is treated as an ordinary
// exponent here and the result is overridden outside.
//
// Window layout (bit 75 is the top, bit 0 the bottom; "anchor" picks the reference):
//   product x*y (48 bits, two integer bits) : win[49:2]   (never shifted; sgu_fpu_add)
//   addend z (24 bits)                      : win[75:52] shifted right by shamt in [0, 76]
// Product-anchored (addend at most 26 binades above the product): bit 75 has biased exponent
// Ep + 27, where Ep = ex + ey - 127 is the exponent of the product's bit 46, and the shift
// is 27 - (Ez - Ep) = ex + ey - ez - 100, clamped to 76. Addend bits that fall below win[0]
// go to the sticky bit; that only happens when the product is at least 2^24 times larger, so
// they always lie below the round bit.
// Addend-anchored (addend 27 or more binades above the product, or product exactly zero):
// no shift, the addend sits at win[75:52] with exponent Ez for bit 75; the product stays at
// win[49:2], which may understate its distance from the addend, but with at least two zero
// bits in between the rounded result is the same as for the true distance.
// Exponents of zero/subnormal operands count as 1 (value = mantissa * 2^(1-127-23)).
//
// float->int (f2i_i): the shift becomes 158 - Ez, which puts z's integer part at
// win[75:44] (truncated toward zero) for Ez in 127..158, the only exponents whose result is
// not fixed by the caller (zero below 127, saturation above 158).
//
// Latency: combinational (stage S1 of sgu_mfu). With en_i low (no FP operation in the stage)
// the outputs are don't-care and nothing is computed: a simulator skips the stage, synthesis
// adds no gate.

module sgu_fpu_exp (
  input  logic        en_i,     // an FP operation is in the stage
  input  logic [30:0] a_i,      // magnitude bits of operand a (finite binary32)
  input  logic [30:0] b_i,      // magnitude bits of operand b
  input  logic [30:0] c_i,      // magnitude bits of operand c
  input  logic        y_one_i,  // y = 1.0 (add, sub), else y = b
  input  logic [1:0]  z_sel_i,  // z = c, b, a or 0: sgu_fpu_pkg::FpuZSel*
  input  logic        f2i_i,    // float->int: shift z's integer part to win[75:44]
  output logic [23:0] x_man_o,  // mantissa of x incl. hidden bit, to the multiplier
  output logic [23:0] y_man_o,  // mantissa of y incl. hidden bit, to the multiplier
  output logic [23:0] z_man_o,  // mantissa of z incl. hidden bit, to the alignment shifter
  output logic [6:0]  shamt_o,  // right shift of z_man_o from win[75:52], 0..76
  output logic [9:0]  etop_o    // biased exponent of window bit 75, >= 1 (fma)
);

  localparam int unsigned MaxShift = sgu_fpu_pkg::FpuWinWidth;  // 76: the addend is all sticky
  // Exponent bias of the shift: 27 - (Ez - (ex + ey - 127)) = ex + ey - ez - 100.
  localparam logic [9:0] ShiftBias = 10'd100;
  localparam logic [9:0] ClampBias = ShiftBias + 10'(MaxShift) + 10'd1;  // 177

  // Product-anchored window exponent xy_top = ex + ey - 100 and shift ex + ey - ez - 100.
  // Ranges: xy_top in [-98, 410] and the shift in [-353, 409], so 10-bit signed arithmetic
  // suffices. x arrives first (y and z are selected by the op), so ex - 100 is formed beside
  // the selection. The three-operand sums are one carry-save layer and one carry chain each;
  // the shift and the two decisions on it (addend-anchored: shift <= 0; clamp: shift > 76) are
  // three chains side by side, the decisions read from their sign bits, so that no compare
  // follows a chain. -ez = ~ez + 1, and the +1 fills the free low bit of the carry vector.
  // Bit 9 of a carry vector weighs 2^10 and drops out of the 10-bit sums; a shift that is
  // used is in 1..76.
  always_comb begin
    // Fields of the operands: mantissa with hidden bit, effective biased exponent (0 counts
    // as 1).
    logic [23:0] a_man, b_man, c_man;
    logic [9:0]  a_exp, b_exp, c_exp;
    logic [9:0]  x_exp, y_exp, z_exp;
    logic [7:0]  z_exp_field;  // z's exponent field (float->int)
    logic        prod_zero;    // the product is exactly zero: either mantissa is
    logic [9:0]  x_bias, x_clamp, z_inv, xy_top;
    // Of these only the bits named above are used (carry bit 9, the sums' high or low bits).
    // verilator lint_off UNUSEDSIGNAL
    logic [9:0]  csa_sum, csa_carry, clamp_sum, clamp_carry;
    logic [9:0]  shamt_raw, shamt_m1, shamt_m77;
    logic [7:0]  f2i_shamt;
    // verilator lint_on UNUSEDSIGNAL
    logic        addend_anchor, clamp;
    x_man_o = 'x;
    y_man_o = 'x;
    z_man_o = 'x;
    shamt_o = 'x;
    etop_o  = 'x;
    if (en_i) begin
      a_man = {|a_i[30:23], a_i[22:0]};
      b_man = {|b_i[30:23], b_i[22:0]};
      c_man = {|c_i[30:23], c_i[22:0]};
      a_exp = {2'b00, a_i[30:24], a_i[23] | ~a_man[23]};
      b_exp = {2'b00, b_i[30:24], b_i[23] | ~b_man[23]};
      c_exp = {2'b00, c_i[30:24], c_i[23] | ~c_man[23]};

      // The fma operands.
      x_man_o = a_man;
      x_exp   = a_exp;
      y_man_o = y_one_i ? 24'h80_0000 : b_man;
      y_exp   = y_one_i ? 10'd127 : b_exp;
      unique case (z_sel_i)
        sgu_fpu_pkg::FpuZSelC: begin
          z_man_o     = c_man;
          z_exp       = c_exp;
          z_exp_field = c_i[30:23];
        end
        sgu_fpu_pkg::FpuZSelB: begin
          z_man_o     = b_man;
          z_exp       = b_exp;
          z_exp_field = b_i[30:23];
        end
        sgu_fpu_pkg::FpuZSelA: begin
          z_man_o     = a_man;
          z_exp       = a_exp;
          z_exp_field = a_i[30:23];
        end
        default: begin  // FpuZSelZero
          z_man_o     = '0;
          z_exp       = 10'd1;
          z_exp_field = '0;
        end
      endcase
      prod_zero = ~|x_man_o | ~|y_man_o;

      x_bias        = x_exp - ShiftBias;
      x_clamp       = x_exp - ClampBias;
      z_inv         = ~z_exp;
      xy_top        = x_bias + y_exp;
      csa_sum       = x_bias ^ y_exp ^ z_inv;
      csa_carry     = (x_bias & y_exp) | (x_bias & z_inv) | (y_exp & z_inv);
      clamp_sum     = x_clamp ^ y_exp ^ z_inv;
      clamp_carry   = (x_clamp & y_exp) | (x_clamp & z_inv) | (y_exp & z_inv);
      shamt_raw     = csa_sum + {csa_carry[8:0], 1'b1};      // ex + ey - ez - 100
      shamt_m1      = csa_sum + {csa_carry[8:0], 1'b0};      // the shift - 1
      shamt_m77     = clamp_sum + {clamp_carry[8:0], 1'b1};  // the shift - 77
      addend_anchor = prod_zero | shamt_m1[9];               // shift <= 0
      clamp         = ~shamt_m77[9];                         // shift > 76
      // 158 - Ez is 0..31 for the exponents that matter; others give a don't-care shift.
      f2i_shamt     = 8'd158 - z_exp_field;

      shamt_o = 7'd0;
      etop_o  = z_exp;
      if (f2i_i) begin
        shamt_o = {2'b00, f2i_shamt[4:0]};
      end else if (!addend_anchor) begin
        shamt_o = clamp ? 7'(MaxShift) : shamt_raw[6:0];
        etop_o  = xy_top;
      end
    end
  end

endmodule
