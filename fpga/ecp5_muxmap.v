// SPDX-License-Identifier: Apache-2.0
// Techmap rules for fpga/flow.sh: Yosys's $_MUX4_/$_MUX8_/$_MUX16_ cells (from `muxcover`) onto
// the ECP5 slice's own multiplexers.
//
// An ECP5 slice has two LUT4s and a PFUMX that selects between their outputs; an L6MUX21
// selects between the PFUMX outputs of two slices, and one more L6MUX21 between two of those.
// The two LUT4s of a slice take independent inputs, so a slice is a 4:1 multiplexer (each LUT4
// a 2:1 multiplexer on the low select bit, the PFUMX on the high one): 2 LUT4 for 4:1, 4 for
// 8:1, 8 for 16:1. ABC's LUT model knows only LUT5..LUT7 built from those parts with shared
// inputs, where a 4:1 multiplexer is a LUT6 (4 LUT4) or three 2:1 LUT4s; the crossbar's
// 2N:1 multiplexers per lane and bit are most of its area, so the flow maps them here instead.
//
// Cell semantics (Yosys): $_MUX_: Y = S ? B : A; $_MUX4_: Y = T ? (S ? D : C) : (S ? B : A);
// $_MUX8_ and $_MUX16_ extend this with U and V as the next select bits.
// LUT4: Z = INIT[{D, C, B, A}]; INIT 16'hCACA is Z = C ? B : A (D unused).
// PFUMX: Z = C0 ? ALUT : BLUT. L6MUX21: Z = SD ? D1 : D0.

module \$_MUX4_ (input A, B, C, D, S, T, output Y);
  wire lo, hi;
  LUT4 #(.INIT(16'hCACA)) lut_lo (.A(A), .B(B), .C(S), .D(1'b0), .Z(lo));
  LUT4 #(.INIT(16'hCACA)) lut_hi (.A(C), .B(D), .C(S), .D(1'b0), .Z(hi));
  PFUMX mux (.ALUT(hi), .BLUT(lo), .C0(T), .Z(Y));
endmodule

module \$_MUX8_ (input A, B, C, D, E, F, G, H, S, T, U, output Y);
  wire lo, hi;
  \$_MUX4_ mux_lo (.A(A), .B(B), .C(C), .D(D), .S(S), .T(T), .Y(lo));
  \$_MUX4_ mux_hi (.A(E), .B(F), .C(G), .D(H), .S(S), .T(T), .Y(hi));
  L6MUX21 mux (.D0(lo), .D1(hi), .SD(U), .Z(Y));
endmodule

module \$_MUX16_ (input A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, S, T, U, V, output Y);
  wire lo, hi;
  \$_MUX8_ mux_lo (.A(A), .B(B), .C(C), .D(D), .E(E), .F(F), .G(G), .H(H), .S(S), .T(T), .U(U),
                   .Y(lo));
  \$_MUX8_ mux_hi (.A(I), .B(J), .C(K), .D(L), .E(M), .F(N), .G(O), .H(P), .S(S), .T(T), .U(U),
                   .Y(hi));
  L6MUX21 mux (.D0(lo), .D1(hi), .SD(V), .Z(Y));
endmodule
