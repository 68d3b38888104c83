// SPDX-License-Identifier: Apache-2.0
// SGU register file: 32 vector registers (N lanes x 32 bits) and 32 scalar registers, in RAM.
//
// Register specifiers are 6 bits: 0..31 select v0..v31, 32..63 select s0..s31. Reading a scalar
// register broadcasts it to every lane; s0 reads as zero. A 64-bit operand is an even/odd pair
// (r, r+1) (the decoder traps odd pairs), so the file is organised in pair rows: row k holds
// registers 2k (low half) and 2k+1 (high half). Each read port reads one row and returns both
// halves: rd_lo_o is register r (the row's low or high half by r[0]) and rd_hi_o the row's high
// half (register r+1 of a pair; meaningless for odd r, which no pair names).
//
// Storage (the shape of FPGA block RAM, docs/architecture.md "Register file"): one array
//   mem[32] rows of N x 64 bits: rows 0..15 the vector pair rows, rows 16..31 the scalar pair
//           rows with each scalar stored in every lane (a scalar write writes every lane),
//           so that a read port is one row read with no scalar broadcast
//           multiplexer. One write port with a write enable per lane and half, three
//           synchronous read ports: a synthesis tool replicates the array per read port (ECP5:
//           one DP16KD per lane, half and port, 6N block RAMs; no flops, no wide muxes).
//           In distributed RAM (RfBlockRam = 0) the vector rows stay per lane and the scalar
//           rows are kept once per group of four lanes (gen_lutram).
// Reads take two edges (the register read stage R of docs/architecture.md "Pipeline"):
//   1. At every rising edge the specifiers of the instruction in R in the next cycle are
//      sampled for the ports it reads (D's, rd_spec_d_i / rd_en_d_i, when rd_sel_d_i, else
//      R's): the block RAMs read the rows (synchronous read, read-before-write); in
//      distributed RAM (RfBlockRam = 0) both candidates' row numbers and the choice are
//      registered, and the RAM is read after the edge from the chosen ones, the write of that
//      edge not yet in it (the write is registered before it reaches the RAM). Either way a
//      write at the read edge is remembered by a bypass (byp, with per port hit
//      bits and per lane and half enables).
//   2. At an edge where ld_i is high (X takes an instruction; the core also loads when X takes
//      none or when the instruction in X no longer reads them, and the values are then unused),
//      each enabled port's operand register takes
//      the row as it stands after the write of step 1, and selects the register's half:
//      rd_lo_o / rd_hi_o are registers, so the execute stage starts from flip-flops.
//   The core re-reads the same specifiers at every edge while the instruction waits in R, so
//   the operands include every write up to and including the edge of the last read. One more
//   value can be newer than the row: the write at the loading edge itself (the short result in
//   L2, distance 2). The core forwards its low word into the low words of ports 0 and 1
//   (fl_sel_i per port and lane, fl_i: sgu_core "Forwards"), so the execute stage starts from
//   these flip-flops in every case; every other overlap with it waits in R, and so does a
//   reader right behind a short writer (nothing forwards out of the execute stage).
//   Forwarding high words and port 2 as well would cost 2 x N x 32 more multiplexers.
// Write port: wr_en_i writes register wr_spec_i (or the pair wr_spec_i, wr_spec_i+1) at the
// rising edge, in the lanes of wr_lanes_i for a vector register; a scalar register in every lane,
// whose values must be equal (a scalar result is uniform; asserted); writes to s0 are dropped.
// The value is the short result (wr_s_i, the core's L2 value) or the long one (wr_l_i, L7's),
// picked by wr_long_i here rather than in the core: the distributed RAM build registers both
// as they come and selects after the registers (below).
//
// Clear: clear_i (kernel start) starts a sequence of 32 cycles (clearing_o high) that writes
// every row: vectors to zero, scalars to zero except s1..s8 = args_i[0..7]. The core issues no
// instruction while clearing_o is high, and wr_en_i must be low.

`include "sgu_assert.svh"

module sgu_regfile #(
  parameter int unsigned NumLanes   = 16,  // SIMD width: 8, 16 or 32
  parameter int unsigned RfBlockRam = 1    // 1: the rows in block RAM; 0: in distributed RAM
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  input  logic                              clear_i,     // kernel start: begin the clear
  output logic                              clearing_o,  // the clear sequence is running
  input  logic [7:0][31:0]                  args_i,      // values of s1..s8 after the clear
  // The read at each edge is that of the instruction in R in the next cycle: the one entering
  // from D (rd_sel_d_i) or the one in R (the core's choice, by its advance decision).
  input  logic                              rd_sel_d_i,   // read D's specifiers (else R's)
  input  logic [2:0]                        rd_en_d_i,    // D's ports whose operand is read
  input  logic [2:0][5:0]                   rd_spec_d_i,  // D's read port specifiers
  input  logic [2:0]                        rd_en_r_i,    // R's (none if R is empty)
  input  logic [2:0][5:0]                   rd_spec_r_i,
  input  logic                              ld_i,        // load the operand registers
  input  logic [1:0][NumLanes-1:0]          fl_sel_i,    // ports 0, 1: the low word loads fl_i
  input  logic [NumLanes-1:0][31:0]         fl_i,        // the write at this edge (distance 2)
  input  logic [NumLanes-1:0]               fl_nz_i,     // fl_i != 0, for port 0's flag (valid
                                                         // whenever a reader of the flag takes
                                                         // fl_i: sgu_core NzLate_A)
  output logic [2:0][NumLanes-1:0][31:0]    rd_lo_o,     // register r of each port, per lane
  output logic [1:0]                        hit2_o,      // the halves (bit 0 low, 1 high) of
                                                         // port 2's row, read at the last edge,
                                                         // that the write of that edge wrote:
                                                         // an operand from them must not be
                                                         // loaded now
  output logic [NumLanes-1:0]               nz_o,        // port 0's rd_lo_o != 0, registered
  input  logic                              big_en_i,    // load port 1's big_o flags at ld_i
                                                         // (the instruction entering X reads
                                                         // them)
  input  logic [NumLanes-1:0]               fl_big_i,    // fl_i >= NumLanes, for port 1's flag
                                                         // (valid whenever a reader of the
                                                         // flag takes fl_i: sgu_core
                                                         // BigLate_A)
  output logic [NumLanes-1:0]               big_o,       // port 1's rd_lo_o >= NumLanes,
                                                         // registered (don't-care if loaded
                                                         // without big_en_i)
  output logic [NumLanes-1:0]               tdn_o,       // port 1's low LaneBits bits d: lane
                                                         // l < d (a one-pass down2 takes B
                                                         // at source lane l), registered like
                                                         // big_o
  output logic [NumLanes-1:0]               tup_o,       // l + d >= NumLanes (an up2's), the
                                                         // same way
  output logic [2:0][NumLanes-1:0][31:0]    rd_hi_o,     // register r+1 (pairs), per lane
  input  logic                              wr_en_i,     // write enable
  input  logic [5:0]                        wr_spec_i,   // destination specifier (even for a pair)
  input  logic                              wr_pair_i,   // write (r, r+1)
  input  logic [NumLanes-1:0]               wr_lanes_i,  // lanes to write (vector destination)
  input  logic                              wr_long_i,   // the value is wr_l_i (else wr_s_i)
  input  logic [NumLanes-1:0][63:0]         wr_s_i,      // a short result per lane: r in the
                                                         // low word, r+1 (pairs) in the high
  input  logic [NumLanes-1:0][63:0]         wr_l_i       // ... a long result, the same way
);

  // ------------------------------------------------------------------------------ clear
  logic       clearing_q;
  logic [4:0] clr_row_q;  // row being cleared: 0..15 vector rows, 16..31 scalar rows

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      clearing_q <= 1'b0;
      clr_row_q  <= '0;
    end else if (clear_i) begin
      clearing_q <= 1'b1;
      clr_row_q  <= '0;
    end else if (clearing_q) begin
      clr_row_q  <= clr_row_q + 5'd1;
      clearing_q <= clr_row_q != 5'd31;
    end
  end
  assign clearing_o = clearing_q;

  // Row 16 + r of the clear: scalars {s(2r+1), s(2r)}, with s1..s8 = args_i[0..7]; vector rows
  // are cleared to zero.
  logic [63:0] clr_row;
  always_comb begin
    clr_row = '0;
    for (int unsigned h = 0; h < 2; h++) begin
      logic [4:0] s;
      s = {clr_row_q[3:0], 1'(h)};
      if (clr_row_q[4] && s >= 5'd1 && s <= 5'd8) clr_row[32*h+:32] = args_i[s-5'd1];
    end
  end

  // ------------------------------------------------------------------------------ write port
  // Row write with an enable per lane and half.
  logic                          we;
  logic [4:0]                    w_row;
  logic [NumLanes-1:0][1:0]      wen;
  logic [1:0]                    half_en;
  logic                          w_scalar, w_dup;
  logic [NumLanes-1:0][63:0]     wval;  // the written value per lane (only with a write)

  // Halves written by a (non-clear) write: a pair writes both, a single register its own half.
  assign half_en  = wr_pair_i ? 2'b11 : (wr_spec_i[0] ? 2'b10 : 2'b01);
  assign w_scalar = wr_spec_i[5];
  // A single odd register takes the value's low word into the row's high half.
  assign w_dup    = !wr_pair_i && wr_spec_i[0];
  always_comb begin
    wval = 'x;
    if (wr_en_i) wval = wr_long_i ? wr_l_i : wr_s_i;
  end

  // A scalar destination's value is the same in every lane (a scalar result has scalar sources
  // only, or is uniform: csrr, vote, first, a load from a scalar address; every lane computes
  // it), so each lane writes its own copy: no broadcast multiplexer. ScalarUniform_A checks it.

  always_comb begin
    if (clearing_q) begin
      we    = 1'b1;
      w_row = clr_row_q;
      wen   = '1;
    end else begin
      // The lanes' enables and data only with a write: otherwise don't-care (x: no gate), and
      // the simulation skips the per-lane loop (docs/performance.md).
      we    = wr_en_i && !(w_scalar && wr_spec_i[4:0] == 5'd0);
      w_row = {w_scalar, wr_spec_i[4:1]};
      wen   = 'x;
      if (wr_en_i) for (int unsigned l = 0; l < NumLanes; l++) begin
        wen[l]   = (w_scalar || wr_lanes_i[l]) ? half_en : 2'b00;
      end
    end
  end

  // ------------------------------------------------------------------------------ storage
  // Synthesis: block RAM (RfBlockRam = 1) or distributed RAM (0: the rows in LUT RAM beside the
  // lanes, more LUTs and no block RAMs; on ECP5 the only build of the core that routes, docs/
  // timing.md "Routing"). Both give the operand registers the row as it stands after the write of
  // the read edge: the RAM holds the row without that write, and the bypass register (below)
  // replaces exactly the halves it wrote:
  //   block RAM: a synchronous read (read-before-write, no_rw_check: a read at the edge of a
  //     write to the same row may return anything), the write at the edge;
  //   distributed RAM: the read rows are registered (addr_q, one copy per lane) and the RAM is
  //     read asynchronously from them; the write is registered first (the bypass registers and
  //     a copy of the row and enables per lane, w_row_q, w_en_q) and reaches the RAM one edge
  //     later, so that the RAMs' write data and enables start from flip-flops beside them: the
  //     write-back's selection (the long result or L2's value, the crossbar's among them) and
  //     the records' write decision no longer run across the die into every lane's RAM (on the
  //     SIMD8 board they were 1,219 of the 3,171 endpoints above 13.3 ns at 77e9005: docs/
  //     timing.md "Routed timing, step by step"). A read at the edge of that write sees the RAM
  //     without it, like a block RAM's, and the same bypass covers it. The specifiers'
  //     selection in the core (D's or R's, by the stall) only reaches the row registers, not the
  //     RAMs' address pins (docs/timing.md "Timing of the pipelined core"). From an inferred
  //     memory, Yosys 0.70 moves each kept copy into its LUT RAM's read port, makes a new
  //     address register there and merges the sixteen new ones, so that one register drove
  //     every lane's read address across the die (the SIMD8 board's routed critical path at
  //     2f67383); the RAMs are therefore sgu_lutram, which the ECP5 build (SGU_ECP5, fpga/
  //     flow.sh) makes of TRELLIS_DPR16X4 primitives, one copy per read port, each read from its
  //     own lane's (or scalar group's) address copy (docs/timing.md, nineteenth session).
  //     Simulation keeps arrays; tb/fpga's board tests also run a board model built with
  //     SGU_ECP5.
  logic [2:0][NumLanes-1:0][63:0] rows;  // the rows of the last read, per port and lane
  logic [2:0][NumLanes-1:0][63:0] ram;   // ... as the RAM holds them (without the write of
                                         // the read edge)
  logic [2:0]                     en_q;  // the port read an operand at the last edge

  // Bypass of the write at the read edge: per port whether it wrote the row read, and per lane
  // the halves it wrote and their values (in distributed RAM also the RAM's write port). Ports
  // 0 and 1 only: port 2 (rs3: ffma's addend, sel's c, a shuffle's B or default) is read
  // rarely enough that the core holds its reader one cycle in R instead (hit2_o), which saves a
  // multiplexer per lane and bit (N x 64 LUTs: the bypass of all three ports took the SIMD16
  // board past 80 % of the 85F's LUT sites, docs/timing.md "What is left").
  // Per port whether the write of the last edge wrote the row read at it. Like everything
  // else the read edge registers (the row numbers in distributed RAM, the port enables, the
  // half), it is registered for both candidates, D's specifiers and R's, and selected after
  // the registers by the registered choice (sel_q): the core's advance decision (the hazard
  // checks, X's completion) ends in one flip-flop per copy instead of running on into every
  // lane's row registers (on the SIMD8 board at 01a52d9, 84 of the endpoints above 13.3 ns
  // were those rows: docs/timing.md "Routed timing, step by step").
  logic [2:0]                hit_q, hit_d_q, hit_r_q;
  logic [NumLanes-1:0][1:0]  w_en_q;
  logic [1:0]                w_half_q;  // the halves the write of the last edge wrote (port 2's
                                        // hit2_o: a register, not its row, decides the wait)
  logic [NumLanes-1:0][63:0] wv;     // the value written at the last edge, per lane (but a
                                     // clear's)
  logic [NumLanes-1:0][63:0] byp;    // ... as the bypass gives it (a clear's as zero: below)

  // The write of the last edge is kept as its parts arrived: the short and the long value, which
  // of them, the odd register's duplication, the clear and its row. byp is selected after these
  // registers, so that the write-back's paths (the crossbar's multiplexers and L2's value
  // selection, the MFUs' results) end in flip-flops without the long/short selection, the half
  // duplication and the clear behind them (on the SIMD8 board at d6ab960, the single bypass
  // register after that selection was the largest group of endpoints above 13.3 ns: docs/
  // timing.md "Routed timing, step by step").
  logic [NumLanes-1:0][63:0] ws_q, wl_q;
  logic                      w_long_q, w_dup_q, w_clr_q;
  logic [63:0]               w_clr_row_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hit_d_q  <= '0;
      hit_r_q  <= '0;
      w_en_q   <= '0;
      w_half_q <= '0;
    end else begin
      for (int unsigned p = 0; p < 3; p++) begin
        hit_d_q[p] <= we && w_row == {rd_spec_d_i[p][5], rd_spec_d_i[p][4:1]};
        hit_r_q[p] <= we && w_row == {rd_spec_r_i[p][5], rd_spec_r_i[p][4:1]};
      end
      w_en_q   <= we ? wen : '0;
      w_half_q <= !we ? 2'b00 : (clearing_q ? 2'b11 : half_en);
    end
  end

  // Both value registers load at every edge (only the last edge's write is read, and w_long_q
  // says which of them it was): an enable from the write decision (L2's and L7's records) was
  // a group of 163 late endpoints on the routed SIMD16 board at bb636fb.
  always_ff @(posedge clk_i) begin
    ws_q        <= wr_s_i;
    wl_q        <= wr_l_i;
    w_long_q    <= wr_long_i;
    w_dup_q     <= w_dup;
    w_clr_q     <= clearing_q;
    w_clr_row_q <= clr_row;
  end
  // Only when the last edge wrote (a half of w_en_q set; otherwise nothing reads it: no gate,
  // and the simulation skips it).
  // A clear's row reaches the RAM (wdat) but not the bypass, which gives zero for it: the
  // operands loaded one edge after a clear write are used only if no clear is running in the
  // cycle between (the core issues nothing while clearing_o is high: NoIssueInClear_A), that is
  // only after the clear's last row, which is zero (s30, s31); ClearBypass_A checks that every
  // other clear write is followed by a clearing cycle. So the clear row's register, one for all
  // lanes and placed away from them, is off the paths from the bypass into the operand
  // registers and into rs1's nonzero flag (the SIMD8 board's routed critical path at bb636fb:
  // w_clr_row_q -> the bypass -> the zero detect -> the nonzero flag (gen_flag), docs/fpga.md
  // "Routed timing, step by step").
  always_comb begin
    logic [63:0] v;
    v   = 'x;
    wv  = 'x;
    byp = 'x;
    if (w_en_q != '0) begin
      for (int unsigned l = 0; l < NumLanes; l++) begin
        v      = w_long_q ? wl_q[l] : ws_q[l];
        wv[l]  = w_dup_q ? {v[31:0], v[31:0]} : v;
        byp[l] = w_clr_q ? '0 : wv[l];
      end
    end
  end

  // The rows only when the operand registers load (otherwise don't-care: no gate), so that the
  // simulation skips them in the other cycles.
  always_comb begin
    rows = 'x;
    for (int unsigned p = 0; p < 3; p++) begin
      if (ld_i && en_q[p]) begin
        for (int unsigned l = 0; l < NumLanes; l++) begin
          for (int unsigned h = 0; h < 2; h++) begin
            rows[p][l][32*h+:32] = (p < 2 && hit_q[p] && w_en_q[l][h]) ? byp[l][32*h+:32]  
                                                                       : ram[p][l][32*h+:32];
          end
        end
      end
    end
  end

  if (RfBlockRam != 0) begin : gen_bram
    (* ram_style = "block", no_rw_check *)
    logic [NumLanes-1:0][63:0] mem [32];

    // The row written at this edge: the clear's, or the value (a single register's into its
    // half; a pair's low and high words into the low and high halves).
    logic [NumLanes-1:0][63:0] wdata;
    always_comb begin
      wdata = 'x;
      if (clearing_q) begin
        wdata = {NumLanes{clr_row}};
      end else if (wr_en_i) begin
        for (int unsigned l = 0; l < NumLanes; l++) begin
          wdata[l] = w_dup ? {wval[l][31:0], wval[l][31:0]} : wval[l];
        end
      end
    end

    always_ff @(posedge clk_i) begin
      if (we) begin
        for (int unsigned l = 0; l < NumLanes; l++) begin
          if (wen[l][0]) mem[w_row][l][31:0]  <= wdata[l][31:0];
          if (wen[l][1]) mem[w_row][l][63:32] <= wdata[l][63:32];
        end
      end
    end

    logic [2:0][NumLanes-1:0][63:0] q;  // the rows read, per port

    // The specifiers read at this edge: the RAMs' read address.
    logic [2:0]      rd_en;
    logic [2:0][5:0] rd_spec;
    assign rd_en   = rd_sel_d_i ? rd_en_d_i : rd_en_r_i;
    assign rd_spec = rd_sel_d_i ? rd_spec_d_i : rd_spec_r_i;

    for (genvar p = 0; p < 3; p++) begin : gen_read
      always_ff @(posedge clk_i) begin
        if (rd_en[p]) begin
          q[p] <= mem[{rd_spec[p][5], rd_spec[p][4:1]}];
        end
      end
    end
    assign ram = q;
  end else begin : gen_lutram
    // Each lane keeps its own 16 vector pair rows; the 16 scalar pair rows, equal in every lane,
    // are kept once per group of ScalarGroup lanes (written from the group's first lane, whose
    // value every lane of the group shares: ScalarUniform_A) and read by the group's lanes. ECP5
    // LUT RAM is 16 rows deep, so a lane's 32 rows were two RAMs and a multiplexer per port and
    // bit; now they are one RAM, and the multiplexer selects the group's scalar RAM instead: half
    // the LUT RAM, with no scalar broadcast across the die (docs/timing.md "Mapping choices").
    localparam int unsigned ScalarGroup = (NumLanes < 4) ? NumLanes : 4;

    // The RAMs' write data: the clear's row, or the value (the bypass gives the clear as zero).
    logic [NumLanes-1:0][63:0] wdat;
    always_comb begin
      wdat = 'x;
      if (w_en_q != '0) begin
        for (int unsigned l = 0; l < NumLanes; l++) begin
          wdat[l] = w_clr_q ? w_clr_row_q : wv[l];
        end
      end
    end

    // Each lane's copy of the registered write's row (kept, like the read rows: no row net
    // from one register to every lane's RAM).
    logic [NumLanes-1:0][4:0] w_row_q;
    (* keep *)
    always_ff @(posedge clk_i) begin
      for (int unsigned l = 0; l < NumLanes; l++) begin
        if (we) w_row_q[l] <= w_row;
      end
    end

    for (genvar g = 0; g < NumLanes / ScalarGroup; g++) begin : gen_group
      logic [2:0][3:0]  saddr_d_q, saddr_r_q;  // this group's copy of the scalar rows read at
      logic             ssel_q;                // the last edge (D's, R's) and the choice
      logic [2:0][3:0]  saddr;
      logic [2:0][63:0] rs;                    // the scalar rows read
      localparam int unsigned L0 = g * ScalarGroup;

      // The group's scalar rows, written from its first lane.
      sgu_lutram #(
        .NumRead(3)
      ) u_mem_s (
        .clk_i,
        .we_i (w_row_q[L0][4]),
        .be_i (w_en_q[L0]),
        .wad_i(w_row_q[L0][3:0]),
        .di_i (wdat[L0]),
        .rad_i(saddr),
        .do_o (rs)
      );

      (* keep *)
      always_ff @(posedge clk_i) begin
        for (int unsigned p = 0; p < 3; p++) begin
          saddr_d_q[p] <= rd_spec_d_i[p][4:1];
          saddr_r_q[p] <= rd_spec_r_i[p][4:1];
        end
        ssel_q <= rd_sel_d_i;
      end
      assign saddr = ssel_q ? saddr_d_q : saddr_r_q;

      for (genvar k = 0; k < ScalarGroup; k++) begin : gen_lane
        localparam int unsigned L = L0 + k;
        logic [2:0][3:0]  addr_d_q, addr_r_q;  // this lane's copy of the vector rows read at
        logic [2:0]       scl_d_q, scl_r_q;    // the last edge, whether they are scalar rows
        logic             sel_q;               // (D's, R's), and the choice
        logic [2:0][3:0]  addr;
        logic [2:0]       scl;
        logic [2:0][63:0] rv;                  // the vector rows read

        // The lane's vector rows.
        sgu_lutram #(
          .NumRead(3)
        ) u_mem_v (
          .clk_i,
          .we_i (!w_row_q[L][4]),
          .be_i (w_en_q[L]),
          .wad_i(w_row_q[L][3:0]),
          .di_i (wdat[L]),
          .rad_i(addr),
          .do_o (rv)
        );

        (* keep *)
        always_ff @(posedge clk_i) begin
          for (int unsigned p = 0; p < 3; p++) begin
            addr_d_q[p] <= rd_spec_d_i[p][4:1];
            addr_r_q[p] <= rd_spec_r_i[p][4:1];
            scl_d_q[p]  <= rd_spec_d_i[p][5];
            scl_r_q[p]  <= rd_spec_r_i[p][5];
          end
          sel_q <= rd_sel_d_i;
        end

        for (genvar p = 0; p < 3; p++) begin : gen_read
          assign addr[p]   = sel_q ? addr_d_q[p] : addr_r_q[p];
          assign scl[p]    = sel_q ? scl_d_q[p] : scl_r_q[p];
          assign ram[p][L] = scl[p] ? rs[p] : rv[p];
        end
      end
    end
  end

  // ------------------------------------------------------------------------------ read ports
  // Per port: it read an operand at the last edge (en_q), the operand is the row's high half
  // (odd_q); both registered for D's and R's specifiers and selected by the registered choice,
  // like the hits (above).
  logic [2:0] odd_q, en_d_q, en_r_q, odd_d_q, odd_r_q;
  logic       sel_d_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      en_d_q  <= '0;
      en_r_q  <= '0;
      odd_d_q <= '0;
      odd_r_q <= '0;
      sel_d_q <= 1'b0;
    end else begin
      en_d_q  <= rd_en_d_i;
      en_r_q  <= rd_en_r_i;
      odd_d_q <= {rd_spec_d_i[2][0], rd_spec_d_i[1][0], rd_spec_d_i[0][0]};
      odd_r_q <= {rd_spec_r_i[2][0], rd_spec_r_i[1][0], rd_spec_r_i[0][0]};
      sel_d_q <= rd_sel_d_i;
    end
  end
  assign en_q  = sel_d_q ? en_d_q : en_r_q;
  assign odd_q = sel_d_q ? odd_d_q : odd_r_q;
  assign hit_q = sel_d_q ? hit_d_q : hit_r_q;

  // Operand registers: the row read, the register's half selected; the low words of ports 0
  // and 1 take the core's forwards instead when selected. One array per word written in one
  // block, not a register per port and lane assigned to the output: Verilator built the output
  // from those as a chain of wide concatenations, each zero-filling the whole vector (at SIMD32
  // about a fifth of the model's time, docs/performance.md).
  logic [2:0][NumLanes-1:0][31:0] lo_q, hi_q;
  always_ff @(posedge clk_i) begin
    for (int unsigned p = 0; p < 3; p++) begin
      if (ld_i && en_q[p]) begin
        for (int unsigned l = 0; l < NumLanes; l++) begin
          if (p < 2 && fl_sel_i[p % 2][l]) begin
            lo_q[p][l] <= fl_i[l];
          end else begin
            lo_q[p][l] <= odd_q[p] ? rows[p][l][63:32] : rows[p][l][31:0];
          end
          hi_q[p][l] <= rows[p][l][63:32];
        end
      end
    end
  end
  assign rd_lo_o = lo_q;
  assign rd_hi_o = hi_q;

  // Port 0's "the register is nonzero", registered beside its operand register: sel's
  // condition. Computed from the row or the distance-2 forward (fl_nz_i: the core's detect on
  // its L2 data register), both of which start from registers: so the zero detect is on no
  // path of the execute stage, and the lanes read a flip-flop instead of building a detect on the operand
  // register (on the SIMD8 board the lane's detect was one tree with the core's conditions of
  // split, mbrk, vote and bz / bnz on the same register, which the placer put beside the core's
  // control: the routed critical path went there and back, docs/fpga.md "Routed timing, step by
  // step"). The core holds a reader of the flag in R while the instruction in X writes its rs1,
  // or while the one in L2 does with a value L2 makes (a shuffle, a shift, a vote: sgu_core
  // xf_stall), so a flag loaded with fl_nz_i beside such a value is never read (assertion
  // NzLate_A in sgu_core).
  // The flag is registered as four partial flags, one per byte of the word, and ORed after the
  // registers (in X, beside sel's operand select, which waits for the adder's compare on min
  // and max anyway): the 32-bit detect after the row's read and half select was the second
  // latest group of the routed SIMD16 board at bb636fb (18.6 ns).

  // Port 1's "the register is NumLanes or more" (bits 31..LaneBits not all zero), the same way:
  // the one-pass down2 / up2 shuffle's thermometer code of its scalar delta (sgu_xbar big_i)
  // starts from these flags instead of a 32 - LaneBits input OR on the operand register (the
  // worst path of the best SIMD16 placement at c25e398: the operand register through that OR,
  // the thermometer and the crossbar's A / B select into xb_q, 9 LUT4, 77 of its 271 end bits
  // above 13.33 ns; docs/timing.md, twenty-first session). Loaded only for such a reader
  // (big_en_i); the core holds it in R behind a short writer of rs2 in X and behind one in L2
  // whose value L2 makes, as for nz_o (BigFwd_A, BigLate_A). Partial flags: bits 7..LaneBits
  // and bytes 1..3.
  //
  // Both flags are built by one block: flag f of lane l is on port f, counts the row's bits from
  // Lo (0 for nz_o, LaneBits for big_o) and loads when that port reads (and, for big_o, only with
  // big_en_i), from the forward's own detect (fl_nz_i, fl_big_i) or from the row's half.
  localparam int unsigned LaneBits = $clog2(NumLanes);
  logic [1:0][NumLanes-1:0] flag_fl, flag_o;
  logic [1:0]               flag_en;
  assign flag_fl = {fl_big_i, fl_nz_i};
  assign flag_en = {big_en_i, 1'b1};
  assign nz_o    = flag_o[0];
  assign big_o   = flag_o[1];
  for (genvar f = 0; f < 2; f++) begin : gen_flag
    localparam int unsigned Lo = f == 0 ? 0 : LaneBits;
    for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
      logic [3:0] part_q;  // bits 7..Lo and bytes 1..3 of the word, each nonzero
      always_ff @(posedge clk_i) begin
        if (ld_i && en_q[f] && flag_en[f]) begin
          if (fl_sel_i[f][l]) begin
            part_q <= {3'b000, flag_fl[f][l]};
          end else begin
            // Of the row's half the operand register takes.
            part_q[0] <= (odd_q[f] ? rows[f][l][39:32+Lo] : rows[f][l][7:Lo]) != '0;
            for (int unsigned k = 1; k < 4; k++) begin
              part_q[k] <= (odd_q[f] ? rows[f][l][32 + 8*k +: 8] : rows[f][l][8*k +: 8]) != '0;
            end
          end
        end
      end
      assign flag_o[f][l] = part_q != '0;
    end
  end

  // Port 1's thermometer bits, the same way (sgu_xbar selb_o): the one-pass down2 / up2's choice
  // of B at source lane l compares the delta's low LaneBits bits with the constant l, one LUT
  // on the row's half (or the forward) before the register, instead of after it in X, where
  // ABC merged the compare with the crossbar's index stage (the same sums of l and d) and the
  // placer put that logic beside the index registers, far from xb_q: the operand register ->
  // xb_q path of the SIMD16 placement at ee0de03 (8 LUT4, 32 end bits above 13.33 ns, the
  // second group; docs/timing.md, twenty-sixth session). With big_o, d >= N, they decide
  // selb_o in one LUT level.
  for (genvar l = 0; l < NumLanes; l++) begin : gen_thermo
    always_ff @(posedge clk_i) begin
      if (ld_i && en_q[1] && big_en_i) begin
        logic [LaneBits-1:0] d;
        d = fl_sel_i[1][l] ? fl_i[l][LaneBits-1:0]
                           : (odd_q[1] ? rows[1][l][32 +: LaneBits] : rows[1][l][LaneBits-1:0]);
        tdn_o[l] <= l < 32'(d);  // constant 0 in the last lane
        tup_o[l] <= l + 32'(d) >= NumLanes;
      end
    end
  end

  assign hit2_o = hit_q[2] ? w_half_q : 2'b00;

  `SGU_ASSERT(NoWriteInClear_A, clearing_q |-> !wr_en_i)
  // The bypass gives a clear's row as zero (above): a clear write with another value is never
  // the last of the clear, so the cycle after it still clears and nothing issues in it.
  `SGU_ASSERT(ClearBypass_A, w_en_q != '0 && w_clr_q && w_clr_row_q != '0 |-> clearing_q)
`ifndef SYNTHESIS
  // Every lane's value of a scalar write equals lane 0's (the high words for a pair only).
  logic scl_uniform;
  always_comb begin
    scl_uniform = 1'b1;
    for (int unsigned l = 1; l < NumLanes; l++) begin
      scl_uniform &= wval[l][31:0] == wval[0][31:0] &&
                     (!wr_pair_i || wval[l][63:32] == wval[0][63:32]);
    end
  end
  `SGU_ASSERT(ScalarUniform_A, wr_en_i && w_scalar |-> scl_uniform)
`endif

endmodule
