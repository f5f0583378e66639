// kernel-fuzz 240 2525, case 71: crash [verilator-build], reduced in 121 s (62 of 113 candidates kept)
/*!
[config]
name: kernel-fuzz seed 2525 case 71
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
launch: fuzz 16 8
launch: sink 16
pipe: p uchar2 5
buffer: b0 uint[16] 4294967295 2992653666 3671851319 397299418 30 1775584386 4294967295 3803167185 3443669693 5 0 0 0 3291483273 1016997395 4278438124
arg: fuzz 0 b0
buffer: b1 uchar2[16] 
arg: fuzz 1 b1
buffer: b2 uint[4] 22 27 28 3
arg: fuzz 2 b2
arg: fuzz 3 p
arg: fuzz 4 uint 5
buffer: dst uchar2[16]
arg: sink 0 p
arg: sink 1 dst
expect: b1 uchar2[16] 0 0 1 0 3 0 6 0 0 0 0 0 0 0 0 0 1 0 3 0 7 0 14 0 0 0 0 0 0 0 0 0
expect: b2 uint[4] 22 27 28 3
expect: dst uchar2[16] unordered 14 0 0 0 3 0 3 0 1 0 6 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 7 0 0 0
!*/

kernel void fuzz(global const uint *in0, global uchar2 *out0, global uint *acc, write_only pipe uchar2 pout, uint n) {
  size_t gid = get_global_id(0);
  uint a0 = in0[gid];
  atomic_xor(&acc[((uint)(a0)) & 3U], (uint)(((ushort)0x5U)));
  uchar2 pv = ((uchar2)(((uchar2)(((uchar2)(((uchar)(gid)), ((uchar)(gid)))) ^ ((uchar2)(((uchar)(n)) ? ((uchar2)(((uchar)(n)), ((uchar)0x0U))) : ((uchar2)(((uchar)0x0U), ((uchar)0x0U))))))) >> as_uchar2((as_uchar2(((uchar2)(((uchar2)(((uchar)0x3U), ((uchar)0xfU))) ^ ((uchar2)(((uchar)(gid)), ((uchar)0x0U)))))) & (uchar2)(7)))));
  out0[gid] = pv;
  write_pipe_block(pout, &pv);
}

kernel void sink(read_only pipe uchar2 pin, global uchar2 *dst) {
  uchar2 v;
  read_pipe_block(pin, &v);
  dst[get_global_id(0)] = v;
}
