// XCVhwlp: the CORE-V hardware loops (custom-1, funct3 = 100). Loop-back itself happens in Hart::run.
#include <fmt/format.h>

#include "core/decoder.hpp"

namespace pulpsim::isa {
namespace {

using U = uint32_t;

enum Form : uint8_t { kStarti, kStart, kEndi, kEnd, kCounti, kCount, kSetupi, kSetup };

template <Form form> void hwloop(Hart& h, const DecodedInsn& d) {
    const unsigned l = d.aux;
    const U pc = h.pc_;
    // PC-relative forms compute word offsets from their own address, so they must sit on a word.
    if ((form == kStarti || form == kEndi || form == kSetupi || form == kSetup) && (pc & 3))
        h.fail(fmt::format(
            "hardware-loop setup instruction at misaligned pc {:#010x} (must be 32-bit aligned)", pc));
    const U uimm_l = static_cast<U>(d.imm);
    const U reg = h.x_[d.rs1];
    switch (form) {
    case kStarti: h.hwloop_set(l, pc + (uimm_l << 2), 0, 0, true, false, false); break;
    case kStart: h.hwloop_set(l, reg, 0, 0, true, false, false); break;
    case kEndi: h.hwloop_set(l, 0, pc + (uimm_l << 2), 0, false, true, false); break;
    case kEnd: h.hwloop_set(l, 0, reg, 0, false, true, false); break;
    case kCounti: h.hwloop_set(l, 0, 0, uimm_l, false, false, true); break;
    case kCount: h.hwloop_set(l, 0, 0, reg, false, false, true); break;
    case kSetupi: h.hwloop_set(l, pc + 4, pc + (U{d.rs1} << 2), uimm_l, true, true, true); break;
    case kSetup: h.hwloop_set(l, pc + 4, pc + (uimm_l << 2), reg, true, true, true); break;
    }
}

} // namespace

bool decode_xcvhwlp(uint32_t raw, DecodedInsn& d) {
    if (opcode(raw) != 0x2b || funct3(raw) != 4) return false;
    const unsigned form = (raw >> 8) & 15;
    static constexpr ExecFn ops[8] = {hwloop<kStarti>, hwloop<kStart>, hwloop<kEndi>,   hwloop<kEnd>,
                                      hwloop<kCounti>, hwloop<kCount>, hwloop<kSetupi>, hwloop<kSetup>};
    if (form > 7) return false;
    const bool uses_reg = form == kStart || form == kEnd || form == kCount || form == kSetup;
    // Register forms have uimmL = 0 except cv.setup; immediate forms have rs1 = 0 except cv.setupi.
    if ((form == kStart || form == kEnd || form == kCount) && (raw >> 20) != 0) return false;
    if ((form == kStarti || form == kEndi || form == kCounti) && rs1(raw) != 0) return false;
    d.exec = ops[form];
    d.aux = static_cast<uint8_t>((raw >> 7) & 1);
    d.rs1 = static_cast<uint8_t>(rs1(raw));
    d.imm = static_cast<int32_t>(raw >> 20);
    d.src[0] = uses_reg ? xsrc(d.rs1) : kZeroSlot;
    d.cls = InsnClass::HwLoop;
    return true;
}

} // namespace pulpsim::isa
