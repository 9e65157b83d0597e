// The platform a cluster simulation runs: every hardware parameter of the cluster in one typed struct,
// read from a YAML platform file (configs/platforms/*.yaml) and adjusted with `--set key=value`.
//
// Keys are two-level, `section.key` (in a file: `section:` then `key: value`). One table in
// platform_config.cpp maps each key to its field, parser and limits, so files and overrides accept the
// same names and values. Every error is a std::runtime_error with a one-line message that names where the
// value came from (`file.yaml:12` or `--set key`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pulpsim {

struct CoreTiming;

// The cluster peripherals (event unit, then the DMA's registers) sit at fixed addresses, as on PULP: the
// TCDM and the L2 must leave them free.
inline constexpr uint32_t kClusterPeripheralsBase = 0x10200000u;
inline constexpr uint32_t kDmaRegistersBase = kClusterPeripheralsBase + 0x1800u;
inline constexpr uint32_t kClusterPeripheralsEnd = kDmaRegistersBase + 0x400u;
// The symbol the cluster runtime links into a program (kernels/runtime/link_cluster.ld): how many cores it
// has stacks for. A program without it is no cluster program of ours.
inline constexpr const char* kClusterCoresSymbol = "__cluster_max_cores";

// Defaults are the pulp-open values of configs/platforms/pulp-open.yaml, which documents every key.
struct PlatformConfig {
    struct Platform {
        std::string name = "pulp-open"; // label for reports; a file without one is named after the file
        bool operator==(const Platform&) const = default;
    };
    struct Cluster {
        unsigned cores = 8;           // worker cores (1..16)
        bool controller_core = false; // VEGA's ninth core: shares the TCDM and the FPUs, not a worker
        unsigned id = 0;              // cluster id, in mhartid[10:5] of every core (PULP convention)
        bool operator==(const Cluster&) const = default;
    };
    struct Tcdm {
        uint32_t base = 0x10000000;
        uint32_t size = 64 * 1024;   // bytes
        unsigned banks = 16;         // always the bank count in effect (derived when banking_factor != 0)
        unsigned banking_factor = 0; // 0: `banks` was given; else banks = banking_factor x cluster.cores
        bool operator==(const Tcdm&) const = default;
    };
    struct L2 {
        uint32_t base = 0x1C000000;
        uint32_t size = 512 * 1024; // bytes
        unsigned latency = 15;      // cycles for a core's access
        bool operator==(const L2&) const = default;
    };
    struct Fpu {
        unsigned count = 8;
        std::string mapping = "private"; // a name from fpu_mappings() (cluster/fpu_pool.hpp)
        unsigned addmul_latency = 0; // FPU_ADDMUL_LAT: extra cycles before an add/mul/fma result is usable
        unsigned other_latency = 0;  // FPU_OTHERS_LAT: comparisons, conversions, classify, moves
        unsigned divsqrt_units = 8;
        unsigned divsqrt_latency = 19;      // fdiv/fsqrt with an inexact result
        unsigned divsqrt_exact_latency = 6; // fdiv/fsqrt with an exact result of no fraction bits
        bool operator==(const Fpu&) const = default;
    };
    struct Icache {
        // Perfect: every fetch hits. PulpOpen: private L0 per core in front of a shared L1.
        enum class Model { Perfect, PulpOpen };
        Model model = Model::PulpOpen;
        uint32_t l0_size = 512;      // bytes, private per core
        uint32_t l1_size = 4096;     // bytes, shared
        unsigned refill_latency = 2; // cycles per level
        bool operator==(const Icache&) const = default;
    };
    struct EventUnit {
        unsigned sleep_latency = 6; // cycles from a wait instruction until the core sleeps
        unsigned wake_latency = 2;  // cycles from the event until the core issues again
        bool operator==(const EventUnit&) const = default;
    };
    struct Dma {
        // Whether the DMA moves data both ways in the same cycle (the bandwidth then applies to each).
        enum class Duplex { Half, Full };
        unsigned bandwidth_bits = 64; // bits per cycle (per direction when full duplex)
        Duplex duplex = Duplex::Full;
        unsigned queue_depth = 2; // outstanding commands per core
        // Who wins a TCDM bank both the DMA and a core want in the same cycle.
        enum class Arbitration { RoundRobin, CoresFirst, DmaFirst };
        Arbitration arbitration = Arbitration::RoundRobin;
        unsigned tcdm_ports = 4; // interconnect ports of the DMA (labels; the bandwidth limits throughput)
        bool operator==(const Dma&) const = default;
    };
    struct Engine {
        uint64_t quantum = 100000; // cycles the models run between two SystemC synchronisations
        // Cycles a core runs before the next core takes its turn. 1 (lockstep) is exact per-cycle
        // round-robin; larger steps decide same-cycle conflicts per step instead (an approximation).
        unsigned lookahead = 1;
        // Lockstep through the plain per-cycle loop instead of the one that skips idle cycles and cores: the
        // reference the fast loop is checked against (same cycle counts, slower).
        bool reference_loop = false;
        bool operator==(const Engine&) const = default;
    };

    Platform platform;
    Cluster cluster;
    Tcdm tcdm;
    L2 l2;
    Fpu fpu;
    Icache icache;
    EventUnit event_unit;
    Dma dma;
    Engine engine;

    // Cores that execute code and use the FPUs: the workers plus the controller core if present.
    unsigned total_cores() const { return cluster.cores + (cluster.controller_core ? 1u : 0u); }
    bool operator==(const PlatformConfig&) const = default;
};

// Reads a platform file: keys it does not give keep their defaults. Throws on any error (see top).
PlatformConfig load_platform(const std::string& path);

// Applies one `key=value` (`--set`; the value in YAML scalar syntax, e.g. `tcdm.size=256KiB`), then checks
// the whole configuration. On error `config` is unchanged.
void apply_override(PlatformConfig& config, const std::string& assignment);
// Applies several in order and checks the result once, so that overrides which only make sense together
// (`cluster.cores=4` with `fpu.count=4` under private FPUs) are accepted. On error `config` is unchanged.
void apply_overrides(PlatformConfig& config, const std::vector<std::string>& assignments);

// Checks the relations between keys (banks and size, FPU count and mapping, overlapping memories).
void validate(const PlatformConfig& config);

// Every key in effect with its value as YAML text, in table order; derived values (tcdm.banks under a
// banking factor) are included. For reports.
std::vector<std::pair<std::string, std::string>> describe(const PlatformConfig& config);
// The whole configuration as a platform file; load_platform() of it gives back an equal configuration.
std::string to_yaml(const PlatformConfig& config);

// All keys, `section.key`, in table order (for help texts).
std::vector<std::string> platform_keys();
// What platform.name takes: 1 to 64 printable characters, no quotes or backslashes (the name goes into
// reports and tuning files as it is).
bool valid_platform_name(std::string_view name);
// What an error about the unknown key `key` ends with: the key it likely meant, else the keys of its section,
// else the sections.
std::string platform_key_hint(std::string_view key);

// A byte count: decimal or 0x-hex, optionally followed by KiB, MiB or GiB ("64KiB", "0x10000").
std::optional<uint64_t> parse_size(std::string_view text);
// A count such as a cycle limit: what parse_size() reads, or a decimal in scientific notation ("1e9",
// "1.5e9") whose value is a whole number, read exactly.
std::optional<uint64_t> parse_count(const std::string& text);

// The per-core pipeline parameters the hart model takes.
CoreTiming core_timing(const PlatformConfig& config);

std::string_view to_string(PlatformConfig::Dma::Duplex duplex);
std::string_view to_string(PlatformConfig::Dma::Arbitration arbitration);
std::string_view to_string(PlatformConfig::Icache::Model model);

} // namespace pulpsim
