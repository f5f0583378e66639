// Test kernel for SystemRun (tests/system_run.rs): for i in 0 .. global_size_0 - 1, reads a
// packet from pipe `p` (offering the read again every cycle while the pipe is empty, as
// read_pipe_block does) and writes it to dst[i]. One element at a time, following
// docs/hardware-interface.md; the pipe ports are the FIFO's read side (`p_rd_valid`,
// `p_rd_ok`, `p_rd_data`, the packet one cycle after the read).
`default_nettype none

module sys_consumer (
    input  wire        clk,
    input  wire        rst,
    input  wire        start,
    output reg         busy,
    output reg         done,
    input  wire [31:0] global_size_0,
    input  wire [31:0] global_size_1,
    input  wire [31:0] global_size_2,
    input  wire [31:0] arg_dst,
    output reg         dst_wreq_valid,
    input  wire        dst_wreq_ready,
    output reg  [31:0] dst_wreq_addr,
    output reg  [31:0] dst_wreq_data,
    input  wire        dst_wresp_valid,
    output wire        dst_wresp_ready,
    output wire        p_rd_valid,
    input  wire        p_rd_ok,
    input  wire [31:0] p_rd_data
);
    localparam [2:0] IDLE = 3'd0, PIPE = 3'd1, DATA = 3'd2, WRITE = 3'd3, ACK = 3'd4,
                     FINISH = 3'd5;

    reg [2:0]  state;
    reg [31:0] base, count, index;

    // Size inputs the kernel does not need (1-D).
    wire unused_sizes = &{1'b0, global_size_1, global_size_2};

    assign p_rd_valid = state == PIPE;
    assign dst_wresp_ready = state == ACK;

    always @(posedge clk) begin
        if (rst) begin
            state <= IDLE;
            busy <= 1'b0;
            done <= 1'b0;
            dst_wreq_valid <= 1'b0;
        end else begin
            done <= 1'b0;
            case (state)
                IDLE: if (start) begin
                    base <= arg_dst;
                    count <= global_size_0;
                    index <= 32'd0;
                    busy <= 1'b1;
                    state <= (global_size_0 == 32'd0) ? FINISH : PIPE;
                end
                PIPE: if (p_rd_ok) state <= DATA;
                DATA: begin
                    dst_wreq_valid <= 1'b1;
                    dst_wreq_addr <= base + (index << 2);
                    dst_wreq_data <= p_rd_data;
                    state <= WRITE;
                end
                WRITE: if (dst_wreq_ready) begin
                    dst_wreq_valid <= 1'b0;
                    state <= ACK;
                end
                ACK: if (dst_wresp_valid) begin
                    index <= index + 32'd1;
                    state <= (index + 32'd1 == count) ? FINISH : PIPE;
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
