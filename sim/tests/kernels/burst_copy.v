// Test kernel for the sim crate's burst ports (docs/hardware-interface.md, "Revision 2"):
// b[i] = a[i] + 1 for i < arg_n, in bursts of arg_blen beats (1..256; the last one shorter).
// Per burst: one read burst (AR with len, R beats with last) into a buffer, then one write
// burst whose address (AW with len) and data beats (W with last) are offered in the same
// cycle, then its single write response (B). The host keeps bursts inside 4 KB pages.
//
// The sticky output `bad_last` is set when `a_rresp_last` is not high exactly on a read
// burst's last beat.
`default_nettype none

module burst_copy (
    input  wire        clk,
    input  wire        rst,
    input  wire        start,
    output reg         busy,
    output reg         done,
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
    input  wire [31:0] arg_b,
    input  wire [31:0] arg_n,
    input  wire [31:0] arg_blen,
    output reg         a_rreq_valid,
    input  wire        a_rreq_ready,
    output reg  [31:0] a_rreq_addr,
    output reg  [7:0]  a_rreq_len,
    input  wire        a_rresp_valid,
    output wire        a_rresp_ready,
    input  wire [31:0] a_rresp_data,
    input  wire        a_rresp_last,
    output reg         b_wreq_valid,
    input  wire        b_wreq_ready,
    output reg  [31:0] b_wreq_addr,
    output reg  [7:0]  b_wreq_len,
    output reg         b_wdata_valid,
    input  wire        b_wdata_ready,
    output reg  [31:0] b_wdata_data,
    output reg         b_wdata_last,
    input  wire        b_wresp_valid,
    output wire        b_wresp_ready,
    output reg         bad_last
);
    localparam [2:0] IDLE = 3'd0, ADDR = 3'd1, READ = 3'd2, WRITE = 3'd3, ACK = 3'd4;

    reg [2:0]  state;
    reg [31:0] copied;
    reg [8:0]  beats, k;
    reg [31:0] buffer [0:255];

    wire unused = &{1'b0, global_size_0, global_size_1, global_size_2, local_size_0,
                    local_size_1, local_size_2, global_offset_0, global_offset_1,
                    global_offset_2, arg_blen[31:9]};

    wire [31:0] left = arg_n - copied;
    wire [8:0]  next_beats = (left > {23'd0, arg_blen[8:0]}) ? arg_blen[8:0] : left[8:0];
    wire [31:0] offset = copied << 2;
    wire        aw_done = !b_wreq_valid || b_wreq_ready;
    wire        w_done = !b_wdata_valid || (b_wdata_ready && b_wdata_last);
    wire [8:0]  k1 = k + 9'd1;
    wire [8:0]  k2 = k + 9'd2;

    assign a_rresp_ready = state == READ;
    assign b_wresp_ready = state == ACK;

    always @(posedge clk) begin
        if (rst) begin
            state <= IDLE;
            busy <= 1'b0;
            done <= 1'b0;
            a_rreq_valid <= 1'b0;
            b_wreq_valid <= 1'b0;
            b_wdata_valid <= 1'b0;
            bad_last <= 1'b0;
        end else begin
            done <= 1'b0;
            case (state)
                IDLE: if (start) begin
                    busy <= 1'b1;
                    copied <= 32'd0;
                    state <= ADDR;
                end
                ADDR: if (!a_rreq_valid) begin
                    a_rreq_valid <= 1'b1;
                    a_rreq_addr <= arg_a + offset;
                    a_rreq_len <= next_beats[7:0] - 8'd1;
                    beats <= next_beats;
                    k <= 9'd0;
                end else if (a_rreq_ready) begin
                    a_rreq_valid <= 1'b0;
                    state <= READ;
                end
                READ: if (a_rresp_valid) begin
                    buffer[k[7:0]] <= a_rresp_data + 32'd1;
                    k <= k1;
                    if (a_rresp_last != (k1 == beats)) bad_last <= 1'b1;
                    if (k1 == beats) begin
                        state <= WRITE;
                        k <= 9'd0;
                        b_wreq_valid <= 1'b1;
                        b_wreq_addr <= arg_b + offset;
                        b_wreq_len <= beats[7:0] - 8'd1;
                        b_wdata_valid <= 1'b1;
                        b_wdata_data <= (k == 9'd0) ? a_rresp_data + 32'd1 : buffer[0];
                        b_wdata_last <= beats == 9'd1;
                    end
                end
                WRITE: begin
                    if (b_wreq_valid && b_wreq_ready) b_wreq_valid <= 1'b0;
                    if (b_wdata_valid && b_wdata_ready) begin
                        if (b_wdata_last) begin
                            b_wdata_valid <= 1'b0;
                        end else begin
                            k <= k1;
                            b_wdata_data <= buffer[k1[7:0]];
                            b_wdata_last <= k2 == beats;
                        end
                    end
                    if (aw_done && w_done) state <= ACK;
                end
                ACK: if (b_wresp_valid) begin
                    copied <= copied + {23'd0, beats};
                    if (copied + {23'd0, beats} == arg_n) begin
                        state <= IDLE;
                        busy <= 1'b0;
                        done <= 1'b1;
                    end else begin
                        state <= ADDR;
                    end
                end
                default: state <= IDLE;
            endcase
        end
    end
endmodule
