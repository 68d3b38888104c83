// SPDX-License-Identifier: Apache-2.0
// SGU lane crossbar: lane l receives element j(l) of the 2N-entry concatenation X||Y, or a default.
//
// One primitive serves every shuffle of docs/isa.md "Crossbar". Purely combinational, zero
// latency, so one shuffle issues per cycle. The index formula of each mode is written once, here,
// as a table; the golden model (sw/model) implements the same table:
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
  input  logic [3:0]                      mode_i,        // sgu_isa_pkg ModShfl* value
  input  logic [2:0]                      width_log2_i,  // group width, 0 = whole sub-group
  input  logic [NumLanes-1:0]             exec_i,        // lanes that executed the shuffle
  input  logic [NumLanes-1:0][31:0]       a_i,           // data A
  input  logic [NumLanes-1:0][31:0]       d_i,           // index / delta / mask per lane
  input  logic [NumLanes-1:0][31:0]       r_i,           // second register B or default R
  output logic [NumLanes-1:0][31:0]       res_o          // value received by each lane
);
  import sgu_isa_pkg::*;

  localparam int unsigned LaneBits = $clog2(NumLanes);

  // Group width mask (w - 1), shared by all lanes.
  logic [LaneBits-1:0] wmask;
  always_comb begin
    if (width_log2_i == '0) begin
      wmask = '1;
    end else begin
      wmask = LaneBits'((33'd1 << width_log2_i) - 33'd1);
    end
  end

  for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
    logic [LaneBits-1:0] lane, g, base, gd_sum, gd_diff, src;
    logic [33:0]         wide;     // l + d, l + N - d in 34 bits: no wrap
    logic                in_range, from_second, zero_default;
    logic [31:0]         picked;

    assign lane    = LaneBits'(l);
    assign g       = lane & wmask;
    assign base    = lane & ~wmask;
    assign gd_sum  = g + d_i[l][LaneBits-1:0];
    assign gd_diff = g - d_i[l][LaneBits-1:0];

    always_comb begin
      wide         = '0;
      src          = '0;
      in_range     = 1'b0;
      from_second  = 1'b0;
      zero_default = 1'b0;
      unique case (mode_i)
        ModShflIdx: begin
          in_range = d_i[l] < 32'(NumLanes);
          src      = d_i[l][LaneBits-1:0];
        end
        ModShflXor: begin
          in_range = d_i[l] <= 32'(wmask);
          src      = base | (g ^ d_i[l][LaneBits-1:0]);
        end
        ModShflDown2: begin
          zero_default = 1'b1;
          wide         = 34'(l) + {2'b0, d_i[l]};
          in_range     = wide < 34'(2 * NumLanes);
          from_second  = wide >= 34'(NumLanes);
          src          = wide[LaneBits-1:0];
        end
        ModShflUp2: begin
          // Index into B||A: below N selects B (previous), from N on selects A (current).
          zero_default = 1'b1;
          wide         = 34'(l) + 34'(NumLanes) - {2'b0, d_i[l]};
          in_range     = {2'b0, d_i[l]} <= 34'(l) + 34'(NumLanes);
          from_second  = wide < 34'(NumLanes);
          src          = wide[LaneBits-1:0];
        end
        ModShflUp: begin
          in_range = d_i[l] <= 32'(g);
          src      = base | gd_diff;
        end
        ModShflDown: begin
          in_range = ({1'b0, d_i[l]} + 33'(g)) <= 33'(wmask);
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

    assign picked = from_second ? r_i[src] : a_i[src];
    assign res_o[l] = (in_range && exec_i[src]) ? picked :
                      (zero_default ? 32'd0 : r_i[l]);

    logic unused_wide;
    assign unused_wide = ^wide[33:LaneBits];
  end

endmodule
