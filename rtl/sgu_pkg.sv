// SPDX-License-Identifier: Apache-2.0
// SGU shared helpers: operand-type extension used by every unit that writes a typed result.

package sgu_pkg;
  import sgu_isa_pkg::*;

  // Extends the low bits of v to 64 bits as operand type t says (docs/isa.md "Operands and
  // types"): signed types sign-extend from their width, unsigned types and f32 zero-extend,
  // 64-bit types are unchanged.
  function automatic logic [63:0] ext_dt(logic [63:0] v, logic [3:0] t);
    logic [63:0] r;
    unique case (t)
      DtI8:  r = {{56{v[7]}}, v[7:0]};
      DtU8:  r = {56'd0, v[7:0]};
      DtI16: r = {{48{v[15]}}, v[15:0]};
      DtU16: r = {48'd0, v[15:0]};
      DtI32: r = {{32{v[31]}}, v[31:0]};
      DtI64, DtU64: r = v;
      default: r = {32'd0, v[31:0]};  // u32, f32
    endcase
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

  // Pipeline depth of the long operations (sgu_mfu): issued in the execute stage (cycle t), their
  // result is written at the end of cycle t + LongLatency - 1.
  localparam int unsigned LongLatency = 4;

  // The operation runs in the lane's multiply / FP pipeline (sgu_mfu) rather than the
  // single-cycle ALU: every multiply, every FP32 operation, and cvt to or from f32.
  function automatic logic op_is_long(logic [7:0] opcode, logic [3:0] dt, logic [3:0] mod);
    logic r;
    unique case (opcode)
      OpMul, OpMuli, OpMulh, OpFadd, OpFsub, OpFmul, OpFfma, OpFmin, OpFmax, OpFcmp: r = 1'b1;
      OpCvt:   r = (dt == DtF32) != (mod == DtF32);
      default: r = 1'b0;
    endcase
    return r;
  endfunction

  // A 64-bit multiply: three passes through the one 32x32 multiplier of a lane.
  function automatic logic op_is_wide_mul(logic [7:0] opcode, logic [3:0] dt);
    return (opcode == OpMul || opcode == OpMuli) && dt_size_log2(dt) == 2'd3;
  endfunction

endpackage
