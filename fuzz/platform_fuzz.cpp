// Platform files and --set: the input is a platform YAML, optionally followed by a line `%%` and one
// `key=value` assignment per line. Whatever loads must write out as a file that loads back equal.
#include <stdexcept>
#include <string>
#include <vector>

#include "cluster/platform_config.hpp"
#include "core/hart.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const pulpsim::fuzz::InputFile input("platform.yaml");
    static const pulpsim::fuzz::InputFile written("written.yaml");
    const std::string text(reinterpret_cast<const char*>(data), size);
    const size_t split = text.find("\n%%\n");
    input.write(text.substr(0, split));
    std::vector<std::string> assignments;
    if (split != std::string::npos) {
        size_t start = split + 4;
        while (start <= text.size()) {
            const size_t end = std::min(text.find('\n', start), text.size());
            assignments.push_back(text.substr(start, end - start));
            start = end + 1;
        }
    }

    pulpsim::PlatformConfig config;
    try {
        config = pulpsim::load_platform(input.path());
    } catch (const std::runtime_error& e) {
        pulpsim::fuzz::check_error(e.what(), input.path());
        return 0;
    }
    for (const std::string& assignment : assignments) {
        const pulpsim::PlatformConfig before = config;
        try {
            pulpsim::apply_override(config, assignment);
        } catch (const std::runtime_error& e) {
            pulpsim::fuzz::check_error(e.what());
            if (!(config == before))
                pulpsim::fuzz::fail("a refused --set changed the configuration", assignment);
        }
    }
    try {
        pulpsim::validate(config);
    } catch (const std::runtime_error& e) {
        pulpsim::fuzz::check_error(e.what());
        return 0;
    }
    (void)pulpsim::describe(config);
    (void)pulpsim::core_timing(config);
    const std::string yaml = pulpsim::to_yaml(config);
    written.write(yaml);
    try {
        if (!(pulpsim::load_platform(written.path()) == config))
            pulpsim::fuzz::fail("to_yaml does not load back equal", yaml);
    } catch (const std::runtime_error& e) {
        pulpsim::fuzz::fail("to_yaml does not load back", e.what());
    }
    (void)pulpsim::parse_size(text.substr(0, 32));
    return 0;
}
