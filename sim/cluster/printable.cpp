#include "cluster/printable.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <string>

namespace pulpsim {

std::string printable(const std::string& text) {
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else if (u < 0x20 || u == 0x7f)
            out += fmt::format("\\x{:02x}", u);
        else
            out += c;
    }
    return out;
}

namespace {

size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

} // namespace

std::optional<std::string> closest_name(std::string_view name, const std::vector<std::string>& candidates) {
    std::optional<std::string> best;
    size_t best_distance = std::max<size_t>(2, name.size() / 3) + 1;
    for (const auto& c : candidates)
        if (const size_t d = edit_distance(name, c); d < best_distance) {
            best = c;
            best_distance = d;
        }
    return best;
}

std::string unknown_name_hint(std::string_view name, const std::vector<std::string>& candidates,
                              size_t max_listed) {
    if (auto best = closest_name(name, candidates)) return fmt::format(" (did you mean '{}'?)", *best);
    if (candidates.size() <= max_listed) return fmt::format(" (known: {})", fmt::join(candidates, ", "));
    return "";
}

} // namespace pulpsim
