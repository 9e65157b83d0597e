#include "runs/child_process.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace pulpsim::runs {

ChildOutcome run_capturing(const std::vector<std::string>& argv, int stream) {
    std::vector<std::string> copy = argv;
    std::vector<char*> args;
    for (auto& a : copy)
        args.push_back(a.data());
    args.push_back(nullptr);
    // What this process has buffered goes out before the child writes.
    std::fflush(stdout);
    std::fflush(stderr);
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
    const pid_t pid = fork();
    if (pid < 0) {
        const int why = errno;
        close(fds[0]);
        close(fds[1]);
        throw std::runtime_error(fmt::format("fork: {}", std::strerror(why)));
    }
    if (pid == 0) {
        dup2(fds[1], stream);
        close(fds[0]);
        close(fds[1]);
        execvp(args[0], args.data());
        _exit(127);
    }
    close(fds[1]);
    ChildOutcome outcome;
    char buffer[4096];
    ssize_t n;
    while ((n = read(fds[0], buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0) outcome.captured.append(buffer, static_cast<size_t>(n));
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    outcome.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return outcome;
}

} // namespace pulpsim::runs
