    // ---- Work-item generator: walks work-groups, and work-items within each group, x fastest.
    // The walk registers hold the current work-item until the datapath takes it. Every value
    // the walk needs is kept in registers and updated with at most one carry chain per cycle
    // (down-counters for the end of a group, `after_N` = items left after this group), so the
    // generator is not the critical path of the kernel.
    reg gen_init;
{%- if grouped %}
    // The first cycle of gen_init: the first group's values are registered from the sizes
    // (`init_*_q`), so that no compare follows a subtraction into the walk registers.
    reg gen_prep;
{%- endif %}
    reg gen_active;
{%- if leader %}
    // Work-group mode: the current work-item is the first of its group (the one the pipeline
    // takes). A register set when a group's last item is taken, so the walk registers' enable
    // does not follow a compare of the local ids.
    reg gen_leader;
{%- endif %}
{%- if ngrp %}
    // get_num_groups: cycles left until the dividers' quotients are there.
    reg [5:0] ngrp_wait;
{%- endif %}
{%- for d in dims %}
    // Dimension {{ d.dim }}.
    reg [31:0] gsz_{{ d.dim }};
    reg [31:0] gsz_m1_{{ d.dim }};
    reg [31:0] lrem_{{ d.dim }};
    // lrem == 0, kept in a register updated with lrem (not compared after it: the generator's
    // step decision fans out to every walk register).
    reg last_lid_{{ d.dim }};
{%- if d.grouped %}
    reg [31:0] lsz_{{ d.dim }};
    reg [31:0] lsz_m1_{{ d.dim }};
    reg [31:0] grp_lrem_{{ d.dim }};
    reg [32:0] after_{{ d.dim }};
    reg lastg_{{ d.dim }};
    // Whether the next group is the last (a register one group ahead: the group step selects
    // with it, and only its own next value follows a subtraction).
    reg lastg_nx_{{ d.dim }};
    reg [31:0] init_lrem_{{ d.dim }};
    wire [32:0] after_next_{{ d.dim }} = after_{{ d.dim }} - {1'b0, lsz_{{ d.dim }}};
    // Items left after the group after next (34 bits: after < 2^32, 2 * lsz < 2^33).
    wire [33:0] after_next2_{{ d.dim }} = {1'b0, after_{{ d.dim }}} - {1'b0, lsz_{{ d.dim }}, 1'b0};
    wire lastg_nx_next_{{ d.dim }} = after_next2_{{ d.dim }}[33] || (after_next2_{{ d.dim }} == 34'd0);
    wire [31:0] after_m1_{{ d.dim }} = after_{{ d.dim }}[31:0] - 32'd1;
    wire [32:0] init_diff_{{ d.dim }} = {1'b0, gsz_{{ d.dim }}} - {1'b0, lsz_{{ d.dim }}};
    wire [33:0] init_diff2_{{ d.dim }} = {2'b0, gsz_{{ d.dim }}} - {1'b0, lsz_{{ d.dim }}, 1'b0};
    // The first group's values, free-running from the sizes (constant during a launch): the
    // generator's start and the restart of each row of groups read them.
    reg [32:0] init_diff_q_{{ d.dim }};
    reg init_last_q_{{ d.dim }};
    reg init_last2_q_{{ d.dim }};
    always @(posedge clk) begin
        init_diff_q_{{ d.dim }} <= init_diff_{{ d.dim }};
        init_last_q_{{ d.dim }} <= init_diff_{{ d.dim }}[32] || (init_diff_{{ d.dim }} == 33'd0);
        init_last2_q_{{ d.dim }} <= init_diff2_{{ d.dim }}[33] || (init_diff2_{{ d.dim }} == 34'd0);
    end
    wire init_last_{{ d.dim }} = init_last_q_{{ d.dim }};
{%- else %}
    // No local or group value of this dimension is used: it is walked as one group.
    wire lastg_{{ d.dim }} = 1'b1;
{%- endif %}
{%- if d.lid %}
    reg [31:0] lid_{{ d.dim }};
{%- endif %}
{%- if d.goff %}
    reg [31:0] goff_{{ d.dim }};
{%- endif %}
{%- if d.gid %}
{%- if d.grouped %}
    reg [31:0] gstart_{{ d.dim }};
{%- endif %}
    reg [31:0] gid_{{ d.dim }};
{%- endif %}
{%- if d.grp %}
    reg [31:0] grp_{{ d.dim }};
{%- endif %}
{%- if d.lsize %}
    reg [31:0] cur_{{ d.dim }};
    reg [31:0] init_cur_{{ d.dim }};
{%- endif %}
{%- endfor %}
{%- for d in dims %}
{%- if d.ngrp %}
    // get_num_groups({{ d.dim }}) = (global size - 1) / local size + 1, divided one bit a cycle
    // while the generator starts (the launch waits {{ ngrp_cycles }} cycles for it).
    wire [31:0] ngrp_q_{{ d.dim }};
    wire [31:0] ngrp_r_unused_{{ d.dim }};
    oclhls_int_div_iter #(.WIDTH(32), .SIGNED(0), .STEP(1)) ngrp_div_{{ d.dim }} (.clk(clk), .ce(1'b1), .start(gen_init && ngrp_wait == 6'd{{ ngrp_cycles }}), .a(gsz_m1_{{ d.dim }}), .b(lsz_{{ d.dim }}), .q(ngrp_q_{{ d.dim }}), .r(ngrp_r_unused_{{ d.dim }}));
    wire [31:0] ngrp_{{ d.dim }} = ngrp_q_{{ d.dim }} + 32'd1;
{%- endif %}
{%- endfor %}
    // The generator moves to the next work-item (`gen_take`) when the item queue below takes
    // this one{% if leader %}, or past a work-item that is not its group's leader{% endif %}.
    wire gen_out = gen_active{% if leader %} && gen_leader{% endif %};
    wire item_push;
    wire gen_take = item_push{% if leader %} || (gen_active && !gen_leader){% endif %};
    always @(posedge clk) begin
        if (rst) begin
            gen_init <= 1'b0;
{%- if grouped %}
            gen_prep <= 1'b0;
{%- endif %}
            gen_active <= 1'b0;
        end else if (launch) begin
            // Latch the launch; a local size of 0 lets one work-group span the dimension.
            gen_init <= 1'b1;
{%- if grouped %}
            gen_prep <= 1'b1;
{%- endif %}
            gen_active <= 1'b0;
{%- if ngrp %}
            ngrp_wait <= 6'd{{ ngrp_cycles }};
{%- endif %}
{%- for d in dims %}
            gsz_{{ d.dim }} <= global_size_{{ d.dim }};
            gsz_m1_{{ d.dim }} <= global_size_{{ d.dim }} - 32'd1;
{%- if d.grouped %}
            lsz_{{ d.dim }} <= (local_size_{{ d.dim }} == 32'd0) ? global_size_{{ d.dim }} : local_size_{{ d.dim }};
            lsz_m1_{{ d.dim }} <= ((local_size_{{ d.dim }} == 32'd0) ? global_size_{{ d.dim }} : local_size_{{ d.dim }}) - 32'd1;
{%- endif %}
{%- if d.goff %}
            goff_{{ d.dim }} <= global_offset_{{ d.dim }};
{%- endif %}
{%- endfor %}
{%- if grouped %}
        end else if (gen_prep) begin
            // The sizes are in their registers; the first group's values are registered now.
            gen_prep <= 1'b0;
{%- endif %}
{%- if ngrp %}
        end else if (gen_init && ngrp_wait != 6'd0) begin
            // The dividers of get_num_groups work (started in the first cycle of gen_init).
            ngrp_wait <= ngrp_wait - 6'd1;
{%- endif %}
        end else if (gen_init) begin
            // First group of every dimension; the same values start each new row of groups.
            gen_init <= 1'b0;
            gen_active <= (gsz_0 != 32'd0) && (gsz_1 != 32'd0) && (gsz_2 != 32'd0);
{%- if leader %}
            gen_leader <= 1'b1;
{%- endif %}
{%- for d in dims %}
{%- if d.grouped %}
            after_{{ d.dim }} <= init_diff_q_{{ d.dim }};
            lastg_{{ d.dim }} <= init_last_{{ d.dim }};
            lastg_nx_{{ d.dim }} <= init_last2_q_{{ d.dim }};
            lrem_{{ d.dim }} <= init_last_{{ d.dim }} ? gsz_m1_{{ d.dim }} : lsz_m1_{{ d.dim }};
            last_lid_{{ d.dim }} <= init_last_{{ d.dim }} ? (gsz_m1_{{ d.dim }} == 32'd0) : (lsz_m1_{{ d.dim }} == 32'd0);
            grp_lrem_{{ d.dim }} <= init_last_{{ d.dim }} ? gsz_m1_{{ d.dim }} : lsz_m1_{{ d.dim }};
            init_lrem_{{ d.dim }} <= init_last_{{ d.dim }} ? gsz_m1_{{ d.dim }} : lsz_m1_{{ d.dim }};
{%- else %}
            lrem_{{ d.dim }} <= gsz_m1_{{ d.dim }};
            last_lid_{{ d.dim }} <= (gsz_m1_{{ d.dim }}) == 32'd0;
{%- endif %}
{%- if d.lid %}
            lid_{{ d.dim }} <= 32'd0;
{%- endif %}
{%- if d.gid %}
{%- if d.grouped %}
            gstart_{{ d.dim }} <= goff_{{ d.dim }};
{%- endif %}
            gid_{{ d.dim }} <= goff_{{ d.dim }};
{%- endif %}
{%- if d.grp %}
            grp_{{ d.dim }} <= 32'd0;
{%- endif %}
{%- if d.lsize %}
            cur_{{ d.dim }} <= init_last_{{ d.dim }} ? gsz_{{ d.dim }} : lsz_{{ d.dim }};
            init_cur_{{ d.dim }} <= init_last_{{ d.dim }} ? gsz_{{ d.dim }} : lsz_{{ d.dim }};
{%- endif %}
{%- endfor %}
        end else if (gen_take) begin
            // Later assignments win: a group step overrides the local wrap before it.
{%- if leader %}
            gen_leader <= last_lid_0 && last_lid_1 && last_lid_2;
{%- endif %}
{%- for d in dims %}
{%- if d.dim == 0 %}
            if (!last_lid_0) begin
{%- else %}
            if (last_lid_0{% if d.dim == 2 %} && last_lid_1{% endif %} && !last_lid_{{ d.dim }}) begin
{%- endif %}
                lrem_{{ d.dim }} <= lrem_{{ d.dim }} - 32'd1;
                last_lid_{{ d.dim }} <= lrem_{{ d.dim }} == 32'd1;
{%- if d.lid %}
                lid_{{ d.dim }} <= lid_{{ d.dim }} + 32'd1;
{%- endif %}
{%- if d.gid %}
                gid_{{ d.dim }} <= gid_{{ d.dim }} + 32'd1;
{%- endif %}
            end
{%- if d.dim == 0 %}
            if (last_lid_0) begin
{%- else %}
            if (last_lid_0{% if d.dim == 2 %} && last_lid_1{% endif %} && last_lid_{{ d.dim }}) begin
{%- endif %}
                // Local wrap: back to the first item of this group in this dimension.
{%- if d.grouped %}
                lrem_{{ d.dim }} <= grp_lrem_{{ d.dim }};
                last_lid_{{ d.dim }} <= (grp_lrem_{{ d.dim }}) == 32'd0;
{%- else %}
                lrem_{{ d.dim }} <= gsz_m1_{{ d.dim }};
                last_lid_{{ d.dim }} <= (gsz_m1_{{ d.dim }}) == 32'd0;
{%- endif %}
{%- if d.lid %}
                lid_{{ d.dim }} <= 32'd0;
{%- endif %}
{%- if d.gid %}
                gid_{{ d.dim }} <= {% if d.grouped %}gstart_{% else %}goff_{% endif %}{{ d.dim }};
{%- endif %}
            end
{%- endfor %}
            if (last_lid_0 && last_lid_1 && last_lid_2) begin
                // The work-group is done: next group, x fastest.
{%- for d in dims %}
{%- if d.grouped %}
                if ({% for o in dims %}{% if o.dim < d.dim %}lastg_{{ o.dim }} && {% endif %}{% endfor %}!lastg_{{ d.dim }}) begin
                    after_{{ d.dim }} <= after_next_{{ d.dim }};
                    lastg_{{ d.dim }} <= lastg_nx_{{ d.dim }};
                    lastg_nx_{{ d.dim }} <= lastg_nx_next_{{ d.dim }};
                    lrem_{{ d.dim }} <= lastg_nx_{{ d.dim }} ? after_m1_{{ d.dim }} : lsz_m1_{{ d.dim }};
                    last_lid_{{ d.dim }} <= lastg_nx_{{ d.dim }} ? (after_{{ d.dim }}[31:0] == 32'd1) : (lsz_m1_{{ d.dim }} == 32'd0);
                    grp_lrem_{{ d.dim }} <= lastg_nx_{{ d.dim }} ? after_m1_{{ d.dim }} : lsz_m1_{{ d.dim }};
{%- if d.gid %}
                    gstart_{{ d.dim }} <= gstart_{{ d.dim }} + lsz_{{ d.dim }};
                    gid_{{ d.dim }} <= gstart_{{ d.dim }} + lsz_{{ d.dim }};
{%- endif %}
{%- if d.grp %}
                    grp_{{ d.dim }} <= grp_{{ d.dim }} + 32'd1;
{%- endif %}
{%- if d.lsize %}
                    cur_{{ d.dim }} <= lastg_nx_{{ d.dim }} ? after_{{ d.dim }}[31:0] : lsz_{{ d.dim }};
{%- endif %}
                end
                if ({% for o in dims %}{% if o.dim < d.dim %}lastg_{{ o.dim }} && {% endif %}{% endfor %}lastg_{{ d.dim }}) begin
                    // Row of groups done in this dimension: back to its first group.
                    after_{{ d.dim }} <= init_diff_q_{{ d.dim }};
                    lastg_{{ d.dim }} <= init_last_q_{{ d.dim }};
                    lastg_nx_{{ d.dim }} <= init_last2_q_{{ d.dim }};
                    lrem_{{ d.dim }} <= init_lrem_{{ d.dim }};
                    last_lid_{{ d.dim }} <= (init_lrem_{{ d.dim }}) == 32'd0;
                    grp_lrem_{{ d.dim }} <= init_lrem_{{ d.dim }};
{%- if d.gid %}
                    gstart_{{ d.dim }} <= goff_{{ d.dim }};
                    gid_{{ d.dim }} <= goff_{{ d.dim }};
{%- endif %}
{%- if d.grp %}
                    grp_{{ d.dim }} <= 32'd0;
{%- endif %}
{%- if d.lsize %}
                    cur_{{ d.dim }} <= init_cur_{{ d.dim }};
{%- endif %}
                end
{%- endif %}
{%- endfor %}
                if (lastg_0 && lastg_1 && lastg_2) begin
                    gen_active <= 1'b0;
                end
            end
        end
    end

    // ---- Item queue: two entries between the generator and the pipeline (a skid buffer).
    // The generator moves while the spare entry is free, a flip-flop, so the pipeline's stall
    // reaches none of its registers; the pipeline reads the head (`item_*`) and pops it with
    // `item_pop` (its first stage taken, `v_c0 && !stall`). One cycle from the generator to
    // the pipeline, one work-item a cycle.
    wire item_pop;
    reg item_valid;
    reg item_s_valid;
    assign item_push = gen_out && !item_s_valid;
    wire item_free = !item_valid || item_pop;
{%- for q in queued %}
    reg [31:0] item_{{ q }};
    reg [31:0] item_s_{{ q }};
{%- endfor %}
    always @(posedge clk) begin
        if (rst || launch) begin
            item_valid <= 1'b0;
            item_s_valid <= 1'b0;
        end else if (item_free) begin
            item_valid <= item_s_valid || item_push;
            item_s_valid <= 1'b0;
        end else if (item_push) begin
            item_s_valid <= 1'b1;
        end
    end
    always @(posedge clk) begin
{%- for q in queued %}
        if (!item_s_valid) item_s_{{ q }} <= {{ q }};
        if (item_free) item_{{ q }} <= item_s_valid ? item_s_{{ q }} : {{ q }};
{%- endfor %}
    end
