/*! [config]
name: vadd
[test]
arg a = int[16] 1..16
!*/
kernel void vadd(global const int *a, global const int *b, global int *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
