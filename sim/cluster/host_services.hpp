// The host side of a program's ecall host calls, tohost word, console and exit registers.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/hart.hpp"
#include "dma/dma_engine.hpp"
#include "memory/memory_guards.hpp"

namespace pulpsim {

// Host-call numbers (a7). 64 and 93 are the Linux ones, so the same programs run under qemu-user.
namespace hostcall {
inline constexpr uint32_t kWrite = 64;
inline constexpr uint32_t kExit = 93;
inline constexpr uint32_t kRegionBegin = 0x7000; // a0 = name (NUL-terminated), a1 = MAC count
inline constexpr uint32_t kRegionEnd = 0x7001;
inline constexpr uint32_t kGuardSet = 0x7002;   // a0 = address, a1 = bytes, a2 = name (NUL-terminated)
inline constexpr uint32_t kGuardClear = 0x7003; // a0 = address, a1 = bytes
} // namespace hostcall

// A snapshot of one hart's counters, to difference over a region.
struct CounterSnapshot {
    uint64_t cycle = 0;
    CoreStats stats;
};

struct RegionRecord {
    std::string name;
    uint64_t count = 0; // times the region ran
    uint64_t cycles = 0;
    uint64_t instret = 0;
    uint64_t macs = 0;
    // Of those, the MACs of runs no other region enclosed: a nested region's MACs are its enclosing one's
    // too, and the run's total counts them once.
    uint64_t outermost_macs = 0;
    uint64_t closed_at_exit = 0; // runs still open when the program exited, which closed them
    std::array<uint64_t, static_cast<size_t>(StallKind::Count)> stalls{};
    // The DMA during the region (zero on platforms without one).
    DmaActivity dma;
    uint64_t dma_exposed_cycles = 0; // DMA-wait cycles of the core that waited longest
};

// Told when a perf region opens or closes (the views). `hart` is the core whose host call (or exit) did it,
// in the middle of that instruction.
class RegionListener {
  public:
    virtual ~RegionListener() = default;
    // `hart` opened region `name`, declaring `macs`; the region counts from `cycle`.
    virtual void region_entered(const std::string& name, const Hart& hart, uint64_t macs, uint64_t cycle) = 0;
    // `hart` closed the innermost open region, `name`, in `cycle`.
    virtual void region_left(const std::string& name, const Hart& hart, uint64_t cycle) = 0;
};

class HostServices : public HostInterface {
  public:
    // Console output goes to the host's stdout/stderr unless captured (tests).
    explicit HostServices(bool capture_output = false) : capture_(capture_output) {}

    bool host_call(Hart& hart) override;
    void watched_store(Hart& hart, uint32_t addr, uint32_t value) override;

    // RTL test-bench registers: a store to the console prints its low byte; a store to exit ends the run.
    MmioDevice& console_device() { return console_; }
    MmioDevice& exit_device() { return exit_; }
    void attach(Hart& hart) { hart_ = &hart; }
    // Perf regions of a cluster count the instructions and stalls of all these cores (the cycles are those
    // of the core that opens and closes the region).
    void count_regions_over(std::vector<const Hart*> harts) { region_harts_ = std::move(harts); }
    // Regions also record the DMA's activity, sampled up to the cycle a region begins and ends.
    void probe_dma(std::function<DmaActivity(uint64_t cycle)> probe) { dma_probe_ = std::move(probe); }

    void add_region_listener(RegionListener* listener) { region_listeners_.push_back(listener); }

    const std::vector<RegionRecord>& regions() const { return regions_; }
    // The guard zones the program has set (give them to every core with Hart::set_memory_guards).
    const MemoryGuards& guards() const { return guards_; }
    const std::string& captured_stdout() const { return out_; }
    const std::string& captured_stderr() const { return err_; }
    // Closes the regions a program left open, counting them up to now: an exit with status 0 does. An exit
    // with another status leaves them open, as an error does (what they counted is no result).
    void close_open_regions(Hart& hart);
    // The regions open now, outermost first.
    std::vector<std::string> open_region_names() const;
    void flush();

  private:
    struct OpenRegion {
        size_t index;
        uint32_t opener; // hart id of the core whose region_begin opened it
        uint64_t macs;
        bool outermost; // no other region was open when it opened
        CounterSnapshot start;
        DmaActivity dma;
        std::vector<uint64_t> dma_wait; // per core
    };
    void emit(int fd, const char* data, size_t len);
    void region_begin(Hart& hart, const std::string& name, uint64_t macs);
    void region_end(Hart& hart);
    // The NUL-terminated string at `addr` (at most 128 characters) for host call `what`.
    std::string read_name(Hart& hart, uint32_t addr, const char* what);

    bool capture_;
    std::string out_, err_;
    std::vector<RegionRecord> regions_;
    std::unordered_map<std::string, size_t> region_index_; // name -> its index in regions_
    std::vector<OpenRegion> open_;
    MemoryGuards guards_;
    Hart* hart_ = nullptr;
    std::vector<const Hart*> region_harts_;
    std::vector<RegionListener*> region_listeners_;
    std::function<DmaActivity(uint64_t)> dma_probe_;
    CoreStats region_stats(const Hart& caller) const;
    std::vector<uint64_t> dma_waits(const Hart& caller) const;

    struct Console : MmioDevice {
        HostServices* host;
        explicit Console(HostServices* h) : host(h) {}
        uint32_t read(uint32_t, unsigned, unsigned) override { return 0; }
        void write(uint32_t, unsigned, uint32_t value, unsigned) override;
    } console_{this};
    struct Exit : MmioDevice {
        HostServices* host;
        explicit Exit(HostServices* h) : host(h) {}
        uint32_t read(uint32_t, unsigned, unsigned) override { return 0; }
        void write(uint32_t, unsigned, uint32_t value, unsigned) override;
    } exit_{this};
};

// Exit status pulpsim reports for a program exit code: 0 stays 0; a non-zero code that the OS would
// truncate to 0 becomes 1, so a failure is never reported as success.
int exit_status_for(uint32_t code);

} // namespace pulpsim
