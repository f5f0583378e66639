// oclhls_atomic_unit: the atomic unit of the board system (docs/hardware-interface.md,
// "Atomic requests" and "Board system"). Part of oclhls (board-support/rtl); the board SoC
// instantiates one, shared by the read channels of every kernel memory port that issues
// atomics, on a LiteDRAM native port of its own (ND bits, the controller's width; elements are
// handled as D = 32- or 64-bit words). The write channels of those ports keep their
// `oclhls_litedram_port`.
//
// Every request of a client's read channel (plain reads, op 0, and atomics, ops 1-11) passes
// through the unit, in one order for all clients: so a client's responses come back in its
// request order, and two atomics on the same bytes, from any ports of any kernels, are
// executed one after the other.
//
// - Issue: each client's request is latched (its `ready` depends on the latch, never on its
//   `valid`); a round-robin pick among latched clients with a free response credit sends a
//   read command to the native port and the request to the pending FIFO, stamped with the
//   number of writes the unit has produced so far. A read is only issued when no write of the
//   unit is waiting, so every write produced before the stamp is ahead of the read in the
//   native command stream (LiteDRAM executes a port's commands to one bank in order).
// - Completion (in order, when the native read data comes back; three pipeline stages,
//   below): the word is corrected
//   byte by byte with the writes produced after the stamp, still in flight, which the read
//   could not see (the history: the last PDEPTH writes, newest first); the operation computes
//   the new element; an atomic sends its write (word, byte enables) to the write queue, which
//   has priority over reads into the command stream, and enters the history.
// - Response: the old element, in completion order; an atomic's response is released only
//   once the controller has taken its write data, so that any later access of the work-item,
//   through any port, comes after the atomic in memory. Per-client FIFOs with credits keep
//   one slow client from holding the others.
//
// Rate: one request per cycle enters; an atomic then takes D/ND read and D/ND write commands
// (half as many for a 32-bit request in a 64-bit word: only its half's words) on the native
// port (the controller's own width, so LiteDRAM's width converter, which idles
// a cycle in three, is not used), one per cycle: a read splitter and a write splitter (writes
// first) feed the command stream, and the read words are gathered before completion. Up to
// PDEPTH reads are in flight to cover the read latency, and up to ODEPTH requests wait for
// their answers (an atomic's waits for its write, which LiteDRAM holds back while it serves
// reads, up to its `read_time`). A read whose words the writes
// split in two is still right: those writes were produced after its stamp, so forwarding
// replaces their bytes.
`default_nettype none
module oclhls_atomic_unit #(
    parameter integer N = 1,          // client ports
    parameter [N-1:0] NARROW = 0,     // bit i: client i has 32-bit elements (64 otherwise)
    parameter integer D = 32,         // element word width: 32, or 64 when a client is 64-bit
    parameter integer ND = 16,        // native port width (the controller's; D/ND words per D)
    parameter integer NAW = 24,       // native address width (ND-bit words)
    parameter integer CREDITS = 8,    // requests of one client in flight at most (2^k)
    parameter integer CRW = 3,        // log2(CREDITS)
    parameter integer PDEPTH = 8,     // reads issued and not yet completed at most (2^k)
    parameter integer PAW = 3,        // log2(PDEPTH)
    parameter integer ODEPTH = 8,     // requests issued and not yet answered at most (2^k):
                                      // an atomic's answer waits for its write, which the
                                      // controller may hold while it serves reads
    parameter integer OAW = 3         // log2(ODEPTH)
) (
    input  wire            clk,
    input  wire            rst,
    // Clients: the read channels of the kernels' atomic ports, 64 bits of operand and data
    // each (a 32-bit client uses the low half).
    input  wire [N-1:0]    c_rreq_valid,
    output wire [N-1:0]    c_rreq_ready,
    input  wire [N*32-1:0] c_rreq_addr,
    input  wire [N*4-1:0]  c_rreq_op,
    input  wire [N*64-1:0] c_rreq_operand,
    input  wire [N*64-1:0] c_rreq_compare,
    output wire [N-1:0]    c_rresp_valid,
    input  wire [N-1:0]    c_rresp_ready,
    output wire [N*64-1:0] c_rresp_data,
    // LiteDRAM native port.
    output wire            cmd_valid,
    input  wire            cmd_ready,
    output wire            cmd_we,
    output wire [NAW-1:0]  cmd_addr,
    output wire            cmd_last,
    output wire            wdata_valid,
    input  wire            wdata_ready,
    output wire [ND-1:0]   wdata_data,
    output wire [ND/8-1:0] wdata_we,
    input  wire            rdata_valid,
    output wire            rdata_ready,
    input  wire [ND-1:0]   rdata_data
);
    localparam integer DB = D / 8;                 // bytes per element word
    localparam integer OB = $clog2(DB);            // byte-offset bits of an element word
    localparam integer NWD = D / ND;               // native words per element word
    localparam integer SB = (NWD > 1) ? $clog2(NWD) : 0;  // native-word-select bits
    localparam integer SBW = (NWD > 1) ? SB : 1;
    localparam integer AW = NAW - SB;              // element word address width
    localparam integer NB = ND / 8;                // bytes per native word
    localparam integer NWDM1 = NWD - 1;
    localparam [SBW-1:0] SUB_LAST = NWDM1[SBW-1:0];  // the last native word of an element word
    // A 32-bit request in a 64-bit word reads and writes only its half's native words.
    localparam integer HALVES = (D == 64 && NWD >= 2) ? 1 : 0;
    localparam integer H = (NWD >= 2) ? NWD / 2 : 1;
    localparam [SBW-1:0] H_FIRST = H[SBW-1:0];           // the first word of the upper half
    localparam integer HM1 = H - 1;
    localparam [SBW-1:0] H_LAST = HM1[SBW-1:0];           // the last word of the lower half
    localparam integer CW = (N > 1) ? $clog2(N) : 1;  // client index width
    localparam integer RQ = 32 + 4 + 64 + 64;      // a latched request
    localparam [3:0] OP_READ = 4'd0;

    // ---- Client latches and credits.
    reg  [N-1:0]    held;
    reg  [RQ-1:0]   held_req [0:N-1];
    reg  [CRW:0]    used [0:N-1];     // requests issued and not yet taken back by the client
    wire [N-1:0]    eligible;
    wire [N-1:0]    take;             // the latch of client i is issued this cycle
    wire            issue;            // a request is issued (below)
    reg  [CW-1:0]   pick;             // the client it comes from
    wire [N-1:0]    resp_taken = c_rresp_valid & c_rresp_ready;
    genvar gi;
    generate
        for (gi = 0; gi < N; gi = gi + 1) begin : g_client
            localparam [CW-1:0] ID = gi;
            assign take[gi] = issue && (pick == ID);
            assign c_rreq_ready[gi] = !held[gi] || take[gi];
            assign eligible[gi] = held[gi] && (used[gi] != CREDITS[CRW:0]);
            always @(posedge clk) begin
                if (rst) begin
                    held[gi] <= 1'b0;
                    held_req[gi] <= {RQ{1'b0}};
                    used[gi] <= {(CRW+1){1'b0}};
                end else begin
                    if (c_rreq_valid[gi] && c_rreq_ready[gi]) begin
                        held[gi] <= 1'b1;
                        held_req[gi] <= {c_rreq_compare[gi*64 +: 64], c_rreq_operand[gi*64 +: 64],
                                         c_rreq_op[gi*4 +: 4], c_rreq_addr[gi*32 +: 32]};
                    end else if (take[gi]) begin
                        held[gi] <= 1'b0;
                    end
                    used[gi] <= used[gi] + {{CRW{1'b0}}, take[gi]}
                                - {{CRW{1'b0}}, resp_taken[gi]};
                end
            end
        end
    endgenerate

    // ---- Round-robin pick among eligible clients, starting after the last one issued.
    reg  [CW-1:0] last_pick;
    reg           found;
    integer k;
    reg [CW:0] cand;
    always @* begin
        pick = last_pick;
        found = 1'b0;
        // Visit last+N, ..., last+1: the nearest eligible one after `last_pick` is kept.
        for (k = N; k >= 1; k = k - 1) begin
            cand = {1'b0, last_pick} + k[CW:0];
            if (cand >= N[CW:0]) begin
                cand = cand - N[CW:0];
            end
            if (eligible[cand[CW-1:0]]) begin
                pick = cand[CW-1:0];
                found = 1'b1;
            end
        end
    end

    // ---- Issue: a read command and a pending entry, when no write waits and there is room.
    reg  [OAW:0] inflight;            // issued, not yet released to a client
    reg  [PAW:0] reading;             // issued, not yet completed
    reg  [PAW:0] produced;            // writes produced so far (mod 2^(PAW+1))
    wire         wq_empty;
    wire         cq_full;
    wire         wdf_full;
    wire         pq_full;
    // A read is issued when no write of the unit waits or is being sent, and the read
    // splitter (below) is free or sends its last word now.
    wire         rs_free;
    wire         ws_idle;
    assign issue = found && wq_empty && ws_idle && rs_free && (reading != PDEPTH[PAW:0])
                   && (inflight != ODEPTH[OAW:0]);
    wire [RQ-1:0] picked = held_req[pick];
    wire [31:0]   picked_addr = picked[31:0];
    localparam integer PQ = CW + 2 + AW + 4 + 64 + 64 + PAW + 1;
    wire         narrow_pick = NARROW[pick];
    wire [PQ-1:0] pq_in = {pick, narrow_pick, picked_addr[2], picked_addr[OB +: AW], picked[35:32],
                           picked[99:36], picked[163:100], produced};
    always @(posedge clk) begin
        if (rst) begin
            last_pick <= {CW{1'b0}};
        end else if (issue) begin
            last_pick <= pick;
        end
    end
    // The native words a request touches: all of its word, or its half's (`span`: 0 all,
    // 2 the lower half, 3 the upper half).
    wire [1:0]     pick_span = (HALVES != 0 && narrow_pick) ? {1'b1, picked_addr[2]} : 2'b00;

    // ---- Completion, three stages that never stall (LiteDRAM cannot hold read data back,
    // and `reading` and `inflight` keep room for every request in the queues after them):
    //   1. the native read data is registered;
    //   2. it meets its pending entry and is corrected with the history (`fwd`);
    //   3. the operation, with the write of the request one cycle ahead of it (which the
    //      history did not hold yet in stage 2) applied first.
    reg           r_valid;
    reg  [D-1:0]  r_data;
    assign rdata_ready = 1'b1;
    generate
        if (NWD > 1) begin : g_gather
            // The words of a read arrive in address order, from its span's first word to its
            // last (a FIFO of the spans of the reads in flight, pushed at issue); each goes to
            // its place in the word, and the last completes it (the other half of a half read
            // is stale and unused: only the request's bytes are read and written).
            wire [1:0]    g_span;
            wire          g_empty;
            wire          g_full;
            reg  [SBW-1:0] cnt;
            wire [SBW-1:0] g_first = (g_span == 2'b11) ? H_FIRST : {SBW{1'b0}};
            wire [SBW-1:0] g_last = (g_span == 2'b10) ? H_LAST : SUB_LAST;
            wire [SBW-1:0] pos = g_first + cnt;
            wire           g_done = rdata_valid && pos == g_last;
            oclhls_fifo #(.W(2), .DEPTH(PDEPTH), .AW(PAW)) u_spans (
                .clk(clk), .rst(rst),
                .push(issue), .push_data(pick_span), .full(g_full),
                .pop(g_done), .pop_data(g_span), .empty(g_empty)
            );
            reg  [D-1:0]   acc;
            reg  [D-1:0]   acc_in;
            always @* begin
                acc_in = acc;
                acc_in[pos * ND +: ND] = rdata_data;
            end
            always @(posedge clk) begin
                if (rst) begin
                    acc <= {D{1'b0}};
                    cnt <= {SBW{1'b0}};
                    r_valid <= 1'b0;
                    r_data <= {D{1'b0}};
                end else begin
                    r_valid <= g_done;
                    if (rdata_valid) begin
                        acc <= acc_in;
                        cnt <= g_done ? {SBW{1'b0}} : cnt + 1'b1;
                        r_data <= acc_in;
                    end
                end
            end
            wire unused_g = &{1'b0, g_empty, g_full, 1'b0};
        end else begin : g_whole
            always @(posedge clk) begin
                if (rst) begin
                    r_valid <= 1'b0;
                    r_data <= {D{1'b0}};
                end else begin
                    r_valid <= rdata_valid;
                    r_data <= rdata_data;
                end
            end
        end
    endgenerate

    // ---- Pending requests, in issue order (= native read order).
    wire [PQ-1:0] pq_head;
    wire          pq_empty;
    oclhls_fifo #(.W(PQ), .DEPTH(PDEPTH), .AW(PAW)) u_pending (
        .clk(clk), .rst(rst),
        .push(issue), .push_data(pq_in), .full(pq_full),
        .pop(r_valid), .pop_data(pq_head), .empty(pq_empty)
    );
    wire [PAW:0]  h_stamp = pq_head[PAW:0];
    wire [AW-1:0] h_word  = pq_head[PQ-3-CW -: AW];

    // ---- Stage 2, forwarding: the newest write after the stamp to each byte of the word.
    reg  [AW-1:0] hist_word [0:PDEPTH-1];
    reg  [D-1:0]  hist_data [0:PDEPTH-1];
    reg  [DB-1:0] hist_we   [0:PDEPTH-1];
    wire [PAW:0]  window = produced - h_stamp;   // writes the read could not see
    reg  [D-1:0]  fwd;
    integer j;
    integer b;
    always @* begin
        fwd = r_data;
        for (j = PDEPTH - 1; j >= 0; j = j - 1) begin
            for (b = 0; b < DB; b = b + 1) begin
                if (j[PAW:0] < window && hist_word[j] == h_word && hist_we[j][b]) begin
                    fwd[b*8 +: 8] = hist_data[j][b*8 +: 8];
                end
            end
        end
    end
    reg           x_valid;
    reg  [PQ-1:0] x_entry;
    reg  [D-1:0]  x_fwd;
    always @(posedge clk) begin
        if (rst) begin
            x_valid <= 1'b0;
            x_entry <= {PQ{1'b0}};
            x_fwd <= {D{1'b0}};
        end else begin
            x_valid <= r_valid;
            x_entry <= pq_head;
            x_fwd <= fwd;
        end
    end
    wire [CW-1:0] x_client  = x_entry[PQ-1 -: CW];
    wire          x_narrow  = x_entry[PQ-1-CW];
    wire          x_lane    = x_entry[PQ-2-CW];   // a 32-bit element's half of a 64-bit word
    wire [AW-1:0] x_word    = x_entry[PQ-3-CW -: AW];
    wire [3:0]    x_op      = x_entry[PAW+1+128 +: 4];
    wire [63:0]   x_operand = x_entry[PAW+1+64 +: 64];
    wire [63:0]   x_compare = x_entry[PAW+1 +: 64];
    // The stamp served stage 2 (and `x_missed`, decided there).
    wire          unused_stamp = &{1'b0, x_entry[PAW:0], 1'b0};

    // ---- Stage 3: the previous cycle's write (history entry 0) if the read missed it:
    // decided in stage 2 (`x_missed`), so no compare is on the path into the operation.
    // Only possible when a read can be one native word (ND == D, or a 32-bit element's half
    // of a 64-bit word when ND = 32): otherwise every read takes two beats or more, entries
    // reach stage 3 at least two cycles apart, and stage 2 has already forwarded the write;
    // the board's units (ND = 16) have no correction at all.
    localparam integer ONE_BEAT = (NWD == 1 || (HALVES != 0 && H == 1)) ? 1 : 0;
    reg           x_missed;
    wire          missed = (ONE_BEAT != 0) && x_missed;
    reg  [D-1:0]  word_in;
    integer m;
    always @* begin
        word_in = x_fwd;
        for (m = 0; m < DB; m = m + 1) begin
            if (missed && hist_we[0][m]) begin
                word_in[m*8 +: 8] = hist_data[0][m*8 +: 8];
            end
        end
    end

    // ---- The operation (docs/hardware-interface.md, the `op` table).
    wire [63:0] old_full;
    generate
        if (D == 64) begin : g_old64
            assign old_full = !x_narrow ? word_in
                            : {32'd0, x_lane ? word_in[63:32] : word_in[31:0]};
        end else begin : g_old32
            assign old_full = {32'd0, word_in};
            wire unused_old = &{1'b0, x_narrow, x_lane, 1'b0};
        end
    endgenerate
    wire [63:0] a_s = x_narrow ? {{32{x_operand[31]}}, x_operand[31:0]} : x_operand;
    wire [63:0] o_s = x_narrow ? {{32{old_full[31]}}, old_full[31:0]} : old_full;
    wire [63:0] a_u = x_narrow ? {32'd0, x_operand[31:0]} : x_operand;
    wire [63:0] c_u = x_narrow ? {32'd0, x_compare[31:0]} : x_compare;
    wire        s_less = $signed(o_s) < $signed(a_s);
    wire        u_less = old_full < a_u;
    reg  [63:0] new_full;
    always @* begin
        case (x_op)
            4'd1: new_full = old_full + a_u;
            4'd2: new_full = old_full - a_u;
            4'd3: new_full = a_u;
            4'd4: new_full = (old_full == c_u) ? a_u : old_full;
            4'd5: new_full = s_less ? old_full : a_u;
            4'd6: new_full = u_less ? old_full : a_u;
            4'd7: new_full = s_less ? a_u : old_full;
            4'd8: new_full = u_less ? a_u : old_full;
            4'd9: new_full = old_full & a_u;
            4'd10: new_full = old_full | a_u;
            4'd11: new_full = old_full ^ a_u;
            default: new_full = old_full;
        endcase
    end
    // The written word and its byte enables: the element's lane of the corrected word.
    wire [D-1:0]  new_word;
    wire [DB-1:0] new_we;
    generate
        if (D == 64) begin : g_new64
            assign new_word = !x_narrow ? new_full
                            : (x_lane ? {new_full[31:0], word_in[31:0]}
                                      : {word_in[63:32], new_full[31:0]});
            assign new_we = !x_narrow ? 8'hff : (x_lane ? 8'hf0 : 8'h0f);
        end else begin : g_new32
            assign new_word = new_full[31:0];
            assign new_we = 4'hf;
            wire unused_new = &{1'b0, new_full[63:32], 1'b0};
        end
    endgenerate

    // ---- Completion: the old value out, the write into the queue and the history.
    wire complete = x_valid;
    wire writes = complete && (x_op != OP_READ);
    always @(posedge clk) begin
        if (rst) begin
            produced <= {(PAW+1){1'b0}};
            x_missed <= 1'b0;
        end else begin
            produced <= produced + {{PAW{1'b0}}, writes};
            // The entry entering stage 3 missed this write when it is to the same word and
            // its read was sent before it (its stamp is not the count after this write).
            x_missed <= writes && x_word == h_word
                     && (produced + {{PAW{1'b0}}, 1'b1}) != h_stamp;
        end
    end
    integer s;
    always @(posedge clk) begin
        if (writes) begin
            hist_word[0] <= x_word;
            hist_data[0] <= new_word;
            hist_we[0] <= new_we;
            for (s = 1; s < PDEPTH; s = s + 1) begin
                hist_word[s] <= hist_word[s-1];
                hist_data[s] <= hist_data[s-1];
                hist_we[s] <= hist_we[s-1];
            end
        end
    end

    // ---- Writes: queued, then into the command stream ahead of any read.
    wire [2+AW+D+DB-1:0] wq_head;
    wire               wq_full;
    // The write splitter: the word at the head of the queue, one native word per command.
    reg                ws_active;
    reg  [AW-1:0]      ws_word;
    reg  [D-1:0]       ws_data;
    reg  [DB-1:0]      ws_we;
    reg  [SBW-1:0]     ws_sub;
    reg  [1:0]         ws_span;
    wire               ws_last = (NWD == 1) || (ws_sub == ((ws_span == 2'b10) ? H_LAST : SUB_LAST));
    wire [1:0]         x_span = (HALVES != 0 && x_narrow) ? {1'b1, x_lane} : 2'b00;
    wire               push_wword = ws_active && !cq_full && !wdf_full;
    wire               ws_load = !wq_empty && (!ws_active || (push_wword && ws_last));
    assign ws_idle = !ws_active;
    oclhls_fifo #(.W(2 + AW + D + DB), .DEPTH(ODEPTH), .AW(OAW)) u_writes (
        .clk(clk), .rst(rst),
        .push(writes), .push_data({x_span, x_word, new_word, new_we}), .full(wq_full),
        .pop(ws_load), .pop_data(wq_head), .empty(wq_empty)
    );
    always @(posedge clk) begin
        if (rst) begin
            ws_active <= 1'b0;
            ws_word <= {AW{1'b0}};
            ws_data <= {D{1'b0}};
            ws_we <= {DB{1'b0}};
            ws_sub <= {SBW{1'b0}};
            ws_span <= 2'b00;
        end else if (ws_load) begin
            ws_active <= 1'b1;
            {ws_span, ws_word, ws_data, ws_we} <= wq_head;
            ws_sub <= (wq_head[2+AW+D+DB-1 -: 2] == 2'b11) ? H_FIRST : {SBW{1'b0}};
        end else if (push_wword) begin
            ws_active <= !ws_last;
            ws_sub <= ws_sub + 1'b1;
        end
    end
    // The read splitter: the words of an issued read, after every write ahead of it.
    reg                rs_active;
    reg  [AW-1:0]      rs_word;
    reg  [SBW-1:0]     rs_sub;
    reg  [1:0]         rs_span;
    wire               rs_last = (NWD == 1) || (rs_sub == ((rs_span == 2'b10) ? H_LAST : SUB_LAST));
    wire               push_rword = rs_active && !cq_full && !push_wword;
    assign rs_free = !rs_active || (push_rword && rs_last);
    always @(posedge clk) begin
        if (rst) begin
            rs_active <= 1'b0;
            rs_word <= {AW{1'b0}};
            rs_sub <= {SBW{1'b0}};
            rs_span <= 2'b00;
        end else if (issue) begin
            rs_active <= 1'b1;
            rs_word <= picked_addr[OB +: AW];
            rs_sub <= (pick_span == 2'b11) ? H_FIRST : {SBW{1'b0}};
            rs_span <= pick_span;
        end else if (push_rword) begin
            rs_active <= !rs_last;
            rs_sub <= rs_sub + 1'b1;
        end
    end
    // Native addresses: the element word's, and the word within it.
    wire [NAW-1:0] waddr;
    wire [NAW-1:0] raddr;
    wire [ND-1:0]  wslice;
    wire [NB-1:0]  weslice;
    generate
        if (NWD > 1) begin : g_split
            assign waddr = {ws_word, ws_sub};
            assign raddr = {rs_word, rs_sub};
            assign wslice = ws_data[ws_sub * ND +: ND];
            assign weslice = ws_we[ws_sub * NB +: NB];
        end else begin : g_nosplit
            assign waddr = ws_word;
            assign raddr = rs_word;
            assign wslice = ws_data;
            assign weslice = ws_we;
        end
    endgenerate
    wire cq_empty;
    oclhls_fifo #(.W(NAW + 1), .DEPTH(4), .AW(2)) u_cmd (
        .clk(clk), .rst(rst),
        .push(push_wword || push_rword),
        .push_data(push_wword ? {1'b1, waddr} : {1'b0, raddr}),
        .full(cq_full),
        .pop(cmd_ready), .pop_data({cmd_we, cmd_addr}), .empty(cq_empty)
    );
    assign cmd_valid = !cq_empty;
    assign cmd_last = 1'b1;
    wire wdf_empty;
    wire wdf_last;
    oclhls_fifo #(.W(ND + NB + 1), .DEPTH(4), .AW(2)) u_wdata (
        .clk(clk), .rst(rst),
        .push(push_wword), .push_data({ws_last, wslice, weslice}), .full(wdf_full),
        .pop(wdata_ready), .pop_data({wdf_last, wdata_data, wdata_we}), .empty(wdf_empty)
    );
    assign wdata_valid = !wdf_empty;
    wire wdata_taken = wdata_valid && wdata_ready && wdf_last;

    // ---- Responses: in completion order; an atomic's waits for its write data to be taken.
    localparam integer OQ = CW + 1 + 64;
    wire [OQ-1:0] oq_head;
    wire          oq_empty;
    wire          oq_full;
    reg  [OAW:0]  acks;               // write data taken and not yet matched with a response
    wire          oq_writes = oq_head[64];
    wire          hand_over = !oq_empty && (!oq_writes || (acks != {(OAW+1){1'b0}}));
    oclhls_fifo #(.W(OQ), .DEPTH(ODEPTH), .AW(OAW)) u_out (
        .clk(clk), .rst(rst),
        .push(complete), .push_data({x_client, x_op != OP_READ, old_full}), .full(oq_full),
        .pop(hand_over), .pop_data(oq_head), .empty(oq_empty)
    );
    wire [CW-1:0] oq_client = oq_head[OQ-1 -: CW];
    always @(posedge clk) begin
        if (rst) begin
            acks <= {(OAW+1){1'b0}};
            inflight <= {(OAW+1){1'b0}};
            reading <= {(PAW+1){1'b0}};
        end else begin
            acks <= acks + {{OAW{1'b0}}, wdata_taken}
                    - {{OAW{1'b0}}, hand_over && oq_writes};
            inflight <= inflight + {{OAW{1'b0}}, issue} - {{OAW{1'b0}}, hand_over};
            reading <= reading + {{PAW{1'b0}}, issue} - {{PAW{1'b0}}, complete};
        end
    end
    generate
        for (gi = 0; gi < N; gi = gi + 1) begin : g_resp
            localparam [CW-1:0] RID = gi;
            wire rf_empty;
            wire rf_full;
            oclhls_fifo #(.W(64), .DEPTH(CREDITS), .AW(CRW)) u_resp (
                .clk(clk), .rst(rst),
                .push(hand_over && (oq_client == RID)), .push_data(oq_head[63:0]),
                .full(rf_full),
                .pop(c_rresp_ready[gi]), .pop_data(c_rresp_data[gi*64 +: 64]),
                .empty(rf_empty)
            );
            assign c_rresp_valid[gi] = !rf_empty;
            wire unused_rf = &{1'b0, rf_full, 1'b0};
        end
    endgenerate

    // FIFO flags the counters make unreachable (credits bound the response FIFOs, `inflight`
    // the pending, write and response queues), the latched address's other bits and the
    // pending FIFO's copy of the lane: Verilator's unused-signal idiom.
    wire unused = &{1'b0, pq_full, pq_empty, wq_full, oq_full, picked_addr, 1'b0};
endmodule
`default_nettype wire
