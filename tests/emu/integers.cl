/*!
[config]
name: exact OpenCL C integer semantics
kernel_name: ints

[test]
name: wrap, shifts, division, saturation and integer built-ins
arg_in:  0 buffer int[8] 33 -16 7 -7 2147483647 300 -300 0
arg_out: 1 buffer int[28] \
    -2147483648 -3 -1 2 -8 2147483640 127 0 44 2147483647 -2147483648 1 29 28 \
    -1073741823 -2147483642 2147483647 20 16 4 1 9464 2147483647 -16 -7 255 -7 1
arg_out: 2 buffer long[4] 4611686014132420609 15 1 -17592186044416
arg_out: 3 buffer uchar[4] 44 255 240 255
!*/

kernel void ints(global const int *a, global int *o, global long *l, global uchar *c)
{
    o[0] = a[4] + 1;                  // wraps
    o[1] = a[3] / 2;                  // truncates toward zero
    o[2] = a[3] % 2;
    o[3] = 1 << a[0];                 // shift count taken modulo 32
    o[4] = a[1] >> a[0];              // arithmetic shift
    o[5] = (int)((uint)a[1] >> 1);    // logical shift
    o[6] = convert_char_sat(a[5]);
    o[7] = convert_uchar_sat(a[6]);
    o[8] = (char)a[5];                // wraps to 44
    o[9] = add_sat(a[4], 1);
    o[10] = sub_sat(-a[4], 5);
    o[11] = mul_hi(a[4], 4);
    o[12] = clz(a[2]);
    o[13] = popcount(a[1]);
    o[14] = rotate(a[2], 30);
    o[15] = abs_diff(a[3], a[4]);
    o[16] = hadd(a[4], a[4]);
    o[17] = rhadd(a[2], a[0]);
    o[18] = abs(a[1]);
    o[19] = ctz(a[1]);
    o[20] = a[7] == 0;
    o[21] = (short)(a[5] * 250);
    o[22] = mad_sat(a[4], 2, 1);
    o[23] = min(a[3], a[1]);
    o[24] = max(a[3], a[1]);
    o[25] = clamp(a[5], 0, 255);
    o[26] = select(a[2], a[3], a[1]);
    o[27] = a[4] * a[4];
    l[0] = (long)a[4] * a[4];
    l[1] = (ulong)(long)a[1] >> 60;
    l[2] = mul_hi((ulong)0xfffffffffffffffful, (ulong)2);
    l[3] = (long)a[1] << 40;
    c[0] = (uchar)a[5];
    c[1] = convert_uchar_sat(a[5]);
    c[2] = (uchar)a[1];
    c[3] = add_sat((uchar)250, (uchar)10);
}

// Division by zero is reported, never a value: see errors/div_zero.cl.
