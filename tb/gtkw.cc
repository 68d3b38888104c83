// SPDX-License-Identifier: Apache-2.0
// GTKWave save file writer (see gtkw.h). Signal names are those GTKWave gives the FST that
// Verilator writes: TOP.sgu_top.<instance>.<signal>[msb:lsb], generate blocks as gen_name[i].
// The save file syntax (GTKWave 3.3 savefile.c): "@flags" sets the flags of the traces that
// follow, "-name" is a blank/group row, "+{alias} signal" renames a trace, "(n)signal[m:l]" is
// bit n of a vector counted from its msb, "#{name} bit bit ..." concatenates bits into one
// vector, "^>1 program argument" attaches a translate filter process, "*zoom marker" sets the
// zoom (200 * 2^zoom pixels per time unit).
#include "gtkw.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "gtkw_filter.h"
#include "gtkwave/fstapi.h"
#include "rtl_sim.h"

#ifndef SGU_GTKW_FILTER
#define SGU_GTKW_FILTER "sgu-gtkw-filter"
#endif

namespace sgu::tb {
namespace {

// Trace flags (GTKWave analyzer.h TR_*).
constexpr uint64_t kTrHex = 1u << 1;
constexpr uint64_t kTrBin = 1u << 3;
constexpr uint64_t kTrRjustify = 1u << 5;
constexpr uint64_t kTrBlank = 1u << 9;
constexpr uint64_t kTrCollapsed = 1u << 12;    // hidden row (the end row of a closed group)
constexpr uint64_t kTrPtranslated = 1u << 14;  // shown through a translate filter process
constexpr uint64_t kTrClosed = 1u << 22;
constexpr uint64_t kTrGrpBegin = 1u << 23;
constexpr uint64_t kTrGrpEnd = 1u << 24;

constexpr unsigned kAxiIdBits = 4;  // sgu_top AxiIdWidth (default, not overridden by the tb)
// Width in pixels that the initial zoom fits the run into: in a 1600-pixel window with the pane
// widths below, GTKWave 3.3's wave pane is 1000 pixels wide; 5 % stay free on the right.
constexpr double kWavePanePixels = 950.0;
// GTKWave draws 2^zoom frames of 200 pixels per time unit (wavewindow.c calczoom, zoombase 2).
constexpr double kGtkwavePixelsPerFrame = 200.0;

std::string Absolute(const std::string& p) {
  return std::filesystem::absolute(p).lexically_normal().string();
}

// Writes traces with the group structure. GTKWave hides the rows of a closed group itself (it
// skips from the group's first row to its last, which is marked collapsed); the rows inside
// carry no flag of their own, so that opening a group shows its nested groups.
class Save {
 public:
  explicit Save(std::ostream& f) : f_(f) {}

  void Begin(const std::string& name, bool closed) {
    Flags(kTrBlank | kTrGrpBegin | (closed ? kTrClosed : 0));
    f_ << "-" << name << "\n";
    groups_.push_back({name, closed});
  }
  void End() {
    const Group g = groups_.back();
    groups_.pop_back();
    Flags(kTrBlank | kTrGrpEnd | (g.closed ? kTrClosed | kTrCollapsed : 0));
    f_ << "-" << g.name << "\n";
  }
  // A one-bit signal, or a vector [msb:0], of sgu_top (`s` relative to TOP.sgu_top).
  void Bit(const std::string& s) {
    Flags(kTrBin | kTrRjustify);
    f_ << Top(s) << "\n";
  }
  void Vec(const std::string& s, unsigned msb) {
    Flags(kTrHex | kTrRjustify);
    f_ << Top(s) << "[" << msb << ":0]\n";
  }
  // Bit `bit` of the vector s[msb:0], shown as `alias`.
  void BitOf(const std::string& alias, const std::string& s, unsigned msb, unsigned bit) {
    Flags(kTrBin | kTrRjustify);
    f_ << "+{" << alias << "} (" << msb - bit << ")" << Top(s) << "[" << msb << ":0]\n";
  }
  // A trace shown through the translate filter process `command` (program and one argument).
  // `vectors` (relative to TOP.sgu_top, with their msb) are concatenated, first one on the left.
  void Translated(const std::string& alias, const std::string& command,
                  const std::vector<std::pair<std::string, unsigned>>& vectors) {
    Flags(kTrHex | kTrRjustify | kTrPtranslated);
    f_ << "^>1 " << command << "\n";
    if (vectors.size() == 1) {
      f_ << "+{" << alias << "} " << Top(vectors[0].first) << "[" << vectors[0].second << ":0]\n";
      return;
    }
    f_ << "#{" << alias << "}";
    for (const auto& [s, msb] : vectors) {
      for (unsigned i = 0; i <= msb; ++i) f_ << " (" << i << ")" << Top(s) << "[" << msb << ":0]";
    }
    f_ << "\n";
  }
  void Color(unsigned c) { f_ << "[color] " << c << "\n"; }

 private:
  struct Group {
    std::string name;
    bool closed;
  };
  static std::string Top(const std::string& s) { return "TOP.sgu_top." + s; }
  void Flags(uint64_t flags) {
    char b[24];
    std::snprintf(b, sizeof b, "@%llx\n", static_cast<unsigned long long>(flags));
    f_ << b;
  }

  std::ostream& f_;
  std::vector<Group> groups_;
};

unsigned Log2(unsigned v) {
  unsigned r = 0;
  while ((1u << (r + 1)) <= v) ++r;
  return r;
}

}  // namespace

std::string GtkwLineTablePath(const std::string& gtkw_path) {
  const std::filesystem::path p(gtkw_path);
  return std::filesystem::path(p).replace_extension(".lines").string();
}

std::string DefaultGtkwFilter() { return SGU_GTKW_FILTER; }

FstHeader ReadFstHeader(const std::string& path) {
  void* ctx = fstReaderOpen(path.c_str());
  if (!ctx) throw std::runtime_error("cannot read waveform " + path);
  FstHeader h;
  h.timescale = fstReaderGetTimescale(ctx);
  h.start_time = fstReaderGetStartTime(ctx);
  h.end_time = fstReaderGetEndTime(ctx);
  std::vector<std::string> scopes;
  while (const fstHier* e = fstReaderIterateHier(ctx)) {
    if (e->htyp == FST_HT_SCOPE) {
      scopes.emplace_back(e->u.scope.name, e->u.scope.name_length);
    } else if (e->htyp == FST_HT_UPSCOPE) {
      if (!scopes.empty()) scopes.pop_back();
    } else if (e->htyp == FST_HT_VAR) {
      std::string name;
      for (const std::string& s : scopes) name += s + ".";
      // Verilator names a vector "sig [31:0]"; GTKWave drops the space.
      for (uint32_t i = 0; i < e->u.var.name_length; ++i) {
        if (e->u.var.name[i] != ' ') name += e->u.var.name[i];
      }
      h.signals.push_back(std::move(name));
    }
  }
  fstReaderClose(ctx);
  return h;
}

void WriteGtkw(const std::string& path, const std::string& fst_path, unsigned num_lanes) {
  GtkwOptions opts;
  opts.num_lanes = num_lanes;
  WriteGtkw(path, fst_path, opts);
}

void WriteGtkw(const std::string& path, const std::string& fst_path, const GtkwOptions& opts) {
  const unsigned n = opts.num_lanes;
  if (n != 8 && n != 16 && n != 32) {
    throw std::invalid_argument("SIMD width must be 8, 16 or 32, not " + std::to_string(n));
  }
  const unsigned dw = AxiDataBitsFor(n);
  uint64_t end_time = opts.cycles * kClockPeriodNs;
  if (end_time == 0) {
    try {
      end_time = ReadFstHeader(fst_path).end_time;
    } catch (const std::runtime_error&) {
      // Not readable (yet): GTKWave opens at its default zoom.
    }
  }

  // The instruction trace: the filter disassembles rvfi_insn_o; with a line table it also gets
  // rvfi_pc_o (the trace is {pc, insn}) and appends the source line.
  std::string command = opts.filter.empty() ? DefaultGtkwFilter() : opts.filter;
  std::vector<std::pair<std::string, unsigned>> insn_trace = {{"rvfi_insn_o", 63}};
  if (!opts.code.empty()) {
    LineTable table;
    for (const GtkwCode& c : opts.code) table.Add(c.base, c.size, c.lines, c.files);
    const std::string table_path = GtkwLineTablePath(path);
    table.Write(table_path);
    command += " " + Absolute(table_path);
    insn_trace.insert(insn_trace.begin(), {"rvfi_pc_o", 31});
  }

  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << "[*] SGU waveform view, generated by tb/gtkw.cc (docs/waveforms.md)\n"
    << "[dumpfile] \"" << Absolute(fst_path) << "\"\n"
    << "[savefile] \"" << Absolute(path) << "\"\n"
    << "[timestart] 0\n[size] 1600 1000\n[pos] -1 -1\n";
  if (end_time > 0) {
    // Fit [0, end] (ns) into the wave pane: 200 * 2^zoom pixels per ns.
    char zoom[64];
    std::snprintf(
        zoom, sizeof zoom, "*%.6f -1\n",
        -std::log2(static_cast<double>(end_time) * kGtkwavePixelsPerFrame / kWavePanePixels));
    f << zoom;
  }
  f << "[treeopen] TOP.\n[treeopen] TOP.sgu_top.\n"
    << "[sst_width] 220\n[signals_width] 300\n[sst_expanded] 1\n[sst_vpaned_height] 300\n";

  Save s(f);
  s.Begin("Control", false);
  s.Bit("clk_i");
  s.Bit("rst_ni");
  s.Bit("start");
  s.Bit("busy");
  s.Bit("irq_o");
  s.Bit("u_core.run_q");
  s.Vec("u_core.exec_q", n - 1);
  s.Bit("u_core.fetch_req_o");
  s.Vec("u_core.fetch_pc_o", 31);
  s.Bit("u_core.fetch_valid_i");
  s.Vec("u_core.fetch_insn_i", 63);
  s.Bit("u_core.lsu_req_o");
  s.Bit("u_core.lsu_store_o");
  s.Bit("u_core.lsu_done_i");
  s.Vec("u_core.cycles_q", 63);
  s.Vec("u_core.instret_q", 63);
  s.End();

  // One row per stage: valid and pc (docs/architecture.md "Pipeline").
  s.Begin("Pipeline", false);
  s.Vec("u_core.f_pc_q", 31);
  s.Vec("u_core.dq_valid_q", 1);  // D's queue: its slots' valid bits (D reads dq_rp_q's)
  s.Bit("u_core.d_valid");
  s.Vec("u_core.d_pc", 31);
  s.Bit("u_core.r_valid_q");
  s.Vec("u_core.r_pc_q", 31);
  s.Bit("u_core.hazard");
  s.Bit("u_core.xf_stall");
  s.Vec("u_core.xf3_lo_q", 1);  // rs1/rs2 low word forwarded from l2_val (distance 2)
  s.Bit("u_core.x_valid_q");
  s.Vec("u_core.x_pc_q", 31);
  s.Bit("u_core.x_done");
  s.Bit("u_core.redirect");
  s.Bit("u_core.long_issue");
  s.Bit("u_core.l2_shfl_q");
  s.Vec("u_core.rec_valid", 5);
  s.Bit("u_core.wr_en");
  s.Vec("u_core.wr_spec", 5);
  s.End();

  s.Begin("Retire port", false);
  s.Color(3);  // yellow; GTKWave applies a color to the next trace only
  s.Translated("instruction", command, insn_trace);
  s.Bit("rvfi_valid_o");
  s.Vec("rvfi_order_o", 63);
  s.Vec("rvfi_pc_o", 31);
  s.Vec("rvfi_insn_o", 63);
  s.Bit("rvfi_trap_o");
  s.Vec("rvfi_cause_o", 7);
  s.Vec("rvfi_tval_o", 31);
  s.Bit("rvfi_halt_o");
  s.Bit("rvfi_rd_we_o");
  s.Vec("rvfi_rd_o", 5);
  s.Bit("rvfi_rd_pair_o");
  s.Vec("rvfi_lane_mask_o", n - 1);
  s.Vec("rvfi_exec_o", n - 1);
  s.End();

  s.Begin("AXI4 master", true);
  s.Begin("AR (read address)", true);
  s.Bit("m_axi_arvalid_o");
  s.Bit("m_axi_arready_i");
  s.Vec("m_axi_arid_o", kAxiIdBits - 1);
  s.Vec("m_axi_araddr_o", 31);
  s.Vec("m_axi_arlen_o", 7);
  s.Vec("m_axi_arsize_o", 2);
  s.Vec("m_axi_arburst_o", 1);
  s.End();
  s.Begin("R (read data)", true);
  s.Bit("m_axi_rvalid_i");
  s.Bit("m_axi_rready_o");
  s.Vec("m_axi_rid_i", kAxiIdBits - 1);
  s.Vec("m_axi_rdata_i", dw - 1);
  s.Vec("m_axi_rresp_i", 1);
  s.Bit("m_axi_rlast_i");
  s.End();
  s.Begin("AW (write address)", true);
  s.Bit("m_axi_awvalid_o");
  s.Bit("m_axi_awready_i");
  s.Vec("m_axi_awid_o", kAxiIdBits - 1);
  s.Vec("m_axi_awaddr_o", 31);
  s.Vec("m_axi_awlen_o", 7);
  s.Vec("m_axi_awsize_o", 2);
  s.Vec("m_axi_awburst_o", 1);
  s.End();
  s.Begin("W (write data)", true);
  s.Bit("m_axi_wvalid_o");
  s.Bit("m_axi_wready_i");
  s.Vec("m_axi_wdata_o", dw - 1);
  s.Vec("m_axi_wstrb_o", dw / 8 - 1);
  s.Bit("m_axi_wlast_o");
  s.End();
  s.Begin("B (write response)", true);
  s.Bit("m_axi_bvalid_i");
  s.Bit("m_axi_bready_o");
  s.Vec("m_axi_bid_i", kAxiIdBits - 1);
  s.Vec("m_axi_bresp_i", 1);
  s.End();
  s.End();

  s.Begin("AXI4-Lite slave", true);
  s.Bit("s_axil_awvalid_i");
  s.Bit("s_axil_awready_o");
  s.Vec("s_axil_awaddr_i", 7);
  s.Bit("s_axil_wvalid_i");
  s.Bit("s_axil_wready_o");
  s.Vec("s_axil_wdata_i", 31);
  s.Vec("s_axil_wstrb_i", 3);
  s.Bit("s_axil_bvalid_o");
  s.Bit("s_axil_bready_i");
  s.Vec("s_axil_bresp_o", 1);
  s.Bit("s_axil_arvalid_i");
  s.Bit("s_axil_arready_o");
  s.Vec("s_axil_araddr_i", 7);
  s.Bit("s_axil_rvalid_o");
  s.Bit("s_axil_rready_i");
  s.Vec("s_axil_rdata_o", 31);
  s.Vec("s_axil_rresp_o", 1);
  s.End();

  for (unsigned l = 0; l < n; ++l) {
    const std::string i = "[" + std::to_string(l) + "]";
    const std::string lane = "u_core.gen_lane" + i + ".u_lane.";
    s.Begin("Lane " + std::to_string(l), true);
    s.BitOf("exec", "u_core.exec_q", n - 1, l);
    s.Vec(lane + "a_i", 63);
    s.Vec(lane + "b_i", 63);
    s.Vec(lane + "c_i", 63);
    s.Vec("u_core.gen_lane" + i + ".res_w", 63);  // X's result in this lane (to l2_data_q;
                                                     // a compare's, min's or max's: L2 picks it)
    s.Vec(lane + "sh_res_o", 31);  // a short shift's result, in L2 (its second half)
    s.Vec("u_core.gen_lane" + i + ".long_res_w", 63);  // the MFU result it writes in L7
    s.Vec("u_core.u_xbar.gen_lane" + i + ".src", Log2(n) - 1);
    s.Vec("u_core.gen_lane" + i + ".wr_w", 63);  // the value written (L2's or L7's)
    s.End();
  }
  if (!f) throw std::runtime_error("error writing " + path);
}

}  // namespace sgu::tb
