// A helper program run to its end with one of its output streams read: Slurm's client commands (their
// standard output) and the plot scripts (their standard error).
#pragma once

#include <string>
#include <vector>

namespace pulpsim::runs {

struct ChildOutcome {
    int status = 0; // its exit status; 128 + the signal's number if one ended it; 127 if it did not start
    std::string captured; // what it wrote to the stream read
};

// Runs `argv` (found on PATH, no shell, so no quoting) and waits for it, reading its `stream`
// (STDOUT_FILENO or STDERR_FILENO) meanwhile; its other streams are this process's. Throws a one-line error
// when no pipe or process can be made.
ChildOutcome run_capturing(const std::vector<std::string>& argv, int stream);

} // namespace pulpsim::runs
