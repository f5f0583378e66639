// kernel-fuzz 10000 20261126, case 4612 (fixed: an async copy's read run, `n - i`, was carried down the pipeline to its load even when the port does not burst, where nothing reads it; found at `a191efd`, the commit that added read runs, in 9 of the next 110 cases): crash [lint %Warning-UNUSEDSIGNAL], reduced in 662 s (22 of 44 candidates kept)
/*!
[config]
name: kernel-fuzz seed 20261126 case 4612
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 16 1 1
local_size: 16 1 1
arg_in: 0 buffer ushort[16] 27 54876 60004 0 65535 65535 0 65535 65535 32768 0 20475 36607 40168 32768 55728
arg_in: 3 uint 1
arg_out: 1 buffer uint[16] 1077936128 1077936128 1077936128 1077936128 1077936128 1077936128 1077936128 1077936128 1077936128 1077936128 1077936128 1077936128 1077936128 1077936128 1077936128 1077936128
arg_out: 2 buffer uint[16] 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
!*/

kernel void fuzz(global const ushort *in0, global float *out0, global uint *lhout, uint n) {
  size_t gid = get_global_id(0);
  ushort a0 = in0[gid];
  uint lid = (uint)get_local_id(0);
  local long lx[16];
  local uint lh[16];
  lh[lid] = 0U;
  lx[lid] = ((long)((ulong)(((long)((ulong)(((long)(gid))) - (ulong)(((long)(gid)))))) << (((uint)(((long)0x0UL))) & 63U)));
  barrier(CLK_LOCAL_MEM_FENCE);
  long xchg = lx[(lid + 5U) & 15U];
  local ushort lc[16];
  event_t ce = async_work_group_copy(lc, in0 + get_group_id(0) * 16U, 16U, 0);
  wait_group_events(1, &ce);
  ushort cin = lc[(lid + 8U) & 15U];
  char v3 = ((char)(as_char(((uchar)(cin))) & ((char)(((float)(a0)) ? ((char)(lid)) : ((char)0x0U)))));
  atomic_min(&lh[((uint)(((ushort)0x0U))) & 15U], (uint)(((ulong)(v3))));
  barrier(CLK_LOCAL_MEM_FENCE);
  lhout[gid] = lh[lid];
  out0[gid] = as_float(0x40400000U);
}
