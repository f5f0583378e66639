/*!
[config]
name: control flow, helper functions, pointers, constant data, half storage

[test]
name: loops, switch, helpers and pointers
kernel_name: control
global_size: 6 0 0
local_size: 3 0 0
arg_in:  0 buffer uint[6] 1 2 3 6 7 27
# Collatz steps of each input
arg_out: 1 buffer uint[6] 0 1 7 8 16 111
# switch on the input modulo 4 with fall-through: 1 -> 10+20, 2 -> 20, 3 -> 40, 0 -> 50
arg_out: 2 buffer int[6] 30 20 40 20 40 40
# helper through a pointer: swap-and-sum of (in, in*2), do-while digit sum of in*1001,
# continue/break loop, constant table lookup
arg_out: 3 buffer int[24] \
    3 2 1 7   6 4 2 11   9 6 3 7   18 12 6 11   21 14 7 7   81 54 9 7
arg_out: 4 buffer ulong[2] 18446744073709551614 1

[test]
name: half storage through vload_half and vstore_half
kernel_name: halves
arg_in:  0 buffer half[4] 1.5 -2.0 0.1 65504
# 0.1 as half is 0.0999755859375; doubled 0.199951171875
arg_out: 1 buffer float[4] 3.0 -4.0 0.199951171875 131008
# 1/3 rounded to half, and 70000 overflows half to inf
arg_out: 2 buffer half[2] 0.333251953125 inf
!*/

constant int table[4] = { 5, 5, 7, 11 };

static uint collatz(uint n)
{
    uint steps = 0;
    while (n != 1) {
        n = (n % 2 == 0) ? n / 2 : 3 * n + 1;
        steps++;
    }
    return steps;
}

void swap_sum(int *a, int *b, int *sum)
{
    int t = *a;
    *a = *b;
    *b = t;
    *sum = *a + *b;
}

kernel void control(global const uint *in, global uint *steps, global int *sw, global int *o,
                    global ulong *wide)
{
    uint i = get_global_id(0);
    uint n = in[i];
    steps[i] = collatz(n);
    int acc = 0;
    switch (n % 4) {
    case 1:
        acc += 10;
    case 2:
        acc += 20;
        break;
    case 3:
        acc = 40;
        break;
    default:
        acc = 50;
    }
    sw[i] = n % 4 == 0 ? 20 : acc;
    int a = (int)n, b = (int)n * 2, s;
    swap_sum(&a, &b, &s);
    global int *out = o + 4 * i;
    *out++ = s;
    *out++ = a;
    int digits = 0, m = (int)n;
    do {
        digits += m % 10;
        m /= 10;
    } while (m > 0);
    out[0] = digits * (n < 10 ? 1 : 0) + (n >= 10 ? 9 : 0);
    int found = 0;
    for (int k = 0; k < 4; k++) {
        if (k == (int)(n % 4))
            continue;
        found = table[k];
        if (k >= 2)
            break;
    }
    out[1] = found;
    if (i == 0) {
        wide[0] = mul_hi(0xfffffffffffffffful, 0xfffffffffffffffful);
        wide[1] = mad_sat(0xfffffffffffffffful, 2ul, 0ul) == 0xfffffffffffffffful;
    }
}

kernel void halves(global const half *in, global float *out, global half *h)
{
    for (int k = 0; k < 4; k++)
        out[k] = vload_half(k, in) * 2.0f;
    vstore_half(1.0f / 3.0f, 0, h);
    vstore_half(70000.0f, 1, h);
}
