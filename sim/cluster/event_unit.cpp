#include "cluster/event_unit.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace pulpsim {

EventUnit::EventUnit(std::vector<Hart*> harts, unsigned workers, const EventUnitTiming& timing,
                     uint32_t tcdm_size)
    : harts_(std::move(harts)), workers_(workers), tcdm_size_(tcdm_size), timing_(timing),
      cores_(harts_.size()), team_mask_(workers >= 32 ? ~0u : (1u << workers) - 1) {}

void EventUnit::sleep(unsigned core) {
    CoreState& c = cores_[core];
    c.waiting = true;
    c.asleep_since = now(core);
    harts_[core]->sleep_until_woken();
}

void EventUnit::sleep_until(unsigned core, uint64_t cycle) {
    CoreState& c = cores_[core];
    c.waiting = false;
    c.asleep_since = now(core);
    c.wake_at = cycle;
    next_wake_ = std::min(next_wake_, c.wake_at);
    harts_[core]->sleep_until_woken();
}

void EventUnit::schedule_wake(unsigned core, uint64_t event_cycle, unsigned waker) {
    CoreState& c = cores_[core];
    if (!c.waiting) return;
    harts_[waker]->end_quantum(); // the engine must interleave the woken core from now on
    c.waiting = false;
    c.wake_at = std::max(event_cycle, c.asleep_since + timing_.sleep_latency) + timing_.wake_latency;
    next_wake_ = std::min(next_wake_, c.wake_at);
}

void EventUnit::deliver_wakes(uint64_t cycle) {
    if (cycle < next_wake_) return;
    uint64_t next = UINT64_MAX;
    for (size_t i = 0; i < cores_.size(); ++i) {
        CoreState& c = cores_[i];
        if (c.wake_at <= cycle) {
            harts_[i]->wake(c.wake_at);
            c.wake_at = UINT64_MAX;
        } else {
            next = std::min(next, c.wake_at);
        }
    }
    next_wake_ = next;
}

uint32_t EventUnit::read(uint32_t offset, unsigned, unsigned core) {
    CoreState& c = cores_.at(core);
    switch (offset) {
    case kCoreId: return core;
    case kNumCores: return workers_;
    case kTcdmSize: return tcdm_size_;
    case kDispatchWait:
        if (!c.dispatch_pending) sleep(core);
        c.dispatch_pending = false;
        return c.fn;
    case kDispatchGetArg: return c.arg;
    case kBarrierWait: {
        if (c.barrier_passed) {
            c.barrier_passed = false;
            return 0;
        }
        const uint32_t bit = 1u << core;
        if (!(team_mask_ & bit))
            harts_[core]->fail(fmt::format(
                "core {} waits at a barrier of a team it is not in (team mask {:#x})", core, team_mask_));
        barrier_arrived_ |= bit;
        barrier_last_arrival_ = std::max(barrier_last_arrival_, now(core));
        if ((barrier_arrived_ & team_mask_) != team_mask_) sleep(core);
        // The barrier completes when its last member (in time) arrives; that member goes on, the others
        // wake up after the wake latency.
        ++counters_.barriers;
        const uint64_t release = barrier_last_arrival_;
        if (observer_) observer_->barrier_released(release, team_mask_);
        for (unsigned i = 0; i < cores_.size(); ++i)
            if ((barrier_arrived_ & (1u << i)) && i != core) {
                cores_[i].barrier_passed = true;
                schedule_wake(i, release, core);
            }
        barrier_arrived_ = 0;
        barrier_last_arrival_ = 0;
        if (now(core) < release) {
            c.barrier_passed = true;
            sleep_until(core, release + timing_.wake_latency);
        }
        return 0;
    }
    case kMutexLock:
        if (c.mutex_granted) {
            c.mutex_granted = false;
            return 0;
        }
        if (mutex_owner_ < 0) {
            mutex_owner_ = static_cast<int>(core);
            return 0;
        }
        ++counters_.mutex_waits;
        mutex_waiters_.push_back(core);
        sleep(core);
    default: throw NoRegister{};
    }
}

void EventUnit::write(uint32_t offset, unsigned, uint32_t value, unsigned core) {
    switch (offset) {
    case kTeamMask:
        if (value == 0) harts_[core]->fail("team mask 0: a team needs at least one core");
        if (value >> cores_.size())
            harts_[core]->fail(fmt::format("team mask {:#x} names cores the cluster does not have", value));
        team_mask_ = value;
        return;
    case kDispatchArg: pending_arg_ = value; return;
    case kDispatchFn:
        ++counters_.dispatches;
        if (observer_) observer_->dispatched(core, now(core), team_mask_);
        for (unsigned i = 0; i < cores_.size(); ++i) {
            if (i == core || !(team_mask_ & (1u << i))) continue;
            CoreState& c = cores_[i];
            c.dispatch_pending = true;
            c.fn = value;
            c.arg = pending_arg_;
            schedule_wake(i, now(core), core);
        }
        return;
    case kMutexUnlock:
        if (mutex_owner_ != static_cast<int>(core))
            harts_[core]->fail(fmt::format("core {} releases a mutex it does not hold", core));
        mutex_owner_ = -1;
        if (!mutex_waiters_.empty()) {
            const unsigned next = mutex_waiters_.front();
            mutex_waiters_.pop_front();
            mutex_owner_ = static_cast<int>(next);
            cores_[next].mutex_granted = true;
            schedule_wake(next, now(core), core);
        }
        return;
    default: throw NoRegister{};
    }
}

} // namespace pulpsim
