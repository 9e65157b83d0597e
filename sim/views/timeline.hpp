// pulpsim run --timeline FILE: the recorded activity (activity.hpp) as Chrome trace-event JSON, which
// Perfetto (ui.perfetto.dev) and chrome://tracing open. One cycle is 1 us of the JSON's `ts`. See README.md
// for the tracks.
#pragma once

#include <ostream>

#include "views/activity.hpp"

namespace pulpsim {

// The trace of `rec` over the cycles its filter shows: slices are cut at the edges of what it shows.
void write_timeline(const ActivityRecorder& rec, std::ostream& out);

} // namespace pulpsim
