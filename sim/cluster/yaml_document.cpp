#include "cluster/yaml_document.hpp"

#include <sstream>
#include <yaml-cpp/eventhandler.h>

namespace pulpsim {
namespace {

// Notes where a document's first value is; an empty document (or a bare null) has none.
class ContentProbe : public YAML::EventHandler {
  public:
    bool found = false;
    YAML::Mark at;

    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { note(mark); }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override {
        note(mark);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {
        note(mark);
    }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {
        note(mark);
    }
    void OnMapEnd() override {}

  private:
    void note(const YAML::Mark& mark) {
        if (!found) at = mark;
        found = true;
    }
};

bool is_separator(const std::string& line) {
    return (line.starts_with("---") || line.starts_with("...")) &&
           (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
}

} // namespace

YAML::Node load_one_document(const std::string& text) {
    YAML::Node first = YAML::Load(text);
    // The documents after the first are only looked at, not built. yaml-cpp 0.7's LoadAll never ends on
    // some malformed text (a ',' at the top level yields empty documents without moving on), so no more
    // documents are read than the text has separator lines.
    size_t separators = 0;
    {
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);)
            separators += is_separator(line) ? 1 : 0;
    }
    std::istringstream in(text);
    YAML::Parser parser(in);
    ContentProbe skipped;
    if (!parser.HandleNextDocument(skipped)) return first;
    ContentProbe later;
    for (size_t i = 0; i < separators && !later.found; ++i)
        if (!parser.HandleNextDocument(later)) break;
    if (!later.found) return first;
    // Named at the separator that ends the first document.
    YAML::Mark at = later.at;
    std::istringstream lines(text);
    std::string line;
    bool content_seen = false;
    for (int i = 0; std::getline(lines, line) && i <= later.at.line; ++i) {
        const bool separator = is_separator(line);
        if (separator && content_seen) {
            at.line = i;
            at.column = 0;
            break;
        }
        const auto first_char = line.find_first_not_of(" \t\r");
        if (!separator && first_char != std::string::npos && line[first_char] != '#') content_seen = true;
    }
    throw YAML::ParserException(at,
                                "a second YAML document begins here (after '---' or '...'); the file must "
                                "hold one");
}

std::string_view node_kind(const YAML::Node& n) {
    if (n.IsNull()) return "nothing";
    if (n.IsMap()) return "a mapping";
    if (n.IsSequence()) return "a list";
    return "a scalar";
}

} // namespace pulpsim
