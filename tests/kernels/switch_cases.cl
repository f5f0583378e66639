/*!
[config]
name: switch in hardware: fall-through, default in the middle, break and continue in loops

[test]
name: labels, fall-through and the default
kernel_name: classify
dimensions: 1
global_size: 12 1 1
local_size: 4 1 1
arg_in:  0 buffer int[12] 0 1 2 3 4 5 6 7 -1 100 9 3
arg_out: 1 buffer int[12] 10 21 21 300 1300 42 7 1007 1300 1300 5 300

[test]
name: a switch inside a loop, with break, continue and a nested switch
kernel_name: walk
dimensions: 1
global_size: 4 1 1
local_size: 4 1 1
arg_in:  0 buffer uint[4] 0 1 2 3
arg_out: 1 buffer uint[4] 2265 4268 2268 4268

[test]
name: a break after a continue is not reached
kernel_name: skip_then_stop
dimensions: 1
global_size: 1 1 1
local_size: 1 1 1
arg_out: 0 buffer uint[1] 6
!*/

// The expected values come from a Python model of each function written with C's switch
// semantics spelled out (the body a value enters, falling through until a `break`):
// classify: 0 -> 10; 1, 2 -> 21; 3 -> 300 (odd: breaks before the default); 4, -1, 100 (no
// label) -> the default in the middle, 1300; 5 -> 42; 6 -> 7 (falls into case 7, which
// changes nothing for 6); 7 -> 1007; 9 -> 5 (the last case, no break).
kernel void classify(global const int *in, global int *out) {
  int i = get_global_id(0);
  int x = in[i];
  int r = 0;
  switch (x) {
  case 0:
    r = 10;
    break;
  case 1:
  case 2:
    r = 21;
    break;
  case 3:
    r = 300;
    if (x & 1)
      break;
  default:
    r = 1300;
    break;
  case 5:
    r = 42;
    break;
  case 6:
    r = 7;
  case 7:
    if (x == 7)
      r = 1000 + x;
    break;
  case 9:
    r = 5;
  }
  out[i] = r;
}

// walk: for j in 0..8, k = (j + x) % 4: 0 adds 100; 1 adds 1 and `continue`s (skipping the
// 10 added after the switch); 2 adds 1000 or 2000 by a nested switch on j & 1; 3 adds 3,
// except at j == 7 where `break` leaves the switch (not the loop). Then 10 is added.
kernel void walk(global const uint *in, global uint *out) {
  uint x = in[get_global_id(0)];
  uint acc = 0;
  for (uint j = 0; j < 8; j++) {
    switch ((j + x) % 4) {
    case 0:
      acc += 100;
      break;
    case 1:
      acc += 1;
      continue;
    case 2:
      switch (j & 1) {
      case 0:
        acc += 1000;
        break;
      default:
        acc += 2000;
      }
      break;
    case 3:
      if (j == 7)
        break;
      acc += 3;
    }
    acc += 10;
  }
  out[get_global_id(0)] = acc;
}

// skip_then_stop: iterations j = 0..4 `continue` before the `break`; j = 5 reaches it, so the
// loop body runs 6 times. (Lowering once let the `break` after a taken `continue` count.)
kernel void skip_then_stop(global uint *out) {
  uint n = 0;
  for (uint j = 0; j < 8; j++) {
    n += 1;
    if (j < 5)
      continue;
    break;
  }
  out[0] = n;
}
