// The DMA's programming interface: the memory-mapped registers cores write to queue transfers and read to
// wait for them, and the sleeping of cores that wait.
//
// Registers (cluster peripherals + 0x1800 on PULP); every core sees its own set, selected by the initiator:
//   0x00 L1_ADDR     write: TCDM address of the next transfer
//   0x04 L2_ADDR     write: L2 address
//   0x08 LENGTH      write: bytes per row
//   0x0C ROWS        write: rows of a 2-D transfer (1 after every push)
//   0x10 L2_STRIDE   write: bytes between row starts in L2; 0 = rows packed (0 after every push)
//   0x14 L1_STRIDE   write: same in the TCDM
//   0x18 PUSH_IN     read: queues an L2 -> TCDM transfer and returns its id; stalls while the core's
//                    queue is full
//   0x1C PUSH_OUT    read: same, TCDM -> L2
//   0x20 WAIT_ID     write: the transfer WAIT and STATUS refer to
//   0x24 WAIT        read (cv.elw): sleeps until that transfer has completed
//   0x28 STATUS      read: 1 when that transfer has completed, else 0
//   0x2C WAIT_ALL    read (cv.elw): sleeps until every transfer of this core has completed
// Any other access ends the run with an error naming the address and the pc (NoRegister).
// A core waiting in WAIT / WAIT_ALL sleeps and wakes like one waiting in the event unit: at
// max(completion, fall-asleep + sleep latency) + wake latency. A core stalled on a full queue is not
// clock-gated: it issues again in the cycle its oldest transfer completes. Both count as DMA-wait stalls;
// only the first is a cv.elw, for the PIPE_STALL event of the core's counters.
//
// A register access advances the DMA to the core's cycle first, so what the core sees is exact in time;
// the DMA then wins the bank conflicts of those cycles against cores that the engine runs later in the
// same step.
//
// Ignores: interrupts on completion, the hardware's separate command interface for the cluster
// controller (every core here, controller included, has its own register set and queue), and transfer
// ids wrapping around.
#pragma once

#include <cstdint>
#include <vector>

#include "core/hart.hpp"
#include "dma/dma_engine.hpp"
#include "memory/address_map.hpp"
#include "memory/memory_guards.hpp"

namespace pulpsim {

struct DmaUnitTiming {
    unsigned sleep_latency = 6; // as the event unit's
    unsigned wake_latency = 2;
};

class DmaUnit : public MmioDevice {
  public:
    static constexpr uint32_t kL1Addr = 0x00, kL2Addr = 0x04, kLength = 0x08, kRows = 0x0C;
    static constexpr uint32_t kL2Stride = 0x10, kL1Stride = 0x14, kPushIn = 0x18, kPushOut = 0x1C;
    static constexpr uint32_t kWaitId = 0x20, kWait = 0x24, kStatus = 0x28, kWaitAll = 0x2C;
    static constexpr uint32_t kWindowSize = 0x400;

    // `harts` are the cluster's cores, indexed by initiator (core index).
    DmaUnit(DmaEngine& dma, std::vector<Hart*> harts, const DmaUnitTiming& timing);

    uint32_t read(uint32_t offset, unsigned size, unsigned initiator) override;
    void write(uint32_t offset, unsigned size, uint32_t value, unsigned initiator) override;

    // Whether the DMA has work the engine must advance it through.
    bool busy() const { return !dma_.idle(); }
    // Whether the DMA moves bytes in some cycle before `until`.
    bool moves_before(uint64_t until) const { return dma_.next_move() < until; }
    // Advances the DMA through every cycle before `until` and schedules the wake-ups of cores whose wait
    // is over.
    void advance(uint64_t until) {
        if (dma_.idle()) // the engine asks every cycle
            dma_.advance_idle(until);
        else
            advance_busy(until);
    }
    uint64_t next_wake() const { return next_wake_; }
    void deliver_wakes(uint64_t cycle);
    const DmaEngine& engine() const { return dma_; }
    // A transfer touching a zone of `guards` (on either side) is refused with an error naming it.
    void set_memory_guards(const MemoryGuards* guards) { guards_ = guards; }

  private:
    // Rejects the transfer through `reject` if a row touches a guard zone.
    template <typename Reject> void check_guards(const DmaTransfer& t, Reject&& reject) const;
    enum class Waiting { Nothing, Transfer, AllOfCore, QueueSlot };
    struct CoreState {
        DmaTransfer staged;
        uint32_t wait_id = 0;
        uint32_t last_id[2] = {kNoTransfer, kNoTransfer}; // per direction
        Waiting waiting = Waiting::Nothing;
        uint64_t asleep_since = 0;
        uint64_t wake_at = UINT64_MAX;
    };
    static constexpr uint32_t kNoTransfer = UINT32_MAX;

    void advance_busy(uint64_t until);
    uint32_t push(unsigned core, DmaDirection direction);
    // Whether what `core` waits for has completed by `cycle`; the completion cycle when known.
    uint64_t wait_completion(const CoreState& c, unsigned core) const;
    [[noreturn]] void sleep(unsigned core, Waiting what);
    void schedule_wakes();
    uint64_t now(unsigned core) const { return harts_[core]->issue_; }

    DmaEngine& dma_;
    std::vector<Hart*> harts_;
    DmaUnitTiming timing_;
    std::vector<CoreState> cores_;
    uint64_t next_wake_ = UINT64_MAX;
    const MemoryGuards* guards_ = nullptr;
};

} // namespace pulpsim
