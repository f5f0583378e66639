/*!
[config]
dimensions: 1
global_size: 12 1 1

[test]
name: asinpi, acospi, atanpi, atan2pi with the special values of the spec
kernel_name: atrig_pi
arg_in:  0 buffer float[12] 0.0 -0.0 0x1.0000000000000p-1 -0x1.0000000000000p-1 0x1.0000000000000p+0 -0x1.0000000000000p+0 0x1.3333340000000p-2 -0x1.6666660000000p-1 0x1.79ca100000000p-67 0x1.fffffe0000000p-1 -0x1.fffeb00000000p-1 0x1.0000000000000p+1
arg_in:  1 buffer float[12] 0.0 -0.0 0x1.0000000000000p+0 -0x1.0000000000000p+0 inf -inf 0x1.c000000000000p+1 -0x1.4484c00000000p-100 0x1.5af1d80000000p+66 0x1.a3d70a0000000p-2 nan -0x1.ed00000000000p+6
arg_in:  2 buffer float[12] -0.0 0.0 -0x1.0000000000000p+0 0x1.0000000000000p+0 -inf inf 0.0 -0x1.0000000000000p+1 0x1.79ca100000000p-67 -0x1.a3d70a0000000p-2 0x1.0000000000000p+0 0x1.e000000000000p+2
arg_out: 3 buffer float[12] 0.0 -0.0 0x1.5555560000000p-3 -0x1.5555560000000p-3 0x1.0000000000000p-1 -0x1.0000000000000p-1 0x1.8d41ea0000000p-4 -0x1.f97b060000000p-3 0x1.e1042c0000000p-69 0x1.ffe3300000000p-2 -0x1.fe8a940000000p-2 nan tolerance 5 ulp
arg_out: 4 buffer float[12] 0x1.0000000000000p-1 0x1.0000000000000p-1 0x1.5555560000000p-2 0x1.5555560000000p-1 0.0 0x1.0000000000000p+0 0x1.9caf860000000p-2 0x1.7e5ec20000000p-1 0x1.0000000000000p-1 0x1.ccf6420000000p-14 0x1.ff454a0000000p-1 nan tolerance 5 ulp
arg_out: 5 buffer float[12] 0.0 -0.0 0x1.0000000000000p-2 -0x1.0000000000000p-2 0x1.0000000000000p-1 -0x1.0000000000000p-1 0x1.a549d60000000p-2 -0x1.9d309a0000000p-102 0x1.0000000000000p-1 0x1.fb4dce0000000p-4 nan -0x1.fd5afe0000000p-2 tolerance 5 ulp
arg_out: 6 buffer float[12] 0x1.0000000000000p+0 -0.0 0x1.8000000000000p-1 -0x1.0000000000000p-2 0x1.8000000000000p-1 -0x1.0000000000000p-2 0x1.0000000000000p-1 -0x1.0000000000000p+0 0x1.0000000000000p-1 0x1.8000000000000p-1 nan -0x1.ec30960000000p-2 tolerance 6 ulp

[test]
name: float4 forms, atan2pi with a negative zero x
kernel_name: atrig_pi_vec
global_size: 2 1 1
arg_in:  0 buffer float4[2] 0.25 -0.8999999761581421 0.75 -0.125 5.0 -10000000000.0 0.5 0.0010000000474974513
arg_in:  1 buffer float4[2] 1.0 -3.0 -2.0 0.0 -1.0 1.000000013351432e-10 4.0 -0.0
arg_out: 2 buffer float4[2] 0.08043062686920166 -0.3564336895942688 0.26994654536247253 -0.03989308699965477 nan nan 0.1666666716337204 0.000318309961585328 tolerance 5 ulp
arg_out: 3 buffer float4[2] 0.41956937313079834 0.8564336895942688 0.23005345463752747 0.5398930907249451 nan nan 0.3333333432674408 0.499681681394577 tolerance 5 ulp
arg_out: 4 buffer float4[2] 0.07797913253307343 -0.23326228559017181 0.2048327624797821 -0.03958342596888542 0.43716704845428467 -0.5 0.14758361876010895 0.00031830978696234524 tolerance 5 ulp
arg_out: 5 buffer float4[2] 0.07797913253307343 -0.9072264432907104 0.885799765586853 -0.5 0.5628329515457153 -0.5 0.03958342596888542 0.5 tolerance 6 ulp
!*/

// corpus-synth: skip (dozens of float units per function: Yosys takes many minutes; the kernel benchmark synthesises them)

// The `pi` forms of the inverse trigonometric functions (hls-ir
// `lower/builtins/float_math/inverse_pi.rs`). Expected values: python3 `math.asin(x) / math.pi`
// (acos, atan, atan2 alike) in double precision, rounded to the nearest float with `struct`.
kernel void atrig_pi(global const float *a, global const float *t, global const float *x,
                     global float *as, global float *ac, global float *at, global float *at2) {
  size_t i = get_global_id(0);
  as[i] = asinpi(a[i]);
  ac[i] = acospi(a[i]);
  at[i] = atanpi(t[i]);
  at2[i] = atan2pi(t[i], x[i]);
}

kernel void atrig_pi_vec(global const float4 *a, global const float4 *b, global float4 *as,
                         global float4 *ac, global float4 *at, global float4 *at2) {
  size_t i = get_global_id(0);
  as[i] = asinpi(a[i]);
  ac[i] = acospi(a[i]);
  at[i] = atanpi(a[i]);
  at2[i] = atan2pi(a[i], b[i]);
}
