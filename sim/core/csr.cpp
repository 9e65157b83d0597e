// Control and status registers of the hart, performance counters included.
#include <fmt/format.h>

#include "core/hart.hpp"

namespace pulpsim {

// The events mhpmevent selects, by bit (CV32E40P user manual, "Event Selector"; cv32e40p_cs_registers.sv:
// hpm_events).
enum HpmEvent : unsigned {
    kCycles,
    kInstr,
    kLdStall,
    kJmpStall,
    kImiss,
    kLd,
    kSt,
    kJump,
    kBranch,
    kBranchTaken,
    kCompInstr,
    kPipeStall,
    kApuType,
    kApuCont,
    kApuDep,
    kApuWb,
};
constexpr uint32_t bit(HpmEvent e) {
    return 1u << e;
}

// A counter adds one in every cycle in which any event it selects fires, so the events are counted by the
// cycles they fire in. INSTR, LD, ST, JUMP, BRANCH and COMP_INSTR fire together, in the cycle after their
// instruction leaves ID: a cycle counts once for an instruction that has several. LD_STALL, JMP_STALL,
// BRANCH_TAKEN and PIPE_STALL fire in cycles in which no instruction's do (a stall's second cycle, a taken
// branch's bubble, a cv.elw's sleep). The APU events, which the core does not register, fire apart from one
// another, but a run of them may begin in the cycle of an instruction's events: the held instruction's, or
// for APU_DEP the one's ahead of the waiting instruction. Such a cycle counts once: the runs that begin so
// are counted apart, APU_WB's by the class of its held instruction (a jal or a compressed one has JUMP or
// COMP_INSTR events too; APU_TYPE and APU_CONT hold FP operations, which have neither), APU_DEP's by the
// class of the instruction ahead while a counter selects it with LD, ST, JUMP, BRANCH or COMP_INSTR but not
// INSTR (Hart::set_ahead_class_needed).
uint64_t Hart::selected_events(uint32_t sel) const {
    if (sel & bit(kCycles)) return issue_;
    // Whether the selection counts the events of a retired instruction of class and size `index` (as
    // by_class_and_size): INSTR counts every one, LD, ST, JUMP and BRANCH their classes, COMP_INSTR the
    // compressed ones.
    const auto counts_instruction = [sel](size_t index) {
        if (sel & bit(kInstr)) return true;
        const auto cls = static_cast<InsnClass>(index / 2);
        return ((sel & bit(kLd)) && (cls == InsnClass::Load || cls == InsnClass::FpLoad)) ||
               ((sel & bit(kSt)) && (cls == InsnClass::Store || cls == InsnClass::FpStore)) ||
               ((sel & bit(kJump)) && cls == InsnClass::Jump) ||
               ((sel & bit(kBranch)) && cls == InsnClass::Branch) ||
               ((sel & bit(kCompInstr)) && index % 2 == 1);
    };
    constexpr uint32_t kInstructionEvents =
        bit(kInstr) | bit(kLd) | bit(kSt) | bit(kJump) | bit(kBranch) | bit(kCompInstr);
    uint64_t n = 0;
    if (sel & kInstructionEvents) {
        for (size_t i = 0; i < stats_.by_class_and_size.size(); ++i)
            if (counts_instruction(i)) n += stats_.by_class_and_size[i];
        if ((sel & bit(kJump)) && !(sel & bit(kInstr)))
            n -= stats_.fence_i; // nor a load, store, branch or compressed instruction
    }
    if (sel & bit(kLdStall)) n += stats_.load_use_hazards - stats_.uncounted_load_hazards;
    if (sel & bit(kJmpStall)) n += stats_.jump_register_hazards;
    if (sel & bit(kBranchTaken)) n += stats_.branches_taken;
    // The instruction cache's refill waits (none in bare mode), at a jump's target too: the core's
    // !fetch_valid && !branch_req (cv32e40p_if_stage.sv) leaves out only the cycle the jump sets the pc in.
    if (sel & bit(kImiss)) n += stats_.stalls(StallKind::ICacheMiss);
    // Cycles with a cv.elw in EX and nothing decoding (cv32e40p_controller.sv: perf_pipeline_stall_o); no
    // cv.elw outside a cluster.
    if (sel & bit(kPipeStall))
        n += stats_.stalls(StallKind::Sleep) + stats_.stalls(StallKind::DmaWait) -
             stats_.dma_queue_full_cycles;
    if (sel & bit(kApuType)) n += stats_.apu_type_cycles;
    if (sel & bit(kApuCont)) n += stats_.stalls(StallKind::FpuContention) + stats_.apu_refused_cycles;
    if (sel & bit(kApuDep)) {
        n += stats_.apu_dependency_cycles;
        if (sel & bit(kInstr))
            n -= stats_.apu_dependency_runs_at_entry;
        else
            for (size_t i = 0; i < stats_.apu_dependency_runs_at_entry_by_class.size(); ++i)
                if (counts_instruction(i)) n -= stats_.apu_dependency_runs_at_entry_by_class[i];
    }
    if (sel & bit(kApuWb)) {
        n += stats_.apu_writeback_cycles;
        // A run that starts in the held instruction's event cycle: that cycle counts once.
        for (size_t i = 0; i < stats_.apu_writeback_runs_at_entry.size(); ++i)
            if (counts_instruction(i)) n -= stats_.apu_writeback_runs_at_entry[i];
    }
    // A run of the other APU events may start in the cycle of an INSTR event, counted once.
    if (sel & bit(kInstr)) {
        if (sel & bit(kApuType)) n -= stats_.apu_type_runs_at_entry;
        if (sel & bit(kApuCont)) n -= stats_.apu_contention_runs_at_entry;
    }
    return n;
}

// The counter's events before the current instruction's EX cycle: what a csrr of it reads (the hart's
// instret() leaves the current instruction out until it retires).
uint64_t Hart::counter_source(unsigned idx) const {
    if (idx == 0) return issue_;
    if (idx == 2) return stats_.instret();
    return selected_events(mhpmevent_[idx]);
}

// The events of the current instruction's own EX cycle: that cycle and, counted there, its retirement. A
// write to a counter, mcountinhibit or mhpmevent takes effect at the end of that cycle, so the new setting
// counts from the next one and the old one keeps this one.
uint64_t Hart::own_events(unsigned idx) const {
    if (idx == 0 || idx == 2) return 1;
    return (mhpmevent_[idx] & (bit(kCycles) | bit(kInstr))) ? 1 : 0;
}

uint64_t Hart::counter_value(unsigned idx) const {
    if (mcountinhibit_ & (1u << idx)) return counter_frozen_[idx];
    return counter_source(idx) - counter_offset_[idx];
}

void Hart::counter_write(unsigned idx, uint64_t value) {
    if (mcountinhibit_ & (1u << idx))
        counter_frozen_[idx] = value;
    else
        counter_offset_[idx] = counter_source(idx) + own_events(idx) - value;
}

// The CSRs CV32E40P's decoder marks as status CSRs (csr_status_o): the controller flushes the pipeline
// after them. frm and fcsr are such only when written (the next FP instruction needs the new frm).
bool Hart::csr_cost_is_long(uint16_t a, bool writes) const {
    using namespace csr;
    return (writes && (a == kFrm || a == kFcsr)) || a == kMstatus || a == kMepc || a == kMtvec ||
           a == kMcause || a == kMcountinhibit || (a >= kMhpmevent3 && a <= kMhpmevent31) ||
           (a >= kMcycle && a <= kMhpmcounter31) || (a >= kMcycleh && a <= kMhpmcounter31h) ||
           (a >= kCycle && a <= kHpmcounter31) || (a >= kCycleh && a <= kHpmcounter31h) ||
           (a >= 0x7B0 && a <= 0x7B3);
}

uint32_t Hart::peek_csr(uint16_t addr) const {
    bool ok = true;
    return const_cast<Hart*>(this)->csr_read(addr, ok);
}

uint32_t Hart::csr_read(uint16_t a, bool& ok) {
    using namespace csr;
    ok = true;
    if (a <= kFcsr && a >= kFflags && (mstatus_ & kFsMask) == 0) {
        ok = false; // FS = Off
        return 0;
    }
    switch (a) {
    case kFflags: return fflags_;
    case kFrm: return frm_;
    case kFcsr: return fcsr();
    case kMstatus: {
        uint32_t status = mstatus_;
        if (issue_ < fs_dirty_seen_from_) status = (status & ~kFsMask) | fs_before_load_; // see fp_gate
        return status | ((status & kFsMask) == kFsDirty ? 0x80000000u : 0u);
    }
    case kTselect:
    case kTdata3:
    case kMcontext:
    case kScontext:
    case kTdata2: return 0;           // tdata2 only changes from debug mode
    case kTdata1: return 0x28001040u; // mcontrol, debug mode only, action: enter debug mode, m; execute 0
    case kTinfo: return 1u << 2;      // type 2 (mcontrol) only
    case kMisa: return 0x40801124u;   // RV32 I M F C X
    case kMie: return mie_;
    case kMtvec: return mtvec_;
    case kMcountinhibit: return mcountinhibit_;
    case kMscratch: return mscratch_;
    case kMepc: return mepc_;
    case kMcause: return mcause_;
    case kMtval: return 0; // CV32E40P leaves mtval unimplemented: reads 0, writes ignored
    case kMip: return 0;
    case kLpstart0: return loops_[0].start;
    case kLpend0: return loops_[0].end;
    case kLpcount0: return loops_[0].count;
    case kLpstart1: return loops_[1].start;
    case kLpend1: return loops_[1].end;
    case kLpcount1: return loops_[1].count;
    case kUhartid:
    case kMhartid: return (cluster_id_ << 5) | hartid_;
    case kPrivlv: return 3;
    case kMvendorid: return 0x602; // OpenHW Group
    case kMarchid: return 4;       // CV32E40P
    case kMimpid: return 1;        // 1 on a core with an FPU or the PULP extensions
    default: break;
    }
    if (a >= kMhpmevent3 && a <= kMhpmevent31) return mhpmevent_[a - 0x320];
    auto counter = [&](uint16_t base) -> int { return static_cast<int>(a) - base; };
    // A counter's value changes as time passes: a trap loop that reads one is not proven (TrapLoopWatch).
    for (uint16_t base : {kMcycle, kCycle})
        if (int i = counter(base); i >= 0 && i < 32 && i != 1) {
            ++outside_reads_;
            return static_cast<uint32_t>(counter_value(i));
        }
    for (uint16_t base : {kMcycleh, kCycleh})
        if (int i = counter(base); i >= 0 && i < 32 && i != 1) {
            ++outside_reads_;
            return static_cast<uint32_t>(counter_value(i) >> 32);
        }
    ok = false;
    return 0;
}

bool Hart::csr_write(uint16_t a, uint32_t v) {
    using namespace csr;
    if ((a >> 10) == 3) return false; // read-only space (user counters, hardware-loop CSRs, IDs)
    if (a <= kFcsr && a >= kFflags) {
        if ((mstatus_ & kFsMask) == 0) return false; // FS = Off
        mstatus_ |= kFsDirty;
        ungate_fp_instructions();
    }
    switch (a) {
    case kFflags: fflags_ = v & 0x1f; return true;
    case kFrm: frm_ = v & 7; return true;
    case kFcsr:
        fflags_ = v & 0x1f;
        frm_ = (v >> 5) & 7;
        return true;
    case kMstatus:
        mstatus_ = (v & (0x88u | kFsMask)) | 0x1800u;
        if ((mstatus_ & kFsMask) != kFsDirty)
            gate_fp_instructions();
        else
            ungate_fp_instructions();
        return true;
    case kTselect:
    case kTdata1:
    case kTdata2:
    case kTdata3:
    case kTinfo:
    case kMcontext:
    case kScontext: return true; // writable from debug mode only: M-mode writes are ignored
    case kMisa: return true;     // WARL: writes ignored
    case kMie: mie_ = v & 0xFFFF0888u; return true; // fast (31:16), external, timer, software enables
    case kMtvec: mtvec_ = (v & ~0xFFu) | (v & 1u); return true; // a 256-byte aligned base; mode bit 0
    case kMscratch: mscratch_ = v; return true;
    case kMepc: mepc_ = v & ~1u; return true;
    case kMcause: mcause_ = v & 0x8000001Fu; return true; // the interrupt bit and a 5-bit code
    case kMtval: return true;
    case kMip: return true;
    case kMcountinhibit: {
        const uint32_t next = v & kImplementedCounters;
        for (unsigned i = 0; i < 32; ++i) {
            const uint32_t mask = 1u << i;
            if ((next & mask) && !(mcountinhibit_ & mask))
                counter_frozen_[i] = counter_source(i) + own_events(i) - counter_offset_[i];
            if (!(next & mask) && (mcountinhibit_ & mask))
                counter_offset_[i] = counter_source(i) + own_events(i) - counter_frozen_[i];
        }
        mcountinhibit_ = next;
        return true;
    }
    default: break;
    }
    if (a >= kMhpmevent3 && a <= kMhpmevent31) {
        const unsigned i = a - 0x320;
        if (!(kImplementedCounters & (1u << i))) return true; // reads 0, writes ignored
        const bool counting = !(mcountinhibit_ & (1u << i));
        const uint64_t keep = counter_source(i) + own_events(i) - counter_offset_[i];
        mhpmevent_[i] = v & 0xffffu;
        if (counting) counter_offset_[i] = counter_source(i) + own_events(i) - keep;
        constexpr uint32_t kClassEvents = bit(kLd) | bit(kSt) | bit(kJump) | bit(kBranch) | bit(kCompInstr);
        const uint32_t sel = mhpmevent_[i];
        set_ahead_class_needed((sel & bit(kApuDep)) && (sel & kClassEvents) &&
                               !(sel & (bit(kInstr) | bit(kCycles))));
        return true;
    }
    if (a >= kMcycle && a <= kMhpmcounter31 && a != kMcycle + 1) {
        const unsigned i = a - kMcycle;
        if (!(kImplementedCounters & (1u << i))) return true;
        counter_write(i, (counter_value(i) & ~0xffffffffull) | v);
        return true;
    }
    if (a >= kMcycleh && a <= kMhpmcounter31h && a != kMcycleh + 1) {
        const unsigned i = a - kMcycleh;
        if (!(kImplementedCounters & (1u << i))) return true;
        counter_write(i, (counter_value(i) & 0xffffffffull) | (uint64_t{v} << 32));
        return true;
    }
    return false;
}

} // namespace pulpsim
