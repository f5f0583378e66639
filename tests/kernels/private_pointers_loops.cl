/*!
[config]
name: pointers to private data in loops, across a barrier, fields of structs in memory
dimensions: 1
global_size: 4 0 0

[test]
name: pointers carried by loops, a helper after break
kernel_name: loops
arg_in:  0 buffer int[4] 2 -1 -6 0
arg_out: 1 buffer int[12] 150 6 15 105 9 3 30 9 45 120 9 6

[test]
name: array element inside a struct in global memory at a run-time index
kernel_name: global_field
arg_in:  0 buffer int[24] iota 0
arg_out: 0 buffer int[24] 100 1 2 3 4 0 6 7 8 9 101 4 12 13 102 15 16 2 18 103 20 21 22 1
arg_in:  1 buffer int[4] 0 4 2 1

[test]
name: pointer to a private variable on both sides of a barrier
kernel_name: with_barrier
local_size: 4 0 0
arg_in:  0 buffer int[4] 10 -3 7 1
arg_out: 1 buffer int[4] 7 4 8 11

[test]
name: a store in a helper called after break does not run
kernel_name: helper_after_break
global_size: 1 0 0
arg_out: 0 buffer int[4] 0 1 0 0
!*/

// Expected values computed by an independent Python model of each kernel (the comments give
// the formulas), not by this tool:
//   loops:        s = sum_i (x + 3i)(i + 1) for i < 5; t = 3 * (x > 0 ? 1 : 2) + 3;
//                 c = 0 + 1 + ... up to the break at i == x + 4 (or 9).
//   global_field: bag is 6 ints (v[0..4], n); g[id].v[k[id]] = 100 + id, g[id].n = k[id].
//   with_barrier: out[id] = in[id] + in[(id + 1) & 3].
//   helper_after_break: o[i] = i for i = 0, 1 only (by hand); before this change the
//                 helper's store also ran at i = 2, after the `break`.

typedef struct {
    int v[5];
    int n;
} bag;

void bump(int *x, int by) { *x += by; }

// s = sum over i of r.v[i] * (i+1) walked by a pointer carried through a loop; a pointer chosen
// by a condition stays unchanged in a loop; a helper called after `break` does not run.
kernel void loops(global const int *in, global int *out)
{
    int id = get_global_id(0);
    bag r;
    for (int i = 0; i < 5; i++)
        r.v[i] = in[id] + 3 * i;
    r.n = 5;
    const int *p = r.v;
    int s = 0;
    for (int i = 0; i < r.n; i++)
        s += *p++ * (i + 1);
    int a = 1, b = 2;
    int *q = (in[id] > 0) ? &a : &b;
    int t = 0;
    for (int i = 0; i < 3; i++)
        t += *q + i;
    int c = 0;
    for (int i = 0; i < 10; i++) {
        if (i == in[id] + 4)
            break;
        bump(&c, i);
    }
    out[3 * id] = s;
    out[3 * id + 1] = t;
    out[3 * id + 2] = c;
}

// An element of an array inside a struct in global memory, written at a run-time index.
kernel void global_field(global bag *g, global const int *k)
{
    int id = get_global_id(0);
    g[id].v[k[id]] = 100 + id;
    g[id].n = k[id];
}

// A pointer to a private variable used on both sides of a barrier.
kernel void with_barrier(global const int *in, global int *out)
{
    local int t[4];
    int id = get_local_id(0);
    int x = in[id];
    int *p = &x;
    t[id] = *p;
    barrier(CLK_LOCAL_MEM_FENCE);
    *p += t[(id + 1) & 3];
    out[id] = x;
}

void put(global int *o, int i) { o[i] = i; }

kernel void helper_after_break(global int *o)
{
    for (int i = 0; i < 4; i++)
        o[i] = 0;
    for (int i = 0; i < 4; i++) {
        if (i == 2)
            break;
        put(o, i);
    }
}

// corpus-sim: --stall-prob 0.3 --max-latency 8 --seed 7
