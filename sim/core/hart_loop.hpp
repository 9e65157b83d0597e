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
template <bool kFetchModel, bool kObserved> [[gnu::always_inline]] inline void Hart::execute_one() {
    [[maybe_unused]] const uint32_t pc = pc_;
    if (kFetchModel && (pc_ & fetch_line_mask_) != current_line_) [[unlikely]]
        fetch_new_line();
    const uint32_t off = pc_ - code_lo_;
    const DecodedInsn* dp;
    if (off < code_span_) [[likely]] {
        DecodedInsn& slot = decode_cache_[off >> 1];
        if (!slot.exec) [[unlikely]]
            decode_at(slot, pc_);
        dp = &slot;
    } else {
        dp = &fetch_slow();
    }
    const DecodedInsn& d = *dp;
    const uint64_t need = std::max({ready_[d.src[0]], ready_[d.src[1]], ready_[d.src[2]]});
    if (ready_cycle(need) > cycle_) [[unlikely]]
        stall_on_operands(need);
    issue_ = cycle_;
    next_pc_ = pc_ + d.len;
    cycle_ += d.cost;
    // Observers get a copy: fence.i and self-modifying stores clear the decode-cache slot d refers to.
    [[maybe_unused]] std::conditional_t<kObserved, DecodedInsn, char> seen{};
    if constexpr (kObserved) seen = d;
    d.exec(*this, d);
    ready_[d.dst] = (issue_ << 2) + d.ready_code;
    x_[0] = 0;
    pc_ = next_pc_;
    ++stats_.by_class_and_size[d.stat_index];
    if (hwloop_armed_) [[unlikely]]
        if (pc_ == hwloop_watch_[0] || pc_ == hwloop_watch_[1]) hwloop_wrap();
    if constexpr (kObserved)
        for (RetireObserver* observer : observers_)
            observer->retired(*this, pc, seen);
}

template <bool kFetchModel, bool kObserved> [[gnu::always_inline]] inline void Hart::run_loop() {
    while (cycle_ < limit_)
        execute_one<kFetchModel, kObserved>();
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
