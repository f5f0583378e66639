// EXPECT: misaligned read of 4 bytes at address 0x00010002 (needs 4-byte alignment)
// EXPECT: misaligned.cl:15:14
/*!
[config]
name: a misaligned access is reported

[test]
kernel_name: mis
arg_in:  0 buffer int[4] 1 2 3 4
arg_out: 1 buffer int[1] 0
!*/
kernel void mis(global const int *in, global int *out)
{
    global const char *c = (global const char *)in;
    out[0] = *(global const int *)(c + 2);
}
