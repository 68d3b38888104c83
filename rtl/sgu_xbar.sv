// SPDX-License-Identifier: Apache-2.0
// SGU lane crossbar: lane l receives element j(l) of the 2N-entry concatenation X||Y, or a default.
//
// One primitive serves every shuffle of docs/isa.md "Crossbar". Two stages, one shuffle per
// cycle: the index stage (the shuffle in X) computes each lane's source index and whether it is
// in range from d and registers them with the exec mask at ld_i (the core: at every edge with
// an instruction in X, the shuffle's last load being the edge it leaves X; a two-pass
// shuffle's only at its first edge; loads for other instructions are don't-care); the multiplexer stage (the shuffle in L2, the next cycle) picks the values from
// C and R, which the caller has registered at the same edges (the core's xb_q).
// Split so that neither the index arithmetic nor the multiplexer has the other in its path
// (docs/timing.md "Timing of the pipelined core"). res_o is don't-care unless mux_en_i.
//
// One N:1 multiplexer per lane, not 2N:1 (docs/architecture.md "Crossbar"). Lane l's element j
// of the 2N-entry X || Y is A[k] or B[k] with k = j mod N, so the choice between the two is
// made once per source k, before the multiplexers: C[k] = selb[k] ? B[k] : A[k] (selb_o; the
// caller registers C), and lane l picks C[k]. That is exact when no two lanes want A[k] and
// B[k] for one k, which holds for every uniform delta: down2 takes B exactly at k < d, up2
// exactly at k >= N - d, so selb is a thermometer code of d (bit k from lane k's copy of d and
// of the kind, thermo_dn_i / thermo_up_i: the core gives the one-pass form only a delta from a
// scalar register, which is uniform). A down2 / up2 with a vector delta takes two passes
// (decided by the core from the register's kind, not from the values; its thermo_*_i are 0):
// the multiplexer stage runs once in X with C = A (hold_en_i, the
// shuffle's second cycle in X; the result is kept in hold_q; the caller's C register then
// takes B) and once in L2 with C = B, and each lane takes the pass of its own source register
// (second_q). Every other mode reads A only (R, the default, is the lane's own element), so
// selb is 0.
// The index formula of each mode is written once, here, as a table; the golden model
// (sw/model) implements the same table:
//
//   w = group width (2^width_log2_i, or N when width_log2_i == 0), g = l mod w, base = l - g
//   mode   | X || Y | source j                      | out of range -> default
//   idx    | A || - | d                             | d >= N            -> R[l]
//   xor    | A || - | base + (g ^ d)                | d >= w            -> R[l]
//   down2  | A || B | l + d                         | l + d >= 2N       -> 0
//   up2    | B || A | l + N - d                     | d > l + N         -> 0
//   up     | A || - | base + g - d                  | d > g             -> R[l]
//   down   | A || - | base + g + d                  | g + d >= w        -> R[l]
//   rotup  | A || - | base + ((g - d) mod w)        | never
//   rotdn  | A || - | base + ((g + d) mod w)        | never
//
// A source lane whose exec bit is clear also yields the default. A = rs1, d = rs2 (unsigned 32
// bits per lane), B or R = rs3.

module sgu_xbar #(
  parameter int unsigned NumLanes = 16  // SIMD width: 8, 16 or 32
) (
  input  logic                            clk_i,
  // Index stage: the shuffle in X.
  input  logic                            en_i,          // a shuffle is in X
  input  logic                            ld_i,          // register its indices (the last
                                                         // load before mux_en_i counts)
  input  logic [NumLanes-1:0][3:0]        mode_i,        // sgu_isa_pkg ModShfl* value, per
                                                         // lane (the caller's copy, as for
                                                         // width_log2_i)
  input  logic [NumLanes-1:0]             thermo_dn_i,   // per lane, the caller's own copy:
  input  logic [NumLanes-1:0]             thermo_up_i,   // the shuffle is a one-pass down2 /
                                                         // up2 (a scalar delta)
  input  logic [NumLanes-1:0][2:0]        width_log2_i,  // group width, 0 = whole sub-group,
                                                         // per lane: the caller's own copy,
                                                         // loaded with the operand registers
                                                         // like thermo_*_i
  input  logic [NumLanes-1:0]             exec_i,        // lanes that execute the shuffle
  input  logic [NumLanes-1:0][31:0]       d_i,           // index / delta / mask per lane
  input  logic [NumLanes-1:0]             big_i,         // per lane: d_i >= N (the caller's
                                                         // registered flag; read only by a
                                                         // one-pass down2 / up2's selb_o)
  input  logic [NumLanes-1:0]             tdn_i,         // per lane l: l < d_i mod N, and
  input  logic [NumLanes-1:0]             tup_i,         // l + (d_i mod N) >= N (the caller's
                                                         // registered flags, read like big_i)
  // Multiplexer stage: the cycle after ld_i.
  input  logic                            hold_en_i,     // a two-pass shuffle's first pass (in
                                                         // X, its second cycle): C = A, the
                                                         // result kept for the second
  input  logic                            mux_en_i,      // the shuffle registered at ld_i, in
                                                         // L2 (a two-pass shuffle's second
                                                         // pass: C = B)
  output logic [NumLanes-1:0]             selb_o,        // index stage: per source lane k,
                                                         // C[k] of the first (or only) pass
                                                         // is B[k] (else A[k])
  input  logic [NumLanes-1:0][31:0]       c_i,           // C: B[k] or A[k] by selb_o,
                                                         // registered at ld_i; B[k] from the
                                                         // end of the first pass on
  input  logic [NumLanes-1:0][31:0]       r_i,           // B or default R, registered at ld_i
  output logic [NumLanes-1:0][31:0]       res_o,         // value received by each lane
  // ... in parts (sgu_xbar_mux), for the caller's own last choice: res_o = (early_o &&
  // src_exec_o) ? pick_o : dflt_o, per lane.
  output logic [NumLanes-1:0][31:0]       pick_o,
  output logic [NumLanes-1:0]             src_exec_o,
  output logic [NumLanes-1:0]             early_o,
  output logic [NumLanes-1:0][31:0]       dflt_o
);
  import sgu_isa_pkg::*;

  localparam int unsigned LaneBits = $clog2(NumLanes);

  // Index stage registers: per lane the source index and its kind, and the exec mask.
  logic [NumLanes-1:0][LaneBits-1:0] src_q;
  logic [NumLanes-1:0]               ok_q;      // in range (the source's exec bit still to test)
  logic [NumLanes-1:0]               second_q;  // from the second register of X || Y
  logic [NumLanes-1:0]               zero_q;    // the default is 0 rather than R[l]
  logic [NumLanes-1:0]               exec_q;
  logic [NumLanes-1:0]               held_q;    // per lane: the value is the first pass's

  // selb of a one-pass shuffle, source lane k's bit from lane k's own registers only: its copy
  // of the shuffle's kind (thermo_dn_i / thermo_up_i: the caller loads one per lane with the
  // operand registers; 0 for a two-pass shuffle, whose first pass reads A everywhere) and its
  // own d (the delta is a scalar, the same in every lane's operand register, as every lane's
  // source index already assumes), so that no net runs from the core's instruction registers or
  // from one lane's operand register to every lane's C selection. d >= N: every k (down2: lane
  // l's j = l + d >= N; up2: j = l + N - d < N); that test is the caller's flag big_i, registered
  // with d (sgu_regfile big_o), not an OR of d's high bits here. k < d and k + d >= N on the low
  // bits are the caller's registered flags too (sgu_regfile tdn_o, tup_o: a compare here was
  // merged by ABC with the index stage's sums, and placed with it, far from the caller's C
  // register), so that selb_o is one LUT level of registers.
  logic [NumLanes-1:0] thermo;
  always_comb begin
    thermo = 'x;
    if (en_i) begin
      thermo = (thermo_dn_i & (big_i | tdn_i)) |  // down2: k < d
               (thermo_up_i & (big_i | tup_i));   // up2: k + d >= N
    end
  end

  // C is chosen before the caller's register (selb_o: the thermometer of a one-pass shuffle,
  // A everywhere for a two-pass shuffle's first pass, whose thermo_*_i are 0; the caller loads B
  // into C at the end of the first pass), so that the multiplexer stage starts from the register of C itself, with no
  // selection level before the N:1 multiplexer (a selection there, after the registers, put
  // 1,600 end bits above 13.3 ns on a SIMD16 placement, and 750 when its select was a register
  // of its own: docs/fpga.md "The crossbar: one N:1 multiplexer per lane"). held is a register,
  // set at the end of the first pass in the lanes whose source is in A.
  assign selb_o = thermo;
  always_ff @(posedge clk_i) begin
    if (ld_i) begin
      exec_q <= exec_i;
      held_q <= '0;
    end else if (hold_en_i) begin
      held_q <= ~second_q;
    end
  end

  // The first pass's result, per lane.
  logic [NumLanes-1:0][31:0] hold_q;
  always_ff @(posedge clk_i) begin
    if (hold_en_i) hold_q <= res_o;
  end

  for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
    logic [LaneBits-1:0] src, wmask;
    logic                in_range, from_second, zero_default;

    // The lane's group width mask (w - 1), from its own copy of the width: the index stage of
    // lane l starts from lane l's registers only (its mode and width copies and its operand
    // register d), not from the core's instruction registers driving every lane (on the SIMD16
    // board's placements X's registers -> src_q was 9 LUT4: docs/timing.md, thirteenth
    // session).
    always_comb begin
      wmask = 'x;
      if (en_i) begin
        wmask = (width_log2_i[l] == '0) ? '1 : LaneBits'((33'd1 << width_log2_i[l]) - 33'd1);
      end
    end

    // Range checks on the 32-bit d are split into "d >= 2N" (an OR of its high bits) and small
    // compares on its low LaneBits + 1 bits, so that no lane builds a 32-bit comparator.
    // One procedural block per lane and stage, evaluated only for a shuffle (en_i, mux_en_i):
    // otherwise the values are don't-care (x: no gate in synthesis) and the simulation skips
    // the lane.
    always_comb begin
      logic [LaneBits-1:0] lane, g, base, dl, gd_sum, gd_diff;
      logic [LaneBits:0]   dw;         // d mod 2N
      logic [LaneBits+1:0] wide;       // l + d, l + N - d (d < 2N): no wrap
      logic [LaneBits:0]   gd_wide;    // g + d (d < N)
      logic                big, ge_n;  // d >= 2N, d >= N
      src          = 'x;
      lane         = 'x;
      g            = 'x;
      base         = 'x;
      dl           = 'x;
      dw           = 'x;
      gd_sum       = 'x;
      gd_diff      = 'x;
      gd_wide      = 'x;
      wide         = 'x;
      big          = 'x;
      ge_n         = 'x;
      in_range     = 'x;
      from_second  = 'x;
      zero_default = 'x;
      if (en_i) begin
        lane    = LaneBits'(l);
        g       = lane & wmask;
        base    = lane & ~wmask;
        dl      = d_i[l][LaneBits-1:0];
        dw      = d_i[l][LaneBits:0];
        big     = |d_i[l][31:LaneBits+1];
        ge_n    = big || d_i[l][LaneBits];
        gd_sum  = g + dl;
        gd_diff = g - dl;
        gd_wide = {1'b0, g} + {1'b0, dl};
        wide         = '0;
        src          = '0;
        in_range     = 1'b0;
        from_second  = 1'b0;
        zero_default = 1'b0;
        unique case (mode_i[l])
          ModShflIdx: begin
            in_range = !ge_n;                                  // d < N
            src      = dl;
          end
          ModShflXor: begin
            in_range = !ge_n && (dl & ~wmask) == '0;           // d <= w - 1
            src      = base | (g ^ dl);
          end
          ModShflDown2: begin
            zero_default = 1'b1;
            wide         = (LaneBits + 2)'(l) + {1'b0, dw};
            in_range     = !big && wide < (LaneBits + 2)'(2 * NumLanes);  // l + d < 2N
            from_second  = wide >= (LaneBits + 2)'(NumLanes);
            src          = wide[LaneBits-1:0];
          end
          ModShflUp2: begin
            // Index into B||A: below N selects B (previous), from N on selects A (current).
            zero_default = 1'b1;
            wide         = (LaneBits + 2)'(l) + (LaneBits + 2)'(NumLanes) - {1'b0, dw};
            in_range     = !big && !wide[LaneBits+1];          // d <= l + N: no borrow
            from_second  = wide < (LaneBits + 2)'(NumLanes);
            src          = wide[LaneBits-1:0];
          end
          ModShflUp: begin
            in_range = !ge_n && dl <= g;                       // d <= g
            src      = base | gd_diff;
          end
          ModShflDown: begin
            in_range = !ge_n && gd_wide <= {1'b0, wmask};      // g + d <= w - 1
            src      = base | gd_sum;
          end
          ModShflRotup: begin
            in_range = 1'b1;
            src      = base | (gd_diff & wmask);
          end
          default: begin  // ModShflRotdn
            in_range = 1'b1;
            src      = base | (gd_sum & wmask);
          end
        endcase
      end
    end

    always_ff @(posedge clk_i) begin
      if (ld_i) begin
        src_q[l]    <= src;
        ok_q[l]     <= in_range;
        second_q[l] <= from_second;
        zero_q[l]   <= zero_default;
      end
    end

    // Multiplexer stage. In a two-pass shuffle's second pass, a lane whose source is in A
    // takes the first pass's result (hold_q) as if it were its default.
    sgu_xbar_mux #(
      .NumLanes(NumLanes)
    ) u_mux (
      .en_i      (mux_en_i || hold_en_i),
      .src_i     (src_q[l]),
      .ok_i      (ok_q[l]),
      .held_i    (held_q[l]),
      .hold_i    (hold_q[l]),
      .zero_i    (zero_q[l]),
      .exec_i    (exec_q),
      .c_i       (c_i),
      .r_i       (r_i[l]),
      .res_o     (res_o[l]),
      .pick_o    (pick_o[l]),
      .src_exec_o(src_exec_o[l]),
      .early_o   (early_o[l]),
      .dflt_o    (dflt_o[l])
    );
  end

endmodule
