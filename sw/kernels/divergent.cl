// SPDX-License-Identifier: Apache-2.0
// Control flow that diverges inside a sub-group: loops whose trip count differs per lane,
// break, continue and early return, nested. The SGU runs the lanes of a sub-group in lockstep
// under an execution mask; these kernels check that every lane still gets its own answer.
//
// collatz       Collatz sequences with a step cap:
//                 x = start[i]; x == 0: steps[i] = 0xffffffff, peak[i] untouched (early return)
//                 otherwise repeat x = x odd ? 3x + 1 : x / 2 until x == 1 or cap steps were
//                 taken (break); steps[i] = the steps taken, peak[i] = the largest x seen.
//               NDRange: global the number of starts, any local size.
//
// nested        nested loops with per-lane bounds:
//                 r = rows[i]; r < 0: out[i] untouched (early return)
//                 acc = 0; for a in [0, r): skip a % 3 == 1 (continue);
//                   for b in [0, a]: skip (a + b + i) % 5 == 0 (continue); acc += a * b + 1;
//                     stop the inner loop when acc > limit (break);
//                   stop the outer loop when acc > 2 * limit (break)
//                 out[i] = acc
//               NDRange: global the number of rows, any local size.
//
// find_first    early return from inside a loop: out[i] = the first j < len[i] with
//               data[i * stride + j] == key, or -1 (the loop runs out).
//               NDRange: global the number of rows, any local size.

__kernel void collatz(__global const uint* start, __global uint* steps, __global uint* peak,
                      uint cap) {
  const size_t i = get_global_id(0);
  uint x = start[i];
  if (x == 0) {
    steps[i] = 0xffffffffu;
    return;
  }
  uint n = 0;
  uint top = x;
  while (x != 1) {
    if (n == cap) break;
    x = (x & 1) ? 3 * x + 1 : x >> 1;
    top = max(top, x);
    ++n;
  }
  steps[i] = n;
  peak[i] = top;
}

__kernel void nested(__global const int* rows, __global int* out, int limit) {
  const int i = (int)get_global_id(0);
  const int r = rows[i];
  if (r < 0) return;
  int acc = 0;
  for (int a = 0; a < r; ++a) {
    if (a % 3 == 1) continue;
    for (int b = 0; b <= a; ++b) {
      if ((a + b + i) % 5 == 0) continue;
      acc += a * b + 1;
      if (acc > limit) break;
    }
    if (acc > 2 * limit) break;
  }
  out[i] = acc;
}

__kernel void find_first(__global const int* data, __global const int* len, __global int* out,
                         int stride, int key) {
  const int i = (int)get_global_id(0);
  const __global int* row = data + i * stride;
  const int m = len[i];
  for (int j = 0; j < m; ++j) {
    if (row[j] == key) {
      out[i] = j;
      return;
    }
  }
  out[i] = -1;
}
