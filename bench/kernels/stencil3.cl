/*!
[config]
kernel_name: stencil3
dimensions: 1

[test]
name: 1-2-1 stencil over 16 points
global_size: 16 1 1
arg_in:  0 buffer int[18] 547 -497 903 678 929 -54 -295 49 -274 828 74 -487 588 -53 -779 207 532 599
arg_out: 1 buffer int[16] 456 1987 3188 2482 526 -595 -471 329 1456 489 -312 636 -297 -1404 167 1870
!*/

// A 1-D 3-point stencil: three reads of one buffer per work-item share its single read
// port, so the II is limited by memory ports (II = 3) and the report names the port.
// Expected values computed independently (Python).
kernel void stencil3(global const int *restrict a, global int *restrict out) {
  int i = get_global_id(0);
  out[i] = a[i] + 2 * a[i + 1] + a[i + 2];
}
