# SGU showcase kernel: sub-group operations on the lane crossbar, divergence and FP32.
# Runs at any SIMD width; `make demo` runs it at SIMD16 on the RTL in lockstep with the model.
# Results go to 0x9000 + 64 * k (one 32-bit word per lane), k = section number - 1.

  lane v1                      # v1 = sub_group_local_id
  li s1, 0x9000                # output base
  shli v2, v1, 2
  add v2, v2, s1               # v2 = &out[lane]
  csrr s9, NumLanes            # s9 = N

# 1. Inclusive prefix sum of (lane + 1): Hillis-Steele scan with sub_group_shuffle_up.
  addi v3, v1, 1
  li v14, 0                    # explicit default value (qcom style): no sanitizer diagnostic
  li s2, 1
scan:
  shfl.up v4, v3, s2, v14      # x[lane - d], or the default 0 when lane < d
  add v3, v3, v4
  shli s2, s2, 1
  cmp.u32.lt s4, s2, s9
  bnz s4, scan
  st.i32 [v2 + 0], v3          # 1, 3, 6, 10, ...

# 2. Sum of (lane + 1) in every lane: butterfly with sub_group_shuffle_xor.
  addi v5, v1, 1
  shri.u32 s2, s9, 1
reduce:
  shfl.xor v6, v5, s2
  add v5, v5, v6
  shri.u32 s2, s2, 1
  bnz s2, reduce
  st.i32 [v2 + 64], v5         # N(N+1)/2 everywhere

# 3. intel_sub_group_shuffle_down(cur, next, 3) over the window cur || next.
  muli v6, v1, 10              # cur  = 10 * lane
  addi v7, v6, 100             # next = 100 + 10 * lane
  li s5, 3
  shfl.down2 v8, v6, s5, v7
  st.i32 [v2 + 128], v8        # 30, 40, ..., then 100, 110, 120

# 4. Divergence: odd lanes square their id, even lanes negate it.
  andi v9, v1, 1
  split v9
  bexz even
  mul v10, v1, v1
even:
  else
  bexz joined
  sub v10, s0, v1
joined:
  join
  st.i32 [v2 + 192], v10

# 5. FP32: y = fma(lane, 0.5, 1.0).
  cvt.f32.i32 v11, v1
  fli s6, 0.5
  fli s7, 1.0
  ffma v12, v11, s6, s7
  st.f32 [v2 + 256], v12       # 1.0, 1.5, 2.0, ...

# 6. Ballot of the lanes whose prefix sum exceeds 50.
  cmpi.gt v13, v3, 50
  vote.ballot s8, v13
  st.i32 [s1 + 320], s8
  halt
