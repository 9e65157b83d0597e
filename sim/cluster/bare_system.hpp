// Bare mode: one hart running any RV32 ELF at its linked addresses in flat memory.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <systemc>

#include "cluster/bare_memory_map.hpp"
#include "cluster/clock_engine.hpp"
#include "cluster/host_services.hpp"
#include "core/closed_loop_watch.hpp"
#include "core/hart.hpp"
#include "memory/address_map.hpp"
#include "memory/elf_image.hpp"

namespace pulpsim {

struct BareOptions {
    CoreTiming timing;
    uint64_t max_cycles = 10'000'000'000ull;
    uint64_t quantum = 100'000;             // cycles between SystemC synchronisations
    uint32_t stack_size = 1u << 20;         // placed right after the program's highest segment
    uint32_t max_region_size = 2048u << 20; // Spike's default memory; the host pays only for pages touched
    std::optional<uint32_t> console_addr;
    std::optional<uint32_t> exit_addr;
    // RAM regions the program is linked for (--memory); empty: regions around the ELF's segments and a
    // stack after them. With a map, every segment must lie in one region, and sp starts at the top of the
    // region holding the entry point (programs with such a map set their own).
    std::vector<MemoryRegion> memory_map;
    bool capture_output = false;
    bool show_progress = false;
};

// How a run ended.
struct RunOutcome {
    enum class Kind { Exit, Error, MaxCycles } kind = Kind::Exit;
    int exit_status = 0;     // the host's: the program's value mapped to 8 bits, 3 error, 4 max cycles
    uint32_t exit_value = 0; // the program's own, whole (Kind::Exit)
    std::string message;     // for errors
    uint64_t cycles = 0;
    double host_seconds = 0;
};

// The bare-mode machine as plain C++: memory holding the program, one hart, the host services. Tests and
// benchmarks drive it directly; BareSystem wraps it in SystemC.
class BareMachine {
  public:
    // Builds the memory from the ELF's segments; throws std::runtime_error naming the file and segment when
    // the program cannot be placed.
    BareMachine(const ElfImage& elf, const BareOptions& options);

    // Runs to completion or to options.max_cycles without SystemC.
    RunOutcome run_to_end();
    RunOutcome outcome(double host_seconds = 0) const;
    Hart& hart() { return *hart_; }
    const Hart& hart() const { return *hart_; }
    HostServices& host() { return host_; }
    const HostServices& host() const { return host_; }
    AddressMap& memory() { return bus_; }
    const ElfImage& elf() const { return elf_; }
    const BareOptions& options() const { return options_; }

  private:
    void place_program();
    void place_in_map(const std::vector<const ElfSegment*>& segs);

    const ElfImage& elf_;
    BareOptions options_;
    AddressMap bus_;
    HostServices host_;
    std::unique_ptr<Hart> hart_;
    uint32_t stack_top_ = 0;
};

class BareSystem : public sc_core::sc_module {
  public:
    BareSystem(sc_core::sc_module_name name, const ElfImage& elf, const BareOptions& options);

    RunOutcome outcome() const { return machine_.outcome(engine_->host_seconds()); }
    const BareMachine& machine() const { return machine_; }
    BareMachine& machine() { return machine_; }

  private:
    BareMachine machine_;
    std::unique_ptr<ClockEngine> engine_;
    ClosedLoopWatch closed_loop_;
};

} // namespace pulpsim
