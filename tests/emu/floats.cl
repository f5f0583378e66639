/*!
[config]
name: IEEE-754 single precision, conversions with rounding modes, math built-ins
kernel_name: floats

[test]
name: arithmetic, rounding, conversions and relational functions
arg_in:  0 buffer float[8] 1.5 -2.5 3.0 16777216.0 0.1 -0.0 2.0 1e30
arg_out: 1 buffer float[24] \
    -1.0 16777216.0 0x1.6a09e6p+0 2.0 -3 -2 -2 -3 -2 -2.5 inf 0 -1.5 \
    0x1.333334p-2 0x1.555556p-1 1.5 -0.5 2.25 12.0 -2.0 0.0 0.5 5.0 nan
arg_out: 2 buffer int[13] 2147483647 -2 -3 -2 -2 1 1 1 1 1069547520 0 1 4
# transcendental functions: OpenCL allows 3 to 4 ulp; we check within 2 of the correctly
# rounded value (computed in double precision and rounded to float)
arg_out: 3 buffer float[10] \
    4.481688976287842 1.0986123085021973 0.9974949955940247 -0.9899924993515015 \
    2.601173162460327 5.196152210235596 -0.9866142868995667 1.4422495365142822 \
    0.9661051630973816 2.2090496713644825e-05 \
    tolerance 2 ulp
!*/

kernel void floats(global const float *a, global float *o, global int *i, global float *t)
{
    o[0] = a[0] + a[1];
    o[1] = a[3] + 1.0f;               // 2^24 + 1 rounds back to 2^24
    o[2] = sqrt(a[6]);                // correctly rounded
    o[3] = fma(a[0], a[2], a[1]);
    o[4] = floor(a[1]);
    o[5] = ceil(a[1]);
    o[6] = rint(a[1]);                // ties to even
    o[7] = round(a[1]);               // ties away from zero
    o[8] = trunc(a[1]);
    o[9] = fmin(a[0], a[1]);
    o[10] = a[7] * a[7];              // overflows to +inf
    o[11] = fabs(a[5]);
    o[12] = copysign(a[0], a[5]);     // sign of -0.0
    o[13] = a[4] * 3.0f;              // rounded once, in single precision
    o[14] = a[6] / a[2];
    o[15] = fmod(a[2] * 2.5f, a[6]);
    o[16] = remainder(a[2] * 2.5f, a[6]);
    o[17] = mix(a[0], a[2], 0.5f);
    o[18] = ldexp(a[0], 3);
    o[19] = (float)(int)a[1];
    o[20] = step(a[2], a[0]);
    o[21] = smoothstep(0.0f, a[6] * 2.0f, a[6]);
    o[22] = hypot(a[2], a[6] * 2.0f);
    o[23] = a[5] / a[5];              // 0/0 is NaN
    i[0] = convert_int_sat(a[7]);
    i[1] = convert_int_rte(a[1]);
    i[2] = convert_int_rtn(a[1]);
    i[3] = convert_int_rtp(a[1]);
    i[4] = convert_int(a[1]);         // toward zero
    i[5] = isnan(a[5] / a[5]);
    i[6] = isinf(a[7] * a[7]);
    i[7] = signbit(a[5]);
    i[8] = isless(a[1], a[0]);
    i[9] = as_int(a[0]);
    i[10] = convert_uchar_sat(a[1]);
    i[11] = a[0] == 1.5f;
    i[12] = convert_int_sat_rte(a[0] * 3.0f);  // 4.5 -> 4
    t[0] = exp(a[0]);
    t[1] = log(a[2]);
    t[2] = sin(a[0]);
    t[3] = cos(a[2]);
    t[4] = atan2(a[0], a[1]);
    t[5] = pow(a[2], a[0]);
    t[6] = tanh(a[1]);
    t[7] = cbrt(a[2]);
    t[8] = erf(a[0]);
    t[9] = erfc(a[2]);
}
