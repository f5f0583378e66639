/*!
[config]
name: fan-out and fan-in across two pipes

[test]
name: split by parity into two pipes, merge them back
launch: split 1
launch: merge 1
pipe:   evens uint 4
pipe:   odds uint 4
buffer: src uint[32] iota 100 1
buffer: dst uint[32] repeat 0
arg: split 0 src
arg: split 1 evens
arg: split 2 odds
arg: split 3 uint 32
arg: merge 0 evens
arg: merge 1 odds
arg: merge 2 dst
arg: merge 3 uint 16
# merge takes one even and one odd value per step: dst[2k] = 100 + 2k, dst[2k+1] = 101 + 2k,
# and adds 1000 to the odd ones
expect: dst uint[32] \
    100 1101 102 1103 104 1105 106 1107 108 1109 110 1111 112 1113 114 1115 \
    116 1117 118 1119 120 1121 122 1123 124 1125 126 1127 128 1129 130 1131
!*/

kernel void split(global const uint *src, write_only pipe uint evens,
                  write_only pipe uint odds, uint n)
{
    for (uint i = 0; i < n; i++) {
        uint v = src[i];
        if ((v & 1u) == 0u)
            write_pipe_block(evens, &v);
        else
            write_pipe_block(odds, &v);
    }
}

kernel void merge(read_only pipe uint evens, read_only pipe uint odds, global uint *dst,
                  uint pairs)
{
    for (uint k = 0; k < pairs; k++) {
        uint e, o;
        read_pipe_block(evens, &e);
        read_pipe_block(odds, &o);
        dst[2 * k] = e;
        dst[2 * k + 1] = o + 1000u;
    }
}
