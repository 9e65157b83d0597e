// The logarithmic interconnect in front of the cluster's word-interleaved, multi-banked TCDM (L1).
//
// Models:
// - Word interleaving: the word at `addr` lives in bank (addr - base) / 4 % banks.
// - One access per bank per cycle. A request for cycle c is granted in c if the bank is free then;
//   otherwise it retries in c+1, c+2, ... and takes the first free cycle. A grant in cycle g occupies the
//   bank in g only. Every cycle of waiting counts as one conflict cycle on the bank and one contention cycle
//   on the requesting port.
// - Round-robin arbitration through presentation order: requests for the same bank and cycle are granted
//   in the order `request` is called. The clock engine visits initiators in an order that rotates every
//   cycle, which is what makes the arbitration fair among requests of one cycle.
//
// Ignores:
// - The interconnect's own pipeline latency beyond the single-cycle bank access (the core's load timing
//   already holds it), and conflicts on the response path.
// - Access width and data: a request is one word-sized (or narrower) access to one bank; an access that
//   crosses a word boundary is issued by the caller as two requests. Data moves through the `Ram`.
// - Atomic and test-and-set semantics (they belong to the memory and the runtime's peripherals).
// - The RTL's arbiter itself. PULP's logarithmic interconnect (cluster_interconnect, XBAR_TCDM) gives each
//   bank a binary tree of two-input arbiters, each level's priority one bit of a counter that advances
//   with every grant of that bank, and a request that lost competes again with the next cycle's new ones.
//   Here one cluster-wide order decides each cycle for every bank, and a request that lost keeps the first
//   free cycle after. Both keep a bank busy while anyone waits for it, so the same requests wait the same
//   number of cycles in all; which core waits them may differ, and with it when its next requests come.
//
// Reservations are kept per bank as a bitmap of cycles from a start up to the latest grant, one 64-bit word
// for the usual window of 64 cycles. Requests arrive out of time order by up to the engine's lookahead plus
// the stalls of one instruction (an L2 access, an instruction-cache refill, a division), so the bitmap only
// drops cycles before the floor the engine sets (`set_floor`: no request will ask for an earlier cycle) and
// grows instead, by whole words, when a grant lies further ahead of the floor than it holds. A request
// below the oldest cycle kept throws std::logic_error: the engine broke its promise.
#pragma once

#include <bit>
#include <cassert>
#include <cstdint>
#include <memory>
#include <vector>

namespace pulpsim {

struct TcdmConfig {
    uint32_t base = 0x1000'0000; // PULP cluster L1 base address
    uint32_t size = 64 * 1024;   // bytes; a multiple of banks * 4
    unsigned banks = 16;         // a power of two
    unsigned ports = 12;         // initiators: 8 cores + 4 DMA ports (pulp-open)
    unsigned first_dma_port = 8; // ports from here on belong to the DMA (for attributing conflicts)
};

struct TcdmBankCounters {
    uint64_t accesses = 0;
    uint64_t writes = 0;
    uint64_t conflict_cycles = 0; // cycles requests to this bank waited for it
};

struct TcdmPortCounters {
    uint64_t accesses = 0;
    uint64_t writes = 0;
    uint64_t contention_cycles = 0; // cycles this initiator waited for a bank
    uint64_t waited_on_dma = 0;     // of those, cycles in which the DMA held the bank
};

// Told of every request that had to wait for its bank (the activity views); nothing is called while none is
// attached, and the interconnect's behaviour does not depend on it.
class BankConflictObserver {
  public:
    virtual ~BankConflictObserver() = default;
    // `port`'s request to `bank`, wanted in `wanted`, was granted in `granted` (> wanted).
    virtual void bank_waited(unsigned bank, unsigned port, uint64_t wanted, uint64_t granted) = 0;
};

struct TcdmCounters {
    std::vector<TcdmBankCounters> banks;
    std::vector<TcdmPortCounters> ports;

    uint64_t accesses() const;
    uint64_t writes() const;
    // Equal to the sum of the ports' contention cycles.
    uint64_t conflict_cycles() const;
};

class TcdmInterconnect {
  public:
    // Throws std::invalid_argument for a configuration that cannot describe a word-interleaved TCDM.
    explicit TcdmInterconnect(const TcdmConfig& config);

    const TcdmConfig& config() const { return config_; }
    unsigned bank_of(uint32_t addr) const { return ((addr - config_.base) >> 2) & bank_mask_; }
    // Whether [addr, addr + size) lies inside the TCDM.
    bool contains(uint32_t addr, uint32_t size) const {
        return addr >= config_.base && uint64_t{addr} + size <= uint64_t{config_.base} + config_.size;
    }

    // Arbitrates one access of `port` to the bank holding `addr`, wanted in `cycle`, and returns the cycle
    // in which it is granted (>= cycle). `addr` must be inside the TCDM and `port` < config().ports.
    // kTellConflicts = false leaves out the conflict observer: the cores' path while no view watches.
    template <bool kTellConflicts = true>
    [[nodiscard]] uint64_t request(unsigned port, uint32_t addr, uint64_t cycle, bool is_write) {
        if (request_at_once(port, addr, cycle, is_write)) [[likely]]
            return cycle;
        const unsigned bank = bank_of(addr);
        count(port, bank, is_write);
        return request_within_window<kTellConflicts>(port, bank, cycle);
    }
    // request()'s usual case alone: a request past the cycles its bank keeps is granted in its own cycle when
    // the bank's window may slide to it (true). Otherwise false, and nothing changed.
    [[nodiscard]] bool request_at_once(unsigned port, uint32_t addr, uint64_t cycle, bool is_write) {
        assert(port < config_.ports && contains(addr, 1));
        const unsigned bank = bank_of(addr);
        if (!reservations_[bank].take_past_window(cycle, port >= config_.first_dma_port, floor_))
            return false;
        count(port, bank, is_write);
        return true;
    }

    // From here on no request asks for a cycle before `cycle`, except one requester whose requests come in
    // time order (the engine's lone core): reservations before min(`cycle`, the request's cycle) may be
    // dropped.
    void set_floor(uint64_t cycle) { floor_ = cycle; }
    // Tells `observer` of every request that waits from now on (nullptr: nobody).
    void set_conflict_observer(BankConflictObserver* observer) { conflict_observer_ = observer; }

    const TcdmCounters& counters() const { return counters_; }
    // Zeroes the counters (e.g. at the start of a measured region); reservations stay.
    void reset_counters();
    // Forgets every reservation and zeroes the counters (a new run starting at cycle 0).
    void reset();

  private:
    // The cycles [start, start + 64 x words) of one bank: bit i of word w set = taken in cycle
    // start + 64 w + i (in `by_dma` too when a DMA port took it). Nothing at or after the end is taken. Word
    // 0 is kept inline; `more` holds the words after it, in pairs (taken, by_dma), and is empty in the usual
    // case.
    struct BankReservations {
        uint64_t start = 0;
        uint64_t taken = 0;
        uint64_t by_dma = 0;
        std::unique_ptr<std::vector<uint64_t>> more; // null in the usual case: the struct stays small

        // The usual case, requests in time order: `cycle` lies past every cycle kept, so it is free and
        // becomes the newest kept. False (nothing changed) when it does not, or when sliding the window that
        // far would drop a cycle a later request may still ask for.
        bool take_past_window(uint64_t cycle, bool dma, uint64_t floor) {
            if (cycle < start + 64 || more || !slide_to(cycle, cycle, floor)) return false;
            taken |= uint64_t{1} << 63;
            by_dma |= uint64_t{dma} << 63;
            return true;
        }
        // Slides the window so that `newest` (past it) is its last cycle, unless that drops a cycle before
        // min(floor, `cycle`), which a later request may still ask for: then false, nothing changed.
        bool slide_to(uint64_t newest, uint64_t cycle, uint64_t floor) {
            const uint64_t shift = newest - start - 63;
            if (start + shift > (floor < cycle ? floor : cycle)) return false;
            taken = shift >= 64 ? 0 : taken >> shift;
            by_dma = shift >= 64 ? 0 : by_dma >> shift;
            start += shift;
            return true;
        }
        uint64_t reserve_first_free(uint64_t cycle, unsigned bank, bool dma, uint64_t floor,
                                    uint64_t& waited_on_dma) {
            if (cycle < start) [[unlikely]]
                request_too_old(bank, cycle, start);
            if (more) [[unlikely]]
                return reserve_wide(cycle, dma, floor, waited_on_dma);
            const uint64_t offset = cycle - start;
            uint64_t granted = cycle;
            if (offset < 64) {
                const uint64_t free_from_cycle = ~taken & (~uint64_t{0} << offset);
                granted = start + (free_from_cycle ? std::countr_zero(free_from_cycle) : 64);
                if (granted != cycle && by_dma) [[unlikely]] {
                    const uint64_t end = granted - start; // the waited cycles are [offset, end), all taken
                    const uint64_t below_end = end >= 64 ? ~uint64_t{0} : (uint64_t{1} << end) - 1;
                    waited_on_dma = std::popcount(by_dma & below_end & (~uint64_t{0} << offset));
                }
            }
            uint64_t slot = granted - start;
            if (slot >= 64) {
                // The new grant becomes the newest cycle kept, unless that drops one a later request may
                // still ask for: then widen.
                if (!slide_to(granted, cycle, floor)) [[unlikely]]
                    return reserve_wide(cycle, dma, floor, waited_on_dma);
                slot = 63;
            }
            taken |= uint64_t{1} << slot;
            by_dma |= uint64_t{dma} << slot;
            return granted;
        }
        // The same over several words (tcdm_interconnect.cpp).
        uint64_t reserve_wide(uint64_t cycle, bool dma, uint64_t floor, uint64_t& waited_on_dma);
    };
    [[noreturn]] static void request_too_old(unsigned bank, uint64_t cycle, uint64_t oldest_kept);
    void count(unsigned port, unsigned bank, bool is_write) {
        TcdmBankCounters& b = counters_.banks[bank];
        TcdmPortCounters& p = counters_.ports[port];
        ++b.accesses;
        ++p.accesses;
        b.writes += is_write;
        p.writes += is_write;
    }
    // request() for a cycle the bank's window still holds (or one that widens it), counted; out of line, so
    // that the usual case needs few registers.
    template <bool kTellConflicts>
    [[gnu::noinline]] uint64_t request_within_window(unsigned port, unsigned bank, uint64_t cycle) {
        uint64_t waited_on_dma = 0;
        const uint64_t granted = reservations_[bank].reserve_first_free(
            cycle, bank, port >= config_.first_dma_port, floor_, waited_on_dma);
        const uint64_t waited = granted - cycle;
        counters_.banks[bank].conflict_cycles += waited;
        TcdmPortCounters& p = counters_.ports[port];
        p.contention_cycles += waited;
        p.waited_on_dma += waited_on_dma;
        if constexpr (kTellConflicts)
            if (waited != 0 && conflict_observer_ != nullptr) [[unlikely]]
                tell_conflict(bank, port, cycle, granted);
        return granted;
    }
    // Out of line, so that the request's hot path keeps its registers.
    [[gnu::cold, gnu::noinline]] void tell_conflict(unsigned bank, unsigned port, uint64_t wanted,
                                                    uint64_t granted) const {
        conflict_observer_->bank_waited(bank, port, wanted, granted);
    }

    TcdmConfig config_;
    unsigned bank_mask_;
    std::vector<BankReservations> reservations_;
    uint64_t floor_ = 0;
    TcdmCounters counters_;
    BankConflictObserver* conflict_observer_ = nullptr;
};

} // namespace pulpsim
