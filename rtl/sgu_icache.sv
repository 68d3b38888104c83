// SPDX-License-Identifier: Apache-2.0
// SGU instruction cache: direct-mapped, CacheBytes in LineBytes lines, refilled by AXI4 INCR bursts.
//
// Core side (the interface of the former one-line fetch buffer): the core presents pc_i with
// req_i; when the line holding pc_i is in the cache, valid_o is high in the same cycle with the
// instruction word (zero latency on a hit, so straight-line code and every loop that fits in the
// cache issue one instruction per cycle once its lines are in). On a miss the unit fetches the
// aligned line (Beats = LineBytes / (AxiDataWidth/8) beats, one INCR burst) into the line's
// slot, and valid_o rises in the cycle after the last beat. pc_i may change while a refill is in
// progress (the core's fetch stage is redirected by a mispredicted branch): the refill completes
// into its slot, and the new pc hits any other valid line meanwhile or misses once the refill is
// done. flush_i (kernel start) invalidates every line; a refill in progress completes but its
// line is dropped. Stores do not update the cache (self-modifying code is unsupported).
//
// Organisation:
//   pc_i = | tag: 31..CacheShift | index: CacheShift-1..OffsetShift | beat | word | 000 |
//   valid_q[NumLines]                 flops (a flush clears them in one cycle)
//   tag_mem[NumLines]                 TagBits wide, written when a refill starts
//   data_mem[NumLines * Beats]        AxiDataWidth wide (one entry per beat of a line), written
//                                     beat by beat; read at pc_i[CacheShift-1:BeatShift]
//   pre_mem[NumLines * Beats]         the predecoded fields of each word of the entry
//                                     (sgu_predecode, one per word of the beat on r_data_i),
//                                     written and read with data_mem: pre_o is the word's
//                                     sgu_pkg::predec_t, so that the core's fetch stage and
//                                     D's queue read them from RAM, not from a decoder behind
//                                     the word select (docs/architecture.md "Pipeline").
// Both arrays have one synchronous write port and one asynchronous read port, the shape of
// FPGA distributed RAM (ECP5 DPR16X4): the read address is pc_i, which the core holds in a
// register, so the combinational core gets its word with zero latency. Block RAM (ECP5 EBR)
// needs the address one cycle ahead; a pipelined core's fetch stage provides that (its next pc),
// at which point the same arrays are read with a registered address (docs/architecture.md).
//
// Bus errors: the response of every beat of a refill is kept in err_q. A refill with no error
// makes its line valid. A refill with an error does not: its line is usable only as the last
// refill (eline_valid_q, tag fill_addr_q, per-beat errors err_q) until the next refill or flush,
// like the former line buffer, so the word the core waits for is delivered (bus_err_o set when
// its beat erred: the core traps FetchBusError) and the words of good beats of that line can be
// executed; once another line is refilled, the errored line misses again and is refetched.
//
// Counters (performance, not architecture; cleared by flush_i; each counts one cycle after its
// event): misses_o counts refills started, hits_o counts instructions delivered (req_i &&
// valid_o) that did not wait for a refill. Both count the fetch stage's requests, which include
// the words fetched on a mispredicted path and after the last instruction, so hits + misses is
// at least the number of instructions retired.
//
// AXI rules obeyed: AR held until ready with a stable payload; R accepted every cycle.

`include "sgu_assert.svh"

module sgu_icache #(
  parameter int unsigned NumLanes     = 16,    // SIMD width (the predecoder's parameter)
  parameter int unsigned AxiDataWidth = 64,    // AXI data width in bits: 64..512
  parameter int unsigned CacheBytes   = 1024,  // capacity: a power of two, 256..8192
  parameter int unsigned LineBytes    = 64     // line: a power of two, AxiDataWidth/8..64
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    flush_i,     // invalidate every line, clear the counters
  input  logic                    req_i,       // the core wants the word at pc_i
  input  logic [31:0]             pc_i,        // multiple of 8; stable while req_i && !valid_o
  output logic                    valid_o,     // insn_o / bus_err_o hold the word at pc_i
  output logic [63:0]             insn_o,
  output sgu_pkg::predec_t        pre_o,       // insn_o's predecoded fields
  output logic                    bus_err_o,   // the word came back with an AXI error
  output logic [63:0]             hits_o,      // deliveries without a refill since the flush
  output logic [63:0]             misses_o,    // refills started since the flush
  // AXI4 master read channels (one burst per line).
  output logic                    ar_valid_o,
  input  logic                    ar_ready_i,
  output logic [31:0]             ar_addr_o,
  output logic [7:0]              ar_len_o,
  output logic [2:0]              ar_size_o,
  input  logic                    r_valid_i,
  output logic                    r_ready_o,
  input  logic [AxiDataWidth-1:0] r_data_i,
  input  logic [1:0]              r_resp_i,
  input  logic                    r_last_i
);
  localparam int unsigned BeatBytes    = AxiDataWidth / 8;
  localparam int unsigned Beats        = LineBytes / BeatBytes;
  localparam int unsigned NumLines     = CacheBytes / LineBytes;
  localparam int unsigned Entries      = CacheBytes / BeatBytes;
  localparam int unsigned WordsPerBeat = BeatBytes / 8;
  localparam int unsigned BeatShift    = $clog2(BeatBytes);
  localparam int unsigned OffsetShift  = $clog2(LineBytes);
  localparam int unsigned CacheShift   = $clog2(CacheBytes);
  localparam int unsigned IndexBits    = CacheShift - OffsetShift;
  localparam int unsigned TagBits      = 32 - CacheShift;
  localparam int unsigned LineBits     = 32 - OffsetShift;   // line address: pc[31:OffsetShift]
  localparam int unsigned EntryBits    = CacheShift - BeatShift;
  localparam int unsigned BeatSelBits  = (Beats > 1) ? $clog2(Beats) : 1;
  localparam int unsigned WordSelBits  = (WordsPerBeat > 1) ? $clog2(WordsPerBeat) : 1;

  typedef enum logic [1:0] {
    StIdle,
    StAddr,
    StData
  } state_e;

  // ------------------------------------------------------------------------------ storage
  logic [TagBits-1:0]      tag_mem  [NumLines];
  logic [AxiDataWidth-1:0] data_mem [Entries];
  sgu_pkg::predec_t [WordsPerBeat-1:0] pre_mem [Entries];
  sgu_pkg::predec_t [WordsPerBeat-1:0] pre_wdata;  // the beat's words predecoded
  logic [NumLines-1:0]     valid_q, valid_d;

  logic                    tag_we;
  logic [IndexBits-1:0]    tag_waddr;
  logic [TagBits-1:0]      tag_wdata;
  logic                    data_we;
  logic [EntryBits-1:0]    data_waddr;

  always_ff @(posedge clk_i) begin
    if (tag_we) begin
      tag_mem[tag_waddr] <= tag_wdata;
    end
  end

  for (genvar w = 0; w < WordsPerBeat; w++) begin : gen_pre
    sgu_predecode #(
      .NumLanes(NumLanes)
    ) u_pre (
      .insn_i(r_data_i[64*w +: 64]),
      .pre_o (pre_wdata[w])
    );
  end

  always_ff @(posedge clk_i) begin
    if (data_we) begin
      data_mem[data_waddr] <= r_data_i;
      pre_mem[data_waddr]  <= pre_wdata;
    end
  end

  // ------------------------------------------------------------------------------ lookup
  state_e                  state_q, state_d;
  logic [LineBits-1:0]     fill_addr_q, fill_addr_d;   // line being / last refilled
  logic [OffsetShift-1:0]  fill_off_q, fill_off_d;     // byte offset of the next beat
  logic [Beats-1:0]        err_q, err_d;               // per-beat errors of that refill
  logic                    eline_valid_q, eline_valid_d;  // last refill erred, line usable
  logic                    drop_q, drop_d;             // flushed during the refill
  logic                    missed_q, missed_d;         // the pending access started a refill
  logic [63:0]             hits_q, misses_q;
  logic                    hit_cnt, miss_cnt;          // count a delivery / refill start

  logic [IndexBits-1:0]    index;
  logic [TagBits-1:0]      tag;
  logic [EntryBits-1:0]    entry;
  logic [BeatSelBits-1:0]  beat_sel;
  logic [WordSelBits-1:0]  word_sel;
  logic [AxiDataWidth-1:0] entry_data;
  logic [WordsPerBeat-1:0][63:0] entry_words;
  sgu_pkg::predec_t [WordsPerBeat-1:0] entry_pre;
  logic                    line_hit, eline_hit, hit;

  assign index       = pc_i[CacheShift-1:OffsetShift];
  assign tag         = pc_i[31:CacheShift];
  assign entry       = pc_i[CacheShift-1:BeatShift];
  if (Beats > 1) begin : gen_beat_sel
    assign beat_sel = pc_i[OffsetShift-1:BeatShift];
  end else begin : gen_one_beat
    assign beat_sel = '0;
  end
  if (WordsPerBeat > 1) begin : gen_word_sel
    assign word_sel = pc_i[BeatShift-1:3];
  end else begin : gen_one_word
    assign word_sel = '0;
  end
  assign entry_data  = data_mem[entry];
  assign entry_words = entry_data;
  assign entry_pre   = pre_mem[entry];

  // The tag compare on a carry chain: ~(stored ^ tag) + 1 carries out exactly when every bit
  // is equal. As a LUT tree ABC mapped it as a serial chain (five LUT4 after the tag RAM, then
  // the hit into F's pc and D's queue: 9 LUT4 in all, the deepest path of the SIMD16 depth
  // model at 6de888c; docs/timing.md).
  logic [TagBits:0] tag_run;
  assign tag_run   = {1'b0, ~(tag_mem[index] ^ tag)} + (TagBits + 1)'(1);
  assign line_hit  = valid_q[index] && tag_run[TagBits];
  assign eline_hit = eline_valid_q && (fill_addr_q == pc_i[31:OffsetShift]);
  assign hit       = line_hit || eline_hit;

  assign valid_o   = req_i && hit;
  assign insn_o    = entry_words[word_sel];
  assign pre_o     = entry_pre[word_sel];
  assign bus_err_o = eline_hit && err_q[beat_sel];
  assign hits_o    = hits_q;
  assign misses_o  = misses_q;

  // ------------------------------------------------------------------------------ refill
  logic [31:0]            fill_beat_addr;
  logic [BeatSelBits-1:0] fill_beat;  // index of the beat being received
  assign fill_beat_addr = {fill_addr_q, fill_off_q};
  if (Beats > 1) begin : gen_fill_beat
    assign fill_beat = fill_off_q[OffsetShift-1:BeatShift];
  end else begin : gen_fill_one_beat
    assign fill_beat = '0;
  end

  assign ar_valid_o = state_q == StAddr;
  assign ar_addr_o  = {fill_addr_q, OffsetShift'(0)};
  assign ar_len_o   = 8'(Beats - 1);
  assign ar_size_o  = 3'(BeatShift);
  assign r_ready_o  = state_q == StData;

  assign data_we    = (state_q == StData) && r_valid_i;
  assign data_waddr = fill_beat_addr[CacheShift-1:BeatShift];
  assign tag_waddr  = index;
  assign tag_wdata  = tag;

  always_comb begin
    state_d       = state_q;
    valid_d       = valid_q;
    fill_addr_d   = fill_addr_q;
    fill_off_d    = fill_off_q;
    err_d         = err_q;
    eline_valid_d = eline_valid_q;
    drop_d        = drop_q || flush_i;
    missed_d      = missed_q;
    hit_cnt       = valid_o && !missed_q;
    miss_cnt      = 1'b0;
    tag_we        = 1'b0;

    if (valid_o) begin
      missed_d = 1'b0;
    end

    unique case (state_q)
      StIdle: begin
        if (req_i && !hit && !flush_i) begin
          // Miss: the slot is invalid from now on; its new tag is written right away.
          valid_d[index] = 1'b0;
          tag_we         = 1'b1;
          fill_addr_d    = pc_i[31:OffsetShift];
          fill_off_d     = '0;
          err_d          = '0;
          eline_valid_d  = 1'b0;
          drop_d         = 1'b0;
          missed_d       = 1'b1;
          miss_cnt       = 1'b1;
          state_d        = StAddr;
        end
      end
      StAddr: begin
        if (ar_ready_i) begin
          state_d = StData;
        end
      end
      StData: begin
        if (r_valid_i) begin
          err_d[fill_beat] = r_resp_i[1];
          fill_off_d = fill_off_q + OffsetShift'(BeatBytes);
          if (r_last_i) begin
            state_d = StIdle;
            if (!drop_q && !flush_i) begin
              if (err_d == '0) begin
                valid_d[fill_addr_q[IndexBits-1:0]] = 1'b1;
              end else begin
                eline_valid_d = 1'b1;
              end
            end
          end
        end
      end
      default: state_d = StIdle;
    endcase

    // Kernel start: nothing cached survives, the counters start from zero.
    if (flush_i) begin
      valid_d       = '0;
      eline_valid_d = 1'b0;
      missed_d      = 1'b0;
      hit_cnt       = 1'b0;
      miss_cnt      = 1'b0;
    end
  end

  // The counters count one cycle after the event (a registered increment), so that the
  // lookup's hit, the last signal of the fetch stage, does not also enable 2 x 64 flip-flops
  // (docs/timing.md "Timing of the pipelined core"). A kernel's counts are complete long before
  // it ends: its last fetch is several cycles before its last retirement.
  logic hit_cnt_q, miss_cnt_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hit_cnt_q  <= 1'b0;
      miss_cnt_q <= 1'b0;
      hits_q     <= '0;
      misses_q   <= '0;
    end else begin
      hit_cnt_q  <= hit_cnt;
      miss_cnt_q <= miss_cnt;
      if (flush_i) begin
        hits_q   <= '0;
        misses_q <= '0;
      end else begin
        if (hit_cnt_q)  hits_q   <= hits_q + 64'd1;
        if (miss_cnt_q) misses_q <= misses_q + 64'd1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= StIdle;
      valid_q       <= '0;
      fill_addr_q   <= '0;
      fill_off_q    <= '0;
      err_q         <= '0;
      eline_valid_q <= 1'b0;
      drop_q        <= 1'b0;
      missed_q      <= 1'b0;
    end else begin
      state_q       <= state_d;
      valid_q       <= valid_d;
      fill_addr_q   <= fill_addr_d;
      fill_off_q    <= fill_off_d;
      err_q         <= err_d;
      eline_valid_q <= eline_valid_d;
      drop_q        <= drop_d;
      missed_q      <= missed_d;
    end
  end

  logic unused;
  assign unused = r_resp_i[0] ^ ^pc_i[2:0] ^ ^fill_beat_addr[31:CacheShift] ^
                  ^fill_beat_addr[BeatShift-1:0] ^ ^pc_i[OffsetShift-1:3] ^ ^fill_off_q;

  `SGU_ASSERT_INIT(CacheBytes_A, CacheBytes >= 256 && CacheBytes <= 8192 &&
                                 (CacheBytes & (CacheBytes - 1)) == 0)
  `SGU_ASSERT_INIT(LineBytes_A, LineBytes >= BeatBytes && LineBytes <= 64 &&
                                (LineBytes & (LineBytes - 1)) == 0 && LineBytes < CacheBytes)
  `SGU_ASSERT(ArStable_A, ar_valid_o && !ar_ready_i |=> ar_valid_o && $stable(ar_addr_o))
  `SGU_ASSERT(PcAligned_A, req_i |-> pc_i[2:0] == '0)
  // The burst has exactly Beats beats.
  `SGU_ASSERT(LastBeat_A, r_valid_i && r_ready_o |->
                          r_last_i == (fill_off_q == OffsetShift'(LineBytes - BeatBytes)))
  // An errored line is never cached as valid, so at most one of the two can hit.
  `SGU_ASSERT(OneHitSource_A, !(line_hit && eline_hit))

endmodule
