// SPDX-License-Identifier: Apache-2.0
// SGU lane datapath: integer ALU (8/16/32/64-bit), select, immediates, conversions and the FP32 unit.
//
// One instance per lane, replicated by a named generate loop in sgu_core. Purely combinational,
// zero latency. Operands arrive as raw register pairs; the lane extends them by the operand type
// (sgu_pkg::ext_dt), computes in 64 bits and extends the result from the type width, which is
// the narrow-type rule of docs/isa.md. res_valid_o says whether the opcode is one this unit
// computes (the core takes cross-lane results from the crossbar and vote units instead).

module sgu_lane (
  input  logic [7:0]  opcode_i,   // sgu_isa_pkg::opcode_e
  input  logic [3:0]  dt_i,       // operand / result type
  input  logic [3:0]  mod_i,      // compare condition or cvt source type
  input  logic [31:0] imm_i,      // sign-extended immediate
  input  logic [63:0] a_i,        // rs1 pair {r+1, r}
  input  logic [63:0] b_i,        // rs2 pair
  input  logic [63:0] c_i,        // rs3 pair
  output logic [63:0] res_o,      // result (high word meaningful for 64-bit types only)
  output logic        res_valid_o // opcode computed here
);
  import sgu_isa_pkg::*;
  import sgu_pkg::*;
  import sgu_fpu_pkg::*;

  logic [63:0] imm64, a, b, c, b_raw, prod, alu;
  logic [5:0]  amt, amt_mask;
  logic        sgn, lt, eq, cond, use_imm, int_op;
  logic [3:0]  fpu_op;
  logic        fpu_sel;
  logic [31:0] fpu_a, fpu_res;
  logic [31:0] cvt_src;

  assign imm64   = {{32{imm_i[31]}}, imm_i};
  assign use_imm = opcode_i inside {OpAddi, OpMuli, OpAndi, OpOri, OpXori, OpShli, OpShri,
                                    OpMini, OpMaxi, OpCmpi};
  assign b_raw   = use_imm ? imm64 : b_i;
  assign a       = ext_dt(a_i, dt_i);
  assign b       = ext_dt(b_raw, dt_i);
  assign c       = ext_dt(c_i, dt_i);
  assign sgn     = dt_signed(dt_i);

  // Shift amount modulo the type width.
  always_comb begin
    unique case (dt_size_log2(dt_i))
      2'd0:    amt_mask = 6'd7;
      2'd1:    amt_mask = 6'd15;
      2'd3:    amt_mask = 6'd63;
      default: amt_mask = 6'd31;
    endcase
  end
  assign amt  = b[5:0] & amt_mask;
  assign prod = a * b;
  assign eq   = a == b;
  assign lt   = sgn ? ($signed(a) < $signed(b)) : (a < b);

  always_comb begin
    unique case (mod_i[2:0])
      3'd0:    cond = eq;
      3'd1:    cond = !eq;
      3'd2:    cond = lt;
      3'd3:    cond = lt || eq;
      3'd4:    cond = !(lt || eq);
      default: cond = !lt;  // ge
    endcase
  end

  // Integer results, before the result-type extension.
  always_comb begin
    int_op = 1'b1;
    unique case (opcode_i)
      OpAdd, OpAddi: alu = a + b;
      OpSub:         alu = a - b;
      OpMul, OpMuli: alu = prod;
      OpMulh:        alu = {32'd0, prod[63:32]};
      OpAnd, OpAndi: alu = a & b;
      OpOr, OpOri:   alu = a | b;
      OpXor, OpXori: alu = a ^ b;
      OpShl, OpShli: alu = a << amt;
      OpShr, OpShri: alu = sgn ? 64'($signed(a) >>> amt) : (a >> amt);
      OpMin, OpMini: alu = lt ? a : b;
      OpMax, OpMaxi: alu = lt ? b : a;
      OpCmp, OpCmpi: alu = {63'd0, cond};
      OpSel:         alu = (a_i[31:0] != '0) ? b : c;
      OpLi:          alu = imm64;
      OpLui:         alu = {32'd0, imm_i[23:0], 8'd0};
      OpCvt:         alu = ext_dt(a_i, mod_i);  // integer source, extended by its own type
      default: begin
        alu    = '0;
        int_op = 1'b0;
      end
    endcase
  end

  // FP unit: arithmetic, compares and the conversions that involve f32.
  assign cvt_src = 32'(ext_dt(a_i, mod_i));
  always_comb begin
    fpu_sel = 1'b1;
    fpu_a   = a_i[31:0];
    unique case (opcode_i)
      OpFadd: fpu_op = FpuOpFAdd;
      OpFsub: fpu_op = FpuOpFSub;
      OpFmul: fpu_op = FpuOpFMul;
      OpFfma: fpu_op = FpuOpFFma;
      OpFmin: fpu_op = FpuOpFMin;
      OpFmax: fpu_op = FpuOpFMax;
      OpFcmp: fpu_op = FpuOpFCmp;
      OpCvt: begin
        if (dt_i == DtF32 && mod_i != DtF32) begin
          fpu_op = dt_signed(mod_i) ? FpuOpCvtI2F : FpuOpCvtU2F;
          fpu_a  = cvt_src;
        end else if (dt_i != DtF32 && mod_i == DtF32) begin
          fpu_op = sgn ? FpuOpCvtF2I : FpuOpCvtF2U;
        end else begin
          fpu_op  = FpuOpFAdd;
          fpu_sel = 1'b0;  // integer <-> integer, or f32 copy
        end
      end
      default: begin
        fpu_op  = FpuOpFAdd;
        fpu_sel = 1'b0;
      end
    endcase
  end

  sgu_fpu u_fpu (
    .op_i    (fpu_op),
    .cond_i  (mod_i[2:0]),
    .a_i     (fpu_a),
    .b_i     (b_i[31:0]),
    .c_i     (c_i[31:0]),
    .result_o(fpu_res)
  );

  always_comb begin
    if (fpu_sel) begin
      // FP results are 32-bit; f32 -> narrow integer keeps and extends the destination width.
      res_o = (opcode_i == OpCvt) ? ext_dt({32'd0, fpu_res}, dt_i) : {32'd0, fpu_res};
    end else begin
      res_o = ext_dt(alu, dt_i);
    end
  end
  assign res_valid_o = int_op || fpu_sel;

endmodule
