// Zicsr: CSR read/modify/write instructions (4 cycles for counters, trap CSRs and writes of frm and fcsr,
// 1 otherwise).
#include "core/decoder.hpp"
#include "core/fp_unit.hpp"

namespace pulpsim::isa {
namespace {

enum CsrOp : uint8_t { kWrite = 1, kSet = 2, kClear = 3 };

template <CsrOp op, bool imm> void csr_access(Hart& h, const DecodedInsn& d) {
    const auto addr = static_cast<uint16_t>(d.imm);
    h.wait_in_id(fpu::csr_wait(h), StallKind::FpuDependency); // before the read: mcycle shows the wait
    const uint32_t operand = imm ? d.rs1 : h.x_[d.rs1];
    const bool writes = op == kWrite || d.rs1 != 0;
    bool ok = true;
    // csrrw with rd = x0 does not read (no read side effects exist here, but the CSR must exist).
    const uint32_t old = h.csr_read(addr, ok);
    if (!ok) h.trap(cause::kIllegalInstruction, d.raw);
    if (writes) {
        uint32_t next = op == kWrite ? operand : op == kSet ? old | operand : old & ~operand;
        if (!h.csr_write(addr, next)) h.trap(cause::kIllegalInstruction, d.raw);
    }
    if (h.csr_cost_is_long(addr, writes)) {
        h.add_stall(StallKind::MultiCycle, 3);
        h.status_csr_flush();
    }
    h.x_[d.rd] = old;
}

} // namespace

bool decode_zicsr(uint32_t raw, DecodedInsn& d) {
    if (opcode(raw) != 0x73) return false;
    static constexpr ExecFn ops[8] = {
        nullptr, csr_access<kWrite, false>, csr_access<kSet, false>, csr_access<kClear, false>,
        nullptr, csr_access<kWrite, true>,  csr_access<kSet, true>,  csr_access<kClear, true>};
    const unsigned f3 = funct3(raw);
    if (!ops[f3]) return false;
    shape_i(d, raw, ops[f3], InsnClass::Csr);
    d.imm = static_cast<int32_t>(raw >> 20);
    if (f3 >= 5) d.src[0] = kZeroSlot;
    return true;
}

} // namespace pulpsim::isa
