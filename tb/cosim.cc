// SPDX-License-Identifier: Apache-2.0
// Lockstep co-simulation checker (see cosim.h and docs/verification.md).
#include "cosim.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <sstream>

#include "sgu/asm.h"

namespace sgu::tb {
namespace {

std::string Hex(uint64_t v, int digits = 8) {
  char b[32];
  snprintf(b, sizeof b, "0x%0*" PRIx64, digits, v);
  return b;
}

std::string RegName(unsigned r) { return (r < 32 ? "v" : "s") + std::to_string(r % 32); }

// Bytes written by a list of stores, last write wins.
template <typename W>
std::map<uint32_t, uint8_t> ByteMap(const std::vector<W>& writes) {
  std::map<uint32_t, uint8_t> m;
  for (const W& w : writes) {
    for (uint32_t i = 0; i < w.size; ++i) m[w.addr + i] = static_cast<uint8_t>(w.data >> (8 * i));
  }
  return m;
}

// A mismatch report, its stream made at the first write (Stream).
class DiffText {
 public:
  std::ostream& Stream() {
    if (!s_) s_.emplace();
    return *s_;
  }
  bool empty() const { return !s_; }
  std::string str() const { return s_ ? s_->str() : std::string(); }

 private:
  std::optional<std::ostringstream> s_;
};

}  // namespace

const char* CosimStatusName(CosimStatus s) {
  switch (s) {
    case CosimStatus::kHalted: return "halted";
    case CosimStatus::kTrapped: return "trapped";
    case CosimStatus::kWatchdog: return "watchdog";
    case CosimStatus::kMismatch: return "mismatch";
    case CosimStatus::kHang: return "hang";
    case CosimStatus::kLimit: return "instruction-limit";
  }
  return "?";
}

Cosim::Cosim(const CosimOptions& opts, const Memory& image)
    : opts_(opts),
      rtl_mem_(image),
      model_mem_(image),
      rtl_(RtlSim::Create(opts.rtl, &rtl_mem_)),
      model_(opts.rtl.num_lanes, &model_mem_) {
  rtl_->Reset();
}

Cosim::~Cosim() = default;

void Cosim::HostWrite(uint32_t addr, const uint8_t* bytes, size_t n) {
  if (uint64_t{addr} + n > rtl_mem_.size()) {
    throw std::out_of_range("Cosim::HostWrite: [" + Hex(addr) + ", +" + std::to_string(n) +
                            ") is beyond the memory");
  }
  if (n == 0) return;
  std::memcpy(rtl_mem_.data() + addr, bytes, n);
  std::memcpy(model_mem_.data() + addr, bytes, n);
}

std::string Cosim::Compare(const RtlRetire& got, const Retire& want) const {
  const Retire& g = got.rec;
  const unsigned n = rtl_->num_lanes();
  // The text is built only once a field differs: a stream per record (its locale set-up) was
  // about 4 % of a lockstep run's time at SIMD32.
  DiffText d;
  auto field = [&](const char* name, uint64_t w, uint64_t a) {
    if (w != a) {
      d.Stream() << "  " << name << ": expected " << Hex(w) << ", actual " << Hex(a) << "\n";
    }
  };
  field("order", want.order, g.order);
  field("pc", want.pc, g.pc);
  field("insn", want.insn, g.insn);
  field("trap", want.trap, g.trap);
  if (want.trap || g.trap) {
    if (want.cause != g.cause) {
      d.Stream() << "  cause: expected " << isa::CauseName(want.cause) << ", actual "
                 << isa::CauseName(g.cause) << "\n";
    }
    field("tval", want.tval, g.tval);
  }
  field("halt", want.halt, g.halt);
  field("rd_we", want.rd_we, g.rd_we);
  if (want.rd_we && g.rd_we) {
    if (want.rd != g.rd) {
      d.Stream() << "  rd: expected " << RegName(want.rd) << ", actual " << RegName(g.rd) << "\n";
    }
    field("rd_pair", want.rd_pair, g.rd_pair);
    field("lane write mask", want.lane_mask, g.lane_mask);
    for (unsigned l = 0; l < n; ++l) {
      if (want.data_lo[l] != g.data_lo[l] || want.data_hi[l] != g.data_hi[l]) {
        d.Stream() << "  lane " << l << ": expected " << RegName(want.rd) << " = ";
        if (want.rd_pair) d.Stream() << Hex(want.data_hi[l]) << ":";
        d.Stream() << Hex(want.data_lo[l]) << ", actual ";
        if (want.rd_pair) d.Stream() << Hex(g.data_hi[l]) << ":";
        d.Stream() << Hex(g.data_lo[l]) << "\n";
      }
    }
  }
  field("exec", want.exec, g.exec);
  if (!want.mem_writes.empty() || !got.axi_writes.empty()) {
    const auto wm = ByteMap(want.mem_writes), gm = ByteMap(got.axi_writes);
    if (wm != gm) {
      d.Stream() << "  memory writes differ:\n";
      for (const auto& [a, v] : wm) {
        auto it = gm.find(a);
        if (it == gm.end()) {
          d.Stream() << "    " << Hex(a) << ": expected " << Hex(v, 2)
                     << ", RTL did not write it\n";
        } else if (it->second != v) {
          d.Stream() << "    " << Hex(a) << ": expected " << Hex(v, 2) << ", actual "
                     << Hex(it->second, 2) << "\n";
        }
      }
      for (const auto& [a, v] : gm) {
        if (!wm.count(a)) {
          d.Stream() << "    " << Hex(a) << ": RTL wrote " << Hex(v, 2) << ", model did not\n";
        }
      }
    }
  }
  if (d.empty()) return "";
  std::ostringstream r;
  r << "cosim mismatch at cycle " << got.cycle << ", instruction #" << want.order << " pc "
    << Hex(want.pc) << ": "
    << (want.insn ? Disassemble(want.insn) : std::string("(no instruction)")) << "\n"
    << d.str();
  return r.str();
}

CosimResult Cosim::Run(const LaunchParams& launch) {
  CosimResult res;
  model_.Start(launch);
  rtl_->Launch(launch, opts_.watchdog_cycles);
  const uint64_t start_cycle = rtl_->cycle();
  uint64_t last_retire_cycle = start_cycle;
  for (;;) {
    std::optional<RtlRetire> r = rtl_->Tick();
    if (!r) {
      if (rtl_->cycle() - last_retire_cycle > opts_.hang_cycles) {
        res.status = CosimStatus::kHang;
        res.report = "RTL retired nothing for " + std::to_string(opts_.hang_cycles) +
                     " cycles (cycle " + std::to_string(rtl_->cycle()) + ", model pc " +
                     Hex(model_.pc()) + ")";
        break;
      }
      continue;
    }
    last_retire_cycle = rtl_->cycle();
    res.last = r->rec;
    res.cycles = r->cycle - start_cycle;
    res.instructions = r->rec.order + 1;
    if (r->rec.trap && r->rec.cause == isa::Cause::kWatchdog) {
      // The watchdog's record names the oldest instruction that did not run (TRAP_PC): the
      // model's next one.
      if (opts_.check && model_.running() && r->rec.pc != model_.pc()) {
        res.status = CosimStatus::kMismatch;
        res.report = "watchdog record #" + std::to_string(r->rec.order) + " at pc " +
                     Hex(r->rec.pc) + ", but the model's next instruction is at pc " +
                     Hex(model_.pc());
        break;
      }
      res.status = CosimStatus::kWatchdog;
      res.report = "watchdog: the kernel did not halt within " +
                   std::to_string(opts_.watchdog_cycles) + " cycles (stopped at pc " +
                   Hex(r->rec.pc) + ")";
      break;
    }
    if (opts_.check) {
      if (!model_.running()) {
        res.status = CosimStatus::kMismatch;
        res.report = "RTL retired instruction #" + std::to_string(r->rec.order) + " at pc " +
                     Hex(r->rec.pc) + " after the model stopped";
        break;
      }
      Retire want = model_.Step();
      std::string diff = Compare(*r, want);
      if (!diff.empty()) {
        res.status = CosimStatus::kMismatch;
        res.report = diff;
        break;
      }
    }
    if (r->rec.halt || r->rec.trap) {
      res.status = r->rec.halt ? CosimStatus::kHalted : CosimStatus::kTrapped;
      break;
    }
    if (opts_.max_instructions && res.instructions >= opts_.max_instructions) {
      res.status = CosimStatus::kLimit;
      res.report = "stopped after " + std::to_string(res.instructions) + " instructions";
      break;
    }
  }
  // Let outstanding memory traffic drain, then compare the whole memory image.
  for (int i = 0; i < 64; ++i) rtl_->Tick();
  if (opts_.check && (res.status == CosimStatus::kHalted || res.status == CosimStatus::kTrapped)) {
    const uint8_t* a = model_mem_.data();
    const uint8_t* b = rtl_mem_.data();
    const bool same = std::memcmp(a, b, model_mem_.size()) == 0;
    for (uint32_t i = 0; !same && i < model_mem_.size(); ++i) {
      if (a[i] != b[i]) {
        res.status = CosimStatus::kMismatch;
        res.report = "final memory differs at " + Hex(i) + ": model " + Hex(a[i], 2) + ", RTL " +
                     Hex(b[i], 2);
        break;
      }
    }
  }
  res.diagnostics = model_.diagnostics();
  return res;
}

}  // namespace sgu::tb
