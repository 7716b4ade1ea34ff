#pragma once

#include <filesystem>
#include <string>
#include <variant>
#include <vector>

// A report as plain data, written twice: as GitHub-flavoured Markdown with the images as files
// beside it (to paste into a pull request), and as one self-contained HTML file with the images
// embedded (to read offline). Text is plain; `backticks` mark code (options, commands, files).
namespace wdl::report {

struct Paragraph {
    std::string text;
};

// Lines quoted verbatim, as a program printed them; more than 12 are folded away behind a
// <details> line saying how many, in both forms.
struct Preformatted {
    std::vector<std::string> lines;
};

struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;  // each as long as the header
};

// A PNG in the report's folder, named relative to it.
struct Image {
    std::string file;
    std::string caption;
};

using Block = std::variant<Paragraph, Preformatted, Table, Image>;

struct Section {
    std::string title;
    std::vector<Block> blocks;
    std::string reproduced_by;  // the option or program that reproduces the section
};

struct Document {
    std::string title;
    std::vector<Paragraph> introduction;
    std::vector<Section> sections;
};

// The Markdown text; images are linked by their file names.
std::string markdown_of(const Document& document);

// The HTML text, the images of `image_folder` embedded as data: URIs, styles inline and nothing
// fetched from elsewhere. A script records on load how many images the browser could show, as
// <body data-images-loaded="LOADED/TOTAL">. Throws wdl::Error naming an image it cannot read.
std::string html_of(const Document& document, const std::filesystem::path& image_folder);

// Writes report.md and report.html into `folder` (which holds the images), each atomically.
void write_report(const Document& document, const std::filesystem::path& folder);

}  // namespace wdl::report
