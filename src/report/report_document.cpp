#include "wdl/report/report_document.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "wdl/util/atomic_file.hpp"
#include "wdl/util/base64.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/whole_file.hpp"

namespace wdl::report {
namespace {

// Splits text into alternating plain and code pieces at its backticks: even indices plain,
// odd ones code. An unpaired backtick leaves the rest as code, as Markdown would not.
std::vector<std::string> code_spans(std::string_view text) {
    std::vector<std::string> pieces(1);
    for (char c : text) {
        if (c == '`')
            pieces.emplace_back();
        else
            pieces.back() += c;
    }
    return pieces;
}

// Plain text that Markdown shows as written: its markup characters escaped.
std::string markdown_plain(std::string_view text) {
    std::string escaped;
    for (char c : text) {
        if (std::string_view("\\*_<>[]|#").find(c) != std::string_view::npos) escaped += '\\';
        escaped += c;
    }
    return escaped;
}

std::string markdown_inline(std::string_view text) {
    auto pieces = code_spans(text);
    std::string out;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (i % 2 == 0) {
            out += markdown_plain(pieces[i]);
        } else {
            // GitHub keeps a '|' inside code as a cell boundary unless it is escaped.
            std::string code;
            for (char c : pieces[i]) code += c == '|' ? std::string("\\|") : std::string(1, c);
            out += '`' + code + '`';
        }
    }
    return out;
}

// Quoted lines beyond this many are folded away (<details>), so that a long log does not push
// the findings off the first screen; a click shows them.
constexpr std::size_t kFoldedLines = 12;

std::string fold_summary(const Preformatted& block) {
    return fmt::format("{} lines", block.lines.size());
}

// A fence longer than any run of backticks in the lines.
std::string fence_for(const std::vector<std::string>& lines) {
    std::size_t longest = 0;
    for (const auto& line : lines) {
        std::size_t run = 0;
        for (char c : line) {
            run = c == '`' ? run + 1 : 0;
            longest = std::max(longest, run);
        }
    }
    return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

struct MarkdownBlock {
    std::string& out;
    void operator()(const Paragraph& paragraph) const {
        out += markdown_inline(paragraph.text) + "\n\n";
    }
    void operator()(const Preformatted& block) const {
        bool folded = block.lines.size() > kFoldedLines;
        // GitHub renders Markdown inside <details> when blank lines set it apart.
        if (folded) out += fmt::format("<details><summary>{}</summary>\n\n", fold_summary(block));
        auto fence = fence_for(block.lines);
        out += fence + "text\n";
        for (const auto& line : block.lines) out += line + "\n";
        out += fence + "\n\n";
        if (folded) out += "</details>\n\n";
    }
    void operator()(const Table& table) const {
        auto row = [&](const std::vector<std::string>& cells) {
            out += "|";
            for (const auto& cell : cells) {
                out += ' ';
                out += markdown_inline(cell);
                out += " |";
            }
            out += "\n";
        };
        row(table.header);
        out += "|";
        for (std::size_t i = 0; i < table.header.size(); ++i) out += i == 0 ? "---|" : "---:|";
        out += "\n";
        for (const auto& cells : table.rows) row(cells);
        out += "\n";
    }
    void operator()(const Image& image) const {
        out += fmt::format("![{}]({})\n\n*{}*\n\n", markdown_plain(image.caption), image.file,
                           markdown_inline(image.caption));
    }
};

std::string html_escape(std::string_view text) {
    std::string escaped;
    for (char c : text) {
        switch (c) {
            case '&':
                escaped += "&amp;";
                break;
            case '<':
                escaped += "&lt;";
                break;
            case '>':
                escaped += "&gt;";
                break;
            case '"':
                escaped += "&quot;";
                break;
            case '\'':
                escaped += "&#39;";
                break;
            default:
                escaped += c;
        }
    }
    return escaped;
}

std::string html_inline(std::string_view text) {
    auto pieces = code_spans(text);
    std::string out;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        out += i % 2 == 0 ? html_escape(pieces[i]) : "<code>" + html_escape(pieces[i]) + "</code>";
    }
    return out;
}

std::string read_binary(const std::filesystem::path& file) {
    auto bytes = util::read_whole_file(file);
    if (!bytes) throw Error("cannot read the report's image " + file.string());
    return std::move(*bytes);
}

struct HtmlBlock {
    std::string& out;
    const std::filesystem::path& image_folder;
    void operator()(const Paragraph& paragraph) const {
        out += "<p>" + html_inline(paragraph.text) + "</p>\n";
    }
    void operator()(const Preformatted& block) const {
        bool folded = block.lines.size() > kFoldedLines;
        if (folded) out += fmt::format("<details><summary>{}</summary>\n", fold_summary(block));
        out += "<pre>";
        for (const auto& line : block.lines) out += html_escape(line) + "\n";
        out += "</pre>\n";
        if (folded) out += "</details>\n";
    }
    void operator()(const Table& table) const {
        out += "<table>\n<tr>";
        for (const auto& cell : table.header) out += "<th>" + html_inline(cell) + "</th>";
        out += "</tr>\n";
        for (const auto& cells : table.rows) {
            out += "<tr>";
            for (const auto& cell : cells) out += "<td>" + html_inline(cell) + "</td>";
            out += "</tr>\n";
        }
        out += "</table>\n";
    }
    void operator()(const Image& image) const {
        auto bytes = read_binary(image_folder / image.file);
        out += "<figure><img alt=\"" + html_escape(image.caption) +
               "\" src=\"data:image/png;base64," + util::base64_encode(bytes) + "\"><figcaption>" +
               html_inline(image.caption) + "</figcaption></figure>\n";
    }
};

constexpr std::string_view kStyle = R"(body { font-family: sans-serif; max-width: 72em;
  margin: 1em auto; padding: 0 1em; line-height: 1.4; color: #1f2328; }
h1 { border-bottom: 1px solid #d0d7de; }
h2 { border-bottom: 1px solid #d0d7de; margin-top: 1.6em; }
code, pre { font-family: monospace; background: #f6f8fa; }
pre { padding: 0.6em; overflow-x: auto; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #d0d7de; padding: 0.2em 0.6em; }
td { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td:first-child { text-align: left; }
figure { margin: 1em 0; }
img { max-width: 100%; }
figcaption { font-style: italic; }
.reproduce { color: #57606a; }
summary { cursor: pointer; color: #0969da; }
)";

// Counts the images the browser could decode once the page has loaded (a headless browser's
// test reads it from the DOM).
constexpr std::string_view kImageCheck = R"(window.addEventListener("load", function () {
  var loaded = 0;
  for (var i = 0; i < document.images.length; i++) {
    var image = document.images[i];
    if (image.complete && image.naturalWidth > 0) loaded++;
  }
  document.body.setAttribute("data-images-loaded", loaded + "/" + document.images.length);
});
)";

}  // namespace

std::string markdown_of(const Document& document) {
    std::string out = "# " + markdown_inline(document.title) + "\n\n";
    MarkdownBlock block{out};
    for (const auto& paragraph : document.introduction) block(paragraph);
    for (const auto& section : document.sections) {
        out += "## " + markdown_inline(section.title) + "\n\n";
        for (const auto& content : section.blocks) std::visit(block, content);
        if (!section.reproduced_by.empty())
            out += "Reproduce: " + markdown_inline(section.reproduced_by) + "\n\n";
    }
    return out;
}

std::string html_of(const Document& document, const std::filesystem::path& image_folder) {
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    out += "<title>" + html_escape(document.title) + "</title>\n";
    out += "<style>\n" + std::string(kStyle) + "</style>\n";
    out += "<script>\n" + std::string(kImageCheck) + "</script>\n</head>\n<body>\n";
    out += "<h1>" + html_inline(document.title) + "</h1>\n";
    HtmlBlock block{out, image_folder};
    for (const auto& paragraph : document.introduction) block(paragraph);
    for (const auto& section : document.sections) {
        out += "<section>\n<h2>" + html_inline(section.title) + "</h2>\n";
        for (const auto& content : section.blocks) std::visit(block, content);
        if (!section.reproduced_by.empty()) {
            out += "<p class=\"reproduce\">Reproduce: " + html_inline(section.reproduced_by) +
                   "</p>\n";
        }
        out += "</section>\n";
    }
    out += "</body>\n</html>\n";
    return out;
}

void write_report(const Document& document, const std::filesystem::path& folder) {
    util::write_file_atomically(folder / "report.md", markdown_of(document));
    util::write_file_atomically(folder / "report.html", html_of(document, folder));
}

}  // namespace wdl::report
