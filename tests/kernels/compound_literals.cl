/*!
[config]
kernel_name: compound
dimensions: 1

[test]
name: compound literals of vectors, structs and scalars
global_size: 4 1 1
local_size: 4 1 1
arg_in:  0 buffer int[4] 10 -20 0 7
arg_out: 1 buffer int2[4] 11 15 -19 -15 1 5 8 12
arg_out: 2 buffer int[8] 10 -196608 -20 -196607 0 -196606 7 -196605
arg_out: 3 buffer int[8] 10 589824 -20 589824 0 589824 7 589824
arg_out: 4 buffer int[4] 30 -30 10 24
!*/

// C99 compound literals `(T){...}`: a vector one is the vector literal, a struct one a value
// initialised like a variable (designators, zero fill, padding bytes zero), a scalar one its
// value. S is int a (bytes 0-3), char b (4), a padding byte (5), short c (6-7); stored, its
// second word is b | 0 << 8 | c << 16: for c = -3 and b = i that is 0xfffd0000 + i. By hand:
// v = (x + 1, x + 5), o = 2x + 3 + 7.
typedef struct { int a; char b; short c; } S;
struct P { float x; int y; };

kernel void compound(global const int *in, global int2 *v, global S *s, global S *d,
                     global int *o) {
    int i = get_global_id(0);
    int x = in[i];
    v[i] = (int2){x, 5} + (int2){1, x};
    s[i] = (S){x, (char)i, -3};
    d[i] = (S){.c = 9, .a = x};
    o[i] = (struct P){1.5f, x * 2}.y + ((int4){1, 2, 3, 4}).z + (int){7};
}

// corpus-sim: --seed 37
