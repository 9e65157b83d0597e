#include "views/view_filter.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <stdexcept>
#include <string_view>

#include "memory/elf_image.hpp"

namespace pulpsim {
namespace {

std::optional<uint64_t> parse_cycle(std::string_view text) {
    std::string digits;
    for (char c : text)
        if (c != '_' && c != '\'') digits += c;
    int base = 10;
    std::string_view body = digits;
    if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
        base = 16;
        body.remove_prefix(2);
    }
    uint64_t value = 0;
    const auto [end, error] = std::from_chars(body.data(), body.data() + body.size(), value, base);
    if (body.empty() || error != std::errc() || end != body.data() + body.size()) return std::nullopt;
    return value;
}

} // namespace

CycleSpan ViewFilter::parse_window(const std::string& option, const std::string& text) {
    const size_t colon = text.find(':');
    if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos)
        throw std::invalid_argument(
            fmt::format("{} '{}': expected FROM:TO in cycles (FROM or TO may be left out)", option, text));
    CycleSpan span;
    const std::string from = text.substr(0, colon), to = text.substr(colon + 1);
    for (const auto& [part, field, what] :
         {std::tuple{from, &span.from, "FROM"}, std::tuple{to, &span.to, "TO"}}) {
        if (part.empty()) continue;
        const std::optional<uint64_t> v = parse_cycle(part);
        if (!v)
            throw std::invalid_argument(
                fmt::format("{} '{}': {} '{}' is not a non-negative integer", option, text, what, part));
        *field = *v;
    }
    if (span.from >= span.to)
        throw std::invalid_argument(
            fmt::format("{} '{}': FROM ({}) must be below TO ({})", option, text, span.from, span.to));
    return span;
}

std::vector<CycleSpan> ViewFilter::spans(const std::vector<CycleSpan>& region_runs, uint64_t end) const {
    const CycleSpan window = window_.value_or(CycleSpan{});
    const CycleSpan whole{window.from, std::min(window.to, end)};
    std::vector<CycleSpan> out;
    if (region_.empty()) {
        if (whole.from < whole.to) out.push_back(whole);
        return out;
    }
    std::vector<CycleSpan> runs = region_runs;
    std::sort(runs.begin(), runs.end(),
              [](const CycleSpan& a, const CycleSpan& b) { return a.from < b.from; });
    for (const CycleSpan& r : runs) {
        const CycleSpan cut{std::max(r.from, whole.from), std::min(r.to, whole.to)};
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
    if (window_)
        what = window_->to == UINT64_MAX ? fmt::format("cycles {}.. (to the end)", window_->from)
                                         : fmt::format("cycles {}..{}", window_->from, window_->to);
    if (!region_.empty())
        what += fmt::format("{}the runs of region '{}'", what.empty() ? "" : " within ", region_);
    return what.empty() ? "the whole run" : what;
}

bool program_may_name_region(const ElfImage& elf, const std::string& name) {
    if (name == "region") return true; // what an empty name becomes (HostServices)
    const std::string needle = name + '\0';
    for (const ElfSegment& s : elf.segments())
        if (std::search(s.bytes.begin(), s.bytes.end(), needle.begin(), needle.end()) != s.bytes.end())
            return true;
    return false;
}

} // namespace pulpsim
