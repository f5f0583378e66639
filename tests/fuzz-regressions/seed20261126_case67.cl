// kernel-fuzz 10000 20261126, case 67: hang [cycles], reduced in 646 s (21 of 25 candidates kept)
// Fixed: `sink` reserves one packet at a time (a retry loop, lowered to a blocking
// reservation) and commits two stages later, on a pipe of 2 packets. Two work-items in flight
// held both packets reserved, the third waited to reserve and stalled the pipeline, so the
// two could not commit and `fuzz` found no room: a deadlock the emulator (one work-item after
// the other) never meets. The FIFO now has SLACK places for reservations in flight
// (hwcontract::pipe::reservation_slack): 4 here (4 table entries of 1 packet).
// corpus-sim: --seed 7 --stall-prob 0.4 --max-latency 12
/*!
[config]
name: kernel-fuzz seed 20261126 case 67
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
launch: fuzz 11 7
launch: sink 11
pipe: p ulong2 2
buffer: b0 uchar2[11] 237 70 129 128 255 79 255 6 136 4 0 0 18 0 128 115 12 71 138 255 11 74
arg: fuzz 0 b0
buffer: b1 ushort[11] 7449 38665 13 29 0 32768 25288 65535 24778 32768 13
arg: fuzz 1 b1
buffer: b2 ulong2[11] 
arg: fuzz 2 b2
arg: fuzz 3 p
arg: fuzz 4 uint 4
buffer: dst ulong2[11]
arg: sink 0 p
arg: sink 1 dst
expect: b2 ulong2[11] 3726 3726 19334 19334 4 4 12 12 2 2 16386 16386 12646 12646 32765 32765 12391 12391 16386 16386 4 4
expect: dst ulong2[11] unordered 16386 16386 12646 12646 4 4 19334 19334 3726 3726 2 2 32765 32765 12 12 12391 12391 16386 16386 4 4
!*/

kernel void fuzz(global const uchar2 *in0, global const ushort *in1, global ulong2 *out0, write_only pipe ulong2 pout, uint n) {
  size_t gid = get_global_id(0);
  uchar2 a0 = in0[gid];
  ushort a1 = in1[gid];
  ulong2 pv = ((ulong2)(hadd(((ulong2)(abs_diff(((long2)(((long2)(((long)(a1)), ((long)(a1)))) ^ ((long2)(((long)0x4UL), ((long)0x5UL))))), ((long2)(((long)0x0UL), ((long)0x0UL)))))), ((ulong2)(((ulong)0x0UL), ((ulong)0x0UL))))));
  out0[gid] = pv;
  write_pipe_block(pout, &pv);
}

kernel void sink(read_only pipe ulong2 pin, global ulong2 *dst) {
  ulong2 v;
  reserve_id_t rid;
  do {
    rid = reserve_read_pipe(pin, 1U);
  } while (!is_valid_reserve_id(rid));
  read_pipe(pin, rid, 0U, &v);
  commit_read_pipe(pin, rid);
  dst[get_global_id(0)] = v;
}
