// Reading one YAML document: every YAML input of the project (platforms, sweeps, baselines, tuning files,
// memory maps) is a single document, and yaml-cpp's Load would silently drop whatever follows a '---' or
// '...' line. Also where a node is and what it is, as the readers' error messages name them.
#pragma once

#include <string>
#include <string_view>
#include <yaml-cpp/yaml.h>

namespace pulpsim {

// The document `text` holds, or a Null node when it holds none (empty, or only comments); a later document
// with no value (a trailing `---`) is harmless. Throws YAML::ParserException, whose mark names the line, for
// malformed YAML and for a second document.
YAML::Node load_one_document(const std::string& text);

// The line of the file a node starts on, counted from 1 as an error message names it; line 1 for the
// Null node of an empty file, which has no mark.
inline int line_of(const YAML::Node& n) {
    return n.Mark().line < 0 ? 1 : n.Mark().line + 1;
}
// What a node is, for "expects a value, got a list".
std::string_view node_kind(const YAML::Node& n);

} // namespace pulpsim
