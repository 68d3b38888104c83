// SPDX-License-Identifier: Apache-2.0
// __local memory shared by the work-items of a work-group, with barrier(CLK_LOCAL_MEM_FENCE)
// between the writes and the reads of other work-items' data. On the SGU a work-group that
// uses barrier() must be a single sub-group: local size at most S (the driver rejects larger
// ones and says which size runs).
//
// reverse_tile  a static __local array: every work-group reverses its slice of the input,
//                 out[g*L + j] = in[g*L + L-1 - j]        (L = local size <= 32)
//               NDRange: global a multiple of L, local L.
//
// stencil3      a __local pointer argument (tile, at least (L + 2) floats): a 3-point stencil
//               with a halo of one element on each side, 0 outside [0, n):
//                 out[i] = 0.25 * in[i-1] + 0.5 * in[i] + 0.25 * in[i+1]
//               Each work-item stores its element at tile[lid + 1]; the first and last
//               work-items of the group also fetch the halo.
//               NDRange: global n (a multiple of L), local L.

#define MAX_TILE 32

__kernel void reverse_tile(__global const int* in, __global int* out) {
  __local int tile[MAX_TILE];
  const size_t gid = get_global_id(0);
  const size_t lid = get_local_id(0);
  const size_t L = get_local_size(0);
  tile[lid] = in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = tile[L - 1 - lid];
}

__kernel void stencil3(__global const float* in, __global float* out, __local float* tile,
                       int n) {
  const int gid = (int)get_global_id(0);
  const int lid = (int)get_local_id(0);
  const int L = (int)get_local_size(0);
  tile[lid + 1] = in[gid];
  if (lid == 0) tile[0] = gid > 0 ? in[gid - 1] : 0.0f;
  if (lid == L - 1) tile[L + 1] = gid + 1 < n ? in[gid + 1] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = 0.25f * tile[lid] + 0.5f * tile[lid + 1] + 0.25f * tile[lid + 2];
}
