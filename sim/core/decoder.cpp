#include "core/decoder.hpp"

namespace pulpsim {
namespace isa {

void illegal(Hart& h, const DecodedInsn& d) {
    h.trap(cause::kIllegalInstruction, d.raw);
}

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
    for (const uint8_t s : d.src)
        if (s < kZeroSlot) d.src_mask |= uint64_t{1} << s;
    // The next instruction issues at least `cost` cycles later: a result that takes no longer is ready then.
    if (d.dst < kZeroSlot && d.latency > d.cost) d.pend_mask = uint64_t{1} << d.dst;
    return d;
}

} // namespace pulpsim
