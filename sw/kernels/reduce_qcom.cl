// SPDX-License-Identifier: Apache-2.0
// Reductions written the Adreno way, with cl_qcom_subgroup_shuffle and its width groups:
// CLK_SUB_GROUP_SHUFFLE_WIDTH_W4_QCOM and _W8_QCOM split the sub-group into independent groups
// of 4 or 8 consecutive lanes, _WAVE_SIZE_QCOM uses the whole sub-group.
//
// reduce_qcom   sums of in[0 .. n-1] (work-items at or past n add 0) per group of 4, of 8,
//               and per sub-group:
//                 sum4[g]  = in[4g] + .. + in[4g + 3]            (butterfly: xor 1, xor 2, W4)
//                 sum8[g]  = in[8g] + .. + in[8g + 7]            (rotate_down 4, W8)
//                 sumsg[s] = the S inputs of sub-group s         (shuffle_down 8, 16, .. wave)
//               s counts sub-groups across work-groups (group id * sub-groups per group + id).
//               NDRange: global a multiple of S (and of the local size), local a multiple of S.
//
// scan8_qcom    inclusive prefix sums within each group of 8 lanes (Hillis-Steele with
//               qcom_sub_group_shuffle_up(x, d, W8, 0): lanes below d take the default 0):
//                 out[i] = in[8 * (i / 8)] + .. + in[i]
//               NDRange: global the element count, a multiple of 8; local a multiple of S.

#pragma OPENCL EXTENSION cl_qcom_subgroup_shuffle : enable

__kernel void reduce_qcom(__global const float* in, __global float* sum4, __global float* sum8,
                          __global float* sumsg, int n) {
  const int gid = (int)get_global_id(0);
  const uint lane = get_sub_group_local_id();
  const float x = gid < n ? in[gid] : 0.0f;

  // Groups of 4: after xor 1 and xor 2 every lane of the group holds the group's sum.
  float s4 = x + qcom_sub_group_shuffle_xor(x, 1, CLK_SUB_GROUP_SHUFFLE_WIDTH_W4_QCOM, 0.0f);
  s4 += qcom_sub_group_shuffle_xor(s4, 2, CLK_SUB_GROUP_SHUFFLE_WIDTH_W4_QCOM, 0.0f);
  if ((lane & 3) == 0) sum4[gid / 4] = s4;

  // Groups of 8: rotating by 4 inside the group brings the other half's sum.
  const float s8 =
      s4 + qcom_sub_group_shuffle_rotate_down(s4, 4, CLK_SUB_GROUP_SHUFFLE_WIDTH_W8_QCOM, 0.0f);
  if ((lane & 7) == 0) sum8[gid / 8] = s8;

  // The wave: a tree of shuffle_down; lanes whose source is past the end get the default 0,
  // and lane 0 ends with the sum of the sub-group.
  float s = s8;
  for (uint d = 8; d < get_sub_group_size(); d <<= 1) {
    s += qcom_sub_group_shuffle_down(s, d, CLK_SUB_GROUP_SHUFFLE_WIDTH_WAVE_SIZE_QCOM, 0.0f);
  }
  if (lane == 0) sumsg[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = s;
}

__kernel void scan8_qcom(__global const int* in, __global int* out) {
  const int gid = (int)get_global_id(0);
  int x = in[gid];
  x += qcom_sub_group_shuffle_up(x, 1, CLK_SUB_GROUP_SHUFFLE_WIDTH_W8_QCOM, 0);
  x += qcom_sub_group_shuffle_up(x, 2, CLK_SUB_GROUP_SHUFFLE_WIDTH_W8_QCOM, 0);
  x += qcom_sub_group_shuffle_up(x, 4, CLK_SUB_GROUP_SHUFFLE_WIDTH_W8_QCOM, 0);
  out[gid] = x;
}
