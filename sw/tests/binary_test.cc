// SPDX-License-Identifier: Apache-2.0
// The .sgubin container: every field round-trips, and every kind of damage (truncation at each
// byte, flipped bits, impossible counts, bad enum and bool values, dangling indices, trailing
// bytes, a newer version) is rejected with a BinaryError that says what is wrong.
#include "sgu/binary.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace sgu {
namespace {

constexpr size_t kHeaderBytes = 16;

Binary Sample() {
  Binary b;
  b.files = {"kernels/transpose.cl", "", "inc/common.h"};
  b.constants = {0, 1, 2, 3, 0xFF, 0x80, 7};
  Kernel k;
  k.name = "transpose";
  k.required_simd = 16;
  k.private_bytes = 128;
  k.scalar_spill_bytes = 24;
  k.local_bytes = 4096;
  k.uses_barrier = true;
  k.args = {
      {"in", "const float*", ArgKind::kGlobalBuffer, 4, false, false, 64},
      {"n", "int", ArgKind::kScalar, 4, false, true, 68},
      {"scale", "float", ArgKind::kScalar, 4, true, false, 72},
      {"v", "ulong2", ArgKind::kScalar, 16, false, false, 80},
      {"lut", "uint*", ArgKind::kConstantBuffer, 4, false, false, 96},
      {"tmp", "float*", ArgKind::kLocalBuffer, 4, false, false, 100},
      {"img", "image2d_t", ArgKind::kImage, 4, false, false, 104},
  };
  k.launch_block_size = 108;
  k.code = {0x0123456789ABCDEFull, 0, ~0ull, 0x8000000000000001ull};
  k.lines = {{0, 0, 0}, {8, 0, 12}, {16, 2, 7}, {16, 0, 13}, {32, 0, 0}};
  b.kernels.push_back(k);

  Kernel empty;  // every field at its default
  empty.name = "e";
  b.kernels.push_back(empty);
  return b;
}

void ExpectEqual(const Binary& a, const Binary& b) {
  EXPECT_EQ(a.files, b.files);
  EXPECT_EQ(a.constants, b.constants);
  ASSERT_EQ(a.kernels.size(), b.kernels.size());
  for (size_t i = 0; i < a.kernels.size(); ++i) {
    const Kernel& x = a.kernels[i];
    const Kernel& y = b.kernels[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.launch_block_size, y.launch_block_size);
    EXPECT_EQ(x.required_simd, y.required_simd);
    EXPECT_EQ(x.private_bytes, y.private_bytes);
    EXPECT_EQ(x.scalar_spill_bytes, y.scalar_spill_bytes);
    EXPECT_EQ(x.local_bytes, y.local_bytes);
    EXPECT_EQ(x.uses_barrier, y.uses_barrier);
    EXPECT_EQ(x.code, y.code);
    ASSERT_EQ(x.args.size(), y.args.size());
    for (size_t a2 = 0; a2 < x.args.size(); ++a2) {
      EXPECT_EQ(x.args[a2].name, y.args[a2].name);
      EXPECT_EQ(x.args[a2].type_name, y.args[a2].type_name);
      EXPECT_EQ(x.args[a2].kind, y.args[a2].kind);
      EXPECT_EQ(x.args[a2].size, y.args[a2].size);
      EXPECT_EQ(x.args[a2].is_float, y.args[a2].is_float);
      EXPECT_EQ(x.args[a2].is_signed, y.args[a2].is_signed);
      EXPECT_EQ(x.args[a2].offset, y.args[a2].offset);
    }
    ASSERT_EQ(x.lines.size(), y.lines.size());
    for (size_t l = 0; l < x.lines.size(); ++l) {
      EXPECT_EQ(x.lines[l].offset, y.lines[l].offset);
      EXPECT_EQ(x.lines[l].file, y.lines[l].file);
      EXPECT_EQ(x.lines[l].line, y.lines[l].line);
    }
  }
}

// ---- helpers that damage a serialised binary -----------------------------------------------

uint32_t Crc32(const std::string& s, size_t from) {
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = from; i < s.size(); ++i) {
    crc ^= static_cast<uint8_t>(s[i]);
    for (int k = 0; k < 8; ++k) crc = (crc & 1) ? 0xEDB88320u ^ (crc >> 1) : crc >> 1;
  }
  return crc ^ 0xFFFFFFFFu;
}

void PutU32(std::string& s, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) s[at + i] = static_cast<char>(v >> (8 * i));
}

uint32_t GetU32(const std::string& s, size_t at) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t{static_cast<uint8_t>(s[at + i])} << (8 * i);
  return v;
}

// Makes size and checksum match the (damaged) payload again, so the parser itself is tested.
std::string Reseal(std::string s) {
  PutU32(s, 8, static_cast<uint32_t>(s.size() - kHeaderBytes));
  PutU32(s, 12, Crc32(s, kHeaderBytes));
  return s;
}

std::string ErrorOf(const std::string& bytes) {
  try {
    ReadBinary(bytes);
  } catch (const BinaryError& e) {
    return e.what();
  }
  return "(accepted)";
}

// Offset of the first occurrence of `needle` in the payload.
size_t Find(const std::string& s, const std::string& needle) {
  const size_t at = s.find(needle, kHeaderBytes);
  EXPECT_NE(at, std::string::npos) << needle;
  return at;
}

// ---- tests ----------------------------------------------------------------------------------

TEST(Binary, RoundTripsEveryField) {
  const Binary b = Sample();
  const std::string bytes = WriteBinary(b);
  EXPECT_TRUE(IsBinary(bytes));
  const Binary back = ReadBinary(bytes);
  ExpectEqual(b, back);
  EXPECT_EQ(WriteBinary(back), bytes);  // deterministic
}

TEST(Binary, RoundTripsEmptyBinary) {
  const Binary b;
  const std::string bytes = WriteBinary(b);
  EXPECT_EQ(bytes.size(), kHeaderBytes + 12);
  ExpectEqual(b, ReadBinary(bytes));
}

TEST(Binary, HeaderIsMagicVersionSizeChecksum) {
  const std::string bytes = WriteBinary(Sample());
  EXPECT_EQ(bytes.substr(0, 6), "SGUBIN");
  EXPECT_EQ(static_cast<uint8_t>(bytes[6]), 1);  // version 1, little-endian
  EXPECT_EQ(static_cast<uint8_t>(bytes[7]), 0);
  EXPECT_EQ(GetU32(bytes, 8), bytes.size() - kHeaderBytes);
  EXPECT_EQ(GetU32(bytes, 12), Crc32(bytes, kHeaderBytes));
}

TEST(Binary, FindsKernelsByName) {
  const Binary b = Sample();
  ASSERT_NE(b.Find("transpose"), nullptr);
  EXPECT_EQ(b.Find("transpose")->required_simd, 16u);
  EXPECT_EQ(b.Find("e"), &b.kernels[1]);
  EXPECT_EQ(b.Find("nope"), nullptr);
  EXPECT_EQ(b.Find(""), nullptr);
}

TEST(Binary, IsBinaryLooksAtTheMagicOnly) {
  EXPECT_FALSE(IsBinary(""));
  EXPECT_FALSE(IsBinary("SGUBI"));
  EXPECT_TRUE(IsBinary("SGUBIN"));
  EXPECT_FALSE(IsBinary("\x03\x02\x23\x07 spir-v"));
  EXPECT_FALSE(IsBinary("sgubin"));
}

TEST(Binary, RejectsWrongMagic) {
  EXPECT_NE(ErrorOf("").find("not an SGU binary"), std::string::npos);
  EXPECT_NE(ErrorOf("hello world, not a binary").find("not an SGU binary"), std::string::npos);
  std::string bytes = WriteBinary(Sample());
  bytes[0] = 'X';
  EXPECT_NE(ErrorOf(bytes).find("not an SGU binary"), std::string::npos);
}

TEST(Binary, RejectsOtherVersions) {
  std::string bytes = WriteBinary(Sample());
  bytes[6] = 2;
  const std::string err = ErrorOf(bytes);
  EXPECT_NE(err.find("version 2"), std::string::npos) << err;
  bytes[6] = 0;
  EXPECT_NE(ErrorOf(bytes).find("version 0"), std::string::npos);
}

TEST(Binary, RejectsTruncationAtEveryLength) {
  const std::string bytes = WriteBinary(Sample());
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::string err = ErrorOf(bytes.substr(0, n));
    EXPECT_NE(err, "(accepted)") << "length " << n;
    if (n >= kHeaderBytes) {
      EXPECT_NE(err.find("truncated"), std::string::npos) << err;
    }
  }
}

TEST(Binary, RejectsTruncationInsideThePayloadEvenWhenResealed) {
  // Cut the payload and fix the header, so that only the parser can notice.
  const std::string bytes = WriteBinary(Sample());
  for (size_t n = kHeaderBytes; n < bytes.size(); ++n) {
    const std::string err = ErrorOf(Reseal(bytes.substr(0, n)));
    EXPECT_NE(err, "(accepted)") << "length " << n;
  }
}

TEST(Binary, RejectsTrailingBytes) {
  const std::string bytes = WriteBinary(Sample());
  EXPECT_NE(ErrorOf(bytes + "x").find("unexpected bytes"), std::string::npos);
  const std::string err = ErrorOf(Reseal(bytes + std::string(8, '\0')));
  EXPECT_NE(err.find("left over"), std::string::npos) << err;
}

TEST(Binary, ChecksumCatchesEveryFlippedBit) {
  const std::string bytes = WriteBinary(Sample());
  for (size_t i = kHeaderBytes; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = bytes;
      bad[i] = static_cast<char>(bad[i] ^ (1 << bit));
      const std::string err = ErrorOf(bad);
      ASSERT_NE(err.find("checksum"), std::string::npos) << "byte " << i << " bit " << bit;
    }
  }
}

TEST(Binary, ResealedRandomDamageNeverCrashes) {
  // Random bytes written over a valid binary, checksum fixed: the parser must either reject
  // the result with a BinaryError or return a binary that satisfies the invariants.
  const std::string bytes = WriteBinary(Sample());
  const uint64_t seed = 0x5eed5eed12345678ull;
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 20000; ++trial) {
    std::string bad = bytes;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) {
      const size_t at = kHeaderBytes + rng() % (bad.size() - kHeaderBytes);
      bad[at] = static_cast<char>(rng());
    }
    try {
      const Binary b = ReadBinary(Reseal(bad));
      for (const Kernel& k : b.kernels) {
        for (const LineEntry& e : k.lines) {
          if (e.line != 0) {
            ASSERT_LT(e.file, b.files.size()) << "seed " << seed;
          }
        }
        for (const KernelArg& a : k.args) {
          ASSERT_LE(uint64_t{a.offset} + a.size, k.launch_block_size) << "seed " << seed;
        }
      }
    } catch (const BinaryError&) {
    }
  }
}

TEST(Binary, RejectsCountsLargerThanTheRemainingBytes) {
  Binary b;
  b.files = {"abc"};
  const std::string bytes = WriteBinary(b);
  std::string bad = bytes;
  PutU32(bad, kHeaderBytes, 0xFFFFFFFFu);  // number of files
  std::string err = ErrorOf(Reseal(bad));
  EXPECT_NE(err.find("4294967295 file names"), std::string::npos) << err;
  bad = bytes;
  PutU32(bad, kHeaderBytes + 4, 1000);  // length of the first file name
  err = ErrorOf(Reseal(bad));
  EXPECT_NE(err.find("1000 bytes of file name"), std::string::npos) << err;

  std::string code = WriteBinary(Sample());
  // The code word count of the first kernel sits just before its first code word.
  const size_t words_at = Find(code, std::string("\xEF\xCD\xAB\x89\x67\x45\x23\x01", 8)) - 4;
  ASSERT_EQ(GetU32(code, words_at), 4u);
  PutU32(code, words_at, 0x20000000u);
  err = ErrorOf(Reseal(code));
  EXPECT_NE(err.find("code words of kernel 0 'transpose'"), std::string::npos) << err;
}

TEST(Binary, RejectsBadEnumAndBoolValues) {
  const std::string bytes = WriteBinary(Sample());
  // Argument "n": name, type name "int", then the kind byte.
  const size_t kind_at = Find(bytes, "int") + 3;
  ASSERT_EQ(bytes[kind_at], static_cast<char>(ArgKind::kScalar));
  std::string bad = bytes;
  bad[kind_at] = 9;
  std::string err = ErrorOf(Reseal(bad));
  EXPECT_NE(err.find("unknown kind 9"), std::string::npos) << err;
  EXPECT_NE(err.find("'n'"), std::string::npos) << err;

  bad = bytes;
  bad[kind_at + 5] = 2;  // is_float
  err = ErrorOf(Reseal(bad));
  EXPECT_NE(err.find("is_float flag is 2"), std::string::npos) << err;
}

TEST(Binary, RejectsDanglingFileIndexAndUnorderedLines) {
  Binary b = Sample();
  b.kernels[0].lines[1].file = 3;  // three files: 0..2
  EXPECT_THROW(WriteBinary(b), BinaryError);
  // The same damage in a written file.
  const std::string bytes = WriteBinary(Sample());
  const size_t code_end = Find(bytes, std::string("\x01\x00\x00\x00\x00\x00\x00\x80", 8)) + 8;
  // Lines follow: u32 count, then (offset, file, line) rows; row 1's file is at +4+12+4.
  std::string bad = bytes;
  PutU32(bad, code_end + 4 + 12 + 4, 3);
  std::string err = ErrorOf(Reseal(bad));
  EXPECT_NE(err.find("names file 3 but the binary has 3 file(s)"), std::string::npos) << err;

  bad = bytes;
  PutU32(bad, code_end + 4 + 24, 4);  // row 2 offset 4 after row 1 offset 8
  err = ErrorOf(Reseal(bad));
  EXPECT_NE(err.find("out of order"), std::string::npos) << err;

  bad = bytes;
  PutU32(bad, code_end + 4 + 48, 40);  // row 4 past the 32 bytes of code
  err = ErrorOf(Reseal(bad));
  EXPECT_NE(err.find("past the end of the code"), std::string::npos) << err;
}

TEST(Binary, LineZeroMayNameNoFile) {
  Binary b;
  Kernel k;
  k.name = "k";
  k.code = {1};
  k.lines = {{0, 7, 0}};  // no source line: the file index is not used
  b.kernels.push_back(k);
  EXPECT_NO_THROW(ReadBinary(WriteBinary(b)));
}

TEST(Binary, WriterRejectsWhatTheReaderWould) {
  Binary b = Sample();
  b.kernels[0].args[1].offset = 200;  // past the launch block
  EXPECT_THROW(WriteBinary(b), BinaryError);
  b = Sample();
  b.kernels[0].args[0].offset = 8;  // inside the fixed part
  EXPECT_THROW(WriteBinary(b), BinaryError);
  b = Sample();
  b.kernels[0].launch_block_size = 16;
  EXPECT_THROW(WriteBinary(b), BinaryError);
  b = Sample();
  b.kernels[1].name = "transpose";
  try {
    WriteBinary(b);
    FAIL() << "duplicate kernel names accepted";
  } catch (const BinaryError& e) {
    EXPECT_NE(std::string(e.what()).find("two kernels are named 'transpose'"), std::string::npos);
  }
  b = Sample();
  b.kernels[1].name.clear();
  EXPECT_THROW(WriteBinary(b), BinaryError);
  b = Sample();
  b.kernels[0].args[0].kind = static_cast<ArgKind>(17);
  EXPECT_THROW(WriteBinary(b), BinaryError);
  b = Sample();
  std::swap(b.kernels[0].lines[1], b.kernels[0].lines[2]);
  EXPECT_THROW(WriteBinary(b), BinaryError);
}

TEST(Binary, RejectsEmptyAndDuplicateKernelNames) {
  Binary b;
  for (const char* name : {"ab", "cd"}) {
    Kernel k;
    k.name = name;
    b.kernels.push_back(k);
  }
  const std::string bytes = WriteBinary(b);
  std::string bad = bytes;
  bad.replace(Find(bad, "cd"), 2, "ab");
  std::string err = ErrorOf(Reseal(bad));
  EXPECT_NE(err.find("two kernels are named 'ab'"), std::string::npos) << err;

  bad = bytes;  // name length 0, name bytes gone
  const size_t at = Find(bad, "cd") - 4;
  PutU32(bad, at, 0);
  bad.erase(at + 4, 2);
  err = ErrorOf(Reseal(bad));
  EXPECT_NE(err.find("kernel 1 has no name"), std::string::npos) << err;
}

}  // namespace
}  // namespace sgu
