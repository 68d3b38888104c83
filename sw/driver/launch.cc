// SPDX-License-Identifier: Apache-2.0
// Launch: argument binding, the memory layout of one NDRange, and the work-group / sub-group loop
// (launch ABI in sgu/binary.h, abi::; layout in docs/user-guide.md).
//
// Memory of one Run, from low to high addresses (every region 64-byte aligned):
//
//   [0, 0x1000)          not in the window: a null or small pointer faults with *Access
//   code                 the kernel's code, PC_START                       <- MEM_BASE = 0x1000
//   launch block         abi::kLb* fields and the kernel arguments           (ARG0 = s1)
//   constants            Binary::constants                                   (kLbConstBase)
//   image descriptors    abi::kImg* fields, one per image argument
//   static __local       Kernel::local_bytes                                 (kLbLocalBase)
//   __local arguments    one region per __local pointer parameter
//   sub-group descriptor abi::kSg* fields + Kernel::scalar_spill_bytes       (ARG1 = s2)
//   private memory       Kernel::private_bytes per lane, SIMD lanes          (kSgPrivateBase)
//   guard, buffer/texels, guard, buffer/texels, ..., guard                   <- MEM_LIMIT
//
// Each guard gap (from the last byte of a buffer to kGuardBytes past its 64-byte aligned end)
// answers every access with an AXI error (a LoadBusError/StoreBusError fault naming the
// buffer), so running off the end of a buffer, even by one byte, stops the kernel instead of
// corrupting its neighbour. Work-groups run one after another, so the
// __local regions, the descriptor and the private memory are reused by every work-group and
// sub-group; __local memory is not cleared between work-groups (OpenCL leaves its initial
// contents undefined).
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <limits>

#include "backend.h"
#include "sgu/driver.h"

namespace sgu::driver {

namespace {

constexpr uint32_t kWindowBase = 0x1000;
constexpr uint32_t kGuardBytes = 0x1000;
constexpr uint64_t kMaxMemory = 0xf0000000;  // the whole layout must fit in 32-bit addresses

uint64_t Align64(uint64_t v) { return (v + 63) & ~uint64_t{63}; }

std::string Hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08" PRIx32, v);
  return b;
}

const char* KindName(ArgKind k) {
  switch (k) {
    case ArgKind::kScalar: return "a scalar";
    case ArgKind::kGlobalBuffer: return "a __global buffer";
    case ArgKind::kConstantBuffer: return "a __constant buffer";
    case ArgKind::kLocalBuffer: return "a __local pointer";
    case ArgKind::kImage: return "an image";
  }
  return "?";
}

void Put32(std::vector<uint8_t>& b, uint32_t off, uint32_t v) {
  for (unsigned i = 0; i < 4; ++i) b[off + i] = static_cast<uint8_t>(v >> (8 * i));
}

// A named piece of the layout, for fault messages.
struct Region {
  std::string what;   // "buffer 'out'", "the sub-group descriptor", ...
  std::string arg;    // argument name when the region belongs to one
  uint32_t addr = 0, size = 0;
  bool guarded = false;  // a buffer or texel area between guard gaps
};

struct ArgValue {
  bool set = false;
  std::vector<uint8_t> bytes;  // scalar value / buffer contents / packed image rows
  uint32_t local_bytes = 0;
  ImageDesc image;
  std::vector<uint8_t> result;  // after Run: contents (packed rows for images)
};

}  // namespace

struct Launch::Impl {
  Device& dev;
  Binary bin;
  size_t kernel_index = 0;
  std::vector<ArgValue> args;

  Impl(Device& d, const Binary& b) : dev(d), bin(b) {}
  const Kernel& k() const { return bin.kernels[kernel_index]; }
  const KernelArg& Param(size_t index, ArgKind want1, ArgKind want2, const char* as) const;
  std::string ParamText(const KernelArg& a) const {
    return "parameter '" + a.name + "' (" + a.type_name + ") of kernel '" + k().name + "'";
  }
};

const KernelArg& Launch::Impl::Param(size_t index, ArgKind want1, ArgKind want2,
                                     const char* as) const {
  if (index >= k().args.size()) {
    throw DriverError("kernel '" + k().name + "' has " + std::to_string(k().args.size()) +
                      " parameters; there is no parameter #" + std::to_string(index));
  }
  const KernelArg& a = k().args[index];
  if (a.kind != want1 && a.kind != want2) {
    throw DriverError(ParamText(a) + " is " + KindName(a.kind) + ", not " + as);
  }
  return a;
}

Launch::Launch(Device& dev, const Binary& bin, const std::string& kernel)
    : impl_(std::make_unique<Impl>(dev, bin)) {
  const Binary& b = impl_->bin;
  std::string names;
  for (const Kernel& k : b.kernels) names += (names.empty() ? "" : ", ") + k.name;
  if (b.kernels.empty()) throw DriverError("the program holds no kernel");
  if (kernel.empty()) {
    if (b.kernels.size() > 1) {
      throw DriverError("the program holds " + std::to_string(b.kernels.size()) +
                        " kernels (" + names + "): name one");
    }
    impl_->kernel_index = 0;
  } else {
    size_t i = 0;
    while (i < b.kernels.size() && b.kernels[i].name != kernel) ++i;
    if (i == b.kernels.size()) {
      throw DriverError("no kernel '" + kernel + "' in the program (kernels: " + names + ")");
    }
    impl_->kernel_index = i;
  }
  const Kernel& k = impl_->k();
  const unsigned simd = dev.options().simd;
  if (k.required_simd != 0 && k.required_simd != simd) {
    throw DriverError("kernel '" + k.name + "' requires a sub-group size of " +
                      std::to_string(k.required_simd) + " but the device runs SIMD" +
                      std::to_string(simd) + " (use SIMD " + std::to_string(k.required_simd) +
                      ")");
  }
  impl_->args.resize(k.args.size());
}

Launch::~Launch() = default;

const Kernel& Launch::kernel() const { return impl_->k(); }

size_t Launch::ArgIndex(const std::string& name) const {
  const Kernel& k = impl_->k();
  std::string names;
  for (size_t i = 0; i < k.args.size(); ++i) {
    if (k.args[i].name == name) return i;
    names += (i ? ", " : "") + k.args[i].name + " (" + k.args[i].type_name + ")";
  }
  throw DriverError("kernel '" + k.name + "' has no parameter '" + name + "'; its parameters: " +
                    (names.empty() ? std::string("none") : names));
}

void Launch::SetScalarBytes(size_t index, const std::vector<uint8_t>& bytes) {
  const KernelArg& a = impl_->Param(index, ArgKind::kScalar, ArgKind::kScalar, "a scalar");
  if (bytes.size() != a.size) {
    throw DriverError(impl_->ParamText(a) + " takes " + std::to_string(a.size) + " bytes, not " +
                      std::to_string(bytes.size()));
  }
  ArgValue& v = impl_->args[index];
  v = ArgValue{};
  v.set = true;
  v.bytes = bytes;
}

void Launch::SetBuffer(size_t index, const std::vector<uint8_t>& bytes) {
  const KernelArg& a =
      impl_->Param(index, ArgKind::kGlobalBuffer, ArgKind::kConstantBuffer, "a buffer");
  if (bytes.empty()) throw DriverError(impl_->ParamText(a) + ": a buffer needs at least one byte");
  if (bytes.size() > kMaxMemory) throw DriverError(impl_->ParamText(a) + ": buffer too large");
  ArgValue& v = impl_->args[index];
  v = ArgValue{};
  v.set = true;
  v.bytes = bytes;
}

void Launch::SetLocal(size_t index, uint32_t bytes) {
  const KernelArg& a =
      impl_->Param(index, ArgKind::kLocalBuffer, ArgKind::kLocalBuffer, "a __local pointer");
  if (bytes == 0) throw DriverError(impl_->ParamText(a) + ": __local size must not be 0");
  if (bytes > kMaxMemory) throw DriverError(impl_->ParamText(a) + ": __local size too large");
  ArgValue& v = impl_->args[index];
  v = ArgValue{};
  v.set = true;
  v.local_bytes = bytes;
}

void Launch::SetImage(size_t index, const ImageDesc& desc, const std::vector<uint8_t>& packed) {
  const KernelArg& a = impl_->Param(index, ArgKind::kImage, ArgKind::kImage, "an image");
  const std::string what = impl_->ParamText(a);
  if (desc.width == 0 || desc.height == 0) throw DriverError(what + ": image size must not be 0");
  const uint64_t texel = TexelBytes(desc.format);
  if (desc.format == ImageFormat::kYuyv && desc.width % 2 != 0) {
    throw DriverError(what + ": a yuyv image needs an even width (two pixels share U and V)");
  }
  const uint64_t row = desc.width * texel;
  ImageDesc d = desc;
  if (d.row_pitch == 0) {
    d.row_pitch = static_cast<uint32_t>(std::min<uint64_t>(Align64(row), 0xffffffc0u));
  }
  if (d.row_pitch < row || d.row_pitch % 4 != 0) {
    throw DriverError(what + ": row pitch " + std::to_string(d.row_pitch) +
                      " must be a multiple of 4 and at least " + std::to_string(row) +
                      " bytes (width * texel size)");
  }
  if (uint64_t{d.row_pitch} * d.height > kMaxMemory) throw DriverError(what + ": image too large");
  if (!packed.empty() && packed.size() != row * d.height) {
    throw DriverError(what + ": " + std::to_string(desc.width) + "x" +
                      std::to_string(desc.height) + " " + ImageFormatName(desc.format) +
                      " needs " + std::to_string(row * d.height) + " bytes of packed rows, got " +
                      std::to_string(packed.size()));
  }
  ArgValue& v = impl_->args[index];
  v = ArgValue{};
  v.set = true;
  v.image = d;
  v.bytes = packed.empty() ? std::vector<uint8_t>(row * d.height, 0) : packed;
}

std::vector<uint8_t> Launch::Contents(size_t index) const {
  if (index >= impl_->args.size()) {
    throw DriverError("kernel '" + impl_->k().name + "' has no parameter #" +
                      std::to_string(index));
  }
  const KernelArg& a = impl_->k().args[index];
  if (a.kind != ArgKind::kGlobalBuffer && a.kind != ArgKind::kConstantBuffer &&
      a.kind != ArgKind::kImage) {
    throw DriverError(impl_->ParamText(a) + " is " + KindName(a.kind) +
                      ": only buffers and images have contents");
  }
  const ArgValue& v = impl_->args[index];
  return v.result.empty() ? v.bytes : v.result;
}

namespace {

// Everything Run computes before the first launch.
struct Layout {
  uint32_t code = 0, launch_block = 0, constants = 0, local_static = 0, descriptor = 0;
  uint32_t private_base = 0, limit = 0;
  std::vector<uint32_t> arg_addr;   // buffer / texel / __local address per argument (0: none)
  std::vector<uint32_t> image_desc;  // image descriptor address per argument (0: none)
  std::vector<Region> regions;
};

std::string NdText(const std::vector<uint32_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

std::string Divisors(uint32_t g) {
  std::string s;
  unsigned n = 0;
  for (uint32_t d = 1; d <= g && n < 16; ++d) {
    if (g % d == 0) {
      s += (n++ ? ", " : "") + std::to_string(d);
    }
  }
  return s;
}

// What an address points at, in words: "inside buffer 'out' (byte 0x40 of 1024)", ...
std::string DescribeAddress(const Layout& L, uint32_t addr, std::string* arg) {
  if (addr < kWindowBase) {
    return "is below the memory window [" + Hex(kWindowBase) + ", " + Hex(L.limit) +
           "): a null or uninitialised pointer?";
  }
  if (addr >= L.limit) {
    return "is beyond the memory window [" + Hex(kWindowBase) + ", " + Hex(L.limit) +
           "): a pointer far out of bounds or uninitialised?";
  }
  for (const Region& r : L.regions) {
    if (addr >= r.addr && addr - r.addr < std::max<uint32_t>(r.size, 1)) {
      *arg = r.arg;
      char b[64];
      std::snprintf(b, sizeof b, " (byte %" PRIu32 " of %" PRIu32 ")", addr - r.addr, r.size);
      return "is inside " + r.what + b;
    }
  }
  // In a guard gap or padding: name the nearest guarded region.
  const Region* below = nullptr;
  const Region* above = nullptr;
  for (const Region& r : L.regions) {
    if (!r.guarded) continue;
    if (r.addr + r.size <= addr && (!below || r.addr > below->addr)) below = &r;
    if (r.addr > addr && (!above || r.addr < above->addr)) above = &r;
  }
  const uint64_t past = below ? uint64_t{addr} - (below->addr + below->size) : ~uint64_t{0};
  const uint64_t before = above ? uint64_t{above->addr} - addr : ~uint64_t{0};
  if (below && past <= before) {
    *arg = below->arg;
    return "is at byte " + std::to_string(uint64_t{addr} - below->addr) + " of " + below->what +
           ", past its end (it has " + std::to_string(below->size) + " bytes)";
  }
  if (above) {
    *arg = above->arg;
    return "is " + std::to_string(before) + " bytes before the start of " + above->what;
  }
  return "is in unused memory";
}

bool IsAddressCause(isa::Cause c) {
  switch (c) {
    case isa::Cause::kLoadMisaligned:
    case isa::Cause::kStoreMisaligned:
    case isa::Cause::kLoadAccess:
    case isa::Cause::kStoreAccess:
    case isa::Cause::kLoadBusError:
    case isa::Cause::kStoreBusError: return true;
    default: return false;
  }
}

}  // namespace

Result Launch::Run(const std::vector<uint32_t>& global_in, const std::vector<uint32_t>& local_in) {
  Impl& I = *impl_;
  const Kernel& k = I.k();
  const DeviceOptions& opts = I.dev.options();
  const unsigned simd = opts.simd;

  // ---- NDRange --------------------------------------------------------------------------
  if (global_in.empty() || global_in.size() > 3) {
    throw DriverError("the global size needs 1 to 3 dimensions, got " +
                      std::to_string(global_in.size()));
  }
  for (size_t d = 0; d < global_in.size(); ++d) {
    if (global_in[d] == 0) throw DriverError("global size " + NdText(global_in) + " has a 0");
  }
  std::vector<uint32_t> local = local_in;
  if (local.empty()) {
    local = PickLocalSize(global_in, k.uses_barrier ? simd : kDefaultMaxWorkGroupSize);
  }
  if (local.size() != global_in.size()) {
    throw DriverError("local size " + NdText(local) + " has " + std::to_string(local.size()) +
                      " dimensions, global size " + NdText(global_in) + " has " +
                      std::to_string(global_in.size()));
  }
  static const char* const kDim[] = {"x", "y", "z"};
  for (size_t d = 0; d < local.size(); ++d) {
    if (local[d] == 0) throw DriverError("local size " + NdText(local) + " has a 0");
    if (global_in[d] % local[d] != 0) {
      throw DriverError("local size " + std::to_string(local[d]) +
                        " does not divide global size " + std::to_string(global_in[d]) +
                        " in dimension " + std::to_string(d) + " (" + kDim[d] +
                        "); local sizes that divide it: " + Divisors(global_in[d]) +
                        (global_in[d] > 16 ? ", ..." : ""));
    }
  }
  std::array<uint32_t, 3> gsz{1, 1, 1}, lsz{1, 1, 1}, ngr{1, 1, 1};
  uint64_t global_items = 1, local_items = 1;
  for (size_t d = 0; d < global_in.size(); ++d) {
    gsz[d] = global_in[d];
    lsz[d] = local[d];
    ngr[d] = gsz[d] / lsz[d];
    global_items *= gsz[d];
    local_items *= lsz[d];
  }
  if (global_items > 0xffffffffu) {
    throw DriverError("global size " + NdText(global_in) + " has more than 2^32 work-items");
  }
  const uint64_t sgs_per_group = (local_items + simd - 1) / simd;
  if (k.uses_barrier && sgs_per_group > 1) {
    const std::vector<uint32_t> fit = PickLocalSize(global_in, simd);
    throw DriverError(
        "kernel '" + k.name + "' uses a work-group barrier(), but its work-group of " +
        std::to_string(local_items) + " work-items (local size " + NdText(local) + ") runs as " +
        std::to_string(sgs_per_group) + " sub-groups of " + std::to_string(simd) +
        " lanes one after another, which cannot wait for each other; use a local size of at "
        "most " + std::to_string(simd) + " work-items in total, e.g. " + NdText(fit));
  }
  const uint64_t groups = uint64_t{ngr[0]} * ngr[1] * ngr[2];

  // ---- arguments ------------------------------------------------------------------------
  for (size_t i = 0; i < k.args.size(); ++i) {
    if (!I.args[i].set) {
      throw DriverError("argument '" + k.args[i].name + "' (" + k.args[i].type_name + ", " +
                        KindName(k.args[i].kind) + ") of kernel '" + k.name + "' is not set");
    }
    if (uint64_t{k.args[i].offset} + k.args[i].size > std::max(k.launch_block_size, abi::kLbArgs) ||
        k.args[i].offset < abi::kLbArgs) {
      throw DriverError("malformed program: parameter '" + k.args[i].name +
                        "' lies outside the launch block");
    }
  }

  // ---- layout ---------------------------------------------------------------------------
  Layout L;
  L.arg_addr.assign(k.args.size(), 0);
  L.image_desc.assign(k.args.size(), 0);
  uint64_t at = kWindowBase;
  auto place = [&](uint64_t bytes, const std::string& what, const std::string& arg) {
    const uint32_t a = static_cast<uint32_t>(at);
    at = Align64(at + bytes);
    if (at > kMaxMemory) {
      throw DriverError("the arguments need more than " + std::to_string(kMaxMemory >> 20) +
                        " MiB of SGU memory");
    }
    L.regions.push_back({what, arg, a, static_cast<uint32_t>(bytes), false});
    return a;
  };
  L.code = place(k.code.size() * 8, "the kernel's code", "");
  const uint32_t lb_size = std::max(k.launch_block_size, abi::kLbArgs);
  L.launch_block = place(lb_size, "the launch block", "");
  L.constants = place(I.bin.constants.size(), "the program's constant data", "");
  for (size_t i = 0; i < k.args.size(); ++i) {
    if (k.args[i].kind == ArgKind::kImage) {
      L.image_desc[i] = place(abi::kImgDescSize, "the descriptor of image '" + k.args[i].name + "'",
                              k.args[i].name);
    }
  }
  L.local_static = place(k.local_bytes, "the kernel's static __local memory", "");
  for (size_t i = 0; i < k.args.size(); ++i) {
    if (k.args[i].kind == ArgKind::kLocalBuffer) {
      L.arg_addr[i] = place(I.args[i].local_bytes, "__local buffer '" + k.args[i].name + "'",
                            k.args[i].name);
    }
  }
  L.descriptor = place(abi::kSgSize + k.scalar_spill_bytes, "the sub-group descriptor", "");
  L.private_base = place(uint64_t{k.private_bytes} * simd, "the private memory", "");
  std::vector<std::pair<uint32_t, uint32_t>> guards;  // [lo, hi) answering with AXI errors
  uint32_t guard_from = static_cast<uint32_t>(at);
  for (size_t i = 0; i < k.args.size(); ++i) {
    const KernelArg& a = k.args[i];
    const ArgValue& v = I.args[i];
    uint64_t bytes = 0;
    std::string what;
    if (a.kind == ArgKind::kGlobalBuffer || a.kind == ArgKind::kConstantBuffer) {
      bytes = v.bytes.size();
      what = "buffer '" + a.name + "'";
    } else if (a.kind == ArgKind::kImage) {
      bytes = uint64_t{v.image.row_pitch} * v.image.height;
      what = "the texels of image '" + a.name + "'";
    } else {
      continue;
    }
    // The guard gap runs from the end of the previous buffer (exactly, not rounded up) to
    // this one; the LSU makes one transfer of the access size per lane, so an access that
    // touches a byte past a buffer's end is answered with an AXI error.
    at += kGuardBytes;
    guards.emplace_back(guard_from, static_cast<uint32_t>(at));
    L.arg_addr[i] = place(bytes, what, a.name);
    L.regions.back().guarded = true;
    guard_from = L.arg_addr[i] + static_cast<uint32_t>(bytes);
  }
  at += kGuardBytes;
  if (at > kMaxMemory) throw DriverError("the arguments do not fit in the SGU's memory");
  guards.emplace_back(guard_from, static_cast<uint32_t>(at));
  L.limit = static_cast<uint32_t>(at);

  // ---- initial memory ---------------------------------------------------------------------
  Memory image(L.limit);
  for (const auto& [lo, hi] : guards) image.AddErrorRange(lo, hi);
  uint8_t* m = image.data();
  for (size_t i = 0; i < k.code.size(); ++i) {
    image.Store(L.code + 8 * static_cast<uint32_t>(i), 8, k.code[i]);
  }
  std::vector<uint8_t> lb(lb_size, 0);
  Put32(lb, abi::kLbWorkDim, static_cast<uint32_t>(global_in.size()));
  for (unsigned d = 0; d < 3; ++d) {
    Put32(lb, abi::kLbGlobalSize + 4 * d, gsz[d]);
    Put32(lb, abi::kLbLocalSize + 4 * d, lsz[d]);
    Put32(lb, abi::kLbNumGroups + 4 * d, ngr[d]);
    Put32(lb, abi::kLbGlobalOffset + 4 * d, 0);
  }
  Put32(lb, abi::kLbNumSubGroups, static_cast<uint32_t>(sgs_per_group));
  Put32(lb, abi::kLbConstBase, L.constants);
  Put32(lb, abi::kLbLocalBase, L.local_static);
  for (size_t i = 0; i < k.args.size(); ++i) {
    const KernelArg& a = k.args[i];
    const ArgValue& v = I.args[i];
    switch (a.kind) {
      case ArgKind::kScalar:
        std::copy(v.bytes.begin(), v.bytes.end(), lb.begin() + a.offset);
        break;
      case ArgKind::kGlobalBuffer:
      case ArgKind::kConstantBuffer:
        Put32(lb, a.offset, L.arg_addr[i]);
        std::memcpy(m + L.arg_addr[i], v.bytes.data(), v.bytes.size());
        break;
      case ArgKind::kLocalBuffer: Put32(lb, a.offset, L.arg_addr[i]); break;
      case ArgKind::kImage: {
        Put32(lb, a.offset, L.image_desc[i]);
        const ImageDesc& d = v.image;
        const uint32_t row = d.width * TexelBytes(d.format);
        std::vector<uint8_t> desc(abi::kImgDescSize, 0);
        Put32(desc, abi::kImgAddr, L.arg_addr[i]);
        Put32(desc, abi::kImgWidth, d.width);
        Put32(desc, abi::kImgHeight, d.height);
        Put32(desc, abi::kImgRowPitch, d.row_pitch);
        Put32(desc, abi::kImgFormat, static_cast<uint32_t>(d.format));
        Put32(desc, abi::kImgTexelBytes, TexelBytes(d.format));
        std::memcpy(m + L.image_desc[i], desc.data(), desc.size());
        for (uint32_t y = 0; y < d.height; ++y) {
          std::memcpy(m + L.arg_addr[i] + uint64_t{y} * d.row_pitch,
                      v.bytes.data() + uint64_t{y} * row, row);
        }
        break;
      }
    }
  }
  std::memcpy(m + L.launch_block, lb.data(), lb.size());
  if (!I.bin.constants.empty()) {
    std::memcpy(m + L.constants, I.bin.constants.data(), I.bin.constants.size());
  }

  // ---- the unit ---------------------------------------------------------------------------
  std::unique_ptr<internal::Unit> unit;
  switch (opts.backend) {
    case Backend::kGolden: unit = internal::MakeGoldenUnit(opts, std::move(image)); break;
    case Backend::kRtl: unit = internal::MakeRtlUnit(opts, std::move(image)); break;
    case Backend::kCosim: unit = internal::MakeCosimUnit(opts, image); break;
  }

  Result res;
  res.backend = opts.backend;
  res.simd = simd;
  res.kernel = k.name;
  res.global = global_in;
  res.local = local;
  res.work_groups = groups;
  res.sub_groups_total = groups * sgs_per_group;
  res.code_address = L.code;

  auto describe_pc = [&](uint32_t pc) {
    const uint32_t off = pc - L.code;
    char o[16];
    std::snprintf(o, sizeof o, "+0x%" PRIx32, off);
    std::string s = "pc " + Hex(pc) + " (" + o;
    const std::string src = SourceLine(I.bin, k, off);
    if (!src.empty()) s += ", " + src;
    return s + ")";
  };

  // ---- work-groups and sub-groups -------------------------------------------------------
  std::vector<uint8_t> desc(abi::kSgSize, 0);
  bool stop = false;
  for (uint32_t gz = 0; gz < ngr[2] && !stop; ++gz) {
    for (uint32_t gy = 0; gy < ngr[1] && !stop; ++gy) {
      for (uint32_t gx = 0; gx < ngr[0] && !stop; ++gx) {
        for (uint32_t sg = 0; sg < sgs_per_group && !stop; ++sg) {
          const uint32_t first = sg * simd;
          const uint32_t lanes =
              static_cast<uint32_t>(std::min<uint64_t>(simd, local_items - first));
          std::fill(desc.begin(), desc.end(), 0);
          Put32(desc, abi::kSgGroupId + 0, gx);
          Put32(desc, abi::kSgGroupId + 4, gy);
          Put32(desc, abi::kSgGroupId + 8, gz);
          Put32(desc, abi::kSgSubGroupId, sg);
          Put32(desc, abi::kSgPrivateBase, L.private_base);
          Put32(desc, abi::kSgLocalLinearBase, first);
          for (uint32_t l = 0; l < lanes; ++l) {
            const uint32_t lin = first + l;
            Put32(desc, abi::kSgLocalId + 0 * 128 + 4 * l, lin % lsz[0]);
            Put32(desc, abi::kSgLocalId + 1 * 128 + 4 * l, (lin / lsz[0]) % lsz[1]);
            Put32(desc, abi::kSgLocalId + 2 * 128 + 4 * l, lin / (lsz[0] * lsz[1]));
          }
          unit->Write(L.descriptor, desc.data(), desc.size());

          LaunchParams p;
          p.pc_start = L.code;
          p.lanes = lanes;
          p.mem_base = kWindowBase;
          p.mem_limit = L.limit;
          p.args[0] = L.launch_block;
          p.args[1] = L.descriptor;
          const internal::LaunchOutcome o = unit->Run(p);
          ++res.sub_groups;
          res.cycles += o.cycles;
          res.instructions += o.instructions;
          res.icache_hits += o.icache_hits;
          res.icache_misses += o.icache_misses;
          const std::string where_sg = "work-group (" + std::to_string(gx) + "," +
                                       std::to_string(gy) + "," + std::to_string(gz) +
                                       ") sub-group " + std::to_string(sg);
          for (const Diagnostic& d : o.diagnostics) {
            ++res.diagnostic_count;
            if (res.diagnostics.size() < opts.max_diagnostics) {
              res.diagnostics.push_back(describe_pc(d.pc) + " " + where_sg + " lane " +
                                        std::to_string(d.lane) + ": " + d.what);
            }
          }
          Fault& f = res.fault;
          auto locate = [&]() {
            f.pc = o.pc;
            f.pc_offset = o.pc - L.code;
            f.source = SourceLine(I.bin, k, f.pc_offset);
            f.group_id = {gx, gy, gz};
            f.sub_group_id = sg;
          };
          switch (o.kind) {
            case internal::LaunchOutcome::kHalted: break;
            case internal::LaunchOutcome::kTrapped:
              res.status = Status::kFault;
              locate();
              f.cause = o.cause;
              f.tval = o.tval;
              if (IsAddressCause(o.cause)) f.where = DescribeAddress(L, o.tval, &f.buffer);
              stop = true;
              break;
            case internal::LaunchOutcome::kHang:
              res.status = Status::kHang;
              locate();
              f.cause = o.cause;
              f.tval = o.tval;
              res.report = o.report;
              stop = true;
              break;
            case internal::LaunchOutcome::kMismatch:
              res.status = Status::kMismatch;
              locate();
              res.report = o.report;
              stop = true;
              break;
          }
          if (!stop && opts.strict && !o.diagnostics.empty()) {
            res.status = Status::kStrict;
            locate();
            res.report = std::to_string(o.diagnostics.size()) + " diagnostic(s) in " + where_sg;
            stop = true;
          }
          if (opts.progress) opts.progress(res.sub_groups, res.sub_groups_total);
        }
      }
    }
  }
  unit->Finish();

  // ---- read back ------------------------------------------------------------------------
  for (size_t i = 0; i < k.args.size(); ++i) {
    const KernelArg& a = k.args[i];
    ArgValue& v = I.args[i];
    v.result.clear();
    if (a.kind == ArgKind::kGlobalBuffer || a.kind == ArgKind::kConstantBuffer) {
      v.result.resize(v.bytes.size());
      unit->Read(L.arg_addr[i], v.result.data(), v.result.size());
    } else if (a.kind == ArgKind::kImage) {
      const ImageDesc& d = v.image;
      const uint32_t row = d.width * TexelBytes(d.format);
      v.result.resize(uint64_t{row} * d.height);
      for (uint32_t y = 0; y < d.height; ++y) {
        unit->Read(L.arg_addr[i] + y * d.row_pitch, v.result.data() + uint64_t{y} * row, row);
      }
    }
  }
  return res;
}

}  // namespace sgu::driver
