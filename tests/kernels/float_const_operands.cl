/*!
[config]
kernel_name: float_consts
dimensions: 1

[test]
name: float ops with constant operands
global_size: 8 1 1
local_size: 8 1 1
arg_in:  0 buffer float[8] 0.0 1.0 -1.0 2.5 0.75 -3.75 100.0 0.5
arg_out: 1 buffer float[56] \
    -1.0 0.0 -2.0 1.5 -0.25 -4.75 99.0 -0.5 \
    0.5 -0.5 1.5 -2.0 -0.25 4.25 -99.5 0.0 \
    2.0 3.0 1.0 4.5 2.75 -1.75 102.0 2.5 \
    1.0 1.0 1.0 2.5 1.0 1.0 100.0 1.0 \
    -0.5 -0.5 -1.0 -0.5 -0.5 -3.75 -0.5 -0.5 \
    -0.25 1.75 -2.25 4.75 1.25 -7.75 199.75 0.75 \
    -3.0 -2.0 -2.0 -0.5 -2.25 0.75 97.0 -2.5
!*/

// Float operations whose operand is a constant: a subtraction flips the constant's sign bit
// (folded, never a bit select of a literal, which is not Verilog: piglit's
// amdgcn-f32-inline-immediates.cl found it), fmin/fmax test its NaN and denormal bits, and
// fabs clears its sign bit. Output k of work-item i is out[k * 8 + i]; expected values are
// the exact results in single precision (python3 struct rounding, all exact here).
kernel void float_consts(global const float *in, global float *out) {
    int i = get_global_id(0), n = get_global_size(0);
    float x = in[i];
    out[i] = x - 1.0f;
    out[n + i] = 0.5f - x;
    out[2 * n + i] = x - (-2.0f);
    out[3 * n + i] = fmax(x, 1.0f);
    out[4 * n + i] = fmin(-0.5f, x);
    out[5 * n + i] = x * 2.0f - 0.25f;
    out[6 * n + i] = fabs(x) - 3.0f;
}

// corpus-sim: --seed 31
