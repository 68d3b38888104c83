// SPDX-License-Identifier: Apache-2.0
// The .sgubin container: a versioned, checksummed, little-endian serialisation of sgu::Binary.
//
// Layout (every integer little-endian):
//
//   header   "SGUBIN"            6 bytes  magic
//            u16 version         currently 1
//            u32 payload_bytes   bytes after the 16-byte header
//            u32 crc32           CRC-32 (IEEE 802.3, as zlib) of the payload
//   payload  u32 count, count x str                      Binary::files
//            u32 count, count x u8                       Binary::constants
//            u32 count, count x kernel                   Binary::kernels
//   kernel   str name
//            u32 launch_block_size, required_simd, private_bytes, scalar_spill_bytes,
//                local_bytes
//            u8  uses_barrier (0 or 1)
//            u32 count, count x arg
//            u32 count, count x u64                      Kernel::code
//            u32 count, count x (u32 offset, u32 file, u32 line)   Kernel::lines
//   arg      str name, str type_name, u8 kind, u32 size, u8 is_float, u8 is_signed, u32 offset
//   str      u32 length, length bytes (no terminator)
//
// ReadBinary checks the magic, the version, the payload size and the checksum first, then
// parses with every count bounded by the bytes that remain, and finally checks what a consumer
// relies on: enum and bool values, line-table file indices and order, argument slots inside
// the launch block, unique kernel names, no trailing bytes. WriteBinary checks the same rules,
// so whatever it writes reads back.
#include "sgu/binary.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace sgu {

namespace {

constexpr char kMagic[] = {'S', 'G', 'U', 'B', 'I', 'N'};
constexpr size_t kMagicBytes = sizeof(kMagic);
constexpr uint16_t kVersion = 1;
constexpr size_t kHeaderBytes = kMagicBytes + 2 + 4 + 4;

// Smallest encoded size of each repeated element: lets the reader reject a count that cannot
// fit in the bytes that remain before it allocates anything.
constexpr size_t kMinStringBytes = 4;
constexpr size_t kMinArgBytes = 4 + 4 + 1 + 4 + 1 + 1 + 4;
constexpr size_t kMinKernelBytes = 4 + 5 * 4 + 1 + 4 + 4 + 4;
constexpr size_t kLineEntryBytes = 12;
constexpr size_t kCodeWordBytes = 8;

constexpr uint8_t kMaxArgKind = static_cast<uint8_t>(ArgKind::kImage);

uint32_t Crc32(const uint8_t* data, size_t n) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

std::string KernelLabel(size_t index, const std::string& name) {
  return "kernel " + std::to_string(index) + (name.empty() ? "" : " '" + name + "'");
}

// The rules both directions enforce. `what` prefixes the message ("cannot write" / "corrupt").
void CheckKernel(const Kernel& k, size_t index, size_t num_files, const std::string& what) {
  const std::string where = what + ": " + KernelLabel(index, k.name);
  if (k.name.empty()) throw BinaryError(where + " has no name");
  if (k.launch_block_size < abi::kLbArgs) {
    throw BinaryError(where + ": launch block of " + std::to_string(k.launch_block_size) +
                      " bytes is smaller than its fixed part (" + std::to_string(abi::kLbArgs) +
                      ")");
  }
  for (size_t a = 0; a < k.args.size(); ++a) {
    const KernelArg& arg = k.args[a];
    const std::string arg_where = where + " argument " + std::to_string(a) + " '" + arg.name + "'";
    if (static_cast<uint8_t>(arg.kind) > kMaxArgKind) {
      throw BinaryError(arg_where + " has unknown kind " +
                        std::to_string(static_cast<unsigned>(arg.kind)));
    }
    const uint64_t end = uint64_t{arg.offset} + arg.size;
    if (arg.offset < abi::kLbArgs || end > k.launch_block_size) {
      throw BinaryError(arg_where + ": slot [" + std::to_string(arg.offset) + ", " +
                        std::to_string(end) + ") is outside the argument area [" +
                        std::to_string(abi::kLbArgs) + ", " + std::to_string(k.launch_block_size) +
                        ") of the launch block");
    }
  }
  const uint64_t code_bytes = uint64_t{k.code.size()} * kCodeWordBytes;
  for (size_t i = 0; i < k.lines.size(); ++i) {
    const LineEntry& e = k.lines[i];
    const std::string row = where + " line-table row " + std::to_string(i);
    if (e.line != 0 && e.file >= num_files) {
      throw BinaryError(row + " names file " + std::to_string(e.file) + " but the binary has " +
                        std::to_string(num_files) + " file(s)");
    }
    if (e.offset > code_bytes) {
      throw BinaryError(row + " starts at byte " + std::to_string(e.offset) +
                        ", past the end of the code (" + std::to_string(code_bytes) + " bytes)");
    }
    if (i > 0 && e.offset < k.lines[i - 1].offset) {
      throw BinaryError(row + " is out of order (offset " + std::to_string(e.offset) + " after " +
                        std::to_string(k.lines[i - 1].offset) + ")");
    }
  }
}

void CheckBinary(const Binary& b, const std::string& what) {
  std::set<std::string> names;
  for (size_t i = 0; i < b.kernels.size(); ++i) {
    CheckKernel(b.kernels[i], i, b.files.size(), what);
    if (!names.insert(b.kernels[i].name).second) {
      throw BinaryError(what + ": two kernels are named '" + b.kernels[i].name + "'");
    }
  }
}

// ---- writing ----------------------------------------------------------------------------------

class Writer {
 public:
  void U8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void U16(uint16_t v) {
    for (int i = 0; i < 2; ++i) U8(static_cast<uint8_t>(v >> (8 * i)));
  }
  void U32(uint32_t v) {
    for (int i = 0; i < 4; ++i) U8(static_cast<uint8_t>(v >> (8 * i)));
  }
  void U64(uint64_t v) {
    for (int i = 0; i < 8; ++i) U8(static_cast<uint8_t>(v >> (8 * i)));
  }
  void Count(size_t n, const char* what) {
    if (n > std::numeric_limits<uint32_t>::max()) {
      throw BinaryError(std::string("cannot write: too many ") + what + " (" + std::to_string(n) +
                        ")");
    }
    U32(static_cast<uint32_t>(n));
  }
  void Str(const std::string& s) {
    Count(s.size(), "bytes in a string");
    out_ += s;
  }
  std::string& bytes() { return out_; }

 private:
  std::string out_;
};

// ---- reading ----------------------------------------------------------------------------------

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  size_t remaining() const { return size_ - pos_; }

  // `what` names the field for the error message.
  uint8_t U8(const std::string& what) {
    Need(1, what);
    return data_[pos_++];
  }
  uint32_t U32(const std::string& what) {
    Need(4, what);
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t{data_[pos_++]} << (8 * i);
    return v;
  }
  uint64_t U64(const std::string& what) {
    Need(8, what);
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t{data_[pos_++]} << (8 * i);
    return v;
  }
  bool Bool(const std::string& what) {
    const uint8_t v = U8(what);
    if (v > 1) {
      throw BinaryError("corrupt: " + what + " is " + std::to_string(v) + ", not 0 or 1");
    }
    return v != 0;
  }
  // A count of elements of at least `min_bytes` each, checked against the remaining bytes.
  uint32_t Count(size_t min_bytes, const std::string& what) {
    const uint32_t n = U32("number of " + what);
    if (uint64_t{n} * min_bytes > remaining()) {
      throw BinaryError("corrupt: " + std::to_string(n) + " " + what + " need at least " +
                        std::to_string(uint64_t{n} * min_bytes) + " bytes but only " +
                        std::to_string(remaining()) + " remain (at byte " +
                        std::to_string(kHeaderBytes + pos_) + ")");
    }
    return n;
  }
  std::string Str(const std::string& what) {
    const uint32_t n = Count(1, "bytes of " + what);
    std::string s(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return s;
  }
  std::vector<uint8_t> Bytes(const std::string& what) {
    const uint32_t n = Count(1, what);
    std::vector<uint8_t> v(data_ + pos_, data_ + pos_ + n);
    pos_ += n;
    return v;
  }

 private:
  void Need(size_t n, const std::string& what) const {
    if (n > remaining()) {
      throw BinaryError("truncated: payload ends inside " + what + " (at byte " +
                        std::to_string(kHeaderBytes + pos_) + ")");
    }
  }

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

KernelArg ReadArg(Reader& r, const std::string& where) {
  KernelArg a;
  a.name = r.Str(where + " name");
  const std::string w = where + " '" + a.name + "'";
  a.type_name = r.Str(w + " type name");
  const uint8_t kind = r.U8(w + " kind");
  if (kind > kMaxArgKind) {
    throw BinaryError("corrupt: " + w + " has unknown kind " + std::to_string(kind));
  }
  a.kind = static_cast<ArgKind>(kind);
  a.size = r.U32(w + " size");
  a.is_float = r.Bool(w + " is_float flag");
  a.is_signed = r.Bool(w + " is_signed flag");
  a.offset = r.U32(w + " offset");
  return a;
}

Kernel ReadKernel(Reader& r, size_t index) {
  Kernel k;
  k.name = r.Str(KernelLabel(index, "") + " name");
  const std::string where = KernelLabel(index, k.name);
  k.launch_block_size = r.U32(where + " launch block size");
  k.required_simd = r.U32(where + " required SIMD width");
  k.private_bytes = r.U32(where + " private bytes");
  k.scalar_spill_bytes = r.U32(where + " scalar spill bytes");
  k.local_bytes = r.U32(where + " local bytes");
  k.uses_barrier = r.Bool(where + " uses_barrier flag");
  const uint32_t num_args = r.Count(kMinArgBytes, "arguments of " + where);
  k.args.reserve(num_args);
  for (uint32_t a = 0; a < num_args; ++a) {
    k.args.push_back(ReadArg(r, where + " argument " + std::to_string(a)));
  }
  const uint32_t num_words = r.Count(kCodeWordBytes, "code words of " + where);
  k.code.reserve(num_words);
  for (uint32_t i = 0; i < num_words; ++i) k.code.push_back(r.U64(where + " code"));
  const uint32_t num_lines = r.Count(kLineEntryBytes, "line-table rows of " + where);
  k.lines.reserve(num_lines);
  for (uint32_t i = 0; i < num_lines; ++i) {
    LineEntry e;
    e.offset = r.U32(where + " line table");
    e.file = r.U32(where + " line table");
    e.line = r.U32(where + " line table");
    k.lines.push_back(e);
  }
  return k;
}

}  // namespace

const Kernel* Binary::Find(const std::string& name) const {
  for (const Kernel& k : kernels) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

std::string WriteBinary(const Binary& b) {
  CheckBinary(b, "cannot write");
  Writer w;
  w.Count(b.files.size(), "files");
  for (const std::string& f : b.files) w.Str(f);
  w.Count(b.constants.size(), "constant bytes");
  w.bytes().append(b.constants.begin(), b.constants.end());
  w.Count(b.kernels.size(), "kernels");
  for (const Kernel& k : b.kernels) {
    w.Str(k.name);
    w.U32(k.launch_block_size);
    w.U32(k.required_simd);
    w.U32(k.private_bytes);
    w.U32(k.scalar_spill_bytes);
    w.U32(k.local_bytes);
    w.U8(k.uses_barrier ? 1 : 0);
    w.Count(k.args.size(), "arguments");
    for (const KernelArg& a : k.args) {
      w.Str(a.name);
      w.Str(a.type_name);
      w.U8(static_cast<uint8_t>(a.kind));
      w.U32(a.size);
      w.U8(a.is_float ? 1 : 0);
      w.U8(a.is_signed ? 1 : 0);
      w.U32(a.offset);
    }
    w.Count(k.code.size(), "code words");
    for (uint64_t word : k.code) w.U64(word);
    w.Count(k.lines.size(), "line-table rows");
    for (const LineEntry& e : k.lines) {
      w.U32(e.offset);
      w.U32(e.file);
      w.U32(e.line);
    }
  }
  const std::string& payload = w.bytes();
  if (payload.size() > std::numeric_limits<uint32_t>::max()) {
    throw BinaryError("cannot write: payload of " + std::to_string(payload.size()) +
                      " bytes exceeds the 4 GiB the format allows");
  }

  Writer h;
  h.bytes().append(kMagic, kMagicBytes);
  h.U16(kVersion);
  h.U32(static_cast<uint32_t>(payload.size()));
  h.U32(Crc32(reinterpret_cast<const uint8_t*>(payload.data()), payload.size()));
  h.bytes() += payload;
  return std::move(h.bytes());
}

bool IsBinary(const std::string& bytes) {
  return bytes.size() >= kMagicBytes && bytes.compare(0, kMagicBytes, kMagic, kMagicBytes) == 0;
}

Binary ReadBinary(const std::string& bytes) {
  if (!IsBinary(bytes)) {
    throw BinaryError("not an SGU binary: it does not start with \"SGUBIN\"");
  }
  if (bytes.size() < kHeaderBytes) {
    throw BinaryError("truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the " +
                      std::to_string(kHeaderBytes) + "-byte header");
  }
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint16_t version = static_cast<uint16_t>(data[6] | (data[7] << 8));
  if (version != kVersion) {
    throw BinaryError("unsupported .sgubin version " + std::to_string(version) +
                      " (this build reads version " + std::to_string(kVersion) +
                      "); recompile the kernel");
  }
  Reader header(data + kMagicBytes + 2, 8);
  const uint32_t payload_bytes = header.U32("header");
  const uint32_t crc = header.U32("header");
  const size_t have = bytes.size() - kHeaderBytes;
  if (have < payload_bytes) {
    throw BinaryError("truncated: the header announces " + std::to_string(payload_bytes) +
                      " payload bytes, the file has " + std::to_string(have));
  }
  if (have > payload_bytes) {
    throw BinaryError("corrupt: " + std::to_string(have - payload_bytes) +
                      " unexpected bytes after the " + std::to_string(payload_bytes) +
                      "-byte payload");
  }
  const uint8_t* payload = data + kHeaderBytes;
  const uint32_t actual_crc = Crc32(payload, payload_bytes);
  if (actual_crc != crc) {
    throw BinaryError("corrupt: payload checksum mismatch (CRC-32 is " +
                      std::to_string(actual_crc) + ", the header says " + std::to_string(crc) +
                      ")");
  }

  Reader r(payload, payload_bytes);
  Binary b;
  const uint32_t num_files = r.Count(kMinStringBytes, "file names");
  b.files.reserve(num_files);
  for (uint32_t i = 0; i < num_files; ++i) b.files.push_back(r.Str("file name"));
  b.constants = r.Bytes("constant bytes");
  const uint32_t num_kernels = r.Count(kMinKernelBytes, "kernels");
  b.kernels.reserve(num_kernels);
  for (uint32_t i = 0; i < num_kernels; ++i) b.kernels.push_back(ReadKernel(r, i));
  if (r.remaining() != 0) {
    throw BinaryError("corrupt: " + std::to_string(r.remaining()) +
                      " bytes left over after the last kernel");
  }
  CheckBinary(b, "corrupt");
  return b;
}

}  // namespace sgu
