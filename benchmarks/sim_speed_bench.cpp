// Simulation speed: simulated instructions per host second, with full timing.
//   build/bin/sim_speed_bench --benchmark_counters_tabular=true
// BM_MatmulFp32Bare, BM_IntFpWorkloadBare: one core, bare mode. BM_ClusterMatmul: the 64x64x64 FP32 matmul on
// a pulp-open cluster (aggregate over all cores). BM_ClusterOneCoreWorking/cores: one core computes while the
// others sleep in the event unit (cores = 1 is the reference). BM_EngineMatmul / BM_EngineTiledPointwise:
// the 8-core matmul (pulp-open) and the tiled PointWise training step (VEGA) under each engine: 0 the
// default lockstep loop, 1 the plain per-cycle reference loop (same counts), 2 lookahead 16 (approximate).
// BM_RamRegionSetup/MiB: creating a RAM region a program then touches sparsely.
#include <benchmark/benchmark.h>

#include "cluster/bare_system.hpp"
#include "cluster/cluster_system.hpp"
#include "cluster/platform_config.hpp"
#include "memory/address_map.hpp"

namespace {

void run_bare(benchmark::State& state, const char* path) {
    const pulpsim::ElfImage elf = pulpsim::ElfImage::load(path);
    pulpsim::BareOptions options;
    options.capture_output = true;
    uint64_t instructions = 0, cycles = 0;
    for (auto _ : state) {
        state.PauseTiming(); // loading the program is not simulation
        pulpsim::BareMachine machine(elf, options);
        state.ResumeTiming();
        const auto outcome = machine.run_to_end();
        if (outcome.exit_status != 0) {
            state.SkipWithError(("the program failed: " + outcome.message).c_str());
            break;
        }
        instructions += machine.hart().stats().instret();
        cycles += machine.hart().cycle();
    }
    state.counters["instr/s"] =
        benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsRate);
    state.counters["cycles/s"] = benchmark::Counter(static_cast<double>(cycles), benchmark::Counter::kIsRate);
}
void BM_MatmulFp32Bare(benchmark::State& state) {
    run_bare(state, MATMUL_ELF);
}
BENCHMARK(BM_MatmulFp32Bare)->Unit(benchmark::kMillisecond)->MinTime(2.0);

// The integer + FP workload (benchmarks/programs/int_fp_workload.c) that qemu-riscv32 also runs.
void BM_IntFpWorkloadBare(benchmark::State& state) {
    run_bare(state, INT_FP_WORKLOAD_ELF);
}
BENCHMARK(BM_IntFpWorkloadBare)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void run_cluster(benchmark::State& state, const char* path, const pulpsim::PlatformConfig& config) {
    const pulpsim::ElfImage elf = pulpsim::ElfImage::load(path);
    pulpsim::ClusterOptions options;
    options.capture_output = true;
    uint64_t instructions = 0, cycles = 0;
    for (auto _ : state) {
        state.PauseTiming();
        pulpsim::ClusterMachine machine(elf, config, options);
        state.ResumeTiming();
        const auto outcome = machine.run_to_end();
        if (outcome.exit_status != 0) {
            state.SkipWithError(("cluster matmul failed: " + outcome.message).c_str());
            break;
        }
        for (const auto& h : machine.harts())
            instructions += h->stats().instret();
        cycles += machine.cycles();
    }
    state.counters["instr/s"] =
        benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsRate);
    state.counters["cycles/s"] = benchmark::Counter(static_cast<double>(cycles), benchmark::Counter::kIsRate);
}

pulpsim::PlatformConfig with_cores(unsigned cores) {
    pulpsim::PlatformConfig config; // pulp-open
    config.cluster.cores = cores;
    config.fpu.count = cores;
    return config;
}

void BM_ClusterMatmul(benchmark::State& state) {
    run_cluster(state, CLUSTER_MATMUL_ELF, with_cores(static_cast<unsigned>(state.range(0))));
}
BENCHMARK(BM_ClusterMatmul)->Arg(8)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_ClusterOneCoreWorking(benchmark::State& state) {
    run_cluster(state, CLUSTER_ONE_CORE_ELF, with_cores(static_cast<unsigned>(state.range(0))));
}
BENCHMARK(BM_ClusterOneCoreWorking)->Arg(1)->Arg(8)->Unit(benchmark::kMillisecond)->MinTime(2.0);

pulpsim::PlatformConfig with_engine(pulpsim::PlatformConfig config, int64_t engine) {
    if (engine == 1) config.engine.reference_loop = true;
    if (engine == 2) config.engine.lookahead = 16;
    return config;
}

void BM_EngineMatmul(benchmark::State& state) {
    run_cluster(state, CLUSTER_MATMUL_ELF, with_engine(pulpsim::PlatformConfig{}, state.range(0)));
}
BENCHMARK(BM_EngineMatmul)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_EngineTiledPointwise(benchmark::State& state) {
    const auto vega = pulpsim::load_platform(PULPSIM_CONFIG_DIR "/vega.yaml");
    run_cluster(state, POINTWISE_TRAIN_TILED_ELF, with_engine(vega, state.range(0)));
}
BENCHMARK(BM_EngineTiledPointwise)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->MinTime(2.0);

// What a RAM region costs before the program runs: a 256 MiB --memory region (bare mode's largest) of which a
// program touches one word per MiB.
void BM_RamRegionSetup(benchmark::State& state) {
    const auto size = static_cast<uint32_t>(state.range(0)) << 20;
    for (auto _ : state) {
        pulpsim::Ram ram("ram0", 0, size);
        for (uint32_t offset = 0; offset < size; offset += 1u << 20)
            ram.data()[offset] = 1;
        benchmark::DoNotOptimize(ram.data());
    }
}
BENCHMARK(BM_RamRegionSetup)->Arg(4)->Arg(256)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
