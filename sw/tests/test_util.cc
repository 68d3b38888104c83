// SPDX-License-Identifier: Apache-2.0
#include "test_util.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

namespace sgu {
namespace test {

Machine::Machine(unsigned lanes, uint32_t mem_size) : n(lanes), mem(mem_size), model(lanes, &mem) {
  params.pc_start = kCode;
  params.mem_base = 0;
  params.mem_limit = mem_size;
}

void Machine::Load(const std::string& src) { LoadWords(Assemble(src, "test.s").words); }

void Machine::LoadWords(const std::vector<uint64_t>& words, uint32_t at) {
  for (size_t i = 0; i < words.size(); ++i)
    mem.Store(at + 8 * static_cast<uint32_t>(i), 8, words[i]);
}

const Retire& Machine::Run(uint64_t max_steps) {
  trace.clear();
  model.Start(params);
  while (model.running()) {
    if (trace.size() >= max_steps) {
      ADD_FAILURE() << "program did not stop within " << max_steps << " steps";
      break;
    }
    trace.push_back(model.Step());
  }
  return trace.back();
}

const Retire& Machine::At(uint32_t offset) const {
  for (const Retire& r : trace) {
    if (r.pc == kCode + offset) return r;
  }
  ADD_FAILURE() << "no retire record at offset " << offset;
  static const Retire kNone;
  return kNone;
}

Rng::Rng() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  uint64_t s = 0x5347550000000001ull;  // FNV-1a of the test's full name
  if (info != nullptr) {
    s = 0xcbf29ce484222325ull;
    for (const char* p : {info->test_suite_name(), ".", info->name()}) {
      for (; *p; ++p) s = (s ^ static_cast<uint8_t>(*p)) * 0x100000001b3ull;
    }
  }
  if (const char* env = std::getenv("SGU_TEST_SEED")) s = std::strtoull(env, nullptr, 0);
  seed_ = s;
  gen_.seed(s);
}

std::string Rng::Describe() const {
  std::ostringstream ss;
  ss << "seed 0x" << std::hex << seed_ << " (rerun with SGU_TEST_SEED=0x" << seed_ << ")";
  return ss.str();
}

uint32_t Rng::Interesting32() {
  static const uint32_t kEdges[] = {
      0,      1,      2,           0xffffffffu, 0x7fffffffu, 0x80000000u, 0x7f, 0x80, 0xff, 0x7fff,
      0x8000, 0xffff, 0xffffff80u, 0xffff8000u, 31,          32,          63,   64,   7,    8};
  switch (Below(4)) {
    case 0:
      return kEdges[Below(sizeof kEdges / sizeof kEdges[0])];
    case 1:
      return static_cast<uint32_t>(Below(64)) - 32;
    default:
      return Next32();
  }
}

}  // namespace test
}  // namespace sgu
