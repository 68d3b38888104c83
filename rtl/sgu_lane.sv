// SPDX-License-Identifier: Apache-2.0
// SGU lane datapath: the single-cycle integer ALU of one lane, and its operands for the MFU.
//
// One instance per lane, replicated by a named generate loop in sgu_core. Operands arrive as raw
// register pairs in the execute stage. The ALU is 32 bits wide: it computes the 8- to 32-bit
// types and extends the result from the type width, which is the narrow-type rule of
// docs/isa.md; the adds, logic, compares, min and max of 64-bit types run on the MFU
// (sgu_pkg::op_is_alu64), and of the 64-bit types the lane only moves words (sel, li, cvt). The
// adder and the logic take the raw operands (a result's low type-width bits depend only on the
// operands' low bits) and the comparison is rebuilt from the raw sum at the type's width; the
// operands extended by their type (sgu_pkg::ext_dt) serve the MFU, the shifter and cvt.
//   Short operations (sgu_pkg::op_is_long == 0): add/sub, logic, min/max, cmp of 8- to 32-bit
//     types; sel, li/lui, integer<->integer cvt of every integer type: the result is
//     combinational in the execute stage, its low word in two parts (fwd_add_o, fwd_early_o,
//     picked by fwd_sum_o), its high word res_hi_o. cmp, min and max give the comparison's
//     bits lt_o and eq_o, min and max both outcomes (mm_lt_o if a < b, else mm_ge_o), and
//     cmp_o / cond_tt_o say whether the instruction is a compare and its condition: the core
//     registers them at the end of X and makes the result in L2 (sgu_core l2_lo; the
//     condition's lookup and the pick after the carry chain were the deepest paths into
//     l2_data_q).
//   Shifts of 8- to 32-bit types take two stages: the execute stage prepares the operand and
//     shifts by the amount's low ShiftSplit (4) bits into sh_q (at every edge a shift is in X,
//     the last one being the edge it leaves X); in L2 the rest of the shift gives sh_res_o,
//     which the core writes at the end of L2 (not forwarded: sgu_core l2_far).
//   Long operations: every multiply, every FP32 operation (including the conversions that
//     involve f32), the shifts of 64-bit types (a 64-bit barrel shifter in every lane was a
//     third of the lane's logic: docs/timing.md "Blocks") and the 64-bit adds, logic, compares,
//     min and max (the adder's high half, its compare and select were a fifth of the lane, and
//     the end of its carry chain the execute stage's critical path: docs/timing.md "Blocks") run
//     on sgu_mfu, the multiply / FP unit,
//     which sgu_core instantiates once per LanesPerMfu lanes. The lane supplies its operands
//     ia_o / ib_o, extended as the ALU uses them (a by its type ctl.a_dt, b by ctl.dt): their
//     low words are also the FP operands a and b (every FP operation has type f32, whose
//     extension leaves the low word alone; int->float extends its source by the source type);
//     the raw c word goes to the MFU from the core.

`include "sgu_assert.svh"

module sgu_lane (
  input  logic                       clk_i,
  input  logic                       ld_i,       // an instruction enters X: load ctl_i, imm_i
  input  sgu_pkg::alu_ctl_t          ctl_i,      // its controls (sgu_pkg::alu_decode, from R)
  input  logic [32:0]                imm_i,      // its immediate as operand b (from R): the low
                                                 // word, lui's shift applied, and the high
                                                 // word's fill bit
  input  logic [63:0]                a_i,        // rs1 pair {r+1, r}
  input  logic                       a_nz_i,     // a_i[31:0] != 0, registered by the register
                                                 // file (sel's condition)
  input  logic [63:0]                b_i,        // rs2 pair
  input  logic [63:0]                c_i,        // rs3 pair
  input  logic                       alu_en_i,   // a short operation is in the execute stage
  // The short result of add, sub, logic, sel, li, lui, cvt (don't-care unless alu_en_i): its
  // low word is fwd_add_o if fwd_sum_o, else fwd_early_o; its high word res_hi_o.
  output logic                       fwd_sum_o,  // the instruction is an add or sub
  output logic [31:0]                fwd_add_o,  // the adder's result, extended by the type
  output logic [31:0]                fwd_early_o,  // the logic's or the select's, extended
  output logic [31:0]                res_hi_o,   // the select's high word (sel, li, cvt)
  // cmp, min, max (don't-care unless alu_en_i): the comparison of the operands at the type's
  // width, a < b (lt_o) and a == b (eq_o); min's or max's result is mm_lt_o if lt_o, else
  // mm_ge_o; a compare's is cond_tt_o[{lt_o, eq_o}] (cmp_o: the instruction in X is a compare;
  // from the lane's control registers, with cond_tt_o, whatever alu_en_i).
  output logic                       lt_o,
  output logic                       eq_o,
  output logic [31:0]                mm_lt_o,
  output logic [31:0]                mm_ge_o,
  output logic                       cmp_o,
  output logic [3:0]                 cond_tt_o,
  input  logic                       sh_en_i,    // the shift of sh_q is in L2, writing
  output logic [31:0]                sh_res_o,   // its result (don't-care unless sh_en_i)
  output logic [63:0]                ia_o,       // MFU: integer operand a, extended by its type
  output logic [63:0]                ib_o        // MFU: integer operand b (or the immediate)
);
  import sgu_isa_pkg::*;
  import sgu_pkg::*;

  // The lane's own copy of the controls of the instruction in X (kept: one per lane, so that
  // no decoded control net fans out over every lane's datapath; docs/fpga.md "Timing of the
  // pipelined core"). The attribute is on the process: on the signal alone, Yosys would still
  // merge the lanes' identical flip-flops into one.
  // The immediate likewise, as operand b's value (the core applies lui's shift once for all
  // lanes, and sends the high word as one fill bit), so that b's select is one 2:1 multiplexer
  // of two flip-flops.
  // The types' extension controls are decoded before the register (ext_ctl_t, from the
  // instruction in R), so that an operand's extension is one fill bit and one 2:1 multiplexer per
  // bit after flip-flops, instead of the type's decode, the fill bit's selection and the
  // multiplexer (sgu_pkg::ext_dt: three LUT levels at the start of every path of the execute
  // stage, docs/timing.md, twenty-fourth session).
  typedef struct packed {
    logic keep8;   // bits 15:8 are the value's own (the type is 16 bits wide or more)
    logic keep16;  // bits 31:16 ...
    logic keep32;  // bits 63:32 ...
    logic fill7;   // the fill bit is bit 7 (i8), bit 15 (i16), bit 31 (i32); none: zero
    logic fill15;
    logic fill31;
  } ext_ctl_t;
  function automatic ext_ctl_t ext_decode(logic [3:0] t);
    ext_ctl_t e;
    logic [1:0] size;
    size     = dt_size_log2(t);
    e.keep8  = size >= 2'd1;
    e.keep16 = size >= 2'd2;
    e.keep32 = size == 2'd3;
    e.fill7  = t == DtI8;
    e.fill15 = t == DtI16;
    e.fill31 = t == DtI32;
    return e;
  endfunction
  // sgu_pkg::ext_dt(v, t) for e = ext_decode(t). Each segment's fill names only the types that
  // fill it (bits 15:8 are filled only for an 8-bit type, bits 31:16 for an 8- or 16-bit one),
  // so that bits 15:8 are one LUT4 after the registers (one fill term for all three segments
  // was a serial chain of three LUT4 before the segment's select in the SIMD16 depth model).
  function automatic logic [63:0] ext_fast(logic [63:0] v, ext_ctl_t e);
    logic [63:0] r;
    logic        fill8, fill16, fill32;
    fill8    = e.fill7 && v[7];
    fill16   = fill8 || (e.fill15 && v[15]);
    fill32   = fill16 || (e.fill31 && v[31]);
    r[7:0]   = v[7:0];
    r[15:8]  = e.keep8 ? v[15:8] : {8{fill8}};
    r[31:16] = e.keep16 ? v[31:16] : {16{fill16}};
    r[63:32] = e.keep32 ? v[63:32] : {32{fill32}};
    return r;
  endfunction

  // Operand b's fill bits with the immediate's choice folded in before the registers: b is
  // the immediate or the register (ctl.use_imm), and the fill of each segment names only the
  // register's sign bits (f*: the type fills from bit 7 / 15 / 31 and b is the register) or is
  // the immediate's own (i*: decided from imm_i at the load). Extended from b_raw, every bit of
  // b[63:8] waited for use_imm's selection of bit 7, 15 or 31 and then the fill, which ABC
  // mapped as a serial chain of three LUT4 shared by all 56 bits and the placer put between
  // them: the lane's controls -> the MFU's operand registers, the second group of the SIMD16
  // placement at 7a9e713 (24 end bits above 13.33 ns; and the start of the depth model's
  // largest lane group; docs/timing.md, twenty-sixth session).
  typedef struct packed {
    logic f7, f15, f31;  // !use_imm && ext_b.fill7 / fill15 / fill31
    logic i8, i16, i32;  // use_imm && the immediate's fill of bits 15:8 / 31:16 / 63:32
  } bfill_t;
  // fill: ext_b's fill31, fill15, fill7; sign: the immediate's bits 31, 15 and 7
  function automatic bfill_t bfill_decode(logic [2:0] fill, logic use_imm, logic [2:0] sign);
    bfill_t f;
    f.f7  = !use_imm && fill[0];
    f.f15 = !use_imm && fill[1];
    f.f31 = !use_imm && fill[2];
    f.i8  = use_imm && fill[0] && sign[0];
    f.i16 = f.i8 || (use_imm && fill[1] && sign[1]);
    f.i32 = f.i16 || (use_imm && fill[2] && sign[2]);
    return f;
  endfunction

  alu_ctl_t    ctl;
  ext_ctl_t    ext_a, ext_b;  // ext_decode(ctl.a_dt), ext_decode(ctl.dt)
  bfill_t      bfill;         // bfill_decode(ext_b, ctl.use_imm, imm)
  ext_ctl_t    dt_b;          // ext_decode(ctl_i.dt), before the register
  assign dt_b = ext_decode(ctl_i.dt);
  logic        sgn, is8, is16;  // ctl.dt: signed, 8 bits wide, 16 bits wide
  logic [31:0] imm;
  logic        imm_hi;
  logic        unused_dt;  // the types are read in their decoded form only
  assign unused_dt = ^{ctl.dt, ctl.a_dt};
  (* keep *)
  always_ff @(posedge clk_i) begin
    if (ld_i) begin
      ctl           <= ctl_i;
      ext_a         <= ext_decode(ctl_i.a_dt);
      ext_b         <= dt_b;
      bfill         <= bfill_decode({dt_b.fill31, dt_b.fill15, dt_b.fill7}, ctl_i.use_imm,
                                    {imm_i[31], imm_i[15], imm_i[7]});
      sgn           <= dt_signed(ctl_i.dt);
      is8           <= dt_size_log2(ctl_i.dt) == 2'd0;
      is16          <= dt_size_log2(ctl_i.dt) == 2'd1;
      {imm_hi, imm} <= imm_i;
    end
  end

  // ------------------------------------------------------------------------------ short ops
  // One procedural block, evaluated only when the core selects the ALU (alu_en_i): the lanes
  // compute nothing in the cycles of other instructions, which is most of the simulation time
  // saved (docs/performance.md). The result is don't-care otherwise (x: synthesis adds no gate).
  logic [63:0] b_raw, a, b, c;
  logic [1:0]  size;

  // li and lui go through the b operand (the ALU's operand select returns it), cvt through a:
  // its source is extended by the source type (ctl.a_dt = mod), every other operand by ctl.dt.
  assign b_raw   = ctl.use_imm ? {{32{imm_hi}}, imm} : b_i;
  // Extended operands: the MFU's integer inputs, the shifter's operand and cvt's source. The
  // adder, the logic and min / max / sel / li take the raw operands instead (below).
  assign a       = ext_fast(a_i, ext_a);
  // b = ext_fast(b_raw, ext_b), its fill from bfill (BFill_A).
  always_comb begin
    logic fill8, fill16, fill32;
    fill8       = bfill.i8 || (bfill.f7 && b_i[7]);
    fill16      = bfill.i16 || (bfill.f7 && b_i[7]) || (bfill.f15 && b_i[15]);
    fill32      = bfill.i32 || (bfill.f7 && b_i[7]) || (bfill.f15 && b_i[15]) ||
                  (bfill.f31 && b_i[31]);
    b[7:0]      = b_raw[7:0];
    b[15:8]     = ext_b.keep8 ? b_raw[15:8] : {8{fill8}};
    b[31:16]    = ext_b.keep16 ? b_raw[31:16] : {16{fill16}};
    b[63:32]    = ext_b.keep32 ? b_raw[63:32] : {32{fill32}};
  end
  `SGU_ASSERT(BFill_A, alu_en_i |-> b == ext_fast(b_raw, ext_b), clk_i, 1'b1)
  // sel's c, extended like b (only the low word has bits to fill: a 64-bit type's extension
  // leaves both words alone, and a narrower type's high word is never written).
  assign c       = {c_i[63:32], 32'(ext_fast({32'd0, c_i[31:0]}, ext_b))};
  assign size    = is8 ? 2'd0 : (is16 ? 2'd1 : 2'd2);

  // The short operations share one datapath per function (docs/timing.md "Blocks"): one 32-bit
  // adder for add, sub, compare, min and max; one 32-bit right shifter for both shift directions
  // (a left shift is the bit-reversed right shift of the bit-reversed operand); one operand select
  // for min, max and sel.
  //
  // The adder and the logic work on the raw operands, not on the type-extended ones: a result's
  // low `width` bits depend only on the operands' low `width` bits, and the result is extended
  // from the type's width at the end (ext_lo), so the operands' extension would only lengthen
  // the execute stage (operand register -> ALU -> l2_data_q) by its multiplexers. What extended operands gave for free is the comparison: it is rebuilt from the
  // raw sum's bits at the type's width w (8, 16, 32), with d = a + ~b + 1:
  //   unsigned a < b  <=>  no carry out of bit w-1   (c_w = d[w] ^ a[w] ^ ~b[w], c_32 = d[32])
  //   signed   a < b  <=>  a[w-1] != b[w-1] ? a[w-1] : d[w-1]   (equal signs cannot overflow)
  // The narrow widths' candidates come from the middle of the carry chain. At 32 bits the
  // adder is one bit wider, the operands extended by one bit by the type's signedness (sign or
  // zero): the 33-bit difference of two such values cannot overflow, so its bit 32 is a < b for
  // either signedness, the last bit out of the carry chain with no selection after it. The high
  // word of the result is the operand select's (sel, li, cvt of 64-bit types): the other
  // results of a 64-bit type come from the MFU.
  always_comb begin
    logic [63:0] pick;
    logic [31:0] alu_early, logic_res, diff;
    logic [32:0] sum, addend;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [34:0] eq_run;  // the equality's carry chain (its carries at bits 8, 17 and 34)
    /* verilator lint_on UNUSEDSIGNAL */
    logic        a_x, b_x;
    logic [1:0]  lt_u, lt_s;  // index k: width 8 << k
    logic        sub, lt, eq, pick_b;
    res_hi_o    = 'x;
    fwd_add_o   = 'x;
    fwd_early_o = 'x;
    mm_lt_o     = 'x;
    mm_ge_o     = 'x;
    lt_o        = 'x;
    eq_o        = 'x;
    alu_early   = 'x;
    logic_res = 'x;
    pick      = 'x;
    diff      = 'x;
    eq_run    = 'x;
    sum       = 'x;
    addend    = 'x;
    a_x       = 'x;
    b_x       = 'x;
    lt_u      = 'x;
    lt_s      = 'x;
    sub       = 'x;
    lt        = 'x;
    eq        = 'x;
    pick_b    = 'x;
    if (alu_en_i) begin
      // Adder: a + b, or a - b (= a + ~b + 1) for everything that compares.
      sub    = ctl.sub;
      a_x    = sgn && a_i[31];
      b_x    = sgn && b_raw[31];
      addend = sub ? ~{b_x, b_raw[31:0]} : {b_x, b_raw[31:0]};
      sum    = {a_x, a_i[31:0]} + addend + 33'(sub);
      // Width w = 8 << k: the carry into bit w recovered from the sum; w = 32: the extended
      // difference's sign (above). size is never 3 here (64-bit compares, min and max are
      // long).
      lt_u[0] = !(sum[8] ^ a_i[8] ^ addend[8]);
      lt_u[1] = !(sum[16] ^ a_i[16] ^ addend[16]);
      lt_s[0] = (a_i[7] != b_raw[7]) ? a_i[7] : sum[7];
      lt_s[1] = (a_i[15] != b_raw[15]) ? a_i[15] : sum[15];
      lt      = size[1] ? sum[32] : (sgn ? lt_s[size[0]] : lt_u[size[0]]);
      // Equality from the raw operands, beside the adder (not a zero detect after its carry
      // chain): two values extended from the type's width are equal exactly when their low
      // width bits are. The condition is the decoded truth table over (lt, eq)
      // (sgu_pkg::alu_decode), looked up in L2 (sgu_core l2_lo).
      // The AND of the bits' equalities runs on a carry chain of its own: ~diff + 1 carries out
      // of a run of bits exactly when every bit of the run is equal, and a 1 inserted above
      // bits 7 and 15 passes the carry on and shows it (its sum bit is 0 when the carry
      // came). As a LUT tree ABC mapped it as a serial chain of 2- and 3-input LUTs through all
      // 32 bits, 9 LUT4 from the lane's controls into l2_eq_q, the largest group of the SIMD16
      // depth model at 1a4e470 (docs/timing.md).
      diff   = a_i[31:0] ^ b_raw[31:0];
      eq_run = {1'b0, ~diff[31:16], 1'b1, ~diff[15:8], 1'b1, ~diff[7:0]} + 35'd1;
      eq     = is8 ? !eq_run[8] : (is16 ? !eq_run[17] : eq_run[34]);

      // Logic, on the operands extended by the type (a_dt is dt here): a bitwise operation of
      // two values extended from the type's width is its own extension, so no extension
      // follows it.
      unique case (ctl.logic_op)
        2'd0:    logic_res = a[31:0] & b[31:0];
        2'd1:    logic_res = a[31:0] | b[31:0];
        default: logic_res = a[31:0] ^ b[31:0];
      endcase

      // Operand select, without the compare: sel (rs1 != 0 ? b : c), li/lui (b, the
      // immediate), cvt (a, the source extended once by the narrower of its two types,
      // sgu_pkg::alu_decode: a 64-bit result's high word is that extension). Every choice is
      // already extended by the result's type. min (lt ? a : b) and max (lt ? b : a) select
      // apart, for mm_lt_o and mm_ge_o.
      unique case (ctl.pick)
        PickB:   pick_b = 1'b1;
        PickSel: pick_b = a_nz_i;
        default: pick_b = 1'b0;  // PickA (min and max: mm_lt_o, mm_ge_o)
      endcase
      pick = pick_b ? b : ((ctl.pick == PickSel) ? c : a);

      alu_early = (ctl.res == AluLogic) ? logic_res
                                        : pick[31:0];  // AluPick (AluShift: sh_res_o, in L2;
                                                       // AluCmp: in L2)
      // cvt from an 8-bit type to u16: the source's extension by its own type, zero above 16
      // bits (sgu_pkg::alu_decode); a control bit beside the select, no level after it.
      if (ctl.zero_hi16) alu_early[31:16] = '0;
      // min's and max's result for either outcome of the comparison, from the operands
      // extended by the type (a's type is dt for min and max), so that no extension follows
      // the comparison. lt, the last bit out of the carry chain, and eq only leave the lane:
      // the core registers them and picks in L2 (sgu_core l2_lo), where a compare's condition
      // is looked up in cond_tt too. With the lookup and the pick here, the paths through eq
      // and lt into l2_data_q were 10 LUT4 and the carry chain with 9 LUT4, the deepest of the
      // lane in the SIMD16 depth model (docs/timing.md, twenty-fifth session).
      // The results' type extension: only the low word's upper bits need it (8- and 16-bit
      // types), and only the adder's result: the logic's and the select's are made from
      // extended operands (above), so the path from the lane's controls through the operands'
      // extension, the select and the logic has no second extension after it (on the SIMD8
      // board at d6ab960 it was 12 LUT levels into l2_data_q). A 64-bit type's result (sel,
      // li, cvt: the operand select's) is its own extension, and the high word of a narrower
      // type's result is never written (the destination is one register) nor observed. The
      // low word comes in two parts: the adder's result extended, and the others' (logic,
      // select), which do not wait for the
      // carry chain, with the choice between them from the controls alone (fwd_sum_o): the
      // core picks the adder's last (its result x_val), so that after the carry chain only the
      // extension and one 2:1 multiplexer stand before l2_data_q (docs/fpga.md "Routed timing,
      // step by step": 7 and 8 LUT levels after the carry chain at 77e9005 and 8273487).
      fwd_add_o   = 32'(ext_fast({32'd0, sum[31:0]}, ext_b));
      fwd_early_o = alu_early;  // its own extension (above; u16 from an 8-bit type: zero_hi16)
      res_hi_o    = pick[63:32];
      mm_lt_o     = (ctl.pick == PickMin) ? a[31:0] : b[31:0];
      mm_ge_o     = (ctl.pick == PickMin) ? b[31:0] : a[31:0];
      lt_o        = lt;
      eq_o        = eq;
    end
  end

  assign fwd_sum_o = ctl.res == AluSum;
  assign cmp_o     = ctl.res == AluCmp;
  assign cond_tt_o = ctl.cond_tt;

  // ------------------------------------------------------------------------------ shifts
  // On the low word (8- to 32-bit types; 64-bit shifts run on the MFU): the amount modulo the
  // type width, left shifts through bit reversal. The operand is extended by the type where a
  // right shift can bring its bits into the type's width (sh_a below), so a narrow type's
  // right shift brings in its own fill bits. Five stages of 2:1 multiplexers (the form that
  // maps to one LUT per bit and stage): the first ShiftSplit in X, the last one, the reversal
  // back and the result's extension in L2 (docs/architecture.md "Pipeline"). The result's type
  // is kept decoded (8 bits, 16 bits, signed), so that its extension is a LUT or two per bit.
  // Four stages in X and one in L2 since the twenty-fifth session (three and two before: L2's
  // two stages, the reversal, the extension and L2's value select were 8 LUT4 into the
  // register file's write registers, against 7 in X; with sh_a's one-LUT extension X has room
  // for the fourth stage).
  localparam int unsigned ShiftSplit = 4;
  typedef struct packed {
    logic [31:0] v;     // the operand, reversed for a left shift, shifted by amt[ShiftSplit-1:0]
    logic [4:0]  amt;   // the amount modulo the type width (the low bits are done)
    logic        fill;  // the bit shifted in from the top (a right shift of a negative value)
    logic        left;
    logic        is8;   // the type is 8 bits wide
    logic        is16;  // ... 16 bits
    logic        sgn;   // ... signed (read by ShFill_A only)
    logic        xfill; // the result's bits above an 8- or 16-bit type's width: its bit w-1 for
                        // a signed type, else 0 (chosen in X from the operand: below)
  } sh_t;

  // Shifts a right by the amount's bits [hi:lo] (k in lo..hi), bringing in fill.
  function automatic logic [31:0] shift_stages(logic [31:0] v, logic [4:0] amt, logic fill,
                                               int unsigned lo, int unsigned hi);
    logic [31:0] r;
    r = v;
    for (int unsigned k = lo; k <= hi; k++) begin
      if (amt[k]) r = (r >> (1 << k)) | ({32{fill}} << (32 - (1 << k)));
    end
    return r;
  endfunction

  sh_t sh_d, sh_q;
  // The shifter's operand: a right shift by less than the width w brings bits up to 2w-2 into
  // the type's width, so only those need the type's extension (bits 15:8 for an 8-bit type,
  // 31:16 for a 16-bit one; every bit above the width is extended again in L2), and each
  // segment's fill is the sign bit of the one type that fills it: one LUT4 per bit after the
  // registers (ext_fast's bits 31:16 take two). A left shift needs no extension at all (its
  // bits above the width are dropped the same way). A 32-bit type's right shift brings in
  // a[31] if it is signed (fill31).
  logic [31:0] sh_a;
  assign sh_a = {ext_a.keep16 ? a_i[31:16] : {16{ext_a.fill15 && a_i[15]}},
                 ext_a.keep8 ? a_i[15:8] : {8{ext_a.fill7 && a_i[7]}},
                 a_i[7:0]};
  // Evaluated only while a shift's controls are loaded (the register loads then): the lane does
  // nothing for the other instructions; don't-care otherwise (no gate in synthesis).
  always_comb begin
    logic [4:0]  amt_mask;
    logic [7:0]  a8;   // the operand's low byte and half, for the left shift's xfill
    logic [15:0] a16;
    sh_d     = 'x;
    amt_mask = 'x;
    a8       = a_i[7:0];
    a16      = a_i[15:0];
    if (ctl.res == AluShift) begin
      unique case (size)
        2'd0:    amt_mask = 5'd7;
        2'd1:    amt_mask = 5'd15;
        default: amt_mask = 5'd31;
      endcase
      sh_d.amt  = b_raw[4:0] & amt_mask;  // (b's extension leaves bits 7:0 alone)
      sh_d.left = ctl.left;
      sh_d.fill = !ctl.left && ext_a.fill31 && a_i[31];
      sh_d.is8  = size == 2'd0;
      sh_d.is16 = size == 2'd1;
      sh_d.sgn  = sgn;
      // The result's bit w-1 is the operand's bit w-1 - amt for a left shift, and the
      // operand's sign for a right shift (arithmetic for a signed type; an unsigned type fills
      // with 0 anyway): picked here beside the first stages, so that L2's extension waits for
      // no shifted bit (the shifted bit 7 or 15 -> the fill -> the high bits -> L2's value select
      // was 8 LUT4 into the register file's write registers, the second group of the SIMD16
      // depth model at 1a4e470; docs/timing.md).
      if (ctl.left) begin
        sh_d.xfill = sgn && (sh_d.is8 ? a8[3'd7 - sh_d.amt[2:0]] : a16[4'd15 - sh_d.amt[3:0]]);
      end else begin
        sh_d.xfill = sgn && (sh_d.is8 ? a_i[7] : a_i[15]);
      end
      sh_d.v    = ctl.left ? {<<{a_i[31:0]}} : sh_a;
      sh_d.v    = shift_stages(sh_d.v, sh_d.amt, sh_d.fill, 0, ShiftSplit - 1);
    end
  end
  // The lane's own register, enabled by its own controls (no enable net from the core); it
  // loads at every edge a shift is in X, and the core reads it only in the cycle after a short
  // shift left X (sh_en_i).
  always_ff @(posedge clk_i) begin
    if (ctl.res == AluShift) sh_q <= sh_d;
  end

  logic [31:0] sh_v;  // the shifted value before the result's extension
  always_comb begin
    sh_v     = 'x;
    sh_res_o = 'x;
    if (sh_en_i) begin
      sh_v = shift_stages(sh_q.v, sh_q.amt, sh_q.fill, ShiftSplit, 4);
      if (sh_q.left) sh_v = {<<{sh_v}};
      // The result's type extension (8- and 16-bit types; the high word is not written): the
      // bits above the type's width take its sign bit (signed) or 0, as sgu_pkg::ext_dt does,
      // from X's choice (xfill).
      sh_res_o = sh_v;
      if (sh_q.is8) sh_res_o[15:8] = {8{sh_q.xfill}};
      if (sh_q.is8 || sh_q.is16) sh_res_o[31:16] = {16{sh_q.xfill}};
    end
  end
  // X's fill is the shifted value's own bit w-1, sign-extended or not.
  `SGU_ASSERT(ShFill_A, sh_en_i && (sh_q.is8 || sh_q.is16) |->
              sh_q.xfill == (sh_q.sgn && (sh_q.is8 ? sh_v[7] : sh_v[15])), clk_i, 1'b1)

  // ------------------------------------------------------------------------------ MFU operands
  assign ia_o = a;
  assign ib_o = b;

endmodule
