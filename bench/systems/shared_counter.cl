/*!
[config]
name: shared counter throughput

[test]
name: one kernel alone
launch: up_a 65536 256
buffer: ctr uint[1] 0
arg: up_a 0 ctr
expect: ctr uint[1] 65536

[test]
name: two kernels at once
launch: up_a 65536 256
launch: up_b 65536 256
buffer: ctr uint[1] 0
arg: up_a 0 ctr
arg: up_b 0 ctr
expect: ctr uint[1] 131072

[test]
name: three kernels at once, one unrolled by 4
launch: up_a 65536 256
launch: up_b 65536 256
launch: up_c 16384 256
buffer: ctr uint[1] 0
arg: up_a 0 ctr
arg: up_b 0 ctr
arg: up_c 0 ctr
expect: ctr uint[1] 196608
!*/
#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable
kernel void up_a(counter32_t c) { atomic_inc(c); }
kernel void up_b(counter32_t c) { atomic_inc(c); }
kernel void up_c(counter32_t c) {
#pragma unroll
  for (int k = 0; k < 4; k++) atomic_inc(c);
}
