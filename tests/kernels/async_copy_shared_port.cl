/*!
[config]
name: async copies sharing one global port
dimensions: 1

[test]
name: two copies from one buffer in flight together
kernel_name: shared_port
global_size: 64 1 1
local_size: 64 1 1
arg_in: 0 buffer uint[264] iota 0 1
arg_out: 1 buffer uint[64] iota 163 0

[test]
name: the same with a run-time count that splits bursts at a 4 KB page
kernel_name: shared_port_count
global_size: 64 1 1
local_size: 64 1 1
arg_in: 0 buffer uint[2048] iota 0 1
arg_in: 2 uint 1010
arg_out: 1 buffer uint[64] iota 2085 3
!*/

// An async copy's reads go out as planned bursts (read runs, `oclhls_rburst`): while one is
// in flight, its port takes reads from that copy only. Here two copies from `src` run
// together (two events). dst[l] = src[l] + src[163 - l] = 163.
// (A work-item load of `src` beside them would keep the port from bursting at all: its read
// latency, 3 cycles by default, leaves no time to gather a burst.)
kernel void shared_port(global const uint *src, global uint *dst) {
  local uint a[64];
  local uint b[64];
  event_t e = async_work_group_copy(a, src, 64, 0);
  event_t f = async_work_group_copy(b, src + 100, 64, 0);
  uint lid = get_local_id(0);
  wait_group_events(1, &e);
  wait_group_events(1, &f);
  dst[lid] = a[lid] + b[63 - lid];
}

// The second copy starts at element `off` (1010: byte 4040, 56 bytes before a 4 KB page), so
// its first planned burst would cross the page and is combined read by read instead.
// dst[l] = src[1 + l] + src[off + 64 + l] + src[off + l] = 2085 + 3 l.
kernel void shared_port_count(global const uint *src, global uint *dst, uint off) {
  local uint a[64];
  local uint b[128];
  event_t e = async_work_group_copy(a, src + 1, 64, 0);
  event_t f = async_work_group_copy(b, src + off, 128, 0);
  uint lid = get_local_id(0);
  wait_group_events(1, &f);
  wait_group_events(1, &e);
  dst[lid] = a[lid] + b[64 + lid] + b[lid];
}
