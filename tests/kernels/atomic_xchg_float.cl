/*!
[config]
name: atomic_xchg on float and int

[test]
name: 120 work-items swap their float into one cell, the old values kept
launch: swap 120 24
buffer: v float[120] random 73
buffer: cells float[121] repeat 0.5
arg: swap 0 v
arg: swap 1 cells
expect: cells uint[121] unordered 1056964608 1101075703 1101824346 1102423442 1110597441 1113958518 1124404829 1125481261 \
    1125856610 1126455679 1126751539 1126989142 1127894588 1128454939 1129108233 1129947382 \
    1132019187 1133305815 1134811366 1135177391 1135394967 1135717043 1135846894 1137058034 \
    1137819313 1137881925 1138110893 1139174948 1140139271 1140222745 1140628826 1140807743 \
    1140868952 1140888342 1141073175 1141875168 1141895543 1142102691 1142300823 1142773580 \
    1143339347 1143430936 1143446552 1143613732 1143702124 1143873128 1144308938 1144527470 \
    1144996737 1145531700 1146379635 1146591601 1146811464 1146869422 1147868729 1147978060 \
    1148358678 3246554207 3253691880 3257868920 3258171412 3264198877 3265698792 3266831116 \
    3267257206 3269030394 3269873052 3271057246 3272283102 3273804013 3275756301 3276167288 \
    3277287410 3277350665 3279797686 3280266009 3283563477 3283716112 3283784823 3284899272 \
    3285378653 3286264326 3286414045 3287523658 3287714321 3288162277 3288580101 3288611539 \
    3288717366 3288885424 3289204144 3289633438 3290122416 3290806867 3290871901 3290875429 \
    3291008347 3291253130 3291381377 3291674509 3291711673 3292056402 3292174278 3292549771 \
    3292635036 3292693891 3293005422 3293035953 3293080530 3294080354 3294115699 3294211198 \
    3294362301 3294771858 3294877540 3295354906 3295379364 3295524219 3295867333 3295871986 \
    3296104052

[test]
name: one work-item, bit patterns move exactly (negative zero, NaN payload, infinity)
kernel_name: swap_seq
dimensions: 1
global_size: 1 1 1
arg_in:  0 buffer uint[6] 0x80000000 0x7fc00123 0xff800000 0x1 0x3f800000 0xffffffff
arg_in:  1 buffer uint[1] 0x40490fdb
arg_out: 1 buffer uint[1] 0xffffffff
arg_out: 2 buffer uint[6] 0x40490fdb 0x80000000 0x7fc00123 0xff800000 0x1 0x3f800000

[test]
name: int exchange in local memory, a chain through every work-item
launch: swap_local_int 64 64
buffer: out int[65] repeat 0
arg: swap_local_int 0 out
expect: out int[65] unordered iota -1
!*/

// atomic_xchg on float moves the bits (opcode XCHG). `swap`: each work-item swaps its value
// into cells[0] and stores the value it got out into cells[1 + i]; afterwards the cells hold
// the initial 0.5 and the 120 inputs, in some order (checked as uint bit patterns, so the
// values must be bit-exact). `swap_seq` (one work-item) exchanges patterns that a
// float conversion would change (-0.0, a NaN with a payload, 0xffffffff), reading them as
// float through a uint buffer. `swap_local_int` swaps the local id into a local cell that
// starts at -1: the old values plus the final cell are -1, 0, .., 63. Expected values are
// computed with Python (an independent SplitMix64 for the `random` floats).

kernel void swap(global const float *restrict v, global float *cells) {
  size_t i = get_global_id(0);
  cells[1 + i] = atomic_xchg(&cells[0], v[i]);
}

kernel void swap_seq(global const float *restrict v, global float *cell,
                     global float *restrict olds) {
  for (int i = 0; i < 6; i++)
    olds[i] = atomic_xchg(cell, v[i]);
}

kernel void swap_local_int(global int *out) {
  local int cell[1];
  uint lid = get_local_id(0);
  if (lid == 0)
    cell[0] = -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[1 + lid] = atomic_xchg(cell, (int)lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0)
    out[0] = cell[0];
}

// corpus-sim: --stall-prob 0.3 --max-latency 40 --seed 67
