#!/usr/bin/env bash
# ECP5 area, Fmax and latency of each float math built-in as its own kernel
# (`o[i] = f(a[i] [, b[i]])`, one work-item per element, II = 1): writes one kernel file per
# function into a work directory and runs the kernel benchmark on them (Yosys synth_ecp5 and
# nextpnr-ecp5 next to a 32-bit counter; examples/kernel_bench.rs). Prints the benchmark's
# Markdown rows, one per function (docs/benchmarks.md, "Float math on ECP5").
# Takes hours: the larger functions (erf, tgamma, pow) synthesise for many minutes each.
# Usage: [KERNEL_BENCH=BIN] scripts/math_area.sh [WORK_DIR] [FUNCTION...]
#   (default: target/math_area, all functions; KERNEL_BENCH below)
set -euo pipefail
work=${1:-target/math_area}
shift || true
one=(exp exp2 exp10 expm1 log log2 log10 log1p cbrt rsqrt sin cos tan sinpi cospi tanpi
  asin acos atan asinpi acospi atanpi sinh cosh tanh asinh acosh atanh erf erfc tgamma lgamma
  sqrt floor ceil round trunc rint logb fabs degrees radians sign)
two=(pow powr hypot atan2 atan2pi fmod remainder fdim fmin fmax copysign nextafter maxmag
  minmag)
# With an `int` operand (`f(a[i], n[i])`), an `int` result, or a second result through a
# pointer to private data (both results are stored). The `native_` and `half_` forms are the
# same units as the full-precision ones (docs/benchmarks.md, "Float math accuracy").
with_int=(ldexp pown rootn)
int_result=(ilogb)
two_results=(fract modf frexp sincos remquo)
want=("$@")
pick() { [ ${#want[@]} -eq 0 ] || printf '%s\n' "${want[@]}" | grep -qx "$1"; }
mkdir -p "$work/kernels"
# NAME PARAMS ARGS BODY: one kernel file with these parameters, body and header
# argument lines.
write_other() {
  cat > "$work/kernels/math_$1.cl" <<CL
/*!
[config]
name: math_$1
kernel_name: math_$1
dimensions: 1

[test]
name: $1 of 64 values
global_size: 64 1 1
$3
!*/
kernel void math_$1($2) {
  size_t i = get_global_id(0);
  $4
}
CL
}
a_arg="arg_in:  0 buffer float[64] iota 0.25 0.125"
write() { # NAME EXPR TWO(0/1): `o[i] = EXPR` of one or two float operands
  local bparam="" barg="" out=1
  if [ "$3" = 1 ]; then
    bparam="global const float *b, "
    barg="
arg_in:  1 buffer float[64] iota 1.5 0.0625"
    out=2
  fi
  write_other "$1" "global const float *a, ${bparam}global float *o" "$a_arg$barg
arg_in:  $out buffer float[64] repeat 0" "o[i] = $2;"
}
for f in "${one[@]}"; do if pick "$f"; then write "$f" "$f(a[i])" 0; fi; done
for f in "${two[@]}"; do if pick "$f"; then write "$f" "$f(a[i], b[i])" 1; fi; done
for f in "${with_int[@]}"; do
  if pick "$f"; then
    write_other "$f" "global const float *a, global const int *n, global float *o" \
      "$a_arg
arg_in:  1 buffer int[64] iota -3 1
arg_in:  2 buffer float[64] repeat 0" "o[i] = $f(a[i], n[i]);"
  fi
done
if pick ilogb; then
  write_other ilogb "global const float *a, global int *o" "$a_arg
arg_in:  1 buffer int[64] repeat 0" "o[i] = ilogb(a[i]);"
fi
for f in "${two_results[@]}"; do
  pick "$f" || continue
  case $f in
    frexp) t=int; call="frexp(a[i], &r)" ;;
    remquo) t=int; call="remquo(a[i], b[i], &r)" ;;
    *) t=float; call="$f(a[i], &r)" ;;
  esac
  params="global const float *a, global float *o, global $t *o2"
  args="$a_arg
arg_in:  1 buffer float[64] repeat 0
arg_in:  2 buffer $t[64] repeat 0"
  if [ "$f" = remquo ]; then
    params="global const float *a, global const float *b, global float *o, global int *o2"
    args="$a_arg
arg_in:  1 buffer float[64] iota 1.5 0.0625
arg_in:  2 buffer float[64] repeat 0
arg_in:  3 buffer int[64] repeat 0"
  fi
  write_other "$f" "$params" "$args" "$t r;
  o[i] = $call;
  o2[i] = r;"
done
# KERNEL_BENCH: a kernel_bench binary to run instead of building the tree's (it runs the oclhls
# binary one directory above it): a copy of both keeps a run of hours apart from rebuilds.
if [ -n "${KERNEL_BENCH:-}" ]; then
  "$KERNEL_BENCH" --work "$work/bench" "$work/kernels"
else
  cargo build --release --quiet
  cargo run --release --quiet --example kernel_bench -- --work "$work/bench" "$work/kernels"
fi
