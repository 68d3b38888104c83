# lanes 8 seed 1592590337 partial 0 random_axi 0

  lane v1
  csrr s7, NumLanes
  li s1, 0
loop:
  cmp.i32.eq v2, v1, s1      # only lane s1 set
  vote.any s2, v2
  vote.all s3, v2
  vote.ballot s4, v2
  cmp.i32.ne v3, v1, s1      # only lane s1 zero
  vote.any s5, v3
  vote.all s6, v3
  vote.ballot v4, v3
  addi s1, s1, 1
  sub s8, s7, s1
  bnz s8, loop
  halt
