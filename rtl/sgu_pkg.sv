// SPDX-License-Identifier: Apache-2.0
// SGU shared helpers: operand-type extension used by every unit that writes a typed result.

package sgu_pkg;
  import sgu_isa_pkg::*;

  // Extends the low bits of v to 64 bits as operand type t says (docs/isa.md "Operands and
  // types"): signed types sign-extend from their width, unsigned types and f32 zero-extend,
  // 64-bit types are unchanged.
  // Written as "keep bit k or fill": the bits above the type's width take one fill bit (the
  // sign bit for signed types, else 0), so each result bit is a 3-input function of the type's
  // width class, its own bit and the fill bit (one LUT4 on an FPGA) rather than a mux over
  // every type.
  function automatic logic [63:0] ext_dt(logic [63:0] v, logic [3:0] t);
    logic [63:0] r;
    logic [1:0]  size;  // dt_size_log2(t), repeated here: the function is defined further down
    logic        fill;
    unique case (t)
      DtI8, DtU8:   size = 2'd0;
      DtI16, DtU16: size = 2'd1;
      DtI64, DtU64: size = 2'd3;
      default:      size = 2'd2;
    endcase
    unique case (t)
      DtI8:    fill = v[7];
      DtI16:   fill = v[15];
      DtI32:   fill = v[31];
      default: fill = 1'b0;  // unsigned types, f32; 64-bit types have no bits to fill
    endcase
    r[7:0]   = v[7:0];
    r[15:8]  = (size >= 2'd1) ? v[15:8] : {8{fill}};
    r[31:16] = (size >= 2'd2) ? v[31:16] : {16{fill}};
    r[63:32] = (size == 2'd3) ? v[63:32] : {32{fill}};
    return r;
  endfunction

  // Operand type is a signed integer type.
  function automatic logic dt_signed(logic [3:0] t);
    return (t == DtI8) || (t == DtI16) || (t == DtI32) || (t == DtI64);
  endfunction

  // Access size in bytes, as log2 (0: 1 byte .. 3: 8 bytes).
  function automatic logic [1:0] dt_size_log2(logic [3:0] t);
    logic [1:0] r;
    unique case (t)
      DtI8, DtU8:   r = 2'd0;
      DtI16, DtU16: r = 2'd1;
      DtI64, DtU64: r = 2'd3;
      default:      r = 2'd2;
    endcase
    return r;
  endfunction

  // Lane ALU controls (sgu_lane), decoded from the instruction in the decode stage. Each lane
  // keeps its own registered copy for the execute stage: the controls then reach the lane's
  // 64-bit datapath from a nearby flip-flop, not as one decoded net fanning out to every lane.
  typedef enum logic [2:0] {
    AluSum,    // add, sub (the adder)
    AluLogic,  // and, or, xor
    AluShift,  // shl, shr (in two stages: the lane's sh_res_o in L2)
    AluPick,   // min, max, sel, li, lui, cvt (an operand)
    AluCmp     // cmp (the condition, 0 or 1)
  } alu_res_e;

  typedef enum logic [2:0] {
    PickMin,   // lt ? a : b
    PickMax,   // lt ? b : a
    PickB,     // b (li, lui: the immediate)
    PickA,     // a (cvt: the source)
    PickSel    // rs1 != 0 ? b : c
  } alu_pick_e;

  typedef struct packed {
    alu_res_e   res;      // which result
    alu_pick_e  pick;     // operand select
    logic       sub;      // the adder subtracts (everything but add, addi)
    logic       left;     // shift left
    logic [1:0] logic_op; // 0 and, 1 or, 2 xor
    logic       use_imm;  // operand b is the immediate (lui's shifted by the core: sgu_lane imm_i)
    logic [3:0] dt;       // type: operand b and the result are extended by it
    logic [3:0] a_dt;     // type operand a is extended by (cvt: its source type)
    logic [3:0] cond_tt;  // compare: the condition's truth table, bit {lt, eq}
    logic       zero_hi16; // the early result's bits 31:16 are 0 (cvt from an 8-bit type to u16)
  } alu_ctl_t;

  // The truth table over (a < b, a == b) of compare condition cond (docs/isa.md "cmp"): bit
  // {lt, eq} of the result is the condition's value (lt and eq are never both set).
  function automatic logic [3:0] cmp_truth(logic [2:0] cond);
    logic [3:0] t;
    for (int unsigned i = 0; i < 4; i++) begin
      logic lt, eq;
      lt = i[1];
      eq = i[0];
      unique case (cond)
        3'd0:    t[i] = eq;
        3'd1:    t[i] = !eq;
        3'd2:    t[i] = lt;
        3'd3:    t[i] = lt || eq;
        3'd4:    t[i] = !(lt || eq);
        default: t[i] = !lt;  // ge
      endcase
    end
    return t;
  endfunction

  function automatic alu_ctl_t alu_decode(logic [7:0] opcode, logic [3:0] dt, logic [3:0] mod);
    alu_ctl_t c;
    c.dt       = dt;
    // cvt in the lane (between integer types, or f32 to f32) extends its source once, so that
    // the lane's result needs no extension after its operand select (sgu_lane). Extending x by
    // the source type S and then by the destination type D is:
    //   D no wider than S: x extended by D;
    //   D wider than S: x extended by S, with D's fill above D's width: S's fill again if D is
    //   signed or 64 bits wide (or 32: the low word has no bits above), 0 for D = u16, which
    //   zero_hi16 clears (S = i8; with S = u8 the bits are 0 already).
    // A cvt to or from f32 runs on the MFU, whose operand is the source extended by its own
    // type.
    c.zero_hi16 = 1'b0;
    if (opcode == OpCvt && (dt == DtF32) != (mod == DtF32)) begin
      c.a_dt = mod;
    end else if (opcode == OpCvt && dt_size_log2(mod) < dt_size_log2(dt)) begin
      c.a_dt      = mod;
      c.zero_hi16 = dt == DtU16;
    end else begin
      c.a_dt = dt;
    end
    c.cond_tt  = cmp_truth(mod[2:0]);
    c.sub      = !(opcode inside {OpAdd, OpAddi});
    c.left     = opcode inside {OpShl, OpShli};
    c.use_imm  = opcode inside {OpAddi, OpMuli, OpAndi, OpOri, OpXori, OpShli, OpShri, OpMini,
                                OpMaxi, OpCmpi, OpLi, OpLui};
    unique case (opcode)
      OpAnd, OpAndi: c.logic_op = 2'd0;
      OpOr, OpOri:   c.logic_op = 2'd1;
      default:       c.logic_op = 2'd2;
    endcase
    unique case (opcode)
      OpMin, OpMini: c.pick = PickMin;
      OpMax, OpMaxi: c.pick = PickMax;
      OpLi, OpLui:   c.pick = PickB;
      OpCvt:         c.pick = PickA;
      default:       c.pick = PickSel;
    endcase
    unique case (opcode)
      OpAdd, OpAddi, OpSub:                      c.res = AluSum;
      OpAnd, OpAndi, OpOr, OpOri, OpXor, OpXori: c.res = AluLogic;
      OpShl, OpShli, OpShr, OpShri:              c.res = AluShift;
      OpCmp, OpCmpi:                             c.res = AluCmp;
      default:                                   c.res = AluPick;  // min, max, sel, li, lui, cvt
    endcase
    return c;
  endfunction

  // The 64-bit integer operations of the adder, the logic and the comparator: add, sub, and,
  // or, xor, min, max, cmp (and their immediate forms) on i64 / u64. The lanes' ALU is 32 bits
  // wide; these run on sgu_mfu's 64-bit integer ALU ("64-bit ALU operations" there). sel, li
  // and cvt of 64-bit types stay in the lanes: they move words, and compute nothing across
  // them.
  function automatic logic op_is_alu64(logic [7:0] opcode, logic [3:0] dt);
    return dt_size_log2(dt) == 2'd3 &&
           (opcode inside {OpAdd, OpAddi, OpSub, OpAnd, OpAndi, OpOr, OpOri, OpXor, OpXori,
                           OpMin, OpMini, OpMax, OpMaxi, OpCmp, OpCmpi});
  endfunction

  // The operation of sgu_mfu's 64-bit integer ALU (alu_op_i), from the opcode of an
  // op_is_alu64 instruction. The compare's condition is the instruction's mod (cmp_truth).
  typedef enum logic [2:0] {
    Alu64Add, Alu64Sub, Alu64And, Alu64Or, Alu64Xor, Alu64Cmp, Alu64Min, Alu64Max
  } alu64_op_e;

  function automatic alu64_op_e alu64_op(logic [7:0] opcode);
    alu64_op_e r;
    unique case (opcode)
      OpAdd, OpAddi: r = Alu64Add;
      OpAnd, OpAndi: r = Alu64And;
      OpOr, OpOri:   r = Alu64Or;
      OpXor, OpXori: r = Alu64Xor;
      OpCmp, OpCmpi: r = Alu64Cmp;
      OpMin, OpMini: r = Alu64Min;
      OpMax, OpMaxi: r = Alu64Max;
      default:       r = Alu64Sub;  // OpSub
    endcase
    return r;
  endfunction

  // Pipeline depth of the long operations (sgu_mfu): issued in the execute stage (cycle t), their
  // result is written at the end of cycle t + LongLatency - 1.
  localparam int unsigned LongLatency = 7;

  // The operation runs in the lane's multiply / FP pipeline (sgu_mfu) rather than the
  // single-cycle ALU: every multiply, every FP32 operation, cvt to or from f32, the shifts of
  // 64-bit types (the lane's shifter is 32 bits wide; the MFU shifts by multiplying, sgu_mfu
  // "64-bit shifts") and the 64-bit adds, logic, compares, min and max (the lane's adder is 32
  // bits wide: op_is_alu64).
  function automatic logic op_is_long(logic [7:0] opcode, logic [3:0] dt, logic [3:0] mod);
    logic r;
    unique case (opcode)
      OpMul, OpMuli, OpMulh, OpFadd, OpFsub, OpFmul, OpFfma, OpFmin, OpFmax, OpFcmp: r = 1'b1;
      OpShl, OpShli, OpShr, OpShri: r = dt_size_log2(dt) == 2'd3;
      OpCvt:   r = (dt == DtF32) != (mod == DtF32);
      default: r = op_is_alu64(opcode, dt);
    endcase
    return r;
  endfunction

  // A 64-bit shift (a long operation: sgu_mfu multiplies by a power of two).
  function automatic logic op_is_wide_shift(logic [7:0] opcode, logic [3:0] dt);
    return (opcode inside {OpShl, OpShli, OpShr, OpShri}) && dt_size_log2(dt) == 2'd3;
  endfunction

  // Three steps through the one 32x32 multiplier of an MFU: a 64-bit multiply or shift.
  function automatic logic op_is_wide(logic [7:0] opcode, logic [3:0] dt);
    return ((opcode == OpMul || opcode == OpMuli) && dt_size_log2(dt) == 2'd3) ||
           op_is_wide_shift(opcode, dt);
  endfunction

  // A one-pass down2 / up2: a delta from a scalar register (it reads rs2's big flag,
  // sgu_regfile big_o).
  function automatic logic shfl_big(logic [7:0] opcode, logic rs2_scalar, logic [3:0] mod);
    return opcode == OpShfl && rs2_scalar && mod inside {ModShflDown2, ModShflUp2};
  endfunction

  // Reads rs1's nonzero flag (sgu_regfile nz_o): sel, split and mbrk.
  function automatic logic op_reads_nz(logic [7:0] opcode);
    return opcode inside {OpSel, OpSplit, OpMbrk};
  endfunction

  // What the fetch stage and the hazard check read of an instruction word before its decoder
  // (sgu_predecode), kept beside the word in the instruction cache (sgu_icache pre_o). The
  // register specifiers are the word's own fields and are not repeated here.
  typedef struct packed {
    logic       taken;     // F follows it: br, or bz / bnz / bexz / bexnz with a backward target
    logic       stop;      // halt or trap: F fetches nothing after it
    logic [2:0] used;      // rs3, rs2, rs1 are read
    logic [2:0] rs_pair;   // rs3, rs2, rs1 are read as 64-bit pairs
    logic       rd_pair;   // rd is a 64-bit pair
    logic       short_wr;  // writes a register other than s0 with a short (not long) result
    logic       nz;        // op_reads_nz
    logic       big;       // shfl_big
  } predec_t;

endpackage
