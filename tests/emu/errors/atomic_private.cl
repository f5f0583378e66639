// EXPECT: atomic operation on private memory (address 0xc
// EXPECT: atomic_private.cl:17:12
// EXPECT: atomics on private memory are undefined
/*!
[config]
name: an atomic through a generic pointer into a private variable

[test]
kernel_name: k
global_size: 1 0 0
local_size: 1 0 0
arg_out: 0 buffer int[1] 1
!*/
/* the pointer is generic: the front end cannot see that it points into private memory */
int bump(atomic_int *p)
{
    return atomic_fetch_add(p, 1);
}

kernel void k(global int *out)
{
    int x = 0;
    bump((atomic_int *)&x);
    out[0] = x;
}
