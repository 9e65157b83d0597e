// Reading one YAML document: every YAML input of the project (platforms, sweeps, baselines, tuning files,
// memory maps) is a single document, and yaml-cpp's Load would silently drop whatever follows a '---' or
// '...' line.
#pragma once

#include <string>
#include <yaml-cpp/yaml.h>

namespace pulpsim {

// The document `text` holds, or a Null node when it holds none (empty, or only comments); a later document
// with no value (a trailing `---`) is harmless. Throws YAML::ParserException, whose mark names the line, for
// malformed YAML and for a second document.
YAML::Node load_one_document(const std::string& text);

} // namespace pulpsim
