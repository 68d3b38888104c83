// SPDX-License-Identifier: Apache-2.0
// The compiled-kernel container (.sgubin) and the launch ABI between compiled code and driver.
//
// A .sgubin holds one or more kernels compiled from one OpenCL C file or SPIR-V module. Each
// kernel is position-independent SGU machine code plus the metadata the driver needs to launch
// it: its parameters (names, kinds, sizes, offsets in the launch block), its required sub-group
// size, its per-lane private/spill memory, its static __local memory, whether it needs a
// work-group barrier, and a pc -> source-line table. The code does not depend on the SIMD
// width: the same binary runs at 8, 16 and 32 lanes (a kernel's required size excepted).
#ifndef SGU_BINARY_H_
#define SGU_BINARY_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace sgu {

// ---- launch ABI -----------------------------------------------------------------------------
// At kernel start s1 (ARG0) holds the address of the launch block (one per NDRange launch) and
// s2 (ARG1) the address of the sub-group descriptor (rewritten before each sub-group runs).
// The driver writes both; compiled code only reads them. All fields are 32-bit little-endian.
namespace abi {
// Launch block.
inline constexpr uint32_t kLbWorkDim = 0;         // get_work_dim()
inline constexpr uint32_t kLbGlobalSize = 4;      // [3] get_global_size(d)
inline constexpr uint32_t kLbLocalSize = 16;      // [3] get_local_size(d) == enqueued size
inline constexpr uint32_t kLbNumGroups = 28;      // [3] get_num_groups(d)
inline constexpr uint32_t kLbGlobalOffset = 40;   // [3] get_global_offset(d)
inline constexpr uint32_t kLbNumSubGroups = 52;   // get_num_sub_groups() (of a full work-group)
inline constexpr uint32_t kLbConstBase = 56;      // address of the program's constant data
inline constexpr uint32_t kLbLocalBase = 60;      // address of the kernel's static __local data
inline constexpr uint32_t kLbArgs = 64;           // first kernel argument (KernelArg::offset)
// Sub-group descriptor.
inline constexpr uint32_t kSgGroupId = 0;         // [3] get_group_id(d)
inline constexpr uint32_t kSgSubGroupId = 12;     // get_sub_group_id()
inline constexpr uint32_t kSgPrivateBase = 16;    // lane l's private area: base + l * private_bytes
inline constexpr uint32_t kSgLocalLinearBase = 20;  // local linear id of lane 0
inline constexpr uint32_t kSgLocalId = 32;        // [3][32] get_local_id(d) of lane l: +128*d+4*l
inline constexpr uint32_t kSgScalarSpill = 416;   // scalar spill slots (Kernel::scalar_spill_bytes)
inline constexpr uint32_t kSgSize = 416;          // descriptor size without the spill slots
// Image descriptor (an image argument's slot in the launch block points to one of these).
inline constexpr uint32_t kImgAddr = 0;       // address of texel (0, 0)
inline constexpr uint32_t kImgWidth = 4;      // texels
inline constexpr uint32_t kImgHeight = 8;     // rows
inline constexpr uint32_t kImgRowPitch = 12;  // bytes between rows
inline constexpr uint32_t kImgFormat = 16;    // ImageFormat code
inline constexpr uint32_t kImgTexelBytes = 20;
inline constexpr uint32_t kImgDescSize = 32;
}  // namespace abi

// Image formats of the brief; the code is what the image descriptor holds.
enum class ImageFormat : uint32_t { kR8 = 1, kR16, kR32, kRgba8, kR32f, kRgba16, kYuyv };

// How a kernel parameter is passed.
enum class ArgKind : uint8_t {
  kScalar,          // value in the launch block (size 1..8 bytes; vectors: size up to 64)
  kGlobalBuffer,    // __global pointer: 32-bit address in the launch block
  kConstantBuffer,  // __constant pointer: 32-bit address in the launch block
  kLocalBuffer,     // __local pointer: the driver allocates the size the user gives
  kImage,           // image2d_t (read_only / write_only / read_write): address of a descriptor
};

struct KernelArg {
  std::string name;       // OpName of the parameter, or "argN" when the module has none
  std::string type_name;  // OpenCL-style spelling for messages ("float", "uint*", "image2d_t")
  ArgKind kind = ArgKind::kScalar;
  uint32_t size = 4;      // bytes in the launch block (scalars) or 4 (pointers, images)
  bool is_float = false;  // scalar: float element type
  bool is_signed = false;  // scalar: signed integer element type (as declared, if known)
  uint32_t offset = 0;    // byte offset of the slot from the start of the launch block
};

// One row of the pc -> source line table: code from `offset` (bytes from the kernel start) up
// to the next row comes from files[file]:line (line 0: no source line).
struct LineEntry {
  uint32_t offset = 0;
  uint32_t file = 0;
  uint32_t line = 0;
};

struct Kernel {
  std::string name;
  std::vector<KernelArg> args;
  uint32_t launch_block_size = abi::kLbArgs;  // bytes, args included
  uint32_t required_simd = 0;    // SubgroupSize execution mode, 0 if none
  uint32_t private_bytes = 0;    // per-lane private memory (dynamic private arrays, spills)
  uint32_t scalar_spill_bytes = 0;  // bytes after abi::kSgScalarSpill in the descriptor
  uint32_t local_bytes = 0;      // static __local variables, at launch block kLbLocalBase
  bool uses_barrier = false;     // work-group barrier(): one sub-group per work-group only
  std::vector<uint64_t> code;    // position-independent; the driver loads it anywhere
  std::vector<LineEntry> lines;  // sorted by offset
};

struct Binary {
  std::vector<std::string> files;  // source files named by LineEntry::file
  std::vector<Kernel> kernels;
  std::vector<uint8_t> constants;  // module-scope data (abi::kLbConstBase), 64-byte aligned base

  const Kernel* Find(const std::string& name) const;
};

class BinaryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Serialised form (little-endian, versioned). Read throws BinaryError on any malformed input.
std::string WriteBinary(const Binary& b);
Binary ReadBinary(const std::string& bytes);
// True if `bytes` starts with the .sgubin magic.
bool IsBinary(const std::string& bytes);

}  // namespace sgu

#endif  // SGU_BINARY_H_
