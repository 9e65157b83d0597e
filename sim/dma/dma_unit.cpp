#include "dma/dma_unit.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>
#include <string_view>
#include <tuple>

namespace pulpsim {

DmaUnit::DmaUnit(DmaEngine& dma, std::vector<Hart*> harts, const DmaUnitTiming& timing)
    : dma_(dma), harts_(std::move(harts)), timing_(timing), cores_(harts_.size()) {}

void DmaUnit::advance_busy(uint64_t until) {
    dma_.advance(until);
    // Waiting cores look their transfers up by id; the completions only say when to look.
    if (dma_.completions_due(until)) {
        dma_.take_completions(until);
        schedule_wakes();
    }
}

uint64_t DmaUnit::wait_completion(const CoreState& c, unsigned core) const {
    switch (c.waiting) {
    case Waiting::Transfer: return dma_.completion_cycle(c.wait_id);
    case Waiting::AllOfCore: {
        uint64_t done = 0;
        for (uint32_t id : c.last_id)
            if (id != kNoTransfer) done = std::max(done, dma_.completion_cycle(id));
        return done;
    }
    case Waiting::QueueSlot: return dma_.queue_slot_free(core);
    case Waiting::Nothing: break;
    }
    return 0;
}

void DmaUnit::schedule_wakes() {
    for (unsigned i = 0; i < cores_.size(); ++i) {
        CoreState& c = cores_[i];
        if (c.waiting == Waiting::Nothing || c.wake_at != UINT64_MAX) continue;
        const uint64_t done = wait_completion(c, i);
        if (done == DmaEngine::kNever) continue;
        c.wake_at = c.waiting == Waiting::QueueSlot
                        ? std::max(done, c.asleep_since)
                        : std::max(done, c.asleep_since + timing_.sleep_latency) + timing_.wake_latency;
        next_wake_ = std::min(next_wake_, c.wake_at);
    }
}

void DmaUnit::deliver_wakes(uint64_t cycle) {
    if (cycle < next_wake_) return;
    uint64_t next = UINT64_MAX;
    for (unsigned i = 0; i < cores_.size(); ++i) {
        CoreState& c = cores_[i];
        if (c.wake_at <= cycle) {
            harts_[i]->wake(c.wake_at);
            c.waiting = Waiting::Nothing;
            c.wake_at = UINT64_MAX;
        } else {
            next = std::min(next, c.wake_at);
        }
    }
    next_wake_ = next;
}

void DmaUnit::sleep(unsigned core, Waiting what) {
    CoreState& c = cores_[core];
    c.waiting = what;
    c.asleep_since = now(core);
    c.wake_at = UINT64_MAX;
    schedule_wakes();
    if (what == Waiting::QueueSlot) harts_[core]->stall_until_woken_on_full_dma_queue();
    harts_[core]->sleep_until_woken(StallKind::DmaWait);
}

template <typename Reject> void DmaUnit::check_guards(const DmaTransfer& t, Reject&& reject) const {
    const uint64_t l2_step = t.l2_stride ? t.l2_stride : t.bytes;
    const uint64_t tcdm_step = t.tcdm_stride ? t.tcdm_stride : t.bytes;
    for (uint32_t r = 0; r < t.rows; ++r) {
        for (const auto& [side, base, step] :
             {std::tuple{"L2", t.l2_addr, l2_step}, {"TCDM", t.tcdm_addr, tcdm_step}}) {
            const uint64_t addr = base + r * step;
            if (addr > UINT32_MAX) return; // outside memory: the engine rejects it
            if (const auto* zone = guards_->hit(static_cast<uint32_t>(addr), t.bytes))
                reject(
                    fmt::format("row {} ({} [{:#010x}, +{})) touches the guard zone {} [{:#010x}, {:#010x}): "
                                "the program moves memory outside its tensors",
                                r, side, addr, t.bytes, zone->what, zone->lo, zone->hi));
        }
    }
}

uint32_t DmaUnit::push(unsigned core, DmaDirection direction) {
    CoreState& c = cores_[core];
    Hart& hart = *harts_[core];
    const char* what = direction == DmaDirection::in ? "L2->L1" : "L1->L2";
    auto reject = [&](const std::string& why) {
        hart.fail(fmt::format("DMA {} transfer issued at pc {:#010x}: {}", what, hart.pc_, why));
    };
    const DmaTransfer& s = c.staged;
    if (static_cast<int32_t>(s.bytes) <= 0)
        reject(fmt::format("LENGTH {} is not a positive byte count", static_cast<int32_t>(s.bytes)));
    if (static_cast<int32_t>(s.rows) <= 0)
        reject(fmt::format("ROWS {} is not a positive row count", static_cast<int32_t>(s.rows)));
    if (static_cast<int32_t>(s.l2_stride) < 0)
        reject(fmt::format("L2_STRIDE {} is negative", static_cast<int32_t>(s.l2_stride)));
    if (static_cast<int32_t>(s.tcdm_stride) < 0)
        reject(fmt::format("L1_STRIDE {} is negative", static_cast<int32_t>(s.tcdm_stride)));
    DmaTransfer t = s;
    t.direction = direction;
    if (guards_ && guards_->armed()) check_guards(t, reject);
    std::optional<uint32_t> id;
    try {
        id = dma_.enqueue(core, t, now(core));
    } catch (const std::invalid_argument& e) {
        std::string_view why = e.what();
        if (why.starts_with("DMA ")) why.remove_prefix(4);
        reject(std::string(why));
    }
    if (!id) sleep(core, Waiting::QueueSlot); // replays the push once a slot frees
    c.last_id[static_cast<unsigned>(direction)] = *id;
    c.staged.rows = 1;
    c.staged.l2_stride = 0;
    c.staged.tcdm_stride = 0;
    hart.end_quantum(); // the engine must advance the DMA alongside the cores from now on
    return *id;
}

uint32_t DmaUnit::read(uint32_t offset, unsigned, unsigned core) {
    CoreState& c = cores_.at(core);
    Hart& hart = *harts_[core];
    const uint64_t t = now(core);
    switch (offset) {
    case kPushIn: advance(t); return push(core, DmaDirection::in);
    case kPushOut: advance(t); return push(core, DmaDirection::out);
    case kWait:
    case kStatus:
        if (c.wait_id >= dma_.issued())
            hart.fail(fmt::format("DMA wait for transfer {} at pc {:#010x}: no such transfer was issued "
                                  "(WAIT_ID holds an id returned by PUSH_IN / PUSH_OUT)",
                                  c.wait_id, hart.pc_));
        advance(t);
        if (dma_.completion_cycle(c.wait_id) <= t) return offset == kStatus ? 1 : 0;
        if (offset == kStatus) return 0;
        sleep(core, Waiting::Transfer);
    case kWaitAll: {
        advance(t);
        c.waiting = Waiting::AllOfCore;
        const uint64_t done = wait_completion(c, core);
        c.waiting = Waiting::Nothing;
        if (done <= t) return 0;
        sleep(core, Waiting::AllOfCore);
    }
    default: throw NoRegister{};
    }
}

void DmaUnit::write(uint32_t offset, unsigned, uint32_t value, unsigned core) {
    CoreState& c = cores_.at(core);
    switch (offset) {
    case kL1Addr: c.staged.tcdm_addr = value; return;
    case kL2Addr: c.staged.l2_addr = value; return;
    case kLength: c.staged.bytes = value; return;
    case kRows: c.staged.rows = value; return;
    case kL2Stride: c.staged.l2_stride = value; return;
    case kL1Stride: c.staged.tcdm_stride = value; return;
    case kWaitId: c.wait_id = value; return;
    default: throw NoRegister{};
    }
}

} // namespace pulpsim
