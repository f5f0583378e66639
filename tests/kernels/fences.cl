/*!
[config]
name: fences order accesses to different buffers

[test]
name: publish data then flag, read back
kernel_name: publish
dimensions: 1
global_size: 8 0 0
local_size: 8 0 0
arg_out: 0 buffer int[8] 0 10 20 30 40 50 60 70
arg_out: 1 buffer int[8] 1 1 1 1 1 1 1 1
arg_out: 2 buffer int[8] 0 10 20 30 40 50 60 70
arg_in: 0 buffer int[8] repeat 0
arg_in: 1 buffer int[8] repeat 0
arg_in: 2 buffer int[8] repeat 0
!*/
kernel void publish(global int *restrict data, global int *restrict flag, global int *restrict seen)
{
    int i = get_global_id(0);
    data[i] = 10 * i;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    flag[i] = 1;
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
    seen[i] = data[i];
}
// corpus-sim: --stall-prob 0.3 --max-latency 30 --seed 5
