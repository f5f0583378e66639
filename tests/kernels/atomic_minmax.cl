/*!
[config]
name: minimum and maximum reductions with atomic_min and atomic_max, int and uint

[test]
name: int, 500 work-items, negative values
kernel_name: minmax_int
dimensions: 1
global_size: 500 1 1
local_size: 50 1 1
arg_in:  0 buffer int[500] random 31
arg_in:  1 buffer int[2] 5 -7
arg_out: 1 buffer int[2] -2142500057 2147143077

[test]
name: uint, values above 2^31 are large, not negative
kernel_name: minmax_uint
dimensions: 1
global_size: 500 1 1
local_size: 50 1 1
arg_in:  0 buffer uint[500] random 32
arg_in:  1 buffer uint[2] 3000000000 1
arg_out: 1 buffer uint[2] 16652 4293595164

[test]
name: int, per bin of the low 4 bits
kernel_name: minmax_bins_int
dimensions: 1
global_size: 500 1 1
local_size: 25 1 1
arg_in:  0 buffer int[500] random 31
arg_in:  1 buffer int[16] repeat 0x7fffffff
arg_out: 1 buffer int[16] -2083422464 -2117794511 -1976692414 -2108276189 -2087272236 -1797929835 -2109847834 -2142500057 -1596745784 -1982558023 -2035354806 -2068522581 -2137876644 -2077631139 -2104675378 -2127965873
arg_in:  2 buffer int[16] repeat -2147483648
arg_out: 2 buffer int[16] 1955426064 2137697745 2121202962 1991634211 2095208772 2147143077 1978529894 2140499319 2083840904 1891864153 2010790842 2093397563 1623728140 2099335437 2110130638 2125283487

[test]
name: uint, per bin of the low 4 bits
kernel_name: minmax_bins_uint
dimensions: 1
global_size: 500 1 1
local_size: 25 1 1
arg_in:  0 buffer uint[500] random 32
arg_in:  1 buffer uint[16] repeat 0xffffffff
arg_out: 1 buffer uint[16] 59961968 77499985 129741330 272968963 57697316 7442997 41374406 35694871 119891080 106862377 201871610 70118731 16652 103535181 51337550 38315935
arg_in:  2 buffer uint[16] repeat 0
arg_out: 2 buffer uint[16] 4227928560 4273966977 4283903362 4106055955 4171119076 4103663861 4199482774 4013409783 4215431224 3964122697 4253448282 4189871707 4293595164 4288472525 4078320862 4226647695

[test]
name: int, per work-group in local memory, then global
kernel_name: minmax_local
dimensions: 1
global_size: 500 1 1
local_size: 50 1 1
arg_in:  0 buffer int[500] random 31
arg_out: 1 buffer int[10] -2068522581 -2142500057 -2109847834 -2032707759 -2117794511 -2122481321 -2127965873 -2137876644 -1869352769 -2106323753
arg_out: 2 buffer int[10] 2121202962 2042733726 2125283487 2140499319 2030693348 1978529894 2028135806 2147143077 2083840904 2099335437
arg_in:  3 buffer int[2] 0x7fffffff -2147483648
arg_out: 3 buffer int[2] -2142500057 2147143077

[test]
name: int, one work-item, the old values are the running min and max
kernel_name: minmax_seq_int
dimensions: 1
global_size: 1 1 1
arg_in:  0 buffer int[40] random 33
arg_in:  1 uint 40
arg_in:  2 buffer int[2] 0 0
arg_out: 2 buffer int[2] -2007315975 2129660625
arg_out: 3 buffer int[80] 0 0 -1105061720 0 -1769422334 0 -1769422334 0 -1828009833 0 -2007315975 0 -2007315975 0 -2007315975 0 \
    -2007315975 68689781 -2007315975 68689781 -2007315975 1084257144 -2007315975 1929427384 -2007315975 1929427384 -2007315975 1929427384 -2007315975 1929427384 -2007315975 1929427384 \
    -2007315975 1929427384 -2007315975 1929427384 -2007315975 1929427384 -2007315975 1929427384 -2007315975 1929427384 -2007315975 1929427384 -2007315975 1929427384 -2007315975 1929427384 \
    -2007315975 1929427384 -2007315975 1929427384 -2007315975 2051580677 -2007315975 2051580677 -2007315975 2051580677 -2007315975 2051580677 -2007315975 2051580677 -2007315975 2051580677 \
    -2007315975 2129660625 -2007315975 2129660625 -2007315975 2129660625 -2007315975 2129660625 -2007315975 2129660625 -2007315975 2129660625 -2007315975 2129660625 -2007315975 2129660625

[test]
name: uint, one work-item, the old values are the running min and max
kernel_name: minmax_seq_uint
dimensions: 1
global_size: 1 1 1
arg_in:  0 buffer uint[40] random 34
arg_in:  1 uint 40
arg_in:  2 buffer uint[2] 0x80000000 0x80000000
arg_out: 2 buffer uint[2] 68501812 4113268829
arg_out: 3 buffer uint[80] 2147483648 2147483648 2147483648 3654591501 2147483648 3654591501 284458985 3654591501 284458985 3654591501 284458985 3654591501 284458985 3654591501 284458985 3654591501 \
    284458985 3654591501 284458985 3654591501 284458985 4006190598 284458985 4006190598 284458985 4006190598 284458985 4006190598 284458985 4006190598 68501812 4006190598 \
    68501812 4006190598 68501812 4006190598 68501812 4006190598 68501812 4006190598 68501812 4006190598 68501812 4006190598 68501812 4006190598 68501812 4006190598 \
    68501812 4113268829 68501812 4113268829 68501812 4113268829 68501812 4113268829 68501812 4113268829 68501812 4113268829 68501812 4113268829 68501812 4113268829 \
    68501812 4113268829 68501812 4113268829 68501812 4113268829 68501812 4113268829 68501812 4113268829 68501812 4113268829 68501812 4113268829 68501812 4113268829
!*/

// atomic_min and atomic_max are signed on int and unsigned on uint (opcodes SMIN/UMIN,
// SMAX/UMAX): the same bit patterns give different results (the uint data have values above
// 2^31, which as int would be negative). Expected values are computed with Python (an
// independent SplitMix64 for the `random` data). `minmax_local` reduces each work-group in
// local memory (after a barrier work-item 0 writes the group's result and folds it into the
// global result). The `seq` kernels run in one work-item, so each old value is defined: the
// running minimum and maximum before the element.

kernel void minmax_int(global const int *restrict v, global int *res) {
  int x = v[get_global_id(0)];
  atomic_min(&res[0], x);
  atomic_max(&res[1], x);
}

kernel void minmax_uint(global const uint *restrict v, global uint *res) {
  uint x = v[get_global_id(0)];
  atomic_min(&res[0], x);
  atomic_max(&res[1], x);
}

kernel void minmax_bins_int(global const int *restrict v, global int *mins, global int *maxs) {
  int x = v[get_global_id(0)];
  atomic_min(&mins[x & 15], x);
  atomic_max(&maxs[x & 15], x);
}

kernel void minmax_bins_uint(global const uint *restrict v, global uint *mins,
                             global uint *maxs) {
  uint x = v[get_global_id(0)];
  atom_min(&mins[x & 15], x);
  atom_max(&maxs[x & 15], x);
}

kernel void minmax_local(global const int *restrict v, global int *restrict gmin,
                         global int *restrict gmax, global int *all) {
  local int m[2];
  if (get_local_id(0) == 0) {
    m[0] = 0x7fffffff;
    m[1] = -0x7fffffff - 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int x = v[get_global_id(0)];
  atomic_min(&m[0], x);
  atomic_max(&m[1], x);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    gmin[get_group_id(0)] = m[0];
    gmax[get_group_id(0)] = m[1];
    atomic_min(&all[0], m[0]);
    atomic_max(&all[1], m[1]);
  }
}

kernel void minmax_seq_int(global const int *restrict v, uint n, global int *res,
                           global int *restrict olds) {
  for (uint i = 0; i < n; i++) {
    olds[2 * i] = atomic_min(&res[0], v[i]);
    olds[2 * i + 1] = atomic_max(&res[1], v[i]);
  }
}

kernel void minmax_seq_uint(global const uint *restrict v, uint n, global uint *res,
                            global uint *restrict olds) {
  for (uint i = 0; i < n; i++) {
    olds[2 * i] = atomic_min(&res[0], v[i]);
    olds[2 * i + 1] = atomic_max(&res[1], v[i]);
  }
}

// corpus-sim: --stall-prob 0.3 --max-latency 40 --seed 63
