module bad_syntax (input wire a, output wire b);
    assign b = a +;
endmodule
