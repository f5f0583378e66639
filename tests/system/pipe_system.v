// System top for SystemRun (tests/system_run.rs), written by hand the way the generator
// builds one (docs/hardware-interface.md, "System top"): kernels `producer` and `consumer`
// with their ports under `producer__` / `consumer__`, connected by pipe `p`, one
// `oclhls_pipe_fifo_plain` of DEPTH packets, whose state is on the `pipe__p__*` outputs.
`default_nettype none

module pipe_system #(
    parameter integer DEPTH = 4,
    parameter integer CW = $clog2(DEPTH + 1)
) (
    input  wire          clk,
    input  wire          rst,

    input  wire          producer__start,
    output wire          producer__busy,
    output wire          producer__done,
    input  wire [31:0]   producer__global_size_0,
    input  wire [31:0]   producer__global_size_1,
    input  wire [31:0]   producer__global_size_2,
    input  wire [31:0]   producer__arg_src,
    output wire          producer__src_rreq_valid,
    input  wire          producer__src_rreq_ready,
    output wire [31:0]   producer__src_rreq_addr,
    input  wire          producer__src_rresp_valid,
    output wire          producer__src_rresp_ready,
    input  wire [31:0]   producer__src_rresp_data,

    input  wire          consumer__start,
    output wire          consumer__busy,
    output wire          consumer__done,
    input  wire [31:0]   consumer__global_size_0,
    input  wire [31:0]   consumer__global_size_1,
    input  wire [31:0]   consumer__global_size_2,
    input  wire [31:0]   consumer__arg_dst,
    output wire          consumer__dst_wreq_valid,
    input  wire          consumer__dst_wreq_ready,
    output wire [31:0]   consumer__dst_wreq_addr,
    output wire [31:0]   consumer__dst_wreq_data,
    input  wire          consumer__dst_wresp_valid,
    output wire          consumer__dst_wresp_ready,

    output wire [CW-1:0] pipe__p__count,
    output wire [CW-1:0] pipe__p__max,
    output wire [CW-1:0] pipe__p__space,
    output wire          pipe__p__wr_wait,
    output wire          pipe__p__rd_wait,
    output wire          pipe__p__active
);
    wire        p_wr_valid;
    wire [31:0] p_wr_data;
    wire        p_wr_ok;
    wire        p_rd_valid;
    wire        p_rd_ok;
    wire [31:0] p_rd_data;

    sys_producer producer (
        .clk(clk),
        .rst(rst),
        .start(producer__start),
        .busy(producer__busy),
        .done(producer__done),
        .global_size_0(producer__global_size_0),
        .global_size_1(producer__global_size_1),
        .global_size_2(producer__global_size_2),
        .arg_src(producer__arg_src),
        .src_rreq_valid(producer__src_rreq_valid),
        .src_rreq_ready(producer__src_rreq_ready),
        .src_rreq_addr(producer__src_rreq_addr),
        .src_rresp_valid(producer__src_rresp_valid),
        .src_rresp_ready(producer__src_rresp_ready),
        .src_rresp_data(producer__src_rresp_data),
        .p_wr_valid(p_wr_valid),
        .p_wr_data(p_wr_data),
        .p_wr_ok(p_wr_ok)
    );

    sys_consumer consumer (
        .clk(clk),
        .rst(rst),
        .start(consumer__start),
        .busy(consumer__busy),
        .done(consumer__done),
        .global_size_0(consumer__global_size_0),
        .global_size_1(consumer__global_size_1),
        .global_size_2(consumer__global_size_2),
        .arg_dst(consumer__arg_dst),
        .dst_wreq_valid(consumer__dst_wreq_valid),
        .dst_wreq_ready(consumer__dst_wreq_ready),
        .dst_wreq_addr(consumer__dst_wreq_addr),
        .dst_wreq_data(consumer__dst_wreq_data),
        .dst_wresp_valid(consumer__dst_wresp_valid),
        .dst_wresp_ready(consumer__dst_wresp_ready),
        .p_rd_valid(p_rd_valid),
        .p_rd_ok(p_rd_ok),
        .p_rd_data(p_rd_data)
    );

    oclhls_pipe_fifo_plain #(
        .WIDTH(32),
        .DEPTH(DEPTH)
    ) pipe_p (
        .clk(clk),
        .rst(rst),
        .wr_valid(p_wr_valid),
        .wr_data(p_wr_data),
        .wr_ok(p_wr_ok),
        .rd_valid(p_rd_valid),
        .rd_ok(p_rd_ok),
        .rd_data(p_rd_data),
        .num_packets(pipe__p__count),
        .max_packets(pipe__p__max)
    );

    // No reservations, no slack: the FIFO has DEPTH places.
    assign pipe__p__space = DEPTH[CW-1:0];
    assign pipe__p__wr_wait = p_wr_valid && !p_wr_ok;
    assign pipe__p__rd_wait = p_rd_valid && !p_rd_ok;
    assign pipe__p__active = (p_wr_valid && p_wr_ok) || (p_rd_valid && p_rd_ok);
endmodule

`default_nettype wire
