/*!
[config]
kernel_name: horner
dimensions: 1

[test]
name: polynomials of degree 2 at x = 2
global_size: 4 1 1
arg_in:  0 buffer int[12] 1 2 3  0 0 1  5 0 0  1 1 1
arg_out: 1 buffer int[4] 11 1 20 7
arg_in:  2 int 2
!*/

// Horner's rule: acc = acc * x + c. The multiply (2 cycles) and the add are on the
// loop-carried path through `acc`, so the recurrence limits the loop's II, and the report
// names it. (1*2 + 2)*2 + 3 = 11; 1; 5*2*2 = 20; (1*2 + 1)*2 + 1 = 7.
kernel void horner(global const int *restrict c, global int *restrict out, int x) {
  int i = get_global_id(0);
  int acc = 0;
  for (int j = 0; j < 3; j++)
    acc = acc * x + c[i * 3 + j];
  out[i] = acc;
}
