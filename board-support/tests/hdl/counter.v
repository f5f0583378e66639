// A W-bit counter with synchronous reset and enable: the reference design for Fmax/area of
// the flow (a W-bit register, a W-bit adder on the carry chain).
`default_nettype none
module counter #(
    parameter W = 32
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         en,
    output reg  [W-1:0] q
);
    always @(posedge clk) begin
        if (rst) q <= {W{1'b0}};
        else if (en) q <= q + 1'b1;
    end
endmodule
