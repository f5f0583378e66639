/*!
[config]
name: vectors, swizzles, vector built-ins, vload and vstore
kernel_name: vec

[test]
name: float4 and int4 operations
arg_in:  0 buffer float4[2] 1 2 3 4 10 20 30 40
arg_out: 1 buffer float4[4] 4 3 2 1  11 41 91 161  20 2 40 4  1 2 30 40
arg_out: 2 buffer int4[4] 0 0 -1 -1  1 2 7 8  3 6 10 13  1 1 4 16
# dot, length of (3,6), cross((1,2,3),(20,10,30)), then vstore4 of x.s3210 at 6, vload2
arg_out: 3 buffer float[11] 300 6.708203792572021 30 30 -30 0 4 3 2 1 60
arg_out: 4 buffer uchar16[1] 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0
arg_out: 5 buffer short3[2] 2 -3 4  32767 -32768 0
!*/

kernel void vec(global const float4 *a, global float4 *o, global int4 *m, global float *s,
                global uchar16 *c, global short3 *h)
{
    float4 x = a[0];
    float4 y = a[1];
    o[0] = x.wzyx;
    o[1] = x * y + 1.0f;
    float4 t = x;
    t.xz = y.yw;
    o[2] = t;
    o[3] = (float4)(x.lo, y.hi);
    m[0] = x > (float4)(2.5f);
    m[1] = select((int4)(1, 2, 3, 4), (int4)(5, 6, 7, 8), x > 2.5f);
    m[2] = convert_int4(y) / (int4)(3);
    m[3] = (int4)(any(x > 3.5f), all(x > 0.5f), vec_step(float3), sizeof(float3));
    s[0] = dot(x, y);
    s[1] = length(x.xy * 3.0f);
    float3 cr = cross(x.xyz, (float3)(y.y, y.x, y.z));
    s[2] = cr.x;
    s[3] = cr.y;
    s[4] = cr.z;
    s[5] = 0.0f;
    vstore4(x.s3210, 0, s + 6);
    float2 v2 = vload2(1, s + 6);      // s[8], s[9]
    s[10] = v2.x * 10.0f + v2.y * 40.0f;
    uchar16 u = (uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    c[0] = u.sfedcba9876543210;
    short3 p = (short3)(1, -2, 3);
    p += (short3)(1, -1, 1);
    h[0] = p;
    h[1] = convert_short3_sat((int3)(40000, -40000, 0));
}
