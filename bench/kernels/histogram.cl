/*!
[config]
kernel_name: histogram
dimensions: 1

[test]
name: 8-bin histogram of 40 bytes
global_size: 1 1 1
arg_in:  0 buffer uint[40] 197 34 8 0 109 107 26 240 192 203 214 37 101 138 172 44 159 170 7 209 60 68 126 51 5 30 238 249 90 96 229 97 67 214 196 59 202 215 108 0
arg_out: 1 buffer uint[8] 6 3 6 5 6 6 5 3
arg_in:  2 int 40
!*/

// A histogram in local memory: each element increments bin (x & 7), a read-modify-write
// whose loop-carried dependence through the memory is only known at run time. Expected
// values computed independently (Python).
__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void histogram(global const uint *restrict x, global uint *restrict bins, int n) {
  local uint h[8];
  for (int b = 0; b < 8; b++)
    h[b] = 0;
  for (int j = 0; j < n; j++)
    h[x[j] & 7] += 1;
  for (int b = 0; b < 8; b++)
    bins[b] = h[b];
}
