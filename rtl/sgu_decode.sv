// SPDX-License-Identifier: Apache-2.0
// SGU instruction decoder: field extraction, operand widths and the illegal-instruction rules.
//
// Purely combinational, zero latency. Every legality rule is an attribute of the instruction's
// line in isa/sgu_isa.txt, read here from the generated table sgu_isa_pkg::insn_info (legal dt
// and mod sets, fields used, per register operand its width source and kind, the imm rule, the
// forbidden dt/mod pairs) and the generated constants (Dtypes64, PairExcluded, NumSpecials).
// This module only applies them, with no opcode of its own: it is the RTL twin of the generic
// checker sw/isa/insn.cc CheckLegal, and tb/decode_test.cc compares the two on random words.

module sgu_decode #(
  parameter int unsigned NumLanes = 16  // SIMD width: 8, 16 or 32
) (
  input  logic [63:0] insn_i,      // instruction word
  output logic        illegal_o,   // instruction is illegal (trap IllegalInsn)
  output logic [8:0]  rules_o,     // the legality rules it breaks (illegal_o is their OR), for a
                                   // user that registers them and combines them a cycle later
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
  output logic        rs3_pair_o,  // rs3 is read as a 64-bit pair
  output logic [2:0]  rs_used_o    // {rs3, rs2, rs1} are read (hazard checks)
);
  import sgu_isa_pkg::*;

  localparam int unsigned LaneBits = $clog2(NumLanes);

  insn_t           insn;
  insn_info_t      info;
  logic            use_imm;
  logic [3:0]      use_reg;        // {rs3, rs2, rs1, rd} are read / written
  logic [3:0][5:0] regs;           // their specifiers
  logic [3:0]      pair;           // 64-bit pair operands
  logic            dt64, mod64;
  logic            unused_field_set, forbid_rule, kind_rule, scalar_rule, pair_rule, imm_rule;

  assign insn    = insn_t'(insn_i);
  assign info    = insn_info(insn.opcode);
  assign use_reg = info.uses[3:0];
  assign use_imm = info.uses[4];
  assign regs    = {insn.rs3, insn.rs2, insn.rs1, insn.rd};

  assign opcode_o = insn.opcode;
  assign dt_o     = insn.dt;
  assign mod_o    = insn.mod;
  assign rd_o     = insn.rd;
  assign rs1_o    = insn.rs1;
  assign rs2_o    = insn.rs2;
  assign rs3_o    = insn.rs3;
  assign imm_o    = {{8{insn.imm[23]}}, insn.imm};
  assign rd_we_o  = use_reg[0];
  assign rs_used_o = use_reg[3:1];

  // Operand widths (attributes :d and :m): a pair when the operand's type is 64-bit. Operands
  // without either (addresses, conditions, indices) are always 32 bits.
  assign dt64  = Dtypes64[insn.dt];
  assign mod64 = Dtypes64[insn.mod];
  always_comb begin
    for (int k = 0; k < 4; k++) begin
      pair[k] = use_reg[k] && ((info.width[k] == WidthDt && dt64) ||
                               (info.width[k] == WidthMod && mod64));
    end
  end
  assign rd_pair_o  = pair[0];
  assign rs1_pair_o = pair[1];
  assign rs2_pair_o = pair[2];
  assign rs3_pair_o = pair[3];

  // Every field the instruction does not use is zero.
  always_comb begin
    unused_field_set = !use_imm && insn.imm != '0;
    for (int k = 0; k < 4; k++) begin
      unused_field_set |= !use_reg[k] && regs[k] != '0;
    end
  end

  // forbid:DTS/MODS pairs of dt and mod.
  always_comb begin
    forbid_rule = 1'b0;
    for (int k = 0; k < MaxForbid; k++) begin
      forbid_rule |= info.forbid_dts[k][insn.dt] && info.forbid_mods[k][insn.mod];
    end
  end

  // Register kinds (bit 5 of a specifier: scalar). :s operands are scalar, :v operands vector;
  // a scalar rd needs scalar sources unless the result is uniform (:u); a pair operand names an
  // even register outside PairExcluded.
  always_comb begin
    kind_rule   = 1'b0;
    scalar_rule = 1'b0;
    pair_rule   = 1'b0;
    for (int k = 0; k < 4; k++) begin
      kind_rule |= use_reg[k] && ((info.kind[k] == RegScalar && !regs[k][5]) ||
                                  (info.kind[k] == RegVector && regs[k][5]));
      pair_rule |= pair[k] && (regs[k][0] || PairExcluded[regs[k]]);
      if (k > 0) begin
        scalar_rule |= use_reg[0] && insn.rd[5] && info.kind[0] != RegUniform &&
                       use_reg[k] && !regs[k][5];
      end
    end
  end

  // The immediate's rule (imm compared unsigned: a negative value is out of range).
  always_comb begin
    unique case (info.imm_rule)
      ImmSpecial:    imm_rule = insn.imm >= 24'(NumSpecials);
      ImmGroupWidth: imm_rule = insn.imm > (info.imm_mods[insn.mod] ? 24'(LaneBits) : 24'd0);
      default:       imm_rule = 1'b0;
    endcase
  end

  assign rules_o   = {!info.valid, !info.dtypes[insn.dt], !info.mods[insn.mod], unused_field_set,
                      forbid_rule, kind_rule, scalar_rule, pair_rule, imm_rule};
  assign illegal_o = rules_o != '0;

endmodule
