// The hart's instruction loop, inline: hart.cpp runs it, and the cluster's lockstep engine inlines it so
// that running one core for one cycle costs no call.
#pragma once

#include <algorithm>
#include <type_traits>

#include "core/hart.hpp"

namespace pulpsim {

// The hot path: one instruction. Inlined into run(), where single-core simulation spends its time.
// kFetchModel: an instruction cache is attached (the check costs about 5% when there is none).
// kObserved: RetireObservers are told of the instruction (the views); false compiles it away.
template <bool kFetchModel, bool kObserved>
[[gnu::always_inline]] inline const DecodedInsn* Hart::execute_one(const DecodedInsn* dp) {
    const uint32_t pc = pc_;
    uint64_t cycle = cycle_; // the loop has just compared it: only the slow paths below change it
    if (kFetchModel && (pc & fetch_line_mask_) != current_line_) [[unlikely]] {
        fetch_new_line();
        cycle = cycle_;
    }
    if (!dp->exec) [[unlikely]]
        dp = &resolve();
    const DecodedInsn& d = *dp;
    if (d.src_mask & pending_) [[unlikely]] {
        check_operands(d);
        cycle = cycle_;
    }
    issue_ = cycle;
    const unsigned len = d.len;
    const uint32_t fall_through = pc + len;
    next_pc_ = fall_through;
    cycle_ = cycle + d.cost;
    pending_ |= d.pend_mask;
    // Observers get a copy: fence.i and self-modifying stores clear the decode-cache slot d refers to.
    [[maybe_unused]] std::conditional_t<kObserved, DecodedInsn, char> seen{};
    if constexpr (kObserved) seen = d;
    d.exec(*this, d);
    ready_[d.dst] = (issue_ << 2) + d.ready_code;
    x_[0] = 0;
    const uint32_t next = next_pc_;
    pc_ = next;
    ++stats_.by_class_and_size[d.stat_index];
    // Slots are per parcel, so the next instruction in line is len / 2 slots on (an empty slot past the end
    // of the cached range, or of the scratch slot).
    static_assert(sizeof(DecodedInsn) % 2 == 0);
    dp = next == fall_through ? reinterpret_cast<const DecodedInsn*>(reinterpret_cast<const char*>(dp) +
                                                                     len * (sizeof(DecodedInsn) / 2))
                              : slot_at(next);
    if (hwloop_armed_) [[unlikely]]
        if (next == hwloop_watch_[0] || next == hwloop_watch_[1]) {
            hwloop_wrap();
            dp = slot_at(pc_);
        }
    if constexpr (kObserved)
        for (RetireObserver* observer : observers_)
            observer->retired(*this, pc, seen);
    return dp;
}

template <bool kFetchModel, bool kObserved> [[gnu::always_inline]] inline void Hart::run_loop() {
    const DecodedInsn* d = slot_at(pc_);
    while (cycle_ < limit_)
        d = execute_one<kFetchModel, kObserved>(d);
}

[[gnu::always_inline]] inline void Hart::run_lockstep(uint64_t cycle_limit) {
    if (!observers_.empty()) [[unlikely]] {
        run(cycle_limit);
        return;
    }
    limit_ = cycle_limit;
    while (cycle_ < limit_) {
        try {
            if (ifetch_)
                run_loop<true, false>();
            else
                run_loop<false, false>();
        } catch (const TrapSignal& t) {
            take_trap(t);
        }
    }
}

} // namespace pulpsim
