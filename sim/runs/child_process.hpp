// A helper program run to its end with its error stream read, and its output stream too if asked: Slurm's
// client commands (both) and the plot scripts (standard error).
#pragma once

#include <string>
#include <vector>

namespace pulpsim::runs {

struct ChildOutcome {
    int status = 0;     // its exit status; 128 + the signal's number if one ended it; 127 if it did not start
    std::string output; // its standard output, if read
    std::string errors; // its standard error
    // The last line of `errors` that holds more than white space ("" if none), for a one-line message.
    std::string last_error_line() const;
};

enum class Capture { Errors, OutputAndErrors };

// Runs `argv` (found on PATH, no shell, so no quoting) and waits for it, reading its standard error (and its
// standard output with OutputAndErrors) meanwhile; the streams not read are this process's. Throws a one-line
// error when no pipe or process can be made.
ChildOutcome run_capturing(const std::vector<std::string>& argv, Capture capture);

} // namespace pulpsim::runs
