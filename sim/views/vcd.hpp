// pulpsim run --vcd FILE: the recorded activity (activity.hpp) as a Value Change Dump, one time unit per
// cluster cycle, and FILE.gtkw, a GTKWave save file that opens its signals grouped. The signals are listed
// in the VCD's header comment and in README.md.
#pragma once

#include <ostream>
#include <string>

#include "views/activity.hpp"

namespace pulpsim {

// The dump of `rec` over the cycles its filter shows (ActivityRecorder::shown()); between two shown spans
// every signal reads x.
void write_vcd(const ActivityRecorder& rec, std::ostream& out);
// A GTKWave save file for the dump at `vcd_path`: the signals grouped (cores, FPUs, TCDM banks, DMA, events)
// and the shown cycles fitted to the window.
std::string gtkw_for_vcd(const ActivityRecorder& rec, const std::string& vcd_path);

} // namespace pulpsim
