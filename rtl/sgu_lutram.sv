// SPDX-License-Identifier: Apache-2.0
// SGU distributed RAM: 16 rows of Width bits (64 by default), one synchronous write port with
// two half-row enables, NumRead asynchronous read ports. The register file keeps its rows in
// these (sgu_regfile gen_lutram: one per lane for its vector rows, one per group of lanes for
// the scalar rows), the mask stack its entries (sgu_mask_stack: {saved, pending}).
//
// Write: at the clock edge, when we_i, the halves be_i selects (bit 0: bits Width/2-1:0, bit 1:
// the upper half) of row wad_i take di_i. Read: do_o[p] is row rad_i[p] as the RAM holds it (a read in the
// cycle of a write returns the row without it, until the edge).
//
// Two builds of the same behaviour:
//   default: one array with NumRead read ports, left to inference (Verilator simulates it once,
//     whatever the number of ports; synthesis replicates it per read port);
//   SGU_ECP5 (the FPGA flow, fpga/flow.sh): TRELLIS_DPR16X4 primitives, one copy of the 64 bits
//     per read port, each read straight from its own rad_i. From an inferred memory, Yosys moves
//     the caller's address registers into the RAM's read ports and merges the copies that hold
//     the same value (every lane's), so that one register drove every lane's read address across
//     the die (the SIMD8 board's routed critical path at 2f67383, docs/timing.md, nineteenth
//     session); with primitives the caller's kept address registers stay where they are.
//     tb/fpga's board tests also run a board model built this way (tb/fpga/dpr16x4_model.sv).

`include "sgu_assert.svh"

module sgu_lutram #(
  parameter int unsigned NumRead = 3,  // read ports
  parameter int unsigned Width   = 64  // bits per row, a multiple of 8 (halves of 4-bit cells)
) (
  input  logic                          clk_i,
  input  logic                          we_i,    // write row wad_i at the edge ...
  input  logic [1:0]                    be_i,    // ... these halves of it
  input  logic [3:0]                    wad_i,
  input  logic [Width-1:0]              di_i,
  input  logic [NumRead-1:0][3:0]       rad_i,   // read rows
  output logic [NumRead-1:0][Width-1:0] do_o     // their contents
);
  localparam int unsigned Half = Width / 2;

`ifdef SGU_ECP5
  // 4 bits per primitive: bits 0..Half-1 are the low half (be_i[0]).
  for (genvar p = 0; p < NumRead; p++) begin : gen_port
    for (genvar b = 0; b < Width / 4; b++) begin : gen_dpr
      TRELLIS_DPR16X4 u_ram (
        .DI (di_i[4*b+:4]),
        .WAD(wad_i),
        .WRE(we_i && be_i[b/(Half/4)]),
        .WCK(clk_i),
        .RAD(rad_i[p]),
        .DO (do_o[p][4*b+:4])
      );
    end
  end
`else
  (* ram_style = "distributed" *)
  logic [Width-1:0] mem [16];

  always_ff @(posedge clk_i) begin
    if (we_i) begin
      if (be_i[0]) mem[wad_i][Half-1:0]     <= di_i[Half-1:0];
      if (be_i[1]) mem[wad_i][Width-1:Half] <= di_i[Width-1:Half];
    end
  end

  for (genvar p = 0; p < NumRead; p++) begin : gen_port
    assign do_o[p] = mem[rad_i[p]];
  end
`endif

  `SGU_ASSERT_INIT(WidthBytes_A, Width >= 8 && Width % 8 == 0)

endmodule
