// A PULP cluster platform: worker cores (plus an optional cluster-controller core) sharing a banked TCDM
// through the logarithmic interconnect, L2 behind the cluster bus, the event unit, and the host services.
// Built from a PlatformConfig (configs/platforms/*.yaml).
//
// Memory map: TCDM at tcdm.base (0x1000_0000), cluster peripherals at 0x1020_0000 (event unit at +0, DMA
// registers at +0x1800), L2 at l2.base (0x1C00_0000). Every core starts at the ELF entry point; the runtime
// parks all but core 0.
#pragma once

#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "cluster/bare_system.hpp"
#include "cluster/clock_engine.hpp"
#include "cluster/cluster_engine.hpp"
#include "cluster/event_unit.hpp"
#include "cluster/fpu_pool.hpp"
#include "cluster/host_services.hpp"
#include "cluster/instruction_cache.hpp"
#include "cluster/platform_config.hpp"
#include "dma/dma_engine.hpp"
#include "dma/dma_unit.hpp"
#include "memory/tcdm_interconnect.hpp"

namespace pulpsim {

struct ClusterOptions {
    uint64_t max_cycles = 10'000'000'000ull;
    bool capture_output = false;
    bool show_progress = false;
};

// Views watching the cluster's shared blocks (sim/views); a null member watches nothing.
struct ClusterObservers {
    BankConflictObserver* tcdm = nullptr;
    FpuActivityObserver* fpus = nullptr;
    DmaTransferObserver* dma = nullptr;
    EventUnitObserver* events = nullptr;
};

// A cluster core in a 4 KiB block of its own, at an offset of `index` x 512 bytes: allocated one after the
// other, the cores' states lie a page apart, so each of their hot members shares one set of the host's 8-way
// L1 with the same member of every other core, and lockstep, visiting the cores in turn, misses on each.
struct StaggeredCoreDelete {
    void operator()(Hart* core) const;
};
using ClusterCore = std::unique_ptr<Hart, StaggeredCoreDelete>;
ClusterCore make_staggered_core(unsigned index, AddressMap& bus, HostServices& host,
                                const CoreTiming& timing);

// The cluster as plain C++: tests and benchmarks drive it directly; ClusterSystem wraps it in SystemC.
class ClusterMachine {
  public:
    // Throws std::runtime_error naming the file, segment or key when the program does not fit the platform.
    ClusterMachine(const ElfImage& elf, const PlatformConfig& config, const ClusterOptions& options);

    // Stores `value` in the 32-bit word at the program's symbol `name` before the run, so that one ELF can
    // take its parameters from the host (e.g. a shape). Throws std::runtime_error naming the ELF and the
    // symbol when the symbol is missing or does not lie in the modelled memory.
    void write_symbol_word(const std::string& name, uint32_t value);
    // Runs to the end of the program (or max_cycles) without SystemC.
    RunOutcome run_to_end();
    // Runs to cycle `target`; at the cycle limit, an unfinished run ends there (ClusterEngine::end_at_limit).
    uint64_t advance(uint64_t target) {
        const uint64_t reached = engine_->advance(target);
        if (!engine_->finished() && reached >= options_.max_cycles)
            engine_->end_at_limit(options_.max_cycles);
        return reached;
    }
    bool finished() const { return engine_->finished(); }
    RunOutcome outcome(double host_seconds = 0) const;
    // Attaches views to the shared blocks (before the run); the cores take RetireObservers themselves.
    void observe(const ClusterObservers& observers);

    const std::vector<ClusterCore>& harts() const { return harts_; }
    const HostServices& host() const { return host_; }
    HostServices& host() { return host_; }
    const TcdmInterconnect& tcdm() const { return *interconnect_; }
    const EventUnit& event_unit() const { return *events_; }
    const FpuPool& fpu_pool() const { return *fpus_; }
    // With the private mapping the cores keep their own FPU timing and the pool is not consulted.
    bool private_fpus() const { return private_fpus_; }
    const InstructionCache* icache() const { return icache_.get(); } // null with icache.model = perfect
    const DmaEngine& dma() const { return *dma_; }
    AddressMap& memory() { return bus_; }
    const ElfImage& elf() const { return elf_; }
    const PlatformConfig& config() const { return config_; }
    uint64_t cycles() const { return engine_->cycle(); }

  private:
    // The cores reach the TCDM through the first while no view watches its banks, the second while one does.
    template <bool kObserved> struct TcdmArbiter final : DataArbiter {
        TcdmInterconnect* interconnect = nullptr;
        uint64_t grant(unsigned port, uint32_t addr, uint64_t cycle, bool is_write) override {
            return interconnect->request<kObserved>(port, addr, cycle, is_write);
        }
        TcdmInterconnect* plain_interconnect() override { return kObserved ? nullptr : interconnect; }
    };
    struct SharedFpus final : FpuArbiter {
        FpuPool* pool = nullptr;
        uint64_t issue(unsigned core, uint64_t cycle, FpuOperation op, unsigned divsqrt_latency) override {
            const FpuOpKind kind = op == FpuOperation::AddMul  ? FpuOpKind::AddMul
                                   : op == FpuOperation::Other ? FpuOpKind::Other
                                                               : FpuOpKind::DivSqrt;
            return pool->issue(core, cycle, kind, divsqrt_latency).start;
        }
        FpuLane lane(unsigned core) override { return pool->lane(core); }
    };
    void place_program();
    // Where each core is (pc, function, asleep or stopped), for the cycle-limit error.
    std::string where_cores_stand() const;

    const ElfImage& elf_;
    PlatformConfig config_;
    ClusterOptions options_;
    AddressMap bus_;
    HostServices host_;
    Ram* tcdm_ram_ = nullptr;
    std::unique_ptr<TcdmInterconnect> interconnect_;
    TcdmArbiter<false> arbiter_;
    TcdmArbiter<true> observed_arbiter_;
    std::unique_ptr<FpuPool> fpus_;
    bool private_fpus_ = false;
    std::unique_ptr<InstructionCache> icache_;
    SharedFpus fpu_arbiter_;
    // The cores' decoded program, with FP instructions gated (FS not Dirty) and without; declared before
    // harts_, so that they outlive the cores.
    DecodeCache gated_code_;
    DecodeCache shared_code_;
    std::vector<ClusterCore> harts_;
    std::unique_ptr<EventUnit> events_;
    std::unique_ptr<DmaEngine> dma_;
    std::unique_ptr<DmaUnit> dma_unit_;
    std::unique_ptr<ClusterEngine> engine_;
};

// Names a hardware block in the SystemC hierarchy; its behaviour lives in the plain C++ model.
class BlockModule : public sc_core::sc_module {
  public:
    BlockModule(sc_core::sc_module_name name, std::string what)
        : sc_core::sc_module(name), what_(std::move(what)) {}
    const std::string& what() const { return what_; }

  private:
    std::string what_;
};

class ClusterSystem : public sc_core::sc_module {
  public:
    ClusterSystem(sc_core::sc_module_name name, const ElfImage& elf, const PlatformConfig& config,
                  const ClusterOptions& options);

    RunOutcome outcome() const { return machine_.outcome(clock_->host_seconds()); }
    const ClusterMachine& machine() const { return machine_; }
    ClusterMachine& machine() { return machine_; }

  private:
    ClusterMachine machine_;
    std::vector<std::unique_ptr<BlockModule>> blocks_;
    std::unique_ptr<ClockEngine> clock_;
};

} // namespace pulpsim
