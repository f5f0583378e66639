// oclhls_litedram_port: one kernel global-memory port (docs/hardware-interface.md, "Global
// memory", revision 2 without atomics or bursts) onto one LiteDRAM native user port
// (cmd / wdata / rdata streams of `crossbar.get_port(data_width=D)`). Part of oclhls
// (board-support/rtl); the board SoC instantiates one per memory port.
//
// - Requests: the read and the write request channel share one command FIFO (CDEPTH
//   entries) in front of the native port's `cmd` stream; when both wait, they alternate. A
//   channel's `ready` says whether the FIFO (and, for reads, the response budget; for writes,
//   the write-data FIFO) has room, whatever the kernel's `valid` on that channel: generated
//   kernels stall on `!ready` of a request they do not make (a load or store whose predicate is
//   false still waits for its port's `ready`), so a `ready` that waited for `valid`, as
//   LiteDRAM's `cmd.ready` does, deadlocks them. A write is accepted together with its command
//   (address and data arrive together on revision-1 write channels); its data waits in a FIFO
//   for the controller's `wdata.ready` (LiteDRAM samples write data when it says ready, so the
//   data must be there by then: it is, since it is pushed when the command is).
// Bursts (planned): a burst of `len+1` beats becomes `len+1` commands at consecutive word
// addresses, with `last` counted in the offset FIFO; the FIFOs already decouple the channels.
`default_nettype none
module oclhls_litedram_port #(
    parameter integer W = 32,       // element width of the kernel port (8 * 2^k)
    parameter integer D = 32,       // data width of the native port, D >= W, power of two
    parameter integer AW = 24,      // address width of the native port (in D-bit words)
    parameter integer RDEPTH = 16,  // read responses in flight or buffered at most (2^k)
    parameter integer RAW = 4,      // log2(RDEPTH)
    parameter integer WDEPTH = 4,   // write data buffered at most (2^k)
    parameter integer WAW = 2,      // log2(WDEPTH)
    parameter integer CDEPTH = 4,   // commands buffered at most (2^k)
    parameter integer CAW = 2       // log2(CDEPTH)
) (
    input  wire           clk,
    input  wire           rst,
    // Kernel side: read request / response.
    input  wire           rreq_valid,
    output wire           rreq_ready,
    input  wire [31:0]    rreq_addr,
    output wire           rresp_valid,
    input  wire           rresp_ready,
    output wire [W-1:0]   rresp_data,
    // Kernel side: write request (address, data, byte enables) / acknowledgement.
    input  wire           wreq_valid,
    output wire           wreq_ready,
    input  wire [31:0]    wreq_addr,
    input  wire [W-1:0]   wreq_data,
    input  wire [W/8-1:0] wreq_strb,
    output wire           wresp_valid,
    input  wire           wresp_ready,
    // LiteDRAM native port.
    output wire           cmd_valid,
    input  wire           cmd_ready,
    output wire           cmd_we,
    output wire [AW-1:0]  cmd_addr,
    output wire           cmd_last,
    output wire           wdata_valid,
    input  wire           wdata_ready,
    output wire [D-1:0]   wdata_data,
    output wire [D/8-1:0] wdata_we,
    input  wire           rdata_valid,
    output wire           rdata_ready,
    input  wire [D-1:0]   rdata_data
);
    localparam integer WB = W / 8;        // bytes per element
    localparam integer DB = D / 8;        // bytes per native word
    localparam integer LANES = D / W;     // elements per native word
    localparam integer OB = $clog2(DB);   // byte-offset bits of a native word
    localparam integer EB = $clog2(WB);   // byte-offset bits of an element
    localparam integer SW = (LANES > 1) ? $clog2(LANES) : 1; // lane-select width

    // ---- Arbitration between the read and the write channel into the command FIFO.
    reg [RAW:0] rcount;        // reads accepted and not yet handed to the kernel
    wire        rfifo_full;
    wire        wfifo_full;
    wire        cq_full;
    wire        read_room  = !cq_full && (rcount != RDEPTH[RAW:0]);
    wire        write_room = !cq_full && !wfifo_full;
    reg         last_write; // the previous command was a write: a waiting read goes first
    // Each channel's ready depends on its room and on the other channel's valid, never on its
    // own valid (see the header).
    assign rreq_ready = read_room && !(wreq_valid && write_room && !last_write);
    assign wreq_ready = write_room && !(rreq_valid && read_room && last_write);
    wire        issue_read  = rreq_valid && rreq_ready;
    wire        issue_write = wreq_valid && wreq_ready;
    wire [31:0] sel_addr = issue_write ? wreq_addr : rreq_addr;

    always @(posedge clk) begin
        if (rst) begin
            last_write <= 1'b0;
        end else if (issue_read || issue_write) begin
            last_write <= issue_write;
        end
    end

    // ---- Commands, in acceptance order, to the native port.
    wire cq_empty;
    oclhls_fifo #(.W(AW + 1), .DEPTH(CDEPTH), .AW(CAW)) u_cmd (
        .clk(clk), .rst(rst),
        .push(issue_read || issue_write), .push_data({issue_write, sel_addr[OB +: AW]}),
        .full(cq_full),
        .pop(cmd_ready), .pop_data({cmd_we, cmd_addr}), .empty(cq_empty)
    );
    assign cmd_valid = !cq_empty;
    assign cmd_last  = 1'b1;

    // ---- Lane of the element inside the native word.
    wire [SW-1:0] wlane;
    wire [SW-1:0] rlane;
    wire [D-1:0]  wdata_placed;
    wire [DB-1:0] we_placed;
    generate
        if (LANES > 1) begin : g_lanes
            assign wlane = wreq_addr[EB +: SW];
            assign rlane = rreq_addr[EB +: SW];
            assign wdata_placed = {LANES{wreq_data}};
            assign we_placed = {{(DB-WB){1'b0}}, wreq_strb} << (wlane * WB);
        end else begin : g_whole
            assign wlane = 1'b0;
            assign rlane = 1'b0;
            assign wdata_placed = wreq_data;
            assign we_placed = wreq_strb;
        end
    endgenerate

    // ---- Write data, waiting for the controller.
    wire wfifo_empty;
    oclhls_fifo #(.W(D + DB), .DEPTH(WDEPTH), .AW(WAW)) u_wdata (
        .clk(clk), .rst(rst),
        .push(issue_write), .push_data({we_placed, wdata_placed}), .full(wfifo_full),
        .pop(wdata_ready), .pop_data({wdata_we, wdata_data}), .empty(wfifo_empty)
    );
    assign wdata_valid = !wfifo_empty;

    // ---- Write acknowledgements: one per write whose data the controller took.
    reg [15:0] wacks;
    wire       wdata_taken = wdata_valid && wdata_ready;
    wire       wresp_taken = wresp_valid && wresp_ready;
    assign wresp_valid = wacks != 16'd0;
    always @(posedge clk) begin
        if (rst) begin
            wacks <= 16'd0;
        end else begin
            wacks <= wacks + {15'd0, wdata_taken} - {15'd0, wresp_taken};
        end
    end

    // ---- Read responses: the lane of each read in flight, then a response FIFO.
    wire [SW-1:0] lane_head;
    wire          lanes_empty;
    wire          lanes_full;
    oclhls_fifo #(.W(SW), .DEPTH(RDEPTH), .AW(RAW)) u_lanes (
        .clk(clk), .rst(rst),
        .push(issue_read), .push_data(rlane), .full(lanes_full),
        .pop(rdata_valid), .pop_data(lane_head), .empty(lanes_empty)
    );
    assign rdata_ready = 1'b1;
    wire [D-1:0] rshifted = rdata_data >> (lane_head * W);
    wire         rfifo_empty;
    oclhls_fifo #(.W(W), .DEPTH(RDEPTH), .AW(RAW)) u_rdata (
        .clk(clk), .rst(rst),
        .push(rdata_valid), .push_data(rshifted[W-1:0]), .full(rfifo_full),
        .pop(rresp_ready), .pop_data(rresp_data), .empty(rfifo_empty)
    );
    assign rresp_valid = !rfifo_empty;
    wire rresp_taken = rresp_valid && rresp_ready;
    always @(posedge clk) begin
        if (rst) begin
            rcount <= {(RAW+1){1'b0}};
        end else begin
            rcount <= rcount + {{RAW{1'b0}}, issue_read} - {{RAW{1'b0}}, rresp_taken};
        end
    end

    // Address bits outside the memory and FIFO flags that cannot be reached (the counters
    // bound both FIFOs): Verilator's unused-signal idiom.
    wire unused = &{1'b0, sel_addr, wreq_addr, rreq_addr, wlane, lanes_empty, lanes_full, rfifo_full,
                    rshifted, 1'b0};
endmodule
`default_nettype wire
