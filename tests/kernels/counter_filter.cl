/*!
[config]
name: atomic counter taken by the work-items that match a condition

[test]
name: 300 work-items in groups of 16, 120 of them match
kernel_name: count_matching
dimensions: 1
global_size: 300 1 1
local_size: 16 1 1
arg_in:  0 buffer int[300] -870 919 604 301 -658 -587 694 154 -559 -230 71 -698 -855 37 -498 -506 187 402 -734 -281 \
    -999 3 -711 -288 105 365 883 748 227 425 -682 -674 -51 -814 688 -98 716 134 -522 96 \
    627 647 -918 -424 -602 426 -153 -846 -104 -161 744 -954 895 -487 -910 -636 699 -737 461 -759 \
    78 -847 -415 -953 948 844 450 -824 901 25 -810 -41 236 786 -664 919 -744 -284 20 -27 \
    226 -829 -398 -288 -283 67 -979 247 -161 304 -683 909 -248 -347 -397 -314 739 936 -701 705 \
    293 -729 830 -532 758 -905 720 598 -383 393 796 -183 173 -494 665 104 468 465 -533 -927 \
    280 -382 393 501 -994 -530 929 -234 -416 -943 814 -255 -635 256 -547 195 -168 -122 -776 977 \
    -197 924 -691 -300 -400 -758 -811 -858 -980 58 64 922 574 166 687 -639 606 -663 -523 -877 \
    -980 -854 -330 -245 -191 335 -233 -859 -377 -468 294 795 -762 892 499 849 -738 -839 43 -598 \
    481 358 -812 584 787 961 -24 281 -146 874 991 797 979 -460 -791 528 -182 -852 -678 -711 \
    -881 -500 384 666 -184 -173 -423 -322 67 -527 -17 139 -950 -819 833 378 970 -232 -264 143 \
    -234 22 -476 199 473 -593 824 -57 471 -932 915 -113 -9 428 -552 709 -769 37 -657 -398 \
    -356 -470 -12 10 188 -256 -46 -28 929 127 -9 -599 485 -852 -307 -496 900 642 -833 637 \
    551 -296 -660 -567 -410 -250 493 974 -29 647 -278 -219 -23 -503 984 402 65 -669 -914 186 \
    -197 -85 -353 563 630 -728 -789 786 -214 -582 -397 799 -911 268 -267 -500 557 -232 798 -307
arg_in:  1 buffer uint[300] repeat 0
arg_out: 1 buffer uint[300] 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 \
    1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 \
    1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
arg_in:  2 buffer uint[1] 100
arg_out: 2 buffer uint[1] 220
arg_in:  3 uint 100

[test]
name: no work-item matches
kernel_name: count_matching
dimensions: 1
global_size: 8 1 1
local_size: 8 1 1
arg_in:  0 buffer int[8] repeat 3 4 5 6 7
arg_in:  1 buffer uint[8] repeat 0
arg_out: 1 buffer uint[8] repeat 0
arg_in:  2 buffer uint[1] 7
arg_out: 2 buffer uint[1] 7
arg_in:  3 uint 7

[test]
name: the old values themselves, in any order
launch: record 40 8
buffer: in int[40] -8 -8 -9 6 -49 -5 -23 -4 -46 43 4 0 -12 -3 -19 1 45 -44 38 21 \
    23 -29 -38 -39 33 32 31 45 27 31 28 2 16 35 3 -18 48 -37 3 -39
buffer: slots uint[40] repeat 0
buffer: ctr uint[1] 4000000000
arg: record 0 in
arg: record 1 slots
arg: record 2 ctr
expect: slots uint[40] unordered 4000000000 4000000001 4000000002 4000000003 4000000004 4000000005 4000000006 4000000007 4000000008 4000000009 \
    4000000010 4000000011 4000000012 4000000013 4294967295 4294967295 4294967295 4294967295 4294967295 4294967295 \
    4294967295 4294967295 4294967295 4294967295 4294967295 4294967295 4294967295 4294967295 4294967295 4294967295 \
    4294967295 4294967295 4294967295 4294967295 4294967295 4294967295 4294967295 4294967295 4294967295 4294967295
expect: ctr uint[1] 4000000014
!*/

// Work-items whose value v has (v & 7) < 3 take the next value of counter `c` (from 100). The
// old values are distinct and all of them are taken, so `seen[old - base]` marks exactly the
// first k entries (k, the number of matches, computed independently with Python: 120 of the
// 300 inputs), and the counter ends at 100 + k. A duplicated value would leave a hole. The
// last test checks the old values themselves (k2 = 14 of 40 match: 4000000000 ..
// 4000000013, the others store -1), as a multiset: which work-item gets which is not defined.
#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable

kernel void count_matching(global const int *restrict in, global uint *restrict seen,
                           counter32_t c, uint base) {
  size_t i = get_global_id(0);
  if ((in[i] & 7) < 3) {
    uint slot = atomic_inc(c);
    seen[slot - base] = 1;
  }
}

kernel void record(global const int *restrict in, global uint *restrict slots, counter32_t c) {
  size_t i = get_global_id(0);
  if ((in[i] & 7) < 3)
    slots[i] = atomic_inc(c);
  else
    slots[i] = 0xffffffffu;
}

// corpus-sim hostile_memory: --stall-prob 0.6 --max-latency 30 --seed 5
