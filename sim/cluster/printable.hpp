// Text as an error line or a table may show it, and the "did you mean" hint of an error about an unknown
// name, in a header of their own (no SystemC), so that the parsers which quote values in their errors stay
// free of the simulator.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pulpsim {

// Text for one terminal line: line breaks, tabs and other control characters (terminal escapes, C1 controls
// too) are shown escaped (\n, \t, \x1b), and so are bytes that are not UTF-8 (\xe9), so an echoed value can
// neither split an error line nor drive the terminal, and the line stays UTF-8 text.
std::string printable(const std::string& text);

// The one of `candidates` that a misspelt `name` most likely meant, if one is a few edits away (at most a
// third of the name's length, and at least 2), for a "did you mean" hint.
std::optional<std::string> closest_name(std::string_view name, const std::vector<std::string>& candidates);
// What an error about an unknown `name` ends with: " (did you mean 'X'?)" when one of `candidates` is that
// close, else " (known: A, B, ...)" when there are at most `max_listed` of them, else nothing.
std::string unknown_name_hint(std::string_view name, const std::vector<std::string>& candidates,
                              size_t max_listed = 32);

} // namespace pulpsim
