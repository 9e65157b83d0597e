// Text as an error line or a table may show it, in a header of its own (no SystemC), so that the parsers
// which quote values in their errors stay free of the simulator.
#pragma once

#include <string>

namespace pulpsim {

// Text for one terminal line: line breaks, tabs and other control characters (terminal escapes) are shown
// escaped (\n, \t, \x1b), so an echoed value can neither split an error line nor drive the terminal.
std::string printable(const std::string& text);

} // namespace pulpsim
