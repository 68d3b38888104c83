// SPDX-License-Identifier: Apache-2.0
// SGU predecoder: the few facts about an instruction word that the fetch stage and the hazard
// check need before the word's full decode (sgu_pkg::predec_t).
//
// The instruction cache (sgu_icache) runs one predecoder per word of a refill beat and keeps
// their results beside the words, so that F's next pc and the hazard fields that D's queue
// registers with each word come from the cache's RAM rather than from a decoder behind its read
// (the deepest path of the SIMD16 depth model at 695468b: the pc register -> the cache's LUT
// RAM -> the word select -> the decoder -> D's queue, 9 LUT4; docs/timing.md). The core's D
// stage decodes every word again (sgu_decode) and checks the two against each other (sgu_core
// DHz_A).
//
// Combinational. The word need not be a legal instruction: an illegal one traps in D, and its
// predecoded fields only steer F and the hazard check until then.

module sgu_predecode #(
  parameter int unsigned NumLanes = 16  // SIMD width (the decoder's parameter)
) (
  input  logic [63:0]      insn_i,
  output sgu_pkg::predec_t pre_o
);
  import sgu_isa_pkg::*;
  import sgu_pkg::*;

  logic [7:0]  opcode;
  logic [3:0]  dt, mod;
  logic [5:0]  rd;
  logic        rd_used;
  logic [2:0]  rs_used;
  logic        rd_pair, rs1_pair, rs2_pair, rs3_pair;
  /* verilator lint_off UNUSEDSIGNAL */  // the decoder's other fields
  logic        illegal;
  logic [8:0]  rules;
  logic [5:0]  rs1, rs2, rs3;
  logic [31:0] imm;
  /* verilator lint_on UNUSEDSIGNAL */

  // The one decoder; synthesis keeps only the logic of the fields used here.
  sgu_decode #(
    .NumLanes(NumLanes)
  ) u_decode (
    .insn_i    (insn_i),
    .illegal_o (illegal),
    .rules_o   (rules),
    .opcode_o  (opcode),
    .dt_o      (dt),
    .mod_o     (mod),
    .rd_o      (rd),
    .rs1_o     (rs1),
    .rs2_o     (rs2),
    .rs3_o     (rs3),
    .imm_o     (imm),
    .rd_we_o   (rd_used),
    .rd_pair_o (rd_pair),
    .rs1_pair_o(rs1_pair),
    .rs2_pair_o(rs2_pair),
    .rs3_pair_o(rs3_pair),
    .rs_used_o (rs_used)
  );

  // F predicts a conditional branch taken when its target is behind it (a loop), as the core's
  // fetch always did (docs/architecture.md "Pipeline").
  assign pre_o.taken    = opcode == OpBr ||
                          (opcode inside {OpBz, OpBnz, OpBexz, OpBexnz} && imm[31]);
  assign pre_o.stop     = opcode inside {OpHalt, OpTrap};
  assign pre_o.used     = rs_used;
  assign pre_o.rs_pair  = {rs3_pair, rs2_pair, rs1_pair};
  assign pre_o.rd_pair  = rd_pair;
  assign pre_o.short_wr = rd_used && rd != 6'd32 && !op_is_long(opcode, dt, mod);
  assign pre_o.nz       = op_reads_nz(opcode);
  assign pre_o.big      = shfl_big(opcode, rs2[5], mod);

endmodule
