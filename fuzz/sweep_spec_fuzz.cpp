// Sweep files: either refused with one line naming the file, or every point they expand to is a
// configuration that validates.
#include <stdexcept>

#include "cluster/platform_config.hpp"
#include "fuzz_input.hpp"
#include "runs/sweep_spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const pulpsim::fuzz::InputFile input("sweep.yaml");
    input.write(data, size);
    pulpsim::runs::SweepSpec spec;
    try {
        spec = pulpsim::runs::load_sweep_spec(input.path());
    } catch (const std::runtime_error& e) {
        pulpsim::fuzz::check_error(e.what(), input.path());
        return 0;
    }
    std::vector<pulpsim::runs::DesignPoint> points;
    try {
        points = pulpsim::runs::expand_points(spec, "fuzz");
    } catch (const std::runtime_error& e) {
        pulpsim::fuzz::check_error(e.what(), input.path());
        return 0;
    }
    for (const auto& point : points) {
        try {
            pulpsim::validate(point.config);
        } catch (const std::runtime_error& e) {
            pulpsim::fuzz::fail("an expanded point does not validate", e.what());
        }
    }
    return 0;
}
