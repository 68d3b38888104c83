// SPDX-License-Identifier: Apache-2.0
// Matrix transpose through registers: each sub-group transposes one S x S tile (S = the
// sub-group size) with intel_sub_group_shuffle, so that both the loads and the stores of the
// sub-group touch S consecutive floats.
//
//   out[c * rows + r] = in[r * cols + c]        in: rows x cols, out: cols x rows, row-major
//
// NDRange: global (cols, rows / S), local (a multiple of S, 1); rows and cols multiples of S.
// Work-item (x, y) is lane x % S of the sub-group whose tile starts at row y * S and column
// x - lane.
//
// Lane l loads column l of the tile (v[k] = tile[k][l]) and must end with row l of the
// transposed tile, i.e. w[r] = tile[l][r], which lane r holds in v[l]. A shuffle moves one
// register per lane, so the exchange goes along diagonals: in step s lane l sends v[(l - s) mod
// S] and reads lane (l + s) mod S, which sent exactly the element l wants. Both indices differ
// per lane, so v and w are private arrays indexed dynamically.

#define MAX_SUB_GROUP 32

__kernel void transpose(__global const float* in, __global float* out, int rows, int cols) {
  const uint S = get_max_sub_group_size();
  const uint lane = get_sub_group_local_id();
  const int col = (int)get_global_id(0);      // this lane's column of the tile
  const int col0 = col - (int)lane;           // the tile's first column
  const int row0 = (int)(get_global_id(1) * S);  // the tile's first row

  float v[MAX_SUB_GROUP];  // v[k] = in[row0 + k][col]
  for (uint k = 0; k < S; ++k) v[k] = in[(row0 + (int)k) * cols + col];

  float w[MAX_SUB_GROUP];  // w[r] = in[row0 + lane][col0 + r]
  for (uint s = 0; s < S; ++s) {
    const uint src = (lane + s) & (S - 1);
    const float send = v[(lane - s) & (S - 1)];
    w[src] = intel_sub_group_shuffle(send, src);
  }

  // Row col0 + r of the output, columns row0 .. row0 + S - 1: one contiguous run per r.
  for (uint r = 0; r < S; ++r) out[(col0 + (int)r) * rows + row0 + (int)lane] = w[r];
}
