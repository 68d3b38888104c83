// SPDX-License-Identifier: Apache-2.0
// Driver helpers: names, image formats, line table lookup, local-size choice, result messages.
#include <cinttypes>
#include <cstdio>

#include "sgu/driver.h"

namespace sgu::driver {

const char* BackendName(Backend b) {
  switch (b) {
    case Backend::kGolden: return "golden";
    case Backend::kRtl: return "rtl";
    case Backend::kCosim: return "cosim";
  }
  return "?";
}

Backend ParseBackend(const std::string& name) {
  if (name == "golden") return Backend::kGolden;
  if (name == "rtl") return Backend::kRtl;
  if (name == "cosim") return Backend::kCosim;
  throw DriverError("unknown backend '" + name + "' (golden, rtl or cosim)");
}

const char* StatusName(Status s) {
  switch (s) {
    case Status::kOk: return "ok";
    case Status::kFault: return "fault";
    case Status::kMismatch: return "mismatch";
    case Status::kHang: return "hang";
    case Status::kStrict: return "strict";
  }
  return "?";
}

uint32_t TexelBytes(ImageFormat f) {
  switch (f) {
    case ImageFormat::kR8: return 1;
    case ImageFormat::kR16: return 2;
    case ImageFormat::kR32: return 4;
    case ImageFormat::kRgba8: return 4;
    case ImageFormat::kR32f: return 4;
    case ImageFormat::kRgba16: return 8;
    case ImageFormat::kYuyv: return 2;
  }
  throw DriverError("unknown image format code " + std::to_string(static_cast<uint32_t>(f)));
}

const char* ImageFormatName(ImageFormat f) {
  switch (f) {
    case ImageFormat::kR8: return "r8";
    case ImageFormat::kR16: return "r16";
    case ImageFormat::kR32: return "r32";
    case ImageFormat::kRgba8: return "rgba8";
    case ImageFormat::kR32f: return "r32f";
    case ImageFormat::kRgba16: return "rgba16";
    case ImageFormat::kYuyv: return "yuyv";
  }
  return "?";
}

ImageFormat ParseImageFormat(const std::string& name) {
  for (ImageFormat f : {ImageFormat::kR8, ImageFormat::kR16, ImageFormat::kR32, ImageFormat::kRgba8,
                        ImageFormat::kR32f, ImageFormat::kRgba16, ImageFormat::kYuyv}) {
    if (name == ImageFormatName(f)) return f;
  }
  throw DriverError("unknown image format '" + name +
                    "' (r8, r16, r32, rgba8, r32f, rgba16 or yuyv)");
}

std::string SourceLine(const Binary& bin, const Kernel& k, uint32_t offset) {
  const LineEntry* hit = nullptr;
  for (const LineEntry& e : k.lines) {
    if (e.offset > offset) break;
    hit = &e;
  }
  if (hit == nullptr || hit->line == 0) return "";
  const std::string file = hit->file < bin.files.size() ? bin.files[hit->file] : "?";
  return file + ":" + std::to_string(hit->line);
}

std::vector<uint32_t> PickLocalSize(const std::vector<uint32_t>& global, uint32_t max_size) {
  std::vector<uint32_t> local;
  uint32_t room = max_size ? max_size : 1;
  for (uint32_t g : global) {
    uint32_t best = 1;
    for (uint32_t d = 1; d <= room && d <= g; ++d) {
      if (g % d == 0) best = d;
    }
    local.push_back(best);
    room /= best;
  }
  return local;
}

namespace {

std::string Hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08" PRIx32, v);
  return b;
}

std::string Off(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "+0x%" PRIx32, v);
  return b;
}

std::string FirstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string Group(const Fault& f) {
  return "work-group (" + std::to_string(f.group_id[0]) + "," + std::to_string(f.group_id[1]) +
         "," + std::to_string(f.group_id[2]) + ") sub-group " + std::to_string(f.sub_group_id);
}

}  // namespace

std::string Result::Message() const {
  switch (status) {
    case Status::kOk: {
      std::string m = "ok: " + std::to_string(sub_groups) + " sub-groups, " +
                      std::to_string(instructions) + " instructions";
      if (backend != Backend::kGolden) m += ", " + std::to_string(cycles) + " cycles";
      if (diagnostic_count) m += ", " + std::to_string(diagnostic_count) + " diagnostics";
      return m;
    }
    case Status::kFault: {
      std::string m = std::string("fault: ") + isa::CauseName(fault.cause) + " at pc " +
                      Hex(fault.pc) + " (kernel '" + kernel + "' " + Off(fault.pc_offset);
      if (!fault.source.empty()) m += ", " + fault.source;
      m += ") in " + Group(fault) + ": ";
      if (!fault.where.empty()) {
        m += "address " + Hex(fault.tval) + " " + fault.where;
      } else if (fault.cause == isa::Cause::kSwTrap) {
        m += "trap " + std::to_string(static_cast<int32_t>(fault.tval));
      } else if (fault.cause == isa::Cause::kIllegalInsn) {
        m += "illegal instruction (low word " + Hex(fault.tval) + ")";
      } else {
        m += "tval " + Hex(fault.tval);
      }
      return m;
    }
    case Status::kMismatch:
      return "mismatch: RTL and golden model disagree in " + Group(fault) + ": " +
             FirstLine(report);
    case Status::kHang: {
      std::string m = "hang in " + Group(fault) + " at pc " + Hex(fault.pc) + " (" +
                      Off(fault.pc_offset);
      if (!fault.source.empty()) m += ", " + fault.source;
      return m + "): " + FirstLine(report);
    }
    case Status::kStrict:
      return "strict: " + std::to_string(diagnostic_count) +
             " sanitizer diagnostic(s), first: " +
             (diagnostics.empty() ? std::string("?") : diagnostics.front());
  }
  return "?";
}

Device::Device(const DeviceOptions& opts) : opts_(opts) {
  if (opts.simd != 8 && opts.simd != 16 && opts.simd != 32) {
    throw DriverError("SIMD width must be 8, 16 or 32, not " + std::to_string(opts.simd));
  }
}

Device::~Device() = default;

}  // namespace sgu::driver
