// Google Benchmarks of `pulpsim sweep` as users run it: the runner's own cost per design point (a program
// that exits at once, so process start, elaboration, report and store are all there is; measured as the
// difference between sweeps of 41 and of 1 point) and the seed-003 grid (60 points of the tiled PointWise
// training step) with one and with two points at once.
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>

namespace {

namespace fs = std::filesystem;

const fs::path kWork = fs::temp_directory_path() / "pulpsim_runner_bench";

// Runs one sweep into a fresh database (nothing cached) and returns its wall time in seconds.
double timed_sweep(const std::string& spec, unsigned jobs) {
    const fs::path db = kWork / "bench.db";
    for (const char* ext : {"", "-wal", "-shm"})
        fs::remove(db.string() + ext);
    const std::string command = fmt::format(
        "cd '{}' && '{}' sweep '{}' --db '{}' --jobs {} --no-plots --no-progress -q > /dev/null 2>&1",
        PULPSIM_SOURCE_DIR, PULPSIM_BIN, spec, db.string(), jobs);
    const auto start = std::chrono::steady_clock::now();
    if (std::system(command.c_str()) != 0) throw std::runtime_error("sweep failed: " + command);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string exit_at_once_spec(unsigned points) {
    fs::create_directories(kWork);
    const fs::path spec = kWork / fmt::format("exit_{}.yaml", points);
    std::ofstream out(spec);
    out << "program: " << EXIT_AT_ONCE_ELF << "\ngrid:\n  l2.latency: [";
    for (unsigned i = 0; i < points; ++i)
        out << (i ? ", " : "") << 10 + i; // distinct design points
    out << "]\n";
    return spec.string();
}

void BM_RunnerCostPerPoint(benchmark::State& state) {
    const std::string one = exit_at_once_spec(1), many = exit_at_once_spec(41);
    double per_point = 0;
    for (auto _ : state) {
        const double t1 = timed_sweep(one, 1), t41 = timed_sweep(many, 1);
        per_point += (t41 - t1) / 40;
        state.SetIterationTime(t41);
    }
    state.counters["ms_per_point"] = 1000 * per_point / static_cast<double>(state.iterations());
}
BENCHMARK(BM_RunnerCostPerPoint)->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);

void BM_Seed003Grid(benchmark::State& state) {
    for (auto _ : state)
        state.SetIterationTime(
            timed_sweep("configs/sweeps/seed003-pointwise.yaml", static_cast<unsigned>(state.range(0))));
    state.counters["points"] = 60;
}
BENCHMARK(BM_Seed003Grid)
    ->ArgName("jobs")
    ->Arg(1)
    ->Arg(2)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

} // namespace

BENCHMARK_MAIN();
