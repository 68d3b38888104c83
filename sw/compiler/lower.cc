// SPDX-License-Identifier: Apache-2.0
// SPIR-V kernel -> machine IR (lower.h). The steps, in order:
//   1. Inline every call to a function with a body (the translator wraps each kernel in one).
//   2. Control-flow graph: reachability, dominators, loops (an irreducible graph is an error),
//      post-dominators and control dependence.
//   3. Divergence: a value is uniform (scalar register) unless it depends on the lane; a block
//      is divergent when it is control dependent on a branch whose condition is not uniform.
//   4. Layout: blocks in a topological order in which every loop is contiguous.
//   5. Instruction selection. Every block but the entry is guarded: a divergent block runs under
//      `split` on its bit of a reserved mask register (per lane: "this lane enters the block"),
//      a uniform block under a bit of a reserved scalar flag register. A branch sets the bits of
//      its targets for the lanes that take it; a loop ends with a jump back to its header while
//      any lane wants to go there. Any reducible graph, with per-lane trip counts and divergent
//      break/continue/return, runs this way; each lane follows its own path.
#include "lower.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <set>

#include <spirv/unified1/OpenCL.std.h>

#include "sgu/compiler.h"
#include "sgu/insn.h"

namespace sgu::compiler {

// Generated from the Khronos grammars (scripts/gen_spv_names.py).
const char* SpvOpName(uint32_t op);
const char* OpenClStdName(uint32_t op);

namespace {

using isa::Op;

std::string OpText(uint32_t op) {
  const char* n = SpvOpName(op);
  return n ? std::string(n) : "Op" + std::to_string(op);
}

constexpr unsigned kDtI32 = static_cast<unsigned>(isa::Dtype::kI32);
constexpr unsigned kDtU32 = static_cast<unsigned>(isa::Dtype::kU32);
constexpr unsigned kDtI8 = static_cast<unsigned>(isa::Dtype::kI8);
constexpr unsigned kDtU8 = static_cast<unsigned>(isa::Dtype::kU8);
constexpr unsigned kDtI16 = static_cast<unsigned>(isa::Dtype::kI16);
constexpr unsigned kDtU16 = static_cast<unsigned>(isa::Dtype::kU16);
constexpr unsigned kDtI64 = static_cast<unsigned>(isa::Dtype::kI64);
constexpr unsigned kDtU64 = static_cast<unsigned>(isa::Dtype::kU64);
constexpr unsigned kDtF32 = static_cast<unsigned>(isa::Dtype::kF32);

constexpr unsigned kRegS0 = 32;
constexpr unsigned kRegLaunch = 33;  // s1: launch block
constexpr unsigned kRegDesc = 34;    // s2: sub-group descriptor
constexpr unsigned kBitsPerGuardReg = 23;  // bit 23 does not fit a positive 24-bit immediate

unsigned Mod(isa::ModCmp c) { return static_cast<unsigned>(c); }
unsigned Mod(isa::ModFcmp c) { return static_cast<unsigned>(c); }
unsigned Mod(isa::ModShfl c) { return static_cast<unsigned>(c); }
unsigned Mod(isa::ModVote c) { return static_cast<unsigned>(c); }

bool FitsImm(int64_t v) { return v >= -(1 << 23) && v < (1 << 23); }

}  // namespace

// ---- type layout ------------------------------------------------------------------------------

uint32_t TypeAlign(const SpvModule& m, uint32_t type) {
  const SpvType& t = m.Type(type);
  switch (t.kind) {
    case TypeKind::kBool: return 1;
    case TypeKind::kInt:
    case TypeKind::kFloat: return t.width / 8;
    case TypeKind::kPointer: return m.addressing_bits() / 8;
    case TypeKind::kVector: {
      const uint32_t n = t.count == 3 ? 4 : t.count;
      return n * TypeAlign(m, t.elem);
    }
    case TypeKind::kArray: return TypeAlign(m, t.elem);
    case TypeKind::kStruct: {
      if (t.packed) return 1;
      uint32_t a = 1;
      for (uint32_t mem : t.members) a = std::max(a, TypeAlign(m, mem));
      return a;
    }
    default: return 4;
  }
}

uint32_t TypeSize(const SpvModule& m, uint32_t type) {
  const SpvType& t = m.Type(type);
  switch (t.kind) {
    case TypeKind::kBool: return 1;
    case TypeKind::kInt:
    case TypeKind::kFloat: return t.width / 8;
    case TypeKind::kPointer: return m.addressing_bits() / 8;
    case TypeKind::kVector: return (t.count == 3 ? 4 : t.count) * TypeSize(m, t.elem);
    case TypeKind::kArray: return t.count * TypeSize(m, t.elem);
    case TypeKind::kStruct: {
      uint32_t off = 0, align = 1;
      for (uint32_t mem : t.members) {
        const uint32_t a = t.packed ? 1 : TypeAlign(m, mem);
        align = std::max(align, a);
        off = (off + a - 1) / a * a + TypeSize(m, mem);
      }
      return (off + align - 1) / align * align;
    }
    default: return 4;
  }
}

namespace {

uint32_t MemberOffset(const SpvModule& m, const SpvType& st, uint32_t index) {
  uint32_t off = 0;
  for (uint32_t i = 0; i < st.members.size(); ++i) {
    const uint32_t a = st.packed ? 1 : TypeAlign(m, st.members[i]);
    off = (off + a - 1) / a * a;
    if (i == index) return off;
    off += TypeSize(m, st.members[i]);
  }
  return off;
}

// One scalar piece of a flattened type.
struct Leaf {
  uint32_t offset;  // byte offset in memory
  uint32_t type;    // scalar type id (int, float, bool, pointer)
};

void Flatten(const SpvModule& m, uint32_t type, uint32_t base, std::vector<Leaf>* out) {
  const SpvType& t = m.Type(type);
  switch (t.kind) {
    case TypeKind::kVector: {
      const uint32_t es = TypeSize(m, t.elem);
      for (uint32_t i = 0; i < t.count; ++i) Flatten(m, t.elem, base + i * es, out);
      return;
    }
    case TypeKind::kArray: {
      const uint32_t es = TypeSize(m, t.elem);
      for (uint32_t i = 0; i < t.count; ++i) Flatten(m, t.elem, base + i * es, out);
      return;
    }
    case TypeKind::kStruct:
      for (uint32_t i = 0; i < t.members.size(); ++i)
        Flatten(m, t.members[i], base + MemberOffset(m, t, i), out);
      return;
    default:
      out->push_back(Leaf{base, type});
  }
}

size_t FlatCount(const SpvModule& m, uint32_t type) {
  std::vector<Leaf> l;
  Flatten(m, type, 0, &l);
  return l.size();
}

// Writes the bytes of a constant into `out` at `off`.
void WriteConstant(const SpvModule& m, uint32_t id, std::vector<uint8_t>* out, uint32_t off) {
  const SpvInsn* in = m.Def(id);
  if (!in) return;
  const uint32_t size = TypeSize(m, in->type);
  if (out->size() < off + size) out->resize(off + size, 0);
  uint64_t v = 0;
  if (m.ScalarConstant(id, &v)) {
    for (uint32_t i = 0; i < size && i < 8; ++i) (*out)[off + i] = static_cast<uint8_t>(v >> (8 * i));
    return;
  }
  if (in->op == spv::OpConstantComposite || in->op == spv::OpSpecConstantComposite) {
    const SpvType& t = m.Type(in->type);
    for (uint32_t i = 0; i < in->ops.size(); ++i) {
      uint32_t mo = 0;
      if (t.kind == TypeKind::kStruct) mo = MemberOffset(m, t, i);
      else mo = i * TypeSize(m, t.elem);
      WriteConstant(m, in->ops[i], out, off + mo);
    }
  }
  // OpConstantNull and anything else: zeros.
}

}  // namespace

ModuleLayout LayoutModule(const SpvModule& m, std::vector<std::string>* files) {
  ModuleLayout l;
  for (const SpvInsn& g : m.globals()) {
    const SpvType& pt = m.Type(g.type);
    const auto sc = static_cast<spv::StorageClass>(g.ops.at(0));
    const uint32_t size = TypeSize(m, pt.elem), align = std::max(4u, TypeAlign(m, pt.elem));
    if (sc == spv::StorageClassUniformConstant || sc == spv::StorageClassCrossWorkgroup) {
      uint32_t off = static_cast<uint32_t>((l.constants.size() + align - 1) / align * align);
      l.constants.resize(off + size, 0);
      if (g.ops.size() > 1) WriteConstant(m, g.ops[1], &l.constants, off);
      l.constant_offset[g.id] = off;
    } else if (sc == spv::StorageClassWorkgroup) {
      uint32_t off = (l.local_bytes + align - 1) / align * align;
      l.local_offset[g.id] = off;
      l.local_bytes = off + size;
    }
  }
  while (l.constants.size() % 64) l.constants.push_back(0);
  l.local_bytes = (l.local_bytes + 63) / 64 * 64;
  return l;
  (void)files;
}

namespace {

// A value component: a compile-time constant or an operand.
struct Val {
  bool is_const = false;
  bool pair = false;   // 64-bit
  uint64_t c = 0;
  Opnd o;
  static Val Const(uint64_t v, bool pair) {
    Val x;
    x.is_const = true;
    x.c = pair ? v : (v & 0xffffffffu);
    x.pair = pair;
    return x;
  }
  static Val Reg(Opnd o, bool pair) {
    Val x;
    x.o = o;
    x.pair = pair;
    return x;
  }
};

// Scalar type facts.
struct Scal {
  uint32_t bits = 32;
  bool is_float = false;
  bool is_bool = false;
  bool is_ptr = false;
  bool pair() const { return bits == 64 && !is_ptr; }
};

class Lowerer {
 public:
  Lowerer(const SpvModule& m, const SpvEntryPoint& ep, const ModuleLayout& layout, Kernel* meta)
      : m_(m), ep_(ep), layout_(layout), meta_(meta), next_id_(m.bound()) {}

  MFunction Run();

 private:
  // ---- errors ----
  [[noreturn]] void Fail(const SpvInsn* in, const std::string& msg) const {
    std::string where;
    if (in && in->line) {
      where = m_.String(in->file) + ":" + std::to_string(in->line) + ": ";
    }
    throw CompileError(where + "error: kernel '" + ep_.name + "': " + msg);
  }

  // ---- 1. inlining ----
  void Inline();
  // ---- 2. CFG ----
  void BuildCfg();
  // ---- 3. divergence ----
  void Divergence();
  bool InsnVarying(const SpvInsn& in, int b) const;
  bool TermVarying(int b) const;
  // ---- 4. layout ----
  void Layout();
  void OrderRegion(int loop, std::vector<int>* out);
  // ---- 5. isel ----
  void Select();
  void SelectBlock(int b);
  void SelectInsn(const SpvInsn& in, int b);
  void SelectTerminator(const SpvInsn& in, int b);
  bool DivergentSelfLoop(int b) const;
  Val StableCond(const Val& c, int b);
  void SelectCall(const SpvInsn& in);
  void SelectExt(const SpvInsn& in);
  void SelectGroup(const SpvInsn& in);

  // Helpers.
  Scal ScalOf(uint32_t type) const;
  const SpvType& T(uint32_t id) const { return m_.Type(id); }
  bool Varying(uint32_t id) const { return varying_.count(id) != 0; }
  std::vector<Val> Get(uint32_t id, const SpvInsn* user);
  Val Get1(uint32_t id, const SpvInsn* user) { return Get(id, user).at(0); }
  void Set(uint32_t id, std::vector<Val> v) { vals_[id] = std::move(v); }
  int NewV(bool scalar, bool pair) {
    f_.vregs.push_back(VRegInfo{scalar, pair, false});
    return static_cast<int>(f_.vregs.size()) - 1;
  }
  Opnd NewReg(bool scalar, bool pair) { return Opnd::Virt(NewV(scalar, pair)); }
  bool IsScalar(const Val& v) const {
    if (v.is_const) return true;
    if (v.o.kind == Opnd::kPhys) return v.o.idx >= 32;
    return f_.vregs[v.o.idx].scalar;
  }
  MInsn& Emit(Op op, unsigned dt, unsigned mod, Opnd rd, Opnd rs1 = {}, Opnd rs2 = {},
              Opnd rs3 = {}, int32_t imm = 0);
  Opnd Mat(const Val& v);                 // materialise into a register
  Opnd Word(const Val& v);                 // low 32 bits as an operand
  Val Bin(Op op, Op opi, unsigned dt, const Val& a, const Val& b, bool scalar, bool commutative,
          unsigned mod = 0);
  Val Cmp(isa::ModCmp c, unsigned dt, const Val& a, const Val& b, bool scalar);
  Val Un(Op op, unsigned dt, unsigned mod, const Val& a, bool scalar, bool pair);
  Val Sel(unsigned dt, const Val& c, const Val& a, const Val& b, bool scalar);
  Val Cvt(unsigned to, unsigned from, const Val& a, bool scalar);
  Val Div(const SpvInsn& in, bool is_signed, bool rem, unsigned bits, const Val& a, const Val& b,
          bool scalar);
  Val DivConst(bool is_signed, const Val& n, uint32_t d, bool scalar);
  Val RoundFloat(const Val& x, uint32_t mode, bool scalar);
  Val Popcount32(const Val& x, bool scalar);
  Val Clz32(const Val& x, bool scalar);
  Val First(const Val& x);
  Val LoadField(uint32_t base_reg, uint32_t off, bool scalar = true);
  Val Address(uint32_t ptr_id, const SpvInsn* user) { return Get1(ptr_id, user); }
  Val AddrAdd(const Val& base, const Val& idx, uint32_t scale, bool scalar);
  std::vector<Val> LoadBuiltin(spv::BuiltIn b, const SpvInsn& in);
  Val LocalId(unsigned d, bool scalar_ok);
  Val Lane();
  unsigned IntDt(uint32_t bits, bool is_signed) const;
  unsigned DtOf(const Scal& s, bool is_signed = false) const;
  std::vector<Val> ToWords(const std::vector<Val>& comps, const std::vector<Scal>& types);
  std::vector<Val> FromWords(const std::vector<Val>& words, const std::vector<Scal>& types,
                             bool scalar);
  std::vector<Scal> LeafScals(uint32_t type) const;
  void CopyToPhis(int from, int to, const Val* cond, bool negate);
  void SetGuard(int target, const Val* cond, bool negate);

  const SpvModule& m_;
  const SpvEntryPoint& ep_;
  const ModuleLayout& layout_;
  Kernel* meta_;
  uint32_t next_id_;

  // Inlined function.
  std::vector<SpvBlock> blocks_;
  std::vector<uint32_t> params_;
  std::map<uint32_t, const SpvInsn*> defs_;
  std::map<uint32_t, uint32_t> def_block_;  // id -> block index
  std::map<uint32_t, uint32_t> orig_id_;    // inlined copy -> the module's id (decorations)
  uint32_t Orig(uint32_t id) const {
    auto it = orig_id_.find(id);
    return it == orig_id_.end() ? id : it->second;
  }
  bool Decorated(uint32_t id, spv::Decoration d, uint32_t* lit = nullptr) const {
    return m_.HasDecoration(Orig(id), d, lit);
  }

  // CFG (indices into blocks_).
  std::map<uint32_t, int> index_;
  std::vector<std::vector<int>> succ_, pred_;
  std::vector<int> rpo_, rpo_pos_, idom_, ipdom_, loop_of_;  // innermost loop or -1
  std::vector<bool> reachable_;
  struct Loop {
    int header;
    int parent = -1;
    std::set<int> body;
  };
  std::vector<Loop> loops_;
  std::vector<std::set<int>> cd_;  // control dependences of each block
  std::vector<bool> divergent_;
  std::set<uint32_t> varying_;

  // Layout and selection.
  std::vector<int> order_;
  std::map<int, std::vector<int>> loop_end_;  // block -> loops whose last block it is
  std::vector<int> guard_bit_;                // bit index per block (-1: entry)
  std::vector<int> block_label_;              // MIR label at the guard of each block
  std::vector<int> body_label_;               // MIR label after the guard (direct jumps)
  MFunction f_;
  MBlock* cur_ = nullptr;
  int cur_block_ = -1;
  const SpvInsn* cur_insn_ = nullptr;
  std::map<uint32_t, std::vector<Val>> vals_;
  std::map<uint32_t, std::vector<Opnd>> phi_regs_;
  unsigned num_vbits_ = 0, num_sbits_ = 0;
  std::vector<unsigned> vmask_regs_, sflag_regs_;
  unsigned guard_scratch_ = 0;  // reserved v register for guard temporaries
  uint32_t private_bytes_ = 0;
  std::map<uint32_t, uint32_t> private_offset_;
  bool uses_vpriv_ = false;
};

// ---- helpers ----------------------------------------------------------------------------------

Scal Lowerer::ScalOf(uint32_t type) const {
  const SpvType& t = T(type);
  Scal s;
  switch (t.kind) {
    case TypeKind::kBool: s.is_bool = true; s.bits = 32; break;
    case TypeKind::kInt: s.bits = t.width; break;
    case TypeKind::kFloat: s.bits = t.width; s.is_float = true; break;
    case TypeKind::kPointer: s.is_ptr = true; s.bits = 32; break;
    case TypeKind::kImage:
    case TypeKind::kSampler:
    case TypeKind::kEvent:
      s.is_ptr = true;
      s.bits = 32;
      break;
    default:
      Fail(cur_insn_, "unsupported type in a value");
  }
  if (s.is_float && s.bits != 32) {
    Fail(cur_insn_, std::string(s.bits == 16 ? "half" : "double") +
                        " arithmetic is not supported: the SGU has an FP32 unit only");
  }
  if (!s.is_float && !s.is_bool && !s.is_ptr && s.bits != 8 && s.bits != 16 && s.bits != 32 &&
      s.bits != 64) {
    Fail(cur_insn_, std::to_string(s.bits) + "-bit integers are not supported");
  }
  return s;
}

std::vector<Scal> Lowerer::LeafScals(uint32_t type) const {
  std::vector<Leaf> leaves;
  Flatten(m_, type, 0, &leaves);
  std::vector<Scal> out;
  for (const Leaf& l : leaves) out.push_back(ScalOf(l.type));
  return out;
}

unsigned Lowerer::IntDt(uint32_t bits, bool is_signed) const {
  switch (bits) {
    case 8: return is_signed ? kDtI8 : kDtU8;
    case 16: return is_signed ? kDtI16 : kDtU16;
    case 64: return is_signed ? kDtI64 : kDtU64;
    default: return is_signed ? kDtI32 : kDtU32;
  }
}

unsigned Lowerer::DtOf(const Scal& s, bool is_signed) const {
  if (s.is_float) return kDtF32;
  if (s.is_bool || s.is_ptr) return kDtU32;
  return IntDt(s.bits, is_signed);
}

MInsn& Lowerer::Emit(Op op, unsigned dt, unsigned mod, Opnd rd, Opnd rs1, Opnd rs2, Opnd rs3,
                     int32_t imm) {
  MInsn mi;
  mi.op = op;
  mi.dt = dt;
  mi.mod = mod;
  mi.rd = rd;
  mi.rs1 = rs1;
  mi.rs2 = rs2;
  mi.rs3 = rs3;
  mi.imm = imm;
  if (cur_insn_) {
    auto it = layout_.file_index.find(cur_insn_->file);
    mi.file = it == layout_.file_index.end() ? 0 : it->second;
    mi.line = cur_insn_->line;
  }
  cur_->insns.push_back(mi);
  return cur_->insns.back();
}

Opnd Lowerer::Mat(const Val& v) {
  if (!v.is_const) return v.o;
  if (!v.pair) {
    if (v.c == 0) return Opnd::Phys(kRegS0);
    Opnd r = NewReg(true, false);
    const int32_t x = static_cast<int32_t>(static_cast<uint32_t>(v.c));
    if (FitsImm(x)) {
      Emit(Op::kLi, kDtI32, 0, r, {}, {}, {}, x);
    } else {
      Emit(Op::kLui, kDtI32, 0, r, {}, {}, {}, x >> 8);
      if (x & 0xff) Emit(Op::kOri, kDtU32, 0, r, r, {}, {}, x & 0xff);
    }
    return r;
  }
  const int64_t x = static_cast<int64_t>(v.c);
  Opnd r = NewReg(true, true);
  if (FitsImm(x)) {
    Emit(Op::kLi, kDtI64, 0, r, {}, {}, {}, static_cast<int32_t>(x));
    return r;
  }
  Opnd lo = Mat(Val::Const(v.c & 0xffffffffu, false));
  Opnd hi = Mat(Val::Const(v.c >> 32, false));
  Opnd t = NewReg(true, true);
  Emit(Op::kCvt, kDtU64, static_cast<unsigned>(isa::ModSrc::kU32), r, lo);
  Emit(Op::kCvt, kDtU64, static_cast<unsigned>(isa::ModSrc::kU32), t, hi);
  Emit(Op::kShli, kDtU64, 0, t, t, {}, {}, 32);
  Emit(Op::kOr, kDtU64, 0, r, r, t);
  return r;
}

Opnd Lowerer::Word(const Val& v) {
  if (v.is_const) return Mat(Val::Const(v.c & 0xffffffffu, false));
  if (v.pair) {
    Opnd o = v.o;
    if (o.kind == Opnd::kVirt) o.part = Opnd::kLo;
    return o;
  }
  return v.o;
}

Val Lowerer::Bin(Op op, Op opi, unsigned dt, const Val& a0, const Val& b0, bool scalar,
                 bool commutative, unsigned mod) {
  const bool pair = isa::DtypeIs64(dt);
  Val a = a0, b = b0;
  if (a.is_const && !b.is_const && commutative) std::swap(a, b);
  Opnd rd = NewReg(scalar, pair);
  if (b.is_const && opi != Op::kNop) {
    int64_t imm = pair ? static_cast<int64_t>(b.c) : static_cast<int64_t>(static_cast<int32_t>(b.c));
    // Narrow types compare and compute on their own width: an immediate is sign-extended, so an
    // unsigned narrow constant must fit as the sign-extended value of that width.
    if (FitsImm(imm)) {
      Emit(opi, dt, mod, rd, pair ? Mat(a) : (a.pair ? Word(a) : Mat(a)), {}, {},
           static_cast<int32_t>(imm));
      return Val::Reg(rd, pair);
    }
  }
  const Opnd ra = pair ? Mat(a) : Word(a), rb = pair ? Mat(b) : Word(b);
  Emit(op, dt, mod, rd, ra, rb);
  return Val::Reg(rd, pair);
}

Val Lowerer::Cmp(isa::ModCmp c, unsigned dt, const Val& a0, const Val& b0, bool scalar) {
  Val a = a0, b = b0;
  if (a.is_const && !b.is_const) {
    std::swap(a, b);
    switch (c) {
      case isa::ModCmp::kLt: c = isa::ModCmp::kGt; break;
      case isa::ModCmp::kLe: c = isa::ModCmp::kGe; break;
      case isa::ModCmp::kGt: c = isa::ModCmp::kLt; break;
      case isa::ModCmp::kGe: c = isa::ModCmp::kLe; break;
      default: break;
    }
  }
  const bool pair = isa::DtypeIs64(dt);
  Val r = Bin(Op::kCmp, Op::kCmpi, dt, a, b, scalar, false, Mod(c));
  if (pair) {  // 64-bit compares write {0, 0/1}: the bool is the low word
    r.o.part = Opnd::kLo;
    r.pair = false;
  }
  return r;
}

Val Lowerer::Un(Op op, unsigned dt, unsigned mod, const Val& a, bool scalar, bool pair) {
  Opnd rd = NewReg(scalar, pair);
  Emit(op, dt, mod, rd, isa::DtypeIs64(dt) ? Mat(a) : Word(a));
  return Val::Reg(rd, pair);
}

Val Lowerer::Sel(unsigned dt, const Val& c, const Val& a, const Val& b, bool scalar) {
  const bool pair = isa::DtypeIs64(dt);
  if (c.is_const) return (c.c & 1) ? a : b;
  Opnd rd = NewReg(scalar, pair);
  const Opnd rc = Word(c), ra = pair ? Mat(a) : Word(a), rb = pair ? Mat(b) : Word(b);
  Emit(Op::kSel, dt, 0, rd, rc, ra, rb);
  return Val::Reg(rd, pair);
}

Val Lowerer::Cvt(unsigned to, unsigned from, const Val& a, bool scalar) {
  Opnd rd = NewReg(scalar, isa::DtypeIs64(to));
  Emit(Op::kCvt, to, from, rd, isa::DtypeIs64(from) ? Mat(a) : Word(a));
  return Val::Reg(rd, isa::DtypeIs64(to));
}

// Unsigned 32-bit restoring division, unrolled (the ISA has no divider yet: docs/compiler.md).
Val Lowerer::Div(const SpvInsn& in, bool is_signed, bool rem, unsigned bits, const Val& a0,
                 const Val& b0, bool scalar) {
  if (bits == 64) Fail(&in, "64-bit integer division is not supported");
  // Widen narrow operands to 32 bits with their signedness.
  const unsigned src_dt = IntDt(bits, is_signed);
  Val a = a0, b = b0;
  if (bits < 32) {
    a = a.is_const ? a : Cvt(is_signed ? kDtI32 : kDtU32, src_dt, a, scalar);
    b = b.is_const ? b : Cvt(is_signed ? kDtI32 : kDtU32, src_dt, b, scalar);
    if (a.is_const) {
      uint64_t x = a.c & ((1ull << bits) - 1);
      if (is_signed && (x >> (bits - 1))) x |= ~((1ull << bits) - 1);
      a = Val::Const(x, false);
    }
    if (b.is_const) {
      uint64_t x = b.c & ((1ull << bits) - 1);
      if (is_signed && (x >> (bits - 1))) x |= ~((1ull << bits) - 1);
      b = Val::Const(x, false);
    }
  }
  if (b.is_const && static_cast<uint32_t>(b.c) != 0) {
    const uint32_t dv = static_cast<uint32_t>(b.c);
    Val q = DivConst(is_signed, a, dv, scalar);
    if (!rem) return q;
    Val p = Bin(Op::kMul, Op::kMuli, kDtU32, q, Val::Const(dv, false), scalar, true);
    return Bin(Op::kSub, Op::kNop, kDtU32, a, p, scalar, false);
  }
  Val n = a, d = b, sign_q, sign_r;
  if (is_signed) {
    // |a|, |b| and the signs of quotient and remainder.
    Val na = Cmp(isa::ModCmp::kLt, kDtI32, a, Val::Const(0, false), scalar);
    Val nb = Cmp(isa::ModCmp::kLt, kDtI32, b, Val::Const(0, false), scalar);
    Val nega = Bin(Op::kSub, Op::kNop, kDtU32, Val::Const(0, false), a, scalar, false);
    Val negb = Bin(Op::kSub, Op::kNop, kDtU32, Val::Const(0, false), b, scalar, false);
    n = Sel(kDtU32, na, nega, a, scalar);
    d = Sel(kDtU32, nb, negb, b, scalar);
    sign_q = Bin(Op::kXor, Op::kXori, kDtU32, na, nb, scalar, true);
    sign_r = na;
  }
  Opnd nr = Mat(n), dr = Mat(d);
  Opnd q = NewReg(scalar, false), r = NewReg(scalar, false), t = NewReg(scalar, false);
  Opnd c = NewReg(scalar, false);
  Emit(Op::kAddi, kDtU32, 0, q, nr, {}, {}, 0);
  Emit(Op::kLi, kDtU32, 0, r, {}, {}, {}, 0);
  for (int i = 0; i < 32; ++i) {
    Emit(Op::kShri, kDtU32, 0, t, q, {}, {}, 31);
    Emit(Op::kShli, kDtU32, 0, r, r, {}, {}, 1);
    Emit(Op::kOr, kDtU32, 0, r, r, t);
    Emit(Op::kShli, kDtU32, 0, q, q, {}, {}, 1);
    Emit(Op::kCmp, kDtU32, Mod(isa::ModCmp::kGe), c, r, dr);
    Emit(Op::kMul, kDtU32, 0, t, c, dr);
    Emit(Op::kSub, kDtU32, 0, r, r, t);
    Emit(Op::kOr, kDtU32, 0, q, q, c);
  }
  Val res = Val::Reg(rem ? r : q, false);
  if (is_signed) {
    Val neg = Bin(Op::kSub, Op::kNop, kDtU32, Val::Const(0, false), res, scalar, false);
    res = Sel(kDtU32, rem ? sign_r : sign_q, neg, res, scalar);
  }
  return res;
}

// Division by a constant (Granlund and Montgomery, "Division by invariant integers using
// multiplication", 1994): a high multiply and shifts instead of the 32-step loop.
Val Lowerer::DivConst(bool is_signed, const Val& n, uint32_t d, bool scalar) {
  if (n.is_const) {
    const uint32_t x = static_cast<uint32_t>(n.c);
    if (is_signed) {
      const int32_t xs = static_cast<int32_t>(x), ds = static_cast<int32_t>(d);
      if (ds == -1) return Val::Const(static_cast<uint32_t>(0u - x), false);
      return Val::Const(static_cast<uint32_t>(xs / ds), false);
    }
    return Val::Const(x / d, false);
  }
  if (!is_signed) {
    if (d == 1) return n;
    unsigned l = 0;
    while ((1ull << l) < d) ++l;
    if ((d & (d - 1)) == 0) {
      return Bin(Op::kShr, Op::kShri, kDtU32, n, Val::Const(l, false), scalar, false);
    }
    const uint64_t m = ((uint64_t{1} << 32) * ((uint64_t{1} << l) - d)) / d + 1;
    Val t = Bin(Op::kMulh, Op::kNop, kDtU32, n, Val::Const(m & 0xffffffffu, false), scalar, true);
    Val u = Bin(Op::kSub, Op::kNop, kDtU32, n, t, scalar, false);
    u = Bin(Op::kShr, Op::kShri, kDtU32, u, Val::Const(1, false), scalar, false);
    u = Bin(Op::kAdd, Op::kAddi, kDtU32, t, u, scalar, true);
    return Bin(Op::kShr, Op::kShri, kDtU32, u, Val::Const(l - 1, false), scalar, false);
  }
  const int32_t ds = static_cast<int32_t>(d);
  const uint32_t ad = ds < 0 ? 0u - d : d;
  Val q;
  if (ad == 1) {
    q = n;
  } else {
    unsigned l = 0;
    while ((1ull << l) < ad) ++l;
    Val sign = Bin(Op::kShr, Op::kShri, kDtI32, n, Val::Const(31, false), scalar, false);
    if ((ad & (ad - 1)) == 0) {
      // (n + (n < 0 ? ad - 1 : 0)) >> l
      Val bias = Bin(Op::kShr, Op::kShri, kDtU32, sign, Val::Const(32 - l, false), scalar, false);
      Val t = Bin(Op::kAdd, Op::kAddi, kDtU32, n, bias, scalar, true);
      q = Bin(Op::kShr, Op::kShri, kDtI32, t, Val::Const(l, false), scalar, false);
    } else {
      const uint64_t m = (uint64_t{1} << (31 + l)) / ad + 1 - (uint64_t{1} << 32);
      Val t = Bin(Op::kMulh, Op::kNop, kDtI32, n, Val::Const(m & 0xffffffffu, false), scalar, true);
      t = Bin(Op::kAdd, Op::kAddi, kDtU32, t, n, scalar, true);
      t = Bin(Op::kShr, Op::kShri, kDtI32, t, Val::Const(l - 1, false), scalar, false);
      q = Bin(Op::kSub, Op::kNop, kDtU32, t, sign, scalar, false);
    }
  }
  if (ds < 0) q = Bin(Op::kSub, Op::kNop, kDtU32, Val::Const(0, false), q, scalar, false);
  return q;
}

// Rounds an f32 to an integral value with a SPIR-V FPRoundingMode (RTE, RTP, RTN): adding and
// subtracting 1.5 * 2^23 rounds to nearest even for |x| < 2^22; larger values are integral.
Val Lowerer::RoundFloat(const Val& x0, uint32_t mode, bool scalar) {
  Opnd x = Word(x0);
  Opnd magic = Mat(Val::Const(0x4b400000u, false));  // 12582912.0f
  Opnd t = NewReg(scalar, false), u = NewReg(scalar, false), ax = NewReg(scalar, false);
  Emit(Op::kFadd, kDtF32, 0, t, x, magic);
  Emit(Op::kFsub, kDtF32, 0, u, t, magic);
  Emit(Op::kAnd, kDtU32, 0, ax, x, Mat(Val::Const(0x7fffffffu, false)));
  Opnd small = NewReg(scalar, false);
  Emit(Op::kCmp, kDtU32, Mod(isa::ModCmp::kLt), small, ax, Mat(Val::Const(0x4a800000u, false)));
  Opnd r = NewReg(scalar, false);
  Emit(Op::kSel, kDtU32, 0, r, small, u, x);  // r = rte(x)
  if (mode == spv::FPRoundingModeRTE) return Val::Reg(r, false);
  // Ceil: rte(x) < x ? rte + 1 : rte. Floor: rte(x) > x ? rte - 1 : rte.
  Opnd c = NewReg(scalar, false), adj = NewReg(scalar, false), out = NewReg(scalar, false);
  const bool ceil = mode == spv::FPRoundingModeRTP;
  Emit(Op::kFcmp, kDtF32, Mod(ceil ? isa::ModFcmp::kLt : isa::ModFcmp::kGt), c, r, x);
  Emit(ceil ? Op::kFadd : Op::kFsub, kDtF32, 0, adj, r, Mat(Val::Const(0x3f800000u, false)));
  Emit(Op::kSel, kDtU32, 0, out, c, adj, r);
  return Val::Reg(out, false);
}

// Population count of a 32-bit value (SWAR: pairs, nibbles, bytes, then a multiply).
Val Lowerer::Popcount32(const Val& x0, bool scalar) {
  Val x = x0;
  Val t = Bin(Op::kShr, Op::kShri, kDtU32, x, Val::Const(1, false), scalar, false);
  t = Bin(Op::kAnd, Op::kNop, kDtU32, t, Val::Const(0x55555555u, false), scalar, true);
  x = Bin(Op::kSub, Op::kNop, kDtU32, x, t, scalar, false);
  Val lo = Bin(Op::kAnd, Op::kNop, kDtU32, x, Val::Const(0x33333333u, false), scalar, true);
  Val hi = Bin(Op::kShr, Op::kShri, kDtU32, x, Val::Const(2, false), scalar, false);
  hi = Bin(Op::kAnd, Op::kNop, kDtU32, hi, Val::Const(0x33333333u, false), scalar, true);
  x = Bin(Op::kAdd, Op::kAddi, kDtU32, lo, hi, scalar, true);
  t = Bin(Op::kShr, Op::kShri, kDtU32, x, Val::Const(4, false), scalar, false);
  x = Bin(Op::kAdd, Op::kAddi, kDtU32, x, t, scalar, true);
  x = Bin(Op::kAnd, Op::kNop, kDtU32, x, Val::Const(0x0f0f0f0fu, false), scalar, true);
  x = Bin(Op::kMul, Op::kNop, kDtU32, x, Val::Const(0x01010101u, false), scalar, true);
  return Bin(Op::kShr, Op::kShri, kDtU32, x, Val::Const(24, false), scalar, false);
}

// Leading zeros of a 32-bit value: smear the highest set bit right, count the ones.
Val Lowerer::Clz32(const Val& x0, bool scalar) {
  Val x = x0;
  for (unsigned sh : {1u, 2u, 4u, 8u, 16u}) {
    Val t = Bin(Op::kShr, Op::kShri, kDtU32, x, Val::Const(sh, false), scalar, false);
    x = Bin(Op::kOr, Op::kOri, kDtU32, x, t, scalar, true);
  }
  Val ones = Popcount32(x, scalar);
  return Bin(Op::kSub, Op::kNop, kDtU32, Val::Const(32, false), ones, scalar, false);
}

// The value of the lowest active lane, as a scalar (a 64-bit value word by word).
Val Lowerer::First(const Val& x) {
  if (!x.pair) {
    Opnd rd = NewReg(true, false);
    Emit(Op::kFirst, kDtU32, 0, rd, x.o);
    return Val::Reg(rd, false);
  }
  Opnd lo = NewReg(true, false), hi = NewReg(true, false);
  Emit(Op::kFirst, kDtU32, 0, lo, Opnd{Opnd::kVirt, Opnd::kLo, x.o.idx});
  Emit(Op::kFirst, kDtU32, 0, hi, Opnd{Opnd::kVirt, Opnd::kHi, x.o.idx});
  return FromWords({Val::Reg(lo, false), Val::Reg(hi, false)}, {Scal{64}}, true)[0];
}

Val Lowerer::LoadField(uint32_t base_reg, uint32_t off, bool scalar) {
  Opnd rd = NewReg(scalar, false);
  Emit(Op::kLd, kDtU32, 0, rd, Opnd::Phys(base_reg), {}, {}, static_cast<int32_t>(off));
  return Val::Reg(rd, false);
}

Val Lowerer::Lane() {
  Opnd rd = NewReg(false, false);
  Emit(Op::kLane, kDtI32, 0, rd);
  return Val::Reg(rd, false);
}

Val Lowerer::LocalId(unsigned d, bool) {
  // ld v, [s2 + kSgLocalId + 128*d + 4*lane]
  Val lane = Lane();
  Opnd s = NewReg(false, false), a = NewReg(false, false);
  Emit(Op::kShli, kDtU32, 0, s, lane.o, {}, {}, 2);
  Emit(Op::kAdd, kDtU32, 0, a, s, Opnd::Phys(kRegDesc));
  Opnd rd = NewReg(false, false);
  Emit(Op::kLd, kDtU32, 0, rd, a, {}, {}, static_cast<int32_t>(abi::kSgLocalId + 128 * d));
  return Val::Reg(rd, false);
}

Val Lowerer::AddrAdd(const Val& base, const Val& idx, uint32_t scale, bool scalar) {
  if (idx.is_const) {
    const int64_t off = static_cast<int64_t>(idx.pair ? idx.c : static_cast<uint64_t>(
                                                 static_cast<int64_t>(static_cast<int32_t>(idx.c)))) *
                        scale;
    if (off == 0) return base;
    return Bin(Op::kAdd, Op::kAddi, kDtU32, base, Val::Const(static_cast<uint64_t>(off), false),
               scalar, true);
  }
  Val w = Val::Reg(Word(idx), false);
  Val scaled = scale == 1 ? w : Bin(Op::kMul, Op::kMuli, kDtU32, w, Val::Const(scale, false),
                                    scalar && IsScalar(w), true);
  return Bin(Op::kAdd, Op::kAddi, kDtU32, base, scaled, scalar, true);
}

std::vector<Val> Lowerer::Get(uint32_t id, const SpvInsn* user) {
  auto it = vals_.find(id);
  if (it != vals_.end()) return it->second;
  const SpvInsn* d = m_.Def(id);
  if (!d) {
    auto jt = defs_.find(id);
    if (jt != defs_.end()) d = jt->second;
  }
  if (!d) Fail(user, "use of %" + std::to_string(id) + " before its definition");
  // Constants and undefs, flattened.
  std::vector<Val> out;
  std::function<void(uint32_t)> flat = [&](uint32_t cid) {
    const SpvInsn* c = m_.Def(cid);
    if (!c) Fail(user, "unsupported constant operand");
    uint64_t v = 0;
    if (c->op == spv::OpUndef) {
      for (const Scal& s : LeafScals(c->type)) out.push_back(Val::Const(0, s.pair()));
    } else if (m_.ScalarConstant(cid, &v)) {
      out.push_back(Val::Const(v, ScalOf(c->type).pair()));
    } else if (c->op == spv::OpConstantComposite || c->op == spv::OpSpecConstantComposite) {
      for (uint32_t x : c->ops) flat(x);
    } else if (c->op == spv::OpConstantNull) {
      for (const Scal& s : LeafScals(c->type)) out.push_back(Val::Const(0, s.pair()));
    } else if (c->op == spv::OpVariable) {
      // Module-scope variable: its address.
      const auto sc = static_cast<spv::StorageClass>(c->ops.at(0));
      if (sc == spv::StorageClassWorkgroup) {
        Val base = LoadField(kRegLaunch, abi::kLbLocalBase);
        out.push_back(AddrAdd(base, Val::Const(layout_.local_offset.at(cid), false), 1, true));
      } else if (sc == spv::StorageClassUniformConstant || sc == spv::StorageClassCrossWorkgroup) {
        Val base = LoadField(kRegLaunch, abi::kLbConstBase);
        out.push_back(
            AddrAdd(base, Val::Const(layout_.constant_offset.at(cid), false), 1, true));
      } else if (sc == spv::StorageClassInput) {
        out.push_back(Val::Const(0, false));  // builtins are handled at OpLoad
      } else {
        Fail(user, "unsupported module-scope variable storage class");
      }
    } else {
      Fail(user, "unsupported constant (" + OpText(c->op) + ")");
    }
  };
  if (d->op == spv::OpVariable && m_.Def(id) == d) {
    flat(id);
    return out;  // not cached: rematerialised in each block that uses it
  }
  flat(id);
  return out;
}

// ---- 1. inlining ------------------------------------------------------------------------------

void Lowerer::Inline() {
  const SpvFunction* entry = m_.Function(ep_.func);
  if (!entry || entry->blocks.empty()) Fail(nullptr, "entry point has no body");
  blocks_ = entry->blocks;
  params_ = entry->params;
  size_t inlined = 0;
  for (size_t bi = 0; bi < blocks_.size(); ++bi) {
    for (size_t ii = 0; ii < blocks_[bi].insns.size(); ++ii) {
      const SpvInsn call = blocks_[bi].insns[ii];
      if (call.op != spv::OpFunctionCall) continue;
      const SpvFunction* callee = m_.Function(call.ops.at(0));
      if (!callee || callee->is_import) continue;
      if (++inlined > 2000 || blocks_.size() > 50000) {
        Fail(&call, "recursive or too deeply nested function calls (the SGU inlines every call)");
      }
      std::map<uint32_t, uint32_t> ren;
      for (size_t p = 0; p < callee->params.size(); ++p) ren[callee->params[p]] = call.ops.at(1 + p);
      for (const SpvBlock& cb : callee->blocks) {
        ren[cb.label] = next_id_++;
        for (const SpvInsn& in : cb.insns) {
          if (in.id) {
            ren[in.id] = next_id_++;
            orig_id_[ren[in.id]] = Orig(in.id);
          }
        }
      }
      const uint32_t cont = next_id_++;
      std::vector<SpvBlock> nb;
      std::vector<uint32_t> ret_pairs;
      for (const SpvBlock& cb : callee->blocks) {
        SpvBlock b;
        b.label = ren[cb.label];
        for (SpvInsn in : cb.insns) {
          if (in.id) in.id = ren[in.id];
          for (size_t k = 0; k < in.ops.size(); ++k) {
            if (in.is_id[k]) {
              auto it = ren.find(in.ops[k]);
              if (it != ren.end()) in.ops[k] = it->second;
            }
          }
          if (in.op == spv::OpReturn || in.op == spv::OpReturnValue) {
            if (in.op == spv::OpReturnValue) {
              ret_pairs.push_back(in.ops.at(0));
              ret_pairs.push_back(b.label);
            }
            SpvInsn br;
            br.op = spv::OpBranch;
            br.ops = {cont};
            br.is_id = {true};
            br.file = in.file;
            br.line = in.line;
            in = br;
          }
          b.insns.push_back(in);
        }
        nb.push_back(std::move(b));
      }
      SpvBlock contb;
      contb.label = cont;
      if (call.type && T(call.type).kind != TypeKind::kVoid) {
        SpvInsn phi;
        phi.op = spv::OpPhi;
        phi.type = call.type;
        phi.id = call.id;
        phi.ops = ret_pairs;
        phi.is_id.assign(ret_pairs.size(), true);
        phi.file = call.file;
        phi.line = call.line;
        contb.insns.push_back(phi);
      }
      for (size_t k = ii + 1; k < blocks_[bi].insns.size(); ++k)
        contb.insns.push_back(blocks_[bi].insns[k]);
      const uint32_t old_label = blocks_[bi].label;
      blocks_[bi].insns.resize(ii);
      SpvInsn br;
      br.op = spv::OpBranch;
      br.ops = {nb.front().label};
      br.is_id = {true};
      br.file = call.file;
      br.line = call.line;
      blocks_[bi].insns.push_back(br);
      // Successors of the moved terminator now come from `cont`.
      std::set<uint32_t> succ_labels;
      const SpvInsn& term = contb.insns.back();
      for (size_t k = 0; k < term.ops.size(); ++k) {
        if (term.is_id[k]) succ_labels.insert(term.ops[k]);
      }
      for (SpvBlock& b : blocks_) {
        if (!succ_labels.count(b.label)) continue;
        for (SpvInsn& in : b.insns) {
          if (in.op != spv::OpPhi) break;
          for (size_t k = 1; k < in.ops.size(); k += 2) {
            if (in.ops[k] == old_label) in.ops[k] = cont;
          }
        }
      }
      nb.push_back(std::move(contb));
      blocks_.insert(blocks_.begin() + static_cast<long>(bi) + 1, nb.begin(), nb.end());
      break;
    }
  }
  for (size_t b = 0; b < blocks_.size(); ++b) {
    for (const SpvInsn& in : blocks_[b].insns) {
      if (in.id) {
        defs_[in.id] = &in;
        def_block_[in.id] = static_cast<uint32_t>(b);
      }
    }
  }
}

// ---- 2. CFG -----------------------------------------------------------------------------------

void Lowerer::BuildCfg() {
  const int n = static_cast<int>(blocks_.size());
  for (int b = 0; b < n; ++b) index_[blocks_[b].label] = b;
  succ_.assign(n, {});
  pred_.assign(n, {});
  for (int b = 0; b < n; ++b) {
    if (blocks_[b].insns.empty()) Fail(nullptr, "empty block");
    const SpvInsn& t = blocks_[b].insns.back();
    std::vector<uint32_t> targets;
    switch (t.op) {
      case spv::OpBranch: targets = {t.ops.at(0)}; break;
      case spv::OpBranchConditional: targets = {t.ops.at(1), t.ops.at(2)}; break;
      case spv::OpSwitch:
        targets.push_back(t.ops.at(1));
        for (size_t k = 3; k < t.ops.size(); k += 2) targets.push_back(t.ops[k]);
        break;
      case spv::OpReturn:
      case spv::OpReturnValue:
      case spv::OpUnreachable:
      case spv::OpKill:
        break;
      default:
        Fail(&t, "block does not end in a terminator");
    }
    for (uint32_t l : targets) {
      auto it = index_.find(l);
      if (it == index_.end()) Fail(&t, "branch to an unknown block");
      if (std::find(succ_[b].begin(), succ_[b].end(), it->second) == succ_[b].end()) {
        succ_[b].push_back(it->second);
        pred_[it->second].push_back(b);
      }
    }
  }
  // Reachability and reverse post-order; irreducibility via DFS retreating edges.
  reachable_.assign(n, false);
  std::vector<int> post, state(n, 0);
  std::vector<std::pair<int, size_t>> stack{{0, 0}};
  state[0] = 1;
  std::vector<std::pair<int, int>> retreating;
  while (!stack.empty()) {
    auto& [b, k] = stack.back();
    if (k < succ_[b].size()) {
      const int s = succ_[b][k++];
      if (state[s] == 0) {
        state[s] = 1;
        stack.push_back({s, 0});
      } else if (state[s] == 1) {
        retreating.push_back({b, s});
      }
    } else {
      state[b] = 2;
      post.push_back(b);
      stack.pop_back();
    }
  }
  rpo_.assign(post.rbegin(), post.rend());
  rpo_pos_.assign(n, -1);
  for (size_t i = 0; i < rpo_.size(); ++i) {
    rpo_pos_[rpo_[i]] = static_cast<int>(i);
    reachable_[rpo_[i]] = true;
  }
  // Dominators (Cooper, Harvey, Kennedy).
  idom_.assign(n, -1);
  idom_[0] = 0;
  auto intersect = [&](int a, int b, const std::vector<int>& dom, const std::vector<int>& pos) {
    while (a != b) {
      while (pos[a] > pos[b]) a = dom[a];
      while (pos[b] > pos[a]) b = dom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < rpo_.size(); ++i) {
      const int b = rpo_[i];
      int nd = -1;
      for (int p : pred_[b]) {
        if (!reachable_[p] || idom_[p] < 0) continue;
        nd = nd < 0 ? p : intersect(p, nd, idom_, rpo_pos_);
      }
      if (nd != idom_[b]) {
        idom_[b] = nd;
        changed = true;
      }
    }
  }
  auto dominates = [&](int a, int b) {
    while (true) {
      if (a == b) return true;
      if (b == 0) return false;
      b = idom_[b];
    }
  };
  for (auto [from, to] : retreating) {
    if (!dominates(to, from)) {
      Fail(&blocks_[from].insns.back(),
           "irreducible control flow (a loop with more than one entry) is not supported");
    }
  }
  // Natural loops, innermost last-assigned.
  std::map<int, std::set<int>> bodies;
  for (auto [from, to] : retreating) {
    std::set<int>& body = bodies[to];
    body.insert(to);
    std::vector<int> work{from};
    while (!work.empty()) {
      const int x = work.back();
      work.pop_back();
      if (body.insert(x).second) {
        for (int p : pred_[x]) {
          if (reachable_[p]) work.push_back(p);
        }
      }
    }
  }
  for (auto& [h, body] : bodies) loops_.push_back(Loop{h, -1, body});
  std::sort(loops_.begin(), loops_.end(),
            [](const Loop& a, const Loop& b) { return a.body.size() > b.body.size(); });
  loop_of_.assign(n, -1);
  for (size_t l = 0; l < loops_.size(); ++l) {
    for (size_t p = 0; p < l; ++p) {
      if (loops_[p].body.count(loops_[l].header)) loops_[l].parent = static_cast<int>(p);
    }
    for (int b : loops_[l].body) loop_of_[b] = static_cast<int>(l);  // larger first: inner wins
  }
  // Post-dominators on the reverse graph with a virtual exit (index n).
  std::vector<std::vector<int>> rsucc(n + 1), rpred(n + 1);
  for (int b = 0; b < n; ++b) {
    if (!reachable_[b]) continue;
    if (succ_[b].empty()) {
      rsucc[n].push_back(b);
      rpred[b].push_back(n);
    }
    for (int s : succ_[b]) {
      rsucc[s].push_back(b);
      rpred[b].push_back(s);
    }
  }
  // Blocks that cannot reach an exit (infinite loops) hang off the virtual exit too.
  std::vector<bool> reaches(n + 1, false);
  {
    std::vector<int> work{n};
    reaches[n] = true;
    while (!work.empty()) {
      int x = work.back();
      work.pop_back();
      for (int y : rsucc[x]) {
        if (!reaches[y]) {
          reaches[y] = true;
          work.push_back(y);
        }
      }
    }
    for (int b = 0; b < n; ++b) {
      if (reachable_[b] && !reaches[b]) {
        rsucc[n].push_back(b);
        rpred[b].push_back(n);
      }
    }
  }
  std::vector<int> rpost, rstate(n + 1, 0);
  std::vector<std::pair<int, size_t>> rstack{{n, 0}};
  rstate[n] = 1;
  while (!rstack.empty()) {
    auto& [b, k] = rstack.back();
    if (k < rsucc[b].size()) {
      const int s = rsucc[b][k++];
      if (!rstate[s]) {
        rstate[s] = 1;
        rstack.push_back({s, 0});
      }
    } else {
      rpost.push_back(b);
      rstack.pop_back();
    }
  }
  std::vector<int> rorder(rpost.rbegin(), rpost.rend()), rpos(n + 1, -1);
  for (size_t i = 0; i < rorder.size(); ++i) rpos[rorder[i]] = static_cast<int>(i);
  ipdom_.assign(n + 1, -1);
  ipdom_[n] = n;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < rorder.size(); ++i) {
      const int b = rorder[i];
      int nd = -1;
      for (int p : rpred[b]) {
        if (ipdom_[p] < 0 || rpos[p] < 0) continue;
        nd = nd < 0 ? p : intersect(p, nd, ipdom_, rpos);
      }
      if (nd != ipdom_[b]) {
        ipdom_[b] = nd;
        changed = true;
      }
    }
  }
  // Control dependence: for each edge a -> b, the post-dominator-tree path from b up to
  // (excluding) ipdom(a) depends on a.
  cd_.assign(n, {});
  for (int a = 0; a < n; ++a) {
    if (!reachable_[a] || succ_[a].size() < 2) continue;
    for (int b : succ_[a]) {
      int r = b;
      while (r != n && r != ipdom_[a] && r >= 0) {
        cd_[r].insert(a);
        r = ipdom_[r];
      }
    }
  }
}

// ---- 3. divergence ----------------------------------------------------------------------------

bool Lowerer::TermVarying(int b) const {
  const SpvInsn& t = blocks_[b].insns.back();
  if (t.op == spv::OpBranchConditional) return succ_[b].size() > 1 && Varying(t.ops.at(0));
  if (t.op == spv::OpSwitch) return succ_[b].size() > 1 && Varying(t.ops.at(0));
  return false;
}

namespace {
bool LaneBuiltin(spv::BuiltIn b) {
  return b == spv::BuiltInGlobalInvocationId || b == spv::BuiltInLocalInvocationId ||
         b == spv::BuiltInGlobalLinearId || b == spv::BuiltInLocalInvocationIndex ||
         b == spv::BuiltInSubgroupLocalInvocationId;
}
}  // namespace

bool Lowerer::InsnVarying(const SpvInsn& in, int b) const {
  switch (in.op) {
    case spv::OpPhi: {
      if (divergent_[b]) return true;
      for (size_t k = 0; k + 1 < in.ops.size(); k += 2) {
        if (Varying(in.ops[k])) return true;
        auto it = index_.find(in.ops[k + 1]);
        if (it != index_.end() && (divergent_[it->second] || TermVarying(it->second))) return true;
      }
      return false;
    }
    case spv::OpVariable:
      return true;  // private: a per-lane address
    case spv::OpLoad: {
      const uint32_t ptr = in.ops.at(0);
      const SpvInsn* d = m_.Def(ptr);
      if (d && d->op == spv::OpVariable) {
        uint32_t bi = 0;
        if (m_.HasDecoration(ptr, spv::DecorationBuiltIn, &bi)) {
          return LaneBuiltin(static_cast<spv::BuiltIn>(bi));
        }
      }
      return Varying(ptr);
    }
    case spv::OpSubgroupShuffleINTEL:
    case spv::OpSubgroupShuffleDownINTEL:
    case spv::OpSubgroupShuffleUpINTEL:
    case spv::OpSubgroupShuffleXorINTEL:
    case spv::OpGroupNonUniformShuffle:
    case spv::OpGroupNonUniformShuffleXor:
    case spv::OpGroupNonUniformShuffleUp:
    case spv::OpGroupNonUniformShuffleDown:
    case spv::OpGroupNonUniformRotateKHR:
    case spv::OpGroupNonUniformElect:
    case spv::OpGroupNonUniformInverseBallot:
    case spv::OpFunctionCall:
      return true;
    case spv::OpGroupAll:
    case spv::OpGroupAny:
    case spv::OpGroupNonUniformAll:
    case spv::OpGroupNonUniformAny:
    case spv::OpGroupNonUniformAllEqual:
    case spv::OpGroupNonUniformBallot:
    case spv::OpGroupBroadcast:
    case spv::OpGroupNonUniformBroadcast:
    case spv::OpGroupNonUniformBroadcastFirst:
      return false;
    default:
      break;
  }
  if (in.op >= spv::OpAtomicLoad && in.op <= spv::OpAtomicXor) return true;
  for (size_t k = 0; k < in.ops.size(); ++k) {
    if (in.is_id[k] && Varying(in.ops[k])) return true;
  }
  return false;
}

void Lowerer::Divergence() {
  const int n = static_cast<int>(blocks_.size());
  divergent_.assign(n, false);
  // Uses outside the defining block (phi uses count in the predecessor).
  std::map<uint32_t, std::set<int>> use_blocks;
  for (int b = 0; b < n; ++b) {
    for (const SpvInsn& in : blocks_[b].insns) {
      if (in.op == spv::OpPhi) {
        for (size_t k = 0; k + 1 < in.ops.size(); k += 2) {
          auto it = index_.find(in.ops[k + 1]);
          if (it != index_.end()) use_blocks[in.ops[k]].insert(it->second);
        }
      } else {
        for (size_t k = 0; k < in.ops.size(); ++k) {
          if (in.is_id[k]) use_blocks[in.ops[k]].insert(b);
        }
      }
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (int b : rpo_) {
      for (const SpvInsn& in : blocks_[b].insns) {
        if (!in.id || Varying(in.id)) continue;
        bool v = InsnVarying(in, b);
        // A uniform value computed in a divergent block and used in another block lives in a
        // vector register: a scalar write would reach lanes still waiting elsewhere.
        if (!v && divergent_[b]) {
          for (int ub : use_blocks[in.id]) {
            if (ub != b) v = true;
          }
        }
        if (v) {
          varying_.insert(in.id);
          changed = true;
        }
      }
    }
    for (int b : rpo_) {
      if (divergent_[b]) continue;
      for (int a : cd_[b]) {
        if (divergent_[a] || TermVarying(a)) {
          divergent_[b] = true;
          changed = true;
          break;
        }
      }
    }
  }
}

// ---- 4. layout --------------------------------------------------------------------------------

void Lowerer::OrderRegion(int loop, std::vector<int>* out) {
  // Representative of a block at this level: itself, or the header of its outermost sub-loop.
  auto in_region = [&](int b) { return loop < 0 || loops_[loop].body.count(b) != 0; };
  auto rep = [&](int b) {
    int l = loop_of_[b];
    int r = b;
    while (l >= 0 && l != loop) {
      r = loops_[l].header;
      l = loops_[l].parent;
    }
    return r;
  };
  std::set<int> nodes;
  for (int b : rpo_) {
    if (in_region(b)) nodes.insert(rep(b));
  }
  std::map<int, std::set<int>> edges;
  std::map<int, int> indeg;
  for (int x : nodes) indeg[x] = 0;
  for (int b : rpo_) {
    if (!in_region(b)) continue;
    for (int s : succ_[b]) {
      if (!reachable_[s] || !in_region(s)) continue;
      if (loop >= 0 && s == loops_[loop].header) continue;  // back edge of this loop
      const int rb = rep(b), rs = rep(s);
      if (rb == rs) continue;
      if (edges[rb].insert(rs).second) indeg[rs]++;
    }
  }
  auto cmp = [&](int a, int b) { return rpo_pos_[a] > rpo_pos_[b]; };
  std::vector<int> ready;
  for (int x : nodes) {
    if (indeg[x] == 0) ready.push_back(x);
  }
  while (!ready.empty()) {
    std::sort(ready.begin(), ready.end(), cmp);
    const int x = ready.back();
    ready.pop_back();
    const int l = loop_of_[x];
    if (x != (loop >= 0 ? loops_[loop].header : -1) && l >= 0 && l != loop &&
        loops_[l].header == x) {
      // A sub-loop: lay it out whole; the loops whose header it is end at its last block.
      int sub = l;
      while (loops_[sub].parent != loop) sub = loops_[sub].parent;
      OrderRegion(sub, out);
      loop_end_[out->back()].push_back(sub);
    } else {
      out->push_back(x);
    }
    for (int y : edges[x]) {
      if (--indeg[y] == 0) ready.push_back(y);
    }
  }
}

void Lowerer::Layout() {
  OrderRegion(-1, &order_);
  // A loop whose header is the entry block (possible after inlining: never for a kernel entry).
  if (order_.empty() || order_[0] != 0) Fail(nullptr, "the entry block is a loop header");
  // Guard bits: divergent blocks get mask bits, uniform blocks flag bits. A bit is busy from
  // the first predecessor (in layout order) that may set it to the block that clears it (from
  // the header of any loop the predecessor is in and the block is not), and for a loop header
  // to the end of its loop (the back edges set it); blocks whose intervals do not overlap share
  // a bit (interval colouring, as a register allocator would).
  guard_bit_.assign(blocks_.size(), -1);
  std::vector<int> pos(blocks_.size(), -1);
  for (size_t i = 0; i < order_.size(); ++i) pos[order_[i]] = static_cast<int>(i);
  std::map<int, int> loop_last;  // header -> layout position of the loop's last block
  for (const auto& [blk, ls] : loop_end_) {
    for (int l : ls) loop_last[loops_[l].header] = pos[blk];
  }
  struct Interval {
    int start, end, block;
  };
  std::vector<Interval> vi, si;
  for (size_t i = 1; i < order_.size(); ++i) {
    const int b = order_[i];
    int start = pos[b], end = pos[b];
    for (int p : pred_[b]) {
      if (pos[p] < 0) continue;
      start = std::min(start, pos[p]);
      // Set inside a loop that b is not in: the bit stays set while that loop iterates, so it
      // is busy from the loop's header on.
      for (int l = loop_of_[p]; l >= 0; l = loops_[l].parent) {
        if (!loops_[l].body.count(b)) start = std::min(start, pos[loops_[l].header]);
      }
    }
    auto ll = loop_last.find(b);
    if (ll != loop_last.end()) end = std::max(end, ll->second);
    (divergent_[b] ? vi : si).push_back({start, end, b});
  }
  auto colour = [&](std::vector<Interval>& iv, unsigned* count) {
    std::sort(iv.begin(), iv.end(),
              [](const Interval& a, const Interval& b) { return a.start < b.start; });
    std::vector<int> busy_until;  // per bit: last position it is busy
    for (const Interval& x : iv) {
      int bit = -1;
      for (size_t k = 0; k < busy_until.size(); ++k) {
        if (busy_until[k] < x.start) {
          bit = static_cast<int>(k);
          break;
        }
      }
      if (bit < 0) {
        bit = static_cast<int>(busy_until.size());
        busy_until.push_back(0);
      }
      busy_until[bit] = x.end;
      guard_bit_[x.block] = bit;
    }
    *count = static_cast<unsigned>(busy_until.size());
  };
  colour(vi, &num_vbits_);
  colour(si, &num_sbits_);
}

// ---- 5. instruction selection -----------------------------------------------------------------

namespace {
Opnd GuardReg(const std::vector<unsigned>& regs, int bit) {
  return Opnd::Phys(regs[static_cast<unsigned>(bit) / kBitsPerGuardReg]);
}
int32_t GuardMask(int bit) { return 1 << (static_cast<unsigned>(bit) % kBitsPerGuardReg); }
int GuardShift(int bit) { return static_cast<int>(static_cast<unsigned>(bit) % kBitsPerGuardReg); }
}  // namespace

void Lowerer::SetGuard(int target, const Val* cond, bool negate) {
  const int bit = guard_bit_[target];
  if (bit < 0) return;
  if (divergent_[target]) {
    Opnd reg = GuardReg(vmask_regs_, bit);
    if (!cond) {
      Emit(Op::kOri, kDtU32, 0, reg, reg, {}, {}, GuardMask(bit));
      return;
    }
    Opnd c = Word(*cond);
    Opnd t = NewReg(IsScalar(*cond), false);
    if (negate) {
      Emit(Op::kXori, kDtU32, 0, t, c, {}, {}, 1);
      c = t;
    }
    Emit(Op::kShli, kDtU32, 0, t, c, {}, {}, GuardShift(bit));
    Emit(Op::kOr, kDtU32, 0, reg, reg, t);
  } else {
    Opnd reg = GuardReg(sflag_regs_, bit);
    if (!cond) {
      Emit(Op::kOri, kDtU32, 0, reg, reg, {}, {}, GuardMask(bit));
      return;
    }
    Opnd c = Word(*cond);
    Opnd t = NewReg(true, false);
    if (!IsScalar(*cond)) {
      Opnd v = c;
      if (negate) {
        Opnd nv = NewReg(false, false);
        Emit(Op::kXori, kDtU32, 0, nv, c, {}, {}, 1);
        v = nv;
      }
      Emit(Op::kVote, kDtI32, Mod(isa::ModVote::kAny), t, v);
    } else if (negate) {
      Emit(Op::kXori, kDtU32, 0, t, c, {}, {}, 1);
    } else {
      Emit(Op::kShli, kDtU32, 0, t, c, {}, {}, GuardShift(bit));
      Emit(Op::kOr, kDtU32, 0, reg, reg, t);
      return;
    }
    Emit(Op::kShli, kDtU32, 0, t, t, {}, {}, GuardShift(bit));
    Emit(Op::kOr, kDtU32, 0, reg, reg, t);
  }
}

void Lowerer::CopyToPhis(int from, int to, const Val* cond, bool negate) {
  const uint32_t from_label = blocks_[from].label;
  // Parallel copy: read every source before writing any destination.
  std::vector<std::pair<Opnd, Val>> copies;  // dest, source
  std::vector<unsigned> dts;
  for (const SpvInsn& phi : blocks_[to].insns) {
    if (phi.op != spv::OpPhi) break;
    uint32_t src = 0;
    bool found = false;
    for (size_t k = 0; k + 1 < phi.ops.size(); k += 2) {
      if (phi.ops[k + 1] == from_label) {
        src = phi.ops[k];
        found = true;
      }
    }
    if (!found) Fail(&phi, "OpPhi has no value for a predecessor");
    std::vector<Val> sv = Get(src, &phi);
    const std::vector<Opnd>& dv = phi_regs_.at(phi.id);
    const std::vector<Scal> sc = LeafScals(phi.type);
    for (size_t i = 0; i < dv.size(); ++i) {
      copies.push_back({dv[i], sv.at(i)});
      dts.push_back(sc[i].pair() ? kDtU64 : kDtU32);
    }
  }
  if (copies.empty()) return;
  // Sources that are destinations of this copy group go through temporaries.
  std::vector<Val> srcs;
  for (size_t i = 0; i < copies.size(); ++i) {
    Val s = copies[i].second;
    bool clash = false;
    for (const auto& c : copies) {
      if (!s.is_const && s.o.kind == Opnd::kVirt && c.first.kind == Opnd::kVirt &&
          s.o.idx == c.first.idx)
        clash = true;
    }
    if (clash) {
      const bool pair = isa::DtypeIs64(dts[i]);
      Opnd t = NewReg(IsScalar(s), pair);
      Emit(pair ? Op::kAddi : Op::kAddi, dts[i], 0, t, s.o, {}, {}, 0);
      s = Val::Reg(t, pair);
    }
    srcs.push_back(s);
  }
  for (size_t i = 0; i < copies.size(); ++i) {
    const Opnd d = copies[i].first;
    const bool pair = isa::DtypeIs64(dts[i]);
    const Val& s = srcs[i];
    if (!cond) {
      if (s.is_const && (pair ? FitsImm(static_cast<int64_t>(s.c))
                              : FitsImm(static_cast<int32_t>(static_cast<uint32_t>(s.c))))) {
        Emit(Op::kLi, pair ? kDtI64 : kDtI32, 0, d, {}, {}, {},
             static_cast<int32_t>(s.c & 0xffffffffu));
      } else {
        Emit(Op::kAddi, dts[i], 0, d, pair ? Mat(s) : Word(s), {}, {}, 0);
      }
    } else {
      Opnd c = Word(*cond);
      Opnd src = pair ? Mat(s) : Word(s);
      MInsn& mi = negate ? Emit(Op::kSel, dts[i], 0, d, c, d, src)
                         : Emit(Op::kSel, dts[i], 0, d, c, src, d);
      mi.rd_partial = true;
    }
  }
}

// The branch condition, in a register no phi copy of this edge group overwrites: when the
// condition is itself a phi of a target (a rotated loop's "first iteration" flag), the copies
// would clobber it before the later copies and the guard bits read it.
Val Lowerer::StableCond(const Val& c, int b) {
  if (c.is_const || c.o.kind != Opnd::kVirt) return c;
  for (int s : succ_[b]) {
    for (const SpvInsn& phi : blocks_[s].insns) {
      if (phi.op != spv::OpPhi) break;
      for (const Opnd& d : phi_regs_.at(phi.id)) {
        if (d.idx == c.o.idx) {
          Opnd t = NewReg(IsScalar(c), false);
          Emit(Op::kAddi, kDtU32, 0, t, Word(c), {}, {}, 0);
          return Val::Reg(t, false);
        }
      }
    }
  }
  return c;
}

bool Lowerer::DivergentSelfLoop(int b) const {
  if (!divergent_[b] || loop_of_[b] < 0) return false;
  const Loop& l = loops_[loop_of_[b]];
  const SpvInsn& t = blocks_[b].insns.back();
  return l.header == b && l.body.size() == 1 && t.op == spv::OpBranchConditional &&
         succ_[b].size() == 2;
}

void Lowerer::SelectTerminator(const SpvInsn& t, int b) {
  // A divergent loop of one block uses the ISA's loop form: lanes that leave drop out of exec
  // with `mbrk` and the rest repeat the body while any is left (`bexnz`), inside the block's
  // own split/join; no guard bits on the back edge.
  if (DivergentSelfLoop(b)) {
    const int st = index_.at(t.ops[1]), sf = index_.at(t.ops[2]);
    const bool back_is_true = st == b;
    const int exit = back_is_true ? sf : st;
    Val c = StableCond(Get1(t.ops[0], &t), b);
    if (c.is_const) c = Val::Reg(Mat(c), false);
    CopyToPhis(b, b, &c, !back_is_true);
    CopyToPhis(b, exit, &c, back_is_true);
    SetGuard(exit, &c, back_is_true);
    // Exit condition: per lane, 1 when the lane leaves.
    Opnd e = Word(c);
    if (back_is_true) {
      Opnd n = NewReg(IsScalar(c), false);
      Emit(Op::kXori, kDtU32, 0, n, e, {}, {}, 1);
      e = n;
    }
    Emit(Op::kMbrk, kDtI32, 0, {}, e);
    Emit(Op::kBexnz, kDtI32, 0, {}).target = body_label_[b];
    return;
  }
  // Uniform control flow between uniform blocks: all live lanes are here and none waits
  // anywhere else, so the branch jumps straight to the target's body (no guard bits), with
  // the phi copies of the taken edge only.
  if (!divergent_[b] && !TermVarying(b) &&
      (t.op == spv::OpBranch || t.op == spv::OpBranchConditional)) {
    bool all_uniform = true;
    for (int s : succ_[b]) all_uniform = all_uniform && !divergent_[s];
    if (all_uniform) {
      auto go = [&](int s) {
        CopyToPhis(b, s, nullptr, false);
        Emit(Op::kBr, kDtI32, 0, {}).target = body_label_[s];
      };
      if (t.op == spv::OpBranch) {
        go(index_.at(t.ops[0]));
        return;
      }
      const int st = index_.at(t.ops[1]), sf = index_.at(t.ops[2]);
      Val c = st == sf ? Val::Const(1, false) : Get1(t.ops[0], &t);
      if (c.is_const) {
        go((c.c & 1) ? st : sf);
        return;
      }
      auto has_phis = [&](int s) { return blocks_[s].insns.front().op == spv::OpPhi; };
      if (!has_phis(st)) {
        Emit(Op::kBnz, kDtI32, 0, {}, Word(c)).target = body_label_[st];
        go(sf);
        return;
      }
      if (!has_phis(sf)) {
        Emit(Op::kBz, kDtI32, 0, {}, Word(c)).target = body_label_[sf];
        go(st);
        return;
      }
      const int lf = f_.num_labels++;
      Emit(Op::kBz, kDtI32, 0, {}, Word(c)).target = lf;
      go(st);
      MInsn l;
      l.label = lf;
      cur_->insns.push_back(l);
      go(sf);
      return;
    }
  }
  switch (t.op) {
    case spv::OpBranch: {
      const int s = index_.at(t.ops[0]);
      CopyToPhis(b, s, nullptr, false);
      SetGuard(s, nullptr, false);
      return;
    }
    case spv::OpBranchConditional: {
      const int st = index_.at(t.ops[1]), sf = index_.at(t.ops[2]);
      if (st == sf) {
        CopyToPhis(b, st, nullptr, false);
        SetGuard(st, nullptr, false);
        return;
      }
      Val c = StableCond(Get1(t.ops[0], &t), b);
      if (c.is_const) {
        const int s = (c.c & 1) ? st : sf;
        CopyToPhis(b, s, nullptr, false);
        SetGuard(s, nullptr, false);
        return;
      }
      CopyToPhis(b, st, &c, false);
      CopyToPhis(b, sf, &c, true);
      SetGuard(st, &c, false);
      SetGuard(sf, &c, true);
      return;
    }
    case spv::OpSwitch: {
      Val sel = Get1(t.ops[0], &t);
      const Scal sc = ScalOf(defs_.count(t.ops[0]) ? defs_.at(t.ops[0])->type
                                                    : m_.Def(t.ops[0])->type);
      const bool scalar = IsScalar(sel);
      const unsigned lit_words = sc.bits == 64 ? 2 : 1;
      std::map<int, Val> cond;  // target -> condition
      Val any = Val::Const(0, false);
      for (size_t k = 2; k + lit_words < t.ops.size() + 1 && k < t.ops.size(); k += lit_words + 1) {
        uint64_t lit = t.ops[k];
        if (lit_words == 2) lit |= static_cast<uint64_t>(t.ops[k + 1]) << 32;
        const int target = index_.at(t.ops[k + lit_words]);
        Val eq = Cmp(isa::ModCmp::kEq, DtOf(sc), sel, Val::Const(lit, sc.pair()), scalar);
        auto it = cond.find(target);
        cond[target] = it == cond.end() ? eq : Bin(Op::kOr, Op::kOri, kDtU32, it->second, eq,
                                                   scalar, true);
        any = Bin(Op::kOr, Op::kOri, kDtU32, any, eq, scalar, true);
      }
      const int def = index_.at(t.ops[1]);
      Val none = Bin(Op::kXor, Op::kXori, kDtU32, any, Val::Const(1, false), scalar, true);
      auto it = cond.find(def);
      cond[def] = it == cond.end() ? none : Bin(Op::kOr, Op::kOri, kDtU32, it->second, none,
                                                scalar, true);
      for (auto& [target, c] : cond) CopyToPhis(b, target, &c, false);
      for (auto& [target, c] : cond) SetGuard(target, &c, false);
      return;
    }
    case spv::OpReturn:
    case spv::OpReturnValue:
    case spv::OpUnreachable:
    case spv::OpKill:
      return;  // the lane is done: it waits at the end of the kernel
    default:
      Fail(&t, "unsupported terminator");
  }
}

void Lowerer::Select() {
  // Reserved registers: mask registers from v31 down, flag registers from s31 down.
  const unsigned nv = (num_vbits_ + kBitsPerGuardReg - 1) / kBitsPerGuardReg;
  const unsigned ns = (num_sbits_ + kBitsPerGuardReg - 1) / kBitsPerGuardReg;
  if (nv > 4 || ns > 4) {
    Fail(nullptr, "control flow too large: more than 92 blocks whose guards are live at once");
  }
  for (unsigned i = 0; i < nv; ++i) vmask_regs_.push_back(31 - i);
  for (unsigned i = 0; i < ns; ++i) sflag_regs_.push_back(63 - i);
  f_.reserved_v = vmask_regs_;
  // Scratch for code that runs for every lane between blocks (guards, loop-end votes).
  guard_scratch_ = 31 - nv;
  if (num_vbits_ > 0) f_.reserved_v.push_back(guard_scratch_);
  for (unsigned r : sflag_regs_) f_.reserved_s.push_back(r - 32);
  // Private variables of the whole (inlined) function.
  for (const SpvBlock& blk : blocks_) {
    for (const SpvInsn& in : blk.insns) {
      if (in.op != spv::OpVariable) continue;
      const uint32_t pointee = T(in.type).elem;
      const uint32_t align = std::max(4u, TypeAlign(m_, pointee));
      private_bytes_ = (private_bytes_ + align - 1) / align * align;
      private_offset_[in.id] = private_bytes_;
      private_bytes_ += TypeSize(m_, pointee);
    }
  }
  private_bytes_ = (private_bytes_ + 7) / 8 * 8;
  // Phi destinations.
  for (int b : order_) {
    for (const SpvInsn& in : blocks_[b].insns) {
      if (in.op != spv::OpPhi) break;
      std::vector<Opnd> regs;
      for (const Scal& s : LeafScals(in.type)) regs.push_back(NewReg(!Varying(in.id), s.pair()));
      phi_regs_[in.id] = regs;
      std::vector<Val> v;
      const std::vector<Scal> sc = LeafScals(in.type);
      for (size_t i = 0; i < regs.size(); ++i) v.push_back(Val::Reg(regs[i], sc[i].pair()));
      vals_[in.id] = v;
    }
  }
  block_label_.assign(blocks_.size(), -1);
  body_label_.assign(blocks_.size(), -1);
  for (int b : order_) {
    block_label_[b] = f_.num_labels++;
    body_label_[b] = f_.num_labels++;
  }
  const int end_label = f_.num_labels++;
  for (size_t i = 0; i < order_.size(); ++i) {
    const int b = order_[i];
    f_.blocks.emplace_back();
    cur_ = &f_.blocks.back();
    cur_->spv_label = blocks_[b].label;
    cur_->divergent = divergent_[b];
    cur_block_ = b;
    cur_insn_ = &blocks_[b].insns.front();
    MInsn lab;
    lab.label = block_label_[b];
    cur_->insns.push_back(lab);
    int skip_label = -1;
    if (i == 0) {
      // Kernel entry: clear the guard registers, load the arguments.
      for (unsigned r : vmask_regs_) Emit(Op::kLi, kDtU32, 0, Opnd::Phys(r), {}, {}, {}, 0);
      for (unsigned r : sflag_regs_) Emit(Op::kLi, kDtU32, 0, Opnd::Phys(r), {}, {}, {}, 0);
      for (size_t p = 0; p < params_.size(); ++p) {
        const KernelArg& a = meta_->args[p];
        const uint32_t ptype = defs_.count(params_[p]) ? 0 : m_.Def(params_[p])->type;
        const SpvType& pt = T(ptype);
        if (a.kind == ArgKind::kScalar && (pt.kind == TypeKind::kInt || pt.kind == TypeKind::kFloat ||
                                           pt.kind == TypeKind::kBool)) {
          const Scal s = ScalOf(ptype);
          Opnd rd = NewReg(true, s.pair());
          Emit(Op::kLd, s.pair() ? kDtU64 : DtOf(s), 0, rd, Opnd::Phys(kRegLaunch), {}, {},
               static_cast<int32_t>(a.offset));
          vals_[params_[p]] = {Val::Reg(rd, s.pair())};
        } else if (a.kind == ArgKind::kScalar) {
          // By-value aggregate or vector in the launch block: leaves loaded individually.
          std::vector<Leaf> leaves;
          const uint32_t vt = pt.kind == TypeKind::kPointer ? pt.elem : ptype;
          Flatten(m_, vt, 0, &leaves);
          if (pt.kind == TypeKind::kPointer) {  // byval struct: pass its address
            Opnd rd = NewReg(true, false);
            Emit(Op::kAddi, kDtU32, 0, rd, Opnd::Phys(kRegLaunch), {}, {},
                 static_cast<int32_t>(a.offset));
            vals_[params_[p]] = {Val::Reg(rd, false)};
          } else {
            std::vector<Val> v;
            for (const Leaf& l : leaves) {
              const Scal s = ScalOf(l.type);
              Opnd rd = NewReg(true, s.pair());
              Emit(Op::kLd, s.pair() ? kDtU64 : DtOf(s), 0, rd, Opnd::Phys(kRegLaunch), {}, {},
                   static_cast<int32_t>(a.offset + l.offset));
              v.push_back(Val::Reg(rd, s.pair()));
            }
            vals_[params_[p]] = v;
          }
        } else {
          Opnd rd = NewReg(true, false);
          Emit(Op::kLd, kDtU32, 0, rd, Opnd::Phys(kRegLaunch), {}, {},
               static_cast<int32_t>(a.offset));
          vals_[params_[p]] = {Val::Reg(rd, false)};
        }
      }
    } else {
      skip_label = f_.num_labels++;
      const int bit = guard_bit_[b];
      if (divergent_[b]) {
        // The guard runs before `split`, for every lane: its temporary is the reserved
        // scratch register, never a value's register (that would clobber waiting lanes).
        Opnd reg = GuardReg(vmask_regs_, bit);
        Opnd t = Opnd::Phys(guard_scratch_);
        Emit(Op::kAndi, kDtU32, 0, t, reg, {}, {}, GuardMask(bit));
        Emit(Op::kSplit, kDtI32, 0, {}, t);
        Emit(Op::kBexz, kDtI32, 0, {}).target = skip_label;
        Emit(Op::kAndi, kDtU32, 0, reg, reg, {}, {}, ~GuardMask(bit));
      } else {
        Opnd reg = GuardReg(sflag_regs_, bit);
        Opnd t = NewReg(true, false);
        Emit(Op::kAndi, kDtU32, 0, t, reg, {}, {}, GuardMask(bit));
        Emit(Op::kBz, kDtI32, 0, {}, t).target = skip_label;
        Emit(Op::kAndi, kDtU32, 0, reg, reg, {}, {}, ~GuardMask(bit));
      }
    }
    {
      MInsn bl;
      bl.label = body_label_[b];
      cur_->insns.push_back(bl);
    }
    SelectBlock(b);
    if (skip_label >= 0) {
      MInsn sl;
      sl.label = skip_label;
      cur_->insns.push_back(sl);
      if (divergent_[b]) Emit(Op::kJoin, kDtI32, 0, {});
    }
    // Loops ending here: jump back while any lane wants the header again.
    auto le = loop_end_.find(b);
    if (le != loop_end_.end()) {
      for (int l : le->second) {
        const int h = loops_[l].header;
        if (DivergentSelfLoop(h)) continue;  // repeats inside its block (mbrk/bexnz)
        const int bit = guard_bit_[h];
        Opnd t = NewReg(true, false);
        if (divergent_[h]) {
          Opnd v = Opnd::Phys(guard_scratch_);  // after the join: every lane (see the guard)
          Emit(Op::kAndi, kDtU32, 0, v, GuardReg(vmask_regs_, bit), {}, {}, GuardMask(bit));
          Emit(Op::kVote, kDtI32, Mod(isa::ModVote::kAny), t, v);
        } else {
          Emit(Op::kAndi, kDtU32, 0, t, GuardReg(sflag_regs_, bit), {}, {}, GuardMask(bit));
        }
        Emit(Op::kBnz, kDtI32, 0, {}, t).target = block_label_[h];
      }
    }
  }
  cur_insn_ = nullptr;
  std::vector<int> pos(blocks_.size(), -1);
  for (size_t i = 0; i < order_.size(); ++i) pos[order_[i]] = static_cast<int>(i);
  for (size_t i = 0; i < order_.size(); ++i) {
    for (int s : succ_[order_[i]]) {
      if (pos[s] >= 0) f_.blocks[i].succs.push_back(pos[s]);
    }
  }
  MInsn el;
  el.label = end_label;
  cur_->insns.push_back(el);
  Emit(Op::kHalt, kDtI32, 0, {});
  f_.private_bytes = private_bytes_;
  if (uses_vpriv_) f_.vpriv = 1;  // request: the allocator sets the private base up
}

void Lowerer::SelectBlock(int b) {
  const auto& insns = blocks_[b].insns;
  for (size_t k = 0; k < insns.size(); ++k) {
    const SpvInsn& in = insns[k];
    cur_insn_ = &in;
    if (k + 1 == insns.size()) {
      SelectTerminator(in, b);
    } else if (in.op != spv::OpPhi) {
      SelectInsn(in, b);
    }
  }
}

std::vector<Val> Lowerer::ToWords(const std::vector<Val>& comps, const std::vector<Scal>& types) {
  std::vector<Val> words;
  Val acc;
  unsigned fill = 0;
  bool scalar = true;
  for (const Val& v : comps) scalar = scalar && IsScalar(v);
  for (size_t i = 0; i < comps.size(); ++i) {
    const Scal& s = types[i];
    const unsigned bits = s.bits;
    if (bits == 64) {
      if (comps[i].is_const) {
        words.push_back(Val::Const(comps[i].c & 0xffffffffu, false));
        words.push_back(Val::Const(comps[i].c >> 32, false));
      } else {
        Opnd lo = comps[i].o, hi = comps[i].o;
        lo.part = Opnd::kLo;
        hi.part = Opnd::kHi;
        words.push_back(Val::Reg(lo, false));
        words.push_back(Val::Reg(hi, false));
      }
      continue;
    }
    if (bits == 32) {
      words.push_back(comps[i]);
      continue;
    }
    // Pack 8/16-bit components little-endian into words.
    Val part = Bin(Op::kAnd, Op::kAndi, kDtU32, comps[i],
                   Val::Const(bits == 8 ? 0xff : 0xffff, false), scalar, true);
    if (fill) part = Bin(Op::kShl, Op::kShli, kDtU32, part, Val::Const(fill, false), scalar, false);
    acc = fill ? Bin(Op::kOr, Op::kOri, kDtU32, acc, part, scalar, true) : part;
    fill += bits;
    if (fill == 32) {
      words.push_back(acc);
      fill = 0;
    }
  }
  if (fill) words.push_back(acc);
  return words;
}

std::vector<Val> Lowerer::FromWords(const std::vector<Val>& words, const std::vector<Scal>& types,
                                    bool scalar) {
  std::vector<Val> out;
  size_t w = 0;
  unsigned fill = 0;
  for (const Scal& s : types) {
    if (s.bits == 64) {
      Val lo = words.at(w++), hi = words.at(w++);
      Val l64 = Cvt(kDtU64, kDtU32, lo, scalar);
      Val h64 = Cvt(kDtU64, kDtU32, hi, scalar);
      h64 = Bin(Op::kShl, Op::kShli, kDtU64, h64, Val::Const(32, true), scalar, false);
      out.push_back(Bin(Op::kOr, Op::kOri, kDtU64, l64, h64, scalar, true));
    } else if (s.bits == 32) {
      out.push_back(words.at(w++));
    } else {
      Val v = words.at(w);
      if (fill) v = Bin(Op::kShr, Op::kShri, kDtU32, v, Val::Const(fill, false), scalar, false);
      out.push_back(v);
      fill += s.bits;
      if (fill == 32) {
        fill = 0;
        ++w;
      }
    }
  }
  return out;
}

std::vector<Val> Lowerer::LoadBuiltin(spv::BuiltIn bi, const SpvInsn& in) {
  auto dims = [&](std::function<Val(unsigned)> f) {
    std::vector<Val> v;
    const size_t n = FlatCount(m_, in.type);
    for (unsigned d = 0; d < n; ++d) v.push_back(f(d));
    return v;
  };
  switch (bi) {
    case spv::BuiltInGlobalInvocationId:
      return dims([&](unsigned d) {
        Val g = LoadField(kRegDesc, abi::kSgGroupId + 4 * d);
        Val ls = LoadField(kRegLaunch, abi::kLbLocalSize + 4 * d);
        Val off = LoadField(kRegLaunch, abi::kLbGlobalOffset + 4 * d);
        Val base = Bin(Op::kMul, Op::kMuli, kDtU32, g, ls, true, true);
        base = Bin(Op::kAdd, Op::kAddi, kDtU32, base, off, true, true);
        return Bin(Op::kAdd, Op::kAddi, kDtU32, LocalId(d, false), base, false, true);
      });
    case spv::BuiltInLocalInvocationId:
      return dims([&](unsigned d) { return LocalId(d, false); });
    case spv::BuiltInWorkgroupId:
      return dims([&](unsigned d) { return LoadField(kRegDesc, abi::kSgGroupId + 4 * d); });
    case spv::BuiltInGlobalSize:
      return dims([&](unsigned d) { return LoadField(kRegLaunch, abi::kLbGlobalSize + 4 * d); });
    case spv::BuiltInWorkgroupSize:
    case spv::BuiltInEnqueuedWorkgroupSize:
      return dims([&](unsigned d) { return LoadField(kRegLaunch, abi::kLbLocalSize + 4 * d); });
    case spv::BuiltInNumWorkgroups:
      return dims([&](unsigned d) { return LoadField(kRegLaunch, abi::kLbNumGroups + 4 * d); });
    case spv::BuiltInGlobalOffset:
      return dims([&](unsigned d) { return LoadField(kRegLaunch, abi::kLbGlobalOffset + 4 * d); });
    case spv::BuiltInWorkDim:
      return {LoadField(kRegLaunch, abi::kLbWorkDim)};
    case spv::BuiltInSubgroupMaxSize: {
      Opnd rd = NewReg(true, false);
      Emit(Op::kCsrr, kDtI32, 0, rd, {}, {}, {}, static_cast<int32_t>(isa::Special::kNumLanes));
      return {Val::Reg(rd, false)};
    }
    case spv::BuiltInSubgroupSize: {
      Opnd rd = NewReg(true, false);
      Emit(Op::kCsrr, kDtI32, 0, rd, {}, {}, {}, static_cast<int32_t>(isa::Special::kLaunchSize));
      return {Val::Reg(rd, false)};
    }
    case spv::BuiltInNumSubgroups:
    case spv::BuiltInNumEnqueuedSubgroups:
      return {LoadField(kRegLaunch, abi::kLbNumSubGroups)};
    case spv::BuiltInSubgroupId:
      return {LoadField(kRegDesc, abi::kSgSubGroupId)};
    case spv::BuiltInSubgroupLocalInvocationId:
      return {Lane()};
    case spv::BuiltInLocalInvocationIndex: {
      Val base = LoadField(kRegDesc, abi::kSgLocalLinearBase);
      return {Bin(Op::kAdd, Op::kAddi, kDtU32, Lane(), base, false, true)};
    }
    case spv::BuiltInGlobalLinearId: {
      // ((gz * GY) + gy) * GX + gx - offsets, with g = global id.
      std::vector<Val> g(3);
      for (unsigned d = 0; d < 3; ++d) {
        Val gr = LoadField(kRegDesc, abi::kSgGroupId + 4 * d);
        Val ls = LoadField(kRegLaunch, abi::kLbLocalSize + 4 * d);
        Val base = Bin(Op::kMul, Op::kMuli, kDtU32, gr, ls, true, true);
        g[d] = Bin(Op::kAdd, Op::kAddi, kDtU32, LocalId(d, false), base, false, true);
      }
      Val gx = LoadField(kRegLaunch, abi::kLbGlobalSize), gy =
          LoadField(kRegLaunch, abi::kLbGlobalSize + 4);
      Val r = Bin(Op::kMul, Op::kMuli, kDtU32, g[2], gy, false, true);
      r = Bin(Op::kAdd, Op::kAddi, kDtU32, r, g[1], false, true);
      r = Bin(Op::kMul, Op::kMuli, kDtU32, r, gx, false, true);
      return {Bin(Op::kAdd, Op::kAddi, kDtU32, r, g[0], false, true)};
    }
    default:
      Fail(&in, "unsupported built-in variable (BuiltIn " + std::to_string(bi) + ")");
  }
}

void Lowerer::SelectInsn(const SpvInsn& in, int b) {
  (void)b;
  const bool scalar = !Varying(in.id);
  auto comps = [&](uint32_t id) { return Get(id, &in); };
  auto result_scals = [&]() { return LeafScals(in.type); };
  // Component-wise binary integer operation.
  auto int_bin = [&](Op op, Op opi, bool is_signed, bool commutative) {
    std::vector<Val> a = comps(in.ops[0]), c = comps(in.ops[1]);
    std::vector<Scal> sc = result_scals();
    std::vector<Val> r;
    for (size_t i = 0; i < a.size(); ++i) {
      r.push_back(Bin(op, opi, DtOf(sc[i], is_signed), a[i], c[i], scalar, commutative));
    }
    Set(in.id, r);
  };
  auto shift = [&](Op op, Op opi, bool is_signed) {
    std::vector<Val> a = comps(in.ops[0]), c = comps(in.ops[1]);
    std::vector<Scal> sc = result_scals();
    const Scal amt = LeafScals(defs_.count(in.ops[1]) ? defs_.at(in.ops[1])->type
                                                      : m_.Def(in.ops[1])->type)[0];
    std::vector<Val> r;
    for (size_t i = 0; i < a.size(); ++i) {
      Val s = c[i];
      if (sc[i].pair() && !amt.pair()) s = s.is_const ? Val::Const(s.c, true)
                                                      : Cvt(kDtU64, kDtU32, s, IsScalar(s));
      if (!sc[i].pair() && amt.pair()) s = s.is_const ? Val::Const(s.c, false)
                                                      : Val::Reg(Word(s), false);
      r.push_back(Bin(op, opi, DtOf(sc[i], is_signed), a[i], s, scalar, false));
    }
    Set(in.id, r);
  };
  auto int_cmp = [&](isa::ModCmp c, bool is_signed) {
    std::vector<Val> a = comps(in.ops[0]), d = comps(in.ops[1]);
    const uint32_t optype = defs_.count(in.ops[0]) ? defs_.at(in.ops[0])->type
                                                   : m_.Def(in.ops[0])->type;
    std::vector<Scal> sc = LeafScals(optype);
    std::vector<Val> r;
    for (size_t i = 0; i < a.size(); ++i) r.push_back(Cmp(c, DtOf(sc[i], is_signed), a[i], d[i], scalar));
    Set(in.id, r);
  };
  auto fbin = [&](Op op) {
    std::vector<Val> a = comps(in.ops[0]), c = comps(in.ops[1]);
    std::vector<Val> r;
    for (size_t i = 0; i < a.size(); ++i) {
      Opnd rd = NewReg(scalar, false);
      const Opnd ra = Word(a[i]), rc = Word(c[i]);
      Emit(op, kDtF32, 0, rd, ra, rc);
      r.push_back(Val::Reg(rd, false));
    }
    Set(in.id, r);
  };
  // Float compare; `unordered` ORs in the NaN case, ordered NE ANDs out NaN.
  auto fcmp = [&](isa::ModFcmp c, bool unordered) {
    std::vector<Val> a = comps(in.ops[0]), d = comps(in.ops[1]);
    std::vector<Val> r;
    for (size_t i = 0; i < a.size(); ++i) {
      Opnd rd = NewReg(scalar, false);
      const Opnd ra = Word(a[i]), rb = Word(d[i]);  // constants materialised once, in order
      Emit(Op::kFcmp, kDtF32, Mod(c), rd, ra, rb);
      Val v = Val::Reg(rd, false);
      const bool nan_true = c == isa::ModFcmp::kNe || c == isa::ModFcmp::kUno;
      if (unordered && !nan_true) {
        Opnd u = NewReg(scalar, false);
        Emit(Op::kFcmp, kDtF32, Mod(isa::ModFcmp::kUno), u, ra, rb);
        v = Bin(Op::kOr, Op::kOri, kDtU32, v, Val::Reg(u, false), scalar, true);
      } else if (!unordered && c == isa::ModFcmp::kNe) {
        Opnd o = NewReg(scalar, false);
        Emit(Op::kFcmp, kDtF32, Mod(isa::ModFcmp::kOrd), o, ra, rb);
        v = Bin(Op::kAnd, Op::kAndi, kDtU32, v, Val::Reg(o, false), scalar, true);
      }
      r.push_back(v);
    }
    Set(in.id, r);
  };
  auto src_scals = [&](uint32_t id) {
    const SpvInsn* d = defs_.count(id) ? defs_.at(id) : m_.Def(id);
    return LeafScals(d->type);
  };

  switch (in.op) {
    case spv::OpNop:
    case spv::OpLifetimeStart:
    case spv::OpLifetimeStop:
    case spv::OpMemoryBarrier:
    case spv::OpAssumeTrueKHR:
    case spv::OpSelectionMerge:
    case spv::OpLoopMerge:
    case spv::OpLine:
    case spv::OpNoLine:
      return;
    case spv::OpControlBarrier: {
      uint64_t scope = 0;
      m_.ScalarConstant(in.ops.at(0), &scope);
      if (scope != spv::ScopeSubgroup) meta_->uses_barrier = true;
      // One sub-group runs at a time, stores are in order: a barrier is a memory fence here.
      return;
    }
    case spv::OpUndef:
      Set(in.id, Get(in.id, &in));
      return;
    case spv::OpCopyObject:
      Set(in.id, comps(in.ops[0]));
      return;
    case spv::OpVariable: {
      // Private variable: this lane's private area + offset.
      uses_vpriv_ = true;
      Opnd rd = NewReg(false, false);
      MInsn& mi = Emit(Op::kAddi, kDtU32, 0, rd, Opnd::Phys(0), {}, {},
                       static_cast<int32_t>(private_offset_.at(in.id)));
      mi.rs1.idx = -1;  // the allocator substitutes the private-base register
      Set(in.id, {Val::Reg(rd, false)});
      if (in.ops.size() > 1) {
        // Initializer: store it.
        std::vector<Leaf> leaves;
        Flatten(m_, T(in.type).elem, 0, &leaves);
        std::vector<Val> v = comps(in.ops[1]);
        for (size_t i = 0; i < leaves.size(); ++i) {
          const Scal s = ScalOf(leaves[i].type);
          Emit(Op::kSt, s.pair() ? kDtU64 : DtOf(s), 0, {}, rd, s.pair() ? Mat(v[i]) : Word(v[i]),
               {}, static_cast<int32_t>(leaves[i].offset));
        }
      }
      return;
    }
    case spv::OpLoad: {
      const uint32_t ptr = in.ops.at(0);
      const SpvInsn* pd = m_.Def(ptr);
      uint32_t bi = 0;
      if (pd && pd->op == spv::OpVariable && m_.HasDecoration(ptr, spv::DecorationBuiltIn, &bi)) {
        Set(in.id, LoadBuiltin(static_cast<spv::BuiltIn>(bi), in));
        return;
      }
      Val addr = Get1(ptr, &in);
      Opnd a = Mat(addr);
      std::vector<Leaf> leaves;
      Flatten(m_, in.type, 0, &leaves);
      std::vector<Val> r;
      for (const Leaf& l : leaves) {
        const Scal s = ScalOf(l.type);
        if (s.is_bool) Fail(&in, "loading a bool from memory is not supported");
        Opnd rd = NewReg(scalar, s.pair());
        Emit(Op::kLd, s.pair() ? kDtU64 : DtOf(s), 0, rd, a, {}, {},
             static_cast<int32_t>(l.offset));
        r.push_back(Val::Reg(rd, s.pair()));
      }
      Set(in.id, r);
      return;
    }
    case spv::OpStore: {
      Val addr = Get1(in.ops.at(0), &in);
      Opnd a = Mat(addr);
      std::vector<Val> v = comps(in.ops.at(1));
      const SpvInsn* vd = defs_.count(in.ops[1]) ? defs_.at(in.ops[1]) : m_.Def(in.ops[1]);
      std::vector<Leaf> leaves;
      Flatten(m_, vd->type, 0, &leaves);
      for (size_t i = 0; i < leaves.size(); ++i) {
        const Scal s = ScalOf(leaves[i].type);
        Emit(Op::kSt, s.pair() ? kDtU64 : DtOf(s), 0, {}, a, s.pair() ? Mat(v[i]) : Word(v[i]),
             {}, static_cast<int32_t>(leaves[i].offset));
      }
      return;
    }
    case spv::OpCopyMemory:
    case spv::OpCopyMemorySized: {
      // memcpy/memset-style copies (clang turns `int a[8] = {0}` into a copy from a zero
      // constant). Typed copies move each leaf; sized copies need a constant size.
      Opnd dst = Mat(Get1(in.ops.at(0), &in)), src = Mat(Get1(in.ops.at(1), &in));
      const bool vec = !IsScalar(Get1(in.ops[0], &in)) || !IsScalar(Get1(in.ops[1], &in));
      std::vector<std::pair<uint32_t, unsigned>> pieces;  // offset, dtype
      size_t access = 2;
      if (in.op == spv::OpCopyMemory) {
        const uint32_t pt = (defs_.count(in.ops[0]) ? defs_.at(in.ops[0]) : m_.Def(in.ops[0]))->type;
        std::vector<Leaf> leaves;
        Flatten(m_, T(pt).elem, 0, &leaves);
        for (const Leaf& l : leaves) {
          const Scal sc = ScalOf(l.type);
          pieces.push_back({l.offset, sc.pair() ? kDtU64 : DtOf(sc)});
        }
      } else {
        uint64_t size = 0;
        if (!m_.ScalarConstant(in.ops.at(2), &size)) {
          Fail(&in, "memory copy of a size known only at run time is not supported");
        }
        if (size > 4096) Fail(&in, "memory copy of more than 4096 bytes is not supported");
        access = 3;
        uint32_t align = 1;
        if (in.ops.size() > access && (in.ops[access] & spv::MemoryAccessAlignedMask) &&
            in.ops.size() > access + 1) {
          align = in.ops[access + 1];
        }
        uint32_t unit = 4;
        while (unit > 1 && (align % unit != 0 || size % unit != 0)) unit /= 2;
        const unsigned dt = unit == 4 ? kDtU32 : unit == 2 ? kDtU16 : kDtU8;
        for (uint32_t o = 0; o < size; o += unit) pieces.push_back({o, dt});
      }
      for (const auto& [off, dt] : pieces) {
        const bool pair = isa::DtypeIs64(dt);
        Opnd t = NewReg(!vec, pair);
        Emit(Op::kLd, dt, 0, t, src, {}, {}, static_cast<int32_t>(off));
        Emit(Op::kSt, dt, 0, {}, dst, t, {}, static_cast<int32_t>(off));
      }
      return;
    }
    case spv::OpAccessChain:
    case spv::OpInBoundsAccessChain:
    case spv::OpPtrAccessChain:
    case spv::OpInBoundsPtrAccessChain: {
      Val addr = Get1(in.ops[0], &in);
      const uint32_t base_type = (defs_.count(in.ops[0]) ? defs_.at(in.ops[0]) : m_.Def(in.ops[0]))->type;
      uint32_t cur = T(base_type).elem;
      size_t k = 1;
      if (in.op == spv::OpPtrAccessChain || in.op == spv::OpInBoundsPtrAccessChain) {
        addr = AddrAdd(addr, Get1(in.ops[1], &in), TypeSize(m_, cur), scalar);
        k = 2;
      }
      for (; k < in.ops.size(); ++k) {
        const SpvType& ct = T(cur);
        if (ct.kind == TypeKind::kStruct) {
          uint64_t idx = 0;
          if (!m_.ScalarConstant(in.ops[k], &idx)) Fail(&in, "non-constant struct index");
          addr = AddrAdd(addr, Val::Const(MemberOffset(m_, ct, static_cast<uint32_t>(idx)), false),
                         1, scalar);
          cur = ct.members.at(idx);
        } else {
          addr = AddrAdd(addr, Get1(in.ops[k], &in), TypeSize(m_, ct.elem), scalar);
          cur = ct.elem;
        }
      }
      if (addr.is_const || IsScalar(addr) != scalar) {
        Opnd rd = NewReg(scalar, false);
        Emit(Op::kAddi, kDtU32, 0, rd, Mat(addr), {}, {}, 0);
        addr = Val::Reg(rd, false);
      }
      Set(in.id, {addr});
      return;
    }
    case spv::OpBitcast: {
      const SpvType& rt = T(in.type);
      std::vector<Val> a = comps(in.ops[0]);
      std::vector<Scal> from = src_scals(in.ops[0]);
      std::vector<Scal> to = result_scals();
      if (rt.kind == TypeKind::kPointer || from[0].is_ptr) {
        Set(in.id, {to[0].pair() ? Cvt(kDtU64, kDtU32, a[0], scalar) : Val::Reg(Word(a[0]), false)});
        return;
      }
      if (from.size() == to.size() && from[0].bits == to[0].bits) {
        Set(in.id, a);
        return;
      }
      Set(in.id, FromWords(ToWords(a, from), to, scalar));
      return;
    }
    case spv::OpConvertPtrToU:
    case spv::OpConvertUToPtr:
    case spv::OpPtrCastToGeneric:
    case spv::OpGenericCastToPtr:
    case spv::OpGenericCastToPtrExplicit: {
      Val a = Get1(in.ops[0], &in);
      const Scal to = result_scals()[0];
      if (to.pair()) {
        Set(in.id, {a.is_const ? Val::Const(a.c, true) : Cvt(kDtU64, kDtU32, a, scalar)});
      } else {
        Set(in.id, {a.is_const ? Val::Const(a.c & 0xffffffffu, false) : Val::Reg(Word(a), false)});
      }
      return;
    }
    case spv::OpIAdd: int_bin(Op::kAdd, Op::kAddi, false, true); return;
    case spv::OpISub: {
      std::vector<Val> a = comps(in.ops[0]), c = comps(in.ops[1]);
      std::vector<Scal> sc = result_scals();
      std::vector<Val> r;
      for (size_t i = 0; i < a.size(); ++i) {
        if (c[i].is_const) {
          r.push_back(Bin(Op::kAdd, Op::kAddi, DtOf(sc[i]), a[i],
                          Val::Const(0 - c[i].c, sc[i].pair()), scalar, true));
        } else {
          r.push_back(Bin(Op::kSub, Op::kNop, DtOf(sc[i]), a[i], c[i], scalar, false));
        }
      }
      Set(in.id, r);
      return;
    }
    case spv::OpIMul: int_bin(Op::kMul, Op::kMuli, false, true); return;
    case spv::OpBitwiseAnd: int_bin(Op::kAnd, Op::kAndi, false, true); return;
    case spv::OpBitwiseOr: int_bin(Op::kOr, Op::kOri, false, true); return;
    case spv::OpBitwiseXor: int_bin(Op::kXor, Op::kXori, false, true); return;
    case spv::OpLogicalAnd: int_bin(Op::kAnd, Op::kAndi, false, true); return;
    case spv::OpLogicalOr: int_bin(Op::kOr, Op::kOri, false, true); return;
    case spv::OpLogicalNotEqual: int_bin(Op::kXor, Op::kXori, false, true); return;
    case spv::OpLogicalEqual: int_cmp(isa::ModCmp::kEq, false); return;
    case spv::OpLogicalNot: {
      std::vector<Val> a = comps(in.ops[0]), r;
      for (const Val& v : a) r.push_back(Bin(Op::kXor, Op::kXori, kDtU32, v, Val::Const(1, false), scalar, true));
      Set(in.id, r);
      return;
    }
    case spv::OpNot: {
      std::vector<Val> a = comps(in.ops[0]), r;
      std::vector<Scal> sc = result_scals();
      for (size_t i = 0; i < a.size(); ++i)
        r.push_back(Bin(Op::kXor, Op::kXori, DtOf(sc[i]), a[i], Val::Const(~0ull, sc[i].pair()), scalar, true));
      Set(in.id, r);
      return;
    }
    case spv::OpSNegate: {
      std::vector<Val> a = comps(in.ops[0]), r;
      std::vector<Scal> sc = result_scals();
      for (size_t i = 0; i < a.size(); ++i)
        r.push_back(Bin(Op::kSub, Op::kNop, DtOf(sc[i]), Val::Const(0, sc[i].pair()), a[i], scalar, false));
      Set(in.id, r);
      return;
    }
    case spv::OpShiftLeftLogical: shift(Op::kShl, Op::kShli, false); return;
    case spv::OpShiftRightLogical: shift(Op::kShr, Op::kShri, false); return;
    case spv::OpShiftRightArithmetic: shift(Op::kShr, Op::kShri, true); return;
    case spv::OpIEqual: int_cmp(isa::ModCmp::kEq, false); return;
    case spv::OpINotEqual: int_cmp(isa::ModCmp::kNe, false); return;
    case spv::OpUGreaterThan: int_cmp(isa::ModCmp::kGt, false); return;
    case spv::OpUGreaterThanEqual: int_cmp(isa::ModCmp::kGe, false); return;
    case spv::OpULessThan: int_cmp(isa::ModCmp::kLt, false); return;
    case spv::OpULessThanEqual: int_cmp(isa::ModCmp::kLe, false); return;
    case spv::OpSGreaterThan: int_cmp(isa::ModCmp::kGt, true); return;
    case spv::OpSGreaterThanEqual: int_cmp(isa::ModCmp::kGe, true); return;
    case spv::OpSLessThan: int_cmp(isa::ModCmp::kLt, true); return;
    case spv::OpSLessThanEqual: int_cmp(isa::ModCmp::kLe, true); return;
    case spv::OpUDiv:
    case spv::OpSDiv:
    case spv::OpUMod:
    case spv::OpSRem:
    case spv::OpSMod: {
      std::vector<Val> a = comps(in.ops[0]), c = comps(in.ops[1]), r;
      std::vector<Scal> sc = result_scals();
      const bool is_signed = in.op == spv::OpSDiv || in.op == spv::OpSRem || in.op == spv::OpSMod;
      const bool rem = in.op != spv::OpUDiv && in.op != spv::OpSDiv;
      for (size_t i = 0; i < a.size(); ++i) {
        Val q = Div(in, is_signed, rem, sc[i].bits, a[i], c[i], scalar);
        if (in.op == spv::OpSMod) {
          // Sign of the divisor: r != 0 && sign(r) != sign(b) -> r + b.
          Val nz = Cmp(isa::ModCmp::kNe, kDtI32, q, Val::Const(0, false), scalar);
          Val x = Bin(Op::kXor, Op::kNop, kDtU32, q, c[i], scalar, true);
          Val diff = Cmp(isa::ModCmp::kLt, kDtI32, x, Val::Const(0, false), scalar);
          Val fix = Bin(Op::kAnd, Op::kNop, kDtU32, nz, diff, scalar, true);
          Val sum = Bin(Op::kAdd, Op::kNop, kDtU32, q, c[i], scalar, true);
          q = Sel(kDtU32, fix, sum, q, scalar);
        }
        r.push_back(q);
      }
      Set(in.id, r);
      return;
    }
    case spv::OpBitCount: {
      std::vector<Val> a = comps(in.ops[0]), r;
      std::vector<Scal> from = src_scals(in.ops[0]), to = result_scals();
      for (size_t i = 0; i < a.size(); ++i) {
        Val c;
        if (from[i].bits == 64) {
          Val lo = Val::Reg(Word(a[i]), false);
          Val hi = a[i].is_const ? Val::Const(a[i].c >> 32, false)
                                 : Val::Reg(Opnd{a[i].o.kind, Opnd::kHi, a[i].o.idx}, false);
          const Val plo = Popcount32(lo, scalar), phi = Popcount32(hi, scalar);
          c = Bin(Op::kAdd, Op::kAddi, kDtU32, plo, phi, scalar, true);
        } else {
          Val x = a[i];
          if (from[i].bits < 32) {
            x = Bin(Op::kAnd, Op::kAndi, kDtU32, x,
                    Val::Const(from[i].bits == 8 ? 0xffu : 0xffffu, false), scalar, true);
          }
          c = Popcount32(x, scalar);
        }
        r.push_back(to[i].pair() ? Cvt(kDtU64, kDtU32, c, scalar) : c);
      }
      Set(in.id, r);
      return;
    }
    case spv::OpImageRead:
    case spv::OpImageWrite:
    case spv::OpImageFetch:
    case spv::OpImageSampleExplicitLod:
    case spv::OpSampledImage:
    case spv::OpImageQuerySize:
    case spv::OpImageQuerySizeLod:
    case spv::OpImageQueryFormat:
    case spv::OpImageQueryOrder:
      Fail(&in, "image functions (read_image*, write_image*, get_image_*) are not supported yet: "
                "the SGU reaches images only through the media block unit, not built yet");
    case spv::OpSelect: {
      std::vector<Val> c = comps(in.ops[0]), a = comps(in.ops[1]), d = comps(in.ops[2]), r;
      std::vector<Scal> sc = result_scals();
      for (size_t i = 0; i < a.size(); ++i) {
        const Val& ci = c.size() == a.size() ? c[i] : c[0];
        r.push_back(Sel(sc[i].pair() ? kDtU64 : kDtU32, ci, a[i], d[i], scalar));
      }
      Set(in.id, r);
      return;
    }
    case spv::OpUConvert:
    case spv::OpSConvert:
    case spv::OpSatConvertSToU:
    case spv::OpSatConvertUToS: {
      std::vector<Val> a = comps(in.ops[0]), r;
      std::vector<Scal> from = src_scals(in.ops[0]), to = result_scals();
      const bool is_signed = in.op == spv::OpSConvert || in.op == spv::OpSatConvertSToU;
      const bool sat = in.op == spv::OpSatConvertSToU || in.op == spv::OpSatConvertUToS ||
                       Decorated(in.id, spv::DecorationSaturatedConversion);
      if (sat) {
        // Clamp in the source type to the destination's range, then convert.
        const bool src_signed = in.op == spv::OpSatConvertSToU ||
                                (in.op == spv::OpSConvert);
        const bool dst_signed = in.op == spv::OpSatConvertUToS || in.op == spv::OpSConvert;
        std::vector<Val> out;
        for (size_t i = 0; i < a.size(); ++i) {
          const unsigned sdt = IntDt(from[i].bits, src_signed);
          const unsigned tb = to[i].bits;
          const uint64_t dmax = dst_signed ? (tb == 64 ? 0x7fffffffffffffffull : (1ull << (tb - 1)) - 1)
                                           : (tb == 64 ? ~0ull : (1ull << tb) - 1);
          const int64_t dmin = dst_signed ? (tb == 64 ? INT64_MIN : -(int64_t{1} << (tb - 1))) : 0;
          Val x = a[i];
          const bool pair = from[i].pair();
          // Lower bound only matters for a signed source; upper bound when it can exceed dmax.
          if (src_signed && (dmin > (from[i].bits == 64 ? INT64_MIN : -(int64_t{1} << (from[i].bits - 1))))) {
            x = Bin(Op::kMax, Op::kMaxi, sdt, x, Val::Const(static_cast<uint64_t>(dmin), pair), scalar, true);
          }
          const uint64_t smax = src_signed ? (from[i].bits == 64 ? 0x7fffffffffffffffull : (1ull << (from[i].bits - 1)) - 1)
                                           : (from[i].bits == 64 ? ~0ull : (1ull << from[i].bits) - 1);
          if (dmax < smax) {
            x = Bin(Op::kMin, Op::kMini, sdt, x, Val::Const(dmax, pair), scalar, true);
          }
          if (tb <= from[i].bits) {
            out.push_back(to[i].pair() ? x : (x.is_const ? Val::Const(x.c, false) : Val::Reg(Word(x), false)));
          } else {
            out.push_back(Cvt(IntDt(tb, dst_signed), sdt, x, scalar));
          }
        }
        Set(in.id, out);
        return;
      }
      for (size_t i = 0; i < a.size(); ++i) {
        if (to[i].bits <= from[i].bits) {  // truncation: narrow values ignore their upper bits
          if (a[i].is_const) r.push_back(Val::Const(a[i].c, to[i].pair()));
          else r.push_back(to[i].pair() ? a[i] : Val::Reg(Word(a[i]), false));
        } else if (a[i].is_const) {
          uint64_t x = a[i].c & (from[i].bits == 64 ? ~0ull : ((1ull << from[i].bits) - 1));
          if (is_signed && from[i].bits < 64 && (x >> (from[i].bits - 1)))
            x |= ~((1ull << from[i].bits) - 1);
          r.push_back(Val::Const(x, to[i].pair()));
        } else {
          r.push_back(Cvt(IntDt(to[i].bits, is_signed), IntDt(from[i].bits, is_signed), a[i], scalar));
        }
      }
      Set(in.id, r);
      return;
    }
    case spv::OpConvertFToS:
    case spv::OpConvertFToU:
    case spv::OpConvertSToF:
    case spv::OpConvertUToF: {
      std::vector<Val> a = comps(in.ops[0]), r;
      std::vector<Scal> from = src_scals(in.ops[0]), to = result_scals();
      const bool is_signed = in.op == spv::OpConvertFToS || in.op == spv::OpConvertSToF;
      const bool to_int = in.op == spv::OpConvertFToS || in.op == spv::OpConvertFToU;
      uint32_t mode = spv::FPRoundingModeRTZ;
      const bool has_mode = Decorated(in.id, spv::DecorationFPRoundingMode, &mode);
      const bool sat = Decorated(in.id, spv::DecorationSaturatedConversion);
      for (size_t i = 0; i < a.size(); ++i) {
        const unsigned fdt = from[i].is_float ? kDtF32 : IntDt(from[i].bits, is_signed);
        const unsigned tdt = to[i].is_float ? kDtF32 : IntDt(to[i].bits, is_signed);
        if (isa::DtypeIs64(fdt) || isa::DtypeIs64(tdt))
          Fail(&in, "conversion between float and 64-bit integers is not supported");
        Val x = a[i];
        if (to_int && has_mode && mode != spv::FPRoundingModeRTZ) x = RoundFloat(x, mode, scalar);
        if (to_int && sat && to[i].bits < 32) {
          // convert_<narrow>_sat: clamp to the destination's range first (NaN -> 0 by fmax).
          const double lo = is_signed ? -static_cast<double>(1u << (to[i].bits - 1)) : 0.0;
          const double hi = is_signed ? static_cast<double>((1u << (to[i].bits - 1)) - 1)
                                      : static_cast<double>((1u << to[i].bits) - 1);
          const float flo = static_cast<float>(lo), fhi = static_cast<float>(hi);
          uint32_t blo, bhi;
          std::memcpy(&blo, &flo, 4);
          std::memcpy(&bhi, &fhi, 4);
          Opnd t1 = NewReg(scalar, false), t2 = NewReg(scalar, false);
          const Opnd rx = Word(x), rlo = Mat(Val::Const(blo, false));
          Emit(Op::kFmax, kDtF32, 0, t1, rx, rlo);
          Emit(Op::kFmin, kDtF32, 0, t2, t1, Mat(Val::Const(bhi, false)));
          x = Val::Reg(t2, false);
        }
        r.push_back(Cvt(tdt, fdt, x, scalar));
      }
      Set(in.id, r);
      return;
    }
    case spv::OpFConvert: {
      result_scals();
      src_scals(in.ops[0]);
      Set(in.id, comps(in.ops[0]));
      return;
    }
    case spv::OpFAdd: fbin(Op::kFadd); return;
    case spv::OpFSub: fbin(Op::kFsub); return;
    case spv::OpFMul: fbin(Op::kFmul); return;
    case spv::OpFDiv:
    case spv::OpFRem:
    case spv::OpFMod:
      Fail(&in, "floating-point division is not supported yet (the SGU FPU has no divider)");
    case spv::OpFNegate: {
      std::vector<Val> a = comps(in.ops[0]), r;
      for (const Val& v : a)
        r.push_back(Bin(Op::kXor, Op::kNop, kDtU32, v, Val::Const(0x80000000u, false), scalar, true));
      Set(in.id, r);
      return;
    }
    case spv::OpVectorTimesScalar: {
      std::vector<Val> a = comps(in.ops[0]);
      Val s = Get1(in.ops[1], &in);
      std::vector<Val> r;
      for (const Val& v : a) {
        Opnd rd = NewReg(scalar, false);
        const Opnd rv = Word(v), rs = Word(s);
        Emit(Op::kFmul, kDtF32, 0, rd, rv, rs);
        r.push_back(Val::Reg(rd, false));
      }
      Set(in.id, r);
      return;
    }
    case spv::OpDot: {
      std::vector<Val> a = comps(in.ops[0]), c = comps(in.ops[1]);
      Opnd acc = NewReg(scalar, false);
      const Opnd a0 = Word(a[0]), c0 = Word(c[0]);
      Emit(Op::kFmul, kDtF32, 0, acc, a0, c0);
      for (size_t i = 1; i < a.size(); ++i) {
        Opnd n = NewReg(scalar, false);
        const Opnd ai = Word(a[i]), ci = Word(c[i]);
        Emit(Op::kFmul, kDtF32, 0, n, ai, ci);
        Opnd s = NewReg(scalar, false);
        Emit(Op::kFadd, kDtF32, 0, s, acc, n);
        acc = s;
      }
      Set(in.id, {Val::Reg(acc, false)});
      return;
    }
    case spv::OpFOrdEqual: fcmp(isa::ModFcmp::kEq, false); return;
    case spv::OpFUnordEqual: fcmp(isa::ModFcmp::kEq, true); return;
    case spv::OpFOrdNotEqual: fcmp(isa::ModFcmp::kNe, false); return;
    case spv::OpFUnordNotEqual: fcmp(isa::ModFcmp::kNe, true); return;
    case spv::OpFOrdLessThan: fcmp(isa::ModFcmp::kLt, false); return;
    case spv::OpFUnordLessThan: fcmp(isa::ModFcmp::kLt, true); return;
    case spv::OpFOrdLessThanEqual: fcmp(isa::ModFcmp::kLe, false); return;
    case spv::OpFUnordLessThanEqual: fcmp(isa::ModFcmp::kLe, true); return;
    case spv::OpFOrdGreaterThan: fcmp(isa::ModFcmp::kGt, false); return;
    case spv::OpFUnordGreaterThan: fcmp(isa::ModFcmp::kGt, true); return;
    case spv::OpFOrdGreaterThanEqual: fcmp(isa::ModFcmp::kGe, false); return;
    case spv::OpFUnordGreaterThanEqual: fcmp(isa::ModFcmp::kGe, true); return;
    case spv::OpOrdered: fcmp(isa::ModFcmp::kOrd, false); return;
    case spv::OpUnordered: fcmp(isa::ModFcmp::kUno, false); return;
    case spv::OpIsNan: {
      std::vector<Val> a = comps(in.ops[0]), r;
      for (const Val& v : a) {
        Opnd rd = NewReg(scalar, false);
        const Opnd rv = Word(v);
        Emit(Op::kFcmp, kDtF32, Mod(isa::ModFcmp::kUno), rd, rv, rv);
        r.push_back(Val::Reg(rd, false));
      }
      Set(in.id, r);
      return;
    }
    case spv::OpIsInf:
    case spv::OpIsFinite: {
      std::vector<Val> a = comps(in.ops[0]), r;
      for (const Val& v : a) {
        Val abs = Bin(Op::kAnd, Op::kNop, kDtU32, v, Val::Const(0x7fffffffu, false), scalar, true);
        r.push_back(Cmp(in.op == spv::OpIsInf ? isa::ModCmp::kEq : isa::ModCmp::kLt, kDtU32, abs,
                        Val::Const(0x7f800000u, false), scalar));
      }
      Set(in.id, r);
      return;
    }
    case spv::OpCompositeConstruct: {
      std::vector<Val> r;
      for (uint32_t x : in.ops) {
        std::vector<Val> c = comps(x);
        r.insert(r.end(), c.begin(), c.end());
      }
      Set(in.id, r);
      return;
    }
    case spv::OpCompositeExtract:
    case spv::OpCompositeInsert: {
      const bool insert = in.op == spv::OpCompositeInsert;
      const uint32_t comp_id = insert ? in.ops[1] : in.ops[0];
      std::vector<Val> c = comps(comp_id);
      uint32_t type = (defs_.count(comp_id) ? defs_.at(comp_id) : m_.Def(comp_id))->type;
      size_t start = 0;
      for (size_t k = insert ? 2 : 1; k < in.ops.size(); ++k) {
        const SpvType& ct = T(type);
        const uint32_t idx = in.ops[k];
        if (ct.kind == TypeKind::kStruct) {
          for (uint32_t j = 0; j < idx; ++j) start += FlatCount(m_, ct.members[j]);
          type = ct.members.at(idx);
        } else {
          start += idx * FlatCount(m_, ct.elem);
          type = ct.elem;
        }
      }
      const size_t n = FlatCount(m_, type);
      if (!insert) {
        Set(in.id, std::vector<Val>(c.begin() + start, c.begin() + start + n));
      } else {
        std::vector<Val> obj = comps(in.ops[0]);
        for (size_t i = 0; i < n; ++i) c[start + i] = obj[i];
        Set(in.id, c);
      }
      return;
    }
    case spv::OpVectorShuffle: {
      std::vector<Val> a = comps(in.ops[0]), c = comps(in.ops[1]), r;
      a.insert(a.end(), c.begin(), c.end());
      const std::vector<Scal> sc = result_scals();
      for (size_t k = 2; k < in.ops.size(); ++k) {
        r.push_back(in.ops[k] == 0xffffffffu ? Val::Const(0, sc[0].pair()) : a.at(in.ops[k]));
      }
      Set(in.id, r);
      return;
    }
    case spv::OpVectorExtractDynamic:
    case spv::OpVectorInsertDynamic: {
      const bool insert = in.op == spv::OpVectorInsertDynamic;
      std::vector<Val> v = comps(in.ops[0]);
      Val idx = Get1(in.ops[insert ? 2 : 1], &in);
      const std::vector<Scal> sc = src_scals(in.ops[0]);
      const unsigned dt = sc[0].pair() ? kDtU64 : kDtU32;
      if (idx.is_const) {
        if (insert) {
          v.at(idx.c) = Get1(in.ops[1], &in);
          Set(in.id, v);
        } else {
          Set(in.id, {v.at(idx.c)});
        }
        return;
      }
      const Val iw = Val::Reg(Word(idx), false);
      if (insert) {
        Val obj = Get1(in.ops[1], &in);
        for (size_t i = 0; i < v.size(); ++i) {
          Val eq = Cmp(isa::ModCmp::kEq, kDtU32, iw, Val::Const(i, false), IsScalar(iw));
          v[i] = Sel(dt, eq, obj, v[i], scalar);
        }
        Set(in.id, v);
      } else {
        Val r = v[0];
        for (size_t i = 1; i < v.size(); ++i) {
          Val eq = Cmp(isa::ModCmp::kEq, kDtU32, iw, Val::Const(i, false), IsScalar(iw));
          r = Sel(dt, eq, v[i], r, scalar);
        }
        Set(in.id, {r});
      }
      return;
    }
    case spv::OpExtInst:
      SelectExt(in);
      return;
    case spv::OpFunctionCall:
      SelectCall(in);
      return;
    default:
      break;
  }
  SelectGroup(in);
}

void Lowerer::SelectExt(const SpvInsn& in) {
  const std::string set = m_.ExtInstSet(in.ops.at(0));
  if (set != "OpenCL.std") Fail(&in, "unsupported extended instruction set '" + set + "'");
  const bool scalar = !Varying(in.id);
  const auto e = static_cast<OpenCLLIB::Entrypoints>(in.ops.at(1));
  // vloadn(offset, p, n) / vstoren(data, offset, p): n components at p + offset * n.
  if (e == OpenCLLIB::Vloadn || e == OpenCLLIB::Vstoren) {
    const bool load = e == OpenCLLIB::Vloadn;
    const uint32_t data_type = load ? in.type
                                    : (defs_.count(in.ops[2]) ? defs_.at(in.ops[2]) : m_.Def(in.ops[2]))->type;
    const std::vector<Scal> sc = LeafScals(data_type);
    const uint32_t esize = sc[0].bits / 8;
    Val off = Get1(in.ops[load ? 2 : 3], &in);
    Val p = Get1(in.ops[load ? 3 : 4], &in);
    const bool addr_scalar = IsScalar(off) && IsScalar(p);
    Opnd a = Mat(AddrAdd(p, off, esize * static_cast<uint32_t>(sc.size()), addr_scalar));
    std::vector<Val> data;
    if (!load) data = Get(in.ops[2], &in);
    std::vector<Val> r;
    for (size_t i = 0; i < sc.size(); ++i) {
      const unsigned dt = sc[i].pair() ? kDtU64 : DtOf(sc[i]);
      if (load) {
        Opnd rd = NewReg(scalar, sc[i].pair());
        Emit(Op::kLd, dt, 0, rd, a, {}, {}, static_cast<int32_t>(i * esize));
        r.push_back(Val::Reg(rd, sc[i].pair()));
      } else {
        Emit(Op::kSt, dt, 0, {}, a, sc[i].pair() ? Mat(data[i]) : Word(data[i]), {},
             static_cast<int32_t>(i * esize));
      }
    }
    if (load) Set(in.id, r);
    return;
  }
  std::vector<std::vector<Val>> args;
  for (size_t k = 2; k < in.ops.size(); ++k) {
    if (in.is_id[k]) args.push_back(Get(in.ops[k], &in));
  }
  const std::vector<Scal> sc = LeafScals(in.type);
  std::vector<Val> r;
  auto each = [&](std::function<Val(size_t)> f) {
    for (size_t i = 0; i < sc.size(); ++i) r.push_back(f(i));
    Set(in.id, r);
  };
  auto arg = [&](size_t a, size_t i) -> const Val& {
    return args.at(a).size() == 1 ? args[a][0] : args[a].at(i);
  };
  auto fop = [&](Op op, size_t i, const Val& a, const Val& b) {
    Opnd rd = NewReg(scalar, false);
    const Opnd ra = Word(a), rb = Word(b);
    Emit(op, kDtF32, 0, rd, ra, rb);
    (void)i;
    return Val::Reg(rd, false);
  };
  switch (e) {
    case OpenCLLIB::Fma:
    case OpenCLLIB::Mad:
      return each([&](size_t i) {
        Opnd rd = NewReg(scalar, false);
        const Opnd x = Word(arg(0, i)), y = Word(arg(1, i)), z = Word(arg(2, i));
        Emit(Op::kFfma, kDtF32, 0, rd, x, y, z);
        return Val::Reg(rd, false);
      });
    case OpenCLLIB::Fmin:
    case OpenCLLIB::FMin_common:
      return each([&](size_t i) { return fop(Op::kFmin, i, arg(0, i), arg(1, i)); });
    case OpenCLLIB::Fmax:
    case OpenCLLIB::FMax_common:
      return each([&](size_t i) { return fop(Op::kFmax, i, arg(0, i), arg(1, i)); });
    case OpenCLLIB::Fabs:
      return each([&](size_t i) {
        return Bin(Op::kAnd, Op::kNop, kDtU32, arg(0, i), Val::Const(0x7fffffffu, false), scalar, true);
      });
    case OpenCLLIB::Copysign:
      return each([&](size_t i) {
        Val m = Bin(Op::kAnd, Op::kNop, kDtU32, arg(0, i), Val::Const(0x7fffffffu, false), scalar, true);
        Val s = Bin(Op::kAnd, Op::kNop, kDtU32, arg(1, i), Val::Const(0x80000000u, false), scalar, true);
        return Bin(Op::kOr, Op::kNop, kDtU32, m, s, scalar, true);
      });
    case OpenCLLIB::FClamp:
      return each([&](size_t i) {
        return fop(Op::kFmin, i, fop(Op::kFmax, i, arg(0, i), arg(1, i)), arg(2, i));
      });
    case OpenCLLIB::Mix:
      return each([&](size_t i) {
        Val d = fop(Op::kFsub, i, arg(1, i), arg(0, i));
        Opnd rd = NewReg(scalar, false);
        const Opnd x = Word(d), y = Word(arg(2, i)), z = Word(arg(0, i));
        Emit(Op::kFfma, kDtF32, 0, rd, x, y, z);
        return Val::Reg(rd, false);
      });
    case OpenCLLIB::SMin:
    case OpenCLLIB::UMin:
    case OpenCLLIB::SMax:
    case OpenCLLIB::UMax: {
      const bool sg = e == OpenCLLIB::SMin || e == OpenCLLIB::SMax;
      const bool mn = e == OpenCLLIB::SMin || e == OpenCLLIB::UMin;
      return each([&](size_t i) {
        return Bin(mn ? Op::kMin : Op::kMax, mn ? Op::kMini : Op::kMaxi, DtOf(sc[i], sg), arg(0, i),
                   arg(1, i), scalar, true);
      });
    }
    case OpenCLLIB::SClamp:
    case OpenCLLIB::UClamp: {
      const bool sg = e == OpenCLLIB::SClamp;
      return each([&](size_t i) {
        Val x = Bin(Op::kMax, Op::kMaxi, DtOf(sc[i], sg), arg(0, i), arg(1, i), scalar, true);
        return Bin(Op::kMin, Op::kMini, DtOf(sc[i], sg), x, arg(2, i), scalar, true);
      });
    }
    case OpenCLLIB::SAbs:
      return each([&](size_t i) {
        Val neg = Bin(Op::kSub, Op::kNop, DtOf(sc[i], true), Val::Const(0, sc[i].pair()), arg(0, i),
                      scalar, false);
        return Bin(Op::kMax, Op::kMaxi, DtOf(sc[i], true), arg(0, i), neg, scalar, true);
      });
    case OpenCLLIB::UAbs:
      return each([&](size_t i) { return arg(0, i); });
    case OpenCLLIB::SMul24:
    case OpenCLLIB::UMul24:
      return each([&](size_t i) {
        return Bin(Op::kMul, Op::kMuli, kDtU32, arg(0, i), arg(1, i), scalar, true);
      });
    case OpenCLLIB::SMad24:
    case OpenCLLIB::UMad24:
      return each([&](size_t i) {
        Val p = Bin(Op::kMul, Op::kMuli, kDtU32, arg(0, i), arg(1, i), scalar, true);
        return Bin(Op::kAdd, Op::kAddi, kDtU32, p, arg(2, i), scalar, true);
      });
    case OpenCLLIB::SMul_hi:
    case OpenCLLIB::UMul_hi:
      if (sc[0].bits != 32) Fail(&in, "mul_hi is supported for 32-bit types only");
      return each([&](size_t i) {
        return Bin(Op::kMulh, Op::kNop, e == OpenCLLIB::SMul_hi ? kDtI32 : kDtU32, arg(0, i),
                   arg(1, i), scalar, true);
      });
    case OpenCLLIB::Popcount:
    case OpenCLLIB::Clz:
    case OpenCLLIB::Ctz: {
      if (sc[0].bits == 64) Fail(&in, "64-bit popcount/clz/ctz are not supported yet");
      return each([&](size_t i) {
        const unsigned bits = sc[i].bits;
        Val x = arg(0, i);
        if (bits < 32) {
          x = Bin(Op::kAnd, Op::kAndi, kDtU32, x, Val::Const(bits == 8 ? 0xffu : 0xffffu, false),
                  scalar, true);
        }
        if (e == OpenCLLIB::Popcount) return Popcount32(x, scalar);
        if (e == OpenCLLIB::Clz) {
          Val z = Clz32(x, scalar);
          return bits < 32 ? Bin(Op::kAdd, Op::kAddi, kDtU32, z,
                                 Val::Const(static_cast<uint32_t>(0) - (32 - bits), false), scalar,
                                 true)
                           : z;
        }
        // ctz(x) = popcount((x & -x) - 1); ctz(0) = the width.
        Val neg = Bin(Op::kSub, Op::kNop, kDtU32, Val::Const(0, false), x, scalar, false);
        Val low = Bin(Op::kAnd, Op::kNop, kDtU32, x, neg, scalar, true);
        Val m = Bin(Op::kAdd, Op::kAddi, kDtU32, low, Val::Const(0xffffffffu, false), scalar, true);
        Val c = Popcount32(m, scalar);
        return bits < 32 ? Bin(Op::kMin, Op::kMini, kDtU32, c, Val::Const(bits, false), scalar, true)
                         : c;
      });
    }
    case OpenCLLIB::Bitselect:
      return each([&](size_t i) {
        const unsigned dt = sc[i].pair() ? kDtU64 : kDtU32;
        Val x = Bin(Op::kXor, Op::kXori, dt, arg(0, i), arg(1, i), scalar, true);
        x = Bin(Op::kAnd, Op::kAndi, dt, x, arg(2, i), scalar, true);
        return Bin(Op::kXor, Op::kXori, dt, x, arg(0, i), scalar, true);
      });
    case OpenCLLIB::Select:
      return each([&](size_t i) {
        const unsigned dt = sc[i].pair() ? kDtU64 : kDtU32;
        // select(a, b, c): c's most significant bit (vectors) / c != 0 (scalars).
        Val c = arg(2, i);
        Val cond = args.size() == 3 && args[2].size() > 1
                       ? Cmp(isa::ModCmp::kLt, sc[i].pair() ? kDtI64 : kDtI32, c,
                             Val::Const(0, sc[i].pair()), scalar)
                       : Cmp(isa::ModCmp::kNe, sc[i].pair() ? kDtU64 : kDtU32, c,
                             Val::Const(0, sc[i].pair()), scalar);
        return Sel(dt, cond, arg(1, i), arg(0, i), scalar);
      });
    default:
      break;
  }
  const char* fname = OpenClStdName(static_cast<uint32_t>(e));
  Fail(&in, "OpenCL built-in function '" +
                (fname ? std::string(fname) : "OpenCL.std " + std::to_string(e)) +
                "' is not supported by the SGU compiler yet");
}

void Lowerer::SelectCall(const SpvInsn& in) {
  const SpvFunction* callee = m_.Function(in.ops.at(0));
  std::string name = callee ? callee->import_name : "";
  // Itanium-mangled name: _Z<len><name>...
  std::string base = name;
  if (name.rfind("_Z", 0) == 0) {
    size_t i = 2, len = 0;
    while (i < name.size() && isdigit(static_cast<unsigned char>(name[i]))) len = len * 10 + (name[i++] - '0');
    base = name.substr(i, len);
  }
  const bool scalar = false;
  struct QcomOp {
    const char* name;
    isa::ModShfl mode;
  };
  static const QcomOp kQcom[] = {
      {"qcom_sub_group_shuffle_up", isa::ModShfl::kUp},
      {"qcom_sub_group_shuffle_down", isa::ModShfl::kDown},
      {"qcom_sub_group_shuffle_rotate_up", isa::ModShfl::kRotup},
      {"qcom_sub_group_shuffle_rotate_down", isa::ModShfl::kRotdn},
      {"qcom_sub_group_shuffle_xor", isa::ModShfl::kXor},
  };
  for (const QcomOp& q : kQcom) {
    if (base != q.name) continue;
    if (in.ops.size() != 5) Fail(&in, base + " takes 4 arguments");
    std::vector<Val> data = Get(in.ops[1], &in), dflt = Get(in.ops[4], &in);
    Val off = Get1(in.ops[2], &in);
    uint64_t width = 0;
    if (!m_.ScalarConstant(in.ops[3], &width)) {
      Fail(&in, base + ": the width must be a compile-time constant "
                       "(CLK_SUB_GROUP_SHUFFLE_WIDTH_W4_QCOM, _W8_QCOM or _WAVE_SIZE_QCOM)");
    }
    // sgu_kernel.h: WAVE_SIZE = 0, W4 = 4, W8 = 8 -> log2 group width 0 (N), 2, 3.
    if (width != 0 && width != 4 && width != 8) {
      Fail(&in, base + ": width " + std::to_string(width) + " is not a qcom width mode");
    }
    const int32_t imm = width == 4 ? 2 : width == 8 ? 3 : 0;
    // The default is always passed in a register, never as s0: an explicit default is
    // defined behaviour for qcom, and the model's sanitizer reports only defaults in s0.
    auto explicit_reg = [&](const Val& v) -> Opnd {
      if (!v.is_const) return Word(v);
      Opnd r = NewReg(true, false);
      const int32_t x = static_cast<int32_t>(static_cast<uint32_t>(v.c));
      if (FitsImm(x)) {
        Emit(Op::kLi, kDtI32, 0, r, {}, {}, {}, x);
      } else {
        Emit(Op::kLui, kDtI32, 0, r, {}, {}, {}, x >> 8);
        Emit(Op::kOri, kDtU32, 0, r, r, {}, {}, x & 0xff);
      }
      return r;
    };
    std::vector<Val> r;
    const std::vector<Scal> sc = LeafScals(in.type);
    for (size_t i = 0; i < data.size(); ++i) {
      if (sc[i].pair()) {
        Opnd lo = NewReg(false, false), hi = NewReg(false, false);
        Val d = data[i], df = dflt[i];
        const Opnd dl = Word(d), ro = Word(off),
                   fl = explicit_reg(df.is_const ? Val::Const(df.c & 0xffffffffu, false) : df);
        Emit(Op::kShfl, kDtI32, Mod(q.mode), lo, dl, ro, fl, imm);
        Opnd dh = d.is_const ? Mat(Val::Const(d.c >> 32, false)) : Opnd{Opnd::kVirt, Opnd::kHi, d.o.idx};
        Opnd fh = df.is_const ? explicit_reg(Val::Const(df.c >> 32, false))
                              : Opnd{Opnd::kVirt, Opnd::kHi, df.o.idx};
        Emit(Op::kShfl, kDtI32, Mod(q.mode), hi, dh, ro, fh, imm);
        r.push_back(FromWords({Val::Reg(lo, false), Val::Reg(hi, false)}, {sc[i]}, scalar)[0]);
      } else {
        Opnd rd = NewReg(false, false);
        const Opnd rs = Word(data[i]), ro = Word(off), rf = explicit_reg(dflt[i]);
        Emit(Op::kShfl, kDtI32, Mod(q.mode), rd, rs, ro, rf, imm);
        r.push_back(Val::Reg(rd, false));
      }
    }
    Set(in.id, r);
    return;
  }
  Fail(&in, "call to '" + (base.empty() ? std::string("?") : base) +
                "', which is neither defined in the module nor an SGU built-in");
}

void Lowerer::SelectGroup(const SpvInsn& in) {
  const bool scalar = !Varying(in.id);
  auto shfl = [&](isa::ModShfl mode, uint32_t a_id, uint32_t d_id, const std::vector<Val>* b,
                  int32_t imm) {
    std::vector<Val> a = Get(a_id, &in);
    Val d = Get1(d_id, &in);
    const std::vector<Scal> sc = LeafScals(in.type);
    std::vector<Val> r;
    for (size_t i = 0; i < a.size(); ++i) {
      if (sc[i].pair()) {
        Opnd lo = NewReg(false, false), hi = NewReg(false, false);
        auto half = [&](const Val& v, bool high) -> Opnd {
          if (v.is_const) return Mat(Val::Const(high ? v.c >> 32 : v.c & 0xffffffffu, false));
          return Opnd{v.o.kind, high ? Opnd::kHi : Opnd::kLo, v.o.idx};
        };
        const Opnd al = half(a[i], false), rdl = Word(d),
                   bl = b ? half((*b)[i], false) : Opnd::Phys(kRegS0);
        Emit(Op::kShfl, kDtI32, Mod(mode), lo, al, rdl, bl, imm);
        const Opnd ah = half(a[i], true), rdh = Word(d),
                   bh = b ? half((*b)[i], true) : Opnd::Phys(kRegS0);
        Emit(Op::kShfl, kDtI32, Mod(mode), hi, ah, rdh, bh, imm);
        r.push_back(FromWords({Val::Reg(lo, false), Val::Reg(hi, false)}, {sc[i]}, false)[0]);
      } else {
        Opnd rd = NewReg(false, false);
        const Opnd ra = Word(a[i]), rdd = Word(d), rb = b ? Word((*b)[i]) : Opnd::Phys(kRegS0);
        Emit(Op::kShfl, kDtI32, Mod(mode), rd, ra, rdd, rb, imm);
        r.push_back(Val::Reg(rd, false));
      }
    }
    return r;
  };
  auto check_scope = [&]() {
    uint64_t scope = 0;
    if (!m_.ScalarConstant(in.ops.at(0), &scope) || scope != spv::ScopeSubgroup) {
      Fail(&in, "work-group collective operations are not supported (only sub-group scope)");
    }
  };
  switch (in.op) {
    case spv::OpSubgroupShuffleINTEL:
      Set(in.id, shfl(isa::ModShfl::kIdx, in.ops[0], in.ops[1], nullptr, 0));
      return;
    case spv::OpSubgroupShuffleXorINTEL:
      Set(in.id, shfl(isa::ModShfl::kXor, in.ops[0], in.ops[1], nullptr, 0));
      return;
    case spv::OpSubgroupShuffleDownINTEL: {  // (current, next, delta)
      std::vector<Val> next = Get(in.ops[1], &in);
      Set(in.id, shfl(isa::ModShfl::kDown2, in.ops[0], in.ops[2], &next, 0));
      return;
    }
    case spv::OpSubgroupShuffleUpINTEL: {  // (previous, current, delta)
      std::vector<Val> prev = Get(in.ops[0], &in);
      Set(in.id, shfl(isa::ModShfl::kUp2, in.ops[1], in.ops[2], &prev, 0));
      return;
    }
    case spv::OpGroupNonUniformShuffle:
      check_scope();
      Set(in.id, shfl(isa::ModShfl::kIdx, in.ops[1], in.ops[2], nullptr, 0));
      return;
    case spv::OpGroupNonUniformShuffleXor:
      check_scope();
      Set(in.id, shfl(isa::ModShfl::kXor, in.ops[1], in.ops[2], nullptr, 0));
      return;
    case spv::OpGroupNonUniformShuffleUp:
      check_scope();
      Set(in.id, shfl(isa::ModShfl::kUp, in.ops[1], in.ops[2], nullptr, 0));
      return;
    case spv::OpGroupNonUniformShuffleDown:
      check_scope();
      Set(in.id, shfl(isa::ModShfl::kDown, in.ops[1], in.ops[2], nullptr, 0));
      return;
    case spv::OpGroupNonUniformRotateKHR: {
      check_scope();
      int32_t imm = 0;
      if (in.ops.size() > 3) {
        uint64_t cs = 0;
        if (!m_.ScalarConstant(in.ops[3], &cs) || cs == 0 || (cs & (cs - 1)) || cs > 32)
          Fail(&in, "clustered rotate needs a constant power-of-two cluster size");
        while ((1ull << imm) < cs) ++imm;
        if (cs == 1) {  // rotation inside a cluster of one: the value itself
          Set(in.id, Get(in.ops[1], &in));
          return;
        }
      }
      Set(in.id, shfl(isa::ModShfl::kRotdn, in.ops[1], in.ops[2], nullptr, imm));
      return;
    }
    case spv::OpGroupBroadcast:
    case spv::OpGroupNonUniformBroadcast: {
      check_scope();
      std::vector<Val> idx = Get(in.ops[2], &in);
      std::vector<Val> v = shfl(isa::ModShfl::kIdx, in.ops[1], in.ops[2], nullptr, 0);
      (void)idx;
      std::vector<Val> r;
      for (const Val& x : v) r.push_back(First(x));
      Set(in.id, r);
      return;
    }
    case spv::OpGroupNonUniformBroadcastFirst: {
      check_scope();
      std::vector<Val> v = Get(in.ops[1], &in), r;
      for (const Val& x : v) {
        if (x.is_const || IsScalar(x)) {
          r.push_back(x);
          continue;
        }
        r.push_back(First(x));
      }
      Set(in.id, r);
      return;
    }
    case spv::OpGroupAll:
    case spv::OpGroupAny:
    case spv::OpGroupNonUniformAll:
    case spv::OpGroupNonUniformAny:
    case spv::OpGroupNonUniformBallot: {
      check_scope();
      const bool all = in.op == spv::OpGroupAll || in.op == spv::OpGroupNonUniformAll;
      const bool ballot = in.op == spv::OpGroupNonUniformBallot;
      Val p = Get1(in.ops[1], &in);
      Opnd rd = NewReg(true, false);
      Emit(Op::kVote, kDtI32, Mod(ballot ? isa::ModVote::kBallot : all ? isa::ModVote::kAll
                                                                        : isa::ModVote::kAny),
           rd, Word(p));
      if (ballot) {
        const size_t n = FlatCount(m_, in.type);
        std::vector<Val> r{Val::Reg(rd, false)};
        for (size_t i = 1; i < n; ++i) r.push_back(Val::Const(0, false));
        Set(in.id, r);
      } else {
        Set(in.id, {Val::Reg(rd, false)});
      }
      return;
    }
    case spv::OpGroupNonUniformAllEqual: {
      check_scope();
      std::vector<Val> v = Get(in.ops[1], &in);
      Val acc = Val::Const(1, false);
      for (const Val& x : v) {
        if (x.is_const || IsScalar(x)) continue;
        const unsigned dt = x.pair ? kDtU64 : kDtU32;
        const Opnd f = First(x).o;
        Val eq = Cmp(isa::ModCmp::kEq, dt, x, Val::Reg(f, x.pair), false);
        Opnd all = NewReg(true, false);
        Emit(Op::kVote, kDtI32, Mod(isa::ModVote::kAll), all, Word(eq));
        acc = Bin(Op::kAnd, Op::kAndi, kDtU32, acc, Val::Reg(all, false), true, true);
      }
      Set(in.id, {acc});
      return;
    }
    case spv::OpGroupNonUniformElect: {
      check_scope();
      Val lane = Lane();
      Opnd f = NewReg(true, false);
      Emit(Op::kFirst, kDtU32, 0, f, lane.o);
      Set(in.id, {Cmp(isa::ModCmp::kEq, kDtU32, lane, Val::Reg(f, false), false)});
      return;
    }
    case spv::OpGroupNonUniformInverseBallot: {
      check_scope();
      Val v = Get(in.ops[1], &in).at(0);
      Val lane = Lane();
      Val s = Bin(Op::kShr, Op::kShri, kDtU32, v, lane, false, false);
      Set(in.id, {Bin(Op::kAnd, Op::kAndi, kDtU32, s, Val::Const(1, false), false, true)});
      return;
    }
    case spv::OpGroupNonUniformBallotBitExtract: {
      check_scope();
      Val v = Get(in.ops[1], &in).at(0);
      Val idx = Get1(in.ops[2], &in);
      Val lt = Cmp(isa::ModCmp::kLt, kDtU32, idx, Val::Const(32, false), scalar);
      Val s = Bin(Op::kShr, Op::kShri, kDtU32, v, idx, scalar, false);
      s = Bin(Op::kAnd, Op::kAndi, kDtU32, s, Val::Const(1, false), scalar, true);
      Set(in.id, {Bin(Op::kAnd, Op::kAndi, kDtU32, s, lt, scalar, true)});
      return;
    }
    default:
      break;
  }
  // Operations whose hardware does not exist yet: name the built-in.
  struct Pending {
    spv::Op op;
    const char* what;
  };
  static const Pending kPending[] = {
      {spv::OpGroupIAdd, "sub_group_reduce/scan_add (OpGroupIAdd)"},
      {spv::OpGroupFAdd, "sub_group_reduce/scan_add (OpGroupFAdd)"},
      {spv::OpGroupSMin, "sub_group_reduce/scan_min (OpGroupSMin)"},
      {spv::OpGroupUMin, "sub_group_reduce/scan_min (OpGroupUMin)"},
      {spv::OpGroupFMin, "sub_group_reduce/scan_min (OpGroupFMin)"},
      {spv::OpGroupSMax, "sub_group_reduce/scan_max (OpGroupSMax)"},
      {spv::OpGroupUMax, "sub_group_reduce/scan_max (OpGroupUMax)"},
      {spv::OpGroupFMax, "sub_group_reduce/scan_max (OpGroupFMax)"},
      {spv::OpGroupNonUniformIAdd, "sub_group_non_uniform_reduce/scan_add (OpGroupNonUniformIAdd)"},
      {spv::OpGroupNonUniformFAdd, "sub_group_non_uniform_reduce/scan_add (OpGroupNonUniformFAdd)"},
      {spv::OpGroupNonUniformIMul, "sub_group_non_uniform_reduce/scan_mul (OpGroupNonUniformIMul)"},
      {spv::OpGroupNonUniformFMul, "sub_group_non_uniform_reduce/scan_mul (OpGroupNonUniformFMul)"},
      {spv::OpGroupNonUniformSMin, "sub_group_non_uniform_reduce/scan_min (OpGroupNonUniformSMin)"},
      {spv::OpGroupNonUniformUMin, "sub_group_non_uniform_reduce/scan_min (OpGroupNonUniformUMin)"},
      {spv::OpGroupNonUniformFMin, "sub_group_non_uniform_reduce/scan_min (OpGroupNonUniformFMin)"},
      {spv::OpGroupNonUniformSMax, "sub_group_non_uniform_reduce/scan_max (OpGroupNonUniformSMax)"},
      {spv::OpGroupNonUniformUMax, "sub_group_non_uniform_reduce/scan_max (OpGroupNonUniformUMax)"},
      {spv::OpGroupNonUniformFMax, "sub_group_non_uniform_reduce/scan_max (OpGroupNonUniformFMax)"},
      {spv::OpGroupNonUniformBitwiseAnd, "sub_group_non_uniform_reduce/scan_and"},
      {spv::OpGroupNonUniformBitwiseOr, "sub_group_non_uniform_reduce/scan_or"},
      {spv::OpGroupNonUniformBitwiseXor, "sub_group_non_uniform_reduce/scan_xor"},
      {spv::OpGroupNonUniformLogicalAnd, "sub_group_non_uniform_reduce/scan_logical_and"},
      {spv::OpGroupNonUniformLogicalOr, "sub_group_non_uniform_reduce/scan_logical_or"},
      {spv::OpGroupNonUniformLogicalXor, "sub_group_non_uniform_reduce/scan_logical_xor"},
      {spv::OpGroupNonUniformBallotBitCount, "sub_group_ballot_bit_count/inclusive_scan/exclusive_scan"},
      {spv::OpGroupNonUniformBallotFindLSB, "sub_group_ballot_find_lsb"},
      {spv::OpGroupNonUniformBallotFindMSB, "sub_group_ballot_find_msb"},
      {spv::OpSubgroupBlockReadINTEL, "intel_sub_group_block_read (OpSubgroupBlockReadINTEL)"},
      {spv::OpSubgroupBlockWriteINTEL, "intel_sub_group_block_write (OpSubgroupBlockWriteINTEL)"},
      {spv::OpSubgroupImageBlockReadINTEL, "intel_sub_group_block_read on an image (OpSubgroupImageBlockReadINTEL)"},
      {spv::OpSubgroupImageBlockWriteINTEL, "intel_sub_group_block_write on an image (OpSubgroupImageBlockWriteINTEL)"},
      {spv::OpSubgroupImageMediaBlockReadINTEL, "intel_sub_group_media_block_read (OpSubgroupImageMediaBlockReadINTEL)"},
      {spv::OpSubgroupImageMediaBlockWriteINTEL, "intel_sub_group_media_block_write (OpSubgroupImageMediaBlockWriteINTEL)"},
  };
  for (const Pending& p : kPending) {
    if (p.op == in.op) {
      Fail(&in, std::string(p.what) +
                    " is not supported yet: the SGU hardware for it (reduction network, block "
                    "engine or media unit) is not built");
    }
  }
  if (in.op >= spv::OpAtomicLoad && in.op <= spv::OpAtomicXor) {
    Fail(&in, "atomic operations are not supported yet (the ISA reserves their opcodes)");
  }
  Fail(&in, "unsupported SPIR-V instruction " + OpText(in.op));
}

MFunction Lowerer::Run() {
  f_.kernel_name = ep_.name;
  Inline();
  BuildCfg();
  Divergence();
  Layout();
  Select();
  return std::move(f_);
}

}  // namespace

namespace {

// OpenCL C spelling of a parameter type, for messages and for the driver's size checks.
// SPIR-V integers carry no signedness, so 32-bit integers read "int" whatever the source said.
std::string TypeName(const SpvModule& m, uint32_t type) {
  const SpvType& t = m.Type(type);
  switch (t.kind) {
    case TypeKind::kBool: return "bool";
    case TypeKind::kInt:
      return t.width == 8 ? "char" : t.width == 16 ? "short" : t.width == 64 ? "long" : "int";
    case TypeKind::kFloat: return t.width == 16 ? "half" : t.width == 64 ? "double" : "float";
    case TypeKind::kVector: return TypeName(m, t.elem) + std::to_string(t.count);
    case TypeKind::kPointer: {
      const SpvType& e = m.Type(t.elem);
      if (e.kind == TypeKind::kStruct || e.kind == TypeKind::kArray) return "struct*";
      return TypeName(m, t.elem) + "*";
    }
    case TypeKind::kStruct: return "struct";
    case TypeKind::kArray: return TypeName(m, t.elem) + "[" + std::to_string(t.count) + "]";
    case TypeKind::kImage: return "image2d_t";
    default: return "opaque";
  }
}

}  // namespace

MFunction LowerKernel(const SpvModule& m, const SpvEntryPoint& ep, const ModuleLayout& layout,
                      Kernel* meta) {
  meta->name = ep.name;
  meta->required_simd = ep.subgroup_size;
  if (ep.subgroup_size && ep.subgroup_size != 8 && ep.subgroup_size != 16 && ep.subgroup_size != 32) {
    throw CompileError("error: kernel '" + ep.name + "': required sub-group size " +
                       std::to_string(ep.subgroup_size) + " is not one the SGU has (8, 16, 32)");
  }
  // Parameters: names, kinds and launch block slots.
  const SpvFunction* fn = m.Function(ep.func);
  if (!fn) throw CompileError("error: entry point '" + ep.name + "' has no function");
  // Names: the entry's own OpName, else those of the function it forwards to.
  std::vector<std::string> names(fn->params.size());
  for (size_t i = 0; i < fn->params.size(); ++i) names[i] = m.Name(fn->params[i]);
  if (fn->blocks.size() == 1) {
    for (const SpvInsn& in : fn->blocks[0].insns) {
      if (in.op != spv::OpFunctionCall) continue;
      const SpvFunction* callee = m.Function(in.ops.at(0));
      if (!callee) continue;
      for (size_t a = 1; a < in.ops.size(); ++a) {
        for (size_t p = 0; p < fn->params.size(); ++p) {
          if (in.ops[a] == fn->params[p] && names[p].empty() && a - 1 < callee->params.size())
            names[p] = m.Name(callee->params[a - 1]);
        }
      }
    }
  }
  // kernel_arg_type.<kernel>.<t0>,<t1>,... from -cl-kernel-arg-info, for signedness and text.
  std::vector<std::string> type_names;
  const std::string key = "kernel_arg_type." + ep.name + ".";
  for (const std::string& s : m.strings_in_order()) {
    if (s.rfind(key, 0) == 0) {
      std::string rest = s.substr(key.size());
      size_t p = 0;
      while (p < rest.size()) {
        size_t c = rest.find(',', p);
        if (c == std::string::npos) c = rest.size();
        type_names.push_back(rest.substr(p, c - p));
        p = c + 1;
      }
    }
  }
  uint32_t off = abi::kLbArgs;
  for (size_t i = 0; i < fn->params.size(); ++i) {
    const SpvInsn* pd = m.Def(fn->params[i]);
    const SpvType& t = m.Type(pd->type);
    KernelArg a;
    a.name = names[i].empty() ? "arg" + std::to_string(i) : names[i];
    uint32_t size = 4, align = 4;
    if (t.kind == TypeKind::kPointer) {
      if (m.HasDecoration(fn->params[i], spv::DecorationFuncParamAttr) && false) {}
      bool byval = false;
      if (const auto* decs = m.Decorations(fn->params[i])) {
        for (const auto& d : *decs) {
          if (d.dec == spv::DecorationFuncParamAttr && !d.lits.empty() &&
              d.lits[0] == spv::FunctionParameterAttributeByVal)
            byval = true;
        }
      }
      if (byval) {
        a.kind = ArgKind::kScalar;
        size = TypeSize(m, t.elem);
        align = std::max(4u, TypeAlign(m, t.elem));
      } else if (t.storage == spv::StorageClassWorkgroup) {
        a.kind = ArgKind::kLocalBuffer;
      } else if (t.storage == spv::StorageClassUniformConstant) {
        a.kind = ArgKind::kConstantBuffer;
      } else {
        a.kind = ArgKind::kGlobalBuffer;
      }
    } else if (t.kind == TypeKind::kImage) {
      a.kind = ArgKind::kImage;
    } else if (t.kind == TypeKind::kInt || t.kind == TypeKind::kFloat || t.kind == TypeKind::kBool ||
               t.kind == TypeKind::kVector || t.kind == TypeKind::kStruct ||
               t.kind == TypeKind::kArray) {
      a.kind = ArgKind::kScalar;
      size = TypeSize(m, pd->type);
      align = std::max(4u, TypeAlign(m, pd->type));
      a.is_float = t.kind == TypeKind::kFloat;
      if (t.kind == TypeKind::kFloat && t.width != 32) {
        throw CompileError("error: kernel '" + ep.name + "': parameter '" + a.name +
                           "': half/double parameters are not supported");
      }
    } else {
      throw CompileError("error: kernel '" + ep.name + "': parameter '" + a.name +
                         "' has a type the SGU does not support (samplers, events, pipes)");
    }
    a.size = size;
    off = (off + align - 1) / align * align;
    a.offset = off;
    off += std::max(size, 4u);
    off = (off + 3) / 4 * 4;
    if (i < type_names.size()) {
      a.type_name = type_names[i];
      const std::string& tn = a.type_name;
      a.is_signed = !tn.empty() && tn[0] != 'u' && tn.find('*') == std::string::npos &&
                    tn.find("float") == std::string::npos;
    } else {
      a.type_name = TypeName(m, pd->type);
      if (a.kind == ArgKind::kScalar && t.kind == TypeKind::kPointer) a.type_name = "struct";
      a.is_signed = t.kind == TypeKind::kInt;
    }
    meta->args.push_back(a);
  }
  meta->launch_block_size = (off + 63) / 64 * 64;
  meta->local_bytes = layout.local_bytes;
  Lowerer l(m, ep, layout, meta);
  return l.Run();
}

}  // namespace sgu::compiler
