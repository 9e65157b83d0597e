// The APU dispatcher's read check: the register addresses CV32E40P's ALU operand selects name
// (apu_read_addresses, read off cv32e40p_decoder.sv and cv32e40p_id_stage.sv) against the registers a decoded
// instruction waits on for an FP result in flight (its sources, the fields only the dispatcher compares, x0).
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "core/decoder.hpp"
#include "core/disassembler.hpp"

namespace pulpsim {
namespace {

constexpr unsigned kF = kFpSlot; // an FP register's address is 32 + its number, as its scoreboard slot

std::set<unsigned> rtl_reads(uint32_t word) {
    std::set<unsigned> reads;
    for (const uint8_t address : apu_read_addresses(word))
        if (address != kNoAddress) reads.insert(address);
    return reads;
}

// What the model waits on for an FP result in flight, as register addresses. A non-FP instruction also
// waits for an FP result to its destination (the dispatcher's write check): that slot is left out here and
// checked on its own. Reads of x0 go to kZeroSlot; slot 0 among the sources is a write of x0 waiting for
// a load's result to it (waits_for_load_result).
std::set<unsigned> model_reads(const DecodedInsn& d) {
    std::set<unsigned> reads;
    for (const uint8_t slot : d.src)
        if (slot != kX0Slot && slot < kZeroSlot)
            reads.insert(slot);
        else if (slot >= kFpResultSlot)
            reads.insert(slot - kFpResultSlot);
    if (d.apu_reads_x0) reads.insert(0);
    return reads;
}

bool is_fp_operation(const DecodedInsn& d) {
    return d.cls == InsnClass::Fp || d.cls == InsnClass::FpDivSqrt;
}

// Encodings from llvm-mc 19; the expected addresses as cv32e40p_decoder.sv selects them for each (the
// comments name the rule).
TEST(ApuReadCheck, SelectsNameTheRegistersTheRtlDecoderSelects) {
    const unsigned x0 = 0, a0 = 10, a1 = 11, a2 = 12, a3 = 13, a5 = 15, fa1 = kF + 11, fa2 = kF + 12;
    struct Case {
        const char* text;
        uint32_t word;
        std::set<unsigned> reads;
    };
    const Case cases[] = {
        // register c defaults to x0 (REGC_ZERO)
        {"add a0, a1, a2", 0x00c58533, {a1, a2, x0}},
        {"addi a0, a1, 5", 0x00558513, {a1, x0}},
        {"lui a0, 0x12345", 0x12345537, {x0}},
        {"jal 0x8", 0x008000ef, {x0}},
        // jalr: operand a is the pc, rs1 compared all the same; operand c not
        {"jalr a5", 0x000780e7, {a5}},
        // stores: the data through operand c
        {"sw a2, 4(a1)", 0x00c5a223, {a1, a2}},
        {"beq a0, a1, 0x8", 0x00b50463, {a0, a1}},
        // CSR accesses: the address is operand b's immediate, uimm operand a's
        {"csrrw a0, mstatus, a1", 0x30059573, {a1, x0}},
        {"csrrwi a0, mstatus, 5", 0x3002d573, {x0}},
        {"div a0, a1, a2", 0x02c5c533, {a1, a2, x0}},
        // fence, ebreak, mret: the selects stay at rs1 and rs2, which hold no register
        {"fence", 0x0ff0000f, {x0, 31}},
        {"ebreak", 0x00100073, {x0, 1}},
        {"mret", 0x30200073, {x0, 2}},
        // an illegal instruction keeps the defaults: behind fcvt.w.s t6, the RTL holds an all-ones word in ID
        {"unknown 0xffffffff", 0xffffffff, {x0, 31}},
        // fadd takes its addends as operands b and c
        {"fadd.s fa0, fa1, fa2", 0x00c5f553, {fa1, fa2}},
        {"fmul.s fa0, fa1, fa2", 0x10c5f553, {fa1, fa2, x0}},
        {"fmadd.s fa0, fa1, fa2, fa3", 0x68c5f543, {fa1, fa2, kF + 13}},
        {"fsw fa2, 8(a1)", 0x00c5a427, {a1, fa2}},
        // the conversions' rs2 field, a signedness code, names an FP register; fmv reads rs1 twice
        {"fcvt.s.w fa0, a1", 0xd005f553, {a1, kF + 0, x0}},
        {"fcvt.wu.s a0, fa1", 0xc015f553, {fa1, kF + 1, x0}},
        {"fmv.x.w a0, fa1", 0xe0058553, {fa1, x0}},
        {"fmv.w.x fa0, a1", 0xf0058553, {a1, x0}},
        {"fclass.s a0, fa1", 0xe0059553, {fa1, kF + 0, x0}},
        {"fsqrt.s fa0, fa1", 0x5805f553, {fa1, kF + 0, x0}},
        // Xpulp: cv.clip's bound is an immediate; cv.mac and the dot products read rd as register c
        {"cv.clip a0, a1, 5", 0x7055b52b, {a1, x0}},
        {"cv.mac a0, a1, a2", 0x90c5b52b, {a1, a2, a0}},
        {"cv.sdotsp.h a0, a1, a2", 0xa8c5857b, {a1, a2, a0}},
        {"cv.insert a0, a1, 3, 4", 0x8645855b, {a1, a0}},
        {"cv.extract a0, a1, 3, 4", 0x0645855b, {a1, x0}},
        // register post-increment store: the offset register (in rd's field) as operand b
        {"cv.sw a2, a3(a1!)", 0x24c5b6ab, {a1, a2, a3}},
        {"cv.add.div2 a0, a1, a2", 0x6cc5a57b, {a1, a2, x0}},
        {"cv.clipu a0, a1, 5", 0x7255b52b, {a1, x0}},
        {"cv.clipr a0, a1, a2", 0x74c5b52b, {a1, a2, x0}},
        {"cv.subrotmj a0, a1, a2", 0x64c5857b, {a1, a2, x0}},
        {"cv.sub.div4 a0, a1, a2", 0x74c5c57b, {a1, a2, x0}},
        {"cv.cplxmul.r a0, a1, a2", 0x54c5857b, {a1, a2, a0}},
        // the bit-mask operations: rs2 through the bit-mask select, register c not compared
        {"cv.bclrr a0, a1, a2", 0x38c5b52b, {a1, a2}},
        {"cv.insertr a0, a1, a2", 0x34c5b52b, {a1, a2}},
        {"cv.extractr a0, a1, a2", 0x30c5b52b, {a1, a2}},
        // cv.addNr: operand a is rd (OP_A_REGC), for which the dispatcher names rs2
        {"cv.addnr a0, a1, a2", 0x80c5b52b, {a1, a2}},
        {"cv.sw a2, 8(a1!)", 0x00c5a42b, {a1, a2}},
        {"cv.lw a0, 4(a1!)", 0x0045a50b, {a1, x0}},
        {"cv.beqimm a0, 5, 0x8", 0x0055640b, {a0}},
        {"cv.shuffle2.h a0, a1, a2", 0xe0c5857b, {a1, a2, a0}},
        {"cv.shufflei0.sci.b a0, a1, 3", 0xc215f57b, {a1, x0}},
        {"cv.add.sci.h a0, a1, 5", 0x0225e57b, {a1, x0}},
        // cv.extract's index in the rs2 field is a register to the dispatcher; cv.insert's operand b is rd
        {"cv.extract.b a0, a1, 3", 0xba15957b, {a1, 1, x0}},
        {"cv.insert.h a0, a1, 1", 0xba05c57b, {a1, a0}},
        {"cv.pack a0, a1, a2", 0xf0c5857b, {a1, a2, x0}},
        {"cv.packhi.b a0, a1, a2", 0xfac5957b, {a1, a2, a0}},
        // the immediate hardware-loop set-ups: their fields at rs1 and rs2 are registers to the dispatcher
        {"cv.counti 1, 300", 0x12c044ab, {a2, x0}},
        {"cv.setupi 0, 20, 0x28", 0x0145462b, {a0, 20, x0}},
        {"fsub.s fa0, fa1, fa2", 0x08c5f553, {fa1, fa2}},
        {"fcvt.h.s fa0, fa1", 0x4405f553, {fa1, kF + 0, x0}},
        {"fmv.x.h a0, fa1", 0xe4058553, {fa1, x0}},
        {"fmv.h.x fa0, a1", 0xf4058553, {a1, x0}},
    };
    for (const Case& c : cases) {
        EXPECT_EQ(disassemble(c.word, 0), c.text) << "encoding";
        EXPECT_EQ(rtl_reads(c.word), c.reads) << c.text;
    }
}

// The model's sources come from each extension's decoder, the selects from one table: on every encoding, an
// instruction or an illegal one, an FP result in flight holds exactly what the dispatcher holds.
TEST(ApuReadCheck, DecodedInstructionsWaitOnWhatTheDispatcherCompares) {
    // Opcodes with an instruction the core decodes: each gets its share of the random words.
    const uint32_t opcodes[] = {0x03, 0x07, 0x0b, 0x0f, 0x13, 0x17, 0x23, 0x27, 0x2b, 0x33, 0x37,
                                0x43, 0x47, 0x4b, 0x4f, 0x53, 0x5b, 0x63, 0x67, 0x6f, 0x73, 0x7b};
    std::mt19937 random(20261130);
    unsigned decoded = 0, extra_rd = 0;
    for (unsigned n = 0; n < 3'000'000; ++n) {
        const uint32_t word = (random() & ~0x7fu) | opcodes[n % std::size(opcodes)];
        const DecodedInsn d = decode(word, CoreTiming{});
        decoded += encodes_instruction(d); // an illegal one is held as well
        std::set<unsigned> model = model_reads(d), rtl = rtl_reads(word);
        const bool writes_register = !is_fp_operation(d) && d.dst != kX0Slot && d.dst < kZeroSlot;
        if (writes_register) {
            ASSERT_TRUE(model.contains(d.dst))
                << disassemble(word, 0) << ": no write check on its destination";
            model.erase(d.dst);
            rtl.erase(d.dst);
        }
        // The model's own reading of rd where CV32E40P has no such instruction (vfdotpex) or FPnew leaves a
        // lane open (vfcvt.h.s keeps rd's other lane): a source the dispatcher does not name.
        const bool vectorial = (word & 0x7f) == 0x33 && (word >> 30) == 2;
        const uint32_t op = (word >> 25) & 31, field = (word >> 20) & 31;
        const unsigned rd = kF + ((word >> 7) & 31);
        if (vectorial && (op == 0x0b || (op == 0x0c && field == 4)) && !rtl.contains(rd) &&
            model.contains(rd)) {
            model.erase(rd);
            ++extra_rd;
        }
        ASSERT_EQ(model, rtl) << disassemble(word, 0) << " (" << std::hex << word << ")";
    }
    EXPECT_GT(decoded, 500'000u);
    EXPECT_GT(extra_rd, 10u);
}

} // namespace
} // namespace pulpsim
