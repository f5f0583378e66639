// Registered 16-bit adder: inputs and output in flip-flops, so every path is reg-to-reg.
`default_nettype none
module adder (
    input  wire        clk,
    input  wire [15:0] a,
    input  wire [15:0] b,
    output reg  [16:0] s
);
    reg [15:0] a_r, b_r;
    always @(posedge clk) begin
        a_r <= a;
        b_r <= b;
        s <= a_r + b_r;
    end
endmodule
