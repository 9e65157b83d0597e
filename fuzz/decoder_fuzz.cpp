// The decoder: every 32-bit word and every 16-bit parcel decodes to something executable (an instruction
// or one of the illegal-instruction handlers) whose length matches its encoding and whose scoreboard slots
// exist. The disassembler names exactly what the decoder accepts: "unknown 0x........" for the rest.
#include <cstring>

#include "core/decoded_insn.hpp"
#include "core/decoder.hpp"
#include "core/disassembler.hpp"
#include "core/hart.hpp"
#include "fuzz_input.hpp"

namespace {
void check(const pulpsim::DecodedInsn& d, uint32_t raw) {
    const unsigned expected_len = (raw & 3) == 3 ? 4 : 2;
    if (d.exec == nullptr) pulpsim::fuzz::fail("decoded to no handler", std::to_string(raw));
    if (d.len != expected_len) pulpsim::fuzz::fail("wrong instruction length", std::to_string(raw));
    if (d.dst >= pulpsim::kSlotCount)
        pulpsim::fuzz::fail("destination slot out of range", std::to_string(raw));
    for (uint8_t s : d.src)
        if (s >= pulpsim::kSlotCount) pulpsim::fuzz::fail("source slot out of range", std::to_string(raw));
    if (d.cost == 0) pulpsim::fuzz::fail("instruction takes no cycle", std::to_string(raw));
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    pulpsim::CoreTiming slow; // a platform with pipelined FPUs
    slow.fpu_addmul_latency = 1;
    slow.fpu_other_latency = 1;
    const pulpsim::CoreTiming timings[] = {pulpsim::CoreTiming{}, slow};
    // Instructions as they lie in memory: parcels of 16 bits, 32-bit instructions where the low bits say so.
    size_t at = 0;
    while (at + 2 <= size) {
        uint32_t raw = 0;
        std::memcpy(&raw, data + at, std::min<size_t>(4, size - at));
        if ((raw & 3) != 3)
            raw &= 0xffff;
        else if (size - at < 4)
            break;
        for (const auto& timing : timings)
            check(pulpsim::decode(raw, timing), raw);
        const bool known = pulpsim::encodes_instruction(pulpsim::decode(raw, timings[0]));
        const std::string text = pulpsim::disassemble(raw, static_cast<uint32_t>(at));
        if (text.empty() || (text.rfind("unknown 0x", 0) == 0) == known)
            pulpsim::fuzz::fail("disassembly disagrees with the decoder: '" + text + "'",
                                std::to_string(raw));
        at += (raw & 3) == 3 ? 4 : 2;
    }
    return 0;
}
