// SPDX-License-Identifier: Apache-2.0
// SGU core: issue, execute and retire of one sub-group, with the execution mask and traps.
//
// The core holds pc, exec, the register file and the mask stack, and executes one instruction per
// cycle when the fetch unit has it (everything except ld/st completes in the cycle it issues:
// lane datapaths, crossbar, vote, control). ld/st hand the lane addresses to the LSU and wait
// (state StMem); the instruction retires when the LSU is done. Each retired or trapping
// instruction produces one record on the retire port, one cycle after it executes.
//
// Order of checks at issue (docs/isa.md): watchdog, fetch fault (pc alignment and window), fetch
// bus error, illegal instruction, then the instruction's own traps (mask stack, memory checks).
// A trap writes nothing, leaves pc/exec/stack unchanged, reports cause/pc/tval and returns the
// core to idle; so does halt (without a trap). Start (from the CSR block) clears the register
// file, the mask stack and the counters, sets pc = PC_START and exec = the launch mask.

`include "sgu_assert.svh"

module sgu_core #(
  parameter int unsigned NumLanes = 16  // SIMD width: 8, 16 or 32
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
  input  logic                          fetch_err_i,
  // Load/store unit (sgu_lsu).
  output logic                          lsu_req_o,
  output logic                          lsu_store_o,
  output logic [1:0]                    lsu_size_log2_o,
  output logic                          lsu_once_o,
  output logic [NumLanes-1:0]           lsu_lanes_o,
  output logic [NumLanes-1:0][31:0]     lsu_addr_o,
  output logic [NumLanes-1:0][63:0]     lsu_wdata_o,
  input  logic                          lsu_fault_i,
  input  logic                          lsu_fault_misaligned_i,
  input  logic [31:0]                   lsu_fault_addr_i,
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

  typedef enum logic [1:0] {
    StIdle,
    StRun,
    StMem
  } state_e;

  // Source of the value written to rd.
  typedef enum logic [2:0] {
    WbLane,     // per-lane datapath result
    WbXbar,     // crossbar
    WbUniform,  // one value for every lane (csrr, vote, first)
    WbLaneIdx,  // lane index
    WbLoad      // LSU load data
  } wb_sel_e;

  // ------------------------------------------------------------------------------ state
  state_e              state_q, state_d;
  logic [31:0]         pc_q, pc_d;
  logic [NumLanes-1:0] exec_q, exec_d;
  logic [NumLanes-1:0] launch_mask_q, launch_mask_d;
  logic [5:0]          launch_size_q, launch_size_d;
  logic [63:0]         cycles_q, cycles_d, instret_q, instret_d;
  logic [63:0]         insn_q, insn_d;       // instruction held while the LSU works

  // ------------------------------------------------------------------------------ decode
  logic [63:0] insn;
  logic        illegal;
  logic [7:0]  opcode;
  logic [3:0]  dt, mod;
  logic [5:0]  rd, rs1, rs2, rs3;
  logic [31:0] imm;
  logic        rd_used, rd_pair;
  logic        rs1_pair, rs2_pair, rs3_pair;

  assign insn = (state_q == StMem) ? insn_q : fetch_insn_i;

  sgu_decode #(
    .NumLanes(NumLanes)
  ) u_decode (
    .insn_i    (insn),
    .illegal_o (illegal),
    .opcode_o  (opcode),
    .dt_o      (dt),
    .mod_o     (mod),
    .rd_o      (rd),
    .rs1_o     (rs1),
    .rs2_o     (rs2),
    .rs3_o     (rs3),
    .imm_o     (imm),
    .rd_we_o   (rd_used),
    .rd_pair_o (rd_pair),
    .rs1_pair_o(rs1_pair),
    .rs2_pair_o(rs2_pair),
    .rs3_pair_o(rs3_pair)
  );

  // ------------------------------------------------------------------------------ registers
  logic [2:0][NumLanes-1:0][31:0] src_lo, src_hi;
  logic                           wr_en;
  logic [NumLanes-1:0]            wr_lanes;
  logic [NumLanes-1:0][31:0]      wr_lo, wr_hi;
  logic                           clear;

  sgu_regfile #(
    .NumLanes(NumLanes)
  ) u_regfile (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .clear_i   (clear),
    .args_i    (args_i),
    .rd_spec_i ({rs3, rs2, rs1}),
    .rd_lo_o   (src_lo),
    .rd_hi_o   (src_hi),
    .wr_en_i   (wr_en),
    .wr_spec_i (rd),
    .wr_pair_i (rd_pair),
    .wr_lanes_i(wr_lanes),
    .wr_lo_i   (wr_lo),
    .wr_hi_i   (wr_hi)
  );

  // Operand pairs per lane (the high word is zero for a 32-bit operand).
  logic [NumLanes-1:0][63:0] op_a, op_b, op_c;
  for (genvar l = 0; l < NumLanes; l++) begin : gen_operands
    assign op_a[l] = {rs1_pair ? src_hi[0][l] : 32'd0, src_lo[0][l]};
    assign op_b[l] = {rs2_pair ? src_hi[1][l] : 32'd0, src_lo[1][l]};
    assign op_c[l] = {rs3_pair ? src_hi[2][l] : 32'd0, src_lo[2][l]};
  end

  // ------------------------------------------------------------------------------ datapaths
  logic [NumLanes-1:0][63:0] lane_res;
  logic [NumLanes-1:0]       lane_res_valid;
  for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
    sgu_lane u_lane (
      .opcode_i   (opcode),
      .dt_i       (dt),
      .mod_i      (mod),
      .imm_i      (imm),
      .a_i        (op_a[l]),
      .b_i        (op_b[l]),
      .c_i        (op_c[l]),
      .res_o      (lane_res[l]),
      .res_valid_o(lane_res_valid[l])
    );
  end

  logic [NumLanes-1:0][31:0] xbar_res;
  sgu_xbar #(
    .NumLanes(NumLanes)
  ) u_xbar (
    .mode_i      (mod),
    .width_log2_i(imm[2:0]),
    .exec_i      (exec_q),
    .a_i         (src_lo[0]),
    .d_i         (src_lo[1]),
    .r_i         (src_lo[2]),
    .res_o       (xbar_res)
  );

  logic [31:0] vote_res;
  logic [63:0] first_res;
  sgu_vote #(
    .NumLanes(NumLanes)
  ) u_vote (
    .mode_i (mod),
    .exec_i (exec_q),
    .cond_i (src_lo[0]),
    .data_i (op_a),
    .vote_o (vote_res),
    .first_o(first_res)
  );

  // Mask stack.
  logic                stk_clear, stk_push, stk_pop, stk_set_pending, stk_empty, stk_full;
  logic [NumLanes-1:0] stk_saved, stk_pending, stk_top_saved, stk_top_pending;
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
    .saved_i      (stk_saved),
    .pending_i    (stk_pending),
    .top_saved_o  (stk_top_saved),
    .top_pending_o(stk_top_pending),
    .empty_o      (stk_empty),
    .full_o       (stk_full)
  );

  // Per-lane condition of split/mbrk: rs1 != 0 (a scalar rs1 is broadcast by the register file).
  logic [NumLanes-1:0] cond;
  for (genvar l = 0; l < NumLanes; l++) begin : gen_cond
    assign cond[l] = src_lo[0][l] != '0;
  end

  // LSU request operands.
  for (genvar l = 0; l < NumLanes; l++) begin : gen_lsu
    assign lsu_addr_o[l]  = src_lo[0][l] + imm;
    assign lsu_wdata_o[l] = op_b[l];
  end
  assign lsu_store_o     = opcode == OpSt;
  assign lsu_size_log2_o = dt_size_log2(dt);
  assign lsu_lanes_o     = exec_q;
  // A scalar address is accessed once (for a store, only if the data is scalar as well).
  assign lsu_once_o      = rs1[5] && (opcode == OpLd || rs2[5]);

  // Uniform values.
  logic [31:0] special;
  always_comb begin
    unique case (imm[1:0])
      2'd0:    special = 32'(NumLanes);
      2'd1:    special = 32'(exec_q);
      2'd2:    special = 32'(launch_mask_q);
      default: special = 32'(launch_size_q);
    endcase
  end

  // ------------------------------------------------------------------------------ issue
  logic        watchdog_hit, pc_fault;
  logic        retire, trap;
  logic [7:0]  cause;
  logic [31:0] tval;
  logic        halt;
  logic        wb_en;
  wb_sel_e     wb_sel;
  logic [63:0] uniform;
  logic [32:0] pc_end;
  logic [31:0] pc_next, pc_branch;

  assign pc_end       = {1'b0, pc_q} + 33'd8;
  assign watchdog_hit = (watchdog_i != '0) && (cycles_q >= {32'd0, watchdog_i});
  assign pc_fault     = (pc_q[2:0] != '0) || (pc_q < mem_base_i) || (pc_end > {1'b0, mem_limit_i});
  assign pc_next      = pc_q + 32'd8;
  assign pc_branch    = pc_q + {imm[28:0], 3'd0};

  assign fetch_req_o   = (state_q == StRun) && !watchdog_hit && !pc_fault;
  assign fetch_pc_o    = pc_q;
  assign fetch_flush_o = start_i && (state_q == StIdle);

  always_comb begin
    state_d         = state_q;
    pc_d            = pc_q;
    exec_d          = exec_q;
    launch_mask_d   = launch_mask_q;
    launch_size_d   = launch_size_q;
    insn_d          = insn_q;
    cycles_d        = (state_q == StIdle) ? cycles_q : cycles_q + 64'd1;
    retire          = 1'b0;
    trap            = 1'b0;
    cause           = CauseNone;
    tval            = '0;
    halt            = 1'b0;
    wb_en           = 1'b0;
    wb_sel          = WbLane;
    uniform         = '0;
    clear           = 1'b0;
    stk_clear       = 1'b0;
    stk_push        = 1'b0;
    stk_pop         = 1'b0;
    stk_set_pending = 1'b0;
    stk_saved       = exec_q;
    stk_pending     = '0;
    lsu_req_o       = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          clear     = 1'b1;
          stk_clear = 1'b1;
          pc_d      = pc_start_i;
          if (lanes_i == '0 || lanes_i >= 32'(NumLanes)) begin
            launch_mask_d = '1;
            launch_size_d = 6'(NumLanes);
          end else begin
            launch_mask_d = NumLanes'((64'd1 << lanes_i[5:0]) - 64'd1);
            launch_size_d = lanes_i[5:0];
          end
          exec_d   = launch_mask_d;
          cycles_d = '0;
          state_d  = StRun;
        end
      end

      StRun: begin
        if (watchdog_hit) begin
          retire = 1'b1;
          trap   = 1'b1;
          cause  = CauseWatchdog;
          tval   = cycles_q[31:0];
        end else if (pc_fault) begin
          retire = 1'b1;
          trap   = 1'b1;
          cause  = CauseFetchFault;
          tval   = pc_q;
        end else if (fetch_valid_i && fetch_err_i) begin
          retire = 1'b1;
          trap   = 1'b1;
          cause  = CauseFetchBusError;
          tval   = pc_q;
        end else if (fetch_valid_i && illegal) begin
          retire = 1'b1;
          trap   = 1'b1;
          cause  = CauseIllegalInsn;
          tval   = insn[31:0];
        end else if (fetch_valid_i) begin
          retire = 1'b1;
          pc_d   = pc_next;
          unique case (opcode)
            OpNop: ;
            OpHalt: halt = 1'b1;
            OpTrap: begin
              trap  = 1'b1;
              cause = CauseSwTrap;
              tval  = imm;
            end
            OpBr: pc_d = pc_branch;
            OpBz: pc_d = (src_lo[0][0] == '0) ? pc_branch : pc_next;
            OpBnz: pc_d = (src_lo[0][0] != '0) ? pc_branch : pc_next;
            OpBexz: pc_d = (exec_q == '0) ? pc_branch : pc_next;
            OpBexnz: pc_d = (exec_q != '0) ? pc_branch : pc_next;
            OpSplit, OpMpush: begin
              if (stk_full) begin
                trap  = 1'b1;
                cause = CauseMaskOverflow;
                tval  = 32'(MaskStackDepth);
              end else begin
                stk_push    = 1'b1;
                stk_pending = (opcode == OpSplit) ? (exec_q & ~cond) : '0;
                exec_d      = (opcode == OpSplit) ? (exec_q & cond) : exec_q;
              end
            end
            OpElse, OpJoin: begin
              if (stk_empty) begin
                trap  = 1'b1;
                cause = CauseMaskUnderflow;
              end else if (opcode == OpElse) begin
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
              wb_sel = WbLaneIdx;
            end
            OpCsrr: begin
              wb_en   = 1'b1;
              wb_sel  = WbUniform;
              uniform = {32'd0, special};
            end
            OpVote: begin
              wb_en   = 1'b1;
              wb_sel  = WbUniform;
              uniform = {32'd0, vote_res};
            end
            OpFirst: begin
              wb_en   = 1'b1;
              wb_sel  = WbUniform;
              uniform = ext_dt(first_res, dt);
            end
            OpShfl: begin
              wb_en  = 1'b1;
              wb_sel = WbXbar;
            end
            OpLd, OpSt: begin
              if (exec_q == '0) begin
                // No active lane: no access, no write.
              end else if (lsu_fault_i) begin
                trap = 1'b1;
                tval = lsu_fault_addr_i;
                if (opcode == OpLd) begin
                  cause = lsu_fault_misaligned_i ? CauseLoadMisaligned : CauseLoadAccess;
                end else begin
                  cause = lsu_fault_misaligned_i ? CauseStoreMisaligned : CauseStoreAccess;
                end
              end else begin
                retire    = 1'b0;
                pc_d      = pc_q;
                lsu_req_o = 1'b1;
                insn_d    = insn;
                state_d   = StMem;
              end
            end
            default: begin
              // Lane datapath: integer ALU, FP32, conversions, select, immediates.
              wb_en  = 1'b1;
              wb_sel = WbLane;
            end
          endcase
        end
      end

      StMem: begin
        if (lsu_done_i) begin
          retire = 1'b1;
          pc_d   = pc_next;
          if (lsu_bus_err_i) begin
            trap  = 1'b1;
            cause = (opcode == OpLd) ? CauseLoadBusError : CauseStoreBusError;
            tval  = lsu_err_addr_i;
          end else if (opcode == OpLd) begin
            wb_en  = 1'b1;
            wb_sel = WbLoad;
          end
          state_d = StRun;
        end
      end

      default: state_d = StIdle;
    endcase

    // A trap or halt ends the run with no architectural effect of the instruction.
    if (trap) begin
      pc_d            = pc_q;
      exec_d          = exec_q;
      wb_en           = 1'b0;
      stk_push        = 1'b0;
      stk_pop         = 1'b0;
      stk_set_pending = 1'b0;
      lsu_req_o       = 1'b0;
      state_d         = StIdle;
    end else if (halt) begin
      state_d = StIdle;
    end
  end

  assign instret_d = clear ? '0 : (retire ? instret_q + 64'd1 : instret_q);

  // ------------------------------------------------------------------------------ write back
  logic rd_scalar;
  assign rd_scalar = rd[5];
  // A vector destination is written in the active lanes, a scalar one always (s0: dropped).
  assign wr_en     = wb_en && rd_used && !(rd == 6'd32);
  assign wr_lanes  = rd_scalar ? NumLanes'(1) : exec_q;

  for (genvar l = 0; l < NumLanes; l++) begin : gen_wb
    logic [63:0] v;
    always_comb begin
      unique case (wb_sel)
        WbXbar:    v = {32'd0, xbar_res[l]};
        WbUniform: v = uniform;
        WbLaneIdx: v = 64'(l);
        WbLoad:    v = ext_dt(lsu_rdata_i[l], dt);
        default:   v = lane_res[l];
      endcase
    end
    assign wr_lo[l] = v[31:0];
    assign wr_hi[l] = rd_pair ? v[63:32] : 32'd0;
  end

  // ------------------------------------------------------------------------------ retire port
  logic                      rvfi_valid_q, rvfi_trap_q, rvfi_halt_q, rvfi_rd_we_q, rvfi_rd_pair_q;
  logic [63:0]               rvfi_order_q, rvfi_insn_q;
  logic [31:0]               rvfi_pc_q, rvfi_tval_q;
  logic [7:0]                rvfi_cause_q;
  logic [5:0]                rvfi_rd_q;
  logic [NumLanes-1:0]       rvfi_mask_q, rvfi_exec_q;
  logic [NumLanes-1:0][31:0] rvfi_lo_q, rvfi_hi_q;
  logic                      insn_known;

  // A vector write with no active lane is reported as no write.
  logic rvfi_we;
  assign rvfi_we = wr_en && (wr_lanes != '0);

  // Fetch traps and the watchdog have no instruction word.
  assign insn_known = !(trap && (cause == CauseWatchdog || cause == CauseFetchFault ||
                                 cause == CauseFetchBusError));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rvfi_valid_q   <= 1'b0;
      rvfi_order_q   <= '0;
      rvfi_pc_q      <= '0;
      rvfi_insn_q    <= '0;
      rvfi_trap_q    <= 1'b0;
      rvfi_cause_q   <= '0;
      rvfi_tval_q    <= '0;
      rvfi_halt_q    <= 1'b0;
      rvfi_rd_we_q   <= 1'b0;
      rvfi_rd_q      <= '0;
      rvfi_rd_pair_q <= 1'b0;
      rvfi_mask_q    <= '0;
      rvfi_exec_q    <= '0;
      rvfi_lo_q      <= '0;
      rvfi_hi_q      <= '0;
    end else begin
      rvfi_valid_q <= retire;
      if (retire) begin
        rvfi_order_q   <= instret_q;
        rvfi_pc_q      <= pc_q;
        rvfi_insn_q    <= insn_known ? insn : 64'd0;
        rvfi_trap_q    <= trap;
        rvfi_cause_q   <= cause;
        rvfi_tval_q    <= tval;
        rvfi_halt_q    <= halt;
        rvfi_rd_we_q   <= rvfi_we;
        rvfi_rd_q      <= rvfi_we ? rd : 6'd0;
        rvfi_rd_pair_q <= rvfi_we && rd_pair;
        rvfi_mask_q    <= rvfi_we ? wr_lanes : '0;
        rvfi_exec_q    <= exec_d;
        for (int unsigned l = 0; l < NumLanes; l++) begin
          rvfi_lo_q[l] <= (rvfi_we && wr_lanes[l]) ? wr_lo[l] : 32'd0;
          rvfi_hi_q[l] <= (rvfi_we && wr_lanes[l]) ? wr_hi[l] : 32'd0;
        end
      end
    end
  end

  assign rvfi_valid_o     = rvfi_valid_q;
  assign rvfi_order_o     = rvfi_order_q;
  assign rvfi_pc_o        = rvfi_pc_q;
  assign rvfi_insn_o      = rvfi_insn_q;
  assign rvfi_trap_o      = rvfi_trap_q;
  assign rvfi_cause_o     = rvfi_cause_q;
  assign rvfi_tval_o      = rvfi_tval_q;
  assign rvfi_halt_o      = rvfi_halt_q;
  assign rvfi_rd_we_o     = rvfi_rd_we_q;
  assign rvfi_rd_o        = rvfi_rd_q;
  assign rvfi_rd_pair_o   = rvfi_rd_pair_q;
  assign rvfi_lane_mask_o = rvfi_mask_q;
  assign rvfi_data_lo_o   = rvfi_lo_q;
  assign rvfi_data_hi_o   = rvfi_hi_q;
  assign rvfi_exec_o      = rvfi_exec_q;

  // ------------------------------------------------------------------------------ status
  assign busy_o     = state_q != StIdle;
  assign done_o     = retire && halt;
  assign trap_o     = retire && trap;
  assign cause_o    = cause;
  assign trap_pc_o  = pc_q;
  assign trap_val_o = tval;
  assign cycles_o   = cycles_q;
  assign instret_o  = instret_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= StIdle;
      pc_q          <= '0;
      exec_q        <= '0;
      launch_mask_q <= '0;
      launch_size_q <= '0;
      cycles_q      <= '0;
      instret_q     <= '0;
      insn_q        <= '0;
    end else begin
      state_q       <= state_d;
      pc_q          <= pc_d;
      exec_q        <= exec_d;
      launch_mask_q <= launch_mask_d;
      launch_size_q <= launch_size_d;
      cycles_q      <= cycles_d;
      instret_q     <= instret_d;
      insn_q        <= insn_d;
    end
  end

  logic unused;
  assign unused = ^lane_res_valid ^ ^lsu_rdata_i[0][63:0] ^ ^imm[31:29] ^ rs3_pair ^ ^src_hi[2];

  `SGU_ASSERT_INIT(NumLanes_A, NumLanes == 8 || NumLanes == 16 || NumLanes == 32)
  `SGU_ASSERT_KNOWN(StateKnown_A, state_q)
  `SGU_ASSERT_KNOWN(RetireKnown_A, rvfi_valid_o)
  `SGU_ASSERT(LsuOnlyInRun_A, lsu_req_o |-> state_q == StRun)
  `SGU_ASSERT(DoneInMem_A, lsu_done_i |-> state_q == StMem)

endmodule
