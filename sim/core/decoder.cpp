#include "core/decoder.hpp"

#include <algorithm>
#include <cassert>
#include <iterator>

namespace pulpsim {
namespace isa {

void illegal(Hart& h, const DecodedInsn& d) {
    h.trap(cause::kIllegalInstruction, d.raw);
}

void reserved_rounding(Hart& h, const DecodedInsn& d) {
    h.trap(cause::kIllegalInstruction, d.raw);
}

} // namespace isa

namespace {

// The ALU operand selects of cv32e40p_decoder.sv, as far as CV32E40P's APU dispatcher reads them to find the
// register addresses an instruction in ID reads (cv32e40p_id_stage.sv: apu_read_regs).
enum class OperandA : uint8_t { RegA, RegB, RegC, CurrentPc, Immediate };
enum class OperandB : uint8_t { RegA, RegB, RegC, Immediate, Bitmask };
enum class OperandC : uint8_t { RegB, RegC, JumpTarget };
enum class RegisterC : uint8_t { Zero, Rd, Rs3 }; // regc_mux: REGC_ZERO addresses x0
struct OperandSelects {
    OperandA a = OperandA::RegA; // the decoder's defaults
    OperandB b = OperandB::RegB;
    OperandC c = OperandC::RegC;
    RegisterC regc = RegisterC::Zero;
    bool bitmask_b_register = false; // alu_bmask_b_mux_sel = BMASK_B_REG
    bool jalr = false;
    bool fp_fields = false; // rs1, rs2 and register c name FP registers (rs1 too unless int_rs1)
    bool int_rs1 = false;
};

OperandSelects operand_selects(uint32_t w) {
    OperandSelects s;
    const uint32_t f3 = (w >> 12) & 7, f7 = w >> 25;
    switch (w & 0x7f) {
    case 0x67: // jalr
        s.jalr = true;
        [[fallthrough]];
    case 0x6f: // jal
        s.a = OperandA::CurrentPc;
        s.b = OperandB::Immediate;
        break;
    case 0x63: s.c = OperandC::JumpTarget; break; // branches
    case 0x23:                                    // stores: the data through operand c
        s.c = OperandC::RegB;
        s.b = OperandB::Immediate;
        break;
    case 0x27: // FP stores
        s.c = OperandC::RegB;
        s.b = OperandB::Immediate;
        s.fp_fields = s.int_rs1 = true;
        break;
    case 0x37: // lui
        s.a = OperandA::Immediate;
        s.b = OperandB::Immediate;
        break;
    case 0x17: // auipc
        s.a = OperandA::CurrentPc;
        s.b = OperandB::Immediate;
        break;
    case 0x03: // loads, op-imm
    case 0x07:
    case 0x13: s.b = OperandB::Immediate; break;
    case 0x33:
        if ((w >> 30) == 2) { // PULP's vectorial FP (prefix 10)
            s.fp_fields = true;
            const uint32_t op = (w >> 25) & 31;
            if (op == 1 || op == 2) { // vfadd, vfsub: the addends as operands b and c
                s.b = OperandB::RegA;
                s.c = OperandC::RegB;
            } else if (op == 8 || op == 9) { // vfmac, vfmre: rd the third
                s.regc = RegisterC::Rd;
            } else if (op == 0x0c) { // moves, classes, conversions: the operation in the rs2 field
                const uint32_t sub = (w >> 20) & 31;
                if (sub == 0) { // vfmv as a sign injection of rs1 with itself; R: from an x register
                    s.b = OperandB::RegA;
                    s.int_rs1 = (w >> 14) & 1;
                } else if (sub == 2 || sub == 3) { // vfcvt between integers and FP16: rs2's bit 0, from one
                    s.int_rs1 = sub == 3;
                }
            }
        } else if (f7 == 1 && f3 >= 4) { // div, divu, rem, remu
            s.a = OperandA::RegB;
            s.b = OperandB::RegA;
        }
        break;
    case 0x53: // OP-FP: fadd and fsub take their addends as operands b and c
        s.fp_fields = true;
        s.int_rs1 = (w >> 27) == 0x1a || (w >> 27) == 0x1e; // fcvt from an integer, fmv to FP
        if ((w >> 27) <= 1) {
            s.b = OperandB::RegA;
            s.c = OperandC::RegB;
        }
        // fmv.x.w and fmv.w.x (and their FP16 forms) as sign injections of rs1 with itself
        if (((w >> 27) == 0x1c && f3 == 0) || (w >> 27) == 0x1e) s.b = OperandB::RegA;
        break;
    case 0x43: // fmadd, fmsub, fnmsub, fnmadd
    case 0x47:
    case 0x4b:
    case 0x4f:
        s.fp_fields = true;
        s.regc = RegisterC::Rs3;
        break;
    case 0x0b: // custom-0: post-increment loads, cv.beqimm and cv.bneimm
        s.b = OperandB::Immediate;
        if (((w >> 13) & 3) == 3) s.c = OperandC::JumpTarget;
        break;
    case 0x2b:         // custom-1
        if (f3 <= 2) { // immediate post-increment stores
            s.c = OperandC::RegB;
            s.b = OperandB::Immediate;
        } else if (f3 == 3 && f7 >= 0x10 && f7 <= 0x17) { // register post-increment and indexed stores
            s.c = OperandC::RegB;
            s.b = OperandB::RegC;
            s.regc = RegisterC::Rd;
        } else if (f3 == 3 && f7 >= 0x18 && f7 <= 0x1f) { // register bit manipulation
            s.b = OperandB::Immediate;
            const uint32_t op = f7 & 7;
            if (op <= 2) s.b = OperandB::Bitmask; // cv.extractr, cv.extractur, cv.insertr
            if (op == 2 || op == 4 || op == 5) s.bitmask_b_register = true; // cv.insertr, cv.bclrr, cv.bsetr
            if (op == 2) s.regc = RegisterC::Rd;
        } else if (f3 == 3 && f7 >= 0x40 && f7 <= 0x47) { // add/sub with normalisation by a register
            s.regc = RegisterC::Rd;
            s.bitmask_b_register = true;
            s.a = OperandA::RegC;
            s.b = OperandB::RegA;
        } else if (f3 == 3 && (f7 == 0x48 || f7 == 0x49)) { // cv.mac, cv.msu
            s.regc = RegisterC::Rd;
        } else if (f3 == 3 && f7 >= 0x20 && f7 <= 0x3f && ((f7 & 0x1f) == 0x18 || (f7 & 0x1f) == 0x19)) {
            s.b = OperandB::Immediate; // cv.clip, cv.clipu
        }
        break;
    case 0x5b: // custom-2
        switch ((w >> 13) & 3) {
        case 0: // bit manipulation with immediates; cv.insert and cv.bitrev read rd
            s.b = OperandB::Immediate;
            if ((w >> 30) == 2 && !(w & 0x1000)) s.regc = RegisterC::Rd;
            if ((w >> 30) == 3 && (w & 0x1000)) s.regc = RegisterC::Rd;
            break;
        case 1: break;                         // add/sub with normalisation
        case 3: s.regc = RegisterC::Rd; break; // MAC with subword selection
        default: break;                        // MUL with subword selection
        }
        break;
    case 0x7b: {                                                  // custom-3: packed SIMD
        if ((w >> 13) & (w >> 14) & 1) s.b = OperandB::Immediate; // .sci
        const uint32_t op = w >> 26;
        if (op == 0b100110 || op == 0b101000 || op == 0b101010 || op == 0b111000 || op == 0b111110)
            s.regc = RegisterC::Rd; // cv.sdotup, cv.sdotusp, cv.sdotsp, cv.shuffle2, cv.packhi/lo
        if (op == 0b101110 && ((w >> 13) & 3) == 2) { // cv.insert
            s.regc = RegisterC::Rd;
            s.b = OperandB::RegC;
        }
        if (op == 0b010101) { // cv.cplxmul
            s.regc = RegisterC::Rd;
            s.b = OperandB::RegB;
        }
        if (op == 0b011001 || op == 0b011011 || op == 0b011101) // cv.subrotmj, cv.add.divN, cv.sub.divN
            s.b = OperandB::RegB;
        break;
    }
    case 0x73:
        if (f3 != 0) { // CSR accesses: the address as operand b, an immediate form's uimm as operand a
            s.b = OperandB::Immediate;
            if (f3 & 4) s.a = OperandA::Immediate;
        }
        break;      // ecall, ebreak, mret, wfi keep the defaults
    default: break; // fence and the rest keep the defaults
    }
    return s;
}

} // namespace

ApuReadAddresses apu_read_addresses(uint32_t w) {
    const OperandSelects s = operand_selects(w);
    const uint8_t rs1 = (w >> 15) & 31, rs2 = (w >> 20) & 31, rd = (w >> 7) & 31,
                  rs3 = static_cast<uint8_t>(w >> 27);
    const uint8_t fp = s.fp_fields ? kFpSlot : 0;
    const uint8_t ra = static_cast<uint8_t>(rs1 + (s.int_rs1 ? 0 : fp)), rb = static_cast<uint8_t>(rs2 + fp);
    const uint8_t rc =
        s.regc == RegisterC::Zero ? 0 : static_cast<uint8_t>((s.regc == RegisterC::Rd ? rd : rs3) + fp);
    ApuReadAddresses read{kNoAddress, kNoAddress, kNoAddress};
    switch (s.a) {
    case OperandA::RegA: read[0] = ra; break;
    case OperandA::RegB:
    case OperandA::RegC: read[0] = rb; break; // the dispatcher names rb for both
    case OperandA::CurrentPc:
        if (s.jalr) read[0] = ra;
        break;
    case OperandA::Immediate: break;
    }
    switch (s.b) {
    case OperandB::RegA: read[1] = ra; break;
    case OperandB::RegB:
    case OperandB::Bitmask: read[1] = rb; break;
    case OperandB::RegC: read[1] = rc; break;
    case OperandB::Immediate:
        if (s.bitmask_b_register) read[1] = rb;
        break;
    }
    if (s.c == OperandC::RegB)
        read[2] = rb;
    else if (s.c == OperandC::RegC && s.a != OperandA::RegC && !s.jalr &&
             !(s.b == OperandB::Immediate && s.bitmask_b_register) && s.b != OperandB::Bitmask)
        read[2] = rc;
    return read;
}

bool encodes_instruction(const DecodedInsn& d) {
    return d.exec != isa::illegal && d.exec != isa::reserved_rounding;
}

DecodedInsn decode(uint32_t raw, const CoreTiming& timing) {
    DecodedInsn d;
    uint32_t word = raw;
    uint8_t len = 4;
    if ((raw & 3) != 3) {
        len = 2;
        raw &= 0xffff;
        word = expand_compressed(static_cast<uint16_t>(raw));
    }
    const bool known = word != 0 && (isa::decode_rv32i(word, d) || isa::decode_rv32m(word, d) ||
                                     isa::decode_zicsr(word, d) || isa::decode_rv32f(word, d, timing) ||
                                     isa::decode_zfh(word, d, timing) || isa::decode_xfvec(word, d, timing) ||
                                     isa::decode_xcvhwlp(word, d) || isa::decode_xpulp(word, d, timing));
    if (!known) {
        d = DecodedInsn{};
        d.exec = isa::illegal;
        d.cls = InsnClass::System;
    }
    d.raw = raw;
    d.len = len;
    d.stat_index = static_cast<uint8_t>(2 * static_cast<unsigned>(d.cls) + (len == 2 ? 1 : 0));
    const ReadyCause cause = d.cls == InsnClass::Load || d.cls == InsnClass::FpLoad    ? ReadyCause::Load
                             : d.cls == InsnClass::Fp || d.cls == InsnClass::FpDivSqrt ? ReadyCause::Fpu
                                                                                       : ReadyCause::Other;
    d.ready_code = static_cast<uint16_t>(ready_entry(d.latency, cause));
    if (d.cls == InsnClass::Fp || d.cls == InsnClass::FpDivSqrt) d.fast = FastOp::FpuOp;
    if (d.cost != 1) d.fast = FastOp::None; // the inline loop counts one cycle for them
    if (d.dst == kX0Slot) {
        // The load stall compares write addresses, x0 included (waits_for_load_result): a load to x0 keeps
        // slot 0 as its destination, and an instruction that writes x0 through the ALU port waits on it as
        // on its register. A jump to x0 keeps it as its destination too, for Hart::jump_entered_id and
        // jump_target_prefetched. Every other write to x0 goes to the sink.
        if (waits_for_load_result(d)) {
            uint8_t* spare = std::ranges::find(d.src, kZeroSlot);
            assert(spare != std::end(d.src));
            if (spare != std::end(d.src)) {
                *spare = kX0Slot;
                d.waits_as_writer = true;
            }
        }
        // An FP operation's result to x0 is tracked as well, as the APU dispatcher tracks its address:
        // instructions that compare x0 wait for it (apu_reads_x0), those that write x0 through the ALU port
        // as for a load's.
        if (d.cls != InsnClass::Load && d.cls != InsnClass::Jump && cause != ReadyCause::Fpu)
            d.dst = kSinkSlot;
    }
    // The fields the APU dispatcher compares that are no source wait for an FP result only; so do an illegal
    // instruction's, which the decoder's selects name as well.
    const ApuReadAddresses apu_reads = apu_read_addresses(word);
    for (const uint8_t reg : apu_reads)
        if (reg != kNoAddress && reg != kX0Slot) isa::apu_checks_slot(d, reg);
    uint64_t apu_fields = 0;
    for (const uint8_t s : d.src)
        if (s < kZeroSlot)
            d.src_mask |= uint64_t{1} << s;
        else if (s >= kFpResultSlot)
            apu_fields |= uint64_t{1} << (s - kFpResultSlot);
    d.settle_mask = d.src_mask;
    d.src_mask |= apu_fields;
    // x0 is compared by most instructions, through register c's default (REGC_ZERO): an FP result to x0 in
    // flight holds them (cv32e40p_apu_disp.sv: read_dep_o). While one may be, slot 0's pending bit sends
    // them to check_operands.
    d.apu_reads_x0 = std::ranges::find(apu_reads, kX0Slot) != apu_reads.end();
    if (d.apu_reads_x0) d.src_mask |= uint64_t{1} << kX0Slot;
    // The next instruction issues at least `cost` cycles later: a result that takes no longer is ready then.
    if (d.dst < kZeroSlot && d.latency > d.cost) d.pend_mask = uint64_t{1} << d.dst;
    // Unless it reads its destination anyway, an instruction that is no FP operation waits for an FP result
    // to it (fp_result_slot), and one that writes an integer register through the ALU port waits for a
    // load's result to it as well (waits_for_load_result): every such instruction has a source to spare.
    // The register's bit in src_mask sends it to the scoreboard while that result may be in flight.
    if (d.dst != kX0Slot && d.dst < kZeroSlot && cause != ReadyCause::Fpu &&
        std::ranges::find(d.src, d.dst) == std::end(d.src)) {
        uint8_t* spare = std::ranges::find(d.src, kZeroSlot);
        assert(spare != std::end(d.src));
        if (spare != std::end(d.src)) {
            *spare = waits_for_load_result(d) ? d.dst : fp_result_slot(d.dst);
            d.waits_as_writer = waits_for_load_result(d);
            d.src_mask |= uint64_t{1} << d.dst;
            d.settle_mask |= uint64_t{1} << d.dst;
        }
    }
    return d;
}

} // namespace pulpsim
