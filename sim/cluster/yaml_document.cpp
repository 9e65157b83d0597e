#include "cluster/yaml_document.hpp"

#include <sstream>
#include <vector>

namespace pulpsim {

YAML::Node load_one_document(const std::string& text) {
    std::vector<YAML::Node> documents = YAML::LoadAll(text);
    if (documents.empty()) return YAML::Node();
    if (documents.size() == 1) return documents.front();
    // Named at the line that ends the first document: the second one may be empty, and its mark then
    // points past the separator.
    YAML::Mark at = documents[1].Mark();
    std::istringstream lines(text);
    std::string line;
    int first_separator = -1;
    bool content_seen = false;
    for (int i = 0; std::getline(lines, line) && i <= at.line; ++i) {
        const bool separator = (line.starts_with("---") || line.starts_with("...")) &&
                               (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
        if (separator && content_seen) {
            first_separator = i;
            break;
        }
        const auto first = line.find_first_not_of(" \t\r");
        if (!separator && first != std::string::npos && line[first] != '#') content_seen = true;
    }
    if (first_separator >= 0) {
        at.line = first_separator;
        at.column = 0;
    }
    throw YAML::ParserException(at,
                                "a second YAML document begins here (after '---' or '...'); the file must "
                                "hold one");
}

} // namespace pulpsim
