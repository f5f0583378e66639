// Test kernel for the sim crate: reads a[0] and never takes the response, so `done` never
// comes (for the cycle-budget test).
`default_nettype none

module hang (
    input  wire        clk,
    input  wire        rst,
    input  wire        start,
    output reg         busy,
    output wire        done,
    input  wire [31:0] global_size_0,
    input  wire [31:0] global_size_1,
    input  wire [31:0] global_size_2,
    input  wire [31:0] local_size_0,
    input  wire [31:0] local_size_1,
    input  wire [31:0] local_size_2,
    input  wire [31:0] global_offset_0,
    input  wire [31:0] global_offset_1,
    input  wire [31:0] global_offset_2,
    input  wire [31:0] arg_a,
    output reg         a_rreq_valid,
    input  wire        a_rreq_ready,
    output wire [31:0] a_rreq_addr,
    input  wire        a_rresp_valid,
    output wire        a_rresp_ready,
    input  wire [31:0] a_rresp_data
);
    reg [31:0] base;
    wire unused_inputs = &{1'b0, global_size_0, global_size_1, global_size_2, local_size_0,
                           local_size_1, local_size_2, global_offset_0, global_offset_1,
                           global_offset_2, a_rresp_valid, a_rresp_data};

    assign done = 1'b0;
    assign a_rresp_ready = 1'b0;
    assign a_rreq_addr = base;

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0;
            a_rreq_valid <= 1'b0;
        end else begin
            if (start && !busy) begin
                busy <= 1'b1;
                base <= arg_a;
                a_rreq_valid <= 1'b1;
            end
            if (a_rreq_valid && a_rreq_ready) a_rreq_valid <= 1'b0;
        end
    end
endmodule

`default_nettype wire
