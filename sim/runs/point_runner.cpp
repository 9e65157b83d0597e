#include "runs/point_runner.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <poll.h>
#include <sstream>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cluster/printable.hpp"

namespace pulpsim::runs {
namespace {

double now_seconds() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

std::string clock_text(double seconds) {
    const auto s = static_cast<long>(seconds + 0.5);
    if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    return fmt::format("{}:{:02}", s / 60, s % 60);
}

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

} // namespace

std::string point_error_line(const std::string& text) {
    for (size_t end = text.size(); end > 0;) {
        const size_t last = text.find_last_not_of("\r\n \t", end - 1);
        if (last == std::string::npos) break;
        const size_t newline = text.rfind('\n', last);
        const size_t from = newline == std::string::npos ? 0 : newline + 1;
        std::string line = text.substr(from, last + 1 - from);
        if (line.rfind("pulpsim: warning: ", 0) != 0) {
            for (const char* prefix : {"pulpsim: error: ", "pulpsim: critical: "})
                if (line.rfind(prefix, 0) == 0) line = line.substr(std::strlen(prefix));
            return printable(line);
        }
        end = from;
    }
    return "";
}

namespace {

struct Running {
    const DesignPoint* point;
    std::string base; // work-file prefix of this point
    double start;
};

// A program rebuilt while the points run must not be stored under the identity of the bytes hashed
// before: checked before a point starts and again after it ended, so that the bytes it loaded in between
// are the hashed ones.
void check_program_unchanged(const DesignPoint& point) {
    if (file_hash(point.program) != point.program_hash)
        throw std::runtime_error(
            fmt::format("{}: the program changed while the points ran (rebuilt?); the points "
                        "that finished before are stored: run again to simulate the new program",
                        point.program));
}

// Starts `pulpsim run` on one point; its files are base.yaml (the resolved platform), base.json (the
// report), base.out and base.err.
pid_t spawn(const DesignPoint& point, const RunnerOptions& options, const std::string& base,
            const sigset_t& parent_mask) {
    {
        std::ofstream yaml(base + ".yaml", std::ios::binary);
        yaml << point.config_yaml;
        if (!yaml)
            throw std::runtime_error(fmt::format("{}.yaml: cannot write: {}", base, std::strerror(errno)));
    }
    check_program_unchanged(point);
    std::vector<std::string> args = {options.simulator,
                                     "run",
                                     "-q",
                                     "--platform",
                                     base + ".yaml",
                                     "--max-cycles",
                                     std::to_string(point.max_cycles),
                                     "--report-json",
                                     base + ".json"};
    for (const auto& [name, value] : point.symbols)
        args.push_back(fmt::format("--symbol={}={}", name, value));
    args.push_back(point.program);
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string out = base + ".out", err = base + ".err";

    // Whatever this process has buffered would otherwise be written twice.
    std::fflush(nullptr);
    const pid_t runner = getpid();
    const pid_t pid = fork();
    if (pid < 0)
        throw std::runtime_error(fmt::format("cannot start a simulator process: {}", std::strerror(errno)));
    if (pid == 0) {
        // The point must not outlive the runner: a killed sweep leaves no orphans behind. A runner killed
        // between the fork and the prctl sends no signal, so the child looks for itself.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != runner) _exit(128 + SIGKILL);
        sigprocmask(SIG_SETMASK, &parent_mask, nullptr);
        const int in_fd = open("/dev/null", O_RDONLY);
        const int out_fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int err_fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in_fd < 0 || out_fd < 0 || err_fd < 0) _exit(125);
        dup2(in_fd, 0);
        dup2(out_fd, 1);
        dup2(err_fd, 2);
        if (options.run_verb) {
            const int code = options.run_verb(std::vector<std::string>(args.begin() + 2, args.end()));
            std::fflush(nullptr);
            _exit(code);
        }
        execv(argv[0], argv.data());
        const std::string msg =
            fmt::format("pulpsim: error: cannot run {}: {}\n", argv[0], std::strerror(errno));
        (void)!write(2, msg.data(), msg.size());
        _exit(127);
    }
    return pid;
}

PointResult collect(const Running& r, int status) {
    PointResult result;
    result.host_seconds = now_seconds() - r.start;
    const std::string json = r.base + ".json";
    std::error_code ec;
    if (std::filesystem::is_regular_file(json, ec)) result.report = read_text(json);
    if (WIFSIGNALED(status)) {
        result.exit_code = 128 + WTERMSIG(status);
        result.signalled = true;
        result.error = fmt::format("killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
    } else {
        result.exit_code = WEXITSTATUS(status);
        result.ok = result.exit_code == 0 && !result.report.empty();
        if (!result.ok) {
            std::string line = point_error_line(read_text(r.base + ".err"));
            if (line.empty()) line = point_error_line(read_text(r.base + ".out"));
            if (result.exit_code == 0) line = "the simulator wrote no report";
            result.error = line.empty() ? fmt::format("exit status {}", result.exit_code)
                                        : fmt::format("exit status {}: {}", result.exit_code, line);
        }
    }
    for (const char* ext : {".yaml", ".json", ".out", ".err"})
        std::filesystem::remove(r.base + ext, ec);
    return result;
}

} // namespace

Progress::Progress(std::string label, size_t total, bool terminal)
    : label_(std::move(label)), total_(total), terminal_(terminal), start_(now_seconds()),
      last_line_(start_) {}

void Progress::update(size_t done, size_t failed) {
    done_ = done;
    failed_ = failed;
    if (terminal_)
        draw(false);
    else if (now_seconds() - last_line_ >= 10)
        draw(true);
}

void Progress::note(const std::string& line) {
    if (terminal_ && drawn_) std::fputs("\r\x1b[K", stderr);
    std::fprintf(stderr, "%s\n", line.c_str());
    if (terminal_ && drawn_) draw(false);
    std::fflush(stderr);
}

void Progress::finish() {
    if (terminal_ && drawn_) {
        draw(false);
        std::fputc('\n', stderr);
    } else if (!terminal_)
        draw(true);
    std::fflush(stderr);
}

void Progress::draw(bool plain) {
    const double elapsed = now_seconds() - start_;
    std::string eta = "--:--";
    if (done_ > 0 && done_ < total_)
        eta = clock_text(elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_));
    if (done_ == total_) eta = "0:00";
    if (plain) {
        std::fprintf(stderr, "%s: %zu/%zu points, %zu failed, elapsed %s, ETA %s\n", label_.c_str(), done_,
                     total_, failed_, clock_text(elapsed).c_str(), eta.c_str());
        last_line_ = now_seconds();
    } else {
        constexpr size_t width = 28;
        const size_t filled = total_ ? done_ * width / total_ : width;
        std::fprintf(stderr, "\r%s [%s%s] %zu/%zu  failed %zu  elapsed %s  ETA %s \x1b[K", label_.c_str(),
                     std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(), done_,
                     total_, failed_, clock_text(elapsed).c_str(), eta.c_str());
        drawn_ = true;
    }
    std::fflush(stderr);
}

RunnerEnd run_points(const std::vector<const DesignPoint*>& points, const RunnerOptions& options,
                     const std::function<void(const DesignPoint&, const PointResult&)>& on_result) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/pulpsim-points-XXXXXX";
    if (!mkdtemp(pattern.data()))
        throw std::runtime_error(
            fmt::format("{}: cannot create a work folder: {}", pattern, std::strerror(errno)));
    const std::string work = pattern;

    // Children and interrupts arrive through one descriptor, so the loop can also tick the progress clock.
    sigset_t mask, old_mask;
    sigemptyset(&mask);
    for (int s : {SIGCHLD, SIGINT, SIGTERM, SIGHUP})
        sigaddset(&mask, s);
    sigprocmask(SIG_BLOCK, &mask, &old_mask);
    const int sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);

    std::map<pid_t, Running> running;
    size_t next = 0, done = 0, failed = 0;
    bool interrupted = false;
    Progress progress(options.label, points.size(), options.terminal);
    std::string error;
    try {
        while (next < points.size() || !running.empty()) {
            while (!interrupted && running.size() < std::max(1u, options.jobs) && next < points.size()) {
                const DesignPoint* p = points[next];
                const std::string base = fmt::format("{}/{}", work, next++);
                const double start = now_seconds();
                running.emplace(spawn(*p, options, base, old_mask), Running{p, base, start});
            }
            if (running.empty()) break;
            pollfd pfd{sfd, POLLIN, 0};
            poll(&pfd, 1, 500);
            signalfd_siginfo si;
            while (read(sfd, &si, sizeof si) == static_cast<ssize_t>(sizeof si))
                if (si.ssi_signo != SIGCHLD) interrupted = true;
            if (interrupted)
                for (const auto& [pid, r] : running)
                    kill(pid, SIGTERM);
            int status = 0;
            pid_t pid;
            while ((pid = waitpid(-1, &status, interrupted ? 0 : WNOHANG)) > 0) {
                const auto it = running.find(pid);
                if (it == running.end()) continue;
                PointResult result = collect(it->second, status);
                const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
                // A terminal's Ctrl-C reaches the points too: their death is the interrupt, not a result.
                if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) interrupted = true;
                if (!interrupted) {
                    check_program_unchanged(*it->second.point);
                    on_result(*it->second.point, result);
                    ++done;
                    failed += result.ok ? 0 : 1;
                    if (!result.ok && options.failure_line)
                        if (const std::string line = options.failure_line(*it->second.point, result);
                            !line.empty())
                            progress.note(line);
                }
                running.erase(it);
                if (interrupted && running.empty()) break;
            }
            if (options.show_progress) progress.update(done, failed);
            if (interrupted && running.empty()) break;
        }
    } catch (const std::exception& e) {
        error = e.what();
        for (const auto& [pid, r] : running) {
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
        }
    }
    if (options.show_progress) progress.finish();
    close(sfd);
    sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    std::error_code ec;
    std::filesystem::remove_all(work, ec);
    if (!error.empty()) throw std::runtime_error(error);
    return interrupted ? RunnerEnd::Interrupted : RunnerEnd::Finished;
}

} // namespace pulpsim::runs
