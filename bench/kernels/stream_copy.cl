/*!
[config]
name: stream copy
kernel_name: stream_copy

[test]
name: one work-item copies 2048 words
global_size: 1 1 1
local_size: 1 1 1
arg_in:  0 buffer uint[2048] iota 7 3
arg_out: 1 buffer uint[2048] iota 7 3
arg_in:  2 uint 2048
!*/

// A single work-item loop that streams: its read and its write step through consecutive
// words, so both ports burst (the write always; the read with `--memory-latency 8` or more).
// `restrict`: without it a read waits for the previous iteration's write (they may alias).
// The bandwidth benchmark of docs/benchmarks.md ("Bursts on the SDRAM model") runs it.
kernel void stream_copy(global const uint *restrict a, global uint *restrict b, uint n) {
  for (uint i = 0; i < n; i++)
    b[i] = a[i];
}
