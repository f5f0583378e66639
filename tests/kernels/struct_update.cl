/*!
[config]
kernel_name: struct_update
dimensions: 1

[test]
name: struct_update load, modify fields, store; padding kept; one field stored alone
global_size: 2 1 1
local_size: 2 1 1
arg_in:  0 buffer int[12] 0x0064ab03 7 1000 0 0x3fc00000 0xdeadbeef   0xffff11fe -100 0xfffffffb 0xffffffff 0x80000000 0x12345678
arg_out: 0 buffer int[12] 0x0065ab0a 19 997 0 0x3fc00000 0xdeadbeef   0x0000110b -199 -3 -1 0x80000000 0x12345678
arg_in:  1 buffer int[2] 5 1
!*/

// struct pkt is 24 bytes: tag @0, a padding byte @1, count @2, value @4, stamp @8,
// weight @16, 4 padding bytes @20 (alignment 8). The buffer is given as ints:
//   int 0 = tag | pad << 8 | count << 16, int 1 = value, ints 2-3 = stamp, int 4 = weight's
//   bits, int 5 = the trailing padding.
// A pkt is one 192-bit access; `p[i].tag = ...` writes only byte 0 (a byte strobe). The
// padding bytes (0xab, 0x11, 0xdeadbeef, 0x12345678) come back unchanged, as the emulator
// copies structs as bytes. Expected by hand:
//   item 0: tag 3, count 100, value 7, stamp 1000, add 5:
//           count 101 (0x65), value 7*2+5 = 19, stamp 1000-3 = 997, then tag = 0+10 = 0x0a
//   item 1: tag -2 (0xfe), count -1, value -100, stamp -5, add 1:
//           count 0, value -200+1 = -199, stamp -5-(-2) = -3, then tag = 1+10 = 0x0b
typedef struct {
  char tag;
  short count;
  int value;
  long stamp;
  float weight;
} pkt;

kernel void struct_update(global pkt *p, global const int *add) {
  size_t i = get_global_id(0);
  pkt s = p[i];
  s.count += 1;
  s.value = s.value * 2 + add[i];
  s.stamp = s.stamp - s.tag;
  p[i] = s;
  p[i].tag = (char)(i + 10);
}

// corpus-sim: --stall-prob 0.5 --max-latency 12 --seed 4
