/*!
[config]
dimensions: 1
global_size: 1 1 1

[test]
name: rectangle 3x4
kernel_name: rect_scale
arg_in:  0 buffer int[12] iota 0 1
arg_in:  1 buffer int[12] repeat 9
arg_out: 1 buffer int[12] 0 2 4 6 9 11 13 15 18 20 22 24
arg_in:  2 int 3
arg_in:  3 int 4

[test]
name: rectangle without rows
kernel_name: rect_scale
arg_in:  0 buffer int[12] iota 0 1
arg_in:  1 buffer int[12] repeat 9
arg_out: 1 buffer int[12] repeat 9
arg_in:  2 int 0
arg_in:  3 int 4

[test]
name: rectangle with empty rows
kernel_name: rect_scale
arg_in:  0 buffer int[12] iota 0 1
arg_in:  1 buffer int[12] repeat 9
arg_out: 1 buffer int[12] repeat 9
arg_in:  2 int 3
arg_in:  3 int 0

[test]
name: triangle whose first row is empty
kernel_name: tri_coalesce
arg_in:  0 buffer int[16] repeat -1
arg_out: 0 buffer int[16] 10 20 21 30 31 32 40 41 42 43 50 51 52 53 54 15
arg_in:  1 int 6

[test]
name: three levels
kernel_name: nest3
arg_in:  0 buffer int[5] 3 1 4 1 5
arg_in:  1 buffer int[4] repeat 0
arg_out: 1 buffer int[4] 3312 2 3 4
arg_in:  2 int 2
arg_in:  3 int 3
arg_in:  4 int 4

[test]
name: three levels, the middle one empty
kernel_name: nest3
arg_in:  0 buffer int[5] 3 1 4 1 5
arg_in:  1 buffer int[4] repeat 0
arg_out: 1 buffer int[4] 0 3 0 7
arg_in:  2 int 3
arg_in:  3 int 0
arg_in:  4 int 4

[test]
name: three levels, the innermost empty
kernel_name: nest3
arg_in:  0 buffer int[5] 3 1 4 1 5
arg_in:  1 buffer int[4] repeat 0
arg_out: 1 buffer int[4] 0 2 2 0
arg_in:  2 int 2
arg_in:  3 int 2
arg_in:  4 int 0

[test]
name: three levels, none run
kernel_name: nest3
arg_in:  0 buffer int[5] 3 1 4 1 5
arg_in:  1 buffer int[4] repeat 0
arg_out: 1 buffer int[4] 0 0 8 7
arg_in:  2 int 0
arg_in:  3 int 2
arg_in:  4 int 2

[test]
name: break and continue in the inner loop
kernel_name: break_continue
arg_in:  0 buffer int[16] 1 2 3 -4 5 7 9 11 -1 3 5 6 8 9 -2 1
arg_in:  1 buffer int[16] repeat 0
arg_out: 1 buffer int[16] 3 0 9 0 15 21 27 33 0 0 0 0 0 27 0 0
arg_in:  2 int 4
arg_in:  3 int 4

[test]
name: a nest in every work-item
kernel_name: ndrange_nest
global_size: 5 1 1
arg_in:  0 buffer int[30] repeat 0
arg_out: 0 buffer int[30] 0 0 0 0 1 2 1 1 1 1 2 3 2 2 2 2 3 4 3 3 3 3 4 5 4 4 4 4 5 6
arg_in:  1 int 3

[test]
name: upper triangle
kernel_name: upper
arg_in:  0 buffer int[25] repeat 0
arg_out: 0 buffer int[25] 0 1 4 9 16 0 2 5 10 17 0 0 6 11 18 0 0 0 12 19 0 0 0 0 20
arg_in:  1 int 5

[test]
name: find 9
kernel_name: find_first
arg_in:  0 buffer int[12] 5 3 8 8 1 9 2 7 8 4 6 0
arg_in:  1 buffer int[1] repeat -1
arg_out: 1 buffer int[1] 5
arg_in:  2 int 9

[test]
name: find nothing
kernel_name: find_first
arg_in:  0 buffer int[12] 5 3 8 8 1 9 2 7 8 4 6 0
arg_in:  1 buffer int[1] repeat -1
arg_out: 1 buffer int[1] -1
arg_in:  2 int 11

[test]
name: find the first 8 of three
kernel_name: find_first
arg_in:  0 buffer int[12] 5 3 8 8 1 9 2 7 8 4 6 0
arg_in:  1 buffer int[1] repeat -1
arg_out: 1 buffer int[1] 2
arg_in:  2 int 8
[test]
name: code beside the inner loop
kernel_name: imperfect
arg_in:  0 buffer int[12] iota 1 1
arg_in:  1 buffer int[5] repeat -1
arg_out: 1 buffer int[5] 10 27 44 81 -1
arg_in:  2 int 3
arg_in:  3 int 4

[test]
name: code beside empty inner loops
kernel_name: imperfect
arg_in:  0 buffer int[12] iota 1 1
arg_in:  1 buffer int[5] repeat -1
arg_out: 1 buffer int[5] 0 1 2 3 -1
arg_in:  2 int 3
arg_in:  3 int 0

[test]
name: code beside a loop that never starts
kernel_name: imperfect
arg_in:  0 buffer int[12] iota 1 1
arg_in:  1 buffer int[5] repeat -1
arg_out: 1 buffer int[5] 0 -1 -1 -1 -1
arg_in:  2 int 0
arg_in:  3 int 4

[test]
name: matrix product 4x4
kernel_name: matmul
arg_in:  0 buffer int[16] -2 1 -3 0 3 -1 2 -2 1 -3 0 3 -1 2 -2 1
arg_in:  1 buffer int[16] -2 3 -1 4 0 -4 1 -3 2 -2 3 -1 4 0 -4 1
arg_out: 2 buffer int[16] -2 -4 -6 -8 -10 9 10 11 10 15 -16 16 2 -7 -7 -7
arg_in:  3 int 4
!*/

// Loop nests flattened into one pipeline (hls-ir/src/lower/flatten.rs): rectangles with
// empty rows, a triangle whose first row is empty, three levels whose counters are declared
// outside (their values after the nest are checked), break and continue in the innermost
// body (kept nested: flattened, its II would grow), a nest in every work-item, a counted loop
// starting at the outer counter and scheduled at the II it asks for (3), a return from inside
// the nest, and nests with code beside the inner loop (a row sum, and a matrix product whose
// loops over j and k flatten). Expected values: scripts/gen_nest_flatten.py (a Python model).

kernel void rect_scale(global const int *restrict a, global int *restrict out, int rows, int cols) {
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      out[r * cols + c] = 2 * a[r * cols + c] + r;
}

kernel void tri_coalesce(global int *out, int n) {
  int k = 0;
  #pragma loop_coalesce
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      out[k++] = i * 10 + j;
    }
  }
  out[15] = k;
}

kernel void nest3(global const int *restrict w, global int *restrict out, int a, int b, int c) {
  int i, j = 8, k = 7, s = 0;
  #pragma loop_coalesce
  for (i = 0; i < a; i++)
    for (j = 0; j < b; j++)
      for (k = 0; k < c; k++)
        s += (i * 100 + j * 10 + k) * w[k];
  out[0] = s;
  out[1] = i;
  out[2] = j;
  out[3] = k;
}

kernel void break_continue(global const int *restrict a, global int *restrict out, int rows, int cols) {
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      int v = a[r * cols + c];
      if (v < 0)
        break;
      if (v % 2 == 0)
        continue;
      out[r * cols + c] = v * 3;
    }
}

kernel void ndrange_nest(global int *out, int n) {
  int g = get_global_id(0);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < n; j++)
      out[g * 2 * n + i * n + j] = g + i * j;
}

kernel void upper(global int *out, int n) {
  #pragma loop_coalesce 2
  #pragma ii 3
  for (int i = 0; i < n; i++)
    for (int j = i; j < n; j += 1)
      out[i * n + j] = i + j * j;
}

kernel void find_first(global const int *restrict a, global int *restrict out, int key) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      if (a[i * 4 + j] == key) {
        out[0] = i * 4 + j;
        return;
      }
}

kernel void imperfect(global const int *restrict a, global int *restrict out, int rows, int cols) {
  int total = 0;
  #pragma loop_coalesce
  for (int r = 0; r < rows; r++) {
    int s = r;
    for (int c = 0; c < cols; c++)
      s += a[r * cols + c];
    out[r] = s;
    total += s;
  }
  out[rows] = total;
}

kernel void matmul(global const int *restrict a, global const int *restrict b, global int *restrict c, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      int s = 0;
      for (int k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}
