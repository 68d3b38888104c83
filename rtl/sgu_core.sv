// SPDX-License-Identifier: Apache-2.0
// SGU core: the in-order pipeline that issues, executes and retires the instructions of one sub-group.
//
// Stages (docs/architecture.md "Pipeline"):
//   F   fetch: pc_f indexes the instruction cache (a hit delivers the word in the same cycle); a
//       predecoder predicts the next pc (br: taken; bz/bnz/bexz/bexnz: taken when backward) and
//       stops fetching after halt/trap and after a fetch fault. The word goes to D.
//   D   decode: sgu_decode and the lane operand controls; when the instruction moves on, the
//       register file samples its three source rows (synchronous RAM read).
//   R   register read: the RAM rows arrive (bypassed for the write at the read edge); hazard
//       checks. While the instruction waits, the file re-reads its rows at every edge; when it
//       moves on, the file's operand registers load them with the write of that edge forwarded.
//   X   execute, the commit point: every trap, branch, mask-stack and exec-mask decision is made
//       here, in program order, on architectural state. Short operations (integer ALU, vote,
//       csrr, lane) register their results at the end of X (`first` after a third cycle in X:
//       sgu_vote registers the lowest active lane in the first and its value in the second;
//       a shuffle's and a shift's results are completed in L2); ld/st hold X while the LSU works (its first two
//       cycles register the addresses, their checks and the first faulting / first active lane
//       in the LSU; a store starts only when every older instruction has retired, so its AXI
//       writes follow the records before it; a load when no older long result is still to be
//       written); long
//       operations (multiply, FP32, 64-bit shifts and the 64-bit adds, logic, compares, min
//       and max) enter the sgu_mfu pipelines. A 64-bit
//       multiply or shift holds X for three cycles (steps 0, 1, 2).
//   L2..L7  short results are written at the end of L2 (from l2_data_q), long results at the
//       end of L7 (the long pipe: sgu_mfu registers its inputs, then S1..S6). Every instruction's retire record travels X -> L2 -> ...
//       -> L7 and is registered onto the retire port when it leaves L7, so records are in
//       program order although short results were written four cycles earlier.
// Forwarding: the register file's bypass (a write at a read edge) and the forward of a short
// result's low word to the instruction two behind it, into its operand registers as it enters X
// (from the lane's own part of l2_val), so that X starts from flip-flops. Nothing forwards out
// of X: the execute stage ends in registers (l2_data_q), not in the operand registers.
// Hazards, all resolved in R by stalling: a source that a long operation in X, L2 .. L7 will
// write (RAW); a source that the short result in X overlaps (xf_stall), or the one in L2 other
// than as a forwarded low word, or a shuffle's, short shift's, vote's or uniform result in L2
// (l2_far);
// a short writer whose destination a long operation in X, L2, L3 or L4 will still write (WAW);
// a short writer when a long writer is in L5 (both would write in the same cycle).
// A redirect (mispredicted branch), a trap or halt in X act one edge later (kill_q: the
// instruction that entered X behind it is dropped, D and R flushed, F redirected); the watchdog
// flushes F, D and R at once. A trap
// leaves no architectural effect (nothing written, pc/exec/stack unchanged) and its record
// follows the records of every older instruction. done_o / trap_o pulse when the halt / trap
// record leaves L7; busy_o stays high until then.
//
// Order of checks in X (docs/isa.md): watchdog, fetch fault (pc alignment and window), fetch
// bus error, illegal instruction, then the instruction's own traps (mask stack, memory checks).
// Start (from the CSR block) clears the register file (32 cycles, overlapping the first fetch),
// the mask stack and the counters, sets pc = PC_START and exec = the launch mask.

`include "sgu_assert.svh"

module sgu_core #(
  parameter int unsigned NumLanes    = 16,  // SIMD width: 8, 16 or 32
  parameter int unsigned LanesPerMfu = 1,   // lanes sharing one sgu_mfu: 1, 2, 4 or 8
  parameter int unsigned RfBlockRam  = 1    // register file rows: 1 block RAM, 0 distributed RAM
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // Control and status (sgu_csr).
  input  logic                          start_i,
  input  logic [31:0]                   pc_start_i,
  input  logic [31:0]                   lanes_i,
  input  logic [31:0]                   mem_base_i,
  input  logic [31:0]                   mem_limit_i,
  input  logic [31:0]                   watchdog_i,
  input  logic [7:0][31:0]              args_i,
  output logic                          busy_o,
  output logic                          done_o,        // pulse: halt retired
  output logic                          trap_o,        // pulse: trap retired
  output logic [7:0]                    cause_o,
  output logic [31:0]                   trap_pc_o,
  output logic [31:0]                   trap_val_o,
  output logic [63:0]                   cycles_o,
  output logic [63:0]                   instret_o,
  // Instruction fetch (sgu_icache).
  output logic                          fetch_flush_o,
  output logic                          fetch_req_o,
  output logic [31:0]                   fetch_pc_o,
  input  logic                          fetch_valid_i,
  input  logic [63:0]                   fetch_insn_i,
  input  sgu_pkg::predec_t              fetch_pre_i,      // fetch_insn_i predecoded
  input  logic                          fetch_err_i,
  // Load/store unit (sgu_lsu).
  output logic                          lsu_chk_o,
  output logic                          lsu_ld_o,
  output logic                          lsu_req_o,
  output logic                          lsu_store_o,
  output logic [1:0]                    lsu_size_log2_o,
  output logic [3:0]                    lsu_dt_o,
  output logic                          lsu_once_o,
  output logic [NumLanes-1:0]           lsu_lanes_o,
  output logic [NumLanes-1:0][31:0]     lsu_addr_o,
  output logic [NumLanes-1:0][63:0]     lsu_wdata_o,
  input  logic                          lsu_fault_i,
  input  logic                          lsu_fault_misaligned_i,
  input  logic [31:0]                   lsu_fault_addr_i,
  input  logic                          lsu_checked_i,   // the fault inputs are this access's
  input  logic                          lsu_done_i,
  input  logic                          lsu_bus_err_i,
  input  logic [31:0]                   lsu_err_addr_i,
  input  logic [NumLanes-1:0][63:0]     lsu_rdata_i,
  // Retire port: one record per retired or trapping instruction (valid for one cycle).
  output logic                          rvfi_valid_o,
  output logic [63:0]                   rvfi_order_o,     // 0-based index in the run
  output logic [31:0]                   rvfi_pc_o,
  output logic [63:0]                   rvfi_insn_o,      // 0 for fetch traps and watchdog
  output logic                          rvfi_trap_o,
  output logic [7:0]                    rvfi_cause_o,
  output logic [31:0]                   rvfi_tval_o,
  output logic                          rvfi_halt_o,
  output logic                          rvfi_rd_we_o,     // a register was written
  output logic [5:0]                    rvfi_rd_o,        // register (even one of a pair)
  output logic                          rvfi_rd_pair_o,   // 64-bit pair written
  output logic [NumLanes-1:0]           rvfi_lane_mask_o, // lanes written (bit 0 for scalar)
  output logic [NumLanes-1:0][31:0]     rvfi_data_lo_o,   // written values, 0 in other lanes
  output logic [NumLanes-1:0][31:0]     rvfi_data_hi_o,   // high words of a pair, else 0
  output logic [NumLanes-1:0]           rvfi_exec_o       // exec after the instruction
);
  import sgu_isa_pkg::*;
  import sgu_pkg::*;
  import sgu_fpu_pkg::*;

  localparam int unsigned NumMfu      = NumLanes / LanesPerMfu;
  localparam int unsigned MfuPassBits = (LanesPerMfu > 1) ? $clog2(LanesPerMfu) : 1;
  localparam int unsigned LaneBits    = $clog2(NumLanes);

  // Source of the value a short operation writes.
  typedef enum logic [2:0] {
    WbLane,     // per-lane ALU result
    WbXbar,     // crossbar
    WbUniform,  // one value for every lane (csrr, first)
    WbLaneIdx,  // lane index
    WbLoad,     // LSU load data
    WbShift,    // the lane's shifter (a shift of an 8- to 32-bit type; its result in L2)
    WbVote,     // a vote's uniform value (sgu_vote's reduction in L2)
    WbLaneLate  // the lane's compare, min or max of an 8- to 32-bit type (made in L2 from the
                // lane's comparison: l2_lo)
  } wb_sel_e;

  // Decoded instruction, D -> R -> X.
  typedef struct packed {
    logic        illegal;
    logic [7:0]  opcode;
    logic [3:0]  dt;
    logic [3:0]  mod;
    logic [5:0]  rd;
    logic [5:0]  rs1;
    logic [5:0]  rs2;
    logic [5:0]  rs3;
    logic [2:0]  rs_used;   // source ports read (rs1, rs2, rs3)
    logic [31:0] imm;
    logic        writes;    // writes a register other than s0
    logic        rd_pair;
    logic        rs1_pair;
    logic        rs2_pair;
    logic        rs3_pair;
    logic        is_long;   // runs in the long pipe (sgu_mfu)
    logic        wide;      // 64-bit multiply or shift: three steps
    logic        fp;        // with is_long: an FP32 operation or a cvt (the MFU's FP side;
                            // its integer side otherwise)
    logic        nz;        // reads rs1's nonzero flag (sgu_regfile nz_o): sel, whose
                            // condition is a lane's, and split and mbrk, whose conditions go
                            // into the run state (a compare's result, the usual condition,
                            // reaches them through the distance-2 forward as before; a value
                            // forwarded at distance 1 makes them wait a cycle). vote, bz and
                            // bnz keep their own detects on the operand register (the compiler
                            // writes a loop branch's condition right before it).
    logic        big;       // reads rs2's "NumLanes or more" flag (sgu_regfile big_o): a
                            // one-pass down2 / up2 (a scalar delta), whose crossbar
                            // thermometer starts from it
    alu_ctl_t    alu;       // lane controls (each lane registers its own copy)
    wb_sel_e     wb;        // where a short result comes from
  } dec_t;

  // A reader as the hazard check sees it (the fields of dec_t it reads).
  typedef struct packed {
    logic [2:0]      used;      // rs1, rs2, rs3 read
    logic [2:0][5:0] rs;
    logic [2:0]      rs_pair;
    logic            short_wr;  // writes a short result
    logic [5:0]      rd;
    logic            rd_pair;
    logic            nz;        // reads rs1's nonzero flag
    logic            big;       // reads rs2's big flag
  } hz_rdr_t;
  /* verilator lint_off UNUSEDSIGNAL */  // a reader's fields only
  function automatic hz_rdr_t hz_reader(dec_t d);
    hz_rdr_t r;
    r.used     = d.rs_used;
    r.rs       = {d.rs3, d.rs2, d.rs1};
    r.rs_pair  = {d.rs3_pair, d.rs2_pair, d.rs1_pair};
    r.short_wr = d.writes && !d.is_long;
    r.rd       = d.rd;
    r.rd_pair  = d.rd_pair;
    r.nz       = d.nz;
    r.big      = d.big;
    return r;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // Retire record, X -> L2 -> ... -> L7 (the written data of short operations travels
  // beside it).
  typedef struct packed {
    logic                valid;    // a record (not a bubble, not an early multiply step)
    logic [31:0]         pc;
    logic [63:0]         insn;
    logic                trap;
    logic [7:0]          cause;
    logic [31:0]         tval;
    logic                halt;
    logic                we;       // a register is written (in at least one lane)
    logic                long_wb;  // written by the long pipe at the end of L7
    logic [5:0]          rd;
    logic                pair;
    logic [NumLanes-1:0] lanes;    // lanes written
    logic [NumLanes-1:0] exec;     // exec after the instruction
  } rec_t;


  // ------------------------------------------------------------------------------ run state
  logic                run_q;        // a kernel is running (busy)
  logic                live_q;       // fetch and issue go on (cleared when the end is decided)
  logic [NumLanes-1:0] exec_q, exec_d;
  logic                exec_none_q;  // exec_q == '0, registered with it (for x_done, bexz /
                                     // bexnz, ld / st and the record's write enable)
  logic [NumLanes-1:0] launch_mask_q;
  logic [5:0]          launch_size_q;
  logic [63:0]         cycles_q, instret_q;
  logic                clearing;     // register file clear after start

  logic                start;
  assign start = start_i && !run_q;

  // ------------------------------------------------------------------------------ F
  logic [31:0] f_pc_q;
  logic        f_stop_q;
  logic        f_fault;
  logic [23:0] pd_imm;
  logic [31:0] pd_target;
  logic        pd_taken, pd_stop;
  logic        f_fire, d_to_r;  // d_to_r: D's instruction moves to R (decided in R, below)
  logic        redirect, x_end, wd_fire, flush_front;
  logic [31:0] redirect_pc;
  // The decisions of X act one edge later (kill_q): X's decision logic (traps, branch
  // conditions, the mask stack) then ends in these registers instead of running on into the
  // enables of F, D, R and X. At the edge of the decision F, D and R go on as if nothing
  // happened; in the next cycle kill_q drops the instruction that entered X (x_valid), clears D
  // and R, and, for a mispredicted branch (redir_q), sets F's pc to redirect_pc_q.
  logic        kill_q, redir_q;
  logic [31:0] redirect_pc_q;

  // The fetch check of docs/isa.md: pc is a multiple of 8 and [pc, pc + 8) lies inside
  // [MEM_BASE, MEM_LIMIT). For a pc that is a multiple of 8, pc + 8 > MEM_LIMIT exactly when
  // pc >= MEM_LIMIT rounded down to a multiple of 8 (pc > MEM_LIMIT - 8, and the multiples of 8
  // above MEM_LIMIT - 8 start at that rounding), so no adder stands before the comparison.
  assign f_fault  = (f_pc_q[2:0] != '0) || (f_pc_q < mem_base_i) ||
                    (f_pc_q[31:3] >= mem_limit_i[31:3]);

  // Prediction from the word's predecoded fields, which the instruction cache keeps beside it
  // (sgu_predecode: br, or a conditional branch with a backward target, is followed; F stops
  // after halt and trap). The branch target is pc + imm * 8, as in X.
  assign pd_imm    = fetch_insn_i[63:40];
  assign pd_target = f_pc_q + {{5{pd_imm[23]}}, pd_imm, 3'd0};
  assign pd_taken  = !fetch_err_i && fetch_pre_i.taken;
  assign pd_stop   = !fetch_err_i && fetch_pre_i.stop;

  // F fetches whenever D's two-entry queue (dq, below) has a free slot, not when D moves on: the
  // decision that D's instruction moves to R (which waits for R, X and the hazard check) ends
  // in the queue's read pointer and valid bits and does not run on into F's pc, the
  // instruction cache's request and its state, nor into the enables of the queue's words
  // (docs/timing.md "Timing of the pipelined core").
  logic f_go;
  logic dq_full;
  assign f_go          = run_q && live_q && !f_stop_q && !dq_full && !wd_fire && !kill_q;
  assign fetch_req_o   = f_go && !f_fault;
  assign fetch_pc_o    = f_pc_q;
  assign fetch_flush_o = start;
  assign f_fire        = f_go && (f_fault || fetch_valid_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_pc_q   <= '0;
      f_stop_q <= 1'b0;
    end else if (start) begin
      f_pc_q   <= pc_start_i;
      f_stop_q <= 1'b0;
    end else if (redir_q) begin
      f_pc_q   <= redirect_pc_q;
      f_stop_q <= 1'b0;
    end else if (f_fire) begin
      if (f_fault || fetch_err_i) begin
        f_stop_q <= 1'b1;  // the fault token goes down the pipe; nothing after it is fetched
      end else begin
        f_pc_q   <= pd_taken ? pd_target : f_pc_q + 32'd8;
        f_stop_q <= pd_stop;
      end
    end
  end

  // ------------------------------------------------------------------------------ D
  // D's instruction: the head of the queue dq.
  logic        d_valid, d_pred;
  logic [31:0] d_pc;
  logic [63:0] d_insn;
  logic [7:0]  d_fault;       // CauseNone, or the fetch trap this token stands for

  // The fetched word (or fetch fault token) as it enters the queue. A fault token carries the
  // cache's output as it is, as a bus error's token carries the beat's data: every use of the
  // word after D is gated by the fault (r_chk, x_fault_q; the retire record reports 0), so the
  // word is not cleared here, which put the fetch check's two 32-bit comparisons of f_pc_q in
  // front of the predecoder into D's queue (the SIMD8 board's routed critical path at c25e398:
  // f_pc_q -> carry chains -> 6 LUT4 -> dq_q, 14.50 ns, docs/timing.md).
  logic        f_pred;
  logic [63:0] f_insn;
  logic [7:0]  f_cause;
  assign f_pred  = !f_fault && pd_taken;
  assign f_insn  = fetch_insn_i;
  assign f_cause = f_fault ? CauseFetchFault : (fetch_err_i ? CauseFetchBusError : CauseNone);

  // The fields the hazard check reads of D's instruction (hz_rdr_t: sources, their widths, the
  // destination, the class), registered with the word as it enters D (d_hz): the check for the
  // next cycle's R (hazard_d, "hazards, a cycle early") then starts from registers rather than
  // from D's decoder (DHz_A compares the two). The specifiers are the word's fields; the rest
  // was decoded when the word entered the instruction cache (fetch_pre_i, sgu_predecode), so
  // that no decoder stands between the cache's read and the queue.
  hz_rdr_t d_in_hz, d_hz;
  /* verilator lint_off UNUSEDSIGNAL */  // the specifiers only
  insn_t   f_word;
  /* verilator lint_on UNUSEDSIGNAL */
  assign f_word           = insn_t'(f_insn);
  assign d_in_hz.used     = fetch_pre_i.used;
  assign d_in_hz.rs       = {f_word.rs3, f_word.rs2, f_word.rs1};
  assign d_in_hz.rs_pair  = fetch_pre_i.rs_pair;
  assign d_in_hz.short_wr = fetch_pre_i.short_wr;
  assign d_in_hz.rd       = f_word.rd;
  assign d_in_hz.rd_pair  = fetch_pre_i.rd_pair;
  assign d_in_hz.nz       = fetch_pre_i.nz;
  assign d_in_hz.big      = fetch_pre_i.big;

  // dq: two slots, written in turn by F (dq_wp_q) and read in turn by D (dq_rp_q), so that
  // a slot's word loads while the slot is free (an enable from its own valid bit, not from the
  // decision that D moves on) and D's instruction is the slot dq_rp_q points to. A fetched
  // word enters D's slot in the cycle it is fetched, as a single D register would take it, so
  // the timing of the pipe is unchanged; F stops while both slots are full.
  typedef struct packed {
    logic        pred;
    logic [31:0] pc;
    logic [63:0] insn;
    logic [7:0]  fault;
    hz_rdr_t     hz;
  } dq_t;
  dq_t  [1:0] dq_q;
  logic [1:0] dq_valid_q;
  logic       dq_wp_q, dq_rp_q;
  assign dq_full = dq_valid_q[dq_wp_q];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dq_valid_q <= '0;
      dq_wp_q    <= 1'b0;
      dq_rp_q    <= 1'b0;
    end else if (start || wd_fire || kill_q) begin
      dq_valid_q <= '0;
      dq_wp_q    <= 1'b0;
      dq_rp_q    <= 1'b0;
    end else begin
      if (f_fire) begin
        dq_valid_q[dq_wp_q] <= 1'b1;
        dq_wp_q             <= !dq_wp_q;
      end
      if (d_to_r) begin
        dq_valid_q[dq_rp_q] <= 1'b0;
        dq_rp_q             <= !dq_rp_q;
      end
    end
  end
  // Each free slot loads F's word at every edge (read only once valid: the slot F writes at
  // the edge it fetches).
  for (genvar i = 0; i < 2; i++) begin : gen_dq
    always_ff @(posedge clk_i) begin
      if (!dq_valid_q[i]) dq_q[i] <= '{pred: f_pred, pc: f_pc_q, insn: f_insn,
                                       fault: f_cause, hz: d_in_hz};
    end
  end
  assign d_valid = dq_valid_q[dq_rp_q];
  assign d_pred  = dq_q[dq_rp_q].pred;
  assign d_pc    = dq_q[dq_rp_q].pc;
  assign d_insn  = dq_q[dq_rp_q].insn;
  assign d_fault = dq_q[dq_rp_q].fault;
  assign d_hz    = dq_q[dq_rp_q].hz;

  dec_t       d_dec;
  logic [8:0] d_rules;      // the legality rules D's word breaks (sgu_decode rules_o)
  logic [7:0] d_opcode;
  logic [3:0] d_dt, d_mod;
  logic [5:0] d_rd, d_rs2;
  logic       d_rd_used;

  sgu_decode #(
    .NumLanes(NumLanes)
  ) u_decode (
    .insn_i    (d_insn),
    .illegal_o (d_dec.illegal),
    .rules_o   (d_rules),
    .opcode_o  (d_opcode),
    .dt_o      (d_dt),
    .mod_o     (d_mod),
    .rd_o      (d_rd),
    .rs1_o     (d_dec.rs1),
    .rs2_o     (d_rs2),
    .rs3_o     (d_dec.rs3),
    .imm_o     (d_dec.imm),
    .rd_we_o   (d_rd_used),
    .rd_pair_o (d_dec.rd_pair),
    .rs1_pair_o(d_dec.rs1_pair),
    .rs2_pair_o(d_dec.rs2_pair),
    .rs3_pair_o(d_dec.rs3_pair),
    .rs_used_o (d_dec.rs_used)
  );
  assign d_dec.writes  = d_rd_used && (d_rd != 6'd32);
  assign d_dec.rd      = d_rd;
  assign d_dec.rs2     = d_rs2;
  assign d_dec.opcode  = d_opcode;
  assign d_dec.dt      = d_dt;
  assign d_dec.mod     = d_mod;
  assign d_dec.is_long = op_is_long(d_opcode, d_dt, d_mod);
  assign d_dec.wide    = op_is_wide(d_opcode, d_dt);
  assign d_dec.fp      = d_opcode inside {OpFadd, OpFsub, OpFmul, OpFfma, OpFmin, OpFmax,
                                          OpFcmp, OpCvt};
  assign d_dec.nz      = op_reads_nz(d_opcode);
  assign d_dec.big     = shfl_big(d_opcode, d_rs2[5], d_mod);
  // Lane controls and the write-back source, decoded here so that the execute stage starts
  // from registers (each lane keeps its own copy of both).
  assign d_dec.alu = alu_decode(d_opcode, d_dt, d_mod);
  always_comb begin
    unique case (d_opcode)
      OpShfl:                   d_dec.wb = WbXbar;
      OpCsrr, OpFirst:          d_dec.wb = WbUniform;
      OpVote:                   d_dec.wb = WbVote;
      OpLane:                   d_dec.wb = WbLaneIdx;
      OpLd:                     d_dec.wb = WbLoad;
      // The shifts of 64-bit types are long (the MFU): their wb is not used.
      OpShl, OpShli, OpShr, OpShri: d_dec.wb = op_is_wide_shift(d_opcode, d_dt) ? WbLane : WbShift;
      // The 64-bit ones are long: their wb is not used.
      OpCmp, OpCmpi, OpMin, OpMini, OpMax, OpMaxi: d_dec.wb = WbLaneLate;
      default:                  d_dec.wb = WbLane;
    endcase
  end

  // ------------------------------------------------------------------------------ R
  // Register read: the register file read the sources at the edge the instruction entered R
  // (and re-reads them at every edge it waits here); its operand registers load at the edge
  // it moves to X, with the write at that edge forwarded (sgu_regfile).
  logic        r_valid_q, r_pred_q;
  logic [31:0] r_pc_q;
  logic [63:0] r_insn_q;
  logic [7:0]  r_fault_q;
  dec_t        r_dec_q;
  logic        r_advance, r_free;
  // The decoder's legality: R registers the rules D's word breaks (sgu_decode rules_o) rather
  // than their OR, which was the deepest path from D into R (10 LUT levels on the SIMD8 board):
  // r_illegal combines them in R (r_dec_q.illegal is unused, 0), and X's x_dec_q.illegal loads
  // it. r_chk: no fetch fault and legal.
  logic [8:0]  r_rules_q;
  logic        r_nofault_q, r_illegal, r_chk;
  assign r_illegal = r_rules_q != '0;
  assign r_chk     = r_nofault_q && !r_illegal;

  // ------------------------------------------------------------------------------ hazards
  // Checked for the instruction in R, the next to enter X.
  // Registers [r, r+pair] and [s, s+pair'] overlap (pairs are even, the decoder traps others).
  function automatic logic overlap(logic [5:0] r, logic rp, logic [5:0] s, logic sp);
    return (r[5:1] == s[5:1]) && (r[0] == s[0] || rp || sp);
  endfunction

  // Long writers a reader in R waits for: in X, L2 .. L6, and L7 (it writes at this edge,
  // which the operand registers would not see; the reader's re-read at that edge does).
  dec_t        x_dec_q;
  logic        x_valid_q;
  logic        x_valid;     // an instruction is in X and not dropped by kill_q
  logic [7:0]  x_fault_q;
  rec_t        l2_q, l3_q, l4_q, l5_q, l6_q, l7_q;
  logic [6:0]       lw_valid;
  logic [6:0][5:0]  lw_rd;
  logic [6:0]       lw_pair;

  assign lw_valid[0] = x_valid && x_fault_q == CauseNone && !x_dec_q.illegal &&
                       x_dec_q.is_long && x_dec_q.writes;
  assign lw_rd[0]    = x_dec_q.rd;
  assign lw_pair[0]  = x_dec_q.rd_pair;
  assign lw_valid[1] = l2_q.valid && l2_q.long_wb && l2_q.we;
  assign lw_rd[1]    = l2_q.rd;
  assign lw_pair[1]  = l2_q.pair;
  assign lw_valid[2] = l3_q.valid && l3_q.long_wb && l3_q.we;
  assign lw_rd[2]    = l3_q.rd;
  assign lw_pair[2]  = l3_q.pair;
  assign lw_valid[3] = l4_q.valid && l4_q.long_wb && l4_q.we;
  assign lw_rd[3]    = l4_q.rd;
  assign lw_pair[3]  = l4_q.pair;
  assign lw_valid[4] = l5_q.valid && l5_q.long_wb && l5_q.we;
  assign lw_rd[4]    = l5_q.rd;
  assign lw_pair[4]  = l5_q.pair;
  assign lw_valid[5] = l6_q.valid && l6_q.long_wb && l6_q.we;
  assign lw_rd[5]    = l6_q.rd;
  assign lw_pair[5]  = l6_q.pair;
  assign lw_valid[6] = l7_q.valid && l7_q.long_wb && l7_q.we;
  assign lw_rd[6]    = l7_q.rd;
  assign lw_pair[6]  = l7_q.pair;

  logic [2:0][5:0] r_rs;
  logic [2:0]      r_rs_pair;
  logic            raw, waw, port, hazard_ref, r_short_writer;
  // The check that holds R's instruction: decided a cycle early (hazard_q, "hazards, a cycle
  // early" below) but for rs3's re-read (rf_hit2), and applied only to an instruction that has
  // no fetch fault and is legal (r_chk). hazard_ref below is the same check on the
  // instruction in R as it stands, the reference HazardEarly_A compares with (no logic in
  // synthesis).
  logic            hazard, hazard_q;
  logic            l2_late;  // the short writer in L2 makes its value there (shuffle, shift, vote)
  logic            l2_far;   // ... from outside the lane (a shuffle's crossbar, a vote's or a
                             // uniform value): not forwarded at all
  assign r_rs      = {r_dec_q.rs3, r_dec_q.rs2, r_dec_q.rs1};
  assign r_rs_pair = {r_dec_q.rs3_pair, r_dec_q.rs2_pair, r_dec_q.rs1_pair};
  assign r_short_writer = r_dec_q.writes && !r_dec_q.is_long;

  always_comb begin
    raw = 1'b0;
    waw = 1'b0;
    for (int unsigned k = 0; k < 7; k++) begin
      for (int unsigned s = 0; s < 3; s++) begin
        raw |= lw_valid[k] && r_dec_q.rs_used[s] &&
               overlap(lw_rd[k], lw_pair[k], r_rs[s], r_rs_pair[s]);
      end
      // A long writer in X, L2, L3 or L4 writes after a short writer leaving R now would.
      if (k < 4) begin
        waw |= lw_valid[k] && r_short_writer &&
               overlap(lw_rd[k], lw_pair[k], r_dec_q.rd, r_dec_q.rd_pair);
      end
    end
  end
  // A short writer writes at the end of L2: with a long writer in L5 now, both would be in
  // their write cycle together (short in L2, long in L7).
  assign port   = lw_valid[4] && r_short_writer;
  // Source s (register rs, read as a pair or not) takes the write of rd (a pair or not) from a
  // forward: the forwards carry the low word of rs1/rs2 only, so s must read register
  // rd itself, alone or as the low half of a pair, and not read a pair result as a pair.
  function automatic logic fwd_lo(logic [5:0] rd, logic pair, logic [5:0] rs, logic rs_pair,
                                  int unsigned s);
    return s < 2 && rs == rd && !(rs_pair && pair);
  endfunction

  // A source that the short writer in X overlaps (nothing forwards out of X: the reader right
  // behind a short writer waits one cycle in R and takes the value from L2; docs/timing.md,
  // twenty-fourth session: the forward from the lanes' ALU into the operand registers was the
  // routed SIMD16 board's critical path, 15.51 ns), or that the short writer in L2 overlaps
  // without being forwardable (gen_xf below).
  logic xf_stall;
  logic [1:0] rf_hit2_h;  // the halves of rs3's row, read at this cycle's edge, that missed
                          // that edge's write (sgu_regfile hit2_o)
  logic       rf_hit2;    // ... among them the register rs3 (or either of its pair)
  assign rf_hit2 = r_dec_q.rs3_pair ? (rf_hit2_h != 2'b00) : rf_hit2_h[r_dec_q.rs3[0]];
  always_comb begin
    xf_stall = 1'b0;
    // rs3 has no bypass in the register file: its reader waits one cycle when the register it
    // read at this cycle's edge (its half of the row, or both for a pair) was written at that
    // edge (the next read sees the write). A write of the row's other register does not count.
    xf_stall |= r_valid_q && r_dec_q.rs_used[2] && rf_hit2;
    for (int unsigned s = 0; s < 3; s++) begin
      xf_stall |= x_valid && x_dec_q.writes && !x_dec_q.is_long && r_dec_q.rs_used[s] &&
                  overlap(x_dec_q.rd, x_dec_q.rd_pair, r_rs[s], r_rs_pair[s]);
      xf_stall |= l2_q.valid && l2_q.we && !l2_q.long_wb && r_dec_q.rs_used[s] &&
                  overlap(l2_q.rd, l2_q.pair, r_rs[s], r_rs_pair[s]) &&
                  !(fwd_lo(l2_q.rd, l2_q.pair, r_rs[s], r_rs_pair[s], s) && !l2_far);
    end
    // rs1's nonzero flag is registered from the row or the distance-2 forward (sgu_regfile
    // nz_o): its reader waits behind a short writer of rs1 in X (above, as every reader does)
    // and behind one in L2 whose value L2 makes (a shuffle's from the crossbar's
    // multiplexers, a shift's, a vote's): the flag's distance-2 forward is computed from
    // l2_lo only (fl_nz: l2_data_q, or a compare's, min's or max's result made from L2's
    // registers), so that no path runs from the crossbar into the flag.
    xf_stall |= l2_q.valid && l2_q.we && !l2_q.long_wb && l2_late && r_dec_q.nz &&
                r_dec_q.rs_used[0] && overlap(l2_q.rd, l2_q.pair, r_rs[0], r_rs_pair[0]);
    // rs2's big flag likewise (a one-pass down2 / up2's delta: sgu_regfile big_o).
    xf_stall |= l2_q.valid && l2_q.we && !l2_q.long_wb && l2_late && r_dec_q.big &&
                r_dec_q.rs_used[1] && overlap(l2_q.rd, l2_q.pair, r_rs[1], r_rs_pair[1]);
  end
  // A fetch fault token or an illegal word traps in X: no operands, no hazard.
  assign hazard_ref = (r_fault_q == CauseNone) && !r_illegal &&
                      (raw || waw || port || xf_stall);
  assign hazard     = r_chk && (hazard_q || (r_dec_q.rs_used[2] && rf_hit2));

  // ------------------------------------------------------------------------------ X
  logic        x_pred_q;
  logic [31:0] x_pc_q;
  logic [63:0] x_insn_q;
  logic [1:0]  x_step_q;      // 64-bit multiply or shift step
  logic [MfuPassBits-1:0] x_pass_q;  // MFU pass: lanes pass, pass + LanesPerMfu, ... enter
  logic        x_last_step, x_last_pass;
  logic        x_last_q;      // x_last_step && x_last_pass, registered a cycle early (XLast_A)
  logic        x_first_q;     // the instruction's first cycle in X
  logic        x_second_q;    // ... its second (if it stayed: `first` uses it)
  logic        x_mem_q;       // the LSU is working on this instruction
  logic        x_done;        // the instruction leaves X at this edge
  logic        x_done_case;   // ... as the instruction's own case decides (the X block below):
                              // the reference XDone_A checks x_done against (no logic in synthesis)
  // The instruction may take more than one cycle in X, and why (registered at R -> X): a long
  // operation in passes or steps, ld/st (x_multi_st_q: a store), first.
  logic        x_multi_long_q, x_multi_mem_q, x_multi_st_q, x_multi_first_q;
  logic        x_multi_shfl_q;  // a down2 / up2 with a vector delta: two cycles (sgu_xbar)
  // The LSU's checked_o for the memory instruction in X, followed here from the core's own
  // registers (the LSU registers the addresses in the instruction's first cycle, their checks in
  // the second and its lane selection in the third; CheckedMirror_A compares), so that x_done
  // does not wait for the LSU's output logic.
  logic        x_chk1_q, x_chk2_q, x_checked_q;
  logic        x_accept;

  logic        x_shfl;        // a shuffle is in X
  assign x_shfl      = x_valid && x_dec_q.opcode == OpShfl;
  assign x_accept    = !x_valid || x_done;
  assign x_last_step = !x_dec_q.wide || x_step_q == 2'd2;
  assign x_last_pass = x_pass_q == MfuPassBits'(LanesPerMfu - 1);
  assign r_advance = r_valid_q && x_accept && !hazard && !clearing && live_q && !wd_fire &&
                     !kill_q;
  assign r_free    = !r_valid_q || r_advance;
  // The operand registers (sgu_regfile), the lanes' controls and write-back selects load at
  // every edge unless the instruction in X stays and reads them again in the next cycle: a long
  // operation before its last step of its last pass, `first` in its first cycle (x_hold). Every
  // other instruction reads its operands in its first cycle only: a single-cycle one leaves;
  // ld/st hand their addresses and store data to the LSU's registers (lsu_chk_o); `first` hands
  // its lowest lane's value to sgu_vote's register in its second cycle. Their write-back select
  // does not come from the reloaded wb_q (wb_eff below).
  // Loads at other edges take the values of the instruction waiting in R, or of none: unused,
  // and reloaded at the edge R hands over (which always loads: XLd_A). So the enable of
  // 3 x N x 64 flip-flops comes from a few registers, not from x_done (the wait for the LSU,
  // older records and long writers) and x_accept (docs/timing.md "Timing of the pipelined core").
  logic x_hold, x_ld;
  assign x_hold    = x_valid_q && (x_multi_long_q ? !x_last_q
                                                  : (x_multi_first_q && x_first_q));
  assign x_ld      = !x_hold;
  assign d_to_r    = d_valid && r_free && live_q && !wd_fire && !kill_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_valid_q <= 1'b0;
      r_pred_q  <= 1'b0;
      r_pc_q    <= '0;
      r_insn_q  <= '0;
      r_fault_q <= CauseNone;
      r_dec_q   <= '0;
      r_rules_q <= '0;
      r_nofault_q <= 1'b0;
    end else if (start || wd_fire || kill_q) begin
      r_valid_q <= 1'b0;
    end else if (d_to_r) begin
      r_valid_q <= 1'b1;
      r_pred_q  <= d_pred;
      r_pc_q    <= d_pc;
      r_insn_q  <= d_insn;
      r_fault_q <= d_fault;
      r_dec_q   <= d_dec;
      r_dec_q.illegal <= 1'b0;  // r_illegal
      r_rules_q <= d_rules;
      r_nofault_q <= d_fault == CauseNone;
    end else if (r_advance) begin
      r_valid_q <= 1'b0;
    end
  end

  // The register file reads, at every edge, the sources of the instruction in R in the next
  // cycle: the one entering from D, or the one waiting there.
  // The choice between the two (d_to_r) is made in the register file after its registers, so
  // that the advance decision does not run into every lane's row registers.
  logic [2:0] r_rd_en;
  assign r_rd_en = r_valid_q ? r_dec_q.rs_used : 3'b000;

  // Register file.
  logic [1:0][NumLanes-1:0]       fl_sel_q;        // the forward into its operand registers
  logic [NumLanes-1:0][31:0]      fl_lo;           // ("Forwards" below)
  logic [NumLanes-1:0]            fl_nz;           // fl_lo != 0 (fl_lo is l2_lo)
  logic [2:0][NumLanes-1:0][31:0] src_lo, src_hi;  // X's operands: the operand registers
  logic [NumLanes-1:0]            rs1_nz;          // src_lo[0] != 0, registered (sgu_regfile)
  logic [NumLanes-1:0]            fl_big;          // fl_lo >= NumLanes
  logic [NumLanes-1:0]            rs2_big;         // src_lo[1] >= NumLanes, registered (sgu_regfile)
  logic [NumLanes-1:0]            rs2_tdn, rs2_tup;  // lane l < src_lo[1] mod N, l + that >= N,
                                                     // registered with rs2_big (sgu_regfile)
  logic                           wr_en;
  logic [5:0]                     wr_spec;
  logic                           wr_pair;
  logic [NumLanes-1:0]            wr_lanes;
  logic                           wr_long;         // the write is L7's long result
  logic [NumLanes-1:0][63:0]      l2_val;          // the value the short writer in L2 writes
  logic [NumLanes-1:0][63:0]      long_res;        // the long result leaving L7, per lane

  sgu_regfile #(
    .NumLanes  (NumLanes),
    .RfBlockRam(RfBlockRam)
  ) u_regfile (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .clear_i   (start),
    .clearing_o(clearing),
    .args_i    (args_i),
    .rd_sel_d_i (d_to_r),
    .rd_en_d_i  (d_dec.rs_used),
    .rd_spec_d_i({d_dec.rs3, d_dec.rs2, d_dec.rs1}),
    .rd_en_r_i  (r_rd_en),
    .rd_spec_r_i(r_rs),
    .ld_i      (x_ld),
    .fl_sel_i  (fl_sel_q),
    .fl_i      (fl_lo),
    .fl_nz_i   (fl_nz),
    .rd_lo_o   (src_lo),
    .hit2_o    (rf_hit2_h),
    .nz_o      (rs1_nz),
    .big_en_i  (r_dec_q.big),
    .fl_big_i  (fl_big),
    .big_o     (rs2_big),
    .tdn_o     (rs2_tdn),
    .tup_o     (rs2_tup),
    .rd_hi_o   (src_hi),
    .wr_en_i   (wr_en),
    .wr_spec_i (wr_spec),
    .wr_pair_i (wr_pair),
    .wr_lanes_i(wr_lanes),
    .wr_long_i (wr_long),
    .wr_s_i    (l2_val),
    .wr_l_i    (long_res)
  );

  // Forwards. A short result is written at the end of L2, one cycle after X computed it into
  // l2_data_q. The instruction two behind a short writer takes its value into its operand
  // registers (sgu_regfile) at the edge it enters X, so the execute stage starts from flip-flops
  // whatever the operand's source: the writer is in L2, writing at this edge, and fl_lo is the
  // lane's l2_lo (fl_sel_q: decided a cycle early, per lane; xf3_lo_d is the decision of the
  // cycle). Nothing forwards out of X: the instruction right behind a short
  // writer that reads its result waits one cycle in R (xf_stall), so that the execute stage's
  // paths end in l2_data_q and never run on through the operand registers' multiplexers (the
  // lanes' ALU into the operand registers was the routed SIMD16 board's critical path: docs/
  // timing.md, twenty-fourth session).
  // Only the low word of the rs1 and rs2 operands forwards, and only when the written
  // register is the operand's register r (a single register, or the low half of a pair,
  // written alone or as a pair); every other overlap (a 64-bit result read as a pair, a pair's
  // high half read alone, an odd register written and its pair read, any rs3 operand) waits in R
  // (hazard xf_stall) until the write is in the RAM or in the file's bypass. A shuffle's, a
  // vote's and a uniform value (csrr, first) are not forwarded at all (l2_far): they come from
  // outside the lane, and their readers wait in R until the register file's bypass gives them
  // (a dependent shuffle chain runs at one shuffle per three cycles); nor is a short shift's,
  // made in L2 by the second half of the lane's shifter (gen_l2_val). A dependent chain of
  // other short operations runs at one instruction per two cycles, a 64-bit one at one per
  // three.
  // The selects are per lane and port, registers of their own ("hazards, a cycle early").
  logic [1:0]          xf3_lo_d;     // rs1, rs2: from l2_val (fl_sel_q's reference)
  logic                x_short_wr;   // the instruction leaving X writes a short result
  logic                l2_short_wr;  // the instruction in L2 writes a short result (now)
  logic [NumLanes-1:0] x_lanes;      // lanes the instruction in X writes (scalar: lane 0)
  logic [NumLanes-1:0][63:0] x_val;  // the value the short writer in X writes (from X)

  assign l2_short_wr = l2_q.valid && l2_q.we && !l2_q.long_wb;
  // X holds a short writer that writes if it leaves X now without a trap (x_short_wr, but for
  // x_done and the trap checks): the hazard check's and the distance-2 forward's view of the
  // record that will be in L2 ("hazards, a cycle early"; ShortWrEarly_A). A short writer writes
  // in at least one lane: a vector destination with no active lane is not written, nor is a
  // load's with no active lane (it makes no access), scalar or not. The instruction's own part
  // is decided in R and registered (x_shortw_q, x_scalar_wr_q), so that the forward selects,
  // which fan out to every lane's operand registers, start a few levels from flip-flops.
  logic x_scalar_wr_q, x_shortw_q;
  logic x_sw_early;
  assign x_sw_early  = x_valid && x_shortw_q && (!exec_none_q || x_scalar_wr_q);

  for (genvar p = 0; p < 2; p++) begin : gen_xf
    assign xf3_lo_d[p] = l2_short_wr && !l2_far && r_dec_q.rs_used[p] &&
                         fwd_lo(l2_q.rd, l2_q.pair, r_rs[p], r_rs_pair[p], p);
  end

  // The forward of the instruction in X, for the waveform view (docs/waveforms.md): bit 0 rs1,
  // bit 1 rs2 (its operand register took the value forwarded from the instruction two ahead).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [1:0] xf3_lo_q;
  /* verilator lint_on UNUSEDSIGNAL */
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      xf3_lo_q <= '0;
    end else if (x_accept) begin
      xf3_lo_q <= xf3_lo_d;
    end
  end

  // Operands of X: the register file's operand registers. The high word of a 32-bit operand is
  // whatever the register file's row holds (no masking multiplexer): every consumer of a 32-bit
  // operand reads its low word only (sgu_pkg::ext_dt of a 32-bit or narrower type, the MFU's FP
  // operands, sel's condition, addresses, branch conditions), and a 64-bit operand is always a
  // pair.
  logic [NumLanes-1:0][63:0] l2_data_q;
  // A compare's, min's or max's result is made in L2 from what X registered per lane: the
  // comparison (l2_lt_q, l2_eq_q), the kind (l2_cmp_q: a compare; l2_mm_q: min or max) and
  // a compare's condition (l2_tt_q), min's or max's outcome for a >= b in l2_data_q's low word
  // and for a < b in l2_alt_q. So the carry chain's last bit and the equality end in a flip-flop
  // each, instead of running on through the condition's lookup or a 32-bit pick and the
  // write-back select: those paths into l2_data_q were 10 LUT4 (eq) and the carry chain with
  // 9 LUT4 (lt), the lanes' deepest in the SIMD16 depth model (docs/timing.md, twenty-fifth
  // session). L2's low word, l2_lo, is l2_data_q's for every other instruction (both kinds
  // clear). The per-lane copies keep the kind and the condition beside each lane.
  logic [NumLanes-1:0][31:0] l2_alt_q, l2_lo;
  logic [NumLanes-1:0]       l2_lt_q, l2_eq_q, l2_cmp_q, l2_mm_q;
  logic [NumLanes-1:0][3:0]  l2_tt_q;
  for (genvar l = 0; l < NumLanes; l++) begin : gen_l2_lo
    always_comb begin
      l2_lo[l] = (l2_mm_q[l] && l2_lt_q[l]) ? l2_alt_q[l] : l2_data_q[l][31:0];
      if (l2_cmp_q[l]) l2_lo[l] = {31'd0, l2_tt_q[l][{l2_lt_q[l], l2_eq_q[l]}]};
    end
  end

  // rs1's nonzero flag from the distance-2 forward: from the register, since a reader of the
  // flag waits behind a writer whose value L2 makes (l2_late, xf_stall; NzLate_A).
  for (genvar l = 0; l < NumLanes; l++) begin : gen_fwd_nz
    assign fl_nz[l]  = l2_lo[l] != '0;
    assign fl_big[l] = l2_lo[l][31:LaneBits] != '0;  // rs2's big flag, the same way
  end

  logic [NumLanes-1:0][63:0] op_a, op_b, op_c;
  for (genvar l = 0; l < NumLanes; l++) begin : gen_operands
    assign op_a[l] = {src_hi[0][l], src_lo[0][l]};
    assign op_b[l] = {src_hi[1][l], src_lo[1][l]};
    assign op_c[l] = {src_hi[2][l], src_lo[2][l]};
  end

  // Lanes. The ALU is selected for the short lane operations (the default of the X case below).
  logic                      long_issue, x_alu;
  assign x_alu = x_valid && !x_dec_q.is_long &&
                 !(x_dec_q.opcode inside {OpNop, OpHalt, OpTrap, OpBr, OpBz, OpBnz, OpBexz,
                                          OpBexnz, OpSplit, OpElse, OpJoin, OpMpush, OpMbrk,
                                          OpLane, OpCsrr, OpVote, OpFirst, OpShfl, OpLd, OpSt});
  logic [NumLanes-1:0][63:0] mfu_ia, mfu_ib;
  logic [NumLanes-1:0][31:0] lane_res_hi;  // a short result's high word (sel, li, cvt)
  // A compare's, min's or max's result (WbLaneLate): made in L2 (l2_lo) from these.
  logic [NumLanes-1:0]       lane_lt, lane_eq;  // the comparison
  logic [NumLanes-1:0][31:0] lane_mm_lt, lane_mm_ge;  // min's or max's result if a < b, else
  logic [NumLanes-1:0]       lane_cmp;          // the lane's instruction is a compare
  logic [NumLanes-1:0][3:0]  lane_tt;           // ... with this condition
  logic [NumLanes-1:0]       x_cmp, x_mm;       // l2_cmp_q's and l2_mm_q's inputs
  logic [NumLanes-1:0]       lane_fwd_sum; // the low word is lane_fwd_add, else lane_fwd_early
  logic [NumLanes-1:0][31:0] lane_fwd_add, lane_fwd_early;
  logic [NumLanes-1:0][31:0] lane_sh_res;  // a short shift's result, in L2
  logic                      l2_shift_q;   // the short writer in L2 is a shift
  logic                      l2_uni_q;     // ... csrr or `first` (uniform_q)
  logic                      l2_vu_q;      // ... either that or a vote (sgu_vote's reduction)
  logic [63:0]               uniform_q;    // X's uniform value, registered (l2_data_q's edges)
  // The lanes' immediate as operand b: {high word's fill bit, low word}, lui's shift applied
  // here once rather than in every lane (lui's value is 32 bits: its high word is zero).
  logic [32:0]               r_lane_imm;
  assign r_lane_imm = (r_dec_q.opcode == OpLui) ? {1'b0, r_dec_q.imm[23:0], 8'd0}
                                                : {r_dec_q.imm[31], r_dec_q.imm};
  for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
    // The MFU result this lane writes in L7, the short result of the instruction in X (what
    // l2_data_q takes), and the value the register file's write port takes at this edge (L7's
    // long result or L2's short one; the file picks it after its registers), named per lane for
    // the waveform view only.
    /* verilator lint_off UNUSEDSIGNAL */
    logic [63:0] long_res_w, res_w, wr_w;
    /* verilator lint_on UNUSEDSIGNAL */
    assign long_res_w = long_res[l];
    assign res_w      = x_val[l];
    assign wr_w       = wr_long ? long_res[l] : l2_val[l];

    sgu_lane u_lane (
      .clk_i    (clk_i),
      .ld_i     (x_ld),
      .ctl_i    (r_dec_q.alu),
      .imm_i    (r_lane_imm),
      .a_i      (op_a[l]),
      .a_nz_i   (rs1_nz[l]),
      .b_i      (op_b[l]),
      .c_i      (op_c[l]),
      .alu_en_i (x_alu),
      .fwd_sum_o  (lane_fwd_sum[l]),
      .fwd_add_o  (lane_fwd_add[l]),
      .fwd_early_o(lane_fwd_early[l]),
      .res_hi_o   (lane_res_hi[l]),
      .lt_o     (lane_lt[l]),
      .eq_o     (lane_eq[l]),
      .mm_lt_o  (lane_mm_lt[l]),
      .mm_ge_o  (lane_mm_ge[l]),
      .cmp_o    (lane_cmp[l]),
      .cond_tt_o(lane_tt[l]),
      .sh_en_i  (l2_short_wr && l2_shift_q),
      .sh_res_o (lane_sh_res[l]),
      .ia_o     (mfu_ia[l]),
      .ib_o     (mfu_ib[l])
    );
  end

  // Multiply / FP units (docs/architecture.md "Long operations"): one sgu_mfu per LanesPerMfu
  // lanes. MFU m serves lanes m * LanesPerMfu + p; a long operation stays in X for
  // LanesPerMfu passes (times three steps for a 64-bit multiply or shift), pass p feeding
  // lane p of each group. The last pass's result reaches the write port with the instruction's
  // record in L7; each earlier pass's result is caught in hold_q when it leaves the MFU and
  // waits there.
  logic       mfu_fpu;
  logic [3:0] mfu_fop;
  // The MFUs' input registers load whenever X holds a long operation of their kind, from X's
  // registers alone (sgu_mfu ld_fp_i / ld_int_i: a superset of long_issue, whose trap checks
  // and watchdog stay out of the enables).
  logic       mfu_ld_fp, mfu_ld_int;
  assign mfu_ld_fp  = x_valid_q && x_dec_q.is_long && x_dec_q.fp;
  assign mfu_ld_int = x_valid_q && x_dec_q.is_long && !x_dec_q.fp;

  always_comb begin
    mfu_fpu = 1'b1;
    unique case (x_dec_q.opcode)
      OpFadd: mfu_fop = FpuOpFAdd;
      OpFsub: mfu_fop = FpuOpFSub;
      OpFmul: mfu_fop = FpuOpFMul;
      OpFfma: mfu_fop = FpuOpFFma;
      OpFmin: mfu_fop = FpuOpFMin;
      OpFmax: mfu_fop = FpuOpFMax;
      OpFcmp: mfu_fop = FpuOpFCmp;
      OpCvt: begin
        if (x_dec_q.dt == DtF32) begin
          mfu_fop = dt_signed(x_dec_q.mod) ? FpuOpCvtI2F : FpuOpCvtU2F;
        end else begin
          mfu_fop = dt_signed(x_dec_q.dt) ? FpuOpCvtF2I : FpuOpCvtF2U;
        end
      end
      default: begin
        mfu_fop = FpuOpFAdd;
        mfu_fpu = 1'b0;  // integer multiply
      end
    endcase
  end

  // Earlier passes' results: pass p's last entry (cycle t) is caught at the end of t + 6, when
  // it is the MFU's result (sgu_mfu: latency 6; its S6 is only the rounding increment and the
  // result select, so that the normalising shift does not run into the register file's write
  // port: docs/timing.md "Timing of the pipelined core").
  typedef struct packed {
    logic                   valid;
    logic [MfuPassBits-1:0] pass;
  } mfu_cap_t;
  mfu_cap_t mfu_cap_d;
  mfu_cap_t [5:0] mfu_cap_q;

  assign mfu_cap_d.valid = long_issue && x_last_step && !x_last_pass;
  assign mfu_cap_d.pass  = x_pass_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mfu_cap_q <= '0;
    end else begin
      mfu_cap_q <= {mfu_cap_q[4:0], mfu_cap_d};
    end
  end

  for (genvar m = 0; m < NumMfu; m++) begin : gen_mfu
    logic [31:0] fc;
    logic [63:0] ia, ib, res;

    logic [LanesPerMfu-1:0][31:0] grp_fc;
    for (genvar p = 0; p < LanesPerMfu; p++) begin : gen_grp
      assign grp_fc[p] = op_c[m * LanesPerMfu + p][31:0];
    end

    sgu_mfu_sel #(
      .LanesPerMfu(LanesPerMfu),
      .PassBits   (MfuPassBits)
    ) u_sel (
      .pass_i(x_pass_q),
      .fc_i  (grp_fc),
      .ia_i  (mfu_ia[m*LanesPerMfu +: LanesPerMfu]),
      .ib_i  (mfu_ib[m*LanesPerMfu +: LanesPerMfu]),
      .fc_o  (fc),
      .ia_o  (ia),
      .ib_o  (ib)
    );

    sgu_mfu u_mfu (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .valid_i (long_issue),
      .fpu_i   (mfu_fpu),
      .ld_fp_i (mfu_ld_fp),
      .ld_int_i(mfu_ld_int),
      .fop_i   (mfu_fop),
      .cond_i  (x_dec_q.mod[2:0]),
      .a_i     (ia[31:0]),  // FP a and b: the extended operands' low words (sgu_lane)
      .b_i     (ib[31:0]),
      .c_i     (fc),
      .ia_i    (ia),
      .ib_i    (ib),
      .mulh_i  (x_dec_q.opcode == OpMulh),
      .shift_i (x_dec_q.opcode inside {OpShl, OpShli, OpShr, OpShri}),
      .right_i (x_dec_q.opcode inside {OpShr, OpShri}),
      .wide_i  (x_dec_q.wide),
      .alu_i   (op_is_alu64(x_dec_q.opcode, x_dec_q.dt)),
      .alu_op_i(alu64_op(x_dec_q.opcode)),
      .step_i  (x_step_q),
      .dt_i    (x_dec_q.dt),
      .result_o(res)
    );

    assign long_res[m * LanesPerMfu + LanesPerMfu - 1] = res;
    if (LanesPerMfu > 1) begin : gen_hold
      logic [LanesPerMfu-2:0][63:0] hold_q;
      always_ff @(posedge clk_i) begin
        if (mfu_cap_q[5].valid) hold_q[mfu_cap_q[5].pass] <= res;
      end
      for (genvar p = 0; p < LanesPerMfu - 1; p++) begin : gen_res
        assign long_res[m * LanesPerMfu + p] = hold_q[p];
      end
    end
  end

  // Crossbar: indices in X, registered with the exec mask at every edge an instruction is in X, as
  // each lane registers A and B/R in xb_q (the last load is the edge it leaves X: exec_q only
  // changes when X's instruction completes); values picked in L2 from them. Loading on X's
  // registered state (xbar_ld below) rather than on the record's write decision (xs_ld: x_done, the trap
  // checks) keeps X's completion logic out of the crossbar's register enables, the routed
  // critical path of the first SIMD16 route (docs/timing.md "Routing"). Only l2_shfl_q, which
  // selects the crossbar's result in L2, follows the write decision. The result is written at
  // the end of L2 like any short result, but exists only in L2: nothing forwards it into X
  // (xf_stall). xb_q is a register of its own, kept apart from l2_data_q, so that the register
  // every lane's crossbar multiplexers read is not the one the lane's ALU ends in: the placer
  // may put the ALU's end beside the ALU and the crossbar's inputs beside the crossbar
  // (docs/timing.md "Routed timing, step by step").
  logic [NumLanes-1:0][31:0] xbar_res, xbar_c, xbar_r;
  logic [NumLanes-1:0][31:0] xbar_pick, xbar_dflt;    // xbar_res in parts (sgu_xbar pick_o,
  logic [NumLanes-1:0]       xbar_src_exec, xbar_early;  // src_exec_o, early_o, dflt_o)
  logic [NumLanes-1:0]       xbar_selb;
  logic                      xs_ld, l2_shfl_q;
  // The crossbar's registers (xb_q, the index stage's) load at every edge with an instruction
  // in X, whatever it is, like l2_data_q: only a shuffle in L2 reads them, and it reads the
  // load of the edge it left X (the next edge's load comes after its L2 cycle). So their
  // enable is one LUT of three registers, not the opcode's compare and kill_q into N x 64
  // enables (799 end bits above 13.33 ns on a SIMD16 placement: docs/fpga.md). A two-pass
  // shuffle (x_multi_shfl_q) loads them at its first edge only: the operand registers may take
  // the next instruction's operands at that edge (no x_hold), and the index registers and xb_q
  // keep its own for both passes. xbar_hold: its first pass, in its second cycle in X (if it
  // waits longer for a long writer in L6, the crossbar rests).
  logic                      xbar_ld, xbar_hold;
  logic [NumLanes-1:0]       xbar_thermo_dn, xbar_thermo_up;
  logic [NumLanes-1:0][3:0]  xbar_mode;   // per lane: the shuffle's mode and group width
  logic [NumLanes-1:0][2:0]  xbar_width;  // (log2), the lane's own copies
  logic                      r_thermo_dn, r_thermo_up;
  assign r_thermo_dn = r_dec_q.big && r_dec_q.mod == ModShflDown2;
  assign r_thermo_up = r_dec_q.big && r_dec_q.mod == ModShflUp2;
  assign xbar_ld   = x_valid_q && (!x_multi_shfl_q || x_first_q);
  // From X's registers only (x_multi_shfl_q is a shuffle's; a killed instruction is in its
  // first cycle), so that xb_q's enable, xbar_ld || xbar_hold, is one LUT4 of four registers
  // (with the opcode's compare and kill_q it was four levels: 512 late end bits on a SIMD16
  // placement, docs/timing.md, thirteenth session). XbarHold_A.
  assign xbar_hold = x_valid_q && x_multi_shfl_q && x_second_q && !x_first_q;
  assign l2_far  = l2_shfl_q || l2_vu_q || l2_shift_q;
  assign l2_late = l2_far || l2_shift_q;
  for (genvar l = 0; l < NumLanes; l++) begin : gen_xbar_data
    // {R, C} of the shuffle in X, then in L2: C is A, or B where the crossbar's index stage says
    // (sgu_xbar selb_o), and B from the end of a two-pass shuffle's first pass.
    logic [63:0] xb_q;
    // Lane l's own copy of "a one-pass down2 / up2" (a scalar delta: sgu_xbar thermo_*_i),
    // loaded with the operand registers (x_ld) from the instruction entering X, so that source
    // lane l's A/B choice depends on lane l's registers only, not on X's instruction registers
    // driving every lane (a one-pass shuffle is in X for one cycle: its first edge loads xb_q).
    // The same for the shuffle's mode and group width, which the lane's index arithmetic reads
    // (sgu_xbar: X's instruction registers drove every lane's index stage, 9 LUT4 into src_q
    // on the SIMD16 board's placements).
    logic       thermo_dn_q, thermo_up_q;
    logic [3:0] mode_q;
    logic [2:0] width_q;
    (* keep *)
    always_ff @(posedge clk_i) begin
      if (x_ld) begin
        thermo_dn_q <= r_thermo_dn;
        thermo_up_q <= r_thermo_up;
        mode_q      <= r_dec_q.mod;
        width_q     <= r_dec_q.imm[2:0];
      end
    end
    assign xbar_thermo_dn[l] = thermo_dn_q;
    assign xbar_thermo_up[l] = thermo_up_q;
    assign xbar_mode[l]      = mode_q;
    assign xbar_width[l]     = width_q;
    (* keep *)
    always_ff @(posedge clk_i) begin
      if (xbar_ld) begin
        xb_q <= {src_lo[2][l], xbar_selb[l] ? src_lo[2][l] : src_lo[0][l]};
      end else if (xbar_hold) begin
        xb_q[31:0] <= xb_q[63:32];
      end
    end
    assign xbar_c[l] = xb_q[31:0];
    assign xbar_r[l] = xb_q[63:32];
  end

  sgu_xbar #(
    .NumLanes(NumLanes)
  ) u_xbar (
    .clk_i       (clk_i),
    .en_i        (x_shfl),
    .ld_i        (xbar_ld),
    .mode_i      (xbar_mode),
    .thermo_dn_i (xbar_thermo_dn),
    .thermo_up_i (xbar_thermo_up),
    .width_log2_i(xbar_width),
    .exec_i      (exec_q),
    .d_i         (src_lo[1]),
    .big_i       (rs2_big),
    .tdn_i       (rs2_tdn),
    .tup_i       (rs2_tup),
    .hold_en_i   (xbar_hold),
    .mux_en_i    (l2_shfl_q),
    .selb_o      (xbar_selb),
    .c_i         (xbar_c),
    .r_i         (xbar_r),
    .res_o       (xbar_res),
    .pick_o      (xbar_pick),
    .src_exec_o  (xbar_src_exec),
    .early_o     (xbar_early),
    .dflt_o      (xbar_dflt)
  );

  logic [31:0] vote_res;
  logic [63:0] first_res;
  sgu_vote #(
    .NumLanes(NumLanes)
  ) u_vote (
    .clk_i     (clk_i),
    .low_en_i  (x_valid && x_first_q && x_dec_q.opcode == OpFirst),
    .first_en_i(x_valid && x_second_q && x_dec_q.opcode == OpFirst),
    .vote_ld_i (x_valid && x_dec_q.opcode == OpVote),
    .mode_i    (x_dec_q.mod),
    .dt_i      (x_dec_q.dt),
    .exec_i    (exec_q),
    .cond_i    (src_lo[0]),
    .data_i    (op_a),
    .vote_o    (vote_res),
    .first_o   (first_res)
  );

  // Mask stack.
  logic                stk_clear, stk_push, stk_pop, stk_set_pending, stk_empty, stk_full;
  logic [NumLanes-1:0] stk_pending, stk_top_saved, stk_top_pending;
  sgu_mask_stack #(
    .NumLanes(NumLanes),
    .Depth   (MaskStackDepth)
  ) u_mask_stack (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .clear_i      (stk_clear),
    .push_i       (stk_push),
    .pop_i        (stk_pop),
    .set_pending_i(stk_set_pending),
    .saved_i      (exec_q),
    .pending_i    (stk_pending),
    .top_saved_o  (stk_top_saved),
    .top_pending_o(stk_top_pending),
    .empty_o      (stk_empty),
    .full_o       (stk_full)
  );
  assign stk_clear = start;

  // Per-lane condition of split/mbrk: rs1 != 0 (a scalar rs1 is broadcast by the register file).
  // split's and mbrk's condition: rs1's nonzero flag, registered by the register file beside
  // the lanes (nz_o), so that the lanes' operand registers no longer reach the run state exec_q
  // through a 32-bit zero detect each (the placed SIMD16 board's worst path at 15e64b1, 8 LUT4
  // from a lane to the core: docs/timing.md, twentieth session). NzCond_A compares it with the
  // detect on the operand register.
  logic [NumLanes-1:0] cond;
  assign cond = rs1_nz;

  // LSU request operands (stable while X holds the instruction). The LSU samples the addresses
  // and checks them in the first cycle of a memory instruction in X (lsu_chk_o).
  assign lsu_chk_o = x_valid && x_first_q && (x_dec_q.opcode inside {OpLd, OpSt});
  // The LSU's address and data registers load in the first cycle of every instruction in X
  // (sgu_lsu ld_i): a single flip-flop as the enable of their N x 96 bits, not the opcode's
  // compare and kill_q (X's registers into those enables were 662 late end bits on a SIMD16
  // placement, docs/timing.md, thirteenth session).
  assign lsu_ld_o  = x_first_q;
  for (genvar l = 0; l < NumLanes; l++) begin : gen_lsu
    assign lsu_addr_o[l]  = src_lo[0][l] + x_dec_q.imm;
    assign lsu_wdata_o[l] = op_b[l];
  end
  assign lsu_store_o     = x_dec_q.opcode == OpSt;
  assign lsu_size_log2_o = dt_size_log2(x_dec_q.dt);
  assign lsu_dt_o        = x_dec_q.dt;
  assign lsu_lanes_o     = exec_q;
  // A scalar address is accessed once (for a store, only if the data is scalar as well).
  assign lsu_once_o      = x_dec_q.rs1[5] && (x_dec_q.opcode == OpLd || x_dec_q.rs2[5]);

  // Uniform values.
  logic [31:0] special;
  always_comb begin
    unique case (x_dec_q.imm[1:0])
      2'd0:    special = 32'(NumLanes);
      2'd1:    special = 32'(exec_q);
      2'd2:    special = 32'(launch_mask_q);
      default: special = 32'(launch_size_q);
    endcase
  end

  // Every older record has left the pipe (memory operations wait for this).
  logic [5:0] rec_valid;
  logic       pipe_empty;
  assign pipe_empty = rec_valid == '0;

  logic        watchdog_hit;
  logic        trap, halt, wb_en, taken, x_mem_d;
  logic [7:0]  cause;
  logic [31:0] tval;
  logic [63:0] uniform;
  // The uniform value of csrr or `first` (WbUniform: don't-care for every other instruction),
  // selected from registers by registers (first's value is sgu_vote's register, extended by
  // the type) and registered once (uniform_q) at the edges l2_data_q loads: L2 hands it to every
  // lane (l2_val, like a vote's value), so that no path runs from X's instruction registers
  // (the special's number, x_multi_first_q) through a 64-bit selection in every lane into
  // l2_data_q across the die.
  assign uniform = x_multi_first_q ? first_res : {32'd0, special};
  logic [31:0] pc_next, pc_branch;

  assign pc_next   = x_pc_q + 32'd8;
  assign pc_branch = x_pc_q + {x_dec_q.imm[28:0], 3'd0};
  // The watchdog fires in any cycle of the run, except while the LSU is in the middle of an
  // access (AXI transfers cannot be abandoned); the instruction in X, if any, has no effect.
  // wd_reached_q: cycles_q >= watchdog_i (0: no watchdog), registered one cycle ahead.
  logic wd_reached_q;
  assign watchdog_hit = run_q && live_q && !x_mem_q && wd_reached_q;

  always_comb begin
    exec_d          = exec_q;
    x_done_case     = 1'b0;
    x_mem_d         = x_mem_q;
    trap            = 1'b0;
    cause           = CauseNone;
    tval            = '0;
    halt            = 1'b0;
    taken           = 1'b0;
    wb_en           = 1'b0;
    stk_push        = 1'b0;
    stk_pop         = 1'b0;
    stk_set_pending = 1'b0;
    stk_pending     = '0;
    lsu_req_o       = 1'b0;
    long_issue      = 1'b0;

    if (x_valid && !watchdog_hit) begin
      x_done_case = 1'b1;
      if (x_fault_q != CauseNone) begin
        trap  = 1'b1;
        cause = x_fault_q;
        tval  = x_pc_q;
      end else if (x_dec_q.illegal) begin
        trap  = 1'b1;
        cause = CauseIllegalInsn;
        tval  = x_insn_q[31:0];
      end else if (x_dec_q.is_long) begin
        long_issue = 1'b1;
        wb_en      = 1'b1;
        x_done_case = x_last_step && x_last_pass;
      end else begin
        unique case (x_dec_q.opcode)
          OpNop: ;
          OpHalt: halt = 1'b1;
          OpTrap: begin
            trap  = 1'b1;
            cause = CauseSwTrap;
            tval  = x_dec_q.imm;
          end
          OpBr: taken = 1'b1;
          OpBz: taken = src_lo[0][0] == '0;
          OpBnz: taken = src_lo[0][0] != '0;
          OpBexz: taken = exec_none_q;
          OpBexnz: taken = !exec_none_q;
          OpSplit, OpMpush: begin
            if (stk_full) begin
              trap  = 1'b1;
              cause = CauseMaskOverflow;
              tval  = 32'(MaskStackDepth);
            end else begin
              stk_push    = 1'b1;
              stk_pending = (x_dec_q.opcode == OpSplit) ? (exec_q & ~cond) : '0;
              exec_d      = (x_dec_q.opcode == OpSplit) ? (exec_q & cond) : exec_q;
            end
          end
          OpElse, OpJoin: begin
            if (stk_empty) begin
              trap  = 1'b1;
              cause = CauseMaskUnderflow;
            end else if (x_dec_q.opcode == OpElse) begin
              exec_d          = stk_top_pending;
              stk_set_pending = 1'b1;
              stk_pending     = '0;
            end else begin
              exec_d  = stk_top_saved;
              stk_pop = 1'b1;
            end
          end
          OpMbrk: exec_d = exec_q & ~cond;
          OpLane: begin
            wb_en  = 1'b1;
          end
          OpCsrr: begin
            wb_en   = 1'b1;
          end
          OpVote: begin
            wb_en = 1'b1;  // its value joins after the forward's tap (gen_wb)
          end
          OpFirst: begin
            // Three cycles: sgu_vote registers the lowest active lane in the first (the operand
            // registers hold: x_hold) and its value in the second. R's port check assumed one
            // cycle in X: leaving now, the result is written at the end of L2, so no long
            // writer may be in L6 (it would write in the same cycle); then wait.
            x_done_case = !x_first_q && !x_second_q && !lw_valid[5];
            wb_en       = 1'b1;
          end
          OpShfl: begin
            // A down2 / up2 with a vector delta: two cycles (the crossbar's first pass in the
            // second), leaving like `first` only when no long writer is in L6.
            x_done_case = !x_multi_shfl_q || (!x_first_q && !lw_valid[5]);
            wb_en       = 1'b1;
          end
          OpLd, OpSt: begin
            if (exec_none_q) begin
              // No active lane: no access, no write.
            end else if (!x_mem_q) begin
              x_done_case = 1'b0;
              if (!lsu_checked_i) begin
                // The LSU registers the addresses and their checks (lsu_chk_o in the first
                // cycle), then the first faulting and the first active lane.
              end else if (x_dec_q.opcode == OpSt ? !pipe_empty
                                                  : (lw_valid[5:1] != '0)) begin
                // A store waits for the older records to leave (its AXI writes follow theirs on
                // the retire port); a load only for the long writers still to write (its own
                // write at the end of L2 then has the write port, and nothing older is pending).
              end else if (lsu_fault_i) begin
                x_done_case = 1'b1;
                trap        = 1'b1;
                tval        = lsu_fault_addr_i;
                if (x_dec_q.opcode == OpLd) begin
                  cause = lsu_fault_misaligned_i ? CauseLoadMisaligned : CauseLoadAccess;
                end else begin
                  cause = lsu_fault_misaligned_i ? CauseStoreMisaligned : CauseStoreAccess;
                end
              end else begin
                lsu_req_o = 1'b1;
                x_mem_d   = 1'b1;
              end
            end else if (!lsu_done_i) begin
              x_done_case = 1'b0;
            end else begin
              x_mem_d = 1'b0;
              if (lsu_bus_err_i) begin
                trap  = 1'b1;
                cause = (x_dec_q.opcode == OpLd) ? CauseLoadBusError : CauseStoreBusError;
                tval  = lsu_err_addr_i;
              end else if (x_dec_q.opcode == OpLd) begin
                wb_en  = 1'b1;
              end
            end
          end
          default: begin
            // Lane ALU: integer arithmetic, logic, shifts, compare, select, immediates, cvt.
            wb_en  = 1'b1;
          end
        endcase
      end

      // A trap ends the run with no architectural effect of the instruction.
      if (trap) begin
        exec_d          = exec_q;
        wb_en           = 1'b0;
        taken           = 1'b0;
        stk_push        = 1'b0;
        stk_pop         = 1'b0;
        stk_set_pending = 1'b0;
        long_issue      = 1'b0;
      end
    end
  end

  // x_done, from registered classes rather than the opcode's case (the case's x_done_case is
  // the same decision: XDone_A): an instruction that is not multi-cycle (decided in R) leaves
  // after its one cycle; a long operation after its last step of its last pass; first after its
  // second cycle unless a long writer in L6 would meet its write; ld/st when no lane is active,
  // when the LSU reports a fault (after the checks, with nothing older to wait for), or when
  // the LSU is done. So x_accept and the enables of R and D that it feeds do not wait for the
  // opcode's decode (docs/timing.md "Timing of the pipelined core").
  // The memory instruction's wait for older records (a store for all of them, a load for the
  // long writers; the checks in the X case above) and the long operation's last step are
  // registered a cycle early (x_mem_wait_q, x_last_q: "hazards, a cycle early" below), so that
  // x_done starts from single flip-flops.
  logic x_mem_wait, x_mem_wait_q, x_done_multi;
  assign x_mem_wait   = x_mem_wait_q;
  assign x_done_multi = (x_multi_long_q && x_last_q) ||
                        (x_multi_first_q && !x_first_q && !x_second_q && !lw_valid[5]) ||
                        (x_multi_shfl_q && !x_first_q && !lw_valid[5]) ||
                        (x_multi_mem_q && (exec_none_q || (x_mem_q ? lsu_done_i :
                                           (x_checked_q && !x_mem_wait && lsu_fault_i))));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_chk1_q    <= 1'b0;
      x_chk2_q    <= 1'b0;
      x_checked_q <= 1'b0;
    end else begin
      x_chk1_q <= lsu_chk_o;
      // The checks of an instruction that left X (ld/st with no active lane leave after their
      // first cycle) never mark the next one's checked.
      x_chk2_q <= x_chk1_q && !lsu_chk_o && !r_advance && !start;
      if (r_advance || start) begin
        x_checked_q <= 1'b0;
      end else if (x_chk2_q) begin
        x_checked_q <= 1'b1;
      end
    end
  end
  assign x_done  = x_valid && !watchdog_hit &&
                   (!(x_multi_long_q || x_multi_mem_q || x_multi_first_q || x_multi_shfl_q) ||
                    x_done_multi);
  assign x_end   = x_done && (trap || halt);
  assign wd_fire = watchdog_hit;
  // F and D hold younger instructions that must not run.
  assign flush_front = x_end || wd_fire;
  // Mispredicted next pc (F predicted taken for backward conditional branches and br).
  assign redirect    = x_done && !trap && !halt && (taken != x_pred_q);
  // A redirect is a branch whose outcome differs from F's prediction, so its target is the
  // other way: pc + 8 after a wrong "taken", the branch target after a wrong "not taken". The
  // choice is a register's (x_pred_q), not the outcome's (taken waits for the trap checks, the
  // watchdog and the branch condition: the routed critical path of bb636fb's SIMD16 board).
  assign redirect_pc = x_pred_q ? pc_next : pc_branch;

  assign x_valid = x_valid_q && !kill_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      kill_q  <= 1'b0;
      redir_q <= 1'b0;
    end else begin
      kill_q  <= !start && (redirect || x_end);
      redir_q <= !start && redirect;
    end
  end
  // Loaded at every edge (read only in the cycle after a redirect, with redir_q): an enable
  // from the redirect decision (x_done, the trap checks, the branch condition) was a path of
  // its own into 32 clock enables (docs/timing.md "Routed timing, step by step").
  always_ff @(posedge clk_i) begin
    redirect_pc_q <= redirect_pc;
  end

  // Short results: computed in X, registered with the record (l2_data_q), written at the end
  // of L2.
  assign x_lanes = x_dec_q.rd[5] ? NumLanes'(1) : exec_q;

  for (genvar l = 0; l < NumLanes; l++) begin : gen_wb
    // Each lane's own copy of the instruction's write-back source (kept: see sgu_lane), loaded
    // with the operand registers (x_ld). ld/st and `first` stay in X after their first cycle
    // (`first` after its second), in which wb_q may take the next instruction's: their source is the LSU's load data or
    // the uniform value whatever wb_q holds (wb_eff, from registers loaded as they enter X).
    wb_sel_e wb_q, wb_eff;
    (* keep *)
    always_ff @(posedge clk_i) begin
      if (x_ld) wb_q <= r_dec_q.wb;
    end
    assign wb_eff = x_multi_mem_q ? WbLoad : wb_q;
    // Only with an instruction in X (l2_data_q loads only then; otherwise don't-care: no gate,
    // and the simulation skips the lane's select). The adder's result (lane_fwd_add), the one
    // that comes out of the lane's carry chain, is picked last, by registered controls (wb_eff,
    // the lane's fwd_sum_o): every other source (the lane's logic and select, the lane index,
    // load data, the uniform value, min's or max's outcome for a >= b) is selected beside the
    // adder, so that after the carry chain one or two multiplexers stand before l2_data_q. The
    // comparison goes to registers of its own, with the kind (x_cmp, x_mm), and L2 makes a
    // compare's, min's or max's result (l2_lo). The crossbar's, the shifter's and a vote's
    // results are made in L2 (l2_val).
    always_comb begin
      logic [63:0] other;
      logic [63:0] early_val;
      logic        use_add;
      other     = 'x;
      early_val = 'x;
      use_add   = 'x;
      x_val[l]  = 'x;
      x_cmp[l]  = 'x;
      x_mm[l]   = 'x;
      if (x_valid) begin
        other     = (wb_eff == WbLaneIdx) ? 64'(l) : lsu_rdata_i[l];  // else WbLoad (extended)
        use_add   = wb_eff == WbLane && lane_fwd_sum[l];
        unique case (wb_eff)
          WbLane:     early_val = {lane_res_hi[l], lane_fwd_early[l]};
          WbLaneLate: early_val = {32'd0, lane_mm_ge[l]};  // or L2's (l2_lo)
          default:    early_val = other;
        endcase
        x_val[l] = {early_val[63:32], use_add ? lane_fwd_add[l] : early_val[31:0]};
        x_cmp[l] = wb_eff == WbLaneLate && lane_cmp[l];
        x_mm[l]  = wb_eff == WbLaneLate && !lane_cmp[l];
      end
    end
  end

  // The record leaving X (or the watchdog's).
  rec_t x_rec;
  always_comb begin
    x_rec = '0;
    if (wd_fire) begin
      x_rec.valid = 1'b1;
      x_rec.pc    = redir_q ? redirect_pc_q :
                    x_valid ? x_pc_q : (r_valid_q ? r_pc_q : (d_valid ? d_pc : f_pc_q));
      x_rec.trap  = 1'b1;
      x_rec.cause = CauseWatchdog;
      x_rec.tval  = cycles_q[31:0];
      x_rec.exec  = exec_q;
    end else if (x_done) begin
      x_rec.valid   = 1'b1;
      x_rec.pc      = x_pc_q;
      x_rec.insn    = (x_fault_q != CauseNone) ? 64'd0 : x_insn_q;
      x_rec.trap    = trap;
      x_rec.cause   = cause;
      x_rec.tval    = tval;
      x_rec.halt    = halt;
      // x_lanes != '0 (a scalar destination writes lane 0; a vector one the lanes of exec_q),
      // by the flag registered with exec_q (ExecNone_A) instead of an OR over its N bits: the
      // OR was on the placed SIMD16 board's worst path, the run state through this enable and
      // the distance-2 forward's compare into fl_sel_q (docs/timing.md, eleventh session).
      x_rec.we      = wb_en && x_dec_q.writes && (x_dec_q.rd[5] || !exec_none_q);
      x_rec.long_wb = x_dec_q.is_long;
      x_rec.rd      = x_rec.we ? x_dec_q.rd : 6'd0;
      x_rec.pair    = x_rec.we && x_dec_q.rd_pair;
      x_rec.lanes   = x_rec.we ? x_lanes : '0;
      x_rec.exec    = exec_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_valid_q <= 1'b0;
      x_pred_q  <= 1'b0;
      x_pc_q    <= '0;
      x_insn_q  <= '0;
      x_fault_q <= CauseNone;
      x_dec_q   <= '0;
      x_step_q  <= '0;
      x_pass_q  <= '0;
      x_mem_q   <= 1'b0;
      x_first_q <= 1'b0;
      x_second_q <= 1'b0;
      x_multi_long_q  <= 1'b0;
      x_multi_mem_q   <= 1'b0;
      x_multi_st_q    <= 1'b0;
      x_multi_first_q <= 1'b0;
      x_multi_shfl_q  <= 1'b0;
      x_scalar_wr_q   <= 1'b0;
      x_shortw_q      <= 1'b0;
    end else begin
      x_mem_q   <= x_mem_d;
      x_first_q <= r_advance;
      x_second_q <= x_first_q;
      if (start || wd_fire) begin
        x_valid_q <= 1'b0;
        x_step_q  <= '0;
        x_pass_q  <= '0;
        x_mem_q   <= 1'b0;
      end else if (r_advance) begin
        x_valid_q <= 1'b1;
        x_pred_q  <= r_pred_q;
        x_pc_q    <= r_pc_q;
        x_insn_q  <= r_insn_q;
        x_fault_q <= r_fault_q;
        x_dec_q   <= r_dec_q;
        x_dec_q.illegal <= r_illegal;
        x_multi_long_q  <= r_chk && r_dec_q.is_long &&
                           (r_dec_q.wide || LanesPerMfu > 1);
        x_multi_mem_q   <= r_chk && r_dec_q.opcode inside {OpLd, OpSt};
        x_multi_st_q    <= r_dec_q.opcode == OpSt;
        x_scalar_wr_q   <= r_dec_q.rd[5] && r_dec_q.opcode != OpLd;
        x_shortw_q      <= r_chk && r_dec_q.writes && !r_dec_q.is_long;
        x_multi_first_q <= r_chk && r_dec_q.opcode == OpFirst;
        x_multi_shfl_q  <= r_chk && r_dec_q.opcode == OpShfl && !r_dec_q.rs2[5] &&
                           r_dec_q.mod inside {ModShflDown2, ModShflUp2};
        x_step_q  <= '0;
        x_pass_q  <= '0;
      end else if (x_done || kill_q) begin
        x_valid_q <= 1'b0;
        x_step_q  <= '0;
        x_pass_q  <= '0;
      end else if (long_issue) begin
        // Steps of a 64-bit multiply or shift back to back, then the next pass.
        if (x_last_step) begin
          x_step_q <= '0;
          x_pass_q <= x_pass_q + 1'b1;
        end else begin
          x_step_q <= x_step_q + 2'd1;
        end
      end
    end
  end

  // ------------------------------------------------------------------------------ L2..L7
  // Records move every cycle (bubbles included); the data of short writes moves with them.
  // The values a short writer wrote, for its retire record: kept in a ring of five entries,
  // written once in L2 and read in L7, instead of copied from stage to stage (N x 64 bits per
  // stage and cycle, which was much of the simulation's time: docs/performance.md). Records move
  // every cycle, so the record in L7 is the one that was in L2 five cycles earlier, and the ring's
  // pointer, which advances every cycle modulo 5, has come round to its entry. On the FPGA board
  // nothing reads the retire port and synthesis removes the ring.
  logic [NumLanes-1:0][63:0] sw_ring_q [5];
  logic [2:0]                ring_q;
  assign x_short_wr = x_rec.valid && x_rec.we && !x_rec.long_wb;
  assign xs_ld      = x_short_wr && x_shfl;

  // The value of the short writer in L2: its registered result, the crossbar's output, the
  // lane shifter's, or a uniform value (a vote's reduction, or csrr's or `first`'s uniform_q:
  // uni_val, one selection for all lanes).
  // Only with a short writer in L2 (its readers: the forward, the retire ring and the write port all
  // load only then; otherwise don't-care, and the simulation skips it).
  // L2's source flags for the record leaving X, loaded by the core's registers and by every
  // lane's copy (one expression for both, and for the hazard check's view of L2).
  logic l2_shift_d, l2_vu_d;
  assign l2_shift_d = x_short_wr && x_dec_q.wb == WbShift;
  assign l2_vu_d    = x_short_wr && x_dec_q.wb inside {WbVote, WbUniform};
  logic [63:0] uni_val;
  assign uni_val = l2_uni_q ? uniform_q : {32'd0, vote_res};
  // Each lane selects by its own copy of L2's source flags (vsel_q: loaded with l2_shfl_q,
  // l2_shift_q and l2_vu_q from the same decision), so that the selection into every lane's
  // forward and write port starts from a register beside the lane, not from three registers
  // driving N x 64 multiplexers across the die.
  // The flags are x_short_wr's and so wait for x_done; for these kinds (a shuffle, a lane shift,
  // a vote or uniform value) nothing but X's registered fault and legality can trap, so each
  // flag is x_done && x_sw_early && the kind (VselEarly_A), and each lane's copy is x_done's
  // gate on the rest at the register (sgu_late_pick): x_done enters at the last LUT.
  logic [2:0] vsel_early;
  assign vsel_early = {x_shfl, x_dec_q.wb == WbShift, x_dec_q.wb inside {WbVote, WbUniform}} &
                      {3{x_sw_early}};
  `SGU_ASSERT(VselEarly_A, (x_done ? vsel_early : 3'b000) == {xs_ld, l2_shift_d, l2_vu_d})
  for (genvar l = 0; l < NumLanes; l++) begin : gen_l2_val
    logic vshfl_q, vshift_q, vvu_q;
    logic [2:0] vsel_d;
    sgu_late_pick #(
      .Width(3),
      .ZeroB(1'b1)
    ) u_vsel (
      .sel_i(x_done),
      .sel2_i(1'b0),
      .a_i  (vsel_early),
      .b_i  ('0),
      .en_i ('1),
      .y_o  (vsel_d)
    );
    (* keep *)
    always_ff @(posedge clk_i) begin
      {vshfl_q, vshift_q, vvu_q} <= vsel_d;
    end
    // The lane's copy of L2's source flags is the core's whenever L2 writes a short result.
    `SGU_ASSERT(L2ValSel_A, !l2_short_wr ||
                            {vvu_q, vshift_q, vshfl_q} == {l2_vu_q, l2_shift_q, l2_shfl_q})
    // The crossbar's value enters the last LUT before the write register (sgu_late_pick with a
    // second select): C[src] and its source lane's exec bit, the two outputs of the crossbar's
    // N:1 multiplexers, meet the lane's registered shuffle flag and the range there; the
    // default and the other results are chosen before it. Written as one selection, ABC mapped
    // it three LUT4 deep behind the multiplexers, which end in the slice's L6MUX21: 407 end bits
    // above 13.33 ns in the SIMD16 depth model at 7a9e713, the largest group (docs/timing.md,
    // twenty-sixth session). XbarVal_A: the value is the crossbar's res_o.
    logic [63:0] rest;
    logic [31:0] val_lo;  // l2_val's low word (a lane's own signal for XbarVal_A: Verilator
                          // 5.006 cannot sample the whole wide l2_val in an assertion)
    logic        take_early;
    always_comb begin
      rest = 'x;
      // The shifter's value (L2's last stage, the reversal and the extension after sh_q) is
      // chosen last, so that its select is one LUT before the late pick; the others (the
      // crossbar's default, the uniform value, l2_lo) start from registers.
      if (l2_short_wr) begin
        rest = vshift_q ? {32'd0, lane_sh_res[l]} :
               vshfl_q  ? {32'd0, xbar_dflt[l]} :
               vvu_q    ? uni_val : {l2_data_q[l][63:32], l2_lo[l]};
      end
    end
    assign take_early = vshfl_q && xbar_early[l];
    sgu_late_pick #(
      .Width(32),
      .Sel2 (1'b1)
    ) u_xbar_pick (
      .sel_i (take_early),
      .sel2_i(xbar_src_exec[l]),
      .a_i   (xbar_pick[l]),
      .b_i   (rest[31:0]),
      .en_i  ('1),
      .y_o   (val_lo)
    );
    assign l2_val[l] = {rest[63:32], val_lo};
    `SGU_ASSERT(XbarVal_A, l2_short_wr && vshfl_q |-> val_lo == xbar_res[l] && rest[63:32] == '0)
    // The distance-2 forward's value: l2_lo, L2's data register beside the lane (or the
    // compare's, min's or max's result made from L2's registers: one or two LUT4). A
    // shuffle's and a vote's or uniform value come from outside the lane and are never
    // forwarded (l2_far: their readers wait in R until the write reaches the register file's
    // bypass), so that the crossbar's and the uniform value's die-wide nets end in the write
    // registers (sgu_regfile ws_q) and not, through the forward, in every lane's operand
    // registers (a third of the placed SIMD16 board's late end bits, docs/timing.md, sixteenth
    // session). Nor is a short shift's: the second half of the lane's shifter (then two stages, the
    // reversal and the type's extension) and then the forward's multiplexers into the operand
    // registers were 8 LUT levels, 768 end bits above 13.33 ns in the SIMD16 depth model
    // (docs/timing.md, twenty-fourth session).
    always_comb begin
      fl_lo[l] = 'x;
      if (l2_short_wr) begin
        fl_lo[l] = l2_lo[l];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      l2_shfl_q  <= 1'b0;
      l2_shift_q <= 1'b0;
      l2_uni_q   <= 1'b0;
      l2_vu_q    <= 1'b0;
    end else begin
      l2_shfl_q  <= xs_ld && !start;
      l2_shift_q <= l2_shift_d && !start;
      l2_uni_q   <= x_short_wr && x_dec_q.wb == WbUniform && !start;
      l2_vu_q    <= l2_vu_d && !start;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      l2_q <= '0;
      l3_q <= '0;
      l4_q <= '0;
      l5_q <= '0;
      l6_q <= '0;
      l7_q <= '0;
    end else if (start) begin
      l2_q <= '0;
      l3_q <= '0;
      l4_q <= '0;
      l5_q <= '0;
      l6_q <= '0;
      l7_q <= '0;
    end else begin
      l2_q <= x_rec;
      l3_q <= l2_q;
      l4_q <= l3_q;
      l5_q <= l4_q;
      l6_q <= l5_q;
      l7_q <= l6_q;
    end
  end

  // Valid records in L2 .. L7 (one vector for the waveform view).
  assign rec_valid = {l7_q.valid, l6_q.valid, l5_q.valid, l4_q.valid, l3_q.valid, l2_q.valid};

  // ------------------------------------------------------------------------------ hazards, a cycle early
  // The hazard check above, made one cycle early and registered (hazard_q): for the instruction
  // that will be in R in the next cycle, against the writers that will be in X .. L7 then. The
  // decision that R's instruction moves on (r_advance), which feeds the enables of D's, R's and
  // X's registers and the register file's choice of read rows, then starts from a flip-flop
  // instead of 21 overlap compares and the forward rules (docs/timing.md "What is left", item 8).
  // In the next cycle R holds D's instruction (d_to_r) or the one waiting there now; X holds
  // R's (r_advance), the one staying in X, or none; L2 holds the record leaving X now (x_rec,
  // bubbles included: l2_q loads it at every edge); L3 .. L7 hold L2 .. L6's. Every pairing that
  // can occur is checked, and the late decisions (d_to_r, r_advance, x_done) choose among them
  // last. Only rs3's re-read (rf_hit2: the row's register written at the read edge) stays a
  // check of the current cycle, and the gate by the instruction's legality is R's r_chk, from
  // the registered rule flags (the decoder's legality rules are deep enough without the hazard
  // check behind them); HazardEarly_A compares the whole with hazard_ref.
  typedef struct packed {
    logic       lng;   // writes a long result
    logic       shrt;  // writes a short result (X, L2)
    logic       late;  // ... L2 makes it (l2_late; read at distance 1 only)
    logic       nofwd; // ... L2 does not forward it either (l2_far)
    logic [5:0] rd;
    logic       pair;
  } hz_wr_t;


  // Reader r waits for writer w in stage k: 0 X, 1 L2, 2 .. 6 L3 .. L7 (the rules of raw, waw,
  // port and xf_stall above, but rs3's re-read).
  function automatic logic hz(hz_rdr_t r, hz_wr_t w, int unsigned k);
    logic h;
    h = 1'b0;
    for (int unsigned s = 0; s < 3; s++) begin
      h |= w.lng && r.used[s] && overlap(w.rd, w.pair, r.rs[s], r.rs_pair[s]);
      if (k < 2) begin
        // Nothing forwards out of X (k = 0); L2 forwards a low word unless nofwd.
        h |= w.shrt && r.used[s] && overlap(w.rd, w.pair, r.rs[s], r.rs_pair[s]) &&
             (k == 0 || !fwd_lo(w.rd, w.pair, r.rs[s], r.rs_pair[s], s) || w.nofwd);
      end
    end
    if (k < 4) begin
      h |= w.lng && r.short_wr && overlap(w.rd, w.pair, r.rd, r.rd_pair);
    end
    if (k == 4) begin
      h |= w.lng && r.short_wr;
    end
    if (k == 1) begin
      h |= w.shrt && w.late && r.nz && r.used[0] && overlap(w.rd, w.pair, r.rs[0], r.rs_pair[0]);
      h |= w.shrt && w.late && r.big && r.used[1] && overlap(w.rd, w.pair, r.rs[1], r.rs_pair[1]);
    end
    return h;
  endfunction

  hz_rdr_t      hr_d, hr_r;        // D's instruction, R's
  hz_wr_t       hw_r, hw_x, hw_l2; // R's as X's writer, X's staying there, x_rec as L2's
  hz_wr_t [4:0] hw_l;              // L2 .. L6's records as L3 .. L7's
  logic         x_stay, hz_d_pipe, hz_r_pipe, hazard_d;
  assign hr_d = d_hz;
  assign hr_r = hz_reader(r_dec_q);

  assign hw_r.lng  = r_chk && r_dec_q.is_long && r_dec_q.writes;
  assign hw_r.shrt = r_dec_q.writes && !r_dec_q.is_long;
  assign hw_r.late = 1'b0;   // (read at distance 1 only)
  assign hw_r.nofwd = 1'b0;
  assign hw_r.rd   = r_dec_q.rd;
  assign hw_r.pair = r_dec_q.rd_pair;
  assign hw_x.lng  = lw_valid[0];
  assign hw_x.shrt = x_dec_q.writes && !x_dec_q.is_long;
  assign hw_x.late = 1'b0;
  assign hw_x.nofwd = 1'b0;
  assign hw_x.rd   = x_dec_q.rd;
  assign hw_x.pair = x_dec_q.rd_pair;
  // L2's short writer as X's registered fields describe it (x_sw_early), not by x_rec, which
  // waits for x_done and the trap checks: the two differ only when X's instruction stays (it is
  // then also X's writer in the next cycle, hw_x, whose check at distance 0 includes this one's
  // at distance 1, so no stall is added) or ends the run (a trap: the reader is killed). The
  // forward select fl_sel_q made from it in such a cycle is never used: a reader of the writer's
  // register cannot enter X before the writer leaves X (FlSelEarly_A). This took x_done and the trap checks off the placed SIMD16 board's worst
  // estimated path (X's registers -> fl_sel_q, 10 LUT4; docs/timing.md, thirteenth session).
  assign hw_l2.lng  = x_rec.valid && x_rec.we && x_rec.long_wb;
  assign hw_l2.shrt = x_sw_early;
  assign hw_l2.nofwd = x_shfl || x_dec_q.wb inside {WbShift, WbVote, WbUniform};
  assign hw_l2.late = x_shfl || x_dec_q.wb inside {WbShift, WbVote, WbUniform};
  assign hw_l2.rd   = x_dec_q.rd;
  assign hw_l2.pair = x_dec_q.rd_pair;
  for (genvar k = 0; k < 5; k++) begin : gen_hw_l
    assign hw_l[k].lng  = lw_valid[k + 1];
    assign hw_l[k].shrt = 1'b0;
    assign hw_l[k].late = 1'b0;
    assign hw_l[k].nofwd = 1'b0;
    assign hw_l[k].rd   = lw_rd[k + 1];
    assign hw_l[k].pair = lw_pair[k + 1];
  end

  assign x_stay = x_valid && !x_done;
  always_comb begin
    hz_d_pipe = hz(hr_d, hw_l2, 1);
    hz_r_pipe = hz(hr_r, hw_l2, 1);
    for (int unsigned k = 0; k < 5; k++) begin
      hz_d_pipe |= hz(hr_d, hw_l[k], k + 2);
      hz_r_pipe |= hz(hr_r, hw_l[k], k + 2);
    end
    if (d_to_r) begin
      hazard_d = hz_d_pipe || (r_advance ? hz(hr_d, hw_r, 0) : (x_stay && hz(hr_d, hw_x, 0)));
    end else begin
      hazard_d = hz_r_pipe || (x_stay && hz(hr_r, hw_x, 0));
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hazard_q <= 1'b0;
    end else begin
      hazard_q <= hazard_d;
    end
  end

  // The distance-2 forward's selects (xf3_lo_d and L2's written lanes), made a cycle
  // early like the hazard check and registered per port and lane: in the next cycle L2 holds
  // the record leaving X now (x_rec, hw_l2; start clears L2) and R holds D's instruction
  // (d_to_r) or the one there now (whose specifiers stay in r_dec_q whether or not it moves on;
  // an empty R's loads are never used). Both readers are compared with the writer and d_to_r
  // chooses last. Made in the cycle of the forward, the compare of L2's record with R's
  // specifiers and the lanes' select ran across the die into every lane's rs1 and rs2 operand
  // registers (docs/timing.md "Timing of the pipelined core"); now each lane's select is a
  // flip-flop of its own (fanout 32 plus the flag). FlSelEarly_A compares them with the
  // decision of the cycle itself.
  // d_to_r (which waits for x_done) chooses last: each lane's select is d_to_r's choice
  // between D's and R's compare, gated by the lane's enable, one LUT at the register
  // (sgu_late_pick); made as one expression, ABC put d_to_r two LUT levels before the end, the
  // routed critical path of the SIMD16 board (docs/timing.md, fifteenth session).
  logic [1:0] xf3_dfw, xf3_rfw;
  logic [1:0][NumLanes-1:0] fl_en, fl_sel_d;
  for (genvar p = 0; p < 2; p++) begin : gen_xf3
    assign xf3_dfw[p] = !start && hw_l2.shrt && !hw_l2.nofwd && hr_d.used[p] &&
                        fwd_lo(hw_l2.rd, hw_l2.pair, hr_d.rs[p], hr_d.rs_pair[p], p);
    assign xf3_rfw[p] = !start && hw_l2.shrt && !hw_l2.nofwd && hr_r.used[p] &&
                        fwd_lo(hw_l2.rd, hw_l2.pair, hr_r.rs[p], hr_r.rs_pair[p], p);
    for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
      assign fl_en[p][l] = x_dec_q.rd[5] || exec_q[l];
    end
  end
  sgu_late_pick #(
    .Width(2 * NumLanes),
    .HasEn(1'b1)
  ) u_fl_pick (
    .sel_i(d_to_r),
    .sel2_i(1'b0),
    .a_i  ({{NumLanes{xf3_dfw[1]}}, {NumLanes{xf3_dfw[0]}}}),
    .b_i  ({{NumLanes{xf3_rfw[1]}}, {NumLanes{xf3_rfw[0]}}}),
    .en_i (fl_en),
    .y_o  (fl_sel_d)
  );
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fl_sel_q <= '0;
    else         fl_sel_q <= fl_sel_d;
  end

  // The memory instruction's wait in X (x_mem_wait) for the next cycle: X's instruction then
  // is a store (R's if it moves on), the records then are x_rec and L2 .. L6's (start clears
  // them), the long writers among them x_rec's and L2 .. L5's (lw_valid[5:1] of the next cycle).
  logic x_st_n;
  assign x_st_n = (r_advance && !start) ? (r_dec_q.opcode == OpSt) : x_multi_st_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_mem_wait_q <= 1'b0;
    end else if (start) begin
      x_mem_wait_q <= 1'b0;
    end else begin
      x_mem_wait_q <= x_st_n ? (x_rec.valid || rec_valid[4:0] != '0)
                             : (hw_l2.lng || lw_valid[4:1] != '0);
    end
  end

  // x_last_step && x_last_pass for the next cycle, following X's step and pass counters and
  // its instruction's width (the X register block above).
  localparam bit LastAtFirst = LanesPerMfu == 1;  // pass 0 is the last
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_last_q <= LastAtFirst;
    end else if (start || wd_fire) begin
      x_last_q <= LastAtFirst && !x_dec_q.wide;
    end else if (r_advance) begin
      x_last_q <= LastAtFirst && !r_dec_q.wide;
    end else if (x_done || kill_q) begin
      x_last_q <= LastAtFirst && !x_dec_q.wide;
    end else if (long_issue) begin
      x_last_q <= x_last_step ?
                  (!x_dec_q.wide && MfuPassBits'(x_pass_q + 1'b1) == MfuPassBits'(LanesPerMfu - 1)) :
                  (x_step_q == 2'd1 && x_last_pass);
    end
  end

  // l2_data_q loads at every edge with an instruction in X, whatever it does: its value is
  // used only when the record that left X at that edge is a short writer (l2_short_wr), and an
  // enable from the record's own decision (x_done, the trap checks, the written lanes) was the
  // routed critical path into N x 64 clock enables (docs/timing.md "Routed timing, step by step").
  always_ff @(posedge clk_i) begin
    if (x_valid_q) begin
      l2_data_q <= x_val;
      l2_alt_q  <= lane_mm_lt;
      l2_lt_q   <= lane_lt;
      l2_eq_q   <= lane_eq;
      l2_cmp_q  <= x_cmp;
      l2_mm_q   <= x_mm;
      l2_tt_q   <= lane_tt;
      uniform_q <= uniform;
    end
    if (l2_short_wr) sw_ring_q[ring_q] <= l2_val;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ring_q <= '0;
    else         ring_q <= (ring_q == 3'd4) ? 3'd0 : ring_q + 3'd1;
  end

  // ------------------------------------------------------------------------------ write port
  // Short results at the end of L2 (from a register), long results at the end of L7; the
  // hazard checks keep the two from meeting.
  logic l7_wr;
  assign l7_wr = l7_q.valid && l7_q.long_wb && l7_q.we;

  // The value an instruction in L7 wrote (long: the lanes' pipes; short: carried from X).
  logic [NumLanes-1:0][63:0] l7_val;
  always_comb begin  // only with a record in L7 (the retire port loads only then)
    l7_val = 'x;
    if (l7_q.valid) l7_val = l7_q.long_wb ? long_res : sw_ring_q[ring_q];
  end

  assign wr_en    = l2_short_wr || l7_wr;
  assign wr_spec  = l7_wr ? l7_q.rd : l2_q.rd;
  assign wr_pair  = l7_wr ? l7_q.pair : l2_q.pair;
  assign wr_lanes = l7_wr ? l7_q.lanes : l2_q.lanes;
  // The value, L7's long result or L2's short one, is picked in the register file, after its
  // registers (sgu_regfile "byp").
  assign wr_long  = l7_wr;

  // ------------------------------------------------------------------------------ retire port
  // The record leaving L7 is registered: the port holds it until the next record (the waveform
  // view's instruction row), and it appears one cycle after done_o / trap_o, as it did before
  // the pipeline.
  rec_t                      rvfi_q;
  logic                      rvfi_valid_q;
  logic [63:0]               rvfi_order_q;
  logic [NumLanes-1:0][31:0] rvfi_lo_q, rvfi_hi_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rvfi_valid_q <= 1'b0;
      rvfi_q       <= '0;
      rvfi_order_q <= '0;
      rvfi_lo_q    <= '0;
      rvfi_hi_q    <= '0;
    end else begin
      rvfi_valid_q <= l7_q.valid;
      if (l7_q.valid) begin
        rvfi_q       <= l7_q;
        rvfi_order_q <= instret_q;
        for (int unsigned l = 0; l < NumLanes; l++) begin
          rvfi_lo_q[l] <= l7_q.lanes[l] ? l7_val[l][31:0] : 32'd0;
          rvfi_hi_q[l] <= (l7_q.lanes[l] && l7_q.pair) ? l7_val[l][63:32] : 32'd0;
        end
      end
    end
  end

  assign rvfi_valid_o     = rvfi_valid_q;
  assign rvfi_order_o     = rvfi_order_q;
  assign rvfi_pc_o        = rvfi_q.pc;
  assign rvfi_insn_o      = rvfi_q.insn;
  assign rvfi_trap_o      = rvfi_q.trap;
  assign rvfi_cause_o     = rvfi_q.cause;
  assign rvfi_tval_o      = rvfi_q.tval;
  assign rvfi_halt_o      = rvfi_q.halt;
  assign rvfi_rd_we_o     = rvfi_q.we;
  assign rvfi_rd_o        = rvfi_q.rd;
  assign rvfi_rd_pair_o   = rvfi_q.pair;
  assign rvfi_lane_mask_o = rvfi_q.lanes;
  assign rvfi_exec_o      = rvfi_q.exec;
  assign rvfi_data_lo_o   = rvfi_lo_q;
  assign rvfi_data_hi_o   = rvfi_hi_q;

  // ------------------------------------------------------------------------------ status
  logic l7_end;
  assign l7_end     = l7_q.valid && (l7_q.trap || l7_q.halt);
  assign busy_o     = run_q;
  assign done_o     = l7_q.valid && l7_q.halt;
  assign trap_o     = l7_q.valid && l7_q.trap;
  assign cause_o    = l7_q.cause;
  assign trap_pc_o  = l7_q.pc;
  assign trap_val_o = l7_q.tval;
  assign cycles_o   = cycles_q;
  assign instret_o  = instret_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q         <= 1'b0;
      live_q        <= 1'b0;
      exec_q        <= '0;
      exec_none_q   <= 1'b1;
      launch_mask_q <= '0;
      launch_size_q <= '0;
      cycles_q      <= '0;
      instret_q     <= '0;
      wd_reached_q  <= 1'b0;
    end else if (start) begin
      run_q        <= 1'b1;
      live_q       <= 1'b1;
      cycles_q     <= '0;
      instret_q    <= '0;
      wd_reached_q <= 1'b0;  // cycles_q = 0 < watchdog_i unless it is 0 (no watchdog)
      if (lanes_i == '0 || lanes_i >= 32'(NumLanes)) begin
        launch_mask_q <= '1;
        launch_size_q <= 6'(NumLanes);
        exec_q        <= '1;
        exec_none_q   <= 1'b0;
      end else begin
        launch_mask_q <= NumLanes'((64'd1 << lanes_i[5:0]) - 64'd1);
        launch_size_q <= lanes_i[5:0];
        exec_q        <= NumLanes'((64'd1 << lanes_i[5:0]) - 64'd1);
        exec_none_q   <= 1'b0;
      end
    end else begin
      if (run_q) begin
        cycles_q     <= cycles_q + 64'd1;
        wd_reached_q <= (watchdog_i != '0) && (cycles_q + 64'd1 >= {32'd0, watchdog_i});
      end
      if (l7_q.valid) instret_q <= instret_q + 64'd1;
      if (x_done) begin
        exec_q      <= exec_d;
        exec_none_q <= exec_d == '0;
      end
      if (flush_front) live_q <= 1'b0;
      if (l7_end) run_q <= 1'b0;
    end
  end

  logic unused;
  assign unused = ^x_dec_q.imm[31:29] ^ d_dec.rs3_pair ^
                  rvfi_q.valid ^ rvfi_q.long_wb ^ ^mfu_cap_q[5] ^  // mfu_cap_q: unused if LanesPerMfu = 1
                  x_dec_q.rs1_pair ^ x_dec_q.rs2_pair ^ x_dec_q.rs3_pair ^  // (R uses the
                  ^x_dec_q.rs3 ^ ^x_dec_q.rs_used ^                         // source fields;
                  ^x_dec_q.alu ^ ^x_dec_q.wb ^ // the lanes keep their own copies of these)
                  ^mem_limit_i[2:0];           // (the fetch check compares whole words)

  `SGU_ASSERT_INIT(NumLanes_A, NumLanes == 8 || NumLanes == 16 || NumLanes == 32)
  `SGU_ASSERT_INIT(LanesPerMfu_A, (LanesPerMfu == 1 || LanesPerMfu == 2 || LanesPerMfu == 4 ||
                                  LanesPerMfu == 8) && LanesPerMfu <= NumLanes)
  // The retire pipe (X, L2 .. L7) is as deep as the long operations' latency.
  `SGU_ASSERT_INIT(LongLatency_A, LongLatency == 7)
  `SGU_ASSERT(OneWriter_A, !(l2_short_wr && l7_wr))
  // x_done from the registered classes is the opcode case's decision.
  `SGU_ASSERT(XDone_A, x_done == (x_valid && !watchdog_hit && x_done_case))
  // The crossbar's multiplexer stage serves one pass at a time: a two-pass shuffle's first pass
  // (in X after its first cycle) never meets a shuffle in L2 (L2 is empty behind it).
  `SGU_ASSERT(XbarPass_A, !(xbar_hold && l2_shfl_q))
  // Every lane's copy of the one-pass down2 / up2 kind is X's instruction's when xb_q loads.
  `SGU_ASSERT(XbarThermo_A, !(xbar_ld && x_shfl) ||
                            (xbar_thermo_dn == {NumLanes{x_dec_q.rs2[5] &&
                                                         x_dec_q.mod == ModShflDown2}} &&
                             xbar_thermo_up == {NumLanes{x_dec_q.rs2[5] &&
                                                         x_dec_q.mod == ModShflUp2}}))
  `SGU_ASSERT(XbarHold_A, xbar_hold == (x_shfl && x_multi_shfl_q && x_second_q && !x_first_q))
  // ... and of its mode and group width.
  `SGU_ASSERT(XbarMode_A, !(xbar_ld && x_shfl) ||
                          (xbar_mode == {NumLanes{x_dec_q.mod}} &&
                           xbar_width == {NumLanes{x_dec_q.imm[2:0]}}))
  `SGU_ASSERT(ExecNone_A, exec_none_q == (exec_q == '0))
  // The operand registers load at every edge that hands an instruction from R to X (x_hold
  // holds them only while X keeps a long operation, which then does not accept).
  `SGU_ASSERT(XLd_A, r_advance |-> x_ld)
`ifndef SYNTHESIS
  // The reference: the decision of the cycle and the lanes L2's record writes (scalar: all).
  logic [NumLanes-1:0]      xf3_lanes;
  logic [1:0][NumLanes-1:0] fl_sel_ref;
  assign xf3_lanes = l2_q.rd[5] ? '1 : l2_q.lanes;
  for (genvar p = 0; p < 2; p++) begin : gen_fl_sel_ref
    assign fl_sel_ref[p] = xf3_lo_d[p] ? xf3_lanes : '0;
  end
  // Where the operand registers take an instruction into X, every lane takes the distance-2
  // forward exactly as the decision of the cycle says. Elsewhere fl_sel_q may differ: made while
  // X's writer stayed there or trapped (x_sw_early: "hazards, a cycle early"), it is then never
  // used.
  `SGU_ASSERT(FlSelEarly_A, r_advance && !kill_q |-> fl_sel_q == fl_sel_ref)
`endif
  // x_sw_early is x_short_wr but for x_done and the trap checks (a short writer with nothing
  // to write, a vector one with no active lane, is neither).
  `SGU_ASSERT(ShortWrEarly_A, (!x_short_wr || x_sw_early) &&
                              (!(x_done && !trap && !wd_fire && x_sw_early) || x_short_wr))
  // A reader of rs1's nonzero flag never took rs1 from a value L2 makes (fl_nz is computed from
  // l2_lo only); an illegal word or a fetch fault token traps in X without reading it (and
  // has no hazard check).
  `SGU_ASSERT(NzLate_A, r_advance && r_fault_q == CauseNone && !r_illegal && r_dec_q.nz &&
                        xf3_lo_d[0] |-> !l2_late)
  // rs2's big flag the same way (a one-pass down2 / up2).
  `SGU_ASSERT(BigLate_A, r_advance && r_fault_q == CauseNone && !r_illegal && r_dec_q.big &&
                         xf3_lo_d[1] |-> !l2_late)
`ifndef SYNTHESIS
  // The big flag is the operand's test in every lane for its readers.
  logic [NumLanes-1:0] big_ref;
  for (genvar l = 0; l < NumLanes; l++) begin : gen_big_ref
    assign big_ref[l] = src_lo[1][l][31:LaneBits] != '0;
  end
  `SGU_ASSERT(BigRef_A, x_valid && x_dec_q.big && !x_dec_q.illegal && x_fault_q == CauseNone |->
                        rs2_big == big_ref)
  // And the thermometer bits of its low bits.
  logic [NumLanes-1:0] tdn_ref, tup_ref;
  for (genvar l = 0; l < NumLanes; l++) begin : gen_thermo_ref
    assign tdn_ref[l] = l < 32'(src_lo[1][l][LaneBits-1:0]);
    assign tup_ref[l] = l + 32'(src_lo[1][l][LaneBits-1:0]) >= NumLanes;
  end
  `SGU_ASSERT(ThermoRef_A, x_valid && x_dec_q.big && !x_dec_q.illegal && x_fault_q == CauseNone |->
                           rs2_tdn == tdn_ref && rs2_tup == tup_ref)
  // The flag is the operand's nonzero test in every lane for its readers.
  logic [NumLanes-1:0] cond_ref;
  for (genvar l = 0; l < NumLanes; l++) begin : gen_cond_ref
    assign cond_ref[l] = src_lo[0][l] != '0;
  end
  `SGU_ASSERT(NzCond_A, x_valid && x_dec_q.nz && !x_dec_q.illegal && x_fault_q == CauseNone |->
                        rs1_nz == cond_ref)
`endif
  `SGU_ASSERT(CheckedMirror_A, x_valid && x_multi_mem_q && !x_first_q |->
                               x_checked_q == lsu_checked_i)
  `SGU_ASSERT(LsuOnlyInX_A, lsu_req_o |-> x_valid && (lsu_store_o ? pipe_empty
                                                                   : lw_valid[5:1] == '0))
  // An instruction moving to X with an rs3 operand read it after the last write to its row.
  `SGU_ASSERT(NoStaleRs3_A, r_advance && r_dec_q.rs_used[2] && r_fault_q == CauseNone &&
                            !r_illegal |-> !rf_hit2)
  `SGU_ASSERT(DoneInMem_A, lsu_done_i |-> x_mem_q)
  `SGU_ASSERT(NoIssueInClear_A, clearing |-> !r_advance)
  // The hazard decided a cycle early is the check on R's instruction as it stands.
  `SGU_ASSERT(HazardEarly_A, r_valid_q && !kill_q |-> hazard == hazard_ref)
  `SGU_ASSERT(RChk_A, r_valid_q |-> r_nofault_q == (r_fault_q == CauseNone))
  `SGU_ASSERT(MfuFp_A, long_issue |-> mfu_fpu == x_dec_q.fp)
  // The predecoded fields agree with D's decode of the word. Not for a fetch fault's token: its
  // word is whatever the cache's entry at the faulting pc holds, possibly never written (the
  // word and its predecoded fields are each don't-care then, and the token traps in R).
  `SGU_ASSERT(DHz_A, d_valid && d_fault == CauseNone |-> d_hz == hz_reader(d_dec))
  // The queue: its valid bits are a run from the read pointer (a word behind D's only while D
  // holds one).
  `SGU_ASSERT(DqOrder_A, dq_valid_q[!dq_rp_q] |-> dq_valid_q[dq_rp_q])
  // The registers made a cycle early are the conditions they stand for.
  `SGU_ASSERT(XMemWait_A, x_mem_wait_q == (x_multi_st_q ? !pipe_empty : (lw_valid[5:1] != '0)))
  `SGU_ASSERT(XLast_A, x_last_q == (x_last_step && x_last_pass))
  `SGU_ASSERT(RedirectPc_A, redirect |-> redirect_pc == (taken ? pc_branch : pc_next))

endmodule
