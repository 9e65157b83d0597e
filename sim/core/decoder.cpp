#include "core/decoder.hpp"

#include <algorithm>
#include <cassert>
#include <iterator>

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
    if (d.dst == kX0Slot) {
        // The load stall compares write addresses, x0 included (waits_for_load_result): a load to x0 keeps
        // slot 0 as its destination, and an instruction that writes x0 through the ALU port waits on it as
        // on its register. A jump to x0 keeps it as its destination too, for Hart::jump_entered_id and
        // jump_target_prefetched. Every other write to x0 goes to the sink.
        if (waits_for_load_result(d)) {
            uint8_t* spare = std::ranges::find(d.src, kZeroSlot);
            assert(spare != std::end(d.src));
            if (spare != std::end(d.src)) *spare = kX0Slot;
        }
        if (d.cls != InsnClass::Load && d.cls != InsnClass::Jump) d.dst = kSinkSlot;
    }
    // Sources in fp_result_slot here are fields only the APU dispatcher compares (apu_checks_field).
    uint64_t apu_fields = 0;
    for (const uint8_t s : d.src)
        if (s < kZeroSlot)
            d.src_mask |= uint64_t{1} << s;
        else if (s >= kFpResultSlot)
            apu_fields |= uint64_t{1} << (s - kFpResultSlot);
    d.settle_mask = d.src_mask;
    d.src_mask |= apu_fields;
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
            d.src_mask |= uint64_t{1} << d.dst;
            d.settle_mask |= uint64_t{1} << d.dst;
        }
    }
    return d;
}

} // namespace pulpsim
