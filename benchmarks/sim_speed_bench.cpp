// Simulation speed: simulated instructions per host second, with full timing, on the FP32 matmul kernel.
//   build/benchmarks/sim_speed_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include "cluster/bare_system.hpp"

namespace {

void BM_MatmulFp32Bare(benchmark::State& state) {
    const pulpsim::ElfImage elf = pulpsim::ElfImage::load(MATMUL_ELF);
    pulpsim::BareOptions options;
    options.capture_output = true;
    uint64_t instructions = 0, cycles = 0;
    for (auto _ : state) {
        state.PauseTiming(); // loading the program is not simulation
        pulpsim::BareMachine machine(elf, options);
        state.ResumeTiming();
        const auto outcome = machine.run_to_end();
        if (outcome.exit_status != 0) {
            state.SkipWithError(("matmul failed: " + outcome.message).c_str());
            break;
        }
        instructions += machine.hart().stats().instret;
        cycles += machine.hart().cycle();
    }
    state.counters["instr/s"] =
        benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsRate);
    state.counters["cycles/s"] = benchmark::Counter(static_cast<double>(cycles), benchmark::Counter::kIsRate);
    state.counters["instr/run"] =
        benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_MatmulFp32Bare)->Unit(benchmark::kMillisecond)->MinTime(2.0);

} // namespace

BENCHMARK_MAIN();
