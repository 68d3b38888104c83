// SPDX-License-Identifier: Apache-2.0
// Model: reset, fetch, legality check, dispatch to the semantics functions, commit and the
// retire record (docs/isa.md "Machine state" and "Fetch, traps and the retire port").
#include "sgu/model.h"

#include <stdexcept>
#include <string>

#include "sgu/insn.h"
#include "state.h"

namespace sgu {
namespace model {

const SemanticsFn* SemanticsTable() {
  static const auto* table = [] {
    auto* t = new SemanticsFn[256]();
    RegisterCtrl(t);
    RegisterAlu(t);
    RegisterFp(t);
    RegisterLane(t);
    RegisterMem(t);
    return t;
  }();
  return table;
}

}  // namespace model

using model::State;
using model::Trap;

Model::Model(unsigned num_lanes, Memory* mem) : st_(std::make_unique<State>()) {
  if (num_lanes != 8 && num_lanes != 16 && num_lanes != 32) {
    throw std::invalid_argument("Model: num_lanes must be 8, 16 or 32, got " +
                                std::to_string(num_lanes));
  }
  if (mem == nullptr) throw std::invalid_argument("Model: memory is null");
  st_->n = num_lanes;
  st_->all_lanes = num_lanes == 32 ? 0xffffffffu : (1u << num_lanes) - 1;
  st_->mem = mem;
}

Model::~Model() = default;
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;

// docs/isa.md "Machine state": registers 0, s1..s8 = ARG0..ARG7, exec = lanes 0..LANES-1
// (LANES = 0 or > N means N), empty mask stack, pc = PC_START.
void Model::Start(const LaunchParams& p) {
  State& st = *st_;
  st.launch = p;
  st.launch_size = (p.lanes == 0 || p.lanes > st.n) ? st.n : p.lanes;
  st.launch_mask = st.launch_size == 32 ? 0xffffffffu : (1u << st.launch_size) - 1;
  st.exec = st.launch_mask;
  st.pc = p.pc_start;
  for (auto& reg : st.v) {
    for (uint32_t& lane : reg) lane = 0;
  }
  for (uint32_t& s : st.s) s = 0;
  for (unsigned i = 0; i < 8; ++i) st.s[1 + i] = p.args[i];
  st.stack.clear();
  st.running = true;
  st.instret = 0;
  st.diags.clear();
}

Retire Model::Step() {
  State& st = *st_;
  if (!st.running) throw std::logic_error("Model::Step: not running (call Start first)");
  Retire rec;
  rec.order = st.instret;
  rec.pc = st.pc;
  try {
    // Fetch: aligned, inside the window, no bus error.
    if (st.pc % 8 != 0 || st.pc < st.launch.mem_base || uint64_t{st.pc} + 8 > st.launch.mem_limit) {
      throw Trap{isa::Cause::kFetchFault, st.pc};
    }
    if (st.mem->IsError(st.pc, 8)) throw Trap{isa::Cause::kFetchBusError, st.pc};
    rec.insn = st.mem->Load(st.pc, 8);
    const isa::Insn insn(rec.insn);
    if (isa::CheckLegal(rec.insn, st.n)) {
      throw Trap{isa::Cause::kIllegalInsn, static_cast<uint32_t>(rec.insn)};
    }
    model::Exec x(st, insn, rec);
    model::SemanticsTable()[insn.opcode()](x);
    // Commit the destination write recorded by the semantics function. s0 ignores writes.
    if (rec.rd_we) {
      const unsigned rd = rec.rd;
      if (rd == isa::kRegS0) {
        rec.rd_we = false;
        rec.rd = 0;
        rec.rd_pair = false;
        rec.lane_mask = 0;
        rec.data_lo.fill(0);
        rec.data_hi.fill(0);
      } else if (isa::IsScalarReg(rd)) {
        st.s[rd - 32] = rec.data_lo[0];
        if (rec.rd_pair) st.s[rd - 32 + 1] = rec.data_hi[0];
      } else {
        for (unsigned l = 0; l < st.n; ++l) {
          if ((rec.lane_mask >> l & 1) == 0) continue;
          st.v[rd][l] = rec.data_lo[l];
          if (rec.rd_pair) st.v[rd + 1][l] = rec.data_hi[l];
        }
      }
    }
    if (rec.halt) {
      st.running = false;  // pc stays at the halt
    } else {
      st.pc = x.next_pc();
    }
  } catch (const Trap& t) {
    // Precise trap: no register write, exec and pc unchanged (stores already performed by a
    // store that hit a bus error stay in mem_writes).
    rec.trap = true;
    rec.cause = t.cause;
    rec.tval = t.tval;
    rec.halt = false;
    rec.rd_we = false;
    rec.rd = 0;
    rec.rd_pair = false;
    rec.lane_mask = 0;
    rec.data_lo.fill(0);
    rec.data_hi.fill(0);
    st.running = false;
  }
  rec.exec = st.exec;
  ++st.instret;
  return rec;
}

bool Model::running() const { return st_->running; }
unsigned Model::num_lanes() const { return st_->n; }
uint32_t Model::pc() const { return st_->pc; }
uint32_t Model::exec() const { return st_->exec; }

uint32_t Model::vreg(unsigned r, unsigned lane) const {
  if (r >= 32 || lane >= st_->n) throw std::out_of_range("Model::vreg: bad register or lane");
  return st_->v[r][lane];
}

uint32_t Model::sreg(unsigned r) const {
  if (r >= 32) throw std::out_of_range("Model::sreg: bad register");
  return st_->s[r];
}

uint64_t Model::instret() const { return st_->instret; }
const std::vector<Diagnostic>& Model::diagnostics() const { return st_->diags; }
unsigned Model::mask_depth() const { return static_cast<unsigned>(st_->stack.size()); }

}  // namespace sgu
