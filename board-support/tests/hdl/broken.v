// Problems that `check` finds before synthesis: a wire with two drivers, a register fed by an
// undriven wire, and a combinational loop. Synthesis hides most of them.
module inv (input wire a, output wire y);
    assign y = ~a;
endmodule

module broken (
    input  wire clk,
    input  wire a,
    input  wire b,
    output reg  q,
    output wire z,
    output wire w
);
    wire undriven;
    wire loop1, loop2;
    inv i0 (.a(a), .y(z));
    assign z = b;
    assign loop1 = loop2 ^ a;
    assign loop2 = loop1 & b;
    assign w = loop2;
    always @(posedge clk) q <= undriven ^ a;
endmodule
