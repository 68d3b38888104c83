// SPDX-License-Identifier: Apache-2.0
// SGU multiply / FP unit: FP32 arithmetic, every integer multiply, the 64-bit shifts and the
// 64-bit adds, logic, compares, min and max; 6 stages, 1 multiplier.
//
// An FP32 unit (IEEE-754 binary32, round to nearest even, subnormals kept, one canonical NaN;
// docs/fpu.md has every rule) and integer multiplier (mul, muli, mulh at 8..64 bits), of which
// sgu_core has one per LanesPerMfu lanes, built around exactly one 32x32 unsigned multiplier,
// `p = mul_a_q * mul_b_q`, which serves the FP32 mantissa product (24x24, zero-extended),
// int->float (|a| * 1), the 8..32-bit integer multiplies and, in three steps, the 64-bit
// multiply and the 64-bit shifts (a << n = a * 2^n; the lanes' shifters are 32 bits wide).
//
// FP add, sub and mul run on the fused multiply-add x*y + z:
//   add = fma(a, 1.0, b), sub = fma(a, 1.0, -b), mul = fma(a, b, -0.0)
// split around the shared multiplier into sgu_fpu_exp (operand selection, mantissas,
// exponents, alignment shift amount), sgu_fpu_align (the one alignment shifter), sgu_fpu_add
// (the 77-bit add and the negative case), sgu_fpu_lzc (the normalisation count), sgu_fpu_norm
// (the one normalising shifter and the rounding decision) and the rounding increment (S6).
// int->float feeds |a| through
// the multiplier (times 1, addend +0) into the same adder and normaliser; float->int uses the
// alignment shifter to truncate.
//
// Pipeline (an operation enters in cycle t, the core's execute stage):
//   S0  t    the inputs are registered (the core's operand select and extension end in a
//            register, so that S1 starts from flip-flops).
//   S1  t+1  combinational on the registered inputs: FP classification, x/y/z selection, specials,
//            exponents and the alignment shift amount, min/max/compare, conversion set-up,
//            64-bit shift set-up, the 64-bit ALU, multiplier operand selection. Registered at
//            the end of t.
//   S2  t+2  the multiplier p = mul_a_q * mul_b_q (a 64-bit ALU result in its place: the
//            compare's bit and min's / max's pick are made here from S1's lt and eq), the mulh
//            sign correction; beside it
//            the addend alignment shift, the adder's operand and carry-in. Registered.
//   S3  t+3  FP: the 77-bit add (and Z - P beside it), sign, the magnitude, and beside them
//            the subnormal-limit mask of the count (fpu_norm_limit); float->int
//            negate; integer: result assembly, the 64-bit accumulation. Registered.
//   S4  t+4  the normalisation count (sgu_fpu_lzc); beside it the right shift's reversal and
//            ext_dt of every result that does not come from the normaliser. Registered.
//   S5  t+5  normalising shift and the rounding decision (sgu_fpu_norm). Registered.
//   S6  t+6  the rounding increment, overflow and special-value overrides, result select.
// The alignment shift sits in S2 (rather than in S1) to balance the stages: S2 is otherwise
// only the multiplier. The count has a stage of its own (S4) because the 77-bit add and the
// count in one stage were the SIMD8 board's routed critical path, and the increment (S6)
// because S6 feeds the core's write port in the same cycle (docs/fpga.md "Timing of the
// pipelined core"). docs/fpu.md has the measured delay of each stage.
// Latency 6: result_o is combinational from the S5->S6 registers and holds the result of the
// operation that entered in cycle t during the whole of cycle t+6 (the core writes it at the
// end of t+6). Throughput one operation (or one 64-bit step) per cycle. No stall and no
// handshake: every operation leaves S6 six cycles after it entered. In a cycle with no
// result due, result_o is the last S6 value and means nothing.
//
// Results are ext_dt(raw, dt_i). FP results are 32-bit: float->int gives the 32-bit integer
// and dt_i (the destination type) does the rest; every other FP op is f32, and results from
// the normaliser (fma ops, int->float) are zero-extended without looking at dt_i.
//
// Integer multiply (fpu_i = 0): ia_i/ib_i arrive extended to 64 bits by dt_i.
//   mul (dt of 8..32 bits): a_lo * b_lo; result ext_dt(p, dt_i) (only p[31:0] matters).
//   mulh (i32/u32): hi = p[63:32] - (a_neg ? b_lo : 0) - (b_neg ? a_lo : 0), the signed high
//     word from the unsigned product (a_neg, b_neg only for i32); result ext_dt({0, hi}, dt_i).
//   64-bit mul (wide_i, i64/u64): three steps on three consecutive cycles, same operands:
//     step 0: a_lo*b_lo, step 1: a_lo*b_hi, step 2: a_hi*b_lo. S3 accumulates
//     {hi + p[31:0], lo} in the S3->S4 result register, so the steps must be back to back (an
//     assertion checks it). Only step 2 has a result, 6 cycles after it entered; the S6 value
//     that follows steps 0 and 1 is a partial sum to be ignored.
//   64-bit ALU operation (alu_i, i64/u64, one step): alu_op_i (sgu_pkg::alu64_op_e) of
//     ia_i and ib_i, in S1 beside the FP datapath (the adder, lt, eq; S2 picks): add, sub, and, or, xor; cmp gives
//     {0, cond_i's condition over (a < b, a == b)} (sgu_pkg::cmp_truth; signedness from dt_i);
//     min and max pick an operand. The lanes' ALU is 32 bits wide (sgu_pkg::op_is_alu64). The
//     result rides the S2 -> S3 product register (p_q) in the multiplier's place and leaves S3
//     as any integer result.
//   64-bit shift (shift_i with wide_i, i64/u64; right_i for shr): the three steps of the 64-bit
//     multiply on prepared operands. a << n (n = ib_i[5:0], the amount modulo 64) is the low
//     64 bits of a * 2^n. A logical right shift is a left shift of the bit-reversed operand,
//     reversed back: a >>> n = rev(rev(a) << n); an arithmetic right shift of a negative operand
//     is the complement of the logical shift of its complement: a >> n = ~(~a >>> n). S1 makes
//     the multiplier's operands (the reversal and complement of a, the power of two), S4 reverses
//     and complements the final sum. The golden model computes shifts directly (sw/model).
//
// Stage registers load only when their stage holds a valid operation (the valid bits travel
// down the pipe), and the FP and integer side registers only for their kind of operation, so
// an idle lane toggles no wide register. rst_ni (asynchronous) clears only the valid bits;
// the data registers are not reset (their value is don't-care until an operation reaches
// them, and result_o is undefined until the first result).

`include "sgu_assert.svh"

module sgu_mfu
  import sgu_fpu_pkg::*;
(
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        valid_i,   // an operation (or one step of a 64-bit multiply) enters S1
  input  logic        fpu_i,     // 1: FP32 operation fop_i; 0: integer multiply
  input  logic        ld_fp_i,   // load S0's FP operand registers: at least whenever valid_i &&
                                 // fpu_i (may be set in other cycles too: the data are then
                                 // don't-care, valid_s1 being 0)
  input  logic        ld_int_i,  // ... the integer ones: at least whenever valid_i && !fpu_i
  input  logic [3:0]  fop_i,     // sgu_fpu_pkg::FpuOp*; codes 11..15 give 0
  input  logic [2:0]  cond_i,    // compare condition (FpuOpFCmp), sgu_fpu_pkg::FpuCond*
  input  logic [31:0] a_i,       // FP operand a (int->float: the source, extended to 32 bits)
  input  logic [31:0] b_i,       // FP operand b
  input  logic [31:0] c_i,       // FP operand c (fma addend)
  input  logic [63:0] ia_i,      // integer operand a, extended to 64 bits by dt_i
  input  logic [63:0] ib_i,      // integer operand b, extended to 64 bits by dt_i
  input  logic        mulh_i,    // integer: high 32 bits of the 64-bit product (i32/u32)
  input  logic        shift_i,   // integer, wide_i: 64-bit shift of ia_i by ib_i[5:0]
  input  logic        right_i,   // shift_i: right (arithmetic for signed dt_i), else left
  input  logic        wide_i,    // integer: 64-bit multiply or shift, three steps
  input  logic        alu_i,     // integer: 64-bit ALU operation alu_op_i (i64/u64), one step
  input  logic [2:0]  alu_op_i,  // sgu_pkg::alu64_op_e; cmp's condition is cond_i
  input  logic [1:0]  step_i,    // wide only: 0 a_lo*b_lo, 1 a_lo*b_hi, 2 a_hi*b_lo, back to back
  input  logic [3:0]  dt_i,      // result type: result_o = ext_dt(raw, dt_i); FP: f32 or, for
                                 // float->int, the destination integer type
  output logic [63:0] result_o   // 6 cycles after entry (wide: 6 cycles after step 2)
);

  localparam logic [31:0] FpOne     = 32'h3F80_0000;
  localparam logic [31:0] FpNegZero = 32'h8000_0000;
  localparam logic [31:0] FpInf     = 32'h7F80_0000;
  localparam int unsigned WinW      = FpuWinWidth;  // 76
  // int->float: |a| is the product |a| * 1 at window bits 33:2; window bit 75 weighs 2^73.
  localparam logic [9:0]  I2fEtop   = 10'd200;

  // =======================================================================================
  // S0: the inputs, registered (the core's operand select and extension end here, so that S1
  // starts from flip-flops). The data registers load only with an operation.
  // =======================================================================================
  logic        valid_s1, fpu_s1, mulh_s1, shift_s1, right_s1, wide_s1, alu_s1;
  logic [2:0]  alu_op_s1;
  logic [3:0]  fop_s1, dt_s1;
  logic        y_one_s1, f2i_s1;
  logic [1:0]  z_sel_s1;
  logic [2:0]  cond_s1;
  logic [31:0] a_s1, b_s1, c_s1;
  logic [63:0] ia_s1, ib_s1;
  logic [1:0]  step_s1;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_s1 <= 1'b0;
    end else begin
      valid_s1 <= valid_i;
    end
  end

  // The controls and operands load with ld_fp_i / ld_int_i, a superset of the cycles an
  // operation enters (valid_i): the core drives them from X's registers alone (a valid long
  // operation of either kind), not from its issue decision (long_issue: the trap checks and
  // the watchdog), whose fan-out into the 200-odd enables of each MFU was a group of the SIMD8
  // board's late endpoints at c25e398 (docs/timing.md, twenty-first session). A load without
  // valid_i leaves valid_s1 at 0, so S2 never takes it.
  always_ff @(posedge clk_i) begin
    if (ld_fp_i || ld_int_i) begin
      fpu_s1  <= fpu_i;
      fop_s1  <= fop_i;
      // sgu_fpu_exp's operand selection, decoded here from fop_i so that S1's exponent path
      // (selection, carry-save sum, one 10-bit add, clamp, shift amount) starts from
      // flip-flops.
      y_one_s1 <= fop_i inside {FpuOpFAdd, FpuOpFSub};
      unique case (fop_i)
        FpuOpFAdd, FpuOpFSub:     z_sel_s1 <= FpuZSelB;
        FpuOpCvtF2I, FpuOpCvtF2U: z_sel_s1 <= FpuZSelA;
        FpuOpFMul, FpuOpCvtI2F, FpuOpCvtU2F: z_sel_s1 <= FpuZSelZero;
        default:                  z_sel_s1 <= FpuZSelC;
      endcase
      f2i_s1  <= fop_i inside {FpuOpCvtF2I, FpuOpCvtF2U};
      cond_s1 <= cond_i;
      mulh_s1  <= mulh_i;
      shift_s1 <= shift_i;
      right_s1 <= right_i;
      wide_s1  <= wide_i;
      alu_s1   <= alu_i;
      alu_op_s1 <= alu_op_i;
      step_s1 <= step_i;
      dt_s1   <= dt_i;
    end
  end

  // The operands: the FP ones load only with an FP operation, the integer ones only with an
  // integer operation. The core drives a_i and b_i from ia_i and ib_i (sgu_core), so with one
  // enable synthesis would merge a_s1 with ia_s1[31:0] and b_s1 with ib_s1[31:0], and the
  // placer would put the merged register between its two far consumers: the FP exponent path
  // and the 64-bit ALU / multiplier operand select (the routed critical path of the SIMD16
  // board at 3b9bf0a, docs/timing.md). Separate enables keep two registers, each placed beside
  // its own logic; an idle side does not toggle.
  always_ff @(posedge clk_i) begin
    if (ld_fp_i) begin
      a_s1 <= a_i;
      b_s1 <= b_i;
      c_s1 <= c_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (ld_int_i) begin
      ia_s1 <= ia_i;
      ib_s1 <= ib_i;
    end
  end

  // FP control carried from S1 to S3: everything but the operands of the datapath.
  typedef struct packed {
    logic        z_sign;     // sign of the addend
    logic        prod_sign;  // sign of the product
    logic        eff_sub;    // z_sign ^ prod_sign
    logic [9:0]  etop;       // biased exponent of window bit 75
    logic        use_norm;   // result from the normaliser (fma ops, int->float)
    logic        nan;        // result is the canonical NaN (fma ops)
    logic        inf;        // result is infinity (fma ops)
    logic        inf_sign;   // sign of that infinity
    logic        use_trunc;  // float->int result is z_op[75:44], negated if trunc_neg
    logic        trunc_neg;
    logic [31:0] fixed;      // result when neither: min/max/compare, 0, saturation (made in
                             // S2 from fp_pick_t; don't-care in S1's)
  } fp_ctl_t;

  // min / max / compare, S1 -> S2: S1 ends at the magnitudes' comparison (the carry chain's
  // a < b, the equality per byte) and registers the two candidate results and the compare's
  // truth table; S2 decides `less` and picks (fp_ctl_t fixed). Made in one stage, the
  // equality's reduction, less, the condition and the pick were 9 LUT4 after the carry chain
  // into the S2 register, the deepest path of the SIMD16 depth model at 7a9e713 (18.6 ns),
  // which sets how far ABC lets every other path deepen (docs/timing.md, twenty-sixth session).
  typedef struct packed {
    logic [31:0] res_lt;     // the result if a < b (by `less` below), or the only one
    logic [31:0] res_ge;     // ... otherwise
    logic        mag_lt;     // |a| < |b| (bits 30:0)
    logic [3:0]  mag_eq;     // bytes of bits 30:0 equal
    logic        a_sign;
    logic        b_sign;
    logic        cmp;        // bit 0 is the compare's: tt[{less, equal}]
    logic [3:0]  tt;         // the condition for each {less, equal}, NaN and zeros applied
  } fp_pick_t;

  // FP side band S1 -> S2: the addend before alignment.
  typedef struct packed {
    logic [23:0] z_man;      // addend mantissa (float->int: the source's)
    logic [6:0]  shamt;      // its alignment shift
    fp_pick_t    pick;
    fp_ctl_t     ctl;
  } fp_s2_t;

  // FP side band S2 -> S3: the aligned addend, as the adder operand.
  typedef struct packed {
    logic [WinW-1:0] z_op;      // addend aligned in the window, complemented if eff_sub
                                // (float->int: the source shifted, eff_sub is 0)
    logic            z_sticky;  // addend bits below the window
    logic            cin;       // carry-in of the adder: eff_sub & !z_sticky
    fp_ctl_t         ctl;
  } fp_s3_t;

  // What travels with the sum's magnitude from S3 to S6: its sticky bit, the sign, the window's
  // exponent and the special-value overrides.
  typedef struct packed {
    logic            sticky;
    logic            sign;
    logic [9:0]      etop;
    logic            nan;
    logic            inf;
    logic            inf_sign;
  } fp_sum_t;

  // FP side band S3 -> S4: the sum's magnitude and the count's bound.
  typedef struct packed {
    logic [WinW-1:0] mag;
    logic [WinW-1:0] limit;     // subnormal limit of normalisation (sgu_fpu_lzc)
    fp_sum_t         sum;
  } fp_s4_t;

  // FP side band S4 -> S5: the normaliser's inputs.
  typedef struct packed {
    logic [WinW-1:0] mag;
    logic [6:0]      shamt;     // normalising shift (sgu_fpu_lzc)
    fp_sum_t         sum;
  } fp_s5_t;

  // =======================================================================================
  // S1 (cycle t+1): combinational on the registered inputs
  // =======================================================================================

  // ---- FP: operand classification, the fma's operands and special cases, the conversions,
  // min / max / compare ----
  // One procedural block (and sgu_fpu_exp behind its en_i), evaluated only with an FP operation
  // in S1 (fpu_en_s1): otherwise every value is don't-care (x: synthesis adds no gate) and the
  // simulation skips the stage, as it skips S2 and S3 (docs/performance.md).
  // The fused multiply-add computes x * y + z; float->int shifts a in z's place, int->float
  // adds +0. x is a; sgu_fpu_exp selects the magnitudes of y and z itself (y_one_s1,
  // z_sel_s1, decoded in S0); y and z here serve the signs and the special operands.
  logic        fpu_en_s1;
  logic        op_i2f;
  logic [31:0] i2f_mag;
  fp_ctl_t     ctl_s1;  // the side band's controls but etop (which needs sgu_fpu_exp)
  fp_pick_t    pick_s1;

  assign fpu_en_s1 = valid_s1 & fpu_s1;

  always_comb begin
    logic        a_exp_max, b_exp_max, a_frac_nz, b_frac_nz, a_nan, b_nan, a_zero, b_zero;
    logic        op_fma, i2f_neg, f2i_signed, f2i_zero, f2i_sat;
    logic [31:0] y, z, f2i_fixed, min_result, max_result;
    logic        y_exp_max, z_exp_max, y_frac_nz, z_frac_nz, y_nan, z_nan, y_inf, z_inf;
    logic        y_zero, a_inf, prod_inf, fma_nan, fma_inf, fma_inf_sign;
    logic        unordered, both_zero, cmp_eq, cmp_lt, cmp_res;
    op_i2f  = 'x;
    i2f_mag = 'x;
    ctl_s1  = 'x;
    pick_s1 = 'x;
    if (fpu_en_s1) begin
      a_exp_max = &a_s1[30:23];
      b_exp_max = &b_s1[30:23];
      a_frac_nz = |a_s1[22:0];
      b_frac_nz = |b_s1[22:0];
      a_nan     = a_exp_max & a_frac_nz;
      b_nan     = b_exp_max & b_frac_nz;
      a_zero    = ~|a_s1[30:0];
      b_zero    = ~|b_s1[30:0];

      op_fma = 1'b0;
      op_i2f = 1'b0;
      unique case (fop_s1)
        FpuOpFAdd, FpuOpFSub, FpuOpFMul, FpuOpFFma: op_fma = 1'b1;
        FpuOpCvtI2F, FpuOpCvtU2F:                   op_i2f = 1'b1;
        default: ;
      endcase

      // y and z from the operand selection decoded in S0 (the one decision sgu_fpu_exp also
      // uses). A zero addend is -0: fmul's x * y + (-0) keeps the product's sign; int->float
      // does not read z's sign (op_fma is 0).
      y = y_one_s1 ? FpOne : b_s1;
      unique case (z_sel_s1)
        FpuZSelB:    z = {b_s1[31] ^ (fop_s1 == FpuOpFSub), b_s1[30:0]};
        FpuZSelA:    z = a_s1;
        FpuZSelZero: z = FpNegZero;
        default:     z = c_s1;
      endcase

      // Special operands of the fma: NaN in, invalid (0*inf, inf-inf), infinite result.
      y_exp_max    = &y[30:23];
      z_exp_max    = &z[30:23];
      y_frac_nz    = |y[22:0];
      z_frac_nz    = |z[22:0];
      y_nan        = y_exp_max & y_frac_nz;
      z_nan        = z_exp_max & z_frac_nz;
      y_inf        = y_exp_max & ~y_frac_nz;
      z_inf        = z_exp_max & ~z_frac_nz;
      y_zero       = ~|y[30:0];
      a_inf        = a_exp_max & ~a_frac_nz;
      prod_inf     = a_inf | y_inf;
      fma_nan      = a_nan | y_nan | z_nan | (a_inf & y_zero) | (a_zero & y_inf)
                   | (prod_inf & z_inf & (a_s1[31] ^ y[31] ^ z[31]));
      fma_inf      = prod_inf | z_inf;
      fma_inf_sign = prod_inf ? (a_s1[31] ^ y[31]) : z[31];

      // int -> float: |a| goes through the multiplier (times 1).
      i2f_neg = (fop_s1 == FpuOpCvtI2F) & a_s1[31];
      i2f_mag = i2f_neg ? (~a_s1 + 32'd1) : a_s1;

      // float -> int32 / uint32: toward zero, saturating, NaN -> 0. |a| < 1 gives 0; |a| >=
      // 2^31 (signed) or a >= 2^32 (unsigned) saturates to 0x7FFFFFFF, 0x80000000 (signed)
      // or 0xFFFFFFFF (unsigned).
      f2i_signed = fop_s1 == FpuOpCvtF2I;
      f2i_zero   = a_nan | (a_s1[30:23] < 8'd127) | (~f2i_signed & a_s1[31]);
      f2i_sat    = f2i_signed ? (a_s1[30:23] >= 8'd158) : (a_s1[30:23] >= 8'd159);
      f2i_fixed  = f2i_zero ? 32'd0
                            : {~f2i_signed | a_s1[31], {31{~(f2i_signed & a_s1[31])}}};

      // Min / max / compare: one sign-magnitude comparator; less is a < b for non-NaN
      // operands with -0 < +0. Here the magnitudes' comparison and the candidates; S2 decides
      // less and picks (fp_pick_t). The truth table gives the condition for each outcome
      // {less, equal} (equal: the magnitudes and the signs), NaN and zeros applied:
      //   lt = !unordered && less && !both_zero, eq = !unordered && (equal || both_zero).
      pick_s1.mag_lt = a_s1[30:0] < b_s1[30:0];
      for (int unsigned k = 0; k < 3; k++) begin
        pick_s1.mag_eq[k] = a_s1[8*k +: 8] == b_s1[8*k +: 8];
      end
      pick_s1.mag_eq[3] = a_s1[30:24] == b_s1[30:24];  // bit 31 is the sign
      pick_s1.a_sign    = a_s1[31];
      pick_s1.b_sign    = b_s1[31];
      unordered = a_nan | b_nan;
      both_zero = a_zero & b_zero;
      for (int unsigned i = 0; i < 4; i++) begin
        cmp_lt = ~unordered & i[1] & ~both_zero;
        cmp_eq = ~unordered & (i[0] | both_zero);
        unique case (cond_s1)
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
        pick_s1.tt[i] = cmp_res;
      end
      if (a_nan && b_nan) begin
        min_result = FpuCanonicalNan;
        max_result = FpuCanonicalNan;
      end else if (a_nan) begin
        min_result = b_s1;
        max_result = b_s1;
      end else if (b_nan) begin
        min_result = a_s1;
        max_result = a_s1;
      end else begin
        min_result = 'x;
        max_result = 'x;
      end
      pick_s1.cmp = fop_s1 == FpuOpFCmp;
      unique case (fop_s1)
        FpuOpFMin: begin
          pick_s1.res_lt = unordered ? min_result : a_s1;
          pick_s1.res_ge = unordered ? min_result : b_s1;
        end
        FpuOpFMax: begin
          pick_s1.res_lt = unordered ? max_result : b_s1;
          pick_s1.res_ge = unordered ? max_result : a_s1;
        end
        FpuOpCvtF2I, FpuOpCvtF2U: begin
          pick_s1.res_lt = f2i_fixed;
          pick_s1.res_ge = f2i_fixed;
        end
        default: begin  // compare (bit 0 from tt), fma ops, int->float, codes 11..15
          pick_s1.res_lt = 32'd0;
          pick_s1.res_ge = 32'd0;
        end
      endcase

      // The side band's controls. Ops that do not use the sum add two equal-signed values:
      // the adder stays harmless.
      ctl_s1.prod_sign = op_fma ? (a_s1[31] ^ y[31]) : i2f_neg;
      ctl_s1.z_sign    = op_fma ? z[31] : i2f_neg;
      ctl_s1.eff_sub   = op_fma & (a_s1[31] ^ y[31] ^ z[31]);
      ctl_s1.use_norm  = op_fma | op_i2f;
      ctl_s1.nan       = op_fma & fma_nan;
      ctl_s1.inf       = op_fma & fma_inf;
      ctl_s1.inf_sign  = fma_inf_sign;
      ctl_s1.use_trunc = f2i_s1 & ~f2i_zero & ~f2i_sat;
      ctl_s1.trunc_neg = f2i_signed & a_s1[31];
      ctl_s1.fixed     = 'x;  // S2's (fp_pick_t)
    end
  end

  // Mantissas, exponents and the alignment shift amount.
  logic [23:0] x_man, y_man, z_man;
  logic [6:0]  align_shamt;
  logic [9:0]  exp_etop;

  sgu_fpu_exp u_exp (
    .en_i    (fpu_en_s1),
    .a_i     (a_s1[30:0]),
    .b_i     (b_s1[30:0]),
    .c_i     (c_s1[30:0]),
    .y_one_i (y_one_s1),
    .z_sel_i (z_sel_s1),
    .f2i_i   (f2i_s1),
    .x_man_o (x_man),
    .y_man_o (y_man),
    .z_man_o (z_man),
    .shamt_o (align_shamt),
    .etop_o  (exp_etop)
  );

  // ---- FP side band ----
  fp_s2_t fp_s1;

  always_comb begin
    fp_s1          = 'x;
    if (fpu_en_s1) begin
      fp_s1.z_man    = z_man;
      fp_s1.shamt    = align_shamt;
      fp_s1.pick     = pick_s1;
      fp_s1.ctl      = ctl_s1;
      fp_s1.ctl.etop = op_i2f ? I2fEtop : exp_etop;
    end
  end

  // ---- Integer multiply set-up ----
  logic a_neg_s1, b_neg_s1, acc_s1;

  // mulh i32: the signs of the operands correct the unsigned product's high word.
  assign a_neg_s1 = mulh_s1 & sgu_pkg::dt_signed(dt_s1) & ia_s1[31];
  assign b_neg_s1 = mulh_s1 & sgu_pkg::dt_signed(dt_s1) & ib_s1[31];
  // 64-bit steps 1 and 2 add their product's low word to the high word of the sum so far.
  assign acc_s1   = wide_s1 & (step_s1 != 2'd0);

  // ---- 64-bit shifts: the operands of a * 2^n ----
  // a is complemented for an arithmetic right shift of a negative value and reversed for every
  // right shift; S4 undoes both on the final sum (shr4_q, neg4_q).
  logic        sh_neg_s1, shr_s1;
  logic [63:0] op_a_s1, op_b_s1;

  assign sh_neg_s1 = right_s1 & sgu_pkg::dt_signed(dt_s1) & ia_s1[63];
  assign shr_s1    = shift_s1 & right_s1 & (step_s1 == 2'd2);
  always_comb begin
    op_a_s1 = ia_s1;
    op_b_s1 = ib_s1;
    if (shift_s1) begin  // (a simulator does the reversal only for a shift)
      op_a_s1 = ia_s1 ^ {64{sh_neg_s1}};
      if (right_s1) op_a_s1 = {<<{op_a_s1}};
      op_b_s1 = 64'd1 << ib_s1[5:0];
    end
  end

  // ---- 64-bit ALU operations ----
  // Only with one in S1 (otherwise don't-care: no gate, and the simulation skips it). One
  // 64-bit adder: a + b, or a - b for everything that compares; lt from the difference (signed:
  // the operands' signs when they differ, since equal signs cannot overflow), eq beside it.
  // S1 ends at the adder and the logic: its result (or operand a, for min and max), operand b,
  // lt and eq are registered, and S2 makes the compare's bit and min's / max's pick, so lt does
  // not fan out to 64 multiplexers at the end of the carry chain (the routed critical path of
  // the SIMD8 board at 9108504: docs/timing.md "Routed timing, step by step").
  logic        alu_en_s1;
  logic [63:0] alu_res_s1;  // add, sub, and, or, xor: the result; min, max: operand a
  logic        alu_lt_s1, alu_eq_s1;

  assign alu_en_s1 = valid_s1 & ~fpu_s1 & alu_s1;
  always_comb begin
    logic [64:0] sum;
    logic [63:0] logic_res;
    logic        sub;
    sum        = 'x;
    logic_res  = 'x;
    sub        = 'x;
    alu_res_s1 = 'x;
    alu_lt_s1  = 'x;
    alu_eq_s1  = 'x;
    if (alu_en_s1) begin
      sub = alu_op_s1 != sgu_pkg::Alu64Add;
      sum = {1'b0, ia_s1} + {1'b0, sub ? ~ib_s1 : ib_s1} + 65'(sub);
      alu_lt_s1 = sgu_pkg::dt_signed(dt_s1) ? ((ia_s1[63] != ib_s1[63]) ? ia_s1[63] : sum[63])
                                            : !sum[64];
      alu_eq_s1 = ia_s1 == ib_s1;
      // The result select in the lanes' form: the adder, the logic, an operand (S2 picks the
      // compare's bit or operand b).
      if (alu_op_s1 == sgu_pkg::Alu64And)     logic_res = ia_s1 & ib_s1;
      else if (alu_op_s1 == sgu_pkg::Alu64Or) logic_res = ia_s1 | ib_s1;
      else                                    logic_res = ia_s1 ^ ib_s1;
      if (alu_op_s1 inside {sgu_pkg::Alu64Add, sgu_pkg::Alu64Sub}) alu_res_s1 = sum[63:0];
      else if (alu_op_s1 inside {sgu_pkg::Alu64Min, sgu_pkg::Alu64Max}) alu_res_s1 = ia_s1;
      else alu_res_s1 = logic_res;
    end
  end

  // ---- Operands of the one multiplier ----
  logic [31:0] mul_a_d, mul_b_d;

  always_comb begin
    if (fpu_s1) begin
      if (op_i2f) begin
        mul_a_d = i2f_mag;
        mul_b_d = 32'd1;
      end else begin
        mul_a_d = {8'd0, x_man};
        mul_b_d = {8'd0, y_man};
      end
    end else if (wide_s1 && step_s1 == 2'd1) begin
      mul_a_d = op_a_s1[31:0];
      mul_b_d = op_b_s1[63:32];
    end else if (wide_s1 && step_s1 == 2'd2) begin
      mul_a_d = op_a_s1[63:32];
      mul_b_d = op_b_s1[31:0];
    end else begin
      mul_a_d = op_a_s1[31:0];
      mul_b_d = op_b_s1[31:0];
    end
  end

  // ---- S1 -> S2 registers ----
  logic        v2_q, fpu2_q;
  logic [31:0] mul_a_q, mul_b_q;  // the multiplier's operands, registered in u_mul
  logic [63:0] mul_p;             // their product
  logic [3:0]  dt2_q;
  fp_s2_t      fp2_q;
  logic        a_neg2_q, b_neg2_q, mulh2_q, acc2_q, shr2_q, neg2_q, alu2_q;
  logic [63:0] alu_res2_q, alu_b2_q;
  logic        alu_lt2_q, alu_eq2_q, alu_cmp2_q, alu_mm2_q, alu_min2_q;
  logic [3:0]  alu_tt2_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v2_q <= 1'b0;
    end else begin
      v2_q <= valid_s1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (valid_s1) begin
      fpu2_q  <= fpu_s1;
      dt2_q   <= dt_s1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (valid_s1 && fpu_s1) begin
      fp2_q <= fp_s1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (valid_s1 && !fpu_s1) begin
      a_neg2_q <= a_neg_s1;
      b_neg2_q <= b_neg_s1;
      mulh2_q  <= mulh_s1;
      acc2_q   <= acc_s1;
      shr2_q   <= shr_s1;
      neg2_q   <= sh_neg_s1;
      alu2_q   <= alu_s1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (alu_en_s1) begin
      alu_res2_q <= alu_res_s1;
      alu_b2_q   <= ib_s1;
      alu_lt2_q  <= alu_lt_s1;
      alu_eq2_q  <= alu_eq_s1;
      alu_cmp2_q <= alu_op_s1 == sgu_pkg::Alu64Cmp;
      alu_mm2_q  <= alu_op_s1 inside {sgu_pkg::Alu64Min, sgu_pkg::Alu64Max};
      alu_min2_q <= alu_op_s1 == sgu_pkg::Alu64Min;
      alu_tt2_q  <= sgu_pkg::cmp_truth(cond_s1);
    end
  end

  // =======================================================================================
  // S2 (cycle t+2): the multiplier, and beside it the addend alignment
  // =======================================================================================
  logic [63:0] p;
  logic [31:0] corr;
  fp_s3_t      fp_s2;

  // The 64-bit ALU's result, finished here: the compare's bit, min's or max's operand b when
  // it wins (only with an ALU operation in S2; otherwise don't-care).
  logic [63:0] alu_res_s2;
  always_comb begin
    alu_res_s2 = 'x;
    if (v2_q && !fpu2_q && alu2_q) begin
      if (alu_cmp2_q) alu_res_s2 = {63'd0, alu_tt2_q[{alu_lt2_q, alu_eq2_q}]};
      else if (alu_mm2_q && (alu_min2_q ? !alu_lt2_q : alu_lt2_q)) alu_res_s2 = alu_b2_q;
      else alu_res_s2 = alu_res2_q;
    end
  end

  // The one multiplier of the unit, its operands registered at the end of S1 (inside the DSP
  // cells in the ECP5 build: sgu_mul32); a 64-bit ALU result takes the product's place.
  sgu_mul32 u_mul (
    .clk_i(clk_i),
    .en_i (valid_s1),
    .a_i  (mul_a_d),
    .b_i  (mul_b_d),
    .a_q_o(mul_a_q),
    .b_q_o(mul_b_q),
    .p_o  (mul_p)
  );
  assign p = (!fpu2_q && alu2_q) ? alu_res_s2 : mul_p;

  // mulh i32: the amount to subtract from the unsigned product's high word (mod 2^32).
  assign corr = (a_neg2_q ? mul_b_q : 32'd0) + (b_neg2_q ? mul_a_q : 32'd0);

  logic            fpu_en_s2;  // an FP operation is in S2: its datapath computes
  logic [WinW-1:0] z_win;
  logic            z_sticky;

  assign fpu_en_s2 = v2_q & fpu2_q;

  sgu_fpu_align u_align (
    .en_i       (fpu_en_s2),
    .z_man_i    (fp2_q.z_man),
    .shamt_i    (fp2_q.shamt),
    .z_win_o    (z_win),
    .z_sticky_o (z_sticky)
  );

  // Made here, where there is time, so that S3 starts its carry chain and its count at once
  // (computed only with an FP operation in the stage, like u_align: docs/fpu.md).
  always_comb begin
    fp_pick_t pk;
    logic     mag_eq, less, equal;
    fp_s2  = 'x;
    pk     = 'x;
    mag_eq = 'x;
    less   = 'x;
    equal  = 'x;
    if (fpu_en_s2) begin
      fp_s2.z_op     = z_win ^ {WinW{fp2_q.ctl.eff_sub}};
      fp_s2.z_sticky = z_sticky;
      fp_s2.cin      = fp2_q.ctl.eff_sub & ~z_sticky;
      fp_s2.ctl      = fp2_q.ctl;
      // min / max / compare: the pick (fp_pick_t).
      pk     = fp2_q.pick;
      mag_eq = &pk.mag_eq;
      unique case ({pk.a_sign, pk.b_sign})
        2'b00:   less = pk.mag_lt;
        2'b01:   less = 1'b0;
        2'b10:   less = 1'b1;
        default: less = ~pk.mag_lt & ~mag_eq;
      endcase
      equal                = mag_eq & (pk.a_sign == pk.b_sign);
      fp_s2.ctl.fixed      = less ? pk.res_lt : pk.res_ge;
      if (pk.cmp) fp_s2.ctl.fixed[0] = pk.tt[{less, equal}];
    end
  end

  // ---- S2 -> S3 registers ----
  logic        v3_q, fpu3_q;
  logic [63:0] p_q;
  logic [3:0]  dt3_q;
  fp_s3_t      fp3_q;
  logic [31:0] corr3_q;
  logic        mulh3_q, acc3_q, shr3_q, neg3_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v3_q <= 1'b0;
    end else begin
      v3_q <= v2_q;
    end
  end

  always_ff @(posedge clk_i) begin
    if (v2_q) begin
      fpu3_q <= fpu2_q;
      p_q    <= p;
      dt3_q  <= dt2_q;
    end
  end

  always_ff @(posedge clk_i) begin
    if (fpu_en_s2) begin
      fp3_q <= fp_s2;
    end
  end

  always_ff @(posedge clk_i) begin
    if (v2_q && !fpu2_q) begin
      corr3_q <= corr;
      mulh3_q <= mulh2_q;
      acc3_q  <= acc2_q;
      shr3_q  <= shr2_q;
      neg3_q  <= neg2_q;
    end
  end

  // =======================================================================================
  // S3 (cycle t+3): FP add, float->int negate, integer result
  // =======================================================================================
  logic   fpu_en_s3;  // an FP operation is in S3
  logic   add_neg;
  fp_s4_t fp_s3;

  assign fpu_en_s3 = v3_q & fpu3_q;

  sgu_fpu_add u_add (
    .en_i        (fpu_en_s3),
    .prod_i      (p_q[47:0]),
    .prod_sign_i (fp3_q.ctl.prod_sign),
    .z_op_i      (fp3_q.z_op),
    .z_sticky_i  (fp3_q.z_sticky),
    .z_sign_i    (fp3_q.ctl.z_sign),
    .eff_sub_i   (fp3_q.ctl.eff_sub),
    .cin_i       (fp3_q.cin),
    .mag_o       (fp_s3.mag),
    .sticky_o    (fp_s3.sum.sticky),
    .sign_o      (fp_s3.sum.sign),
    .neg_o       (add_neg)
  );

  // The count's bound, decoded from the window's exponent beside the add (off its carry chain),
  // registered for S4's count.
  assign fp_s3.limit    = fpu_norm_limit(fp3_q.ctl.etop);
  assign fp_s3.sum.etop     = fp3_q.ctl.etop;
  assign fp_s3.sum.nan      = fp3_q.ctl.nan;
  assign fp_s3.sum.inf      = fp3_q.ctl.inf;
  assign fp_s3.sum.inf_sign = fp3_q.ctl.inf_sign;

  // Integer: one 32-bit adder for the mulh correction and the 64-bit accumulation. Results
  // that do not come from the normaliser leave S3 raw (the accumulator's form); S4 reverses
  // and complements a right shift's and extends every one by its type, off S3's carry chains
  // (the chain into the reversal and the extension was eight LUT levels, the deepest of the
  // depth model's MFU paths at 695468b; docs/timing.md). Computed only with an operation in S3
  // (res_q loads only then).
  logic [63:0] res_q;  // S3 -> S4 result register, also the 64-bit accumulator
  logic [63:0] res_d;

  always_comb begin
    logic [31:0] trunc, fp_res3, hi;
    logic [63:0] int_res3, raw;
    trunc    = 'x;
    fp_res3  = 'x;
    hi       = 'x;
    int_res3 = 'x;
    raw      = 'x;
    res_d    = 'x;
    if (v3_q) begin
      if (fpu3_q) begin
        // float->int: the integer part is at z_op[75:44] (eff_sub is 0), truncated toward
        // zero.
        trunc   = fp3_q.z_op[WinW-1:WinW-32];
        fp_res3 = !fp3_q.ctl.use_trunc ? fp3_q.ctl.fixed
                : fp3_q.ctl.trunc_neg  ? (~trunc + 32'd1) : trunc;
        raw     = {32'd0, fp_res3};
      end else begin
        hi = acc3_q ? (res_q[63:32] + p_q[31:0]) : (p_q[63:32] - corr3_q);
        if (acc3_q) begin
          int_res3 = {hi, res_q[31:0]};
        end else if (mulh3_q) begin
          int_res3 = {32'd0, hi};
        end else begin
          int_res3 = p_q;
        end
        raw = int_res3;
      end
      res_d = raw;
    end
  end

  // ---- S3 -> S4 registers ----
  logic       v4_q, norm4_q;
  fp_s4_t     fp4_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v4_q <= 1'b0;
    end else begin
      v4_q <= v3_q;
    end
  end

  logic       shr4_q, neg4_q;
  logic [3:0] dt4_q;

  always_ff @(posedge clk_i) begin
    if (v3_q) begin
      res_q   <= res_d;
      norm4_q <= fpu3_q & fp3_q.ctl.use_norm;
      shr4_q  <= !fpu3_q & shr3_q;
      neg4_q  <= neg3_q;
      dt4_q   <= dt3_q;
    end
  end

  always_ff @(posedge clk_i) begin
    if (fpu_en_s3 && fp3_q.ctl.use_norm) begin
      fp4_q <= fp_s3;
    end
  end

  // =======================================================================================
  // S4 (cycle t+4): the normalisation count; the integer result waits
  // =======================================================================================
  // The count of the sum's magnitude (one sgu_fpu_lzc, on the value S3 selected), a stage of
  // its own since the 77-bit add and the count in one stage were the SIMD8 board's routed
  // critical path (docs/timing.md "Routed timing, step by step"). Computed only with an FP
  // result for the normaliser in S4.
  fp_s5_t fp_s4;

  sgu_fpu_lzc u_lzc (
    .en_i    (v4_q & norm4_q),
    .mag_i   (fp4_q.mag),
    .limit_i (fp4_q.limit),
    .cnt_o   (fp_s4.shamt)
  );

  assign fp_s4.mag = fp4_q.mag;
  assign fp_s4.sum = fp4_q.sum;

  // The integer result (and float->int's): the last step of a 64-bit right shift reversed (and
  // complemented) back, then every result extended by its type. Computed only with such a
  // result in S4.
  logic [63:0] res5_d;
  always_comb begin
    logic [63:0] raw;
    raw    = 'x;
    res5_d = 'x;
    if (v4_q && !norm4_q) begin
      raw = res_q;
      if (shr4_q) begin
        raw = {<<{raw}};
        raw = raw ^ {64{neg4_q}};
      end
      res5_d = sgu_pkg::ext_dt(raw, dt4_q);
    end
  end

  // ---- S4 -> S5 registers ----
  logic        v5_q, norm5_q;
  fp_s5_t      fp5_q;
  logic [63:0] res5_q;  // the integer result, a stage behind res_q

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v5_q <= 1'b0;
    end else begin
      v5_q <= v4_q;
    end
  end

  always_ff @(posedge clk_i) begin
    if (v4_q) begin
      norm5_q <= norm4_q;
      if (!norm4_q) res5_q <= res5_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (v4_q && norm4_q) begin
      fp5_q <= fp_s4;
    end
  end

  // =======================================================================================
  // S5 (cycle t+5): normalise, decide the rounding
  // =======================================================================================
  logic [30:0] pre5;
  logic        rup5, ovf5;

  // The normaliser computes while the result register's value is its (norm5_q): after an
  // integer result it rests until the next FP result.
  sgu_fpu_norm u_norm (
    .en_i      (norm5_q),
    .mag_i     (fp5_q.mag),
    .shamt_i   (fp5_q.shamt),
    .etop_i    (fp5_q.sum.etop),
    .sticky_i  (fp5_q.sum.sticky),
    .pre_o     (pre5),
    .round_up_o(rup5),
    .overflow_o(ovf5)
  );

  // ---- S5 -> S6 registers: the integer result, or the normaliser's value and the specials.
  // Loaded only with an operation in S5, so result_o holds between results. ----
  logic        norm6_q, rup6_q, ovf6_q, sign6_q, nan6_q, inf6_q, inf_sign6_q;
  logic [30:0] pre6_q;
  logic [63:0] int6_q;

  always_ff @(posedge clk_i) begin
    if (v5_q) begin
      norm6_q <= norm5_q;
      if (!norm5_q) int6_q <= res5_q;
    end
    if (v5_q && norm5_q) begin
      pre6_q      <= pre5;
      rup6_q      <= rup5;
      ovf6_q      <= ovf5;
      sign6_q     <= fp5_q.sum.sign;
      nan6_q      <= fp5_q.sum.nan;
      inf6_q      <= fp5_q.sum.inf;
      inf_sign6_q <= fp5_q.sum.inf_sign;
    end
  end

  // =======================================================================================
  // S6 (cycle t+6): round, override, select
  // =======================================================================================
  logic [31:0] fma_res;

  always_comb begin
    logic [30:0] rounded;
    rounded = pre6_q + {30'd0, rup6_q};
    if (nan6_q) begin
      fma_res = FpuCanonicalNan;
    end else if (inf6_q) begin
      fma_res = {inf_sign6_q, FpInf[30:0]};
    end else if (ovf6_q) begin
      fma_res = {sign6_q, 8'hFF, 23'd0};
    end else begin
      fma_res = {sign6_q, rounded};
    end
  end

  // Normaliser results are f32: zero-extended (the core passes dt_s1 = f32 for them).
  assign result_o = norm6_q ? {32'd0, fma_res} : int6_q;

  // =======================================================================================
  // Assertions
  // =======================================================================================
  logic int_in;
  assign int_in = valid_s1 & ~fpu_s1;

  `SGU_ASSERT_KNOWN(ValidKnown_A, valid_s1)
  // 64-bit multiplies and shifts, and only they, have three steps; mulh is i32/u32 only; shifts
  // reach the unit only for 64-bit types (the lanes shift the narrower ones).
  `SGU_ASSERT(WideType_A, int_in && !alu_s1 |-> wide_s1 == (dt_s1 == sgu_isa_pkg::DtI64 ||
                                                            dt_s1 == sgu_isa_pkg::DtU64))
  // A 64-bit ALU operation is one step of a 64-bit type, and nothing else.
  `SGU_ASSERT(AluType_A, int_in && alu_s1 |-> !wide_s1 && !mulh_s1 && !shift_s1 &&
                                            (dt_s1 == sgu_isa_pkg::DtI64 ||
                                             dt_s1 == sgu_isa_pkg::DtU64))
  `SGU_ASSERT(MulhType_A, int_in && mulh_s1 |-> dt_s1 == sgu_isa_pkg::DtI32 ||
                                               dt_s1 == sgu_isa_pkg::DtU32)
  `SGU_ASSERT(ShiftWide_A, int_in && shift_s1 |-> wide_s1 && !mulh_s1)
  `SGU_ASSERT(StepRange_A, int_in && wide_s1 |-> step_s1 != 2'd3)
  // The three steps are back to back with the same operands (S3 accumulates in res_q). The
  // core may abandon a sequence (the watchdog): then nothing enters in the next cycle, and the
  // partial sum is never used (the next 64-bit multiply starts again at step 0).
  `SGU_ASSERT(StepNext_A, int_in && wide_s1 && step_s1 != 2'd2 |=> !valid_s1 ||
              (int_in && wide_s1 && step_s1 == $past(step_s1) + 2'd1 &&
               $stable(ia_s1) && $stable(ib_s1) && $stable(dt_s1) && $stable(shift_s1) &&
               (!shift_s1 || $stable(right_s1))))
  `SGU_ASSERT(StepPrev_A, int_in && wide_s1 && step_s1 != 2'd0 |->
              $past(int_in && wide_s1) && $past(step_s1) == step_s1 - 2'd1)
  `SGU_ASSERT(AccAfterWide_A, v3_q && !fpu3_q && acc3_q |-> v4_q && !norm4_q)
  // Sticky addend bits only arise when the product dominates: the difference is positive.
  `SGU_ASSERT(AddStickyPositive_A, fpu_en_s3 && fp3_q.ctl.use_norm |->
              !(add_neg && fp3_q.z_sticky))

  // The loads cover every operation's entry (ld_fp_i / ld_int_i).
  `SGU_ASSERT(LdFp_A, valid_i && fpu_i |-> ld_fp_i)
  `SGU_ASSERT(LdInt_A, valid_i && !fpu_i |-> ld_int_i)

endmodule
