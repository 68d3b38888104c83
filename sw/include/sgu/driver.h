// SPDX-License-Identifier: Apache-2.0
// The SGU driver: load a compiled program, bind arguments, launch an NDRange on the golden model,
// on the Verilated RTL, or on both in lockstep, and read back results, counts and faults.
//
//   sgu::driver::Device dev({.backend = Backend::kCosim, .simd = 16});
//   sgu::driver::Launch l(dev, binary, "scale");
//   l.SetBuffer("in", in_bytes);  l.SetZeros("out", 1024);  l.SetScalar("n", int32_t{42});
//   sgu::driver::Result r = l.Run({256}, {64});
//   if (r.status != Status::kOk) ... r.Message() ...
//   const std::vector<uint8_t>& out = l.Contents("out");
//
// A work-group runs as ceil(local size / SIMD) sub-groups, one after another, each launched
// through the unit's AXI4-Lite registers with its sub-group descriptor (sgu/binary.h, abi::).
// Work-groups also run one after another, so one __local region serves every work-group.
// docs/user-guide.md "Launch ABI and memory layout" describes the memory the driver lays out.
#ifndef SGU_DRIVER_H_
#define SGU_DRIVER_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sgu/binary.h"
#include "sgu/isa_gen.h"
#include "sgu/model.h"

namespace sgu::driver {

enum class Backend { kGolden, kRtl, kCosim };
const char* BackendName(Backend b);
// "golden", "rtl", "cosim"; throws DriverError otherwise.
Backend ParseBackend(const std::string& name);

// Bad use of the driver by its caller (unknown argument name, wrong size, bad NDRange, ...):
// the message says what and how to fix it.
class DriverError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The largest work-group (local linear size) the driver picks when the caller gives no local
// size (kernels without a work-group barrier); explicit local sizes are not limited by it.
inline constexpr uint32_t kDefaultMaxWorkGroupSize = 256;

struct DeviceOptions {
  Backend backend = Backend::kGolden;
  unsigned simd = 16;                 // 8, 16 or 32
  // Budget of one sub-group launch: RTL cycles (the WATCHDOG register, at most 2^32 - 1) for
  // rtl/cosim, retired instructions for golden. 0: unlimited (rtl/cosim still stop a unit that
  // retires nothing for hang_cycles).
  uint64_t watchdog_cycles = 100000000;
  uint64_t hang_cycles = 200000;      // rtl/cosim: host-side stop when nothing retires this long
  std::string trace_path;             // rtl/cosim: FST waveform of the whole NDRange
  uint64_t seed = 1;                  // rtl/cosim: AXI timing randomness
  bool random_axi = false;            // rtl/cosim: random AXI latency and backpressure
  bool strict = false;                // sanitizer diagnostics are errors (Status::kStrict)
  size_t max_diagnostics = 100;       // diagnostics kept in Result (all are counted)
  // Called after each sub-group launch with (done, total) for progress reports; may be empty.
  std::function<void(uint64_t, uint64_t)> progress;
};

enum class Status {
  kOk,        // every sub-group halted
  kFault,     // a sub-group trapped: cause, pc, tval, source line
  kMismatch,  // cosim: RTL and golden model disagree (report)
  kHang,      // the unit stopped retiring / the watchdog or instruction budget ran out
  kStrict,    // strict mode: a sanitizer diagnostic
};
const char* StatusName(Status s);  // "ok", "fault", "mismatch", "hang", "strict"

struct Fault {
  isa::Cause cause = isa::Cause::kNone;
  uint32_t pc = 0;          // byte address of the faulting instruction
  uint32_t pc_offset = 0;   // offset inside the kernel's code
  uint32_t tval = 0;        // faulting address / value (docs/isa.md causes)
  std::string source;       // "file.cl:12" when the line table has it
  std::string buffer;       // the argument whose memory tval falls in (or near), if any
  std::string where;        // memory causes: what tval points at, in words ("12 bytes past ...")
  std::array<uint32_t, 3> group_id{};
  uint32_t sub_group_id = 0;
};

struct Result {
  Status status = Status::kOk;
  Backend backend = Backend::kGolden;
  unsigned simd = 16;
  std::string kernel;
  std::vector<uint32_t> global, local;  // the NDRange that ran (local as picked when empty)
  uint64_t work_groups = 0;   // in the NDRange
  uint64_t cycles = 0;        // rtl/cosim: sum of the CYCLES register over launches; golden: 0
  uint64_t instructions = 0;  // retired instructions, all sub-groups
  // rtl/cosim: sums of the ICACHE_HITS / ICACHE_MISSES registers over launches (the instruction
  // cache is flushed at every launch); golden: 0.
  uint64_t icache_hits = 0, icache_misses = 0;
  uint64_t sub_groups = 0;    // launches performed
  uint64_t sub_groups_total = 0;  // launches in the NDRange
  uint32_t code_address = 0;  // where the kernel's code was loaded (PC_START; waveform views)
  // Sanitizer reports (golden and cosim: from the golden model; rtl has none), each one line
  // with pc, kernel offset, source line, work-group, sub-group and lane. At most
  // DeviceOptions::max_diagnostics are kept; diagnostic_count counts them all.
  std::vector<std::string> diagnostics;
  uint64_t diagnostic_count = 0;
  Fault fault;                // status kFault (kHang from the RTL watchdog: cause Watchdog)
  std::string report;         // kMismatch / kHang / kStrict details (may be several lines)
  std::string Message() const;  // one line: "ok", or what went wrong, where, which address
};

class Device {
 public:
  // Throws DriverError for a SIMD width other than 8, 16, 32.
  explicit Device(const DeviceOptions& opts);
  ~Device();
  const DeviceOptions& options() const { return opts_; }

 private:
  DeviceOptions opts_;
};

// An image argument: width x height texels of `format`, stored with `row_pitch` bytes per row.
// Host-side contents (SetImage, Contents) are tightly packed rows (width * TexelBytes each).
struct ImageDesc {
  uint32_t width = 0, height = 0;
  ImageFormat format = ImageFormat::kR8;
  uint32_t row_pitch = 0;  // bytes, a multiple of 4 >= width * texel size; 0: that rounded up to 64
};
// Bytes per texel: r8 1, r16 2, r32 4, rgba8 4, r32f 4, rgba16 8, yuyv 2 (one pixel: Y and
// every other chroma byte; the width of a yuyv image must be even).
uint32_t TexelBytes(ImageFormat f);
const char* ImageFormatName(ImageFormat f);
// "r8", "r16", "r32", "rgba8", "r32f", "rgba16", "yuyv"; throws DriverError otherwise.
ImageFormat ParseImageFormat(const std::string& name);

// "file.cl:12" for a byte offset into the kernel's code, "" when the line table has no line.
std::string SourceLine(const Binary& bin, const Kernel& k, uint32_t offset);

// The local size the driver picks for `global` when none is given: per dimension (x first) the
// largest divisor of the global size that keeps the work-group within `max_size` work-items.
std::vector<uint32_t> PickLocalSize(const std::vector<uint32_t>& global, uint32_t max_size);

// One kernel launch being prepared: arguments by name or by index.
class Launch {
 public:
  // Throws DriverError if the binary has no kernel `kernel` (or, with an empty name, more than
  // one kernel), or the kernel's required sub-group size differs from the device's SIMD width.
  // The binary is copied; the device must outlive the launch.
  Launch(Device& dev, const Binary& bin, const std::string& kernel);
  ~Launch();

  const Kernel& kernel() const;
  // Index of a parameter by name; throws DriverError naming the parameters when unknown.
  size_t ArgIndex(const std::string& name) const;

  // Scalars: raw little-endian bytes of exactly the parameter's size.
  void SetScalarBytes(size_t index, const std::vector<uint8_t>& bytes);
  template <typename T>
  void SetScalar(size_t index, T v) {
    std::vector<uint8_t> b(sizeof v);
    __builtin_memcpy(b.data(), &v, sizeof v);
    SetScalarBytes(index, b);
  }
  template <typename T>
  void SetScalar(const std::string& name, T v) {
    SetScalar(ArgIndex(name), v);
  }
  // Buffers (__global / __constant pointers): initial contents (at least one byte).
  void SetBuffer(size_t index, const std::vector<uint8_t>& bytes);
  void SetBuffer(const std::string& name, const std::vector<uint8_t>& bytes) {
    SetBuffer(ArgIndex(name), bytes);
  }
  void SetZeros(size_t index, size_t bytes) { SetBuffer(index, std::vector<uint8_t>(bytes, 0)); }
  void SetZeros(const std::string& name, size_t bytes) { SetZeros(ArgIndex(name), bytes); }
  // __local pointer: size in bytes of the region each work-group gets.
  void SetLocal(size_t index, uint32_t bytes);
  void SetLocal(const std::string& name, uint32_t bytes) { SetLocal(ArgIndex(name), bytes); }
  // Images: packed rows of desc.width * TexelBytes(format) bytes (empty: zeros).
  void SetImage(size_t index, const ImageDesc& desc, const std::vector<uint8_t>& packed);
  void SetImage(const std::string& name, const ImageDesc& desc,
                const std::vector<uint8_t>& packed) {
    SetImage(ArgIndex(name), desc, packed);
  }

  // Runs the NDRange. global/local: 1 to 3 sizes; an empty local picks one (PickLocalSize with
  // kDefaultMaxWorkGroupSize, or the SIMD width for a barrier kernel). Throws DriverError for a
  // missing argument, a local size that does not divide the global size, or a barrier kernel
  // whose work-group holds more than one sub-group (the message gives a size that runs).
  // A fault, hang, mismatch or strict diagnostic stops the whole NDRange at once and is
  // reported in the Result (not thrown). Run may be called again; arguments keep their
  // initial contents (each Run starts from them).
  Result Run(const std::vector<uint32_t>& global, const std::vector<uint32_t>& local);

  // After Run: a buffer's or image's contents (images as packed rows), also after a fault.
  std::vector<uint8_t> Contents(size_t index) const;
  std::vector<uint8_t> Contents(const std::string& name) const { return Contents(ArgIndex(name)); }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sgu::driver

#endif  // SGU_DRIVER_H_
