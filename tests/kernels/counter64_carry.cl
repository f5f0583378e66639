/*!
[config]
name: 64-bit atomic counters across 2^32

[test]
name: counting up from 2^32 - 16 to 2^32 + 24
kernel_name: carry
dimensions: 1
global_size: 40 1 1
local_size: 8 1 1
arg_out: 0 buffer uint[40] 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 1 1 1 1 \
    1 1 1 1 1 1 1 1 1 1 \
    1 1 1 1 1 1 1 1 1 1
arg_out: 1 buffer uint[40] 4294967280 4294967281 4294967282 4294967283 4294967284 4294967285 4294967286 4294967287 \
    4294967288 4294967289 4294967290 4294967291 4294967292 4294967293 4294967294 4294967295 \
    0 1 2 3 4 5 6 7 \
    8 9 10 11 12 13 14 15 \
    16 17 18 19 20 21 22 23
arg_in:  2 buffer ulong[1] 0xfffffff0
arg_out: 2 buffer ulong[1] 0x100000018
arg_in:  3 ulong 0xfffffff0

[test]
name: counting down from 2^32 + 5 to 2^32 - 5
kernel_name: down
dimensions: 1
global_size: 10 1 1
local_size: 5 1 1
arg_out: 0 buffer uint[10] 1 1 1 1 1 1 0 0 0 0
arg_out: 1 buffer uint[10] 5 4 3 2 1 \
    0 4294967295 4294967294 4294967293 4294967292
arg_in:  2 buffer ulong[1] 0x100000005
arg_out: 2 buffer ulong[1] 0xfffffffb
arg_in:  3 ulong 0x100000005
!*/

// Every work-item takes one value of a 64-bit counter and stores its two halves at the
// position the value has among all values taken (old - base counting up, base - old counting
// down): the halves show the carry into (and the borrow out of) bit 32 in the old values, and
// every position is written once only when the values are distinct.
#pragma OPENCL EXTENSION cl_ext_atomic_counters_64 : enable

kernel void carry(global uint *restrict hi, global uint *restrict lo, counter64_t c, ulong base) {
  ulong old = atomic_inc(c);
  uint k = (uint)(old - base);
  hi[k] = (uint)(old >> 32);
  lo[k] = (uint)old;
}

kernel void down(global uint *restrict hi, global uint *restrict lo, counter64_t c, ulong base) {
  ulong old = atomic_dec(c);
  uint k = (uint)(base - old);
  hi[k] = (uint)(old >> 32);
  lo[k] = (uint)old;
}

// corpus-sim: --stall-prob 0.5 --max-latency 16 --seed 23
