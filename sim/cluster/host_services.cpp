#include "cluster/host_services.hpp"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <unistd.h>

namespace pulpsim {

int exit_status_for(uint32_t code) {
    if (code == 0) return 0;
    return (code & 0xff) == 0 ? 1 : static_cast<int>(code & 0xff);
}

void HostServices::emit(int fd, const char* data, size_t len) {
    if (capture_) {
        (fd == 2 ? err_ : out_).append(data, len);
        return;
    }
    std::fwrite(data, 1, len, fd == 2 ? stderr : stdout);
}

void HostServices::flush() {
    if (!capture_) std::fflush(stdout);
}

bool HostServices::host_call(Hart& h) {
    const uint32_t a0 = h.x_[10], a1 = h.x_[11], a2 = h.x_[12];
    switch (h.x_[17]) {
    case hostcall::kWrite: {
        // The host has no other files to give a program: output to any other fd would vanish unseen.
        if (a0 != 1 && a0 != 2)
            h.fail(
                fmt::format("write host call to fd {} (pc {:#010x}): only fd 1 (stdout) and 2 (stderr) exist",
                            static_cast<int32_t>(a0), h.pc_));
        // In chunks: the modelled memory, not the length the program asks for, bounds the host's work
        // (a length past the end of memory fails at its first chunk outside it).
        constexpr uint32_t kChunk = 64 * 1024;
        std::string buf;
        for (uint32_t done = 0; done < a2;) {
            const uint32_t n = std::min(kChunk, a2 - done);
            const size_t at = buf.size();
            buf.resize(at + n);
            try {
                h.bus().read_bytes(a1 + done, buf.data() + at, n);
            } catch (const BusError&) {
                h.fail(fmt::format(
                    "write host call with buffer [{:#010x}, +{}) outside every memory (pc {:#010x})", a1, a2,
                    h.pc_));
            }
            done += n;
        }
        emit(static_cast<int>(a0), buf.data(), buf.size());
        h.x_[10] = a2;
        return true;
    }
    case hostcall::kExit:
        if (a0 == 0) close_open_regions(h);
        h.request_exit(a0, exit_status_for(a0));
        return true;
    case hostcall::kRegionBegin: {
        const std::string name = read_name(h, a0, "region_begin");
        region_begin(h, name.empty() ? "region" : name, a1);
        return true;
    }
    case hostcall::kGuardSet: {
        if (a1 == 0 || !h.bus().find_ram(a0, a1))
            h.fail(fmt::format("guard_zone [{:#010x}, +{}) is empty or outside every memory (pc {:#010x})",
                               a0, a1, h.pc_));
        guards_.add(a0, a1, read_name(h, a2, "guard_zone"));
        return true;
    }
    case hostcall::kGuardClear: h.x_[10] = static_cast<uint32_t>(guards_.remove(a0, a1)); return true;
    case hostcall::kRegionEnd:
        if (open_.empty()) h.fail(fmt::format("region_end without region_begin (pc {:#010x})", h.pc_));
        // The regions of all cores form one stack: a core closing another's would pair the wrong ends.
        if (open_.back().opener != h.hartid())
            h.fail(fmt::format(
                "region_end (pc {:#010x}) would close region '{}', which core {} opened: a region "
                "counts the cluster from one core's region_begin to that core's region_end",
                h.pc_, regions_[open_.back().index].name, open_.back().opener));
        region_end(h);
        return true;
    default: return false;
    }
}

std::string HostServices::read_name(Hart& h, uint32_t addr, const char* what) {
    std::string name;
    for (uint32_t a = addr; name.size() < 128; ++a) {
        char c = 0;
        try {
            h.bus().read_bytes(a, &c, 1);
        } catch (const BusError&) {
            h.fail(fmt::format("{} name pointer {:#010x} outside every memory (pc {:#010x})", what, addr,
                               h.pc_));
        }
        if (!c) break;
        name += c;
    }
    return name;
}

namespace {

// A core's stalls up to `cycle`, from its counters `stats`: one asleep counts its sleep so far, which it
// adds only when it wakes.
std::array<uint64_t, static_cast<size_t>(StallKind::Count)>
stalls_until(const Hart& h, const CoreStats& stats, uint64_t cycle) {
    auto stalls = stats.stall_cycles;
    if (h.asleep() && cycle > h.cycle()) stalls[static_cast<size_t>(h.sleep_kind())] += cycle - h.cycle();
    return stalls;
}

} // namespace

CoreStats HostServices::region_stats(const Hart& caller) const {
    if (region_harts_.empty()) return caller.stats();
    CoreStats sum;
    for (const Hart* h : region_harts_) {
        const CoreStats seen = h->stats_seen_by(caller.hartid());
        for (size_t k = 0; k < sum.by_class_and_size.size(); ++k)
            sum.by_class_and_size[k] += seen.by_class_and_size[k];
        const auto stalls = stalls_until(*h, seen, caller.issue_);
        for (size_t k = 0; k < sum.stall_cycles.size(); ++k)
            sum.stall_cycles[k] += stalls[k];
    }
    return sum;
}

std::vector<uint64_t> HostServices::dma_waits(const Hart& caller) const {
    std::vector<uint64_t> waits;
    if (region_harts_.empty()) waits.push_back(caller.stats().stalls(StallKind::DmaWait));
    for (const Hart* h : region_harts_)
        waits.push_back(stalls_until(*h, h->stats(), caller.issue_)[static_cast<size_t>(StallKind::DmaWait)]);
    return waits;
}

void HostServices::region_begin(Hart& h, const std::string& name, uint64_t macs) {
    const auto [found, added] = region_index_.try_emplace(name, regions_.size());
    const size_t index = found->second;
    if (added) {
        RegionRecord rec;
        rec.name = name;
        regions_.push_back(std::move(rec));
    }
    // The host call itself is the region's first instruction; count from the cycle it issued.
    OpenRegion r{index, h.hartid(), macs, open_.empty(), {h.issue_, region_stats(h)}, {}, dma_waits(h)};
    if (dma_probe_) r.dma = dma_probe_(h.issue_);
    open_.push_back(std::move(r));
    for (RegionListener* listener : region_listeners_)
        listener->region_entered(name, h, macs, h.issue_);
}

void HostServices::region_end(Hart& h) {
    const OpenRegion r = open_.back();
    open_.pop_back();
    RegionRecord& rec = regions_[r.index];
    ++rec.count;
    rec.cycles += h.issue_ - r.start.cycle;
    const CoreStats now = region_stats(h);
    rec.instret += now.instret() - r.start.stats.instret();
    rec.macs += r.macs;
    if (r.outermost) rec.outermost_macs += r.macs;
    for (size_t k = 0; k < rec.stalls.size(); ++k)
        rec.stalls[k] += now.stall_cycles[k] - r.start.stats.stall_cycles[k];
    if (dma_probe_) {
        const DmaActivity d = dma_probe_(h.issue_);
        rec.dma.bytes_in += d.bytes_in - r.dma.bytes_in;
        rec.dma.bytes_out += d.bytes_out - r.dma.bytes_out;
        rec.dma.busy_cycles += d.busy_cycles - r.dma.busy_cycles;
    }
    const std::vector<uint64_t> waits = dma_waits(h);
    uint64_t exposed = 0;
    for (size_t i = 0; i < waits.size() && i < r.dma_wait.size(); ++i)
        exposed = std::max(exposed, waits[i] - r.dma_wait[i]);
    rec.dma_exposed_cycles += exposed;
    for (RegionListener* listener : region_listeners_)
        listener->region_left(rec.name, h, h.issue_);
}

void HostServices::close_open_regions(Hart& h) {
    while (!open_.empty()) {
        ++regions_[open_.back().index].closed_at_exit;
        region_end(h);
    }
}

std::vector<std::string> HostServices::open_region_names() const {
    std::vector<std::string> names;
    for (const OpenRegion& r : open_)
        names.push_back(regions_[r.index].name);
    return names;
}

void HostServices::watched_store(Hart& h, uint32_t addr, uint32_t value) {
    if (value == 0) return;
    if (value == 1) close_open_regions(h);
    // riscv-tests convention: 1 passes, an odd value v fails with code v >> 1.
    if (value & 1) {
        h.request_exit(value >> 1, value == 1 ? 0 : exit_status_for(value >> 1));
        return;
    }
    h.request_stop(
        StopReason::Error, 3,
        fmt::format("tohost ({:#010x}) written with {:#x}: not an exit code (HTIF system calls are not "
                    "supported)",
                    addr, value));
}

void HostServices::Console::write(uint32_t, unsigned, uint32_t value, unsigned) {
    const char c = static_cast<char>(value & 0xff);
    host->emit(1, &c, 1);
}

void HostServices::Exit::write(uint32_t, unsigned, uint32_t value, unsigned) {
    if (!host->hart_) return;
    if (value == 0) host->close_open_regions(*host->hart_);
    host->hart_->request_exit(value, exit_status_for(value));
}

} // namespace pulpsim
