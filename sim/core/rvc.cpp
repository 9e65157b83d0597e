// The C extension: each compressed instruction expands to the 32-bit instruction it abbreviates (F variant,
// RV32: c.flw/c.fsw/c.flwsp/c.fswsp; c.jal exists).
#include "core/decoder.hpp"

namespace pulpsim {
namespace {

constexpr uint32_t bits(uint32_t v, unsigned hi, unsigned lo) {
    return (v >> lo) & ((1u << (hi - lo + 1)) - 1);
}
constexpr uint32_t sext(uint32_t v, unsigned width) {
    return static_cast<uint32_t>(static_cast<int32_t>(v << (32 - width)) >> (32 - width));
}

constexpr uint32_t r_type(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
    return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
constexpr uint32_t i_type(uint32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
    return ((imm & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
constexpr uint32_t s_type(uint32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t op) {
    return (bits(imm, 11, 5) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (bits(imm, 4, 0) << 7) | op;
}
constexpr uint32_t b_type(uint32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3) {
    return (bits(imm, 12, 12) << 31) | (bits(imm, 10, 5) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) |
           (bits(imm, 4, 1) << 8) | (bits(imm, 11, 11) << 7) | 0x63;
}
constexpr uint32_t j_type(uint32_t imm, uint32_t rd) {
    return (bits(imm, 20, 20) << 31) | (bits(imm, 10, 1) << 21) | (bits(imm, 11, 11) << 20) |
           (bits(imm, 19, 12) << 12) | (rd << 7) | 0x6f;
}

} // namespace

uint32_t expand_compressed(uint16_t c) {
    const uint32_t op = c & 3;
    const uint32_t f3 = bits(c, 15, 13);
    const uint32_t rd = bits(c, 11, 7);
    const uint32_t rs2 = bits(c, 6, 2);
    const uint32_t rdp = 8 + bits(c, 4, 2);  // rd' / rs2'
    const uint32_t rs1p = 8 + bits(c, 9, 7); // rs1' / rd'
    if (op == 0) {
        const uint32_t lw_imm = (bits(c, 5, 5) << 6) | (bits(c, 12, 10) << 3) | (bits(c, 6, 6) << 2);
        switch (f3) {
        case 0: { // c.addi4spn
            const uint32_t imm =
                (bits(c, 10, 7) << 6) | (bits(c, 12, 11) << 4) | (bits(c, 5, 5) << 3) | (bits(c, 6, 6) << 2);
            return imm ? i_type(imm, 2, 0, rdp, 0x13) : 0;
        }
        case 2: return i_type(lw_imm, rs1p, 2, rdp, 0x03); // c.lw
        case 3: return i_type(lw_imm, rs1p, 2, rdp, 0x07); // c.flw
        case 6: return s_type(lw_imm, rdp, rs1p, 2, 0x23); // c.sw
        case 7: return s_type(lw_imm, rdp, rs1p, 2, 0x27); // c.fsw
        default: return 0;                                 // c.fld/c.fsd: no D here
        }
    }
    if (op == 1) {
        const uint32_t imm6 = sext((bits(c, 12, 12) << 5) | bits(c, 6, 2), 6);
        const uint32_t jimm = sext((bits(c, 12, 12) << 11) | (bits(c, 8, 8) << 10) | (bits(c, 10, 9) << 8) |
                                       (bits(c, 6, 6) << 7) | (bits(c, 7, 7) << 6) | (bits(c, 2, 2) << 5) |
                                       (bits(c, 11, 11) << 4) | (bits(c, 5, 3) << 1),
                                   12);
        const uint32_t bimm = sext((bits(c, 12, 12) << 8) | (bits(c, 6, 5) << 6) | (bits(c, 2, 2) << 5) |
                                       (bits(c, 11, 10) << 3) | (bits(c, 4, 3) << 1),
                                   9);
        switch (f3) {
        case 0: return i_type(imm6, rd, 0, rd, 0x13); // c.addi / c.nop
        case 1: return j_type(jimm, 1);               // c.jal
        case 2: return i_type(imm6, 0, 0, rd, 0x13);  // c.li
        case 3:
            if (rd == 2) { // c.addi16sp
                const uint32_t imm =
                    sext((bits(c, 12, 12) << 9) | (bits(c, 4, 3) << 7) | (bits(c, 5, 5) << 6) |
                             (bits(c, 2, 2) << 5) | (bits(c, 6, 6) << 4),
                         10);
                return imm ? i_type(imm, 2, 0, 2, 0x13) : 0;
            }
            return imm6 ? ((imm6 << 12) | (rd << 7) | 0x37) : 0; // c.lui
        case 4: {
            const uint32_t sub = bits(c, 11, 10);
            const uint32_t shamt = (bits(c, 12, 12) << 5) | bits(c, 6, 2);
            if (sub == 0) return shamt < 32 ? i_type(shamt, rs1p, 5, rs1p, 0x13) : 0;         // c.srli
            if (sub == 1) return shamt < 32 ? i_type(0x400 | shamt, rs1p, 5, rs1p, 0x13) : 0; // c.srai
            if (sub == 2) return i_type(imm6, rs1p, 7, rs1p, 0x13);                           // c.andi
            if (bits(c, 12, 12)) return 0;
            static constexpr uint32_t f3s[4] = {0, 4, 6, 7}; // c.sub c.xor c.or c.and
            const uint32_t which = bits(c, 6, 5);
            return r_type(which == 0 ? 0x20 : 0, rdp, rs1p, f3s[which], rs1p, 0x33);
        }
        case 5: return j_type(jimm, 0);          // c.j
        case 6: return b_type(bimm, 0, rs1p, 0); // c.beqz
        case 7: return b_type(bimm, 0, rs1p, 1); // c.bnez
        default: return 0;
        }
    }
    if (op == 2) {
        const uint32_t lwsp = (bits(c, 3, 2) << 6) | (bits(c, 12, 12) << 5) | (bits(c, 6, 4) << 2);
        const uint32_t swsp = (bits(c, 8, 7) << 6) | (bits(c, 12, 9) << 2);
        switch (f3) {
        case 0: {
            const uint32_t shamt = (bits(c, 12, 12) << 5) | bits(c, 6, 2);
            return shamt < 32 ? i_type(shamt, rd, 1, rd, 0x13) : 0; // c.slli
        }
        case 2: return rd ? i_type(lwsp, 2, 2, rd, 0x03) : 0; // c.lwsp
        case 3: return i_type(lwsp, 2, 2, rd, 0x07);          // c.flwsp
        case 4:
            if (!bits(c, 12, 12)) {
                if (rs2 == 0) return rd ? i_type(0, rd, 0, 0, 0x67) : 0; // c.jr
                return r_type(0, rs2, 0, 0, rd, 0x33);                   // c.mv
            }
            if (rs2 == 0) return rd ? i_type(0, rd, 0, 1, 0x67) : 0x00100073; // c.jalr / c.ebreak
            return r_type(0, rs2, rd, 0, rd, 0x33);                           // c.add
        case 6: return s_type(swsp, rs2, 2, 2, 0x23);                         // c.swsp
        case 7: return s_type(swsp, rs2, 2, 2, 0x27);                         // c.fswsp
        default: return 0;
        }
    }
    return 0;
}

} // namespace pulpsim
