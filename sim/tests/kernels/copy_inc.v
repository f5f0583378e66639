// Test kernel for the sim crate: b[i] = a[i] + 1 for every work-item i (dimension 0 only),
// one element at a time, following docs/hardware-interface.md.
//
// With arg_picky[0] set, the kernel holds a_rresp_ready / b_wresp_ready low on pseudo-random
// cycles while waiting, and checks that memory keeps a response valid and its data stable
// until it is taken; a violation sets the sticky output `bad_response`.
`default_nettype none

module copy_inc (
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
    input  wire [31:0] arg_picky,
    output reg         a_rreq_valid,
    input  wire        a_rreq_ready,
    output reg  [31:0] a_rreq_addr,
    input  wire        a_rresp_valid,
    output wire        a_rresp_ready,
    input  wire [31:0] a_rresp_data,
    output reg         b_wreq_valid,
    input  wire        b_wreq_ready,
    output reg  [31:0] b_wreq_addr,
    output reg  [31:0] b_wreq_data,
    input  wire        b_wresp_valid,
    output wire        b_wresp_ready,
    output reg         bad_response
);
    localparam [2:0] IDLE = 3'd0, READ = 3'd1, RESP = 3'd2, WRITE = 3'd3, ACK = 3'd4,
                     FINISH = 3'd5;

    reg [2:0]  state;
    reg [31:0] base_a, base_b, count, index;
    reg        picky;
    reg [15:0] lfsr;
    reg        resp_ready_q, ack_ready_q;
    reg        held_valid;
    reg [31:0] held_data;

    // Size inputs the kernel does not need (1-D, no work-groups).
    wire unused_sizes = &{1'b0, global_size_1, global_size_2, local_size_0, local_size_1,
                          local_size_2, global_offset_1, global_offset_2, arg_picky[31:1]};

    wire [31:0] offset_bytes = (global_offset_0 + index) << 2;
    wire        stall_bit = picky && lfsr[0];

    assign a_rresp_ready = resp_ready_q;
    assign b_wresp_ready = ack_ready_q;

    always @(posedge clk) begin
        if (rst) begin
            state <= IDLE;
            busy <= 1'b0;
            done <= 1'b0;
            a_rreq_valid <= 1'b0;
            b_wreq_valid <= 1'b0;
            resp_ready_q <= 1'b0;
            ack_ready_q <= 1'b0;
            lfsr <= 16'hace1;
            held_valid <= 1'b0;
            bad_response <= 1'b0;
        end else begin
            lfsr <= {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
            done <= 1'b0;
            // A response offered but not taken must still be there, unchanged.
            held_valid <= a_rresp_valid && !a_rresp_ready;
            held_data <= a_rresp_data;
            if (held_valid && (!a_rresp_valid || a_rresp_data != held_data))
                bad_response <= 1'b1;
            case (state)
                IDLE: if (start) begin
                    base_a <= arg_a;
                    base_b <= arg_b;
                    count <= global_size_0;
                    picky <= arg_picky[0];
                    index <= 32'd0;
                    busy <= 1'b1;
                    state <= (global_size_0 == 32'd0) ? FINISH : READ;
                end
                READ: begin
                    a_rreq_valid <= 1'b1;
                    a_rreq_addr <= base_a + offset_bytes;
                    if (a_rreq_valid && a_rreq_ready) begin
                        a_rreq_valid <= 1'b0;
                        resp_ready_q <= !stall_bit;
                        state <= RESP;
                    end
                end
                RESP: begin
                    resp_ready_q <= !stall_bit;
                    if (a_rresp_valid && a_rresp_ready) begin
                        resp_ready_q <= 1'b0;
                        b_wreq_valid <= 1'b1;
                        b_wreq_addr <= base_b + offset_bytes;
                        b_wreq_data <= a_rresp_data + 32'd1;
                        state <= WRITE;
                    end
                end
                WRITE: if (b_wreq_ready) begin
                    b_wreq_valid <= 1'b0;
                    ack_ready_q <= !stall_bit;
                    state <= ACK;
                end
                ACK: begin
                    ack_ready_q <= !stall_bit;
                    if (b_wresp_valid && b_wresp_ready) begin
                        ack_ready_q <= 1'b0;
                        index <= index + 32'd1;
                        state <= (index + 32'd1 == count) ? FINISH : READ;
                    end
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
