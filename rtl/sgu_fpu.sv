// SPDX-License-Identifier: Apache-2.0
// SGU per-lane FP32 unit: IEEE-754 binary32 add/sub/mul/fma, min/max, compare, conversions.
//
// One lane of floating-point arithmetic, bit-exact to IEEE-754 binary32 with round to
// nearest even, subnormals kept (no flush to zero) and one canonical NaN (0x7FC00000) for
// every NaN result. Add, sub and mul run on the fused multiply-add datapath:
//   add = fma(a, 1.0, b), sub = fma(a, 1.0, -b), mul = fma(a, b, -0.0)
// (adding -0.0 is exact and keeps the sign of a zero product). The datapath is
// sgu_fpu_mac (24x24 multiplier, one alignment shifter, one adder) followed by sgu_fpu_norm
// (one normalising shifter and the rounder), which int->float conversion shares; float->int
// conversion reuses the normalising shifter. Min/max and compare use one magnitude
// comparator. Op codes and conditions are in sgu_fpu_pkg; docs/fpu.md has the full rules.
//
// Latency: combinational (zero cycles), no handshake. Unused op codes 11..15 give 0.

module sgu_fpu
  import sgu_fpu_pkg::*;
(
  input  logic [3:0]  op_i,      // operation, sgu_fpu_pkg::FpuOp*
  input  logic [2:0]  cond_i,    // compare condition for FpuOpFCmp, sgu_fpu_pkg::FpuCond*
  input  logic [31:0] a_i,       // operand a (float bits, or integer for int->float)
  input  logic [31:0] b_i,       // operand b
  input  logic [31:0] c_i,       // operand c (addend of FpuOpFFma)
  output logic [31:0] result_o   // result: float bits, integer, or 1/0 for compare
);

  localparam logic [31:0] FpOne     = 32'h3F80_0000;
  localparam logic [31:0] FpNegZero = 32'h8000_0000;
  localparam logic [31:0] FpInf     = 32'h7F80_0000;

  // ---------------------------------------------------------------------------------------
  // Operand classification
  // ---------------------------------------------------------------------------------------
  logic a_exp_max, b_exp_max, a_frac_nz, b_frac_nz;
  logic a_nan, b_nan, a_zero, b_zero;

  assign a_exp_max = &a_i[30:23];
  assign b_exp_max = &b_i[30:23];
  assign a_frac_nz = |a_i[22:0];
  assign b_frac_nz = |b_i[22:0];
  assign a_nan     = a_exp_max & a_frac_nz;
  assign b_nan     = b_exp_max & b_frac_nz;
  assign a_zero    = ~|a_i[30:0];
  assign b_zero    = ~|b_i[30:0];

  // ---------------------------------------------------------------------------------------
  // Fused multiply-add: x * y + z
  // ---------------------------------------------------------------------------------------
  logic [31:0] x, y, z;

  assign x = a_i;

  always_comb begin
    y = b_i;
    z = c_i;
    unique case (op_i)
      FpuOpFAdd: begin
        y = FpOne;
        z = b_i;
      end
      FpuOpFSub: begin
        y = FpOne;
        z = {~b_i[31], b_i[30:0]};
      end
      FpuOpFMul: begin
        z = FpNegZero;
      end
      default: ;
    endcase
  end

  // Special operands of the fma: NaN in, invalid (0*inf, inf-inf), infinite result.
  logic y_exp_max, z_exp_max, y_frac_nz, z_frac_nz;
  logic y_nan, z_nan, y_inf, z_inf, y_zero, a_inf;
  logic prod_inf, fma_nan, fma_inf, fma_inf_sign;

  assign y_exp_max = &y[30:23];
  assign z_exp_max = &z[30:23];
  assign y_frac_nz = |y[22:0];
  assign z_frac_nz = |z[22:0];
  assign y_nan     = y_exp_max & y_frac_nz;
  assign z_nan     = z_exp_max & z_frac_nz;
  assign y_inf     = y_exp_max & ~y_frac_nz;
  assign z_inf     = z_exp_max & ~z_frac_nz;
  assign y_zero    = ~|y[30:0];
  assign a_inf     = a_exp_max & ~a_frac_nz;
  assign prod_inf  = a_inf | y_inf;
  assign fma_nan   = a_nan | y_nan | z_nan | (a_inf & y_zero) | (a_zero & y_inf)
                   | (prod_inf & z_inf & (a_i[31] ^ y[31] ^ z[31]));
  assign fma_inf      = prod_inf | z_inf;
  assign fma_inf_sign = prod_inf ? (a_i[31] ^ y[31]) : z[31];

  logic [75:0] mac_mag;
  logic [9:0]  mac_etop;
  logic        mac_sticky, mac_sign;

  sgu_fpu_mac u_mac (
    .x_i      (x),
    .y_i      (y),
    .z_i      (z),
    .mag_o    (mac_mag),
    .etop_o   (mac_etop),
    .sticky_o (mac_sticky),
    .sign_o   (mac_sign)
  );

  // ---------------------------------------------------------------------------------------
  // Shared normaliser and rounder; conversions feed it in place of the fma
  // ---------------------------------------------------------------------------------------
  // int->float: |a| with its top bit at window bit 75, which weighs 2^31 (biased exp 158).
  // float->int: the mantissa at window bits 23:0, shifted left by exp - 106 so the integer
  // part lands in bits 75:44 (exp 127..158 gives shifts 21..52).
  logic        i2f_neg;
  logic [31:0] i2f_mag;
  logic [7:0]  f2i_shamt;

  assign i2f_neg   = (op_i == FpuOpCvtI2F) & a_i[31];
  assign i2f_mag   = i2f_neg ? (~a_i + 32'd1) : a_i;
  assign f2i_shamt = a_i[30:23] - 8'd106;

  logic [75:0] norm_mag;
  logic [9:0]  norm_etop;
  logic        norm_sticky, norm_sign, norm_force;

  always_comb begin
    norm_mag    = mac_mag;
    norm_etop   = mac_etop;
    norm_sticky = mac_sticky;
    norm_sign   = mac_sign;
    norm_force  = 1'b0;
    unique case (op_i)
      FpuOpCvtI2F, FpuOpCvtU2F: begin
        norm_mag    = {i2f_mag, 44'd0};
        norm_etop   = 10'd158;
        norm_sticky = 1'b0;
        norm_sign   = i2f_neg;
      end
      FpuOpCvtF2I, FpuOpCvtF2U: begin
        norm_mag    = {52'd0, |a_i[30:23], a_i[22:0]};
        norm_etop   = 10'd1;
        norm_sticky = 1'b0;
        norm_sign   = 1'b0;
        norm_force  = 1'b1;
      end
      default: ;
    endcase
  end

  logic [75:0] norm_shifted;
  logic [31:0] norm_result;

  sgu_fpu_norm u_norm (
    .mag_i         (norm_mag),
    .etop_i        (norm_etop),
    .sticky_i      (norm_sticky),
    .sign_i        (norm_sign),
    .force_i       (norm_force),
    .force_shamt_i (f2i_shamt[6:0]),
    .shifted_o     (norm_shifted),
    .result_o      (norm_result)
  );

  // ---------------------------------------------------------------------------------------
  // float -> int32 / uint32, toward zero, saturating, NaN -> 0
  // ---------------------------------------------------------------------------------------
  logic [31:0] f2i_trunc, f2i_result, f2u_result;
  logic        f2i_small;   // |a| < 1
  assign f2i_trunc = norm_shifted[75:44];
  assign f2i_small = a_i[30:23] < 8'd127;

  always_comb begin
    if (a_nan || f2i_small) begin
      f2i_result = 32'd0;
    end else if (a_i[30:23] >= 8'd158) begin  // |a| >= 2^31
      f2i_result = a_i[31] ? 32'h8000_0000 : 32'h7FFF_FFFF;
    end else begin
      f2i_result = a_i[31] ? (~f2i_trunc + 32'd1) : f2i_trunc;
    end
  end

  always_comb begin
    if (a_nan || f2i_small || a_i[31]) begin
      f2u_result = 32'd0;
    end else if (a_i[30:23] >= 8'd159) begin  // a >= 2^32
      f2u_result = 32'hFFFF_FFFF;
    end else begin
      f2u_result = f2i_trunc;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Min / max / compare: one sign-magnitude comparator
  // ---------------------------------------------------------------------------------------
  logic mag_lt, mag_eq, less, unordered, both_zero;
  logic cmp_eq, cmp_lt, cmp_res;

  assign mag_lt    = a_i[30:0] < b_i[30:0];
  assign mag_eq    = a_i[30:0] == b_i[30:0];
  assign unordered = a_nan | b_nan;
  assign both_zero = a_zero & b_zero;

  // a < b for non-NaN operands with -0 < +0.
  always_comb begin
    unique case ({a_i[31], b_i[31]})
      2'b00:   less = mag_lt;
      2'b01:   less = 1'b0;
      2'b10:   less = 1'b1;
      default: less = ~mag_lt & ~mag_eq;
    endcase
  end

  assign cmp_eq = ~unordered & ((mag_eq & (a_i[31] == b_i[31])) | both_zero);
  assign cmp_lt = ~unordered & less & ~both_zero;

  always_comb begin
    unique case (cond_i)
      FpuCondEq:  cmp_res = cmp_eq;
      FpuCondNe:  cmp_res = ~cmp_eq;
      FpuCondLt:  cmp_res = cmp_lt;
      FpuCondLe:  cmp_res = cmp_lt | cmp_eq;
      FpuCondGt:  cmp_res = ~unordered & ~cmp_lt & ~cmp_eq;
      FpuCondGe:  cmp_res = ~unordered & ~cmp_lt;
      FpuCondOrd: cmp_res = ~unordered;
      FpuCondUno: cmp_res = unordered;
      default:    cmp_res = 1'b0;
    endcase
  end

  logic [31:0] min_result, max_result;

  always_comb begin
    if (a_nan && b_nan) begin
      min_result = FpuCanonicalNan;
      max_result = FpuCanonicalNan;
    end else if (a_nan) begin
      min_result = b_i;
      max_result = b_i;
    end else if (b_nan) begin
      min_result = a_i;
      max_result = a_i;
    end else begin
      min_result = less ? a_i : b_i;
      max_result = less ? b_i : a_i;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Result
  // ---------------------------------------------------------------------------------------
  always_comb begin
    result_o = 32'd0;
    unique case (op_i)
      FpuOpFAdd, FpuOpFSub, FpuOpFMul, FpuOpFFma: begin
        if (fma_nan) begin
          result_o = FpuCanonicalNan;
        end else if (fma_inf) begin
          result_o = {fma_inf_sign, FpInf[30:0]};
        end else begin
          result_o = norm_result;
        end
      end
      FpuOpFMin:   result_o = min_result;
      FpuOpFMax:   result_o = max_result;
      FpuOpFCmp:   result_o = {31'd0, cmp_res};
      FpuOpCvtF2I: result_o = f2i_result;
      FpuOpCvtF2U: result_o = f2u_result;
      FpuOpCvtI2F, FpuOpCvtU2F: result_o = norm_result;
      default:     result_o = 32'd0;
    endcase
  end

  // The float->int shift amount only matters for exponents 127..158 (shifts 21..52).
  // Below bit 44 of the shifted mantissa is the fraction, dropped by truncation.
  logic unused_f2i;
  assign unused_f2i = ^{f2i_shamt[7], norm_shifted[43:0]};

endmodule
