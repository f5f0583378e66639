// A system top that breaks the contract in several ways at once, for the interface check of
// SystemRun (tests/system_run.rs): kernel `k` lacks `k__busy` and most of pointer `x`'s read
// channels; pipe `q` has `count` and `max` of different widths, no `active`, and an extra
// output; `pipe__r__max` has no pipe; `stray` belongs to nothing.
`default_nettype none

module sys_bad (
    input  wire        clk,
    input  wire        rst,
    input  wire        k__start,
    output wire        k__done,
    input  wire [31:0] k__global_size_0,
    input  wire [31:0] k__global_size_1,
    input  wire [31:0] k__global_size_2,
    input  wire [31:0] k__arg_y,
    output wire        k__x_rreq_valid,
    output wire [2:0]  pipe__q__count,
    output wire [1:0]  pipe__q__max,
    output wire        pipe__q__wr_wait,
    output wire        pipe__q__rd_wait,
    output wire        pipe__q__full,
    output wire [2:0]  pipe__r__max,
    input  wire        stray
);
    reg started;
    wire unused_inputs = &{1'b0, k__global_size_0, k__global_size_1, k__global_size_2,
                           k__arg_y, stray};

    always @(posedge clk) begin
        if (rst) started <= 1'b0;
        else if (k__start) started <= 1'b1;
    end

    assign k__done = started;
    assign k__x_rreq_valid = 1'b0;
    assign pipe__q__count = 3'd0;
    assign pipe__q__max = 2'd2;
    assign pipe__q__wr_wait = 1'b0;
    assign pipe__q__rd_wait = 1'b0;
    assign pipe__q__full = 1'b0;
    assign pipe__r__max = 3'd0;
endmodule

`default_nettype wire
