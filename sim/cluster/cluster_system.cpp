#include "cluster/cluster_system.hpp"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <new>
#include <optional>
#include <stdexcept>

namespace pulpsim {

// The platform's rule keeping the TCDM and the L2 off the peripherals must cover the windows mapped here.
static_assert(kClusterPeripheralsBase + EventUnit::kWindowSize <= kDmaRegistersBase);
static_assert(kDmaRegistersBase + DmaUnit::kWindowSize == kClusterPeripheralsEnd);
namespace {

constexpr uint32_t kMaxDecodedCode = 8u << 20;

constexpr size_t kCoreBlock = 4096; // the span of the host's L1 set index
constexpr size_t kCoreSkew = 512;   // eight cores, eight sets apart
static_assert(alignof(Hart) <= kCoreSkew);

std::string kib(uint64_t bytes) {
    return bytes % 1024 == 0 ? fmt::format("{} KiB", bytes / 1024) : fmt::format("{} bytes", bytes);
}

} // namespace

ClusterCore make_staggered_core(unsigned index, AddressMap& bus, HostServices& host,
                                const CoreTiming& timing) {
    const size_t skew = index % (kCoreBlock / kCoreSkew) * kCoreSkew;
    const size_t block = (skew + sizeof(Hart) + kCoreBlock - 1) / kCoreBlock * kCoreBlock;
    void* const memory = ::operator new(block, std::align_val_t{kCoreBlock});
    try {
        return ClusterCore(new (static_cast<char*>(memory) + skew) Hart(bus, host, timing, index));
    } catch (...) {
        ::operator delete(memory, std::align_val_t{kCoreBlock});
        throw;
    }
}

void StaggeredCoreDelete::operator()(Hart* core) const {
    core->~Hart();
    // The skew is less than a block: the block starts at the core's address rounded down.
    const auto block = reinterpret_cast<uintptr_t>(core) & ~uintptr_t{kCoreBlock - 1};
    ::operator delete(reinterpret_cast<void*>(block), std::align_val_t{kCoreBlock});
}

ClusterMachine::ClusterMachine(const ElfImage& elf, const PlatformConfig& config,
                               const ClusterOptions& options)
    : elf_(elf), config_(config), options_(options), host_(options.capture_output) {
    validate(config_);
    const unsigned cores = config_.total_cores();

    TcdmConfig tc;
    tc.base = config_.tcdm.base;
    tc.size = config_.tcdm.size;
    tc.banks = config_.tcdm.banks;
    tc.ports = cores + config_.dma.tcdm_ports;
    tc.first_dma_port = cores;
    interconnect_ = std::make_unique<TcdmInterconnect>(tc);
    arbiter_.interconnect = interconnect_.get();
    observed_arbiter_.interconnect = interconnect_.get();
    tcdm_ram_ = &bus_.add_ram("tcdm", config_.tcdm.base, config_.tcdm.size);
    Ram& l2 = bus_.add_ram("l2", config_.l2.base, config_.l2.size);
    l2.set_access_latency(config_.l2.latency > 0 ? config_.l2.latency - 1 : 0);
    place_program();

    FpuPoolConfig fc;
    fc.cores = cores;
    fc.fpus = config_.fpu.count;
    fc.mapping = config_.fpu.mapping;
    fc.addmul_latency = config_.fpu.addmul_latency;
    fc.other_latency = config_.fpu.other_latency;
    fc.divsqrt_units = config_.fpu.divsqrt_units;
    fc.default_divsqrt_latency = config_.fpu.divsqrt_latency;
    fpus_ = std::make_unique<FpuPool>(fc);
    private_fpus_ = config_.fpu.mapping == "private";
    fpu_arbiter_.pool = fpus_.get();

    if (config_.icache.model == PlatformConfig::Icache::Model::PulpOpen) {
        InstructionCacheConfig ic;
        ic.cores = cores;
        ic.l0_size = config_.icache.l0_size;
        ic.l1_size = config_.icache.l1_size;
        ic.refill_latency = config_.icache.refill_latency;
        ic.l2_latency = config_.l2.latency;
        icache_ = std::make_unique<InstructionCache>(ic);
    }

    const CoreTiming timing = core_timing(config_);
    std::vector<Hart*> raw;
    for (unsigned i = 0; i < cores; ++i) {
        harts_.push_back(make_staggered_core(i, bus_, host_, timing));
        Hart& h = *harts_.back();
        h.reset(elf_.entry(), 0);
        h.set_cluster_id(config_.cluster.id);
        h.set_fast_ram(tcdm_ram_);
        h.set_data_arbiter(&arbiter_, i);
        // One FPU per core cannot be contended: the core's own CV32E40P FPU timing is exact and cheaper.
        if (!private_fpus_) h.set_fpu_arbiter(&fpu_arbiter_);
        h.set_instruction_fetch(icache_.get(), InstructionCache::kLineShift);
        const auto [lo, hi] = elf_.code_range();
        if (lo < hi) {
            const uint32_t end = std::min<uint32_t>(hi, lo + kMaxDecodedCode);
            h.set_code_range(lo, end);
            if (i == 0) {
                gated_code_ = DecodeCache((end - lo) / 2 + 2);
                shared_code_ = DecodeCache((end - lo) / 2 + 2);
            }
            h.share_decode_caches(gated_code_, shared_code_);
        }
        if (auto tohost = elf_.symbol("tohost")) h.watch_word(*tohost);
        h.set_memory_guards(&host_.guards());
        raw.push_back(&h);
    }
    host_.attach(*harts_[0]);
    host_.count_regions_over({raw.begin(), raw.end()});
    EventUnitTiming eut;
    eut.sleep_latency = config_.event_unit.sleep_latency;
    eut.wake_latency = config_.event_unit.wake_latency;
    events_ = std::make_unique<EventUnit>(raw, config_.cluster.cores, eut, config_.tcdm.size);
    bus_.add_device("event_unit", kClusterPeripheralsBase, EventUnit::kWindowSize, *events_);

    DmaConfig dc;
    dc.bandwidth_bits = config_.dma.bandwidth_bits;
    dc.full_duplex = config_.dma.duplex == PlatformConfig::Dma::Duplex::Full;
    dc.cores = cores;
    dc.queue_depth = config_.dma.queue_depth;
    dc.first_tcdm_port = cores;
    dc.tcdm_port_count = config_.dma.tcdm_ports;
    dc.l2_latency = config_.l2.latency;
    dc.l2_base = config_.l2.base;
    dc.l2_size = config_.l2.size;
    dc.tcdm_base = config_.tcdm.base;
    dc.tcdm_size = config_.tcdm.size;
    dma_ = std::make_unique<DmaEngine>(dc, *interconnect_, bus_);
    DmaUnitTiming dt;
    dt.sleep_latency = config_.event_unit.sleep_latency;
    dt.wake_latency = config_.event_unit.wake_latency;
    dma_unit_ = std::make_unique<DmaUnit>(*dma_, raw, dt);
    dma_unit_->set_memory_guards(&host_.guards());
    bus_.add_device("dma", kDmaRegistersBase, DmaUnit::kWindowSize, *dma_unit_);
    host_.probe_dma([this](uint64_t cycle) {
        dma_unit_->advance(cycle);
        return dma_->activity(cycle);
    });
    engine_ = std::make_unique<ClusterEngine>(raw, *events_, config_.engine.lookahead, dma_unit_.get(),
                                              config_.dma.arbitration, config_.engine.reference_loop);
    engine_->set_tcdm(interconnect_.get());
}

void ClusterMachine::place_program() {
    const uint64_t tcdm_lo = config_.tcdm.base;
    // The TCDM's address window: its largest size (16 MiB), and not past the cluster's peripherals when it
    // lies below them: data linked far above a TCDM moved down (tcdm.base) lies outside it.
    const uint64_t tcdm_window_end = std::min<uint64_t>(
        tcdm_lo + (16u << 20), tcdm_lo < kClusterPeripheralsBase ? kClusterPeripheralsBase : UINT64_MAX);
    // The linker may reserve more TCDM than the platform has: only what the program uses must fit.
    for (const ElfSegment& s : elf_.segments()) {
        const uint64_t lo = s.vaddr, hi = uint64_t{s.vaddr} + s.memsz;
        if (lo >= tcdm_lo && lo < tcdm_window_end && !bus_.find_ram(s.vaddr, s.memsz)) {
            if (lo >= tcdm_lo && hi > tcdm_lo + config_.tcdm.size)
                throw std::runtime_error(fmt::format(
                    "{}: the program's L1 data [{:#010x}, {:#010x}) needs {} of TCDM but tcdm.size is {} "
                    "(raise it with --set tcdm.size=...)",
                    elf_.path(), lo, hi, kib(hi - tcdm_lo), kib(config_.tcdm.size)));
        }
        if (!bus_.find_ram(s.vaddr, s.memsz)) {
            const bool cluster_runtime = elf_.symbol(kClusterCoresSymbol).has_value();
            // A cluster program linked for a larger L2 than the platform's (a network's golden data): name
            // the key that fixes it. L2 may grow to 1 GiB.
            const uint64_t l2_lo = config_.l2.base;
            if (cluster_runtime && lo >= l2_lo && lo < l2_lo + (uint64_t{1} << 30))
                throw std::runtime_error(fmt::format(
                    "{}: segment [{:#010x}, {:#010x}) needs {} of L2 but l2.size is {} (raise it with "
                    "--set l2.size=...)",
                    elf_.path(), lo, hi, kib(hi - l2_lo), kib(config_.l2.size)));
            // A program built for one core (the bare runtime) links where no cluster memory is: say so.
            throw std::runtime_error(fmt::format(
                "{}: segment [{:#010x}, {:#010x}) lies outside the modelled memory ({}){}", elf_.path(), lo,
                hi, bus_.describe(),
                cluster_runtime ? ""
                                : "; the program has no cluster runtime (no symbol __cluster_max_cores): a "
                                  "program for one core runs with --bare"));
        }
        bus_.write_bytes(s.vaddr, s.bytes.data(), static_cast<uint32_t>(s.bytes.size()));
    }
}

void ClusterMachine::write_symbol_word(const std::string& name, uint32_t value) {
    const std::optional<uint32_t> addr = elf_.symbol(name);
    if (!addr) throw std::runtime_error(fmt::format("{}: no symbol '{}' to write", elf_.path(), name));
    if (elf_.symbol_ambiguous(name))
        throw std::runtime_error(fmt::format(
            "{}: symbol '{}' names more than one variable (a static of that name in two files): rename them",
            elf_.path(), name));
    // A variable of 1 or 2 bytes takes that many: a word would overwrite whatever follows it.
    const uint32_t size =
        elf_.symbol_size(*addr) == 1 || elf_.symbol_size(*addr) == 2 ? elf_.symbol_size(*addr) : 4;
    if (size < 4 && value >> (8 * size) != 0)
        throw std::runtime_error(fmt::format("{}: symbol '{}' is {} byte{} long: {} does not fit",
                                             elf_.path(), name, size, size == 1 ? "" : "s", value));
    if (*addr % size != 0 || !bus_.find_ram(*addr, size))
        throw std::runtime_error(fmt::format("{}: symbol '{}' at {:#010x} is not a {} in the modelled memory",
                                             elf_.path(), name, *addr,
                                             size == 4   ? "word"
                                             : size == 2 ? "halfword"
                                                         : "byte"));
    // The start-up code clears .bss after the host has written it: a value stored there would be lost.
    for (const ElfSegment& seg : elf_.segments())
        if (*addr >= seg.vaddr && uint64_t{*addr} < uint64_t{seg.vaddr} + seg.memsz &&
            uint64_t{*addr} + size > uint64_t{seg.vaddr} + seg.bytes.size())
            throw std::runtime_error(fmt::format(
                "{}: symbol '{}' at {:#010x} is zero-initialised (.bss), which the program's start-up clears "
                "after the host writes it: give it a non-zero initial value",
                elf_.path(), name, *addr));
    // Little-endian like the cores, whatever the host's byte order.
    const uint8_t bytes[4] = {static_cast<uint8_t>(value), static_cast<uint8_t>(value >> 8),
                              static_cast<uint8_t>(value >> 16), static_cast<uint8_t>(value >> 24)};
    bus_.write_bytes(*addr, bytes, size);
}

void ClusterMachine::observe(const ClusterObservers& o) {
    interconnect_->set_conflict_observer(o.tcdm);
    for (size_t i = 0; i < harts_.size(); ++i)
        harts_[i]->set_data_arbiter(o.tcdm ? static_cast<DataArbiter*>(&observed_arbiter_) : &arbiter_,
                                    static_cast<unsigned>(i));
    fpus_->set_observer(o.fpus);
    if (!private_fpus_)
        for (auto& h : harts_)
            h->set_fpu_arbiter(&fpu_arbiter_); // an observer closes the cores' direct lanes
    dma_->set_observer(o.dma);
    events_->set_observer(o.events);
}

RunOutcome ClusterMachine::run_to_end() {
    while (!engine_->finished() && engine_->cycle() < options_.max_cycles)
        advance(options_.max_cycles);
    return outcome();
}

RunOutcome ClusterMachine::outcome(double host_seconds) const {
    RunOutcome out;
    out.cycles = engine_->cycle();
    out.host_seconds = host_seconds;
    const Hart* stopper = engine_->stopper();
    if (stopper && stopper->stop_reason() == StopReason::Exit) {
        out.kind = RunOutcome::Kind::Exit;
        out.exit_status = stopper->exit_code();
        out.exit_value = stopper->exit_value();
    } else if (stopper && stopper->stop_reason() == StopReason::Error) {
        out.kind = RunOutcome::Kind::Error;
        out.exit_status = 3;
        const std::string where = elf_.describe_address(stopper->pc());
        out.message = fmt::format("core {}: {}{}", stopper->hartid(), stopper->stop_message(),
                                  where.empty() ? "" : fmt::format(" [in {}]", where));
    } else {
        out.kind = RunOutcome::Kind::MaxCycles;
        out.exit_status = 4;
        out.message = fmt::format("the program did not finish within --max-cycles {} ({})",
                                  options_.max_cycles, where_cores_stand());
    }
    return out;
}

// "core 0 at ...; cores 1-7 asleep at 0x1c000220 (__cluster_worker_loop+0x16)": cores in the same state at
// the same pc share an entry (entries in the order of their first core), so that a stuck core stands out.
std::string ClusterMachine::where_cores_stand() const {
    std::vector<std::pair<std::string, std::vector<unsigned>>> groups; // where, cores
    for (const ClusterCore& h : harts_) {
        const std::string fn = elf_.describe_address(h->pc());
        std::string where = fmt::format("{}at {:#010x}{}",
                                        h->stopped()  ? "stopped "
                                        : h->asleep() ? "asleep "
                                                      : "",
                                        h->pc(), fn.empty() ? "" : fmt::format(" ({})", fn));
        auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& e) { return e.first == where; });
        if (g == groups.end())
            groups.emplace_back(std::move(where), std::vector<unsigned>{h->hartid()});
        else
            g->second.push_back(h->hartid());
    }
    std::string text;
    for (const auto& [where, cores] : groups) {
        text += fmt::format("{}core{} {} {}", text.empty() ? "" : "; ", cores.size() == 1 ? "" : "s",
                            core_ranges(cores), where);
    }
    return text;
}

ClusterSystem::ClusterSystem(sc_core::sc_module_name name, const ElfImage& elf, const PlatformConfig& config,
                             const ClusterOptions& options)
    : sc_core::sc_module(name), machine_(elf, config, options) {
    for (unsigned i = 0; i < config.total_cores(); ++i)
        blocks_.push_back(
            std::make_unique<BlockModule>(fmt::format("core{}", i).c_str(), "CV32E40P-class hart"));
    blocks_.push_back(std::make_unique<BlockModule>("tcdm", "banked L1 behind the logarithmic interconnect"));
    blocks_.push_back(std::make_unique<BlockModule>("l2", "L2 memory behind the cluster bus"));
    blocks_.push_back(std::make_unique<BlockModule>("event_unit", "fork/join, barriers, mutex, sleep/wake"));
    blocks_.push_back(std::make_unique<BlockModule>("fpu_pool", "FPUs shared by the cores, div/sqrt units"));
    blocks_.push_back(std::make_unique<BlockModule>("icache", "private L0 and shared L1 instruction caches"));
    blocks_.push_back(std::make_unique<BlockModule>("dma", "cluster DMA between L2 and the TCDM"));
    auto progress = [options](uint64_t cycles, double seconds) {
        if (!options.show_progress) return;
        std::fprintf(stderr, "\r[pulpsim] %.1f M cycles, %.1f M cycles/s   ",
                     static_cast<double>(cycles) / 1e6, static_cast<double>(cycles) / seconds / 1e6);
        std::fflush(stderr);
    };
    clock_ = std::make_unique<ClockEngine>(
        "clock_engine", sc_core::sc_time(1, sc_core::SC_NS), config.engine.quantum, options.max_cycles,
        [this](uint64_t target) { return machine_.advance(target); }, [this] { return machine_.finished(); },
        progress);
}

} // namespace pulpsim
