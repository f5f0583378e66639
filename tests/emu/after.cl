/*!
[config]
name: launches ordered by events (after) sharing buffers

[test]
name: three launches in a chain, the last with its reqd_work_group_size
launch: square 8 4
launch: add_next 8 2 after square
launch: total 1 after add_next
buffer: a int[8] iota 1
buffer: b int[8] repeat 0
buffer: t int[1] 0
arg: square 0 a
arg: add_next 0 a
arg: add_next 1 b
arg: total 0 b
arg: total 1 t
arg: total 2 int 8
# a = 1 4 9 16 25 36 49 64; b[i] = a[i] + a[(i + 1) % 8]
expect: a int[8] 1 4 9 16 25 36 49 64
expect: b int[8] 5 13 25 41 61 85 113 65
# sum of b = 2 * (1 + 4 + ... + 64) = 408
expect: t int[1] 408
!*/

kernel void square(global int *a)
{
    int i = get_global_id(0);
    a[i] = a[i] * a[i];
}

kernel void add_next(global const int *a, global int *b)
{
    int i = get_global_id(0);
    b[i] = a[i] + a[(i + 1) % get_global_size(0)];
}

__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void total(global const int *b, global int *t, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += b[i];
    t[0] = s;
}
