// The cluster event unit: team dispatch (fork), barriers, a hardware mutex and the sleep/wake timing of
// cores that wait in cv.elw.
//
// Models, as memory-mapped registers at the cluster peripheral base (0x1020_0000 on PULP):
//   0x000 CORE_ID          read: the requesting core's id
//   0x004 NUM_CORES        read: worker cores in the cluster
//   0x008 TCDM_SIZE        read: bytes of TCDM (tcdm.size), so programs can size their tiles to the L1
//   0x100 TEAM_MASK        write: the cores taking part in the next dispatch and in barriers
//   0x104 DISPATCH_ARG     write: the argument handed to every team member
//   0x108 DISPATCH_FN      write: the function; writing it releases the team (every member but the writer)
//   0x10C DISPATCH_WAIT    cv.elw: sleeps until a dispatch arrives for this core; returns the function
//   0x110 DISPATCH_GET_ARG read: the argument of the last dispatch this core took
//   0x200 BARRIER_WAIT     cv.elw: arrive at the team barrier; sleeps until every member has arrived
//   0x300 MUTEX_LOCK       cv.elw: takes the mutex, sleeping while another core holds it
//   0x304 MUTEX_UNLOCK     write: releases the mutex to the next waiter (first come, first served)
// A core that must wait is put to sleep; the instruction replays when the core wakes, which happens
// max(event, fall-asleep + sleep latency) + wake latency.
// Any other access (an offset between registers, a read of a write-only register, a write to a read-only one)
// ends the run with an error naming the address and the pc (NoRegister).
//
// Ignores: interrupts, per-core event masks and software events beyond these registers, the clock gating
// of sleeping cores' other units.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "core/hart.hpp"
#include "memory/address_map.hpp"

namespace pulpsim {

struct EventUnitTiming {
    unsigned sleep_latency = 6;
    unsigned wake_latency = 2;
};

struct EventUnitCounters {
    uint64_t dispatches = 0;
    uint64_t barriers = 0; // completed barrier rounds
    uint64_t mutex_waits = 0;
};

// Told of team dispatches and barrier releases (the activity views); nothing is called while none is
// attached.
class EventUnitObserver {
  public:
    virtual ~EventUnitObserver() = default;
    // `core` released the team `team_mask` on a function in `cycle`.
    virtual void dispatched(unsigned core, uint64_t cycle, uint32_t team_mask) = 0;
    // The last member of `team_mask` reached the barrier in `cycle`, which releases the others.
    virtual void barrier_released(uint64_t cycle, uint32_t team_mask) = 0;
};

class EventUnit : public MmioDevice {
  public:
    static constexpr uint32_t kCoreId = 0x000, kNumCores = 0x004, kTcdmSize = 0x008;
    static constexpr uint32_t kTeamMask = 0x100, kDispatchArg = 0x104, kDispatchFn = 0x108;
    static constexpr uint32_t kDispatchWait = 0x10C, kDispatchGetArg = 0x110;
    static constexpr uint32_t kBarrierWait = 0x200;
    static constexpr uint32_t kMutexLock = 0x300, kMutexUnlock = 0x304;
    static constexpr uint32_t kWindowSize = 0x1000;

    // `harts` are the cluster's cores, indexed by hart id; `workers` of them are worker cores.
    EventUnit(std::vector<Hart*> harts, unsigned workers, const EventUnitTiming& timing,
              uint32_t tcdm_size = 0);

    uint32_t read(uint32_t offset, unsigned size, unsigned initiator) override;
    void write(uint32_t offset, unsigned size, uint32_t value, unsigned initiator) override;

    // The earliest pending wake-up, or UINT64_MAX.
    uint64_t next_wake() const { return next_wake_; }
    // Wakes every core whose wake-up is due at or before `cycle`.
    void deliver_wakes(uint64_t cycle);
    const EventUnitCounters& counters() const { return counters_; }
    // Tells `observer` of the dispatches and barriers from now on (nullptr: nobody).
    void set_observer(EventUnitObserver* observer) { observer_ = observer; }

  private:
    struct CoreState {
        bool dispatch_pending = false; // a dispatch is waiting to be taken
        uint32_t fn = 0, arg = 0;
        bool barrier_passed = false; // woken from the barrier: the replayed cv.elw goes through
        bool mutex_granted = false;  // woken holding the mutex
        bool waiting = false;
        uint64_t asleep_since = 0;
        uint64_t wake_at = UINT64_MAX;
    };
    [[noreturn]] void sleep(unsigned core);
    // Puts `core` to sleep until `cycle` (it reached an event that completes later in simulated time).
    [[noreturn]] void sleep_until(unsigned core, uint64_t cycle);
    void schedule_wake(unsigned core, uint64_t event_cycle, unsigned waker);
    uint64_t now(unsigned core) const { return harts_[core]->issue_; }

    std::vector<Hart*> harts_;
    unsigned workers_;
    uint32_t tcdm_size_;
    EventUnitTiming timing_;
    std::vector<CoreState> cores_;
    uint32_t team_mask_;
    uint32_t pending_arg_ = 0;
    uint32_t barrier_arrived_ = 0;
    uint64_t barrier_last_arrival_ = 0; // cores may arrive out of time order (engine lookahead)
    int mutex_owner_ = -1;
    std::deque<unsigned> mutex_waiters_;
    uint64_t next_wake_ = UINT64_MAX;
    EventUnitCounters counters_;
    EventUnitObserver* observer_ = nullptr;
};

} // namespace pulpsim
