// SPDX-License-Identifier: Apache-2.0
// SGU late pick: y_o = en_i && (sel_i ? a_i : b_i), bit by bit, for a select that arrives late
// while the choices are ready earlier (with ZeroB: sel_i && a_i), or for one late choice a_i
// (with Sel2: y_o = (sel_i && sel2_i) ? a_i : b_i, a late second select: the crossbar's value
// and its source lane's exec bit into the write registers). In the core, d_to_r (whether
// D's instruction enters R, which waits for x_done) picks each lane's distance-2 forward select
// from D's and R's compares, and x_done gates each lane's copy of L2's source flags.
//
// Written as plain logic, ABC restructures such a choice together with the logic in front of it
// (it knows nothing of which input is late) and buries the select several LUT levels deep: on
// the SIMD16 board X's registers -> x_done -> the issue advance -> d_to_r -> each lane's forward
// select was 8 LUT4, the LSU's done 8 levels from the end. The ECP5 build (`SGU_ECP5, defined by
// fpga/flow.sh) instantiates one LUT4 per bit, a cell that ABC9 maps around and does not open:
// the select enters at the last LUT, and the choices' cones are mapped on their own (each is an
// output of ABC9's netlist). Elsewhere (simulation, lint) it is the logic itself (docs/timing.md,
// fifteenth session).

module sgu_late_pick #(
  parameter int unsigned Width = 1,
  parameter bit          HasEn = 1'b0,  // 0: en_i is ignored (taken as set)
  parameter bit          ZeroB = 1'b0,  // 1: b_i is ignored (taken as clear): y_o = sel_i && a_i
  parameter bit          Sel2  = 1'b0   // 1: the select is sel_i && sel2_i: y_o = (sel_i &&
                                        // sel2_i) ? a_i : b_i (HasEn and ZeroB must be 0:
                                        // the ECP5 build's LUT4 has no input left for them)
) (
  input  logic             sel_i,
  input  logic             sel2_i,  // with Sel2: the second select (late), else ignored
  input  logic [Width-1:0] a_i,   // the value when sel_i is set
  input  logic [Width-1:0] b_i,   // ... when it is clear (unless ZeroB)
  input  logic [Width-1:0] en_i,  // with HasEn: y_o is clear where en_i is
  output logic [Width-1:0] y_o
);
`ifdef SGU_ECP5
  // Z = INIT[{D, C, B, A}] with B = a_i, C = sel_i: for C = 0 Z = A (nibble 4'b1010), for
  // C = 1 Z = B (4'b1100). A = b_i, or a_i with ZeroB (Z = 0 for C = 0, nibble 0). D = en_i with
  // HasEn (Z = 0 for D = 0), else D = sel_i rather than a constant, which nextpnr would route
  // from its constant net (the indices with D != C then do not occur).
  // With Sel2, D = sel2_i: Z = B only for C = D = 1.
  localparam logic [3:0]  NibLo = ZeroB ? 4'b0000 : 4'b1010;
  localparam logic [15:0] Init  = Sel2  ? {4'b1100, 4'b1010, 4'b1010, 4'b1010} :
                                  HasEn ? {4'b1100, NibLo, 8'h00} :
                                          {4'b1100, NibLo, 4'b1100, NibLo};
  for (genvar i = 0; i < Width; i++) begin : gen_bit
    LUT4 #(
      .INIT(Init)
    ) u_lut (
      .A(ZeroB ? a_i[i] : b_i[i]),
      .B(a_i[i]),
      .C(sel_i),
      .D(Sel2 ? sel2_i : (HasEn ? en_i[i] : sel_i)),
      .Z(y_o[i])
    );
  end
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{en_i, b_i, sel2_i};
  /* verilator lint_on UNUSEDSIGNAL */
`else
  assign y_o = ((sel_i && (!Sel2 || sel2_i)) ? a_i : (ZeroB ? '0 : b_i)) & (HasEn ? en_i : '1);
`endif
endmodule
