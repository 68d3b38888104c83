// SPDX-License-Identifier: Apache-2.0
// The SGU kernel header: the OpenCL C built-ins clang-15's opencl-c.h lacks or gets wrong, so
// that kernels written for Intel and Qualcomm GPUs compile unchanged.
//
// `sgu compile` force-includes this file after the full opencl-c.h
// (`-include <clang resource dir>/include/opencl-c.h -include sgu_kernel.h`, see
// sw/compiler/frontend.cc); the compiler carries a copy of the text (sgu_kernel_header.cc,
// generated at build time), so an installed `sgu` does not need the source tree. Mostly
// prototypes of built-ins that llvm-spirv-15 recognises by name; a few built-ins it cannot
// translate are defined here (always inlined, without debug information, so their
// instructions carry the line of the call) on ones it can.
//
// What it adds, and what each becomes in the SPIR-V that llvm-spirv-15 emits (checked with
// clang 15.0.6 and llvm-spirv 15.0.0 on Debian 12; sw/tests/frontend_test.cc checks it):
//
//   cl_intel_subgroups_char  intel_sub_group_shuffle{,_down,_up,_xor} for char/uchar scalars
//                            and 2/3/4/8/16 vectors  -> OpSubgroupShuffle{,Down,Up,Xor}INTEL
//   _char and _short         intel_sub_group_broadcast, intel_sub_group_reduce_{add,min,max},
//                            intel_sub_group_scan_{exclusive,inclusive}_{add,min,max} of
//                            8/16-bit types, defined on the Khronos functions (llvm-spirv-15
//                            translates no intel_sub_group_broadcast/reduce/scan)
//                                  -> OpGroupBroadcast, OpGroupIAdd / SMin / UMax ...
//                                     (Subgroup scope; Reduce / InclusiveScan / ExclusiveScan)
//                            (OpenCL C 1.2: only declared; they stay imports such as
//                            _Z25intel_sub_group_broadcasthj)
//   block I/O, buffers       intel_sub_group_block_read/write_uc{,2,4,8,16} (__global uchar*),
//                            _ul{,2,4,8} (__global ulong*)
//                                  -> OpSubgroupBlockReadINTEL / OpSubgroupBlockWriteINTEL
//                            _us16 (__global ushort*): llvm-spirv-15 aborts on it, so it is
//                            defined as two us8 operations -> two OpSubgroupBlock*INTEL
//                            %v8ushort, the second at p + 8 * get_max_sub_group_size()
//   block I/O, images        the same suffixes on image2d_t (read_only / read_write for
//                            reads, write_only / read_write for writes; us16 again as two
//                            us8, rows y and y + 8); the write_only
//                            intel_sub_group_block_write_ui{,2,4,8} (opencl-c.h declares
//                            them on read_only images, a header bug); under OpenCL C 1.x
//                            every image block read/write, which opencl-c.h hides behind
//                            __opencl_c_images (a 2.0 feature macro)
//                                  -> OpSubgroupImageBlockReadINTEL %T %image %coord
//                                     OpSubgroupImageBlockWriteINTEL %image %coord %data
//   cl_intel_media_block_io  intel_sub_group_media_block_read/write_uc{,2,4,8,16},
//                            _us{,2,4,8,16}, _ui{,2,4,8}
//                                  -> OpSubgroupImageMediaBlockReadINTEL
//                                     %T %image %coord %width %height
//                                     OpSubgroupImageMediaBlockWriteINTEL
//                                     %image %coord %width %height %data
//                                     (the image moves from last to first operand; width
//                                     and height are OpConstants)
//   cl_qcom_subgroup_shuffle the width enum and qcom_sub_group_shuffle_{up,down,rotate_up,
//                            rotate_down,xor}: there is no SPIR-V form, so each call stays
//                            an OpFunctionCall to an imported function (an OpFunction with
//                            parameters and no body, decorated LinkageAttributes
//                            "<mangled name>" Import).
//
// qcom imports, for the code generator. The mangled name is
//   _Z<len><name><T>jj<T>
// with <len><name> one of
//   25qcom_sub_group_shuffle_up          27qcom_sub_group_shuffle_down
//   32qcom_sub_group_shuffle_rotate_up   34qcom_sub_group_shuffle_rotate_down
//   26qcom_sub_group_shuffle_xor
// and <T> the Itanium code of the data type:
//   h uchar, c char, t ushort, s short, j uint, i int, m ulong, l long, f float, Dh half.
// Examples: qcom_sub_group_shuffle_xor(float, ...) is `_Z26qcom_sub_group_shuffle_xorfjjf`,
// qcom_sub_group_shuffle_up(half, ...) is `_Z25qcom_sub_group_shuffle_upDhjjDh`.
// The call is `OpFunctionCall %T %import %value %offset %width %default`:
//   %value    T     this work-item's source value
//   %offset   uint  lane distance (up/down/rotate_up/rotate_down) or xor mask (xor);
//                   uniform across the sub-group
//   %width    uint  the group width, a qcom_sub_group_shuffle_width_modes_t value below:
//                   0 = CLK_SUB_GROUP_SHUFFLE_WIDTH_WAVE_SIZE_QCOM (the whole sub-group),
//                   4 = CLK_SUB_GROUP_SHUFFLE_WIDTH_W4_QCOM, 8 = ..._W8_QCOM. The values are
//                   the SGU's choice (the extension does not fix them): 0, or the width.
//                   Usually an OpConstant (%uint_0, %uint_4, %uint_8); a variable width is
//                   legal OpenCL C.
//   %default  T     the result where the source work-item is outside the group (up, down)
//                   or inactive (all five)
// The width parameter is declared `uint`, not the enum type, so that the mangled name does
// not depend on the enum's spelling; an enumerator converts to it implicitly. SPIR-V integer
// types have no sign: char and uchar are both OpTypeInt 8 0, long is OpTypeInt 64 0 (%ulong);
// the mangled name tells the signedness.
//
// Also defined: the extension macros of what this header provides (cl_intel_subgroups_char,
// cl_intel_subgroups_long, cl_intel_media_block_io, cl_intel_required_subgroup_size,
// cl_qcom_subgroup_shuffle) and __SGU__. clang-15 does not know these extensions, so
// `#pragma OPENCL EXTENSION <one of them> : enable` would warn (-Wignored-pragmas) and fail a
// -Werror build although the kernel is fine; that warning is switched off below.
#ifndef SGU_OPENCL_SGU_KERNEL_H_
#define SGU_OPENCL_SGU_KERNEL_H_

#define __SGU__ 1

#pragma clang diagnostic ignored "-Wignored-pragmas"

// Prototypes: overloadable (name mangling, several types per name) and convergent (the
// optimiser must not make a call depend on more control flow than it had), as opencl-c.h
// declares its own sub-group built-ins.
#define SGU_FN __attribute__((overloadable, convergent))
// Definitions: built-ins that llvm-spirv-15 cannot translate, written on ones it can. They are
// always inlined and never emitted on their own (gnu_inline extern inline), and carry no debug
// information, so that their instructions take the line of the call in the kernel.
#define SGU_INLINE \
  extern inline __attribute__((overloadable, convergent, always_inline, gnu_inline, nodebug))

// Images: read_write overloads exist from OpenCL C 2.0 on. opencl-c.h's __opencl_c_images is
// only defined for 2.0 and 3.0; OpenCL C 1.x has images whenever __IMAGE_SUPPORT__ is set.
#if defined(__opencl_c_images) || defined(__IMAGE_SUPPORT__)
#define SGU_IMAGES 1
#endif

// clang-15 offers the Intel sub-group built-ins (and sub-groups at all) from OpenCL C 1.2 on.
#if defined(cl_intel_subgroups)

#ifndef cl_intel_subgroups_char
#define cl_intel_subgroups_char 1
#endif
#ifndef cl_intel_subgroups_long
#define cl_intel_subgroups_long 1
#endif
#ifndef cl_intel_media_block_io
#define cl_intel_media_block_io 1
#endif
#ifndef cl_intel_required_subgroup_size
#define cl_intel_required_subgroup_size 1
#endif

// ---- cl_intel_subgroups_char: shuffles of 8-bit types ---------------------------------------

#define SGU_SHUFFLES(T)                                          \
  T SGU_FN intel_sub_group_shuffle(T data, uint c);             \
  T SGU_FN intel_sub_group_shuffle_down(T cur, T next, uint c); \
  T SGU_FN intel_sub_group_shuffle_up(T prev, T cur, uint c);   \
  T SGU_FN intel_sub_group_shuffle_xor(T data, uint value);
#define SGU_SHUFFLES_ALL(T) \
  SGU_SHUFFLES(T)           \
  SGU_SHUFFLES(T##2)        \
  SGU_SHUFFLES(T##3)        \
  SGU_SHUFFLES(T##4)        \
  SGU_SHUFFLES(T##8)        \
  SGU_SHUFFLES(T##16)
SGU_SHUFFLES_ALL(char)
SGU_SHUFFLES_ALL(uchar)
#undef SGU_SHUFFLES_ALL
#undef SGU_SHUFFLES

// ---- cl_intel_subgroups_char / _short: broadcast, reductions, scans of 8/16-bit types -------
// llvm-spirv-15 translates none of intel_sub_group_broadcast/reduce_*/scan_* (not even the
// 16-bit ones opencl-c.h declares): they would stay imported functions. From OpenCL C 2.0 on
// they are defined here on the Khronos functions, which take 8/16-bit types
// (cl_khr_subgroup_extended_types) and become OpGroupBroadcast / OpGroupIAdd / OpGroupSMin /
// OpGroupUMax ... with Subgroup scope; the semantics are the same. Under OpenCL C 1.2 they are
// only declared (imports named e.g. _Z26intel_sub_group_reduce_addh).
#if defined(cl_khr_subgroup_extended_types)
#define SGU_BROADCAST(T) \
  SGU_INLINE T intel_sub_group_broadcast(T x, uint id) { return sub_group_broadcast(x, id); }
#define SGU_REDUCE_SCAN_OP(T, OP) \
  SGU_INLINE T intel_sub_group_##OP(T x) { return sub_group_##OP(x); }
#else
#define SGU_BROADCAST(T) T SGU_FN intel_sub_group_broadcast(T x, uint sub_group_local_id);
#define SGU_REDUCE_SCAN_OP(T, OP) T SGU_FN intel_sub_group_##OP(T x);
#endif
#define SGU_BROADCAST_ALL(T) \
  SGU_BROADCAST(T)           \
  SGU_BROADCAST(T##2)        \
  SGU_BROADCAST(T##3)        \
  SGU_BROADCAST(T##4)        \
  SGU_BROADCAST(T##8)        \
  SGU_BROADCAST(T##16)
#define SGU_REDUCE_SCAN(T)                    \
  SGU_REDUCE_SCAN_OP(T, reduce_add)           \
  SGU_REDUCE_SCAN_OP(T, reduce_min)           \
  SGU_REDUCE_SCAN_OP(T, reduce_max)           \
  SGU_REDUCE_SCAN_OP(T, scan_exclusive_add)   \
  SGU_REDUCE_SCAN_OP(T, scan_exclusive_min)   \
  SGU_REDUCE_SCAN_OP(T, scan_exclusive_max)   \
  SGU_REDUCE_SCAN_OP(T, scan_inclusive_add)   \
  SGU_REDUCE_SCAN_OP(T, scan_inclusive_min)   \
  SGU_REDUCE_SCAN_OP(T, scan_inclusive_max)
SGU_BROADCAST_ALL(char)
SGU_BROADCAST_ALL(uchar)
SGU_REDUCE_SCAN(char)
SGU_REDUCE_SCAN(uchar)
#if defined(cl_khr_subgroup_extended_types)
SGU_BROADCAST_ALL(short)
SGU_BROADCAST_ALL(ushort)
SGU_REDUCE_SCAN(short)
SGU_REDUCE_SCAN(ushort)
#endif
#undef SGU_REDUCE_SCAN
#undef SGU_BROADCAST_ALL
#undef SGU_REDUCE_SCAN_OP
#undef SGU_BROADCAST

// ---- block read/write on __global buffers: _uc (char), _ul (long) ---------------------------

#define SGU_BLOCK_BUFFER(SFX, T, E)                               \
  T SGU_FN intel_sub_group_block_read_##SFX(const __global E* p); \
  void SGU_FN intel_sub_group_block_write_##SFX(__global E* p, T data);
SGU_BLOCK_BUFFER(uc, uchar, uchar)
SGU_BLOCK_BUFFER(uc2, uchar2, uchar)
SGU_BLOCK_BUFFER(uc4, uchar4, uchar)
SGU_BLOCK_BUFFER(uc8, uchar8, uchar)
SGU_BLOCK_BUFFER(uc16, uchar16, uchar)
SGU_BLOCK_BUFFER(ul, ulong, ulong)
SGU_BLOCK_BUFFER(ul2, ulong2, ulong)
SGU_BLOCK_BUFFER(ul4, ulong4, ulong)
SGU_BLOCK_BUFFER(ul8, ulong8, ulong)
#undef SGU_BLOCK_BUFFER

// ---- block read/write and media block read/write on images -------------------------------

#if defined(SGU_IMAGES)

// Image block read/write (image first): reads on read_only (and read_write) images, writes on
// write_only (and read_write) images.
#define SGU_BLOCK_IMAGE_READ(NAME, T) T SGU_FN NAME(read_only image2d_t image, int2 byte_coord);
#define SGU_BLOCK_IMAGE_WRITE(NAME, T) \
  void SGU_FN NAME(write_only image2d_t image, int2 byte_coord, T data);
#if defined(__opencl_c_read_write_images)
#define SGU_BLOCK_IMAGE_RW(NAME_READ, NAME_WRITE, T)               \
  T SGU_FN NAME_READ(read_write image2d_t image, int2 byte_coord); \
  void SGU_FN NAME_WRITE(read_write image2d_t image, int2 byte_coord, T data);
#else
#define SGU_BLOCK_IMAGE_RW(NAME_READ, NAME_WRITE, T)
#endif
#define SGU_BLOCK_IMAGE(SFX, T)                                \
  SGU_BLOCK_IMAGE_READ(intel_sub_group_block_read_##SFX, T)   \
  SGU_BLOCK_IMAGE_WRITE(intel_sub_group_block_write_##SFX, T) \
  SGU_BLOCK_IMAGE_RW(intel_sub_group_block_read_##SFX, intel_sub_group_block_write_##SFX, T)

SGU_BLOCK_IMAGE(uc, uchar)
SGU_BLOCK_IMAGE(uc2, uchar2)
SGU_BLOCK_IMAGE(uc4, uchar4)
SGU_BLOCK_IMAGE(uc8, uchar8)
SGU_BLOCK_IMAGE(uc16, uchar16)
SGU_BLOCK_IMAGE(ul, ulong)
SGU_BLOCK_IMAGE(ul2, ulong2)
SGU_BLOCK_IMAGE(ul4, ulong4)
SGU_BLOCK_IMAGE(ul8, ulong8)

// opencl-c.h (clang 15) declares intel_sub_group_block_write_ui* on read_only images; the
// extension (and every Intel kernel) writes write_only images.
SGU_BLOCK_IMAGE_WRITE(intel_sub_group_block_write_ui, uint)
SGU_BLOCK_IMAGE_WRITE(intel_sub_group_block_write_ui2, uint2)
SGU_BLOCK_IMAGE_WRITE(intel_sub_group_block_write_ui4, uint4)
SGU_BLOCK_IMAGE_WRITE(intel_sub_group_block_write_ui8, uint8)

// OpenCL C 1.x: opencl-c.h hides every image block read/write behind __opencl_c_images.
#if !defined(__opencl_c_images)
#define SGU_BLOCK_IMAGE_RO_WO(NAME_READ, NAME_WRITE, T) \
  SGU_BLOCK_IMAGE_READ(NAME_READ, T)                    \
  SGU_BLOCK_IMAGE_WRITE(NAME_WRITE, T)
SGU_BLOCK_IMAGE_RO_WO(intel_sub_group_block_read, intel_sub_group_block_write, uint)
SGU_BLOCK_IMAGE_RO_WO(intel_sub_group_block_read2, intel_sub_group_block_write2, uint2)
SGU_BLOCK_IMAGE_RO_WO(intel_sub_group_block_read4, intel_sub_group_block_write4, uint4)
SGU_BLOCK_IMAGE_RO_WO(intel_sub_group_block_read8, intel_sub_group_block_write8, uint8)
SGU_BLOCK_IMAGE_READ(intel_sub_group_block_read_ui, uint)
SGU_BLOCK_IMAGE_READ(intel_sub_group_block_read_ui2, uint2)
SGU_BLOCK_IMAGE_READ(intel_sub_group_block_read_ui4, uint4)
SGU_BLOCK_IMAGE_READ(intel_sub_group_block_read_ui8, uint8)
#if defined(cl_intel_subgroups_short)
SGU_BLOCK_IMAGE_RO_WO(intel_sub_group_block_read_us, intel_sub_group_block_write_us, ushort)
SGU_BLOCK_IMAGE_RO_WO(intel_sub_group_block_read_us2, intel_sub_group_block_write_us2, ushort2)
SGU_BLOCK_IMAGE_RO_WO(intel_sub_group_block_read_us4, intel_sub_group_block_write_us4, ushort4)
SGU_BLOCK_IMAGE_RO_WO(intel_sub_group_block_read_us8, intel_sub_group_block_write_us8, ushort8)
#endif
#undef SGU_BLOCK_IMAGE_RO_WO
#endif  // !defined(__opencl_c_images)

#undef SGU_BLOCK_IMAGE
#undef SGU_BLOCK_IMAGE_RW
#undef SGU_BLOCK_IMAGE_WRITE
#undef SGU_BLOCK_IMAGE_READ

// cl_intel_media_block_io: (int2 src_byte_offset, int width, int height, [data,] image).
// width is in elements of the suffix's type, coordinate x in bytes, y in rows; width and
// height must be compile-time constants. There is no ui16 (as in Intel's own compiler).
#define SGU_MEDIA_READ(SFX, T, ACCESS)                                             \
  T SGU_FN intel_sub_group_media_block_read_##SFX(int2 src_byte_offset, int width, \
                                                  int height, ACCESS image2d_t image);
#define SGU_MEDIA_WRITE(SFX, T, ACCESS)                                                \
  void SGU_FN intel_sub_group_media_block_write_##SFX(int2 src_byte_offset, int width, \
                                                      int height, T pixels,            \
                                                      ACCESS image2d_t image);
#if defined(__opencl_c_read_write_images)
#define SGU_MEDIA(SFX, T)             \
  SGU_MEDIA_READ(SFX, T, read_only)   \
  SGU_MEDIA_READ(SFX, T, read_write)  \
  SGU_MEDIA_WRITE(SFX, T, write_only) \
  SGU_MEDIA_WRITE(SFX, T, read_write)
#else
#define SGU_MEDIA(SFX, T)           \
  SGU_MEDIA_READ(SFX, T, read_only) \
  SGU_MEDIA_WRITE(SFX, T, write_only)
#endif
SGU_MEDIA(uc, uchar)
SGU_MEDIA(uc2, uchar2)
SGU_MEDIA(uc4, uchar4)
SGU_MEDIA(uc8, uchar8)
SGU_MEDIA(uc16, uchar16)
SGU_MEDIA(us, ushort)
SGU_MEDIA(us2, ushort2)
SGU_MEDIA(us4, ushort4)
SGU_MEDIA(us8, ushort8)
SGU_MEDIA(us16, ushort16)
SGU_MEDIA(ui, uint)
SGU_MEDIA(ui2, uint2)
SGU_MEDIA(ui4, uint4)
SGU_MEDIA(ui8, uint8)
#undef SGU_MEDIA
#undef SGU_MEDIA_WRITE
#undef SGU_MEDIA_READ

#endif  // defined(SGU_IMAGES)

// ---- us16 block read/write (cl_intel_subgroups_short v1.1) ----------------------------------
// llvm-spirv-15 aborts on any 16-component block read/write of a 16-bit type (assertion "16
// elements vector allowed only for char builtins" in OCLUtil.cpp), so us16 is two us8
// operations. That is exact: component k of lane i is p[i + k * max_sub_group_size], so
// components 8..15 are the us8 block at p + 8 * max_sub_group_size (for images: row y + 8);
// the second pointer keeps the 16-byte alignment of the first.
#if defined(cl_intel_subgroups_short)
SGU_INLINE ushort16 intel_sub_group_block_read_us16(const __global ushort* p) {
  return (ushort16)(intel_sub_group_block_read_us8(p),
                    intel_sub_group_block_read_us8(p + 8 * get_max_sub_group_size()));
}
SGU_INLINE void intel_sub_group_block_write_us16(__global ushort* p, ushort16 data) {
  intel_sub_group_block_write_us8(p, data.lo);
  intel_sub_group_block_write_us8(p + 8 * get_max_sub_group_size(), data.hi);
}
#if defined(SGU_IMAGES)
SGU_INLINE ushort16 intel_sub_group_block_read_us16(read_only image2d_t image, int2 coord) {
  return (ushort16)(intel_sub_group_block_read_us8(image, coord),
                    intel_sub_group_block_read_us8(image, (int2)(coord.x, coord.y + 8)));
}
SGU_INLINE void intel_sub_group_block_write_us16(write_only image2d_t image, int2 coord,
                                                 ushort16 data) {
  intel_sub_group_block_write_us8(image, coord, data.lo);
  intel_sub_group_block_write_us8(image, (int2)(coord.x, coord.y + 8), data.hi);
}
#if defined(__opencl_c_read_write_images)
SGU_INLINE ushort16 intel_sub_group_block_read_us16(read_write image2d_t image, int2 coord) {
  return (ushort16)(intel_sub_group_block_read_us8(image, coord),
                    intel_sub_group_block_read_us8(image, (int2)(coord.x, coord.y + 8)));
}
SGU_INLINE void intel_sub_group_block_write_us16(read_write image2d_t image, int2 coord,
                                                 ushort16 data) {
  intel_sub_group_block_write_us8(image, coord, data.lo);
  intel_sub_group_block_write_us8(image, (int2)(coord.x, coord.y + 8), data.hi);
}
#endif  // defined(__opencl_c_read_write_images)
#endif  // defined(SGU_IMAGES)
#endif  // defined(cl_intel_subgroups_short)

#endif  // defined(cl_intel_subgroups)

// ---- cl_qcom_subgroup_shuffle -------------------------------------------------------------

#ifndef cl_qcom_subgroup_shuffle
#define cl_qcom_subgroup_shuffle 1
#endif

// The grouping of a qcom shuffle. The extension leaves the values to the implementation; the
// SGU uses the group width (0: the whole sub-group). See the top of this file.
typedef enum {
  CLK_SUB_GROUP_SHUFFLE_WIDTH_WAVE_SIZE_QCOM = 0,
  CLK_SUB_GROUP_SHUFFLE_WIDTH_W4_QCOM = 4,
  CLK_SUB_GROUP_SHUFFLE_WIDTH_W8_QCOM = 8,
} qcom_sub_group_shuffle_width_modes_t;

#define SGU_QCOM(T)                                                                      \
  T SGU_FN qcom_sub_group_shuffle_up(T source_value, uint offset, uint width,          \
                                     T default_value);                                 \
  T SGU_FN qcom_sub_group_shuffle_down(T source_value, uint offset, uint width,        \
                                       T default_value);                               \
  T SGU_FN qcom_sub_group_shuffle_rotate_up(T source_value, uint offset, uint width,   \
                                            T default_value);                          \
  T SGU_FN qcom_sub_group_shuffle_rotate_down(T source_value, uint offset, uint width, \
                                              T default_value);                        \
  T SGU_FN qcom_sub_group_shuffle_xor(T source_value, uint offset, uint width,         \
                                      T default_value);
SGU_QCOM(uchar)
SGU_QCOM(char)
SGU_QCOM(ushort)
SGU_QCOM(short)
SGU_QCOM(uint)
SGU_QCOM(int)
SGU_QCOM(ulong)
SGU_QCOM(long)
SGU_QCOM(float)
#if defined(cl_khr_fp16)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
SGU_QCOM(half)
#pragma OPENCL EXTENSION cl_khr_fp16 : disable
#endif
#undef SGU_QCOM

// Qualcomm's compiler picks the overload from the source value alone, so that
// qcom_sub_group_shuffle_down(x, 1, CLK_SUB_GROUP_SHUFFLE_WIDTH_W4_QCOM, 0x11) with a uint x is
// not ambiguous (the uint and the int overload would each need one conversion). Each name is
// therefore also a function-like macro that converts default_value to the type of
// source_value and calls the function of the same name (a macro does not expand inside its
// own expansion). Side effect: a kernel cannot declare its own prototype of these names; it
// does not need to.
#define qcom_sub_group_shuffle_up(v, offset, width, dflt) \
  qcom_sub_group_shuffle_up((v), (offset), (width), (__typeof__(v))(dflt))
#define qcom_sub_group_shuffle_down(v, offset, width, dflt) \
  qcom_sub_group_shuffle_down((v), (offset), (width), (__typeof__(v))(dflt))
#define qcom_sub_group_shuffle_rotate_up(v, offset, width, dflt) \
  qcom_sub_group_shuffle_rotate_up((v), (offset), (width), (__typeof__(v))(dflt))
#define qcom_sub_group_shuffle_rotate_down(v, offset, width, dflt) \
  qcom_sub_group_shuffle_rotate_down((v), (offset), (width), (__typeof__(v))(dflt))
#define qcom_sub_group_shuffle_xor(v, offset, width, dflt) \
  qcom_sub_group_shuffle_xor((v), (offset), (width), (__typeof__(v))(dflt))

#undef SGU_IMAGES
#undef SGU_INLINE
#undef SGU_FN

#endif  // SGU_OPENCL_SGU_KERNEL_H_
