// Test kernel for SystemRun (tests/system_run.rs): for i in 0 .. global_size_0 - 1, reads
// src[i] and writes it into pipe `p`, offering a refused write again every cycle (as
// write_pipe_block does). One element at a time, following docs/hardware-interface.md; the
// pipe ports are the FIFO's write side (`p_wr_valid`, `p_wr_data`, `p_wr_ok`).
`default_nettype none

module sys_producer (
    input  wire        clk,
    input  wire        rst,
    input  wire        start,
    output reg         busy,
    output reg         done,
    input  wire [31:0] global_size_0,
    input  wire [31:0] global_size_1,
    input  wire [31:0] global_size_2,
    input  wire [31:0] arg_src,
    output reg         src_rreq_valid,
    input  wire        src_rreq_ready,
    output reg  [31:0] src_rreq_addr,
    input  wire        src_rresp_valid,
    output wire        src_rresp_ready,
    input  wire [31:0] src_rresp_data,
    output wire        p_wr_valid,
    output reg  [31:0] p_wr_data,
    input  wire        p_wr_ok
);
    localparam [2:0] IDLE = 3'd0, READ = 3'd1, RESP = 3'd2, WRITE = 3'd3, FINISH = 3'd4;

    reg [2:0]  state;
    reg [31:0] base, count, index;

    // Size inputs the kernel does not need (1-D).
    wire unused_sizes = &{1'b0, global_size_1, global_size_2};

    assign src_rresp_ready = state == RESP;
    assign p_wr_valid = state == WRITE;

    always @(posedge clk) begin
        if (rst) begin
            state <= IDLE;
            busy <= 1'b0;
            done <= 1'b0;
            src_rreq_valid <= 1'b0;
        end else begin
            done <= 1'b0;
            case (state)
                IDLE: if (start) begin
                    base <= arg_src;
                    count <= global_size_0;
                    index <= 32'd0;
                    busy <= 1'b1;
                    state <= (global_size_0 == 32'd0) ? FINISH : READ;
                end
                READ: begin
                    src_rreq_valid <= 1'b1;
                    src_rreq_addr <= base + (index << 2);
                    if (src_rreq_valid && src_rreq_ready) begin
                        src_rreq_valid <= 1'b0;
                        state <= RESP;
                    end
                end
                RESP: if (src_rresp_valid) begin
                    p_wr_data <= src_rresp_data;
                    state <= WRITE;
                end
                WRITE: if (p_wr_ok) begin
                    index <= index + 32'd1;
                    state <= (index + 32'd1 == count) ? FINISH : READ;
                end
                FINISH: begin
                    busy <= 1'b0;
                    done <= 1'b1;
                    state <= IDLE;
                end
                default: state <= IDLE;
            endcase
        end
    end
endmodule

`default_nettype wire
