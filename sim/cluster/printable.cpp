#include "cluster/printable.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <string>

namespace pulpsim {

namespace {

// The length of the well-formed UTF-8 sequence at `at` (RFC 3629: no overlong forms, no surrogates, nothing
// past U+10FFFF), 0 if there is none.
size_t utf8_length(const std::string& text, size_t at) {
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(at);
    size_t n = 0;
    unsigned char low = 0x80, high = 0xbf; // the range of the second byte
    if (lead >= 0xc2 && lead <= 0xdf) {
        n = 2;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        n = 3;
        if (lead == 0xe0) low = 0xa0;
        if (lead == 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        n = 4;
        if (lead == 0xf0) low = 0x90;
        if (lead == 0xf4) high = 0x8f;
    } else {
        return 0;
    }
    if (at + n > text.size() || byte(at + 1) < low || byte(at + 1) > high) return 0;
    for (size_t i = 2; i < n; ++i)
        if (byte(at + i) < 0x80 || byte(at + i) > 0xbf) return 0;
    // C1 control characters (U+0080..U+009F) may drive a terminal as their 7-bit escapes do.
    if (n == 2 && lead == 0xc2 && byte(at + 1) < 0xa0) return 0;
    return n;
}

} // namespace

std::string printable(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size();) {
        const auto u = static_cast<unsigned char>(text[i]);
        if (u >= 0x80) {
            if (const size_t n = utf8_length(text, i)) {
                out.append(text, i, n);
                i += n;
                continue;
            }
            out += fmt::format("\\x{:02x}", u); // not UTF-8 text, or a C1 control: shown as its byte
        } else if (u == '\n') {
            out += "\\n";
        } else if (u == '\t') {
            out += "\\t";
        } else if (u < 0x20 || u == 0x7f) {
            out += fmt::format("\\x{:02x}", u);
        } else {
            out += static_cast<char>(u);
        }
        ++i;
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
