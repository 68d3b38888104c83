// SPDX-License-Identifier: Apache-2.0
// SGEMM, C = alpha * A * B + beta * C (row-major, no transposes), in the style of Intel's
// sub-group GEMM kernels: every work-item owns a column slice of the B tile and of the C tile,
// and the A values each lane loaded are broadcast to the whole sub-group by shuffles, so A is
// read once per sub-group instead of once per work-item.
//
//   A: M x K    B: K x N    C: M x N
//
// Two kernels:
//
// sgemm        any sub-group size S. A sub-group computes a TILE_M x S tile of C, one column
//              per lane. Per step of S along K, lane j loads A[m0 + i][k0 + j] for the TILE_M
//              rows; then for every k the lanes read their element of B's row k (a column
//              slice of TILE_K registers at a time) and intel_sub_group_shuffle(a[i], k)
//              hands every lane the A value of row i, column k.
//              NDRange: global (N, M / TILE_M), local (a multiple of S, 1);
//              N and K multiples of S (and of TILE_K), M a multiple of TILE_M.
//
// sgemm_simd8  intel_reqd_sub_group_size(8), the shape of Intel's published SIMD8 kernels
//              (clBLAS/ISAAC/OpenCV "gemm_buffer_NN"): a sub-group computes an 8 x 32 tile of
//              C; lane j owns columns 4j .. 4j + 3 as a float4 (vload4 of B's row, vstore4 of C)
//              and holds A[m0 + i][k0 + j] for the 8 rows; sub_group_broadcast(a_i, k) feeds
//              the 8 mads per row of B.
//              NDRange: global (N / 4, M / 8), local (8, 1); N a multiple of 32, M and K of 8.
//
// Build options: -D TILE_M=<rows per sub-group of sgemm> (default 4), -D TILE_K=<B registers
// per lane of sgemm> (default 8).

#ifndef TILE_M
#define TILE_M 4
#endif
#ifndef TILE_K
#define TILE_K 8
#endif

__kernel void sgemm(__global const float* A, __global const float* B, __global float* C,
                    int M, int N, int K, float alpha, float beta) {
  const int S = (int)get_max_sub_group_size();
  const int lane = (int)get_sub_group_local_id();
  const int n = (int)get_global_id(0);             // this lane's column of C
  const int m0 = (int)get_global_id(1) * TILE_M;   // the tile's first row

  float acc[TILE_M];
  for (int i = 0; i < TILE_M; ++i) acc[i] = 0.0f;

  for (int k0 = 0; k0 < K; k0 += S) {
    float a[TILE_M];  // lane j: A[m0 + i][k0 + j]
    for (int i = 0; i < TILE_M; ++i) a[i] = A[(m0 + i) * K + k0 + lane];

    for (int kb = 0; kb < S; kb += TILE_K) {
      float b[TILE_K];  // column n of B's rows k0 + kb .. k0 + kb + TILE_K - 1
      for (int t = 0; t < TILE_K; ++t) b[t] = B[(k0 + kb + t) * N + n];
      for (int t = 0; t < TILE_K; ++t) {
        for (int i = 0; i < TILE_M; ++i) {
          acc[i] = mad(intel_sub_group_shuffle(a[i], (uint)(kb + t)), b[t], acc[i]);
        }
      }
    }
  }

  for (int i = 0; i < TILE_M; ++i) {
    const int idx = (m0 + i) * N + n;
    C[idx] = alpha * acc[i] + beta * C[idx];
  }
}

// One row of B (4 columns per lane) times the 8 A values lane `k` holds: acc_i += a_i[k] * b.
#define MM_DOT_PRODUCT(k)                                        \
  do {                                                           \
    const float4 b = vload4(0, B + (k0 + (k)) * N + n4);         \
    acc0 = mad((float4)sub_group_broadcast(a0, (k)), b, acc0);   \
    acc1 = mad((float4)sub_group_broadcast(a1, (k)), b, acc1);   \
    acc2 = mad((float4)sub_group_broadcast(a2, (k)), b, acc2);   \
    acc3 = mad((float4)sub_group_broadcast(a3, (k)), b, acc3);   \
    acc4 = mad((float4)sub_group_broadcast(a4, (k)), b, acc4);   \
    acc5 = mad((float4)sub_group_broadcast(a5, (k)), b, acc5);   \
    acc6 = mad((float4)sub_group_broadcast(a6, (k)), b, acc6);   \
    acc7 = mad((float4)sub_group_broadcast(a7, (k)), b, acc7);   \
  } while (0)

#define STORE_ROW(i)                                                   \
  do {                                                                 \
    __global float* c = C + (m0 + (i)) * N + n4;                       \
    vstore4(alpha * acc##i + beta * vload4(0, c), 0, c);               \
  } while (0)

__attribute__((intel_reqd_sub_group_size(8)))
__kernel void sgemm_simd8(__global const float* A, __global const float* B, __global float* C,
                          int M, int N, int K, float alpha, float beta) {
  const int lane = (int)get_sub_group_local_id();
  const int n4 = (int)get_global_id(0) * 4;   // this lane's first column of C
  const int m0 = (int)get_global_id(1) * 8;   // the tile's first row

  float4 acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
  float4 acc4 = 0.0f, acc5 = 0.0f, acc6 = 0.0f, acc7 = 0.0f;

  for (int k0 = 0; k0 < K; k0 += 8) {
    const __global float* a = A + m0 * K + k0 + lane;
    const float a0 = a[0 * K], a1 = a[1 * K], a2 = a[2 * K], a3 = a[3 * K];
    const float a4 = a[4 * K], a5 = a[5 * K], a6 = a[6 * K], a7 = a[7 * K];
    MM_DOT_PRODUCT(0);
    MM_DOT_PRODUCT(1);
    MM_DOT_PRODUCT(2);
    MM_DOT_PRODUCT(3);
    MM_DOT_PRODUCT(4);
    MM_DOT_PRODUCT(5);
    MM_DOT_PRODUCT(6);
    MM_DOT_PRODUCT(7);
  }

  STORE_ROW(0);
  STORE_ROW(1);
  STORE_ROW(2);
  STORE_ROW(3);
  STORE_ROW(4);
  STORE_ROW(5);
  STORE_ROW(6);
  STORE_ROW(7);
}
