// Instruction decoding: raw encoding -> DecodedInsn. Each extension file decodes its own opcodes.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <iterator>

#include "core/decoded_insn.hpp"
#include "core/hart.hpp"

namespace pulpsim {

// Decodes a 16- or 32-bit instruction (low parcel first). Unknown encodings decode to a handler that raises
// an illegal-instruction trap when executed, so decoding never fails.
DecodedInsn decode(uint32_t raw, const CoreTiming& timing);
// Whether decode() found an instruction in the encoding, not one of the illegal ones.
bool encodes_instruction(const DecodedInsn& d);

// The register addresses CV32E40P's APU dispatcher compares with the destinations of the FP operations in
// flight for a 32-bit encoding, as its ALU operand selects name them (cv32e40p_decoder.sv;
// cv32e40p_id_stage.sv: apu_read_regs): a scoreboard slot each (an FP register's when the decoder selects the
// FP register file), or kNoAddress.
inline constexpr uint8_t kNoAddress = 0xff;
using ApuReadAddresses = std::array<uint8_t, 3>;
ApuReadAddresses apu_read_addresses(uint32_t word);

// Expands a compressed instruction to its 32-bit equivalent; 0 if it is not a valid RVC encoding.
uint32_t expand_compressed(uint16_t c);

namespace isa {

// Per-extension decoders: return true and fill `d` when `raw` (a 32-bit encoding) belongs to them.
bool decode_rv32i(uint32_t raw, DecodedInsn& d);
bool decode_rv32m(uint32_t raw, DecodedInsn& d);
bool decode_zicsr(uint32_t raw, DecodedInsn& d);
bool decode_rv32f(uint32_t raw, DecodedInsn& d, const CoreTiming& timing);
bool decode_zfh(uint32_t raw, DecodedInsn& d, const CoreTiming& timing);
bool decode_xfvec(uint32_t raw, DecodedInsn& d, const CoreTiming& timing);
bool decode_xcvhwlp(uint32_t raw, DecodedInsn& d);
bool decode_xpulp(uint32_t raw, DecodedInsn& d, const CoreTiming& timing);
bool decode_xcvsimd(uint32_t raw, DecodedInsn& d);

void illegal(Hart& h, const DecodedInsn& d);
// An FP operation whose static rounding mode is reserved (5, 6) is illegal, but CV32E40P's decoder says so
// only once it has chosen the operation's operands (cv32e40p_decoder.sv: check_fprm): decoded with them, it
// waits in ID for its sources as the operation would (not for the dispatcher's order rule), then traps here.
void reserved_rounding(Hart& h, const DecodedInsn& d);

// Field extraction.
inline unsigned rd(uint32_t r) {
    return (r >> 7) & 31;
}
inline unsigned rs1(uint32_t r) {
    return (r >> 15) & 31;
}
inline unsigned rs2(uint32_t r) {
    return (r >> 20) & 31;
}
inline unsigned rs3(uint32_t r) {
    return r >> 27;
}
inline unsigned funct3(uint32_t r) {
    return (r >> 12) & 7;
}
inline unsigned funct7(uint32_t r) {
    return r >> 25;
}
inline unsigned opcode(uint32_t r) {
    return r & 0x7f;
}
inline int32_t imm_i(uint32_t r) {
    return static_cast<int32_t>(r) >> 20;
}
inline int32_t imm_s(uint32_t r) {
    return (static_cast<int32_t>(r & 0xfe000000u) >> 20) | ((r >> 7) & 31);
}
inline int32_t imm_b(uint32_t r) {
    return (static_cast<int32_t>(r & 0x80000000u) >> 19) | ((r & 0x80) << 4) | ((r >> 20) & 0x7e0) |
           ((r >> 7) & 0x1e);
}
inline int32_t imm_u(uint32_t r) {
    return static_cast<int32_t>(r & 0xfffff000u);
}
inline int32_t imm_j(uint32_t r) {
    return (static_cast<int32_t>(r & 0x80000000u) >> 11) | (r & 0xff000) | ((r >> 9) & 0x800) |
           ((r >> 20) & 0x7fe);
}

// Scoreboard slots of architectural registers.
inline uint8_t xsrc(unsigned r) {
    return r ? static_cast<uint8_t>(r) : kZeroSlot;
}
// x0 as a destination is kX0Slot here; decode() leaves it to the loads, jumps and FP operations that write x0
// (see there).
inline uint8_t xdst(unsigned r) {
    return static_cast<uint8_t>(r);
}
inline uint8_t fslot(unsigned r) {
    return static_cast<uint8_t>(kFpSlot + r);
}

// Common shapes: fills registers, slots and class; latency and cost keep their defaults (1).
inline void shape_r(DecodedInsn& d, uint32_t raw, ExecFn fn, InsnClass cls = InsnClass::Alu) {
    d.exec = fn;
    d.rd = static_cast<uint8_t>(rd(raw));
    d.rs1 = static_cast<uint8_t>(rs1(raw));
    d.rs2 = static_cast<uint8_t>(rs2(raw));
    d.src[0] = xsrc(d.rs1);
    d.src[1] = xsrc(d.rs2);
    d.dst = xdst(d.rd);
    d.cls = cls;
}
inline void shape_i(DecodedInsn& d, uint32_t raw, ExecFn fn, InsnClass cls = InsnClass::Alu) {
    d.exec = fn;
    d.rd = static_cast<uint8_t>(rd(raw));
    d.rs1 = static_cast<uint8_t>(rs1(raw));
    d.imm = imm_i(raw);
    d.src[0] = xsrc(d.rs1);
    d.dst = xdst(d.rd);
    d.cls = cls;
}

// CV32E40P's APU dispatcher holds an instruction in ID while an FP result is in flight to a register one of
// its ALU operand selects names (apu_read_addresses), a source or not: the decoder leaves the selects at
// their defaults (rs1 and rs2) for instructions whose fields there hold an immediate or nothing (the SYSTEM
// instructions, fence, the immediate hardware-loop set-ups), and the conversions and fclass keep operand b
// at the FP register their format or signedness code names. decode() gives such a field's slot (an integer
// or FP register's) as a source that waits for an FP result only (its fp_result_slot), not for a load (the
// decoder marks no register used there: rega_used_o, regb_used_o). x0 is left out: decode() marks every
// instruction that compares it (apu_reads_x0).
inline void apu_checks_slot(DecodedInsn& d, uint8_t slot) {
    if (slot == kZeroSlot || std::ranges::find(d.src, slot) != std::end(d.src) ||
        std::ranges::find(d.src, fp_result_slot(slot)) != std::end(d.src))
        return;
    uint8_t* spare = std::ranges::find(d.src, kZeroSlot);
    assert(spare != std::end(d.src));
    if (spare != std::end(d.src)) *spare = fp_result_slot(slot);
}

} // namespace isa
} // namespace pulpsim
