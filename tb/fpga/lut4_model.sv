// SPDX-License-Identifier: Apache-2.0
// Behavioural model of the ECP5 LUT4, for simulation only (tb/fpga/late_pick_test.cc): the
// output is the INIT bit that the inputs address, Z = INIT[{D, C, B, A}] (Lattice's FPGA
// Libraries Reference Guide; Yosys's ECP5 cells_sim.v says the same).

/* verilator lint_off DECLFILENAME */
module LUT4 #(
  parameter logic [15:0] INIT = 16'h0000
) (
  input  logic A,
  input  logic B,
  input  logic C,
  input  logic D,
  output logic Z
);
  assign Z = INIT[{D, C, B, A}];
endmodule
