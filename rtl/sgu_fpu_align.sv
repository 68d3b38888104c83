// SPDX-License-Identifier: Apache-2.0
// SGU FPU alignment shifter: the addend of the FMA placed in the 76-bit window, with sticky.
//
// The one right shifter of the FPU datapath: the addend mantissa starts at win[75:52] and is
// shifted right by the amount sgu_fpu_exp computed (0..76) inside a 100-bit field; the bits
// that leave the window are ORed into the sticky bit. float->int uses the same shift to
// truncate (sgu_fpu_exp gives the amount). The window layout is described in sgu_fpu_exp.
//
// Latency: combinational (stage S2 of sgu_mfu, beside the multiplier). With en_i low (no FP
// operation in the stage) the outputs are don't-care and nothing is computed: a simulator skips
// the 100-bit shift, synthesis adds no gate.

module sgu_fpu_align (
  input  logic        en_i,        // an FP operation is in the stage
  input  logic [23:0] z_man_i,     // addend mantissa incl. hidden bit
  input  logic [6:0]  shamt_i,     // right shift from win[75:52], 0..76
  output logic [75:0] z_win_o,     // addend magnitude aligned in the window
  output logic        z_sticky_o   // some addend bit fell below z_win_o[0]
);

  localparam int unsigned WinW = sgu_fpu_pkg::FpuWinWidth;  // 76
  localparam int unsigned ManW = 24;                        // mantissa incl. hidden bit
  // The addend is shifted within a field of WinW + ManW bits; the low ManW bits feed sticky.
  localparam int unsigned FieldW = WinW + ManW;              // 100

  logic [FieldW-1:0] z_field;

  always_comb begin
    z_field    = 'x;
    z_win_o    = 'x;
    z_sticky_o = 'x;
    if (en_i) begin
      z_field    = {z_man_i, {WinW{1'b0}}} >> shamt_i;
      z_win_o    = z_field[FieldW-1:ManW];
      z_sticky_o = |z_field[ManW-1:0];
    end
  end

endmodule
