// SPDX-License-Identifier: Apache-2.0
// SGU FPU package: operation and compare-condition encodings of sgu_mfu, FP datapath helpers.

package sgu_fpu_pkg;

  // Operation codes on sgu_mfu.fop_i. Codes 11..15 are unused and give result 0.
  localparam logic [3:0] FpuOpFAdd   = 4'd0;   // a + b
  localparam logic [3:0] FpuOpFSub   = 4'd1;   // a - b
  localparam logic [3:0] FpuOpFMul   = 4'd2;   // a * b
  localparam logic [3:0] FpuOpFFma   = 4'd3;   // a * b + c, one rounding
  localparam logic [3:0] FpuOpFMin   = 4'd4;   // minNum, -0 < +0
  localparam logic [3:0] FpuOpFMax   = 4'd5;   // maxNum, -0 < +0
  localparam logic [3:0] FpuOpFCmp   = 4'd6;   // compare under cond_i, result 1 or 0
  localparam logic [3:0] FpuOpCvtF2I = 4'd7;   // float -> int32, toward zero, saturating
  localparam logic [3:0] FpuOpCvtF2U = 4'd8;   // float -> uint32, toward zero, saturating
  localparam logic [3:0] FpuOpCvtI2F = 4'd9;   // int32 -> float, nearest even
  localparam logic [3:0] FpuOpCvtU2F = 4'd10;  // uint32 -> float, nearest even

  // Compare conditions on sgu_mfu.cond_i (same order as the ISA's fcmp mod field).
  localparam logic [2:0] FpuCondEq  = 3'd0;  // a == b, false if unordered
  localparam logic [2:0] FpuCondNe  = 3'd1;  // a != b, true if unordered
  localparam logic [2:0] FpuCondLt  = 3'd2;  // a <  b
  localparam logic [2:0] FpuCondLe  = 3'd3;  // a <= b
  localparam logic [2:0] FpuCondGt  = 3'd4;  // a >  b
  localparam logic [2:0] FpuCondGe  = 3'd5;  // a >= b
  localparam logic [2:0] FpuCondOrd = 3'd6;  // neither is NaN
  localparam logic [2:0] FpuCondUno = 3'd7;  // either is NaN

  // Canonical quiet NaN: every NaN result of the FPU is exactly this value.
  localparam logic [31:0] FpuCanonicalNan = 32'h7FC0_0000;

  // Width of the fixed-point window of the fused multiply-add datapath (3 * 24 + 4 bits).
  localparam int unsigned FpuWinWidth = 76;

  // Subnormal limit of normalisation for a window whose bit 75 has biased exponent etop: a
  // one at bit 76 - etop, etop - 1 places below bit 75 (the largest left shift that keeps the
  // exponent >= 1); none when etop > 76, where every magnitude normalises fully.
  function automatic logic [FpuWinWidth-1:0] fpu_norm_limit(logic [9:0] etop);
    return (etop <= 10'(FpuWinWidth)) ? (FpuWinWidth'(1) << (7'(FpuWinWidth) - etop[6:0])) : '0;
  endfunction

  // The addend z of the fused multiply-add x * y + z that every FP32 arithmetic operation and
  // conversion runs on (docs/fpu.md "The fused multiply-add"): sgu_mfu's z_i. The caller
  // (sgu_core, per lane, from the raw operands) chooses it, so that no selection stands in front
  // of the MFU's exponent path: c for ffma, b for fadd, -b for fsub, a for float->int (which
  // shifts it to truncate), -0 for fmul (x * y + (-0) keeps the product's sign) and
  // int->float (which adds it as +0: its sign is not read).
  typedef enum logic [2:0] {
    FpuZC,        // c
    FpuZB,        // b
    FpuZNegB,     // b with its sign flipped
    FpuZA,        // a
    FpuZNegZero   // -0
  } fpu_zsel_e;

  function automatic fpu_zsel_e fpu_zsel(logic [3:0] fop);
    fpu_zsel_e s;
    unique case (fop)
      FpuOpFAdd:                           s = FpuZB;
      FpuOpFSub:                           s = FpuZNegB;
      FpuOpCvtF2I, FpuOpCvtF2U:            s = FpuZA;
      FpuOpFMul, FpuOpCvtI2F, FpuOpCvtU2F: s = FpuZNegZero;
      default:                             s = FpuZC;  // ffma; the others do not read z
    endcase
    return s;
  endfunction

  function automatic logic [31:0] fpu_addend(fpu_zsel_e s, logic [31:0] a, logic [31:0] b,
                                             logic [31:0] c);
    logic [31:0] z;
    unique case (s)
      FpuZB:       z = b;
      FpuZNegB:    z = {~b[31], b[30:0]};
      FpuZA:       z = a;
      FpuZNegZero: z = 32'h8000_0000;
      default:     z = c;
    endcase
    return z;
  endfunction

endpackage
