// SPDX-License-Identifier: Apache-2.0
// Stream compaction with sub_group_ballot (cl_khr_subgroup_ballot): every sub-group keeps the
// elements of its S inputs that satisfy the predicate and writes them, in input order, densely
// to the start of its own output segment, plus how many it kept.
//
//   sub-group s (counted across work-groups) reads in[s*S .. s*S + S-1] (only those below n),
//   writes the kept values to out[s*S ..] and their number to counts[s].
//   predicate: in[i] > threshold and in[i] is even
//
// A kept lane's place in the segment is the number of kept lanes below it. Two ways to get it:
//
// compact       from the ballot mask: the bits below the lane's own bit. The SGU has no
//               popcount instruction, so the bits are counted with a loop that clears the
//               lowest set bit per iteration (a per-lane trip count).
// compact_scan  without ballot: an inclusive prefix sum of the keep flags over the sub-group
//               with intel_sub_group_shuffle_up (log2(S) steps; lanes below the distance read
//               the `previous` operand, 0), the count broadcast from the last lane.
//
// Both take the same arguments and write the same results.
//
// NDRange: global a multiple of the local size, local a multiple of S (so that every
// sub-group is full); out has room for global elements, counts for global / S.

#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable

// Number of set bits of m.
uint count_bits(uint m) {
  uint c = 0;
  for (; m != 0; m &= m - 1) ++c;
  return c;
}

__kernel void compact(__global const int* in, __global int* out, __global uint* counts, int n,
                      int threshold) {
  const int gid = (int)get_global_id(0);
  const uint lane = get_sub_group_local_id();
  const uint S = get_max_sub_group_size();
  const uint sg = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();

  const int v = gid < n ? in[gid] : 0;
  const int keep = gid < n && v > threshold && (v & 1) == 0;

  // One bit per lane; a sub-group of at most 32 lanes fits in .x.
  const uint mask = sub_group_ballot(keep).x;
  if (keep) {
    const uint below = mask & ((1u << lane) - 1u);
    out[sg * S + count_bits(below)] = v;
  }
  if (lane == 0) counts[sg] = count_bits(mask);
}

__kernel void compact_scan(__global const int* in, __global int* out, __global uint* counts,
                           int n, int threshold) {
  const int gid = (int)get_global_id(0);
  const uint lane = get_sub_group_local_id();
  const uint S = get_max_sub_group_size();
  const uint sg = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();

  const int v = gid < n ? in[gid] : 0;
  const uint keep = gid < n && v > threshold && (v & 1) == 0;

  uint upto = keep;  // kept lanes at or below this one
  for (uint d = 1; d < S; d <<= 1) upto += intel_sub_group_shuffle_up(0u, upto, d);

  if (keep) out[sg * S + upto - 1] = v;
  const uint total = sub_group_broadcast(upto, S - 1);
  if (lane == 0) counts[sg] = total;
}
