// The ELF loader and what runs after it: any file given as a program either loads and runs (to an exit, a
// one-line error or the cycle limit) or is refused with a one-line error naming the file.
#include <stdexcept>

#include "cluster/bare_system.hpp"
#include "cluster/cluster_system.hpp"
#include "cluster/platform_config.hpp"
#include "fuzz_input.hpp"
#include "memory/elf_image.hpp"

namespace {
constexpr uint64_t kCycleLimit = 4000; // enough to reach main() and run a few loops of a kernel

void check_outcome(const pulpsim::RunOutcome& outcome) {
    if (outcome.kind == pulpsim::RunOutcome::Kind::Error) pulpsim::fuzz::check_error(outcome.message);
    if (outcome.cycles > kCycleLimit + 1024) pulpsim::fuzz::fail("run went past the cycle limit", "");
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const pulpsim::fuzz::InputFile input("program.elf");
    input.write(data, size);
    std::optional<pulpsim::ElfImage> elf;
    try {
        elf = pulpsim::ElfImage::load(input.path());
    } catch (const std::runtime_error& e) {
        pulpsim::fuzz::check_error(e.what(), input.path());
        return 0;
    }
    (void)elf->describe_address(elf->entry());
    try {
        pulpsim::ClusterOptions options;
        options.max_cycles = kCycleLimit;
        options.capture_output = true;
        pulpsim::ClusterMachine cluster(*elf, pulpsim::PlatformConfig{}, options);
        check_outcome(cluster.run_to_end());
    } catch (const std::runtime_error& e) {
        pulpsim::fuzz::check_error(e.what());
    }
    try {
        pulpsim::BareOptions options;
        options.max_cycles = kCycleLimit;
        // libFuzzer reports an allocation of its RSS limit (fuzz.sh: 2 GiB) as out of memory; the refusal of
        // a larger region is the same code either way.
        options.max_region_size = 256u << 20;
        options.capture_output = true;
        pulpsim::BareMachine bare(*elf, options);
        check_outcome(bare.run_to_end());
    } catch (const std::runtime_error& e) {
        pulpsim::fuzz::check_error(e.what());
    }
    return 0;
}
