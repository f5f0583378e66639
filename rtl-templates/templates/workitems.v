    // ---- Work-item generator: walks work-groups, and work-items within each group, x fastest.
    // The current item sits in registers (`item_*`) until the datapath takes it.
    // rem_N: items left from this group's base (the last group of a non-uniform launch is
    // smaller); a local size of 0 means one group spans the dimension.
    reg gen_active;
    reg item_valid;
{%- for d in dims %}
    reg [31:0] gsz_{{ d.dim }};
    reg [31:0] lsz_{{ d.dim }};
    reg [31:0] lid_{{ d.dim }};
    reg [31:0] gbase_{{ d.dim }};
{%- if d.goff %}
    reg [31:0] goff_{{ d.dim }};
{%- endif %}
{%- if d.grp %}
    reg [31:0] grp_{{ d.dim }};
    reg [31:0] item_grp_{{ d.dim }};
{%- endif %}
{%- if d.gid %}
    reg [31:0] item_gid_{{ d.dim }};
{%- endif %}
{%- if d.lid %}
    reg [31:0] item_lid_{{ d.dim }};
{%- endif %}
{%- if d.lsize %}
    reg [31:0] item_lsize_{{ d.dim }};
{%- endif %}
    wire [31:0] rem_{{ d.dim }} = gsz_{{ d.dim }} - gbase_{{ d.dim }};
    wire last_group_{{ d.dim }} = (lsz_{{ d.dim }} == 32'd0) || (lsz_{{ d.dim }} >= rem_{{ d.dim }});
    wire [31:0] cur_lsz_{{ d.dim }} = last_group_{{ d.dim }} ? rem_{{ d.dim }} : lsz_{{ d.dim }};
    wire last_lid_{{ d.dim }} = lid_{{ d.dim }} == cur_lsz_{{ d.dim }} - 32'd1;
{%- endfor %}
    wire gen_take;
    wire gen_step = gen_active && (!item_valid || gen_take);
    always @(posedge clk) begin
        if (rst) begin
            gen_active <= 1'b0;
            item_valid <= 1'b0;
        end else if (launch) begin
            gen_active <= (global_size_0 != 32'd0) && (global_size_1 != 32'd0) && (global_size_2 != 32'd0);
            item_valid <= 1'b0;
{%- for d in dims %}
            gsz_{{ d.dim }} <= global_size_{{ d.dim }};
            lsz_{{ d.dim }} <= local_size_{{ d.dim }};
            lid_{{ d.dim }} <= 32'd0;
            gbase_{{ d.dim }} <= 32'd0;
{%- if d.goff %}
            goff_{{ d.dim }} <= global_offset_{{ d.dim }};
{%- endif %}
{%- if d.grp %}
            grp_{{ d.dim }} <= 32'd0;
{%- endif %}
{%- endfor %}
        end else begin
            if (gen_take) begin
                item_valid <= 1'b0;
            end
            if (gen_step) begin
                item_valid <= 1'b1;
{%- for d in dims %}
{%- if d.gid %}
                item_gid_{{ d.dim }} <= gbase_{{ d.dim }} + lid_{{ d.dim }} + goff_{{ d.dim }};
{%- endif %}
{%- if d.lid %}
                item_lid_{{ d.dim }} <= lid_{{ d.dim }};
{%- endif %}
{%- if d.grp %}
                item_grp_{{ d.dim }} <= grp_{{ d.dim }};
{%- endif %}
{%- if d.lsize %}
                item_lsize_{{ d.dim }} <= cur_lsz_{{ d.dim }};
{%- endif %}
{%- endfor %}
                if (!last_lid_0) begin
                    lid_0 <= lid_0 + 32'd1;
                end else begin
                    lid_0 <= 32'd0;
                    if (!last_lid_1) begin
                        lid_1 <= lid_1 + 32'd1;
                    end else begin
                        lid_1 <= 32'd0;
                        if (!last_lid_2) begin
                            lid_2 <= lid_2 + 32'd1;
                        end else begin
                            lid_2 <= 32'd0;
                            // Next work-group.
                            if (!last_group_0) begin
                                gbase_0 <= gbase_0 + lsz_0;
{%- if dims[0].grp %}
                                grp_0 <= grp_0 + 32'd1;
{%- endif %}
                            end else begin
                                gbase_0 <= 32'd0;
{%- if dims[0].grp %}
                                grp_0 <= 32'd0;
{%- endif %}
                                if (!last_group_1) begin
                                    gbase_1 <= gbase_1 + lsz_1;
{%- if dims[1].grp %}
                                    grp_1 <= grp_1 + 32'd1;
{%- endif %}
                                end else begin
                                    gbase_1 <= 32'd0;
{%- if dims[1].grp %}
                                    grp_1 <= 32'd0;
{%- endif %}
                                    if (!last_group_2) begin
                                        gbase_2 <= gbase_2 + lsz_2;
{%- if dims[2].grp %}
                                        grp_2 <= grp_2 + 32'd1;
{%- endif %}
                                    end else begin
                                        gen_active <= 1'b0;
                                    end
                                end
                            end
                        end
                    end
                end
            end
        end
    end
