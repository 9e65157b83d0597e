// Platform files and --set overrides: the shipped platforms load with the values they state, sizes parse,
// every mistake is reported as one line naming the file and line (or the --set key), and a configuration
// written with to_yaml() loads back unchanged.
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <string>

#include "cluster/platform_config.hpp"
#include "core/hart.hpp"

#ifndef PULPSIM_CONFIG_DIR
#error "PULPSIM_CONFIG_DIR must name configs/platforms"
#endif

namespace pulpsim {
namespace {

const std::string kConfigDir = PULPSIM_CONFIG_DIR;

std::string temp_yaml(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / ("pulpsim_platform_" + name + ".yaml");
    std::ofstream(path) << text;
    return path.string();
}

// The message of the error `action` throws; fails the test if it throws none or a multi-line one.
std::string error_of(const std::function<void()>& action) {
    try {
        action();
    } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        EXPECT_EQ(message.find('\n'), std::string::npos) << "not one line: " << message;
        return message;
    }
    ADD_FAILURE() << "no error";
    return "no error";
}

std::string load_error(const std::string& name, const std::string& text) {
    const std::string path = temp_yaml(name, text);
    return error_of([&] { load_platform(path); });
}

std::string override_error(const std::string& assignment) {
    PlatformConfig config;
    return error_of([&] { apply_override(config, assignment); });
}

#define EXPECT_HAS(text, part)                                                                               \
    EXPECT_NE((text).find(part), std::string::npos) << "missing '" << (part) << "' in: " << (text)

// ---- the shipped platforms ----------------------------------------------------------------------------

TEST(PlatformConfig, PulpOpenFileLoadsWithItsValues) {
    const PlatformConfig c = load_platform(kConfigDir + "/pulp-open.yaml");
    EXPECT_EQ(c.platform.name, "pulp-open");
    EXPECT_EQ(c.cluster.cores, 8u);
    EXPECT_FALSE(c.cluster.controller_core);
    EXPECT_EQ(c.total_cores(), 8u);
    EXPECT_EQ(c.tcdm.base, 0x10000000u);
    EXPECT_EQ(c.tcdm.size, 64u * 1024);
    EXPECT_EQ(c.tcdm.banks, 16u);
    EXPECT_EQ(c.l2.base, 0x1C000000u);
    EXPECT_EQ(c.l2.size, 512u * 1024);
    EXPECT_EQ(c.l2.latency, 15u);
    EXPECT_EQ(c.fpu.count, 8u);
    EXPECT_EQ(c.fpu.mapping, "private");
    EXPECT_EQ(c.fpu.addmul_latency, 0u);
    EXPECT_EQ(c.icache.model, PlatformConfig::Icache::Model::PulpOpen);
    EXPECT_EQ(c.icache.l0_size, 512u);
    EXPECT_EQ(c.icache.l1_size, 4096u);
    EXPECT_EQ(c.event_unit.sleep_latency, 6u);
    EXPECT_EQ(c.event_unit.wake_latency, 2u);
    EXPECT_EQ(c.dma.bandwidth_bits, 64u);
    EXPECT_EQ(c.dma.duplex, PlatformConfig::Dma::Duplex::Full);
}

TEST(PlatformConfig, DefaultsAreThePulpOpenFile) {
    EXPECT_EQ(load_platform(kConfigDir + "/pulp-open.yaml"), PlatformConfig{});
}

TEST(PlatformConfig, VegaFileLoadsWithItsValues) {
    const PlatformConfig c = load_platform(kConfigDir + "/vega.yaml");
    EXPECT_EQ(c.platform.name, "vega");
    EXPECT_EQ(c.cluster.cores, 8u);
    EXPECT_TRUE(c.cluster.controller_core);
    EXPECT_EQ(c.total_cores(), 9u);
    EXPECT_EQ(c.tcdm.size, 128u * 1024);
    EXPECT_EQ(c.tcdm.banks, 16u);
    EXPECT_EQ(c.l2.size, 1600u * 1024);
    EXPECT_EQ(c.fpu.count, 4u);
    EXPECT_EQ(c.fpu.mapping, "static-modulo");
    EXPECT_EQ(c.fpu.divsqrt_units, 1u);
    EXPECT_EQ(c.dma.bandwidth_bits, 64u);
    EXPECT_EQ(c.dma.duplex, PlatformConfig::Dma::Duplex::Full);
}

TEST(PlatformConfig, FileWithoutANameIsNamedAfterTheFile) {
    const PlatformConfig c = load_platform(temp_yaml("unnamed", "cluster:\n  cores: 8\n"));
    EXPECT_EQ(c.platform.name, "pulpsim_platform_unnamed");
}

TEST(PlatformConfig, CoreTimingComesFromTheFpuKeys) {
    PlatformConfig c;
    apply_overrides(c, {"fpu.addmul_latency=2", "fpu.other_latency=1", "fpu.divsqrt_latency=14",
                        "fpu.divsqrt_exact_latency=5"});
    const CoreTiming t = core_timing(c);
    EXPECT_EQ(t.fpu_addmul_latency, 2u);
    EXPECT_EQ(t.fpu_other_latency, 1u);
    EXPECT_EQ(t.fdiv_latency, 14u);
    EXPECT_EQ(t.fdiv_exact_latency, 5u);
}

// ---- sizes --------------------------------------------------------------------------------------------

TEST(PlatformConfig, ParsesSizes) {
    EXPECT_EQ(parse_size("64KiB"), 65536u);
    EXPECT_EQ(parse_size("64 KiB"), 65536u);
    EXPECT_EQ(parse_size("1MiB"), 1048576u);
    EXPECT_EQ(parse_size("131072"), 131072u);
    EXPECT_EQ(parse_size("0x10000"), 65536u);
    EXPECT_EQ(parse_size("0x1B"), 27u); // a hex digit, not a unit
    EXPECT_EQ(parse_size("64KB?"), std::nullopt);
    EXPECT_EQ(parse_size("64KB"), std::nullopt); // KB is ambiguous between 1000 and 1024
    EXPECT_EQ(parse_size("-65536"), std::nullopt);
    EXPECT_EQ(parse_size("1.5MiB"), std::nullopt);
    EXPECT_EQ(parse_size("KiB"), std::nullopt);
    EXPECT_EQ(parse_size(""), std::nullopt);
    EXPECT_EQ(parse_size("99999999999999999999"), std::nullopt);
    EXPECT_EQ(parse_size("17179869184GiB"), std::nullopt); // overflows 64 bits
}

TEST(PlatformConfig, SizeKeysTakeSizesInFiles) {
    const PlatformConfig c = load_platform(temp_yaml("sizes", "tcdm:\n  size: 0x40000\nl2:\n  size: 1MiB\n"));
    EXPECT_EQ(c.tcdm.size, 256u * 1024);
    EXPECT_EQ(c.l2.size, 1024u * 1024);
    const std::string e = load_error("negative_size", "tcdm:\n  size: -64KiB\n");
    EXPECT_HAS(e, ":2: key 'tcdm.size' expects a size");
    EXPECT_HAS(e, "'-64KiB'");
}

// ---- overrides ----------------------------------------------------------------------------------------

TEST(PlatformConfig, OverrideChangesTheValue) {
    PlatformConfig c = load_platform(kConfigDir + "/pulp-open.yaml");
    apply_override(c, "tcdm.size=256KiB");
    EXPECT_EQ(c.tcdm.size, 256u * 1024);
    // A ninth core would have no private FPU: rejected, and the configuration stays as it was.
    EXPECT_HAS(error_of([&] { apply_override(c, "cluster.controller_core=true"); }),
               "--set cluster.controller_core");
    EXPECT_FALSE(c.cluster.controller_core);
    EXPECT_EQ(c.tcdm.size, 256u * 1024);
}

TEST(PlatformConfig, OverridesThatOnlyWorkTogetherAreCheckedTogether) {
    PlatformConfig c;
    // Four cores with eight private FPUs is impossible on its own, fine with fpu.count=4.
    const std::string e = error_of([&] { apply_override(c, "cluster.cores=4"); });
    EXPECT_HAS(e, "--set cluster.cores:");
    EXPECT_HAS(e, "'private'");
    EXPECT_HAS(e, "(fpu.count 8, cluster.cores 4); fpu.count 4 gives each core its own");
    EXPECT_EQ(c.cluster.cores, 8u) << "a failed override leaves the configuration unchanged";
    apply_overrides(c, {"cluster.cores=4", "fpu.count=4", "fpu.divsqrt_units=4"});
    EXPECT_EQ(c.cluster.cores, 4u);
    EXPECT_EQ(c.fpu.count, 4u);
}

TEST(PlatformConfig, OverrideErrorsNameTheSetKey) {
    std::string e = override_error("tcdm.sise=64KiB");
    EXPECT_HAS(e, "--set tcdm.sise");
    EXPECT_HAS(e, "unknown key 'tcdm.sise'");
    EXPECT_HAS(e, "did you mean 'tcdm.size'");

    e = override_error("cluster.cores=eight");
    EXPECT_HAS(e, "--set cluster.cores:");
    EXPECT_HAS(e, "expects a whole number (0 or more), got 'eight'");
    e = override_error("dma.bandwidth_bits=-8"); // an integer, but no count of bits
    EXPECT_HAS(e, "expects a whole number (0 or more), got '-8'");

    e = override_error("tcdm.size");
    EXPECT_HAS(e, "--set 'tcdm.size': expected KEY=VALUE");

    e = override_error("tcdm.size=");
    EXPECT_HAS(e, "--set tcdm.size: expects a size");
    EXPECT_HAS(e, "got nothing");

    e = override_error("tcdm.size=[1, 2");
    EXPECT_HAS(e, "--set tcdm.size: malformed value");

    e = override_error("core.fdiv_latency=10"); // the name the command line used before platform files
    EXPECT_HAS(e, "did you mean 'fpu.divsqrt_latency'");

    e = override_error("tcdm.banks=12");
    EXPECT_HAS(e, "--set tcdm.banks: must be a power of two, got 12");
}

TEST(PlatformConfig, OverrideValuesUseYamlScalarSyntax) {
    PlatformConfig c;
    apply_overrides(c, {"platform.name='my chip'", "dma.duplex=half-duplex", "tcdm.base=0x10000000"});
    EXPECT_EQ(c.platform.name, "my chip");
    EXPECT_EQ(c.dma.duplex, PlatformConfig::Dma::Duplex::Half);
}

// ---- errors in files ----------------------------------------------------------------------------------

TEST(PlatformConfig, MalformedYamlGivesLineAndColumn) {
    const std::string e = load_error("malformed", "cluster:\n  cores: [8\ntcdm:\n  size: 64KiB\n");
    EXPECT_HAS(e, "pulpsim_platform_malformed.yaml:");
    EXPECT_HAS(e, "malformed YAML");
    // yaml-cpp notices the unclosed sequence where the next mapping starts.
    EXPECT_HAS(e, ".yaml:3:5: malformed YAML: end of sequence flow not found");
}

TEST(PlatformConfig, UnknownKeySuggestsTheClosest) {
    const std::string e = load_error("unknown_key", "platform:\n  name: x\ntcdm:\n  sise: 64KiB\n");
    EXPECT_HAS(e, "pulpsim_platform_unknown_key.yaml:4: unknown key 'tcdm.sise'");
    EXPECT_HAS(e, "did you mean 'tcdm.size'");
    // Nothing close: the section's keys are listed.
    EXPECT_HAS(load_error("far_key", "tcdm:\n  capacity_in_bytes: 1\n"), "known keys: tcdm.base, tcdm.size");
}

TEST(PlatformConfig, UnknownSectionSuggestsTheClosest) {
    const std::string e = load_error("unknown_section", "tcmd:\n  size: 64KiB\n");
    EXPECT_HAS(e, ".yaml:1: unknown section 'tcmd'");
    EXPECT_HAS(e, "did you mean 'tcdm'");
}

TEST(PlatformConfig, WrongTypeNamesKeyAndValue) {
    std::string e = load_error("wrong_type", "cluster:\n  cores: eight\n");
    EXPECT_HAS(e, "pulpsim_platform_wrong_type.yaml:2: key 'cluster.cores' expects a whole number (0 or "
                  "more), got 'eight'");
    e = load_error("wrong_bool", "cluster:\n  controller_core: 1\n");
    EXPECT_HAS(e, ":2: key 'cluster.controller_core' expects true or false, got '1'");
    e = load_error("sequence_value", "\ncluster:\n  cores: [1, 2]\n");
    EXPECT_HAS(e, ":3: key 'cluster.cores' expects a whole number (0 or more), got a list");
    e = load_error("empty_value", "tcdm:\n  size:\n");
    EXPECT_HAS(e, ":2: key 'tcdm.size' expects a size");
    EXPECT_HAS(e, "got nothing");
    e = load_error("scalar_section", "tcdm: 64KiB\n");
    EXPECT_HAS(e, ":1: section 'tcdm' expects `key: value` lines, got a scalar");
    e = load_error("top_sequence", "- tcdm\n");
    EXPECT_HAS(e, ":1: expected sections");
}

TEST(PlatformConfig, ImpossibleSingleValues) {
    std::string e = load_error("banks_not_pow2", "tcdm:\n  size: 96KiB\n  banks: 12\n");
    EXPECT_HAS(e, "pulpsim_platform_banks_not_pow2.yaml:3: key 'tcdm.banks' must be a power of two, got 12");
    e = load_error("tcdm_small", "tcdm:\n  size: 512\n");
    EXPECT_HAS(e, ":2: key 'tcdm.size' must be between 1KiB and 16MiB, got 512");
    e = load_error("tcdm_large", "tcdm:\n  size: 32MiB\n");
    EXPECT_HAS(e, ":2: key 'tcdm.size' must be between 1KiB and 16MiB, got 32MiB");
    e = load_error("no_cores", "cluster:\n  cores: 0\n");
    EXPECT_HAS(e, ":2: key 'cluster.cores' must be between 1 and 16, got 0");
    e = load_error("many_cores", "cluster:\n  cores: 17\n");
    EXPECT_HAS(e, ":2: key 'cluster.cores' must be between 1 and 16, got 17");
    e = load_error("no_fpu", "fpu:\n  mapping: dynamic\n  count: 0\n");
    EXPECT_HAS(e, ":3: key 'fpu.count' must be between 1 and ");
    EXPECT_HAS(e, ", got 0");
    e = load_error("dma_bits", "dma:\n  bandwidth_bits: 12\n");
    EXPECT_HAS(e, ":2: key 'dma.bandwidth_bits' must be a multiple of 8, got 12");
}

TEST(PlatformConfig, UnknownNamesListTheValidOnes) {
    std::string e = load_error("mapping", "fpu:\n  mapping: round-robin\n");
    EXPECT_HAS(e, ":2: key 'fpu.mapping' expects one of ");
    for (const char* name : {"private", "static-modulo", "dynamic"})
        EXPECT_HAS(e, name);
    EXPECT_HAS(e, "got 'round-robin'");
    e = load_error("duplex", "dma:\n  duplex: simplex\n");
    EXPECT_HAS(e, ":2: key 'dma.duplex' expects one of half-duplex, full-duplex, got 'simplex'");
    e = load_error("icache", "icache:\n  model: ideal\n");
    EXPECT_HAS(e, ":2: key 'icache.model' expects one of perfect, pulp-open, got 'ideal'");
}

TEST(PlatformConfig, RelationsBetweenKeys) {
    // The TCDM must hold a whole number of word rows across the banks: 16 banks x 4 B = 64 B.
    std::string e = load_error("size_vs_banks", "tcdm:\n  banks: 16\n  size: 1040\n");
    EXPECT_HAS(
        e, "pulpsim_platform_size_vs_banks.yaml:3: tcdm.size 1040 is not a multiple of 16 banks x 4 bytes");

    // Private FPUs: one per core, the controller core included.
    e = load_error("private_count",
                   "cluster:\n  controller_core: true\nfpu:\n  mapping: private\n  count: 8\n");
    EXPECT_HAS(e, "pulpsim_platform_private_count.yaml:5: ");
    EXPECT_HAS(e, "'private'");
    EXPECT_HAS(e,
               "(fpu.count 8, cluster.cores 8 + the controller core); fpu.count 9 gives each core its own");
    // Only the mapping is in the file: the error points at it.
    e = load_error("private_mapping", "cluster:\n  cores: 4\nfpu:\n  mapping: private\n");
    EXPECT_HAS(e, ".yaml:4: ");
    EXPECT_HAS(e, "(fpu.count 8, cluster.cores 4)");

    e = load_error("overlap", "l2:\n  base: 0x10008000\n");
    EXPECT_HAS(e, ".yaml:2: the TCDM [0x10000000, 0x1000FFFF] and the L2 [0x10008000");
    EXPECT_HAS(e, "overlap");

    e = load_error("beyond_4g", "l2:\n  base: 0xFFFFF000\n");
    EXPECT_HAS(e, ".yaml:2: the L2");
    EXPECT_HAS(e, "beyond the 32-bit address space");

    e = load_error("divsqrt", "fpu:\n  divsqrt_latency: 10\n  divsqrt_exact_latency: 12\n");
    EXPECT_HAS(e, ".yaml:3: fpu.divsqrt_exact_latency 12 exceeds fpu.divsqrt_latency 10");
}

TEST(PlatformConfig, BankingFactorFollowsTheCores) {
    PlatformConfig c = load_platform(temp_yaml("factor", "tcdm:\n  banking_factor: 2\ncluster:\n  cores: 4\n"
                                                         "fpu:\n  count: 4\n  divsqrt_units: 4\n"));
    EXPECT_EQ(c.tcdm.banks, 8u);
    apply_overrides(c, {"cluster.cores=8", "fpu.count=8"});
    EXPECT_EQ(c.tcdm.banks, 16u);
    apply_override(c, "tcdm.banks=32"); // an explicit count replaces the factor
    EXPECT_EQ(c.tcdm.banking_factor, 0u);
    EXPECT_EQ(c.tcdm.banks, 32u);

    const std::string e = load_error(
        "factor_not_pow2", "cluster:\n  cores: 3\nfpu:\n  mapping: dynamic\ntcdm:\n  banking_factor: 2\n");
    EXPECT_HAS(e, ".yaml:6: tcdm.banking_factor 2 x 3 cores = 6 banks, not a power of two");
}

TEST(PlatformConfig, ValidateChecksAStructEditedInCode) {
    PlatformConfig c;
    EXPECT_NO_THROW(validate(c));
    c.tcdm.banks = 0;
    EXPECT_HAS(error_of([&] { validate(c); }), "tcdm.banks 0 is not a power of two");
    c = PlatformConfig{};
    c.fpu.mapping = "nearest";
    EXPECT_HAS(error_of([&] { validate(c); }), "fpu.mapping 'nearest' is not one of");
}

TEST(PlatformConfig, BanksAndBankingFactorExcludeEachOther) {
    const std::string e = load_error("both_banks", "tcdm:\n  banks: 16\n  banking_factor: 2\n");
    EXPECT_HAS(e, ".yaml:3: key 'tcdm.banking_factor' and key 'tcdm.banks' (line 2) exclude each other");
}

TEST(PlatformConfig, KeyGivenTwiceIsAnError) {
    std::string e = load_error("twice", "tcdm:\n  size: 64KiB\n  banks: 16\n  size: 128KiB\n");
    EXPECT_HAS(e, "pulpsim_platform_twice.yaml:4: key 'tcdm.size' given twice (first on line 2)");
    e = load_error("section_twice", "tcdm:\n  size: 64KiB\nfpu:\n  count: 8\ntcdm:\n  banks: 16\n");
    EXPECT_HAS(e, ".yaml:5: section 'tcdm' given twice (first on line 1)");
    // The same for --set: the later value would otherwise win without a word.
    PlatformConfig c;
    EXPECT_HAS(error_of([&] { apply_overrides(c, {"tcdm.size=64KiB", "fpu.count=4", "tcdm.size=32KiB"}); }),
               "--set tcdm.size: given twice: give it once");
    EXPECT_EQ(c.tcdm.size, PlatformConfig{}.tcdm.size);
}

TEST(PlatformConfig, MissingFileIsNamed) {
    const std::string path = kConfigDir + "/no-such-platform.yaml";
    const std::string e = error_of([&] { load_platform(path); });
    EXPECT_HAS(e, path);
    EXPECT_HAS(e, "No such file or directory");
    EXPECT_HAS(error_of([&] { load_platform(kConfigDir); }), "is a directory");
}

// ---- round trip ---------------------------------------------------------------------------------------

TEST(PlatformConfig, ToYamlLoadsBackIdentically) {
    for (const char* file : {"pulp-open.yaml", "vega.yaml"}) {
        const PlatformConfig c = load_platform(kConfigDir + "/" + file);
        EXPECT_EQ(load_platform(temp_yaml("roundtrip", to_yaml(c))), c) << file;
    }
    // Every key away from its default, and a derived bank count.
    PlatformConfig c;
    apply_overrides(c, {"platform.name=odd one",
                        "cluster.cores=2",
                        "cluster.controller_core=true",
                        "tcdm.base=0x20000000",
                        "tcdm.size=1040KiB",
                        "tcdm.banking_factor=4",
                        "l2.base=0x30000000",
                        "l2.size=2052",
                        "l2.latency=40",
                        "fpu.count=3",
                        "fpu.mapping=dynamic",
                        "fpu.addmul_latency=1",
                        "fpu.other_latency=2",
                        "fpu.divsqrt_units=2",
                        "fpu.divsqrt_latency=14",
                        "fpu.divsqrt_exact_latency=14",
                        "icache.model=perfect",
                        "icache.l0_size=1KiB",
                        "icache.l1_size=8KiB",
                        "icache.refill_latency=5",
                        "event_unit.sleep_latency=9",
                        "event_unit.wake_latency=3",
                        "dma.bandwidth_bits=8",
                        "dma.duplex=half-duplex",
                        "dma.queue_depth=16",
                        "engine.quantum=1000",
                        "engine.lookahead=4"});
    const std::string yaml = to_yaml(c);
    EXPECT_HAS(yaml, "  banking_factor: 4\n");
    EXPECT_HAS(yaml, "  # banks: 8 (derived)\n");
    EXPECT_HAS(yaml, "  size: 1040KiB\n");
    EXPECT_HAS(yaml, "  base: 0x20000000\n");
    EXPECT_HAS(yaml, "  size: 2052\n");
    EXPECT_EQ(load_platform(temp_yaml("roundtrip_all", yaml)), c);
    EXPECT_NE(c, PlatformConfig{});
}

TEST(PlatformConfig, DescribeListsEveryKeyInEffect) {
    const auto pairs = describe(load_platform(kConfigDir + "/vega.yaml"));
    const auto keys = platform_keys();
    EXPECT_EQ(pairs.size(), keys.size() - 1) << "all but tcdm.banking_factor, which vega does not use";
    bool found = false;
    for (const auto& [key, value] : pairs)
        if (key == "fpu.mapping") found = value == "static-modulo";
    EXPECT_TRUE(found);
}

} // namespace
} // namespace pulpsim
