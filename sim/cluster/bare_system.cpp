#include "cluster/bare_system.hpp"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <stdexcept>
#include <unistd.h>

namespace pulpsim {
namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kMergeGap = 1u << 20; // segments closer than this share one RAM region
constexpr uint32_t kMaxDecodedCode = 8u << 20;

uint64_t page_floor(uint64_t a) {
    return a & ~(kPage - 1);
}
uint64_t page_ceil(uint64_t a) {
    return (a + kPage - 1) & ~(kPage - 1);
}

} // namespace

BareMachine::BareMachine(const ElfImage& elf, const BareOptions& options)
    : elf_(elf), options_(options), host_(options.capture_output) {
    place_program();
    hart_ = std::make_unique<Hart>(bus_, host_, options_.timing, 0);
    host_.attach(*hart_);
    hart_->set_memory_guards(&host_.guards());
    hart_->reset(elf_.entry(), stack_top_);
    // Alone with its memories, nothing but the core itself can change its state.
    hart_->watch_for_trap_loops();

    const Ram* entry_ram = bus_.find_ram(elf_.entry(), 2);
    if (!entry_ram)
        throw std::runtime_error(fmt::format("{}: entry point {:#010x} is not inside any loadable segment",
                                             elf_.path(), elf_.entry()));
    hart_->set_fast_ram(const_cast<Ram*>(entry_ram));

    // Instructions outside this range still run, decoded on every fetch.
    const auto [code_lo, code_hi] = elf_.code_range();
    if (code_lo < code_hi)
        hart_->set_code_range(code_lo, std::min<uint32_t>(code_hi, code_lo + kMaxDecodedCode));
    if (auto tohost = elf_.symbol("tohost")) hart_->watch_word(*tohost);

    // Both registers decode a whole word: two addresses in one word would be one register.
    if (options_.console_addr && options_.exit_addr &&
        (*options_.console_addr & ~3u) == (*options_.exit_addr & ~3u))
        throw std::runtime_error(
            fmt::format("--exit-addr {:#010x} overlaps --console-addr {:#010x} (both decode the "
                        "word [{:#010x}, {:#010x}))",
                        *options_.exit_addr, *options_.console_addr, *options_.exit_addr & ~3u,
                        uint64_t{*options_.exit_addr & ~3u} + 4));
    auto map_register = [&](const char* what, std::optional<uint32_t> addr, MmioDevice& dev) {
        if (!addr) return;
        try {
            bus_.add_device(what, *addr & ~3u, 4, dev);
        } catch (const std::invalid_argument&) {
            throw std::runtime_error(fmt::format("--{}-addr {:#010x} overlaps the program's memory ({})",
                                                 what, *addr, bus_.describe()));
        }
    };
    map_register("console", options_.console_addr, host_.console_device());
    map_register("exit", options_.exit_addr, host_.exit_device());
}

void BareMachine::place_program() {
    std::vector<const ElfSegment*> segs;
    for (const auto& s : elf_.segments())
        segs.push_back(&s);
    std::sort(segs.begin(), segs.end(), [](auto* a, auto* b) { return a->vaddr < b->vaddr; });
    if (!options_.memory_map.empty()) {
        place_in_map(segs);
        return;
    }

    struct Span {
        uint64_t lo, hi;
    };
    std::vector<Span> spans;
    for (const ElfSegment* s : segs) {
        const uint64_t lo = page_floor(s->vaddr), hi = page_ceil(uint64_t{s->vaddr} + s->memsz);
        if (!spans.empty() && lo <= spans.back().hi + kMergeGap)
            spans.back().hi = std::max(spans.back().hi, hi);
        else
            spans.push_back({lo, hi});
    }
    // The stack goes right after the highest span so that it shares the fast RAM window when possible.
    Span& top = spans.back();
    if (top.hi + options_.stack_size > (uint64_t{1} << 32))
        throw std::runtime_error(
            fmt::format("{}: no room for a {} KiB stack above the program (ends at {:#x})", elf_.path(),
                        options_.stack_size / 1024, top.hi));
    top.hi += options_.stack_size;
    stack_top_ = static_cast<uint32_t>(top.hi - 16);

    for (size_t i = 0; i < spans.size(); ++i) {
        const uint64_t size = spans[i].hi - spans[i].lo;
        if (size > options_.max_region_size)
            throw std::runtime_error(fmt::format("{}: memory [{:#010x}, {:#010x}) (segments plus stack) lies "
                                                 "outside the modelled memory: bare mode "
                                                 "models regions of at most {} MiB",
                                                 elf_.path(), spans[i].lo, spans[i].hi,
                                                 options_.max_region_size >> 20));
        bus_.add_ram(fmt::format("ram{}", i), static_cast<uint32_t>(spans[i].lo),
                     static_cast<uint32_t>(size));
    }
    for (const ElfSegment* s : segs)
        bus_.write_bytes(s->vaddr, s->bytes.data(), static_cast<uint32_t>(s->bytes.size()));
}

void BareMachine::place_in_map(const std::vector<const ElfSegment*>& segs) {
    for (size_t i = 0; i < options_.memory_map.size(); ++i) {
        const MemoryRegion& r = options_.memory_map[i];
        if (r.size > options_.max_region_size)
            throw std::runtime_error(fmt::format(
                "{}: region [{:#x}, {:#x}) is larger than the {} MiB bare mode models in one --memory region",
                r.where, r.base, uint64_t{r.base} + r.size, options_.max_region_size >> 20));
        bus_.add_ram(fmt::format("ram{}", i), r.base, static_cast<uint32_t>(r.size));
    }
    for (const ElfSegment* s : segs) {
        if (s->memsz == 0) continue;
        if (!bus_.find_ram(s->vaddr, s->memsz)) {
            const uint64_t end = uint64_t{s->vaddr} + s->memsz;
            // Both ends in memory: the segment runs from one region into another, which no load may do.
            const bool spans = bus_.find_ram(s->vaddr, 1) && bus_.find_ram(static_cast<uint32_t>(end - 1), 1);
            throw std::runtime_error(
                fmt::format("{}: segment [{:#010x}, {:#010x}) {} ({})", elf_.path(), s->vaddr, end,
                            spans ? "runs from one --memory region into another: give one "
                                    "region that holds it"
                                  : "lies outside the --memory regions",
                            bus_.describe()));
        }
        bus_.write_bytes(s->vaddr, s->bytes.data(), static_cast<uint32_t>(s->bytes.size()));
    }
    const Ram* entry = bus_.find_ram(elf_.entry(), 2);
    if (!entry)
        throw std::runtime_error(fmt::format("{}: entry point {:#010x} lies outside the --memory regions",
                                             elf_.path(), elf_.entry()));
    stack_top_ = static_cast<uint32_t>((uint64_t{entry->base()} + entry->size() - 16) & ~uint64_t{15});
}

RunOutcome BareMachine::outcome(double host_seconds) const {
    RunOutcome out;
    out.cycles = hart_->cycle();
    out.host_seconds = host_seconds;
    if (hart_->stop_reason() == StopReason::Exit) {
        out.kind = RunOutcome::Kind::Exit;
        out.exit_status = hart_->exit_code();
        out.exit_value = hart_->exit_value();
    } else if (hart_->stop_reason() == StopReason::Error) {
        out.kind = RunOutcome::Kind::Error;
        out.exit_status = 3;
        const std::string where = elf_.describe_address(hart_->pc());
        out.message =
            where.empty() ? hart_->stop_message() : fmt::format("{} [in {}]", hart_->stop_message(), where);
    } else {
        out.kind = RunOutcome::Kind::MaxCycles;
        out.exit_status = 4;
        out.message = fmt::format("the program did not finish within --max-cycles {} (pc {:#010x}",
                                  options_.max_cycles, hart_->pc());
        // A handler address that mtvec's alignment moved (to the entry point, say) shows up here.
        if (const Hart::TrapRecord& trap = hart_->trap_record(); trap.count > 0)
            out.message += fmt::format(
                "; {} trap{} taken, the last: {} at pc {:#010x}, to the handler at {:#010x}", trap.count,
                trap.count == 1 ? "" : "s", Hart::trap_cause_name(trap.cause), trap.pc, trap.handler);
        out.message += ")";
    }
    return out;
}

RunOutcome BareMachine::run_to_end() {
    hart_->run(options_.max_cycles);
    return outcome();
}

BareSystem::BareSystem(sc_core::sc_module_name name, const ElfImage& elf, const BareOptions& options)
    : sc_core::sc_module(name), machine_(elf, options) {
    auto progress = [this](uint64_t cycles, double seconds) {
        if (!machine_.options().show_progress) return;
        std::fprintf(stderr, "\r[pulpsim] %.1f M cycles, %.1f M instr/s   ",
                     static_cast<double>(cycles) / 1e6,
                     static_cast<double>(machine_.hart().stats().instret()) / seconds / 1e6);
        std::fflush(stderr);
    };
    engine_ = std::make_unique<ClockEngine>(
        "clock_engine", sc_core::sc_time(1, sc_core::SC_NS), machine_.options().quantum,
        machine_.options().max_cycles,
        [this](uint64_t target) {
            Hart& hart = machine_.hart();
            hart.run(target);
            // Bare mode has no interrupt sources: a jump to itself is never left.
            if (!hart.stopped() && hart.jumps_to_itself())
                hart.request_stop(StopReason::Error, 3,
                                  fmt::format("livelock at cycle {}: the instruction at pc {:#010x} jumps to "
                                              "itself: the program can never go on",
                                              hart.cycle(), hart.pc()));
            Hart* const harts[] = {&hart};
            if (!hart.stopped() && closed_loop_.check(harts, hart.cycle()))
                hart.request_stop(
                    StopReason::Error, 3,
                    fmt::format("livelock at cycle {}: the core loops through the same registers "
                                "again and again (pc {:#010x}), reading only memory it does not "
                                "write: the program can never go on",
                                hart.cycle(), hart.pc()));
            return hart.cycle();
        },
        [this] { return machine_.hart().stopped(); }, progress);
}

} // namespace pulpsim
