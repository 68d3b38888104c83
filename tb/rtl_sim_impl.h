// SPDX-License-Identifier: Apache-2.0
// RtlSimImpl<V>: the RtlSim of one Verilated sgu_top class (Vsgu_top8, Vsgu_top16, Vsgu_top32).
// Included only by rtl_sim_<N>.cc, each of which instantiates it for its own model.
#ifndef SGU_TB_RTL_SIM_IMPL_H_
#define SGU_TB_RTL_SIM_IMPL_H_

#include <deque>
#include <memory>
#include <random>
#include <type_traits>

#include "rtl_sim.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace sgu::tb {

// Port access that works for narrow ports (C/S/I/QData) and wide ones (VlWide).
template <typename T>
uint32_t PortWord(const T& port, unsigned i) {
  if constexpr (std::is_integral_v<T>) {
    return i < 2 ? static_cast<uint32_t>(static_cast<uint64_t>(port) >> (32 * i)) : 0;
  } else {
    return port[i];
  }
}
template <typename T>
void SetPortWord(T& port, unsigned i, uint32_t w) {
  if constexpr (std::is_integral_v<T>) {
    if (i * 32 >= sizeof(T) * 8) return;
    uint64_t v = static_cast<uint64_t>(port);
    v = (v & ~(0xffffffffull << (32 * i))) | (static_cast<uint64_t>(w) << (32 * i));
    port = static_cast<T>(v);
  } else {
    port[i] = w;
  }
}
template <typename T>
uint64_t PortU64(const T& port) {
  return PortWord(port, 0) | (static_cast<uint64_t>(PortWord(port, 1)) << 32);
}

// kWave: the model was Verilated with --trace-fst (the checking build; the fast build has no
// waveform support, tb/rtl_sim.cc).
template <typename V, unsigned kLanes, unsigned kDataBits, bool kWave>
class RtlSimImpl final : public RtlSim {
 public:
  RtlSimImpl(const RtlSimOptions& opts, Memory* mem)
      : ctx_(std::make_unique<VerilatedContext>()),
        mem_(mem),
        lite_max_delay_(opts.lite_max_delay),
        lite_rng_(opts.seed ^ 0x6c697465ull),  // own stream: the memory's timing is unchanged
        axi_(mem->data(), mem->size(),
             [mem](uint32_t a, uint32_t n) { return mem->IsError(a, n); },
             AxiMemConfig{kDataBits / 8, opts.seed, opts.max_latency, opts.ready_percent}) {
    ctx_->traceEverOn(!opts.trace_path.empty());
    // X is a random value, drawn from a stream seeded per run: the initial value of every flop
    // and memory (--x-initial unique) and any X the RTL produces (--x-assign unique). State read
    // before it is written then differs from the model's and the lockstep checker reports it;
    // Verilator is two-state, so this is what stands in for SGU_ASSERT_KNOWN (sgu_assert.svh).
    // Set before the model is constructed: its constructor draws the initial values.
    ctx_->randReset(2);
    ctx_->randSeed(static_cast<int>((opts.seed * 0x9e3779b97f4a7c15ull) >> 33) | 1);
    top_ = std::make_unique<V>(ctx_.get(), "TOP");
    if (!opts.trace_path.empty()) {
      if constexpr (kWave) {
        fst_ = std::make_unique<VerilatedFstC>();
        top_->trace(fst_.get(), 99);
        // Time in ns, so that GTKWave shows a 100 MHz clock (kClockPeriodNs per cycle).
        fst_->set_time_unit("1ns");
        fst_->set_time_resolution("1ns");
        fst_->open(opts.trace_path.c_str());
        if (!fst_->isOpen()) throw RtlSimError("cannot open waveform file " + opts.trace_path);
      } else {
        throw RtlSimError("this build of the SIMD" + std::to_string(kLanes) +
                          " model has no waveform support");
      }
    }
  }
  ~RtlSimImpl() override { Finish(); }

  unsigned num_lanes() const override { return kLanes; }
  unsigned axi_data_bits() const override { return kDataBits; }
  uint64_t cycle() const override { return cycle_; }
  const AxiMemory& axi() const override { return axi_; }
  bool irq() const override { return top_->irq_o; }
  uint64_t lite_response_stalls() const override { return lite_stalls_; }

  void Reset() override {
    held_.clear();
    top_->rst_ni = 0;
    // Assertions are off while reset is held: they are disabled in reset anyway (disable iff),
    // but the first clock edge would see Verilator's sampled copies of rst_ni and the other
    // operands (__Vsampled_*, $past) at their random initial values (randReset(2)).
    // The memory sees an idle master meanwhile: before the first edge the design's outputs are
    // random too (its flops are reset at that edge), as a memory held in reset would ignore them.
    ctx_->assertOn(false);
    in_reset_ = true;
    for (int i = 0; i < 4; ++i) Tick();
    in_reset_ = false;
    ctx_->assertOn(true);
    top_->rst_ni = 1;
    Tick();
  }

  void WriteCsr(uint32_t addr, uint32_t value) override { Write(addr, value, true); }

  uint32_t ReadCsr(uint32_t addr) override {
    lite_ = LiteOp{false, addr, 0};
    DrawLiteDelays();
    RunLite();
    if (lite_.resp != 0) {
      throw RtlSimError("AXI4-Lite read of 0x" + Hex(addr) + " got response " +
                        std::to_string(lite_.resp));
    }
    return lite_.rdata;
  }

  void Launch(const LaunchParams& p, uint32_t watchdog_cycles) override {
    WriteCsr(isa::csr::kPcStart, p.pc_start);
    WriteCsr(isa::csr::kLanes, p.lanes);
    WriteCsr(isa::csr::kMemBase, p.mem_base);
    WriteCsr(isa::csr::kMemLimit, p.mem_limit);
    WriteCsr(isa::csr::kWatchdog, watchdog_cycles);
    for (unsigned i = 0; i < 8; ++i) WriteCsr(isa::csr::kArg0 + 4 * i, p.args[i]);
    // The start write's response is taken at once, so that a run's cycle count (from the
    // return of Launch) means the same with and without random master timing.
    Write(isa::csr::kCtrl, 1, false);
  }

  std::optional<RtlRetire> Tick() override {
    if (!held_.empty()) {
      RtlRetire r = std::move(held_.front());
      held_.pop_front();
      return r;
    }
    return Cycle();
  }

 private:
  // One clock cycle; the retire record if one appeared in it.
  std::optional<RtlRetire> Cycle() {
    V& t = *top_;
    // Clock low: the memory drives its outputs for this cycle, the AXI4-Lite master its own.
    ReadMasterOutputs();
    axi_.DriveOutputs(pins_);
    WriteSlaveInputs();
    DriveLite();
    t.clk_i = 0;
    t.eval();
    if (kWave && fst_) fst_->dump(kClockPeriodNs * cycle_);
    // Just before the edge: everything the edge samples is settled.
    ReadMasterOutputs();
    SampleLite();
    axi_.Clock(pins_);
    t.clk_i = 1;
    t.eval();
    if (kWave && fst_) fst_->dump(kClockPeriodNs * cycle_ + kClockPeriodNs / 2);
    ++cycle_;
    for (AxiWrite& w : axi_.TakeWrites()) pending_writes_.push_back(w);
    if (!t.rvfi_valid_o) return std::nullopt;
    RtlRetire r;
    r.cycle = cycle_;
    Retire& rec = r.rec;
    rec.order = t.rvfi_order_o;
    rec.pc = t.rvfi_pc_o;
    rec.insn = t.rvfi_insn_o;
    rec.trap = t.rvfi_trap_o;
    rec.cause = static_cast<isa::Cause>(t.rvfi_cause_o);
    rec.tval = t.rvfi_tval_o;
    rec.halt = t.rvfi_halt_o;
    rec.rd_we = t.rvfi_rd_we_o;
    rec.rd = t.rvfi_rd_o;
    rec.rd_pair = t.rvfi_rd_pair_o;
    rec.lane_mask = static_cast<uint32_t>(t.rvfi_lane_mask_o);
    for (unsigned l = 0; l < kLanes; ++l) {
      rec.data_lo[l] = PortWord(t.rvfi_data_lo_o, l);
      rec.data_hi[l] = PortWord(t.rvfi_data_hi_o, l);
    }
    rec.exec = static_cast<uint32_t>(t.rvfi_exec_o);
    r.axi_writes.swap(pending_writes_);
    return r;
  }


 public:
  void Finish() override {
    if (top_ && !finished_) {
      top_->final();
      finished_ = true;
    }
    if (fst_) {
      fst_->close();
      fst_.reset();
    }
  }

 private:
  struct LiteOp {
    bool write = false;
    uint32_t addr = 0, data = 0;
    bool addr_done = false, data_done = false, done = false;
    uint32_t rdata = 0;
    uint8_t resp = 0;
    bool active = false;
    // Random timing of the master (lite_max_delay): cycles before AWVALID / WVALID (ARVALID
    // goes with aw_delay), and cycles of a raised response before READY.
    unsigned aw_delay = 0, w_delay = 0, ready_delay = 0;
    unsigned cycles = 0;         // cycles since the access began
    unsigned resp_waited = 0;    // edges at which the response was offered and not taken
  };

  // Delays of the next access, 0..lite_max_delay each, from the seeded stream (the top 32 bits
  // of one draw, multiply-shift mapped, as the AXI memory model does).
  unsigned LiteDelay() {
    return static_cast<unsigned>(((lite_rng_() >> 32) * (lite_max_delay_ + 1)) >> 32);
  }
  void DrawLiteDelays() {
    if (lite_max_delay_ == 0) return;
    lite_.aw_delay = LiteDelay();
    lite_.w_delay = LiteDelay();
    lite_.ready_delay = LiteDelay();
  }

  static std::string Hex(uint32_t v) {
    char b[16];
    snprintf(b, sizeof b, "%02x", v);
    return b;
  }

  // One write; late_ready: the response may wait ready_delay cycles for BREADY.
  void Write(uint32_t addr, uint32_t value, bool late_ready) {
    lite_ = LiteOp{true, addr, value};
    DrawLiteDelays();
    if (!late_ready) lite_.ready_delay = 0;
    RunLite();
    if (lite_.resp != 0) {
      throw RtlSimError("AXI4-Lite write to 0x" + Hex(addr) + " got response " +
                        std::to_string(lite_.resp));
    }
  }
  void RunLite() {
    lite_.active = true;
    // A kernel may retire instructions while the access runs (a slow master, a read of STATUS
    // during a run): Tick returns those records first.
    for (int i = 0; i < 1000 && !lite_.done; ++i) {
      if (std::optional<RtlRetire> r = Cycle()) held_.push_back(std::move(*r));
    }
    lite_.active = false;
    DriveLite();
    if (!lite_.done) throw RtlSimError("AXI4-Lite access to 0x" + Hex(lite_.addr) + " timed out");
  }

  void DriveLite() {
    V& t = *top_;
    // VALIDs rise after their delay and stay up until their handshake; READY rises once the
    // response has been offered for ready_delay edges (with no delays: all at once, as before).
    const bool a = lite_.active && !lite_.done;
    const bool aw_on = lite_.cycles >= lite_.aw_delay, w_on = lite_.cycles >= lite_.w_delay;
    const bool ready = lite_.resp_waited >= lite_.ready_delay;
    t.s_axil_awvalid_i = a && lite_.write && !lite_.addr_done && aw_on;
    t.s_axil_awaddr_i = lite_.addr;
    t.s_axil_wvalid_i = a && lite_.write && !lite_.data_done && w_on;
    t.s_axil_wdata_i = lite_.data;
    t.s_axil_wstrb_i = 0xf;
    t.s_axil_bready_i = a && lite_.write && ready;
    t.s_axil_arvalid_i = a && !lite_.write && !lite_.addr_done && aw_on;
    t.s_axil_araddr_i = lite_.addr;
    t.s_axil_rready_i = a && !lite_.write && ready;
  }

  void SampleLite() {
    V& t = *top_;
    if (!lite_.active || lite_.done) return;
    ++lite_.cycles;
    const bool resp_valid = lite_.write ? t.s_axil_bvalid_o : t.s_axil_rvalid_o;
    const bool resp_ready = lite_.write ? t.s_axil_bready_i : t.s_axil_rready_i;
    if (resp_valid && !resp_ready) {
      ++lite_.resp_waited;
      ++lite_stalls_;
    }
    if (lite_.write) {
      if (t.s_axil_awvalid_i && t.s_axil_awready_o) lite_.addr_done = true;
      if (t.s_axil_wvalid_i && t.s_axil_wready_o) lite_.data_done = true;
      if (t.s_axil_bvalid_o && t.s_axil_bready_i) {
        lite_.resp = t.s_axil_bresp_o;
        lite_.done = true;
      }
    } else {
      if (t.s_axil_arvalid_i && t.s_axil_arready_o) lite_.addr_done = true;
      if (t.s_axil_rvalid_o && t.s_axil_rready_i) {
        lite_.rdata = t.s_axil_rdata_o;
        lite_.resp = t.s_axil_rresp_o;
        lite_.done = true;
      }
    }
  }

  void ReadMasterOutputs() {
    V& t = *top_;
    if (in_reset_) {
      pins_.arvalid = pins_.rready = pins_.awvalid = pins_.wvalid = pins_.bready = false;
      return;
    }
    pins_.arvalid = t.m_axi_arvalid_o;
    pins_.araddr = t.m_axi_araddr_o;
    pins_.arlen = t.m_axi_arlen_o;
    pins_.arsize = t.m_axi_arsize_o;
    pins_.arburst = t.m_axi_arburst_o;
    pins_.arid = t.m_axi_arid_o;
    pins_.rready = t.m_axi_rready_o;
    pins_.awvalid = t.m_axi_awvalid_o;
    pins_.awaddr = t.m_axi_awaddr_o;
    pins_.awlen = t.m_axi_awlen_o;
    pins_.awsize = t.m_axi_awsize_o;
    pins_.awburst = t.m_axi_awburst_o;
    pins_.awid = t.m_axi_awid_o;
    pins_.wvalid = t.m_axi_wvalid_o;
    for (unsigned i = 0; i < kDataBits / 32; ++i) pins_.wdata[i] = PortWord(t.m_axi_wdata_o, i);
    pins_.wstrb = PortU64(t.m_axi_wstrb_o);
    pins_.wlast = t.m_axi_wlast_o;
    pins_.bready = t.m_axi_bready_o;
  }

  void WriteSlaveInputs() {
    V& t = *top_;
    t.m_axi_arready_i = pins_.arready;
    t.m_axi_rvalid_i = pins_.rvalid;
    for (unsigned i = 0; i < kDataBits / 32; ++i) SetPortWord(t.m_axi_rdata_i, i, pins_.rdata[i]);
    t.m_axi_rresp_i = pins_.rresp;
    t.m_axi_rlast_i = pins_.rlast;
    t.m_axi_rid_i = pins_.rid;
    t.m_axi_awready_i = pins_.awready;
    t.m_axi_wready_i = pins_.wready;
    t.m_axi_bvalid_i = pins_.bvalid;
    t.m_axi_bresp_i = pins_.bresp;
    t.m_axi_bid_i = pins_.bid;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<V> top_;
  std::unique_ptr<VerilatedFstC> fst_;
  Memory* mem_;
  unsigned lite_max_delay_;
  std::mt19937_64 lite_rng_;
  AxiMemory axi_;
  AxiPins pins_;
  LiteOp lite_;
  uint64_t lite_stalls_ = 0;
  std::vector<AxiWrite> pending_writes_;
  std::deque<RtlRetire> held_;  // records retired during AXI4-Lite accesses, for Tick
  bool in_reset_ = false;       // Reset holds rst_ni low: the memory sees an idle master
  uint64_t cycle_ = 0;
  bool finished_ = false;
};

}  // namespace sgu::tb

#endif  // SGU_TB_RTL_SIM_IMPL_H_
