// cv32e40p_clock_gate without its latch, for Verilator: with bhv/cv32e40p_sim_clock_gate.sv the FPU's
// division never finishes there. The clock always runs; the enable only saved power.
module cv32e40p_clock_gate (
    input  logic clk_i,
    input  logic en_i,
    input  logic scan_cg_en_i,
    output logic clk_o
);
  assign clk_o = clk_i;
endmodule
