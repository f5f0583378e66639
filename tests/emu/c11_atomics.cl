/*!
[config]
name: OpenCL C 2.0 atomics on the emulator
# Expected values computed independently (by hand, checked with a short Python script that
# reimplements each reduction): see the comment of each test.

[test]
# A Treiber stack: each of 64 work-items pushes its id with a compare-exchange loop on the
# head, starting from the guess that the list is empty, so every push but the first fails at
# least once (63 failures or more) and retries with the head the failed exchange wrote back.
# After the barrier work-item 0 walks the list: 64 nodes, ids summing to 0+...+63 = 2016,
# every id seen once (both 32-bit masks full), no duplicate, the head a valid id.
name: lock-free push onto a global list
kernel_name: push_list
global_size: 64 0 0
local_size: 64 0 0
arg_in:  0 buffer int[1] -1
arg_in:  1 buffer int[64] repeat 0
arg_out: 2 buffer uint[7] 64 2016 4294967295 4294967295 0 1 1
arg_in:  3 buffer uint[1] 0

[test]
# Appending to an array list: a work-item claims the next slot with a compare-exchange loop
# (the failed exchange reloads the count) and writes its value. The multiples of 3 below 64:
# 22 of them, summing to 3 * (0+...+21) = 693; each appears once (xor of the slots' bitmask).
name: lock-free append to a global array
kernel_name: append
global_size: 64 0 0
local_size: 64 0 0
arg_in:  0 buffer int[64] iota 0
arg_in:  1 buffer uint[1] 0
arg_out: 1 buffer uint[1] 22
arg_in:  2 buffer int[64] repeat -1
arg_out: 3 buffer uint[3] 22 693 1

[test]
# bin(x) = (7x + x/5) % 16 for x = 0..255, in 4 work-groups of 64: counted directly in global
# memory, through a local histogram per work-group, and downwards from 100.
name: fetch_add histograms in global and local memory
kernel_name: histogram
global_size: 256 0 0
local_size: 64 0 0
arg_in:  0 buffer uint[256] iota 0
arg_in:  1 buffer uint[16] repeat 0
arg_out: 1 buffer uint[16] 26 12 13 12 26 13 13 13 25 13 12 13 26 13 13 13
arg_in:  2 buffer uint[16] repeat 0
arg_out: 2 buffer uint[16] 26 12 13 12 26 13 13 13 25 13 12 13 26 13 13 13
arg_in:  3 buffer int[16] repeat 100
arg_out: 3 buffer int[16] 74 88 87 88 74 87 87 87 75 87 88 87 74 87 87 87

[test]
# v_i = (2654435761 * i + 12345) mod 2^32 as int, i = 0..63: signed and unsigned minimum and
# maximum, and/or/xor over all of them, and the signed minimum and maximum of each
# work-group of 16 in local memory.
name: min, max and bitwise reductions
kernel_name: minmax
global_size: 64 0 0
local_size: 16 0 0
arg_in: 0 buffer int[64] \
  12345 -1640519190 1013916571 -626614964 2027820797 387289262 -1253242273 1401193488 \
  -239338047 -1879869582 774566179 -865965356 1788470405 147938870 -1492592665 1161843096 \
  -478688439 -2119219974 535215787 -1105315748 1549120013 -91411522 -1731943057 922492704 \
  -718038831 1936396930 295865395 -1344666140 1309769621 -330761914 -1971293449 683142312 \
  -957389223 1697046538 56515003 -1584016532 1070419229 -570112306 2084323455 443791920 \
  -1196739615 1457696146 -182835389 -1823366924 831068837 -809462698 1844973063 204441528 \
  -1436090007 1218345754 -422185781 -2062717316 591718445 -1048813090 1605622671 -34908864 \
  -1675440399 978995362 -661536173 1992899588 352368053 -1288163482 1366272279 -274259256
arg_in:  1 buffer int[2] 2147483647 -2147483648
arg_out: 1 buffer int[2] -2119219974 2084323455
arg_in:  2 buffer uint[2] 4294967295 0
arg_out: 2 buffer uint[2] 12345 4260058432
arg_in:  3 buffer uint[3] 4294967295 0 0
arg_out: 3 buffer uint[3] 0 4294967295 2130435648
arg_out: 4 buffer int[8] -1879869582 2027820797 -2119219974 1936396930 \
                         -1823366924 2084323455 -2062717316 1992899588

[test]
# x_i = i*i mod 13 for 48 work-items: the quadratic residues {0,1,3,4,9,10,12}, so 7
# test-and-sets find their flag clear and 41 find it set. Flags 13..16 start set (7): every
# test-and-set reports set and leaves 1; flags 17..20 start set (1) and are cleared.
name: spin-free counting with atomic_flag
kernel_name: flags
global_size: 48 0 0
local_size: 16 0 0
arg_in:  0 buffer int[21] 0 0 0 0 0 0 0 0 0 0 0 0 0  7 7 7 7  1 1 1 1
arg_out: 0 buffer int[21] 1 1 0 1 1 0 0 0 0 1 1 0 1  1 1 1 1  0 0 0 0
arg_in:  1 buffer uint[2] 0 0
arg_out: 1 buffer uint[2] 7 41
arg_out: 2 buffer uint[4] 1 1 1 1

[test]
# 16 work-items i = 0..15 on 64-bit atomics:
# u0 = sum of 0x100000001 * i = 0x100000001 * 120; u1 = 0x1000000000 - 16 * 0x200000000
# (wraps below 0); u2 = max of (i << 36) | i = (15 << 36) | 15; u3 = min of
# 0xF000000000000000 - (i << 40) = 0xF000000000000000 - (15 << 40); u4 = bits 32..47;
# u5 = 0x0123456789abcdef after 16 xors of 0x8000000000000001; u6 = ~0 with bits 48..63
# cleared; s0 = min of -(i << 33); s1 = max of i - 2^32. Work-item 0 exchanges, compares
# (two values with the same low 32 bits differ), stores and loads.
name: 64-bit fetch ops beyond 2^32
kernel_name: wide
global_size: 16 0 0
local_size: 16 0 0
arg_in:  0 buffer ulong[9] 0 68719476736 0 18446744073709551615 0 81985529216486895 \
                           18446744073709551615 723685415333069058 0
arg_out: 0 buffer ulong[9] 515396075640 18446744004990074880 1030792151055 \
                           17293806076428288000 281470681743360 81985529216486895 \
                           281474976710655 18364758544493064720 18446744069414584321
arg_in:  1 buffer long[2] 0 -9223372036854775808
arg_out: 1 buffer long[2] -128849018880 -4294967281
arg_out: 2 buffer ulong[5] 723685415333069058 0 1311768467463790320 1 18446744069414584321

[test]
# 32 work-items exchange i + 1 into one atomic_float that starts at 0: the old values and
# the final one are 0, 1, ..., 32 in some order (sum 528, 33 different values). Then the
# bits: a NaN with a payload (0x7fc00123) is stored, loaded and exchanged unchanged; a
# compare-exchange of -0.0 with expected +0.0 fails (bits differ) and returns -0.0
# (0x80000000) in `expected`, the retry stores 1.0 (0x3f800000); one with the stored NaN as
# expected succeeds (same bits) and stores 2.0 (0x40000000).
name: atomic_float exchange moves bits
kernel_name: float_xchg
global_size: 32 0 0
local_size: 32 0 0
arg_in:  0 buffer float[3] 0 0 0
arg_in:  1 buffer float[32] repeat 0
arg_out: 2 buffer float[2] 528 33
arg_out: 3 buffer uint[8] 0x7fc00123 0x7fc00123 0 0x80000000 1 0x3f800000 1 0x40000000

[test]
# Program-scope atomics: total = 1000 + (0+...+7) + 100 (the one work-item that sets the
# flag first) = 1128; table[k] = k+1 plus the ids i with i % 4 == k: 1+0+4, 2+1+5, 3+2+6,
# 4+3+7; a local counter from 10 plus 8. Then a weak compare-exchange (never spurious here)
# succeeds on its first try, clear and test-and-set, and sizeof(atomic_flag) +
# sizeof(atomic_float) = 8.
name: program-scope atomics, atomic_init, a generic-pointer helper
kernel_name: program_scope
global_size: 8 0 0
local_size: 8 0 0
arg_out: 0 buffer int[11] 1128 5 8 11 14 18 1 -1 0 1 8
!*/

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void push_list(global atomic_int *head, global int *next, global uint *summary,
                      global atomic_uint *failures)
{
    int i = get_global_id(0);
    int old = -1;
    next[i] = old;
    while (!atomic_compare_exchange_weak_explicit(head, &old, i, memory_order_release,
                                                  memory_order_relaxed)) {
        atomic_fetch_add_explicit(failures, 1u, memory_order_relaxed);
        next[i] = old;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (i == 0) {
        uint count = 0, sum = 0, lo = 0, hi = 0, dup = 0;
        int first = atomic_load_explicit(head, memory_order_acquire);
        for (int n = first; n != -1 && count < 100; n = next[n]) {
            uint bit = 1u << (n % 32);
            if (n < 32) {
                dup += (lo & bit) != 0;
                lo |= bit;
            } else {
                dup += (hi & bit) != 0;
                hi |= bit;
            }
            count++;
            sum += n;
        }
        summary[0] = count;
        summary[1] = sum;
        summary[2] = lo;
        summary[3] = hi;
        summary[4] = dup;
        summary[5] = first >= 0 && first < 64;
        summary[6] = atomic_load(failures) >= 63;
    }
}

kernel void append(global const int *in, global atomic_uint *count, global int *list,
                   global uint *summary)
{
    int v = in[get_global_id(0)];
    if (v % 3 == 0) {
        uint slot = atomic_load_explicit(count, memory_order_relaxed);
        while (!atomic_compare_exchange_strong_explicit(count, &slot, slot + 1,
                                                        memory_order_acq_rel,
                                                        memory_order_acquire))
            ;
        list[slot] = v;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (get_global_id(0) == 0) {
        uint n = atomic_load(count), sum = 0;
        ulong seen = 0;
        for (uint k = 0; k < n; k++) {
            sum += list[k];
            seen ^= 1ul << list[k];
        }
        summary[0] = n;
        summary[1] = sum;
        // xor of one bit per value: 22 bits when every value came once
        summary[2] = popcount(seen) == n;
    }
}

kernel void histogram(global const uint *in, global atomic_uint *gbins,
                      global atomic_uint *fromlocal, global atomic_int *down)
{
    local atomic_uint lbins[16];
    uint lid = get_local_id(0);
    if (lid < 16)
        atomic_init(&lbins[lid], 0u);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint x = in[get_global_id(0)];
    uint b = (x * 7u + x / 5u) % 16u;
    atomic_fetch_add_explicit(&gbins[b], 1u, memory_order_relaxed, memory_scope_device);
    atomic_fetch_add_explicit(&lbins[b], 1u, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_sub(&down[b], 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 16)
        atomic_fetch_add(&fromlocal[lid], atomic_load(&lbins[lid]));
}

kernel void minmax(global const int *in, global atomic_int *s, global atomic_uint *u,
                   global atomic_uint *bits, global int *local_out)
{
    local atomic_int lmin, lmax;
    int v = in[get_global_id(0)];
    if (get_local_id(0) == 0) {
        atomic_init(&lmin, INT_MAX);
        atomic_init(&lmax, INT_MIN);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_fetch_min(&s[0], v);
    atomic_fetch_max(&s[1], v);
    atomic_fetch_min(&u[0], (uint)v);
    atomic_fetch_max(&u[1], (uint)v);
    atomic_fetch_and(&bits[0], (uint)v);
    atomic_fetch_or(&bits[1], (uint)v);
    atomic_fetch_xor(&bits[2], (uint)v);
    atomic_fetch_min_explicit(&lmin, v, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_max_explicit(&lmax, v, memory_order_relaxed);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        local_out[2 * get_group_id(0)] = atomic_load(&lmin);
        local_out[2 * get_group_id(0) + 1] = atomic_load(&lmax);
    }
}

kernel void flags(global atomic_flag *flags, global atomic_uint *stats, global uint *out)
{
    uint i = get_global_id(0);
    uint x = (i * i) % 13u;
    if (!atomic_flag_test_and_set_explicit(&flags[x], memory_order_acq_rel, memory_scope_device))
        atomic_fetch_add(&stats[0], 1u);
    else
        atomic_fetch_add(&stats[1], 1u);
    if (i < 4) {
        out[i] = atomic_flag_test_and_set(&flags[13 + i]);
        atomic_flag_clear_explicit(&flags[17 + i], memory_order_release);
    }
}

kernel void wide(global atomic_ulong *u, global atomic_long *s, global ulong *out)
{
    ulong i = get_global_id(0);
    atomic_fetch_add(&u[0], 0x100000001ul * i);
    atomic_fetch_sub(&u[1], 0x200000000ul);
    atomic_fetch_max(&u[2], (i << 36) | i);
    atomic_fetch_min(&u[3], 0xF000000000000000ul - (i << 40));
    atomic_fetch_or(&u[4], 1ul << (32 + i));
    atomic_fetch_xor(&u[5], 0x8000000000000001ul);
    atomic_fetch_and(&u[6], ~(1ul << (63 - i)));
    atomic_fetch_min(&s[0], -(long)(i << 33));
    atomic_fetch_max_explicit(&s[1], (long)i - 0x100000000l, memory_order_relaxed,
                              memory_scope_device);
    if (i == 0) {
        out[0] = atomic_exchange(&u[7], 0x123456789abcdef0ul);
        ulong e = 0x0000000089abcdeful;
        out[1] = atomic_compare_exchange_strong(&u[7], &e, 5ul);
        out[2] = e;
        out[3] = atomic_compare_exchange_strong(&u[7], &e, 0xfedcba9876543210ul);
        atomic_store(&u[8], 0xffffffff00000001ul);
        out[4] = atomic_load_explicit(&u[8], memory_order_acquire);
    }
}

kernel void float_xchg(global atomic_float *cell, global float *old, global float *summary,
                       global uint *bits)
{
    uint i = get_global_id(0);
    old[i] = atomic_exchange(cell, (float)(i + 1));
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (i == 0) {
        float last = atomic_load(cell);
        float sum = last;
        ulong seen = 1ul << (int)last;
        for (int j = 0; j < 32; j++) {
            sum += old[j];
            seen |= 1ul << (int)old[j];
        }
        summary[0] = sum;
        summary[1] = (float)popcount(seen);
        atomic_store(&cell[1], as_float(0x7fc00123u));
        bits[0] = as_uint(atomic_load(&cell[1]));
        bits[1] = as_uint(atomic_exchange(&cell[1], -0.0f));
        float e = 0.0f;
        bits[2] = atomic_compare_exchange_strong(&cell[1], &e, 1.0f);
        bits[3] = as_uint(e);
        bits[4] = atomic_compare_exchange_strong(&cell[1], &e, 1.0f);
        bits[5] = as_uint(atomic_load(&cell[1]));
        float n = as_float(0x7fc00123u);
        atomic_store(&cell[2], n);
        bits[6] = atomic_compare_exchange_strong(&cell[2], &n, 2.0f);
        bits[7] = as_uint(atomic_load(&cell[2]));
    }
}

global atomic_int total = ATOMIC_VAR_INIT(1000);
global atomic_uint table[4] = {1, 2, 3, 4};
global atomic_flag once = ATOMIC_FLAG_INIT;

/* a generic pointer: called with global and local objects */
uint bump(atomic_uint *p, uint by)
{
    return atomic_fetch_add_explicit(p, by, memory_order_relaxed);
}

kernel void program_scope(global int *out)
{
    uint i = get_global_id(0);
    local atomic_uint lcount;
    if (get_local_id(0) == 0)
        atomic_init(&lcount, 10u);
    work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
    atomic_fetch_add(&total, (int)i);
    bump(&table[i % 4], i);
    bump(&lcount, 1u);
    if (!atomic_flag_test_and_set(&once))
        atomic_fetch_add(&total, 100);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (i == 0) {
        out[0] = atomic_load(&total);
        for (int k = 0; k < 4; k++)
            out[1 + k] = atomic_load(&table[k]);
        out[5] = atomic_load(&lcount);
        int e = 1128;
        out[6] = atomic_compare_exchange_weak(&total, &e, -1);
        out[7] = atomic_load_explicit(&total, memory_order_seq_cst, memory_scope_device);
        atomic_flag_clear(&once);
        out[8] = atomic_flag_test_and_set(&once);
        out[9] = atomic_flag_test_and_set(&once);
        atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_relaxed,
                               memory_scope_work_group);
        out[10] = sizeof(atomic_flag) + sizeof(atomic_float);
    }
}
