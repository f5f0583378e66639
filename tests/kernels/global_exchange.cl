/*!
[config]
kernel_name: global_exchange
dimensions: 1

[test]
name: neighbours exchange through global memory across a barrier
global_size: 8 1 1
local_size: 4 1 1
arg_out: 0 buffer int[8] 0 2 4 6 8 10 12 14
arg_out: 1 buffer int[8] 2 4 6 0  10 12 14 8
!*/

// A barrier with a global fence: every work-item of the group has stored its value before
// any reads its neighbour's. The phase after the barrier starts only when the writes of the
// phase before are acknowledged by memory. buf[g] = 2g; out[g] = buf[group base + next lid].
__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void global_exchange(global int *restrict buf, global int *restrict out) {
  int g = get_global_id(0);
  buf[g] = g * 2;
  barrier(CLK_GLOBAL_MEM_FENCE);
  int base = get_group_id(0) * 4;
  out[g] = buf[base + ((get_local_id(0) + 1) & 3)];
}

// corpus-sim: --stall-prob 0.5 --max-latency 20
