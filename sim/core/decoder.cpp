#include "core/decoder.hpp"

namespace pulpsim {
namespace isa {

void illegal(Hart& h, const DecodedInsn& d) { h.trap(cause::kIllegalInstruction, d.raw); }

} // namespace isa

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
                                     isa::decode_xcvhwlp(word, d) || isa::decode_xpulp(word, d, timing));
    if (!known) {
        d = DecodedInsn{};
        d.exec = isa::illegal;
        d.cls = InsnClass::System;
    }
    d.raw = raw;
    d.len = len;
    return d;
}

} // namespace pulpsim
