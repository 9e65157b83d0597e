// Cycle-exact costs of CV32E40P hazard sequences (sequences.S). Each expected value is derived from the
// CV32E40P user manual's pipeline chapter and its RTL (cv32e40p_*.sv); the comment says how.
#include <gtest/gtest.h>

#include "cluster/bare_system.hpp"

namespace pulpsim {
namespace {

std::vector<uint32_t> measure(const CoreTiming& timing) {
    const ElfImage elf = ElfImage::load(TIMING_ELF);
    BareOptions options;
    options.timing = timing;
    options.max_cycles = 1'000'000;
    options.capture_output = true;
    BareMachine machine(elf, options);
    const RunOutcome out = machine.run_to_end();
    EXPECT_EQ(out.kind, RunOutcome::Kind::Exit) << out.message;
    EXPECT_EQ(out.exit_status, 0);
    const CoreStats& stats = machine.hart().stats();
    EXPECT_EQ(machine.hart().cycle(), stats.instret() + stats.total_stalls())
        << "every cycle is an issue or a stall";
    std::vector<uint32_t> words(203);
    machine.memory().read_bytes(*elf.symbol("results"), words.data(), words.size() * 4);
    std::vector<uint32_t> cost(words.size());
    for (size_t i = 0; i < words.size(); ++i)
        cost[i] = words[i] - words[0];
    cost[0] = words[0];
    return cost;
}

struct Case {
    unsigned index;
    const char* what;
    uint32_t cycles;
};

void expect_costs(const std::vector<uint32_t>& cost, std::initializer_list<Case> cases) {
    for (const Case& c : cases)
        EXPECT_EQ(cost[c.index], c.cycles) << "case " << c.index << ": " << c.what;
}

TEST(Timing, HazardSequencesWithSingleCycleFpu) {
    const auto cost = measure(CoreTiming{});
    expect_costs(cost,
                 {
                     {0, "csrr mcycle costs 4 (counter CSR)", 4},
                     {1, "ALU", 1},
                     {2, "load + independent ALU: 1 + 1", 2},
                     {3, "load-use: 1 + 1 stall + 1", 3},
                     {4, "branch not taken", 1},
                     {5, "branch taken", 3},
                     {6, "branch taken to a 32-bit instruction at pc%4==2: 3 + 1", 4},
                     {7, "jal", 2},
                     {8, "jal to a misaligned 32-bit target: 2 + 1", 3},
                     {9, "jalr with an old operand", 2},
                     {10, "addi then dependent jalr: 1 + 2 + 1 hazard", 4},
                     {11, "mul", 1},
                     {12, "mulh", 5},
                     {13, "mulh + use: no extra stall, the result is ready when mulh leaves EX", 6},
                     {14, "div by 1: 3 + 31 leading zeros", 34},
                     {15, "divu by 0x80000000: 3", 3},
                     {16, "div by 0: 35", 35},
                     {17, "div by 7: 3 + 29", 32},
                     {18, "fadd -> dependent fadd with FPU_ADDMUL_LAT=0", 2},
                     {19, "fmul -> fmadd -> fmadd chain", 3},
                     {20, "fdiv (inexact, 19) -> dependent fadd: 19 + 1", 20},
                     {21, "fdiv 1/2 (exact, no fraction bits: 6) -> dependent fadd: 6 + 1", 7},
                     // A CSR instruction, the closing csrr of mcycle included, waits until one cycle
                     // after the result of an FP operation in flight with latency 2 or more
                     // (cv32e40p_id_stage.sv: csr_apu_stall while apu_busy): the core keeps issuing
                     // integer work, but the measurement ends at 19 + 1.
                     {22, "fdiv then integer op, then the closing csrr: 19 + 1", 20},
                     {23, "fdiv then independent FP op: the FPU is busy until the division ends", 20},
                     {24, "flw -> dependent fadd: load-use", 3},
                     {25, "csrr of a non-counter CSR", 1},
                     {26, "misaligned lw: two bus transactions", 2},
                     {27, "fsqrt (inexact) -> dependent fadd", 20},
                     {28, "hardware loop: setup 1 + 10 x 3, zero-cost loop-back", 31},
                     {29, "hwloop with load-use across the back-edge: 1 + 3 + 3 x (3 + 1)", 16},
                     {30, "nested hardware loops: 1 + 3 x (1 + 2 x 3 + 2)", 28},
                     {31, "vfmul.h -> vfmac.h -> vfmac.h chain: as fmul.s -> fmadd.s -> fmadd.s", 3},
                     {32, "fadd.h -> dependent fadd.h", 2},
                     {33, "vfdotpex.s.h -> vfdotpex.s.h on the same accumulator", 2},
                     {34, "fdiv.h (inexact, 19) -> dependent fadd: 19 + 1", 20},
                     {35, "vfdiv.h with an inexact lane: 19 + 1", 20},
                     {36, "vfdiv.h with both lanes exact, 3/3 = 1: 6 + 1", 7},
                     {37, "vfcpka.h.s -> dependent vfadd.h with FPU_OTHERS_LAT=0", 2},
                     // A split load stays 2 cycles in EX; its user gets the misaligned stall and then
                     // the load-use stall: one cycle more than after an aligned load (case 3).
                     {38, "misaligned lw -> use: 2 + 1 + 1", 4},
                     {39, "lh across a word -> use: 2 + 1 + 1", 4},
                     {40, "lhu inside a word -> use: as aligned, 1 + 1 + 1", 3},
                     {41, "misaligned lw -> independent: 2 + 1", 3},
                     {42, "misaligned flw -> dependent fadd: 2 + 1 + 1", 4},
                     // 3 + iterations: leading zeros of the divisor, or for a negative one of a
                     // signed division, leading zeros of its complement less one.
                     {43, "div by -1: ~b = 0, 32 - 1 = 31 iterations", 34},
                     {44, "rem by -2: ~b = 1, 31 - 1 = 30", 33},
                     {45, "div by -3: ~b = 2, 30 - 1 = 29", 32},
                     {46, "div by -0x10001: ~b = 0x10000, 15 - 1 = 14", 17},
                     {47, "divu by 0xffffffff: no leading zeros", 3},
                     {48, "div by 3: 30 leading zeros", 33},
                     // Issue to dependent issue: 6 + ceil(f / 2) for an exact quotient with f
                     // fraction bits, 19 inexact, 3 special operands, 5 overflow, +1 denormal divisor.
                     {49, "fdiv 3/2 = 1.5 (f = 1: 7) -> fadd", 8},
                     {50, "fdiv 9/8 = 1.125 (f = 3: 8) -> fadd", 9},
                     {51, "fdiv 1/0 (special: 3) -> fadd", 4},
                     {52, "fsqrt 2.25 = 1.5 (f = 1: 7) -> fadd", 8},
                     {53, "fsqrt 256 = 16 (f = 0: 6) -> fadd", 7},
                     {54, "fdiv 2^100 / 2^-120 (overflow: 5) -> fadd", 6},
                     {55, "fdiv 3 x 2^-149 / 2^-149 = 3 (f = 1: 7, denormal divisor +1) -> fadd", 9},
                     {56, "1/3 (19), /3 (19), /3 exact with f = 22 (17) -> fadd", 56},
                     // What waits for the FP operations in flight (cv32e40p_apu_disp.sv: class 1 =
                     // latency 1, 2 = latency 2, 3 = longer and div/sqrt; the RTL gives these).
                     {57, "fdiv, csrr mscratch at 19 + 1, then the closing csrr", 21},
                     {58, "exact fdiv (6), csrr at 6 + 1, closing csrr", 8},
                     {59, "fdiv, independent fdiv waits for it: 19 + 19 + 1", 39},
                     {60, "fadd, fmin: both class 1, no wait", 2},
                     {61, "fmin, fadd", 2},
                     {62, "four independent fadds", 4},
                     {63, "fadd, fdiv (ready 1 + 19), closing csrr + 1", 21},
                     // Both fences drain EX and WB, then jump to the next instruction
                     // (cv32e40p_controller.sv FLUSH_EX, FLUSH_WB): 2 + 2, whatever came before.
                     {64, "fence: 4", 4},
                     {65, "fence.i: 4", 4},
                     {66, "sw, fence: 1 + 4", 5},
                     // In the cycle after jalr jumps, its own link write in EX meets its hazard
                     // check when rd = rs1 (jr_stall): one cycle more.
                     {67, "addi, dependent jalr with rd = rs1: 1 + 2 + 1 hazard + 1", 5},
                     {68, "jalr with rd = rs1, old operand: 2 + 1", 3},
                     // frm and fcsr are status CSRs when written (cv32e40p_decoder.sv csr_status_o).
                     {69, "fsrm: 1 + 3", 4},
                     {70, "frrm: 1", 1},
                     {71, "fsflags: 1", 1},
                     // The unit skips its iterations only when ea - eb alone puts the result past
                     // emax + 1 or below emin_denormal - 1 (5); otherwise an exact quotient of the
                     // significands takes 6 + ceil(f / 2), rounded to a denormal or not.
                     {72, "max / 0.5 = overflow, but ea - eb = 128 and f = 23: 6 + 12 -> fadd", 19},
                     {73, "2^127 / 0.5, ea - eb = 128, f = 0: 6 -> fadd", 7},
                     {74, "3 x 2^-149 / 2 = 1.5 x 2^-149, rounded; f = 1: 7 -> fadd", 8},
                     {75, "2^-126 / 2^24, ea - eb = -150, f = 0: 6 -> fadd", 7},
                     // A trap drains EX and WB before the pc is set (DECODE, FLUSH_EX, FLUSH_WB) and
                     // the handler's first instruction takes two cycles to fetch: 4. An illegal
                     // instruction that is not a CSR access enters EX as a bubble that never becomes
                     // valid (deassert_we), so FLUSH_EX waits one cycle more: 5. mret adds XRET_JUMP:
                     // 5. The handler: csrw mepc (a status CSR, 4) and mret (5).
                     {76, "ecall: 4 + 4 + 5", 13},
                     {77, "ebreak: 4 + 4 + 5", 13},
                     {78, "c.unimp, illegal in the decoder: 5 + 4 + 5", 14},
                     {79, "csrw of a read-only CSR, an illegal CSR access: 4 + 4 + 5", 13},
                     {80, "mret: 5", 5},
                     {81, "fadd.s with a reserved frm, illegal in the decoder: 5 + 4 + 5", 14},
                     // A class-3 result (here fdiv, ready 6 cycles after it issues) is written through
                     // the ALU port in the EX cycle of the instruction issued at 5: one that writes
                     // through that port is held a cycle (wb_contention); a store is not; a load's
                     // response in that cycle defers the write (apu_valid), here onto a store; a mulh
                     // past its first EX cycle (mulh_active) defers it to the next instruction's.
                     {82, "fdiv, 7 nops, the fifth held: 1 + 4 + 2 + 2", 9},
                     {83, "fdiv, 3 nops, lw, nop (write deferred), sw (no contention), 2 nops", 9},
                     {84, "fdiv, 4 nops, sw in EX at the write (no contention), 3 nops", 9},
                     {85, "fdiv, 3 nops, mulh (5), the nop after it held: 1 + 3 + 5 + 2", 11},
                     // A jump in ID sets the pc at once (cv32e40p_controller.sv, jump_in_dec), also
                     // while EX holds the instruction ahead of it: its refetch cycle passes during
                     // the wait, and for jalr with rd = rs1 the cycle its own link write costs. Only
                     // one cycle: the second fetch of a misaligned 32-bit target still counts. A load
                     // in EX that writes the jump's rd holds it a cycle longer (load_stall_o), with
                     // the pc set. Not when jalr needs the held result (jr_stall_o: the pc is set
                     // after it).
                     {86, "div by 7 (3 + 29), j behind it: 1", 33},
                     {87, "mulh (5), jalr t3, 0(t3) behind it: 1", 6},
                     {88, "misaligned lw (2), j behind it: 1", 3},
                     {89, "misaligned lw a0 (2), jal a0 waits 1 behind it: 1 + 1", 4},
                     {90, "divu by 1 (3 + 31), jalr on its result: 1 + 1 + 1", 37},
                     {91, "fdiv (1), fadd held in EX until its result (5 + 1), j: 1", 8},
                     {92, "div by 7 (32), jalr on another register: 1", 33},
                     {93, "misaligned lw (2), j to a misaligned 32-bit target: 1 + 1, add, c.nop", 6},
                     // A branch is decided in EX with the next instruction in ID. A CSR instruction
                     // there holds ID while an FP result is due (cv32e40p_id_stage.sv: csr_apu_stall)
                     // though it never issues, and the target enters ID only once it lets go: here the
                     // fdiv's result is ready 6 cycles on, the CSR instruction could issue at 7, the
                     // target at 8. The closing csrr of mcycle waits for the result (7) in any case.
                     {94, "fdiv, beq taken over a csrr, nop: target at 8, csrr at 9", 9},
                     {95, "fdiv, beq taken over a nop, nop: target at 4, csrr waits until 7", 7},
                     {96, "fdiv, beq taken over a csrr, 8 nops: 8 + 8", 16},
                     // A division by a denormal normalises the divisor first (pa_fdsu_ctrl.v:
                     // fdsu_dn_stall, the WFI2 state), a cycle in which the unit does not take it
                     // (fpnew_divsqrt_th_32.sv: no handshake while fdsu_fpu_ex1_stall): EX holds it
                     // a cycle longer. Its result is due 8 cycles after it entered EX (3 = 1.1b: 7,
                     // and 1 to normalise), written through the ALU port while an addi is in EX.
                     {97, "fdiv by a denormal 2, 10 addi + 1, fdiv at 13 due at 21, csrr", 22},
                     {98, "the same, a j behind the first fetching its target in the hold", 23},
                     {99, "fsqrt of a denormal not held: 1 + 10, waits until 19, 19 + 1", 39},
                     // An instruction that is no FP operation and writes a register an FP result in
                     // flight will write waits until that result is back (cv32e40p_apu_disp.sv:
                     // write_dep_o; cv32e40p_controller.sv: apu_stall_o), as a reader would.
                     {100, "fdiv 3/2 (ready 7), flw of its destination waits: 7 + 1 + 10", 18},
                     {101, "flw of another register goes on: 1 + 1 + 10, an addi held + 1", 13},
                     {102, "fadd (single cycle, nothing in flight), flw of its destination", 12},
                     {103, "fmv.x.w a0 (single cycle), li a0", 12},
                     {104, "fmv.x.w a0, li a1", 12},
                     // fdiv 2/1 (ready 6); the nop issued at 5 would take the write in its EX cycle,
                     // but the lw's response arrives then (cv32e40p_ex_stage.sv: apu_valid), so the
                     // write and the result's return wait a cycle: the dispatcher (which takes
                     // apu_valid as the return) and every reader see it at 7.
                     {105, "fdiv, 3 nops, lw, nop, fadd of its result waits until 7, 10 addi", 18},
                     {106, "the same with an fadd of other registers (dispatcher): until 7", 18},
                     {107, "the same with an fsw of the result: until 7", 18},
                     {108, "fdiv, 5 nops, the fifth held by the write, fadd ready at 7", 18},
                     // The instruction issued at 5 is a jump. While a jalr's target is fetched, ID
                     // still shows a jalr, which holds the write back (apu_valid) into that refetch
                     // cycle: the jalr is not held. A jal is (wb_contention).
                     {109, "fdiv, 3 nops, addi, jalr at 5 not held: 2, addi, 10 addi", 18},
                     {110, "fdiv, 3 nops, addi, jal at 5 held: 2 + 1, addi, 10 addi", 19},
                     {111, "fdiv, 4 nops, jalr ra at 5 not held: 2, addi, 10 addi", 18},
                     // A load in EX holds the instruction in ID that writes the load's destination
                     // through the ALU port (cv32e40p_controller.sv: load_stall_o, the comparison of
                     // regfile_waddr_ex_i with regfile_alu_waddr_id_i) as a reader of it would be. An
                     // FP operation writes through the APU; a jump waits too, but with its pc set in
                     // its first cycle in ID it pays no refetch (179 shows the wait).
                     {112, "lw a0, addi a0 (no read of a0): 1 + 1 stall + 1", 3},
                     {113, "lw a0, csrr a0: 1 + 1 + 1", 3},
                     {114, "lw a0, mulh a0: 1 + 1 + 5", 7},
                     {115, "misaligned lw a0 (2), addi a0: 2 + 1 + 1", 4},
                     {116, "lw a0, fmv.x.w a0: 1 + 1", 2},
                     {117, "lw a0, jal a0 waits 1, no refetch: 1 + 1 + 1", 3},
                     // A mulh past its first EX cycle keeps a class-3 write out (mulh_active), and it
                     // goes into the next instruction's first EX cycle: fdiv 2/1 is due at 6, while
                     // the mulh issued at 4 is in EX (5..9), so the write comes at 10. A store there
                     // is not held; a CSR instruction waits in ID until one cycle after it (11), as
                     // CSR instructions wait for every class-3 result. In 120 a store's response
                     // keeps the write out of the mulh's first EX cycle.
                     {118, "fdiv, 3 nops, mulh (5), sw at 9 not held, nop: 1 + 3 + 5 + 1 + 1", 11},
                     {119, "fdiv, 3 nops, mulh (5), csrr waits until 11, nop: 13", 13},
                     {120, "fdiv, 3 nops, sw, mulh (5), nop held: 1 + 3 + 1 + 5 + 2", 12},
                     // A jalr in ID behind an ALU-port writer in EX keeps the write out as well
                     // (apu_valid): the writer is not held, the write comes a cycle later.
                     {121, "fdiv, 4 nops, addi t3 not held, jr t3 waits: 1 + 1 + 2, nop", 10},
                     {122, "fdiv, 4 nops, addi not held, jr: 2, nop", 9},
                     {123, "the same with an fadd of the result after the jr", 9},
                     // A fence writes no register: the write at its EX cycle holds nothing.
                     {124, "fdiv, 4 nops, fence (4), nop", 10},
                     {125, "fdiv, 4 nops, fence.i (4), nop", 10},
                     // As 94, to a 32-bit target straddling a word boundary: its second fetch comes
                     // after the hold as well.
                     {126, "fdiv, beq over a csrr to a straddling addi at 9, nop, csrr at 11", 11},
                     // With single-cycle FP results a jump waits for none (see the latency-2 test).
                     {127, "feq, jal: 1 + 2, nop", 4},
                     {128, "feq, nop, jal: 1 + 1 + 2, nop", 5},
                     {129, "feq, la, jalr after its base's addi: 1 + 2 + 1 + 2, nop", 7},
                     {130, "feq, jalr: 1 + 2, nop", 4},
                     {131, "feq, jal to a straddling addi: 1 + 2 + 1, addi, nop", 6},
                     // After a status CSR's flush the last two instructions of a loop body are decoded
                     // in DECODE: the jump back is a jump from ID, a refetch cycle unless the last one
                     // waits in ID (cv32e40p_controller.sv: PC_HWLOOP, hwlp_jump_o).
                     {132, "setup, 3 x (nop, csrr mstatus 4, nop, nop) + 2 refetches", 1 + 3 * 7 + 2},
                     {133, "setup, 3 x (nop, nop, csrr mstatus 4, nop) + 2 refetches", 1 + 3 * 7 + 2},
                     {134, "the last one waits for a load: 1 + 3 x (1 + 4 + 1 + 2)", 1 + 3 * 8},
                     {135, "the last one a status CSR, jumping back: 1 + 3 x (2 + 4 + 4)", 1 + 3 * 10},
                     {136, "the status CSR first: 1 + 3 x (4 + 3)", 1 + 3 * 7},
                     // The same after an mret, with a round of ecall 4, csrw mepc 4, mret 5 and 3 nops.
                     {137, "the mret to the second-to-last: 1 + 3 x 16 + 2 refetches", 1 + 3 * 16 + 2},
                     {138, "the mret to the last: 1 + 3 x 16 + 2 refetches", 1 + 3 * 16 + 2},
                     {139, "the mret to the third from the end: 1 + 3 x 16", 1 + 3 * 16},
                     {140, "the mret to the end leaves the loop: 1 + 16", 1 + 16},
                     // 137 with a mulhu (5) and a split store (2) or a mulh (5) for its two nops: the
                     // last instruction waits in ID behind the mulhu, where the controller jumps back
                     // from (PC_HWLOOP), so neither jump back refetches.
                     {193, "mulhu, split sh after the mret: 1 + 3 x (16 + 4 + 1)", 1 + 3 * 21},
                     {194, "mulhu, mulh after the mret: 1 + 3 x (16 + 4 + 4)", 1 + 3 * 24},
                     // An illegal instruction decoded in DECODE_HWLOOP: the controller halts ID and
                     // goes to FLUSH_EX at once (cv32e40p_controller.sv), which waits for EX to be
                     // valid, so the handler comes 4 cycles after the instruction's first cycle in ID,
                     // whatever it waits for there; the handler (csrw mepc 4, mret 5) returns to the
                     // second-to-last instruction, whose jump back is a refetch.
                     {141, "1 + 3 x (nop, the decoder-illegal 4, not 5, 9, 2) + 2", 1 + 3 * 16 + 2},
                     {142, "1 + 3 x (lw, csrw mhartid: no load-use, 4, 9, 2) + 2", 1 + 3 * 16 + 2},
                     // The handler's first instruction enters ID once ID lets the CSR one go (the
                     // csr_apu_stall of its access behind fsqrt ends 19 cycles after its first).
                     {143, "1 + 3 x (fsqrt, 19 + 1 to the handler, 9, 2) + 2", 1 + 3 * 32 + 2},
                     {144, "EX valid as the div by 1 ends: 1 + 3 x (34 + 3, 9, 2) + 2", 1 + 3 * 48 + 2},
                     // A wait for an FP result in flight ends as the controller stops decoding
                     // (cv32e40p_apu_disp.sv: read_dep_o): the handler comes 4 cycles after the
                     // illegal fadd's first cycle in ID, not after the fsqrt (19); its 16 nops, one
                     // held a cycle as the fsqrt's result takes the write port, then 9.
                     {202, "1 + 3 x (fsqrt, 4 to the handler, 16 + 1, 9, 2) + 2", 1 + 3 * 33 + 2},
                     // The fadd, held in EX for the div/sqrt unit, makes EX valid with the fdiv's
                     // result (3 / 2: 7 cycles), a cycle before it goes.
                     {145, "1 + 3 x (fdiv 7, fadd held, 3 to the handler, 9, 2) + 2", 1 + 3 * 21 + 2},
                     // Decoded in DECODE in the first round (after the set-up); after each mret the
                     // csrw waits for the fsqrt of the round before: 18 to the handler. The closing
                     // csrr of mcycle waits 17 for the last fsqrt.
                     {146, "1 + (4 + 9 + 3) + 2 x (18 + 9 + 3) + 17", 1 + 16 + 2 * 30 + 17},
                     {147, "1 + 3 x (fsqrt, nop, 19 + 9, nop) + 2 refetches", 1 + 3 * 31 + 2},
                     // Outside a loop a decoder-illegal instruction enters EX with nothing enabled
                     // (cv32e40p_ex_stage.sv: ex_valid_o), and FLUSH_EX waits a cycle for the next.
                     {198, "fmul, the decoder-illegal 5 to the handler, 9", 1 + 5 + 9},
                     {199, "fmul to f0, the fadd with rounding mode 5: single-cycle, no wait", 1 + 5 + 9},
                     {200, "fcvt.w.s to t6, the all-ones word: no wait", 1 + 5 + 9},
                     // Not held for the fdiv by zero (3 cycles) as a legal fadd would be: 2 less.
                     {201, "fdiv, the fadd with frm reserved traps at once: 1 + 5, 9", 1 + 5 + 9},
                     // A loop of count 1 is decoded in DECODE.
                     {148, "1 + fsqrt, the csrw's wait 19 + 4, 9, 2", 1 + 35},
                     // The div/sqrt result held back by a mulh takes the ALU port in the next EX cycle,
                     // a jal's: it stays a cycle. Behind the mulh the jal's target was fetched, so the
                     // jump there waits in ID and sets the pc meanwhile: no refetch.
                     {149, "fdiv, nop, li, mulhsu 5, j 1 + 1, j 1, nop", 12},
                     {150, "fdiv, 3 nops, j with its refetch 2 + 1, j 2, nop", 10},
                     // cv.insert and cv.extract(u) keep rs2 in use (regb_used_o): their rs2 field, x1
                     // for a .b index of 2 or 3, waits for a load as a source would.
                     {151, "lbu ra, cv.insert.b at index 3: 1 + 1 stall + 1", 3},
                     {152, "lbu ra, cv.insert.b at index 1 (rs2 field x0): 1 + 1", 2},
                     {153, "lw ra, cv.extractu.b at index 2: 1 + 1 stall + 1", 3},
                     // fence takes 4 cycles; with FPU latency 0 no FP result is in flight behind it.
                     {154, "fcvt.w.s t6, fence (rs2 field x31): 1 + 4", 5},
                     {155, "fcvt.w.s a5, fence rw, rw: 1 + 4", 5},
                     {156, "fcvt.w.s s3, fence rw, rw (rs2 field x19): 1 + 4", 5},
                     {157, "fcvt.w.s tp, cv.setupi 0, 4 (rs2 field x4), 4 x 3 addi: 1 + 1 + 12", 14},
                     {158, "lw t6, fence: 1 + 4", 5},
                     // The immediate shuffles' rs2 field waits for a load (regb_used_o).
                     {159, "lbu a3, cv.shuffleI0.sci.b 26 (rs2 field a3): 1 + 1 stall + 1", 3},
                     {160, "lw ra, cv.shuffle.sci.h 3 (rs2 field ra): 1 + 1 stall + 1", 3},
                     {161, "lw ra, cv.shuffle.sci.h 1 (rs2 field x0): 1 + 1", 2},
                     // With FPU latency 0 no FP result is in flight behind fcvt.w.s.
                     {162, "fcvt.w.s ra, cv.insert.b at 3 (rs2 field ra), 4 nops: 1 + 1 + 4", 6},
                     {163, "fcvt.w.s a3, cv.shuffleI0.sci.b 26 (rs2 field a3), 4 nops: 1 + 1 + 4", 6},
                     {164, "fcvt.w.s ra, cv.extractu.b at 2 (rs2 field ra), 4 nops: 1 + 1 + 4", 6},
                     // With FPU latency 0 the rs2 field of a conversion finds no FP result in flight.
                     {165, "fmv.s f0, fcvt.s.w (rs2 field f0), 3 nops: 1 + 1 + 3", 5},
                     {166, "fmv.s f1, fcvt.s.wu (rs2 field f1), 3 nops: 1 + 1 + 3", 5},
                     {170, "flw f0, fcvt.s.w (rs2 field f0), 3 nops: 1 + 1 + 3", 5},
                     // The same comparison for x0 (cv32e40p_id_stage.sv excludes x0 from the read
                     // comparisons, reg_d_ex_is_reg_a_id and the like, not from this one).
                     {173, "lw zero, nop (addi zero): 1 + 1 stall + 1", 3},
                     {174, "lw zero, mul zero: 1 + 1 + 1", 3},
                     {175, "lw zero, csrw (csrrw zero): 1 + 1 + 1", 3},
                     {176, "misaligned lw zero (2), nop: 2 + 1 + 1", 4},
                     {177, "lw zero, addi a4, zero (reads x0): 1 + 1", 2},
                     {178, "lw zero, jal zero waits 1, no refetch: 1 + 1 + 1", 3},
                 });
}

TEST(Timing, FpuLatencyFromTheConfiguration) {
    CoreTiming one;
    one.fpu_addmul_latency = 1;
    const auto cost1 = measure(one);
    // Each sequence ends with its last result ready; the closing csrr of mcycle comes one cycle after it.
    expect_costs(cost1,
                 {
                     {18, "FPU_ADDMUL_LAT=1: fadd -> fadd costs one stall: 2 + 2, csrr + 1", 5},
                     {19, "fmul -> fmadd -> fmadd: 2 + 2 + 2, csrr + 1", 7},
                     {22, "integer work unaffected; fdiv's 19 + 1", 20},
                     {31, "vfmul.h -> vfmac.h -> vfmac.h: as the fmadd.s chain", 7},
                     {32, "fadd.h -> fadd.h: 2 + 2 + 1", 5},
                     {33, "vfdotpex.s.h -> vfdotpex.s.h: 2 + 2 + 1", 5},
                     {37, "vfcpka.h.s (class 1), vfadd.h (class 2): 1 + 2 + 1", 4},
                     // Class 2 after class 2 issues back to back; class 1 waits for a class 2 in flight.
                     {60, "fadd (ready 2), fmin waits for it: 2 + 1", 3},
                     {61, "fmin, fadd (ready 1 + 2), csrr + 1", 4},
                     {62, "four pipelined fadds: 3 + 2 + 1", 6},
                     {63, "fadd (ready 2), fdiv waits for it: 2 + 19 + 1", 22},
                     {102, "fadd (ready 2), flw of its destination waits for it: 2 + 10", 13},
                     {103, "fmv.x.w unaffected (FPU_OTHERS_LAT), li a0: 1 + 1 + 10", 12},
                 });
    CoreTiming others_one;
    others_one.fpu_other_latency = 1;
    const auto cost_others = measure(others_one);
    expect_costs(cost_others,
                 {
                     {102, "fadd unaffected, flw of its destination: 1 + 1 + 10", 12},
                     {103, "fmv.x.w a0 (ready 2), li a0 waits for it: 2 + 10", 13},
                     {104, "fmv.x.w a0, li a1 goes on: 1 + 1 + 10", 12},
                     // Class 2 after class 2 issues back to back, unless the rs2 field of a
                     // conversion or fclass names the first one's destination (apu_read_regs).
                     {165, "fmv.s f0 (ready 2), fcvt.s.w waits 1 (field f0): 2 + 1 + 3", 6},
                     {166, "fmv.s f1, fcvt.s.wu waits 1 (field f1): 2 + 1 + 3", 6},
                     {167, "fmv.s f2, fcvt.s.wu (field f1) goes on: 1 + 1 + 3", 5},
                     {168, "fmv.s f0, fclass.s waits 1 (field f0): 2 + 1 + 3", 6},
                     {169, "fmv.s f0, fmv.x.w (operand b rs1) goes on: 1 + 1 + 3", 5},
                     {170, "flw f0, fcvt.s.w does not wait for the load: 1 + 1 + 3", 5},
                     {171, "fmv.s f0, fcvt.w.s waits 1 (field f0): 2 + 1 + 3", 6},
                     {172, "fmv.s f2, fcvt.s.h waits 1 (field f2, the decoder's rule): 6", 6},
                     // Behind an FP result to x0 (ready 2), an instruction waits 1 when one of
                     // its operand selects names x0: register c's default (REGC_ZERO), or a
                     // field that is x0 (cv32e40p_id_stage.sv: apu_read_regs; apu_disp: read_dep_o).
                     {181, "fclass.s zero, lui waits 1 (register c): 2 + 1 + 3", 6},
                     {182, "fclass.s zero, sw a2 (operand c rs2) goes on: 1 + 1 + 3", 5},
                     {183, "fclass.s zero, sw zero waits 1 (rs2 x0): 2 + 1 + 3", 6},
                     {184, "fclass.s zero, bne a3, zero waits 1, taken: 2 + 3 + 3", 8},
                     {185, "fclass.s zero, jal waits 1 with its pc set (jump_in_dec): 2 + 1 + 3", 6},
                     {186, "fclass.s zero, cv.mac (register c rd) goes on: 1 + 1 + 3", 5},
                     {187, "fclass.s zero, fcvt.s.w from zero waits 1: 2 + 1 + 3", 6},
                     {190, "fmv.x.w zero, nop waits 1 (reads and writes x0): 2 + 1 + 3", 6},
                     // The jalr waits in ID at 4 and is in EX at 5, where the fdiv's result (6 cycles)
                     // is due: its link write and ID still showing it hold the write to 6
                     // (cv32e40p_ex_stage.sv: apu_valid), so the dispatcher is busy through 6 and the
                     // csrr at the target waits to 8 (cv32e40p_id_stage.sv: csr_apu_stall).
                     {191, "fdiv, 2 nops, addi, jalr t2 waits 1: 1 + 2 + 1 + 1 + 2, csrr waits 1 + 1", 9},
                     {192, "the same with jalr zero: its link write holds the result as well", 9},
                 });
    // Both of latency 2 (class 2), back to back unless the second compares x0: fmul's register c is the
    // default, fadd's addends are operands b and c.
    CoreTiming both_one;
    both_one.fpu_addmul_latency = 1;
    both_one.fpu_other_latency = 1;
    expect_costs(measure(both_one),
                 {
                     {188, "feq.s zero, fmul waits 1: 2 + 1 + 3", 6},
                     {189, "feq.s zero, fadd goes on: 1 + 1 + 3", 5},
                     // In DECODE_HWLOOP behind the fmul (latency 2) held one cycle for the fdiv by zero
                     // (3 cycles): the fdiv's result comes in the illegal one's first cycle in ID, the
                     // fmul leaves EX as it starts, the bubble behind it makes EX valid the next cycle.
                     {196, "1 + 3 x (fdiv, nop, fmul held 1, 5 to the handler, 9, 2) + 2 refetches",
                      1 + 3 * (1 + 1 + 1 + 5 + 9 + 2) + 2},
                     // The fmul's result returns in the illegal instruction's EX cycle (apu_valid): EX is
                     // valid then, and FLUSH_EX takes one cycle, as for a CSR instruction.
                     {198, "fmul, the decoder-illegal 4 to the handler, 9", 1 + 4 + 9},
                     // Held in ID for the result (latency 2) to a register the illegal instruction names.
                     {199, "fmul to f0, the fadd with rounding mode 5 waits 1 for f0, 5, 9", 1 + 1 + 5 + 9},
                     {200, "fcvt.w.s to t6, the all-ones word waits 1 for x31, 5, 9", 1 + 1 + 5 + 9},
                 });
    CoreTiming three;
    three.fpu_addmul_latency = 3;
    const auto cost3 = measure(three);
    // Latency 4 is class 3: every later FP operation waits for it.
    expect_costs(cost3, {
                            {18, "FPU_ADDMUL_LAT=3: 4 + 4, csrr + 1", 9},
                            {19, "4 + 4 + 4 + 1", 13},
                            {31, "vfmul.h -> vfmac.h -> vfmac.h: 4 + 4 + 4 + 1", 13},
                            {60, "fadd (ready 4), fmin waits for it: 4 + 1", 5},
                            {62, "four fadds, one after another: 4 x 4 + 1", 17},
                            {63, "fadd (ready 4), fdiv: 4 + 19 + 1", 24},
                        });
    // A jump waits in ID for an FP result to its link register (apu_stall_o); the controller sets the pc in
    // its first cycle there (jump_in_dec), so the target's fetch is done when it issues. A jalr sets the pc
    // only once rs1 can be forwarded (jr_stall_o): in 129 the feq's write waits a cycle behind the addi's,
    // the jalr waits one, and the addi's result in EX holds the pc in the first.
    CoreTiming two;
    two.fpu_addmul_latency = 2;
    two.fpu_other_latency = 2;
    const auto cost2 = measure(two);
    expect_costs(cost2, {
                            {127, "feq (ready 3), jal waits 2, no refetch: 3 + 1, nop", 5},
                            {128, "feq, nop, jal waits 1, no refetch: 3 + 1, nop", 5},
                            {129, "feq, auipc, addi, jalr waits 1, pc set in its last: 4 + 1 + 1, nop", 7},
                            {130, "feq, jalr waits 2, no refetch: 3 + 1, nop", 5},
                            {131, "feq, jal waits 2, the straddle's second fetch: 3 + 1 + 1, addi, nop", 7},
                            // The handler's csrw mepc waits a cycle for the held fadd's result.
                            {145, "1 + 3 x (fdiv 7, fadd held, 3, 1 + 9, 2) + 2", 1 + 3 * 22 + 2},
                            // Fields that are no register wait for an FP result to the register they name
                            // (apu_read_regs): fcvt.w.s's is ready 3 cycles after it issues.
                            {154, "fcvt.w.s t6, fence waits 2 for x31: 1 + 2 + 4", 7},
                            {155, "fcvt.w.s a5, fence rw, rw does not wait: 1 + 4", 5},
                            {156, "fcvt.w.s s3, fence rw, rw waits 2 for x19: 1 + 2 + 4", 7},
                            {157, "fcvt.w.s tp, cv.setupi 0, 4 waits 2 for x4: 1 + 2 + 1 + 12", 16},
                            {158, "lw t6, fence waits for no load: 1 + 4", 5},
                            // The rs2 field of extract waits for it (the APU's read check compares
                            // operand b); those of insert and the shuffles wait for a load only, and
                            // the first nop behind them waits a cycle for the result's write port.
                            {162, "fcvt.w.s ra, cv.insert.b does not wait: 1 + 1 + 1 + 4", 7},
                            {163, "fcvt.w.s a3, cv.shuffleI0.sci.b does not wait: 1 + 1 + 1 + 4", 7},
                            {164, "fcvt.w.s ra, cv.extractu.b waits 2 for ra: 1 + 2 + 1 + 4", 8},
                            // 196 with fmin and fadd of latency 3: fadd held one cycle, then as there.
                            {197, "1 + 3 x (fmin, nop, fadd held 1, 5 to the handler, 9, 2) + 2 refetches",
                             1 + 3 * (1 + 1 + 1 + 5 + 9 + 2) + 2},
                        });
    // A jump behind a load to its link register waits for it in ID (load_stall_o) with its pc set there, so
    // the wait costs nothing by itself; but it enters EX a cycle later, in the cycle the fle.s's class-3
    // result is due through the write port, which holds it there (wb_contention).
    CoreTiming three_three;
    three_three.fpu_addmul_latency = 3;
    three_three.fpu_other_latency = 3;
    expect_costs(
        measure(three_three),
        {
            {179, "fle.s, lw a5, jal a5 waits 1 and is held 1 in EX, nop: 1 + 1 + (1 + 1 + 1) + 1", 6},
            {180, "fle.s, lw a5, jal zero (no wait, not held), nop: 1 + 1 + 2 + 1", 5},
        });
    CoreTiming other_two;
    other_two.fpu_other_latency = 1;
    expect_costs(
        measure(other_two),
        {
            {195, "fmin, fadd held 1, decoder-illegal 4 from the hold: 1 + 3 x (1 + 1 + 4, 9, 2) + 2",
             1 + 3 * 17 + 2},
        });
}

TEST(Timing, StallBreakdownAddsUpToTheCycleCount) {
    const ElfImage elf = ElfImage::load(MATMUL_ELF);
    BareOptions options;
    options.capture_output = true;
    BareMachine machine(elf, options);
    const RunOutcome out = machine.run_to_end();
    ASSERT_EQ(out.exit_status, 0) << out.message << machine.host().captured_stdout();
    const CoreStats& s = machine.hart().stats();
    EXPECT_EQ(machine.hart().cycle(), s.instret() + s.total_stalls());
    EXPECT_GT(s.stalls(StallKind::LoadUse) + s.stalls(StallKind::Control), 0u);
}

} // namespace
} // namespace pulpsim
