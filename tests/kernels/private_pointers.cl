/*!
[config]
name: pointers to private data
dimensions: 1
global_size: 4 0 0

[test]
name: out-parameters of helpers (writes after the helper's return masked)
kernel_name: outparams
arg_in:  0 buffer int[8] 5 3 -2 7 4 4 -9 -10
arg_out: 1 buffer int[4] -2 -40 8 -24

[test]
name: pointer walk over a private array, pointer difference
kernel_name: walk
arg_in:  0 buffer int[4] 0 1 -3 10
arg_out: 1 buffer int[8] 336 19 372 19 228 19 696 19

[test]
name: array inside a struct indexed at run time, by value to a helper
kernel_name: struct_array
arg_in:  0 buffer int[4] 10 7 -5 22
arg_out: 1 buffer int[12] 471 6 108 495 2 104 183 -10 92 771 18 120

[test]
name: vload4 and vstore4 on a private array and on a vector variable
kernel_name: vec_private
arg_in:  0 buffer int[4] 1 2 -4 100
arg_out: 1 buffer int[16] 6 9 13 13 9 12 15 17 -9 -6 3 -7 303 306 211 409

[test]
name: pointers chosen by a condition between variables and an array
kernel_name: choose
arg_in:  0 buffer int[4] 3 5 8 -2
arg_out: 1 buffer int[16] 7 106 2 109 7 10 2 112 8 116 7 118 98 -4 7 100

[test]
name: bytes of a variable through a uchar pointer, one at a run-time offset
kernel_name: bytes
arg_in:  0 buffer uint[4] 0x11223344 0xdeadbeef 0 0xffffffff
arg_out: 1 buffer uint[8] 170 0x1122abbb 0x338 0xdead54ef 0 0x00ffab00 0x3fc 0x00ffabff
!*/

// Pointers to private data in the hardware path (issue 14): out-parameters of helpers, pointer
// walks over private arrays, arrays inside structs indexed at run time, vload4/vstore4 on
// private memory, pointers chosen by a condition, bytes of a variable through a `uchar *`.
// Expected values computed by an independent Python model of each kernel (the formulas in
// the comments), not by this tool.

// Writes after the helper's `return` must not happen.
void minmax(int a, int b, int *lo, int *hi)
{
    if (a < b) {
        *lo = a;
        *hi = b;
        return;
    }
    *lo = b;
    *hi = a;
}

void accumulate(int *acc, int x) { *acc += x; }

// out[id] = 6 * lo - 4 * hi, lo/hi = min/max(in[2id], in[2id+1]).
kernel void outparams(global const int *in, global int *out)
{
    int id = get_global_id(0);
    int lo, hi;
    minmax(in[2 * id], in[2 * id + 1], &lo, &hi);
    int acc = 0;
    for (int i = 0; i < 4; i++)
        accumulate(&acc, lo * i - hi);
    out[id] = acc;
}

// a[j] = x + j*j; s = sum a[7-i] * (i+1); then a[5] = -1 through q = &a[2].
kernel void walk(global const int *in, global int *out)
{
    int id = get_global_id(0);
    int a[8];
    int *w = a;
    for (int i = 0; i < 8; i++)
        *w++ = in[id] + i * i;
    int s = 0;
    const int *p = a + 7;
    for (int i = 0; i < 8; i++) {
        s += *p * (i + 1);
        p--;
    }
    int *q = &a[2];
    q[3] = -1;
    out[2 * id] = s;
    out[2 * id + 1] = a[5] + 10 * (int)(q - a);
}

typedef struct {
    char tag;
    int v[6];
    short n;
} rec;

int rec_sum(rec r, int upto)
{
    int s = 0;
    for (int i = 0; i < upto; i++)
        s += r.v[i] * (i + 1);
    return s + r.tag;
}

kernel void struct_array(global const int *in, global int *out)
{
    int id = get_global_id(0);
    rec r;
    r.tag = 3;
    r.n = 6;
    for (int i = 0; i < 6; i++)
        r.v[i] = in[id] - i;
    int k = in[id] & 3;
    r.v[k] += 100;
    int *p = &r.v[1];
    p[k] *= 2;
    out[3 * id] = rec_sum(r, r.n);
    out[3 * id + 1] = r.v[k + 2];
    out[3 * id + 2] = p[k - 1];
}

kernel void vec_private(global const int *in, global int *out)
{
    int id = get_global_id(0);
    int a[8];
    int x0 = in[id];
    int4 x = (int4)(x0, x0 + 1, x0 + 2, x0 + 3);
    vstore4(x, 0, a);
    vstore4(x * 2, 1, a);
    int4 y = vload4(0, a + 2);
    int4 v = (int4)(0);
    int *pv = (int *)&v;
    vstore4(y + 1, 0, pv);
    pv[2] = 7;
    int4 z = vload4(0, pv) + vload4(1, a);
    vstore4(z, id, out);
}

kernel void choose(global const int *in, global int *out)
{
    int id = get_global_id(0);
    int a = in[id], b = 2 * in[id];
    int arr[4] = {1, 2, 3, 4};
    int *p = (id & 1) ? &a : &b;
    *p += 100;
    int *q = (id & 2) ? &arr[1] : &a;
    int t = q[0];
    *q = 7;
    out[4 * id] = a;
    out[4 * id + 1] = b;
    out[4 * id + 2] = arr[1];
    out[4 * id + 3] = t + *p;
}

kernel void bytes(global const uint *in, global uint *out)
{
    int id = get_global_id(0);
    uint x = in[id];
    uchar *c = (uchar *)&x;
    uint s = c[0] + c[1] + c[2] + c[3];
    c[1] = 0xAB;
    c[id & 3] ^= 0xFF;
    out[2 * id] = s;
    out[2 * id + 1] = x;
}
