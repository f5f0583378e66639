// EXPECT: integer division by zero (`/` of 10)
// EXPECT: work-item global id (2)
// EXPECT: div_zero.cl:15:27
/*!
[config]
name: division by zero is reported

[test]
kernel_name: div
global_size: 4 0 0
arg_in:  0 buffer int[4] 5 1 0 2
arg_out: 1 buffer int[4] 2 10 0 5
!*/
kernel void div(global const int *d, global int *q) {
    q[get_global_id(0)] = 10 / d[get_global_id(0)];
}
