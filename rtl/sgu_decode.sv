// SPDX-License-Identifier: Apache-2.0
// SGU instruction decoder: field extraction, operand widths and the illegal-instruction rules.
//
// Purely combinational, zero latency. The legality rules are the ones in docs/isa.md
// ("Operands and types", "Crossbar", "Fetch, traps and the retire port"); the static part (legal
// opcode, dt and mod sets, fields an instruction uses) comes from the generated table
// sgu_isa_pkg::insn_info, so no encoding is spelled out here.

module sgu_decode #(
  parameter int unsigned NumLanes = 16  // SIMD width: 8, 16 or 32
) (
  input  logic [63:0] insn_i,      // instruction word
  output logic        illegal_o,   // instruction is illegal (trap IllegalInsn)
  output logic [7:0]  opcode_o,    // opcode field
  output logic [3:0]  dt_o,        // operand type
  output logic [3:0]  mod_o,       // modifier
  output logic [5:0]  rd_o,        // destination register specifier
  output logic [5:0]  rs1_o,       // source 1 specifier
  output logic [5:0]  rs2_o,       // source 2 specifier
  output logic [5:0]  rs3_o,       // source 3 specifier
  output logic [31:0] imm_o,       // sign-extended immediate
  output logic        rd_we_o,     // instruction writes rd (before the s0 rule)
  output logic        rd_pair_o,   // rd is a 64-bit pair
  output logic        rs1_pair_o,  // rs1 is read as a 64-bit pair
  output logic        rs2_pair_o,  // rs2 is read as a 64-bit pair
  output logic        rs3_pair_o   // rs3 is read as a 64-bit pair
);
  import sgu_isa_pkg::*;

  localparam int unsigned LaneBits = $clog2(NumLanes);

  insn_t      insn;
  insn_info_t info;
  logic       use_rd, use_rs1, use_rs2, use_rs3, use_imm;
  logic       dt64, src64;
  logic       is_cvt, is_ldst, is_sel, uniform_result, vector_rd_only;
  logic       unused_field_set, scalar_rule, pair_rule, op_rule;

  assign insn = insn_t'(insn_i);
  assign info = insn_info(insn.opcode);
  assign {use_imm, use_rs3, use_rs2, use_rs1, use_rd} = info.uses;

  assign opcode_o = insn.opcode;
  assign dt_o     = insn.dt;
  assign mod_o    = insn.mod;
  assign rd_o     = insn.rd;
  assign rs1_o    = insn.rs1;
  assign rs2_o    = insn.rs2;
  assign rs3_o    = insn.rs3;
  assign imm_o    = {{8{insn.imm[23]}}, insn.imm};
  assign rd_we_o  = use_rd;

  assign dt64    = (insn.dt == DtI64) || (insn.dt == DtU64);
  assign src64   = (insn.mod == DtI64) || (insn.mod == DtU64);
  assign is_cvt  = (insn.opcode == OpCvt);
  assign is_ldst = (insn.opcode == OpLd) || (insn.opcode == OpSt);
  assign is_sel  = (insn.opcode == OpSel);
  // Instructions whose result is uniform by definition may write a scalar from vector sources.
  assign uniform_result = (insn.opcode == OpVote) || (insn.opcode == OpFirst) ||
                          (insn.opcode == OpCsrr);
  assign vector_rd_only = (insn.opcode == OpLane) || (insn.opcode == OpShfl);

  // Operand widths: addresses (ld/st rs1) and conditions (sel rs1) are always 32 bits; cvt reads
  // its source with the type in mod.
  assign rd_pair_o  = use_rd && dt64;
  assign rs1_pair_o = use_rs1 && (is_cvt ? src64 : (dt64 && !is_ldst && !is_sel));
  assign rs2_pair_o = use_rs2 && dt64;
  assign rs3_pair_o = use_rs3 && dt64;

  assign unused_field_set = (!use_rd && insn.rd != '0) || (!use_rs1 && insn.rs1 != '0) ||
                            (!use_rs2 && insn.rs2 != '0) || (!use_rs3 && insn.rs3 != '0) ||
                            (!use_imm && insn.imm != '0);

  // A scalar destination needs scalar sources unless the result is uniform by definition.
  assign scalar_rule = use_rd && insn.rd[5] &&
                       (vector_rd_only ||
                        (!uniform_result && ((use_rs1 && !insn.rs1[5]) ||
                                             (use_rs2 && !insn.rs2[5]) ||
                                             (use_rs3 && !insn.rs3[5]))));

  // A 64-bit operand names an even register other than s0.
  function automatic logic bad_pair(logic is_pair, logic [5:0] r);
    return is_pair && (r[0] || r == 6'd32);
  endfunction
  assign pair_rule = bad_pair(rd_pair_o, insn.rd) || bad_pair(rs1_pair_o, insn.rs1) ||
                     bad_pair(rs2_pair_o, insn.rs2) || bad_pair(rs3_pair_o, insn.rs3);

  // Instruction-specific rules.
  always_comb begin
    op_rule = 1'b0;
    unique case (insn.opcode)
      OpCvt: op_rule = (insn.dt == DtF32 && src64) || (dt64 && insn.mod == DtF32);
      OpBz, OpBnz: op_rule = !insn.rs1[5];
      OpCsrr: op_rule = insn.imm > 24'(SpecialLaunchSize);
      OpShfl: begin
        if (insn.mod == ModShflIdx || insn.mod == ModShflDown2 || insn.mod == ModShflUp2) begin
          op_rule = insn.imm != '0;
        end else begin
          op_rule = insn.imm > 24'(LaneBits);
        end
      end
      default: op_rule = 1'b0;
    endcase
  end

  assign illegal_o = !info.valid || !info.dtypes[insn.dt] || !info.mods[insn.mod] ||
                     unused_field_set || scalar_rule || pair_rule || op_rule;

endmodule
