/*!
[config]
name: a loop in one work-item doing several atomics on global and local memory
kernel_name: several

[test]
name: 500 random elements
global_size: 1 1 1
arg_in:  0 buffer uint[500] random 81
arg_in:  1 uint 500
arg_in:  2 buffer uint[16] repeat 0
arg_out: 2 buffer uint[16] 28 34 29 37 32 36 27 25 23 43 28 31 44 20 30 33
arg_in:  3 buffer uint[8] repeat 100
arg_out: 3 buffer uint[8] 19 47 7 28 66 30 53 50
arg_out: 4 buffer int[4] 2139566287 2176731132 62631 6

[test]
name: 37 random elements
global_size: 1 1 1
arg_in:  0 buffer uint[37] random 82
arg_in:  1 uint 37
arg_in:  2 buffer uint[16] repeat 0
arg_out: 2 buffer uint[16] 3 2 2 3 0 1 1 3 1 6 6 2 1 2 2 2
arg_in:  3 buffer uint[8] repeat 100
arg_out: 3 buffer uint[8] 94 92 94 99 99 91 99 95
arg_out: 4 buffer int[4] 2067767251 169968762 5428 2

[test]
name: the same addresses in consecutive iterations
global_size: 1 1 1
arg_in:  0 buffer uint[35] 305419896 305419896 305419896 305419896 305419896 305419896 305419896 305419896 305419896 305419896 \
    305419896 305419896 305419896 305419896 305419896 305419896 305419896 305419896 305419896 305419896 \
    305419888 305419888 305419888 305419888 305419888 4275878552 4275878552 4275878552 4275878552 4275878552 \
    4275878552 4275878552 4275878552 4275878552 4275878552
arg_in:  1 uint 35
arg_in:  2 buffer uint[16] repeat 0
arg_out: 2 buffer uint[16] 5 0 0 0 0 0 0 0 30 0 0 0 0 0 0 0
arg_in:  3 buffer uint[8] repeat 100
arg_out: 3 buffer uint[8] 135 100 100 80 100 100 90 60
arg_out: 4 buffer int[4] 305419896 4013556763 2990 25
!*/

// One work-item (global size 1), one loop, six atomics per iteration: atomic_inc of a global
// bin, atomic_add and atomic_sub on two cells of one global array (the same cell when
// x & 7 == x >> 3 & 7), atomic_max of a maximum in local memory (starting from INT_MIN),
// atomic_inc of a local bin and atomic_add to a local sum.
// In one work-item every old value is defined, so they are folded into an order-sensitive
// hash; res = {maximum, hash, local sum, largest local bin}. Expected values are computed
// with Python (an independent SplitMix64 for the `random` data); the third test repeats
// addresses in consecutive iterations, so every update depends on the one before.

kernel void several(global const uint *restrict data, uint n, global uint *hist,
                    global uint *cells, global int *restrict res) {
  local uint bins[256];
  local uint sum[1];
  local int mx[1];
  for (uint b = 0; b < 256; b++)
    bins[b] = 0;
  sum[0] = 0;
  mx[0] = -0x7fffffff - 1;
  uint h = 0;
  for (uint i = 0; i < n; i++) {
    uint x = data[i];
    uint r = atomic_inc(&hist[x & 15]);
    uint o1 = atomic_add(&cells[x & 7], 1u);
    uint o2 = atomic_sub(&cells[(x >> 3) & 7], 2u);
    int om = atomic_max(&mx[0], (int)x);
    uint ol = atomic_inc(&bins[(x >> 8) & 255]);
    uint os = atomic_add(&sum[0], x >> 24);
    h = (h << 1) | (h >> 31);
    h ^= r + 3 * o1 + 5 * o2 + 7 * (uint)om + 11 * ol + 13 * os;
  }
  uint mb = 0;
  for (uint b = 0; b < 256; b++)
    mb = max(mb, bins[b]);
  res[0] = mx[0];
  res[1] = (int)h;
  res[2] = (int)sum[0];
  res[3] = (int)mb;
}

// corpus-sim: --stall-prob 0.3 --max-latency 40 --seed 68
