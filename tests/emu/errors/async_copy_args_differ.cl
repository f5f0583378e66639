// EXPECT: of this async copy (0x
// EXPECT: differs from another work-item's
// EXPECT: every work-item of a group must pass the same arguments
// EXPECT: async_copy_args_differ.cl:20:15
/*!
[config]
name: an async copy whose source differs between the work-items of a group

[test]
kernel_name: differ
global_size: 4 1 1
local_size: 4 1 1
arg_in: 0 buffer int[8] 1 2 3 4 5 6 7 8
arg_out: 1 buffer int[4] 1 2 3 4
!*/
// The hardware path rejects this at compile time (`get_local_id` in work-group code); a
// difference only known at run time is the emulator's to report.
kernel void differ(global const int *in, global int *out) {
  local int t[4];
  event_t e = async_work_group_copy(t, in + (get_local_id(0) & 1), 4, 0);
  wait_group_events(1, &e);
  out[get_local_id(0)] = t[get_local_id(0)];
}
