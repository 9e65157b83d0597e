#include "runs/child_process.hpp"

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <optional>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace pulpsim::runs {

std::string ChildOutcome::last_error_line() const {
    size_t end = errors.size();
    while (end > 0) {
        const size_t start = errors.find_last_of('\n', end - 1);
        const size_t from = start == std::string::npos ? 0 : start + 1;
        const std::string line = errors.substr(from, end - from);
        for (char c : line)
            if (!std::isspace(static_cast<unsigned char>(c))) return line;
        end = from == 0 ? 0 : from - 1;
    }
    return {};
}

namespace {

// Both ends of a pipe, closed on the way out.
struct Pipe {
    std::array<int, 2> fd{-1, -1};
    Pipe() {
        if (pipe(fd.data()) != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
    }
    Pipe(const Pipe&) = delete;
    Pipe& operator=(const Pipe&) = delete;
    ~Pipe() {
        for (int f : fd)
            if (f >= 0) close(f);
    }
    void close_end(int end) {
        if (fd[end] >= 0) close(fd[end]);
        fd[end] = -1;
    }
};

} // namespace

ChildOutcome run_capturing(const std::vector<std::string>& argv, Capture capture) {
    std::vector<std::string> copy = argv;
    std::vector<char*> args;
    for (auto& a : copy)
        args.push_back(a.data());
    args.push_back(nullptr);
    // What this process has buffered goes out before the child writes.
    std::fflush(stdout);
    std::fflush(stderr);
    Pipe errors;
    std::optional<Pipe> output;
    if (capture == Capture::OutputAndErrors) output.emplace();
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(fmt::format("fork: {}", std::strerror(errno)));
    if (pid == 0) {
        dup2(errors.fd[1], STDERR_FILENO);
        if (output) dup2(output->fd[1], STDOUT_FILENO);
        // Only the duplicates stay open in the child.
        for (int f : errors.fd)
            close(f);
        if (output)
            for (int f : output->fd)
                close(f);
        execvp(args[0], args.data());
        _exit(127);
    }
    errors.close_end(1);
    if (output) output->close_end(1);
    ChildOutcome outcome;
    // Both streams are read as they come, so that a child filling one pipe never waits on the other.
    std::array<pollfd, 2> fds{pollfd{errors.fd[0], POLLIN, 0},
                              pollfd{output ? output->fd[0] : -1, POLLIN, 0}};
    std::array<std::string*, 2> into{&outcome.errors, &outcome.output};
    char buffer[4096];
    while (fds[0].fd >= 0 || fds[1].fd >= 0) {
        if (poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
            if (n > 0)
                into[i]->append(buffer, static_cast<size_t>(n));
            else if (n == 0 || errno != EINTR)
                fds[i].fd = -1;
        }
    }
    // A child still writing after a failed poll gets SIGPIPE rather than a wait on a full pipe.
    errors.close_end(0);
    if (output) output->close_end(0);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    outcome.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return outcome;
}

} // namespace pulpsim::runs
