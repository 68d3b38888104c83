// SPDX-License-Identifier: Apache-2.0
// SGU FPU multiply and aligned add: exact x*y+z in a 76-bit window, front end of the FMA.
//
// Computes the unrounded sum x*y + z of three finite binary32 values (subnormals included)
// as a magnitude in a fixed-point window plus a sticky bit, ready for sgu_fpu_norm to
// normalise and round. Infinities and NaNs are the caller's business: their exponent
// 255 is treated as an ordinary exponent here and the result is overridden outside.
//
// Window layout (bit 75 is the top, bit 0 the bottom; "anchor" picks the reference):
//   product x*y (48 bits, two integer bits) : win[49:2]   (never shifted)
//   addend z (24 bits)                      : win[75:52] shifted right by shamt in [0, 76]
// Product-anchored (addend at most 26 binades above the product): bit 75 has biased exponent
// Ep + 27, where Ep = ex + ey - 127 is the exponent of the product's bit 46. Addend bits that
// fall below win[0] are ORed into the sticky bit; that only happens when the product is at
// least 2^24 times larger, so they always lie below the round bit.
// Addend-anchored (addend 27 or more binades above the product, or product exactly zero):
// the addend sits at win[75:52] with exponent Ez for bit 75; the product stays at win[49:2],
// which may understate its distance from the addend, but with at least two zero bits in
// between the rounded result is the same as for the true distance.
// Exponents of zero/subnormal operands count as 1 (value = mantissa * 2^(1-127-23)).
//
// Latency: combinational.

module sgu_fpu_mac (
  input  logic [31:0] x_i,       // multiplicand, finite binary32
  input  logic [31:0] y_i,       // multiplier, finite binary32
  input  logic [31:0] z_i,       // addend, finite binary32
  output logic [75:0] mag_o,     // |x*y + z| in the window, bits below win[0] in sticky_o
  output logic [9:0]  etop_o,    // biased exponent of mag_o[75], always >= 1
  output logic        sticky_o,  // some nonzero bit of |x*y + z| lies below mag_o[0]
  output logic        sign_o     // sign of the result, IEEE RNE rule for an exact zero sum
);

  localparam int unsigned WinW = sgu_fpu_pkg::FpuWinWidth;  // 76
  localparam int unsigned ManW = 24;                        // mantissa incl. hidden bit
  // The addend is shifted within a field of WinW + ManW bits; the low ManW bits feed sticky.
  localparam int unsigned FieldW = WinW + ManW;              // 100
  // Exponent difference d = Ez - Ep at which the addend's top bit sits at win[75].
  localparam int signed AnchorDiff = 27;

  // Operand fields.
  logic        x_normal, y_normal, z_normal;
  logic [23:0] x_man, y_man, z_man;
  logic [9:0]  x_exp, y_exp, z_exp;  // effective biased exponent, 0 counts as 1

  assign x_normal = |x_i[30:23];
  assign y_normal = |y_i[30:23];
  assign z_normal = |z_i[30:23];
  assign x_man    = {x_normal, x_i[22:0]};
  assign y_man    = {y_normal, y_i[22:0]};
  assign z_man    = {z_normal, z_i[22:0]};
  assign x_exp    = {2'b00, x_i[30:24], x_i[23] | ~x_normal};
  assign y_exp    = {2'b00, y_i[30:24], y_i[23] | ~y_normal};
  assign z_exp    = {2'b00, z_i[30:24], z_i[23] | ~z_normal};

  // Signs: eff_sub when the product and the addend have opposite signs.
  logic prod_sign, eff_sub;
  assign prod_sign = x_i[31] ^ y_i[31];
  assign eff_sub   = prod_sign ^ z_i[31];

  // Exact 48-bit product of the mantissas.
  logic [47:0] prod;
  logic        prod_zero;
  assign prod      = x_man * y_man;
  assign prod_zero = ~|x_man | ~|y_man;

  // Exponent of product bit 46, and the addend-product exponent difference.
  // Ranges: prod_exp in [-125, 383], exp_diff in [-382, 380]; 10-bit signed suffices.
  logic signed [9:0] prod_exp, exp_diff, shamt_raw;
  logic              addend_anchor;
  logic [6:0]        shamt;

  assign prod_exp  = $signed(x_exp + y_exp) - 10'sd127;
  assign exp_diff  = $signed(z_exp) - prod_exp;
  assign shamt_raw = 10'(AnchorDiff) - exp_diff;
  assign addend_anchor = prod_zero | (exp_diff >= 10'(AnchorDiff));

  always_comb begin
    shamt  = 7'd0;
    etop_o = z_exp;
    if (!addend_anchor) begin
      shamt  = (shamt_raw > 10'sd76) ? 7'd76 : shamt_raw[6:0];
      etop_o = prod_exp + 10'(AnchorDiff);
    end
  end

  // Alignment: the one shared right shifter of the datapath.
  logic [FieldW-1:0] z_field;
  logic [WinW-1:0]   z_win, prod_win;
  logic              z_sticky;

  assign z_field  = {z_man, {WinW{1'b0}}} >> shamt;
  assign z_win    = z_field[FieldW-1:ManW];
  assign z_sticky = |z_field[ManW-1:0];
  assign prod_win = {{(WinW - 50){1'b0}}, prod, 2'b00};

  // Add or subtract. For a subtraction with sticky addend bits the +1 of the two's complement
  // is dropped: the window then holds the truncation of the true difference and the sticky
  // bit stands for the rest.
  logic [WinW:0] sum;
  logic          sum_neg;

  assign sum = {1'b0, prod_win} + ({1'b0, z_win} ^ {(WinW + 1){eff_sub}})
             + {{WinW{1'b0}}, eff_sub & ~z_sticky};
  assign sum_neg = sum[WinW];

  assign mag_o    = sum_neg ? (~sum[WinW-1:0] + 1'b1) : sum[WinW-1:0];
  assign sticky_o = z_sticky;

  // An exact zero sum of two addends of opposite sign is +0 in round-to-nearest; two zeros of
  // equal sign keep it. Otherwise the sign of the larger addend wins.
  logic sum_zero;
  assign sum_zero = ~|sum[WinW-1:0] & ~z_sticky;

  always_comb begin
    sign_o = prod_sign;
    if (sum_zero) begin
      sign_o = prod_sign & z_i[31];
    end else if (sum_neg) begin
      sign_o = z_i[31];
    end
  end

`ifndef SYNTHESIS
  // Sticky addend bits only arise when the product dominates, so the difference is positive.
  always_comb begin
    if (!$isunknown({sum_neg, z_sticky})) begin
      assert (!(sum_neg && z_sticky))
        else $error("sgu_fpu_mac: negative sum with sticky addend bits");
    end
  end
`endif

endmodule
