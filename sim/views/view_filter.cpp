#include "views/view_filter.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <stdexcept>

namespace pulpsim {

namespace {

// A non-negative integer, decimal or 0x-hex, nothing else.
bool parse_uint(std::string_view text, uint64_t& value) {
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        text.remove_prefix(2);
        base = 16;
    }
    if (text.empty()) return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    return ec == std::errc() && end == text.data() + text.size();
}

} // namespace

CycleWindow CycleWindow::parse(const std::string& option, const std::string& text) {
    const size_t colon = text.find(':');
    if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos)
        throw std::runtime_error(fmt::format("{}: '{}' is not a window FROM:TO of cycles", option, text));
    CycleWindow w;
    const std::string from = text.substr(0, colon), to = text.substr(colon + 1);
    if (from.empty() && to.empty())
        throw std::runtime_error(fmt::format("{}: '{}' gives neither FROM nor TO", option, text));
    if (!from.empty() && !parse_uint(from, w.from))
        throw std::runtime_error(fmt::format("{}: '{}' is not a cycle count (in '{}')", option, from, text));
    if (!to.empty() && !parse_uint(to, w.to))
        throw std::runtime_error(fmt::format("{}: '{}' is not a cycle count (in '{}')", option, to, text));
    if (w.to <= w.from)
        throw std::runtime_error(fmt::format(
            "{}: '{}' is an empty window (TO must be after FROM; cycles FROM <= c < TO)", option, text));
    return w;
}

std::vector<bool> parse_core_list(const std::string& option, const std::string& text, unsigned cores) {
    std::vector<bool> selected(cores, false);
    auto bad = [&](const std::string& why) {
        return std::runtime_error(fmt::format("{}: '{}': {}", option, text, why));
    };
    if (text.empty()) throw bad("no core given (a list such as 0,3-5)");
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, comma - start);
        const size_t dash = item.find('-');
        const std::string first = item.substr(0, dash);
        const std::string last = dash == std::string::npos ? first : item.substr(dash + 1);
        uint64_t lo = 0, hi = 0;
        if (!parse_uint(first, lo) || !parse_uint(last, hi))
            throw bad(fmt::format("'{}' is not a core or a range of cores such as 3-5", item));
        if (hi < lo) throw bad(fmt::format("the range {} is empty", item));
        if (hi >= cores)
            throw bad(fmt::format("core {} does not exist ({} core{}: 0 to {})", hi, cores,
                                  cores == 1 ? "" : "s", cores - 1));
        for (uint64_t c = lo; c <= hi; ++c)
            selected[c] = true;
        start = comma + 1;
    }
    return selected;
}

void check_region_names(const std::string& option, const std::vector<std::string>& names,
                        const ElfImage& elf) {
    for (const std::string& name : names) {
        if (name.empty()) throw std::runtime_error(fmt::format("{}: empty region name", option));
        const std::string terminated = name + '\0'; // what precedes it may be any data
        bool found = false;
        for (const ElfSegment& seg : elf.segments())
            found = found || std::search(seg.bytes.begin(), seg.bytes.end(), terminated.begin(),
                                         terminated.end()) != seg.bytes.end();
        if (!found)
            throw std::runtime_error(
                fmt::format("{}: {} names no perf region of {} (no such string in the program)", option, name,
                            elf.path()));
    }
}

bool ViewFilter::names_region(const std::string& name) const {
    return std::find(regions_.begin(), regions_.end(), name) != regions_.end();
}

void ViewFilter::region_entered(const std::string& name, const Hart&, uint64_t, uint64_t cycle) {
    if (!names_region(name)) return;
    if (open_++ == 0) open_from_ = cycle;
}

void ViewFilter::region_left(const std::string& name, const Hart&, uint64_t cycle) {
    if (!names_region(name) || open_ == 0 || --open_ > 0) return;
    CycleWindow run{open_from_, std::max(cycle, open_from_)};
    if (run.from == run.to) return;
    // Runs close in the order the cores run: one after the last, but for cores an engine step apart.
    auto at = std::upper_bound(closed_runs_.begin(), closed_runs_.end(), run,
                               [](const CycleWindow& a, const CycleWindow& b) { return a.from < b.from; });
    if (at != closed_runs_.begin() && std::prev(at)->to >= run.from) {
        --at;
        at->to = std::max(at->to, run.to);
    } else {
        at = closed_runs_.insert(at, run);
    }
    while (std::next(at) != closed_runs_.end() && std::next(at)->from <= at->to) {
        at->to = std::max(at->to, std::next(at)->to);
        closed_runs_.erase(std::next(at));
    }
}

uint64_t ViewFilter::shown_cycles(uint64_t from, uint64_t to) const {
    from = std::max(from, window_.from);
    to = std::min(to, window_.to);
    if (from >= to) return 0;
    if (regions_.empty()) return to - from;
    uint64_t shown = 0;
    auto run = std::upper_bound(closed_runs_.begin(), closed_runs_.end(), from,
                                [](uint64_t cycle, const CycleWindow& r) { return cycle < r.to; });
    for (; run != closed_runs_.end() && run->from < to; ++run)
        shown += std::min(to, run->to) - std::max(from, run->from);
    if (open_ > 0) {
        uint64_t open_from = std::max(from, open_from_);
        if (!closed_runs_.empty()) open_from = std::max(open_from, closed_runs_.back().to);
        if (open_from < to) shown += to - open_from;
    }
    return shown;
}

std::vector<CycleWindow> ViewFilter::spans(const std::vector<CycleWindow>& region_runs, uint64_t end) const {
    const CycleWindow whole{window_.from, std::min(window_.to, end)};
    std::vector<CycleWindow> out;
    if (regions_.empty()) {
        if (whole.from < whole.to) out.push_back(whole);
        return out;
    }
    std::vector<CycleWindow> runs = region_runs;
    std::sort(runs.begin(), runs.end(),
              [](const CycleWindow& a, const CycleWindow& b) { return a.from < b.from; });
    for (const CycleWindow& r : runs) {
        const CycleWindow cut{std::max(r.from, whole.from), std::min(r.to, whole.to)};
        if (cut.from >= cut.to) continue;
        if (!out.empty() && cut.from <= out.back().to)
            out.back().to = std::max(out.back().to, cut.to); // nested or touching runs: one span
        else
            out.push_back(cut);
    }
    return out;
}

std::string ViewFilter::describe() const {
    std::string what;
    if (!window_.whole())
        what = window_.to == UINT64_MAX ? fmt::format("cycles {}.. (to the end)", window_.from)
                                        : fmt::format("cycles {}..{}", window_.from, window_.to);
    if (!regions_.empty()) {
        std::string names;
        for (const std::string& r : regions_)
            names += fmt::format("{}'{}'", names.empty() ? "" : ", ", r);
        what += fmt::format("{}the runs of region{} {}", what.empty() ? "" : " within ",
                            regions_.size() == 1 ? "" : "s", names);
    }
    return what.empty() ? "the whole run" : what;
}

} // namespace pulpsim
