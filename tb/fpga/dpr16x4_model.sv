// SPDX-License-Identifier: Apache-2.0
// Behavioural model of the ECP5 distributed RAM TRELLIS_DPR16X4, for simulation only (the
// board model built with SGU_ECP5, tb/fpga/CMakeLists.txt): 16 words of 4 bits, written at the
// rising edge of WCK when WRE is high (the default WCKMUX "WCK" and WREMUX "WRE", the only ones
// the RTL instantiates), read asynchronously at RAD (Lattice's FPGA Libraries Reference Guide;
// Yosys's ECP5 common_sim.vh says the same). Initial contents zero (INITVAL).

/* verilator lint_off DECLFILENAME */
module TRELLIS_DPR16X4 #(
  parameter        WCKMUX  = "WCK",
  parameter        WREMUX  = "WRE",
  parameter [63:0] INITVAL = 64'h0000000000000000
) (
  input  logic [3:0] DI,
  input  logic [3:0] WAD,
  input  logic       WRE,
  input  logic       WCK,
  input  logic [3:0] RAD,
  output logic [3:0] DO
);
  logic [3:0] mem [16];
  initial begin
    for (int i = 0; i < 16; i++) mem[i] = INITVAL[4*i+:4];
  end
  always_ff @(posedge WCK) begin
    if (WRE) mem[WAD] <= DI;
  end
  assign DO = mem[RAD];
  // The clock and write-enable inversions are not modelled: the RTL instantiates the defaults.
  localparam bit DefaultMuxes = WCKMUX == "WCK" && WREMUX == "WRE";
  initial assert (DefaultMuxes) else $fatal(1, "TRELLIS_DPR16X4 model: only WCKMUX=WCK, WREMUX=WRE");
endmodule
