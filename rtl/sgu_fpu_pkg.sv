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

  // Addend of the fused multiply-add x*y + z (sgu_fpu_exp.z_sel_i).
  localparam logic [1:0] FpuZSelC    = 2'd0;  // fma: c
  localparam logic [1:0] FpuZSelB    = 2'd1;  // add, sub: b (sub flips its sign)
  localparam logic [1:0] FpuZSelA    = 2'd2;  // float->int: a, shifted to truncate
  localparam logic [1:0] FpuZSelZero = 2'd3;  // mul: -0; int->float: +0

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

endpackage
