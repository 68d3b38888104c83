// SPDX-License-Identifier: Apache-2.0
// SGU FPU normaliser and rounder: left-normalise a 76-bit magnitude, round to binary32 RNE.
//
// The one normalising shifter of the FPU, shared by the fused multiply-add (add, sub, mul,
// fma) and int->float conversion; float->int conversion reuses the shifter alone through
// force_i. The shift is built as seven stages (64, 32, ..., 1); each stage shifts when the
// top bits it would discard are zero and the total stays within etop_i - 1, so leading-zero
// count and the subnormal limit come out of the same logic and no separate LZC is needed.
// After the shift, either bit 75 is set (normal result, exponent etop_i - shift) or the
// limit was hit (subnormal or zero result, exponent field 0). Bits 74:52 are the fraction,
// bit 51 the round bit, bits 50:0 and sticky_i the sticky bit; ties go to even. A carry out
// of the fraction moves into the exponent field (subnormal -> normal, max -> infinity);
// an exponent of 255 or more before rounding gives infinity.
//
// Latency: combinational.

module sgu_fpu_norm (
  input  logic [75:0] mag_i,          // unsigned magnitude to normalise
  input  logic [9:0]  etop_i,         // biased exponent of mag_i[75] (>= 1 unless force_i)
  input  logic        sticky_i,       // nonzero bits of the value lie below mag_i[0]
  input  logic        sign_i,         // sign of the result
  input  logic        force_i,        // shift left by force_shamt_i instead of normalising
  input  logic [6:0]  force_shamt_i,  // shift amount used when force_i
  output logic [75:0] shifted_o,      // mag_i shifted left (for float->int)
  output logic [31:0] result_o        // rounded binary32 value
);

  localparam int unsigned NumStages = 7;

  // Largest shift that keeps the exponent >= 1, saturated to the 7-bit shift range.
  logic [9:0] max_shamt_wide;
  logic [6:0] max_shamt;
  assign max_shamt_wide = etop_i - 10'd1;
  assign max_shamt      = (max_shamt_wide > 10'd127) ? 7'd127 : max_shamt_wide[6:0];

  // Seven stages of 64, 32, ..., 1: each shifts when the bits it would push out are zero and
  // the shift so far plus its own amount stays within max_shamt (or as force_shamt_i says).
  logic [75:0] norm;
  logic [6:0]  shamt, step;
  logic        top_zero, fits, take;

  always_comb begin
    norm     = mag_i;
    shamt    = 7'd0;
    step     = 7'd0;
    top_zero = 1'b0;
    fits     = 1'b0;
    take     = 1'b0;
    for (int unsigned k = 0; k < NumStages; k++) begin
      step     = 7'd64 >> k;
      top_zero = (norm >> (7'd76 - step)) == 76'd0;
      fits     = ({1'b0, shamt} + {1'b0, step}) <= {1'b0, max_shamt};
      take     = force_i ? |(force_shamt_i & step) : (top_zero & fits);
      if (take) begin
        norm  = norm << step;
        shamt = shamt | step;
      end
    end
  end

  assign shifted_o = norm;

  // Exponent field before rounding: 0 for a subnormal or zero result.
  logic [9:0] exp_pre;
  logic       overflow;
  assign exp_pre  = norm[75] ? (etop_i - {3'b000, shamt}) : 10'd0;
  assign overflow = exp_pre > 10'd254;

  // Round to nearest, ties to even.
  logic        round_bit, sticky, round_up;
  logic [30:0] rounded;
  assign round_bit = norm[51];
  assign sticky    = |norm[50:0] | sticky_i;
  assign round_up  = round_bit & (sticky | norm[52]);
  assign rounded   = {exp_pre[7:0], norm[74:52]} + {30'd0, round_up};

  assign result_o = overflow ? {sign_i, 8'hFF, 23'd0} : {sign_i, rounded};

`ifndef SYNTHESIS
  // Normalisation either reaches the hidden bit or stops at the subnormal limit.
  always_comb begin
    if (!force_i && !$isunknown({norm, shamt, max_shamt})) begin
      assert (norm[75] || norm == '0 || shamt == max_shamt)
        else $error("sgu_fpu_norm: normalisation stopped early");
    end
  end
`endif

endmodule
