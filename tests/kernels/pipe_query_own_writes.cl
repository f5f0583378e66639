/*!
[config]
name: a work-item's own pipe operations are visible to its later queries

[test]
name: own writes are visible to the query
launch: w 1 1
pipe: p int 16
buffer: out int[2] 0 0
arg: w 0 p
arg: w 1 out
expect: out int[2] 10 16
!*/
kernel void w(write_only pipe int p, global int *out) {
  for (int i = 0; i < 10; i++) {
    int v = i;
    write_pipe(p, &v);
  }
  out[0] = get_pipe_num_packets(p);
  out[1] = get_pipe_max_packets(p);
}

// The kernel writes 10 packets into a pipe of 16 that nobody reads, then asks how many it
// holds: 10 (OpenCL: its own completed writes are visible to it), and its capacity: 16. Before,
// the query was not ordered after the loop's writes and read 0 in Verilator.
