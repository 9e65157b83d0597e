// pulpsim: the command line. One file per verb (run.cpp, compare.cpp, sweep.cpp, regress.cpp,
// autotune.cpp); this one dispatches.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <string>
#include <systemc>
#include <vector>

#include "cli/cli_common.hpp"
#include "cluster/report.hpp"

#ifdef PULPSIM_ADDRESS_SANITIZER
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace {

#ifdef PULPSIM_ADDRESS_SANITIZER
// SystemC tells AddressSanitizer of its switches between coroutine stacks, but after the simulation the
// sanitizer still takes the main thread's stack for the last coroutine's, mostly unmapped by then.
// LeakSanitizer scans that range at exit and faults where its pages were mapped again in part (on some
// hosts in about 4 runs in 10). Switching "to" the stack the thread is on puts the right range back.
void restore_stack_bounds_for_leak_check() {
    pthread_attr_t attributes;
    void* bottom = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return;
    const bool known = pthread_attr_getstack(&attributes, &bottom, &size) == 0;
    pthread_attr_destroy(&attributes);
    if (!known) return;
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(&fake_stack, bottom, size);
    __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
}
#else
void restore_stack_bounds_for_leak_check() {}
#endif

void print_main_help() {
    std::cout
        << "pulpsim " << pulpsim::cli::kVersion
        << ": a cycle-approximate simulator of PULP RISC-V clusters\n\n"
           "usage: pulpsim <command> [options]\n\n"
           "commands:\n"
           "  run        run a RISC-V ELF program and print its report\n"
           "  compare    run every FP32 matmul kernel on a training layer step and rank them\n"
           "  sweep      run the design points of a sweep file, store them in SQLite, tabulate and plot\n"
           "  regress    check cycle counts against baselines (a CI gate), with JUnit and markdown "
           "reports\n"
           "  autotune   find the fastest kernel for a layer step on a platform, cached, into a tuning "
           "file\n\n"
           "options:\n"
           "  -h, --help     this help; 'pulpsim <command> --help' for a command's options\n"
           "  --version      print the version\n";
}

// A table or an export on standard output that did not reach it (a full disk, a closed descriptor) is an
// error, not a success.
int checked_standard_output(int status) {
    errno = 0;
    std::cout.flush();
    if (std::cout && std::fflush(stdout) == 0 && !std::ferror(stdout)) return status;
    const int why = errno;
    spdlog::error("standard output: cannot write: {}", why ? std::strerror(why) : "a write failed");
    return status == 0 ? pulpsim::cli::kExitUsage : status;
}

} // namespace

int sc_main(int argc, char* argv[]) {
    using namespace pulpsim::cli;
    auto logger = spdlog::stderr_color_mt("pulpsim");
    logger->set_pattern("pulpsim: %^%l%$: %v");
    spdlog::set_default_logger(logger);
    spdlog::set_level(spdlog::level::warn);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);

    std::vector<std::string> args(argv + 1, argv + argc);
    try {
        if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
            print_main_help();
            return args.empty() ? kExitUsage : checked_standard_output(0);
        }
        if (args[0] == "--version") {
            std::cout << "pulpsim " << kVersion << "\n";
            return checked_standard_output(0);
        }
        const std::string command = args[0];
        args.erase(args.begin());
        int status;
        if (command == "run")
            status = command_run(args);
        else if (command == "compare")
            status = command_compare(args);
        else if (command == "sweep")
            status = command_sweep(args);
        else if (command == "regress")
            status = command_regress(args);
        else if (command == "autotune")
            status = command_autotune(args);
        else
            throw UsageError("unknown command '" + command + "' (try 'pulpsim --help')");
        return checked_standard_output(status);
    } catch (const std::exception& e) {
        spdlog::error("{}", pulpsim::printable(e.what()));
        return kExitUsage;
    }
}

// SystemC prints its banner before sc_main unless told not to, and the banner would pollute the report.
int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    const int status = sc_core::sc_elab_and_sim(argc, argv);
    restore_stack_bounds_for_leak_check();
    return status;
}
