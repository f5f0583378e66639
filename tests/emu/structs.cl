/*!
[config]
name: structs and unions with the OpenCL layout
kernel_name: structs

[test]
name: layout, copies, member access through pointers
# sizeof(rec_t) 48 (char at 0, int at 4, float4 at 16, short at 32, padded to 16),
# offset of v 16, r[1].value 7+5, p->v.y + r[0].v.y = 9 + 2, 'a' - 2, {3,4} -> 34,
# bits of 1.0f, sizeof(struct pair), table[1].b via a constant struct array
arg_out: 0 buffer int[9] 48 16 12 11 95 34 1065353216 8 -6
!*/

typedef struct {
    char tag;
    int value;
    float4 v;
    short s;
} rec_t;

struct pair {
    int a;
    int b;
};

constant struct pair table[2] = { { 1, 2 }, { 5, -6 } };

kernel void structs(global int *o)
{
    rec_t r[2];
    r[0].tag = 'a';
    r[0].value = 7;
    r[0].v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    r[0].s = -2;
    r[1] = r[0];
    r[1].value += 5;
    rec_t *p = &r[1];
    p->v.y = 9.0f;
    o[0] = sizeof(rec_t);
    o[1] = (int)((char *)&r[0].v - (char *)&r[0]);
    o[2] = r[1].value;
    o[3] = (int)p->v.y + (int)r[0].v.y;
    o[4] = r[1].tag + r[1].s;
    struct pair q = { 3, 4 };
    o[5] = q.a * 10 + q.b;
    union {
        float f;
        uint u;
    } un;
    un.f = 1.0f;
    o[6] = (int)un.u;
    o[7] = sizeof(struct pair);
    o[8] = table[1].b;
}
