// oclhls_litedram_port: one kernel global-memory port (docs/hardware-interface.md, "Global
// memory", revision 2 without atomics) onto one LiteDRAM native user port
// (cmd / wdata / rdata streams of `crossbar.get_port(data_width=D)`). Part of oclhls
// (board-support/rtl); the board SoC instantiates one per memory port.
//
// - Requests: the read and the write request channel share one command FIFO (CDEPTH
//   entries) in front of the native port's `cmd` stream. A channel's `ready` says whether the
//   FIFO (and, for reads, the response budget; for writes, the write-data FIFO) has room,
//   whatever the kernel's `valid` on that channel: generated kernels stall on `!ready` of a
//   request they do not make (a load or store whose predicate is false still waits for its
//   port's `ready`), so a `ready` that waited for `valid`, as LiteDRAM's `cmd.ready` does,
//   deadlocks them; so a request that takes several commands (a burst, or an element wider
//   than the native port) is latched first and sent from the latch. Write data waits in a
//   FIFO for the controller's `wdata.ready` (LiteDRAM samples write data when it says ready,
//   so the data must be there by then: it is pushed together with its command).
// - Bursts (RBURST / WBURST, revision 2 of the interface): an AR burst of `rreq_len+1` beats
//   becomes as many read commands at consecutive element addresses, and `rresp_last` marks
//   the response of its last beat (the flag travels with the lane through the FIFOs). An AW
//   burst is held until its W beats (`kwdata_*`, the kernel's `p_wdata_*`) have passed; each
//   beat is one write command at the next element address, and the one write response of the
//   burst (`wresp`) follows the controller's acceptance of the beat with `last`. A port that
//   does not burst has the revision-1 channels (every request is its own last beat).
// - Arbitration: when both channels have a beat ready, the channel in the middle of a burst
//   keeps the command stream until its last beat, then the other one goes: one command per
//   cycle, whole bursts back to back, and single transfers alternate as before.
`default_nettype none
module oclhls_litedram_port #(
    parameter integer W = 32,       // element width of the kernel port (8 * 2^k)
    parameter integer D = 16,       // data width of the native port (power of two, >= 8)
    parameter integer AW = 24,      // address width of the native port (in D-bit words)
    parameter integer RBURST = 0,   // 1: the read channel carries AR bursts (rreq_len, rresp_last)
    parameter integer WBURST = 0,   // 1: the write channel carries AW bursts and W beats
    parameter integer RDEPTH = 16,  // read responses in flight or buffered at most (2^k)
    parameter integer RAW = 4,      // log2(RDEPTH)
    parameter integer WDEPTH = 16,  // native write words buffered at most (2^k)
    parameter integer WAW = 4,      // log2(WDEPTH)
    parameter integer CDEPTH = 8,   // commands buffered at most (2^k)
    parameter integer CAW = 3       // log2(CDEPTH)
) (
    input  wire           clk,
    input  wire           rst,
    // Kernel side: read request (AR) / response (R).
    input  wire           rreq_valid,
    output wire           rreq_ready,
    input  wire [31:0]    rreq_addr,
    input  wire [7:0]     rreq_len,     // beats - 1 (RBURST; tie to 0 otherwise)
    output wire           rresp_valid,
    input  wire           rresp_ready,
    output wire [W-1:0]   rresp_data,
    output wire           rresp_last,   // last beat of its burst (always 1 without RBURST)
    // Kernel side: write request (AW; with data and byte enables without WBURST) / response (B).
    input  wire           wreq_valid,
    output wire           wreq_ready,
    input  wire [31:0]    wreq_addr,
    input  wire [7:0]     wreq_len,     // beats - 1 (WBURST; tie to 0 otherwise)
    input  wire [W-1:0]   wreq_data,    // without WBURST
    input  wire [W/8-1:0] wreq_strb,    // without WBURST
    output wire           wresp_valid,
    input  wire           wresp_ready,
    // Kernel side: write data beats (W), with WBURST.
    input  wire           kwdata_valid,
    output wire           kwdata_ready,
    input  wire [W-1:0]   kwdata_data,
    input  wire [W/8-1:0] kwdata_strb,
    input  wire           kwdata_last,
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
    localparam integer LANES = (D > W) ? D / W : 1;  // elements per native word
    localparam integer NW = (W > D) ? W / D : 1;     // native words per element
    localparam integer OB = $clog2(DB);   // byte-offset bits of a native word
    localparam integer EB = $clog2(WB);   // byte-offset bits of an element
    localparam integer SW = (LANES > 1) ? $clog2(LANES) : 1; // lane-select width
    localparam integer NB = (NW > 1) ? $clog2(NW) : 1;       // native-word-select width
    localparam integer RWORDS = RDEPTH * NW;  // native read words in flight at most
    localparam integer RWAW = RAW + ((NW > 1) ? $clog2(NW) : 0);

    // ---- Beats: what each channel offers the command stream this cycle.
    wire        beat_read;     // a read beat is waiting
    wire [31:0] beat_raddr;
    wire        beat_rlast;
    wire        beat_write;    // a write beat (address and data) is waiting
    wire [31:0] beat_waddr;
    wire [W-1:0]  beat_wdata;
    wire [WB-1:0] beat_wstrb;
    wire        beat_wlast;

    // ---- Native words of a beat: an element wider than the native port is NW commands at
    // consecutive native addresses, one per cycle (LiteDRAM's own down-converter would spend
    // a third cycle per element); `rsub`/`wsub` count the words of the beat already sent.
    reg  [NB-1:0] rsub;
    reg  [NB-1:0] wsub;
    localparam integer NWM1 = NW - 1;
    wire          rsub_final = (NW == 1) || (rsub == NWM1[NB-1:0]);
    wire          wsub_final = (NW == 1) || (wsub == NWM1[NB-1:0]);

    // ---- Arbitration between the read and the write words into the command FIFO.
    reg [RWAW:0] rcount;       // native read words accepted, less NW per element handed over
    wire        rfifo_full;
    wire        wfifo_full;
    wire        cq_full;
    wire        read_room  = !cq_full && (rcount != RWORDS[RWAW:0]);
    wire        write_room = !cq_full && !wfifo_full;
    reg         write_turn; // a waiting write goes first (mid write burst, or after a read burst)
    // Each side's go depends on its room and on the other side's beat, never on its own.
    wire        read_go  = read_room && !(beat_write && write_room && write_turn);
    wire        write_go = write_room && !(beat_read && read_room && !write_turn);
    wire        push_read  = beat_read && read_go;    // a native read command
    wire        push_write = beat_write && write_go;  // a native write command
    wire        issue_read  = push_read && rsub_final;   // the read beat is done
    wire        issue_write = push_write && wsub_final;  // the write beat is done
    wire        word_rlast = beat_rlast && rsub_final;
    wire        word_wlast = beat_wlast && wsub_final;
    wire [31:0] sel_addr = push_write ? beat_waddr : beat_raddr;
    wire [NB-1:0] sel_sub = push_write ? wsub : rsub;

    always @(posedge clk) begin
        if (rst) begin
            write_turn <= 1'b1;
            rsub <= {NB{1'b0}};
            wsub <= {NB{1'b0}};
        end else begin
            if (push_read) begin
                write_turn <= word_rlast;
            end else if (push_write) begin
                write_turn <= !word_wlast;
            end
            if (push_read) begin
                rsub <= rsub_final ? {NB{1'b0}} : rsub + 1'b1;
            end
            if (push_write) begin
                wsub <= wsub_final ? {NB{1'b0}} : wsub + 1'b1;
            end
        end
    end

    // ---- Read beats: the request itself, or the next beat of the burst (or of the wide
    // element) in progress. A request that takes several commands is latched, so that the
    // channel's `ready` depends on the latch only, never on `valid` (see the header).
    generate
        if (RBURST != 0 || NW > 1) begin : g_rlatch
            reg        rb_active;
            reg [31:0] rb_addr;
            reg [7:0]  rb_left;    // beats after the current one
            wire [7:0] rlen = (RBURST != 0) ? rreq_len : 8'd0;
            assign beat_read  = rb_active;
            assign beat_raddr = rb_addr;
            assign beat_rlast = rb_left == 8'd0;
            assign rreq_ready = !rb_active || (issue_read && beat_rlast);
            always @(posedge clk) begin
                if (rst) begin
                    rb_active <= 1'b0;
                    rb_addr <= 32'd0;
                    rb_left <= 8'd0;
                end else if (rreq_valid && rreq_ready) begin
                    rb_active <= 1'b1;
                    rb_addr <= rreq_addr;
                    rb_left <= rlen;
                end else if (issue_read) begin
                    rb_active <= !beat_rlast;
                    rb_addr <= rb_addr + WB;
                    rb_left <= rb_left - 8'd1;
                end
            end
        end else begin : g_rsingle
            assign beat_read  = rreq_valid;
            assign beat_raddr = rreq_addr;
            assign beat_rlast = 1'b1;
            assign rreq_ready = read_go;
            wire unused_rlen = &{1'b0, rreq_len, 1'b0};
        end
    endgenerate

    // ---- Write beats: the request with its data, or the burst's address with its W beats.
    generate
        if (WBURST != 0) begin : g_wburst
            reg        wb_active;
            reg [31:0] wb_addr;
            assign beat_write = wb_active && kwdata_valid;
            assign beat_waddr = wb_addr;
            assign beat_wdata = kwdata_data;
            assign beat_wstrb = kwdata_strb;
            assign beat_wlast = kwdata_last;
            assign kwdata_ready = wb_active && write_go && wsub_final;
            assign wreq_ready = !wb_active || (issue_write && beat_wlast);
            always @(posedge clk) begin
                if (rst) begin
                    wb_active <= 1'b0;
                    wb_addr <= 32'd0;
                end else if (wreq_valid && wreq_ready) begin
                    wb_active <= 1'b1;
                    wb_addr <= wreq_addr;
                end else if (issue_write) begin
                    wb_active <= !beat_wlast;
                    wb_addr <= wb_addr + WB;
                end
            end
            // The beat count comes from `last` (the burst rules make them agree); the
            // revision-1 data lines are not driven by a bursting kernel.
            wire unused_wsingle = &{1'b0, wreq_len, wreq_data, wreq_strb, 1'b0};
        end else if (NW > 1) begin : g_wlatch
            // A single write of a wide element: latched with its data, then sent word by word.
            reg          wl_active;
            reg [31:0]   wl_addr;
            reg [W-1:0]  wl_data;
            reg [WB-1:0] wl_strb;
            assign beat_write = wl_active;
            assign beat_waddr = wl_addr;
            assign beat_wdata = wl_data;
            assign beat_wstrb = wl_strb;
            assign beat_wlast = 1'b1;
            assign kwdata_ready = 1'b0;
            assign wreq_ready = !wl_active || issue_write;
            always @(posedge clk) begin
                if (rst) begin
                    wl_active <= 1'b0;
                    wl_addr <= 32'd0;
                    wl_data <= {W{1'b0}};
                    wl_strb <= {WB{1'b0}};
                end else if (wreq_valid && wreq_ready) begin
                    wl_active <= 1'b1;
                    wl_addr <= wreq_addr;
                    wl_data <= wreq_data;
                    wl_strb <= wreq_strb;
                end else if (issue_write) begin
                    wl_active <= 1'b0;
                end
            end
        end else begin : g_wsingle
            assign beat_write = wreq_valid;
            assign beat_waddr = wreq_addr;
            assign beat_wdata = wreq_data;
            assign beat_wstrb = wreq_strb;
            assign beat_wlast = 1'b1;
            assign kwdata_ready = 1'b0;
            assign wreq_ready = write_go;
        end
    endgenerate

    generate
        if (WBURST == 0) begin : g_no_wdata
            // Without bursts the W channel and the burst length are not used.
            wire unused_kw = &{1'b0, wreq_len, kwdata_valid, kwdata_data, kwdata_strb,
                               kwdata_last, 1'b0};
        end
    endgenerate

    // ---- Commands, in acceptance order, to the native port.
    wire cq_empty;
    wire [AW-1:0] sel_word = sel_addr[OB +: AW] + {{(AW-NB){1'b0}}, (NW > 1) ? sel_sub : {NB{1'b0}}};
    oclhls_fifo #(.W(AW + 1), .DEPTH(CDEPTH), .AW(CAW)) u_cmd (
        .clk(clk), .rst(rst),
        .push(push_read || push_write), .push_data({push_write, sel_word}),
        .full(cq_full),
        .pop(cmd_ready), .pop_data({cmd_we, cmd_addr}), .empty(cq_empty)
    );
    assign cmd_valid = !cq_empty;
    assign cmd_last  = 1'b1;

    // ---- The native word of a write: the element's lane, or its `wsub`-th slice.
    wire [SW-1:0] rlane;
    wire [D-1:0]  wdata_placed;
    wire [DB-1:0] we_placed;
    generate
        if (LANES > 1) begin : g_lanes
            wire [SW-1:0] wlane = beat_waddr[EB +: SW];
            assign rlane = beat_raddr[EB +: SW];
            assign wdata_placed = {LANES{beat_wdata}};
            assign we_placed = {{(DB-WB){1'b0}}, beat_wstrb} << (wlane * WB);
        end else if (NW > 1) begin : g_split
            assign rlane = 1'b0;
            assign wdata_placed = beat_wdata[wsub * D +: D];
            assign we_placed = beat_wstrb[wsub * DB +: DB];
        end else begin : g_whole
            assign rlane = 1'b0;
            assign wdata_placed = beat_wdata;
            assign we_placed = beat_wstrb;
        end
    endgenerate

    // ---- Write data, waiting for the controller, with the burst's `last` flag.
    wire wfifo_empty;
    wire wdata_lastbeat;
    oclhls_fifo #(.W(D + DB + 1), .DEPTH(WDEPTH), .AW(WAW)) u_wdata (
        .clk(clk), .rst(rst),
        .push(push_write), .push_data({word_wlast, we_placed, wdata_placed}),
        .full(wfifo_full),
        .pop(wdata_ready), .pop_data({wdata_lastbeat, wdata_we, wdata_data}),
        .empty(wfifo_empty)
    );
    assign wdata_valid = !wfifo_empty;

    // ---- Write responses: one per burst (or single write) whose last word the controller took.
    reg [15:0] wacks;
    wire       wdata_done = wdata_valid && wdata_ready && wdata_lastbeat;
    wire       wresp_taken = wresp_valid && wresp_ready;
    assign wresp_valid = wacks != 16'd0;
    always @(posedge clk) begin
        if (rst) begin
            wacks <= 16'd0;
        end else begin
            wacks <= wacks + {15'd0, wdata_done} - {15'd0, wresp_taken};
        end
    end

    // ---- Read responses: per native word in flight its lane, whether it ends its element,
    // and `last`; the words of an element are gathered, then a response FIFO.
    wire [SW-1:0] lane_head;
    wire          final_head;
    wire          last_head;
    wire          lanes_empty;
    wire          lanes_full;
    oclhls_fifo #(.W(SW + 2), .DEPTH(RWORDS), .AW(RWAW)) u_lanes (
        .clk(clk), .rst(rst),
        .push(push_read), .push_data({word_rlast, rsub_final, rlane}), .full(lanes_full),
        .pop(rdata_valid), .pop_data({last_head, final_head, lane_head}), .empty(lanes_empty)
    );
    assign rdata_ready = 1'b1;
    wire [W-1:0] element;
    generate
        if (NW > 1) begin : g_gather
            reg [W-D-1:0] gathered;   // the element's earlier words, the newest on top
            wire [W-1:0] shifted_in = {rdata_data, gathered};
            always @(posedge clk) begin
                if (rst) begin
                    gathered <= {(W-D){1'b0}};
                end else if (rdata_valid) begin
                    gathered <= shifted_in[W-1:D];
                end
            end
            assign element = shifted_in;
            wire unused_gather = &{1'b0, lane_head, 1'b0};
        end else begin : g_one
            wire [D-1:0] rshifted = rdata_data >> (lane_head * W);
            assign element = rshifted[W-1:0];
            wire unused_one = &{1'b0, rshifted, final_head, 1'b0};
        end
    endgenerate
    wire         rfifo_empty;
    oclhls_fifo #(.W(W + 1), .DEPTH(RDEPTH), .AW(RAW)) u_rdata (
        .clk(clk), .rst(rst),
        .push(rdata_valid && final_head), .push_data({last_head, element}), .full(rfifo_full),
        .pop(rresp_ready), .pop_data({rresp_last, rresp_data}), .empty(rfifo_empty)
    );
    assign rresp_valid = !rfifo_empty;
    wire rresp_taken = rresp_valid && rresp_ready;
    always @(posedge clk) begin
        if (rst) begin
            rcount <= {(RWAW+1){1'b0}};
        end else begin
            rcount <= rcount + {{RWAW{1'b0}}, push_read} - (rresp_taken ? NW[RWAW:0] : {(RWAW+1){1'b0}});
        end
    end

    // Address bits outside the memory, FIFO flags that cannot be reached (the counters bound
    // the FIFOs) and the beat ends a port without bursts does not need: Verilator's
    // unused-signal idiom.
    wire unused = &{1'b0, sel_addr, beat_waddr, beat_raddr, lanes_empty, lanes_full,
                    rfifo_full, issue_read, issue_write, 1'b0};
endmodule
`default_nettype wire
